/* Loading libcuda, checking every driver call, probing devices (cuda_loader.h). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/backend.h"
#include "core/fault.h"
#include "core/log.h"
#include "cuda/cuda_loader.h"

static LsCudaApi api;
static int api_status = -ENODEV;

/* ---- LOCKSTEP_FAULT_INJECT (core/fault.h): the table's calls of each class, failing on cue
 * with the code the driver gives for such a failure ---- */

#define LS_CUDA_ERROR_OUT_OF_MEMORY 2
#define LS_CUDA_ERROR_ILLEGAL_ADDRESS 700
#define LS_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES 701
#define LS_CUDA_ERROR_LAUNCH_FAILED 719

static LsCudaApi real;

static CUresult fault_cuMemAlloc(CUdeviceptr *ptr, size_t size)
{
    return ls_fault_inject(LS_FAULT_ALLOC) ? LS_CUDA_ERROR_OUT_OF_MEMORY : real.cuMemAlloc(ptr, size);
}

static CUresult fault_cuMemHostAlloc(void **ptr, size_t size, unsigned flags)
{
    return ls_fault_inject(LS_FAULT_ALLOC) ? LS_CUDA_ERROR_OUT_OF_MEMORY
                                           : real.cuMemHostAlloc(ptr, size, flags);
}

static CUresult fault_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t size, CUstream s)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemcpyHtoDAsync(dst, src, size, s);
}

static CUresult fault_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t size, CUstream s)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemcpyDtoHAsync(dst, src, size, s);
}

static CUresult fault_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream s)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemcpyDtoDAsync(dst, src, size, s);
}

static CUresult fault_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t size)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemcpyHtoD(dst, src, size);
}

static CUresult fault_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t size)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemcpyDtoH(dst, src, size);
}

static CUresult fault_cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream s)
{
    return ls_fault_inject(LS_FAULT_COPY) ? LS_CUDA_ERROR_ILLEGAL_ADDRESS
                                          : real.cuMemsetD8Async(dst, value, n, s);
}

static CUresult fault_cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz,
                                     unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
                                     CUstream s, void **params, void **extra)
{
    return ls_fault_inject(LS_FAULT_LAUNCH)
               ? LS_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
               : real.cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, shared_bytes, s, params, extra);
}

static CUresult fault_cuLaunchHostFunc(CUstream s, CUhostFn fn, void *user_data)
{
    return ls_fault_inject(LS_FAULT_LAUNCH) ? LS_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
                                            : real.cuLaunchHostFunc(s, fn, user_data);
}

static CUresult fault_cuStreamSynchronize(CUstream s)
{
    return ls_fault_inject(LS_FAULT_SYNC) ? LS_CUDA_ERROR_LAUNCH_FAILED : real.cuStreamSynchronize(s);
}

static CUresult fault_cuEventSynchronize(CUevent e)
{
    return ls_fault_inject(LS_FAULT_SYNC) ? LS_CUDA_ERROR_LAUNCH_FAILED : real.cuEventSynchronize(e);
}

static CUresult fault_cuMemGetInfo(size_t *free_bytes, size_t *total)
{
    const CUresult r = real.cuMemGetInfo(free_bytes, total);
    if (!r && free_bytes)
        *free_bytes = (size_t)ls_fault_device_memory(*free_bytes);
    return r;
}

static void wrap_for_faults(void)
{
    real = api;
    api.cuMemAlloc = fault_cuMemAlloc;
    api.cuMemHostAlloc = fault_cuMemHostAlloc;
    api.cuMemcpyHtoDAsync = fault_cuMemcpyHtoDAsync;
    api.cuMemcpyDtoHAsync = fault_cuMemcpyDtoHAsync;
    api.cuMemcpyDtoDAsync = fault_cuMemcpyDtoDAsync;
    api.cuMemcpyHtoD = fault_cuMemcpyHtoD;
    api.cuMemcpyDtoH = fault_cuMemcpyDtoH;
    api.cuMemsetD8Async = fault_cuMemsetD8Async;
    api.cuLaunchKernel = fault_cuLaunchKernel;
    api.cuLaunchHostFunc = fault_cuLaunchHostFunc;
    api.cuStreamSynchronize = fault_cuStreamSynchronize;
    api.cuEventSynchronize = fault_cuEventSynchronize;
    api.cuMemGetInfo = fault_cuMemGetInfo;
}
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
        SYM(cuMemGetInfo, "cuMemGetInfo_v2"),
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
    if (ls_fault_enabled())
        wrap_for_faults();
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
    /* the caller returns the error and the context reports it once (one line): logged here only
     * for debugging, and for the calls of a teardown, which have nobody to return to */
    ls_log(VMAF_LOG_LEVEL_DEBUG, "cuda: %s failed: %s (%s)", call, name, text);
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
