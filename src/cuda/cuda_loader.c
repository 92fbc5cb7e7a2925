/* Loading libcuda, checking every driver call, probing devices (cuda_loader.h). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/log.h"
#include "cuda/cuda_loader.h"

static LsCudaApi api;
static int api_status = -ENODEV;
static char api_error[256] = "libcuda was not loaded";
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_api(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(api_error, sizeof(api_error), "cannot load the CUDA driver (libcuda.so.1): %s",
                 dlerror());
        return;
    }
    static const struct {
        const char *symbol, *fallback;
        size_t offset;
    } syms[] = {
#define SYM(field, symbol) { symbol, NULL, offsetof(LsCudaApi, field) }
#define SYM2(field, symbol, fallback) { symbol, fallback, offsetof(LsCudaApi, field) }
        SYM(cuInit, "cuInit"),
        SYM(cuDriverGetVersion, "cuDriverGetVersion"),
        SYM(cuDeviceGetCount, "cuDeviceGetCount"),
        SYM(cuDeviceGet, "cuDeviceGet"),
        SYM(cuDeviceGetName, "cuDeviceGetName"),
        SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
        SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
        SYM(cuCtxPushCurrent, "cuCtxPushCurrent_v2"),
        SYM(cuCtxPopCurrent, "cuCtxPopCurrent_v2"),
        SYM(cuModuleLoadData, "cuModuleLoadData"),
        SYM(cuModuleUnload, "cuModuleUnload"),
        SYM(cuModuleGetFunction, "cuModuleGetFunction"),
        SYM(cuModuleGetGlobal, "cuModuleGetGlobal_v2"),
        SYM(cuMemAlloc, "cuMemAlloc_v2"),
        SYM(cuMemFree, "cuMemFree_v2"),
        SYM(cuMemHostAlloc, "cuMemHostAlloc"),
        SYM(cuMemFreeHost, "cuMemFreeHost"),
        SYM(cuMemHostRegister, "cuMemHostRegister_v2"),
        SYM(cuMemHostUnregister, "cuMemHostUnregister"),
        SYM(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
        SYM(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
        SYM(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
        SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
        SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
        SYM(cuFuncSetAttribute, "cuFuncSetAttribute"),
        SYM(cuMemsetD8Async, "cuMemsetD8Async"),
        SYM(cuLaunchKernel, "cuLaunchKernel"),
        SYM(cuStreamCreate, "cuStreamCreate"),
        SYM(cuStreamDestroy, "cuStreamDestroy_v2"),
        SYM(cuStreamSynchronize, "cuStreamSynchronize"),
        SYM(cuStreamWaitEvent, "cuStreamWaitEvent"),
        SYM(cuLaunchHostFunc, "cuLaunchHostFunc"),
        SYM(cuEventCreate, "cuEventCreate"),
        SYM(cuEventDestroy, "cuEventDestroy_v2"),
        SYM(cuEventRecord, "cuEventRecord"),
        SYM(cuEventSynchronize, "cuEventSynchronize"),
        SYM2(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
        SYM(cuGetErrorName, "cuGetErrorName"),
        SYM(cuGetErrorString, "cuGetErrorString"),
#undef SYM
#undef SYM2
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *fn = dlsym(lib, syms[i].symbol);
        if (!fn && syms[i].fallback)
            fn = dlsym(lib, syms[i].fallback);
        if (!fn) {
            snprintf(api_error, sizeof(api_error),
                     "the CUDA driver (libcuda.so.1) lacks %s: driver too old", syms[i].symbol);
            dlclose(lib);
            return;
        }
        memcpy((char *)&api + syms[i].offset, &fn, sizeof(fn));
    }
    const CUresult r = api.cuInit(0);
    if (r) {
        const char *name = "?", *text = "?";
        api.cuGetErrorName(r, &name);
        api.cuGetErrorString(r, &text);
        snprintf(api_error, sizeof(api_error), "cuInit(0) failed: %s (%s)", name, text);
        return; /* libcuda stays loaded: the process may not unload a library that ran */
    }
    api_status = 0;
}

const LsCudaApi *ls_cuda_api(char *err, size_t err_len)
{
    pthread_once(&api_once, load_api);
    if (api_status) {
        if (err && err_len)
            snprintf(err, err_len, "%s", api_error);
        return NULL;
    }
    return &api;
}

