/* The CUDA driver API as lockstep uses it: libcuda.so.1 is dlopen()ed into a function table, so
 * the library never links it and builds (and runs its CPU paths) on machines without a driver.
 * The few driver types are declared here rather than taken from cuda.h: the build needs nvcc for
 * the kernels but no driver headers for the host code. */
#ifndef LOCKSTEP_CUDA_CUDA_LOADER_H
#define LOCKSTEP_CUDA_CUDA_LOADER_H

#include <stddef.h>
#include <stdint.h>

typedef int CUresult;             /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef uint64_t CUdeviceptr;     /* unsigned long long on every 64-bit target */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef void (*CUhostFn)(void *user_data);

#define LS_CU_DEVICE_ATTRIBUTE_CC_MAJOR 75
#define LS_CU_DEVICE_ATTRIBUTE_CC_MINOR 76
#define LS_CU_STREAM_NON_BLOCKING 0x1
#define LS_CU_EVENT_DISABLE_TIMING 0x2
#define LS_CU_MEMHOSTALLOC_PORTABLE 0x1
#define LS_CU_MEMHOSTREGISTER_PORTABLE 0x1
#define LS_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8

typedef struct LsCudaApi {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
    CUresult (*cuCtxPushCurrent)(CUcontext ctx);
    CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
    CUresult (*cuModuleLoadData)(CUmodule *mod, const void *image);
    CUresult (*cuModuleUnload)(CUmodule mod);
    CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *ptr, size_t *bytes, CUmodule mod, const char *name);
    CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t size);
    CUresult (*cuMemFree)(CUdeviceptr ptr);
    CUresult (*cuMemHostAlloc)(void **ptr, size_t size, unsigned flags);
    CUresult (*cuMemFreeHost)(void *ptr);
    CUresult (*cuMemHostRegister)(void *ptr, size_t size, unsigned flags);
    CUresult (*cuMemHostUnregister)(void *ptr);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t size, CUstream s);
    CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t size, CUstream s);
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream s);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t size);
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t size);
    CUresult (*cuFuncSetAttribute)(CUfunction fn, int attribute, int value);
    CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t n, CUstream s);
    CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared_bytes, CUstream s,
                               void **params, void **extra);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream s);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
    /* fn runs on a driver thread once the stream's earlier work is done; it must not call CUDA */
    CUresult (*cuLaunchHostFunc)(CUstream s, CUhostFn fn, void *user_data);
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventDestroy)(CUevent e);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    CUresult (*cuEventSynchronize)(CUevent e);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*cuGetErrorName)(CUresult r, const char **name);
    CUresult (*cuGetErrorString)(CUresult r, const char **text);
} LsCudaApi;

/* The table, loaded and cuInit()ed once per process; NULL with a reason in err when libcuda
 * cannot be loaded or initialised. */
const LsCudaApi *ls_cuda_api(char *err, size_t err_len);

/* Logs "<call> failed: <ERROR_NAME> (<message>)" as an error, records it as the library's last
 * error and returns -EIO; returns 0 for CUDA_SUCCESS. Every driver call goes through CHECK_CU. */
int ls_cuda_check(const LsCudaApi *cu, CUresult r, const char *call);
#define CHECK_CU(cu, call) ls_cuda_check((cu), (cu)->call, #call)

/* A device as the twins hold it: its primary context, made current around every entry point. */
typedef struct LsCudaDevice {
    const LsCudaApi *cu;
    CUdevice dev;
    CUcontext ctx;
    int retained;
} LsCudaDevice;

/* Checks the device (exists, compute capability >= 8.0, the fatbins carry no older code), retains
 * its primary context. On failure err holds one line and a negative errno is returned. */
int ls_cuda_device_open(LsCudaDevice *d, int device, char *err, size_t err_len);
void ls_cuda_device_close(LsCudaDevice *d);
int ls_cuda_push(const LsCudaDevice *d);
int ls_cuda_pop(const LsCudaDevice *d);

/* Loads an embedded fatbin and looks up n kernels by name. */
int ls_cuda_module_load(const LsCudaDevice *d, CUmodule *mod, const unsigned char *image,
                        const char *const *names, CUfunction *fns, unsigned n);

#endif