int ls_cuda_check(const LsCudaApi *cu, CUresult r, const char *call)
{
    if (!r)
        return 0;
    const char *name = NULL, *text = NULL;
    if (cu->cuGetErrorName(r, &name) || !name)
        name = "unknown error";
    if (cu->cuGetErrorString(r, &text) || !text)
        text = "no description";
    ls_log(VMAF_LOG_LEVEL_ERROR, "cuda: %s failed: %s (%s)", call, name, text);
    ls_set_error("cuda: %s failed: %s (%s)", call, name, text);
    return -EIO;
}

/* The fatbins carry SASS for sm_80, sm_86, sm_89 and sm_90 and PTX for compute_90 (cuda.cmake):
 * anything from 8.0 up runs them. */
#define LS_CUDA_MIN_CC_MAJOR 8

static int check_device(const LsCudaApi *cu, int device, CUdevice *dev, char *err, size_t len)
{
    int count = 0;
    CUresult r = cu->cuDeviceGetCount(&count);
    if (r) {
        const char *name = "?";
        cu->cuGetErrorName(r, &name);
        snprintf(err, len, "cuDeviceGetCount failed: %s", name);
        return -ENODEV;
    }
    if (count == 0) {
        snprintf(err, len, "the CUDA driver reports no device");
        return -ENODEV;
    }
    if (device < 0 || device >= count) {
        snprintf(err, len, "CUDA device %d does not exist (%d device%s)", device, count,
                 count == 1 ? "" : "s");
        return -ENODEV;
    }
    int major = 0, minor = 0;
    char name[128] = "";
    if ((r = cu->cuDeviceGet(dev, device)) ||
        (r = cu->cuDeviceGetAttribute(&major, LS_CU_DEVICE_ATTRIBUTE_CC_MAJOR, *dev)) ||
        (r = cu->cuDeviceGetAttribute(&minor, LS_CU_DEVICE_ATTRIBUTE_CC_MINOR, *dev)) ||
        (r = cu->cuDeviceGetName(name, (int)sizeof(name), *dev))) {
        const char *ename = "?";
        cu->cuGetErrorName(r, &ename);
        snprintf(err, len, "cannot query CUDA device %d: %s", device, ename);
        return -ENODEV;
    }
    if (major < LS_CUDA_MIN_CC_MAJOR) {
        snprintf(err, len,
                 "CUDA device %d (%s) has compute capability %d.%d; lockstep needs 8.0 or newer",
                 device, name, major, minor);
        return -ENODEV;
    }
    return 0;
}

int ls_cuda_probe(int device, char *err, size_t err_len)
{
    const LsCudaApi *cu = ls_cuda_api(err, err_len);
    if (!cu)
        return -ENODEV;
    CUdevice dev;
    return check_device(cu, device, &dev, err, err_len);
}

int ls_cuda_device_open(LsCudaDevice *d, int device, char *err, size_t err_len)
{
    memset(d, 0, sizeof(*d));
    d->cu = ls_cuda_api(err, err_len);
    if (!d->cu)
        return -ENODEV;
    int ret = check_device(d->cu, device, &d->dev, err, err_len);
    if (ret)
        return ret;
    if ((ret = CHECK_CU(d->cu, cuDevicePrimaryCtxRetain(&d->ctx, d->dev)))) {
        snprintf(err, err_len, "%s", lockstep_last_error());
        return ret;
    }
    d->retained = 1;
    return 0;
}

void ls_cuda_device_close(LsCudaDevice *d)
{
    if (d->retained)
        CHECK_CU(d->cu, cuDevicePrimaryCtxRelease(d->dev));
    d->retained = 0;
}

int ls_cuda_push(const LsCudaDevice *d)
{
    return CHECK_CU(d->cu, cuCtxPushCurrent(d->ctx));
}

int ls_cuda_pop(const LsCudaDevice *d)
{
    CUcontext ctx;
    return CHECK_CU(d->cu, cuCtxPopCurrent(&ctx));
}

int ls_cuda_module_load(const LsCudaDevice *d, CUmodule *mod, const unsigned char *image,
                        const char *const *names, CUfunction *fns, unsigned n)
{
    const LsCudaApi *cu = d->cu;
    int err = CHECK_CU(cu, cuModuleLoadData(mod, image));
    if (err) {
        *mod = NULL;
        return err;
    }
    for (unsigned i = 0; i < n && !err; i++) {
        err = CHECK_CU(cu, cuModuleGetFunction(&fns[i], *mod, names[i]));
        if (err)
            ls_log(VMAF_LOG_LEVEL_ERROR, "cuda: kernel %s is missing from its module", names[i]);
    }
    return err;
}
