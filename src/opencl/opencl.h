/* OpenCL backend internals: the driver loaded at run time into a function table, device
 * selection, program building (with a binary cache) and checked calls.
 *
 * Device order (what --gpu N counts): every device of every platform in the ICD loader's platform
 * order, GPUs first, then accelerators, then the others (CPU devices such as PoCL), each group in
 * platform order and then in the platform's device order. LOCKSTEP_OPENCL_DEVICE=text keeps only
 * the devices whose "platform: device" name contains text (case-insensitive); N counts among those.
 *
 * Arithmetic (exactness.md §2): every program starts with prelude.clh (#pragma OPENCL FP_CONTRACT
 * OFF); it is built with -cl-fp32-correctly-rounded-divide-sqrt when the device reports
 * CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, otherwise with -DLS_EMULATE_DIV_SQRT=1 so that kernels use
 * the integer arithmetic of fp32_exact.h; never -cl-mad-enable. No kernel uses double. */
#ifndef LOCKSTEP_OPENCL_OPENCL_H
#define LOCKSTEP_OPENCL_OPENCL_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
/* Device test hook for core/soft_f64.h: out[i] = op(a[i], b[i]) on binary64 bits on device
 * `index` (ops: src/opencl/soft_f64_selftest.cl). */
int ls_opencl_soft_f64_selftest(int index, int op, const uint64_t *a, const uint64_t *b,
                                uint64_t *out, size_t n, char *err, size_t err_len);

#endif
#include <CL/cl.h>

#define LS_CL_FUNCTIONS(X)                                                                        \
    X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))                           \
    X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_platform_info, size_t, void *, size_t *))    \
    X(cl_int, clGetDeviceIDs, (cl_platform_id, cl_device_type, cl_uint, cl_device_id *,          \
                               cl_uint *))                                                        \
    X(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *))          \
    X(cl_context, clCreateContext,                                                               \
      (const cl_context_properties *, cl_uint, const cl_device_id *,                             \
       void(CL_CALLBACK *)(const char *, const void *, size_t, void *), void *, cl_int *))        \
    X(cl_int, clReleaseContext, (cl_context))                                                     \
    X(cl_command_queue, clCreateCommandQueue,                                                    \
      (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))                         \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue))                                          \
    X(cl_program, clCreateProgramWithSource,                                                     \
      (cl_context, cl_uint, const char **, const size_t *, cl_int *))                            \
    X(cl_program, clCreateProgramWithBinary,                                                     \
      (cl_context, cl_uint, const cl_device_id *, const size_t *, const unsigned char **,        \
       cl_int *, cl_int *))                                                                       \
    X(cl_int, clBuildProgram,                                                                    \
      (cl_program, cl_uint, const cl_device_id *, const char *,                                  \
       void(CL_CALLBACK *)(cl_program, void *), void *))                                          \
    X(cl_int, clGetProgramBuildInfo,                                                             \
      (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *))               \
    X(cl_int, clGetProgramInfo, (cl_program, cl_program_info, size_t, void *, size_t *))          \
    X(cl_int, clReleaseProgram, (cl_program))                                                     \
    X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))                            \
    X(cl_int, clReleaseKernel, (cl_kernel))                                                       \
    X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))                         \
    X(cl_int, clGetKernelWorkGroupInfo,                                                          \
      (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *))            \
    X(cl_int, clEnqueueNDRangeKernel,                                                            \
      (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *,     \
       cl_uint, const cl_event *, cl_event *))                                                    \
    X(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *))               \
    X(cl_int, clReleaseMemObject, (cl_mem))                                                       \
    X(cl_int, clEnqueueWriteBuffer,                                                              \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,                 \
       const cl_event *, cl_event *))                                                             \
    X(cl_int, clEnqueueWriteBufferRect,                                                          \
      (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *,        \
       size_t, size_t, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *))      \
    X(cl_int, clEnqueueReadBuffer,                                                               \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *,     \
       cl_event *))                                                                               \
    X(cl_int, clFinish, (cl_command_queue))                                                       \
    X(cl_int, clFlush, (cl_command_queue))                                                        \
    X(void *, clEnqueueMapBuffer,                                                                \
      (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event *, \
       cl_event *, cl_int *))                                                                     \
    X(cl_int, clEnqueueUnmapMemObject,                                                           \
      (cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *))                 \
    X(cl_int, clEnqueueCopyBuffer,                                                               \
      (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *,      \
       cl_event *))                                                                               \
    X(cl_int, clEnqueueFillBuffer,                                                               \
      (cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint, const cl_event *, \
       cl_event *))                                                                               \
    X(cl_int, clEnqueueBarrierWithWaitList,                                                      \
      (cl_command_queue, cl_uint, const cl_event *, cl_event *))                                 \
    X(cl_int, clWaitForEvents, (cl_uint, const cl_event *))                                       \
    X(cl_int, clRetainEvent, (cl_event))                                                          \
    X(cl_event, clCreateUserEvent, (cl_context, cl_int *))                                        \
    X(cl_int, clSetUserEventStatus, (cl_event, cl_int))                                           \
    X(cl_int, clReleaseEvent, (cl_event))

#define LS_CL_MEMBER(ret, name, args) ret(CL_API_CALL *name) args;
typedef struct LsClFns {
    LS_CL_FUNCTIONS(LS_CL_MEMBER)
} LsClFns;
#undef LS_CL_MEMBER

/* An embedded program: prelude + one .cl file with its quoted includes inlined (opencl.cmake). */
typedef struct LsClSource {
    const char *name;   /* stem of the .cl file */
    const char *text;
    const char *sha256; /* of text, part of the binary cache key */
} LsClSource;

extern const LsClSource ls_cl_source_psnr;
extern const LsClSource ls_cl_source_psnr_hvs;
extern const LsClSource ls_cl_source_ordered_sum;
extern const LsClSource ls_cl_source_fp32_selftest;
extern const LsClSource ls_cl_source_soft_f64_selftest;
extern const LsClSource ls_cl_source_vif;
extern const LsClSource ls_cl_source_adm;
extern const LsClSource ls_cl_source_motion;
extern const LsClSource ls_cl_source_ssim;
extern const LsClSource ls_cl_source_float_vif;
extern const LsClSource ls_cl_source_float_adm;

/* Work-group size every kernel of this backend is built for (-DLS_WG): a power of two. */
#define LS_CL_WG_MAX 256

typedef struct LsClDevice {
    const LsClFns *cl;
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    unsigned wg;           /* work-group size, LS_CL_WG_MAX or less */
    cl_ulong global_mem;   /* bytes (LOCKSTEP_FAULT_INJECT=device_memory:B lowers both) */
    cl_ulong max_alloc;    /* the largest buffer, bytes */
    int emulate_div_sqrt;  /* no CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT: integer emulation */
    char description[512]; /* "platform: device (driver ...)" */
} LsClDevice;

/* Opens device `index` (see the order above): context and in-order queue. Negative errno and a
 * message naming the failed call and its error code on failure. */
int ls_opencl_open(LsClDevice *d, int index, char *err, size_t err_len);
/* The driver's own functions, past LOCKSTEP_FAULT_INJECT (core/fault.h): for the calls whose
 * failure is no error (pinning the picture pool: a refusal stages the pictures through a copy) */
const LsClFns *ls_opencl_unfaulted(const LsClFns *cl);
void ls_opencl_close(LsClDevice *d);

/* Refuses, before allocating, the n buffers (bytes) that a w x h frame needs when one exceeds the
 * device's largest buffer or all of them its memory: -ENOMEM and a message with the sizes. */
int ls_opencl_check_memory(const LsClDevice *d, const size_t *buffers, unsigned n, unsigned w,
                           unsigned h, char *err, size_t err_len);

/* "platform: device (driver ...)" of device `index`, or the reason there is none. */
int ls_opencl_device_description(int index, char *out, size_t out_len);

/* Builds an embedded program for d with this backend's options, through the binary cache
 * ($XDG_CACHE_HOME/lockstep or ~/.cache/lockstep; silently skipped when unwritable). A build
 * failure reports the build log. */
int ls_opencl_build(LsClDevice *d, const LsClSource *src, cl_program *prog, char *err,
                    size_t err_len);
/* clCreateKernel; with group_of_wg, checks that the kernel accepts work-groups of d->wg (kernels
 * written for LS_WG work-items per group). Other kernels are launched with the driver's choice. */
int ls_opencl_kernel(LsClDevice *d, cl_program prog, const char *name, int group_of_wg,
                     cl_kernel *k, char *err, size_t err_len);

/* Name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL error N". */
const char *ls_opencl_error_name(cl_int code, char buf[32]);
/* Writes "<call> failed: <CODE NAME>" into err, returns -EIO. */
int ls_opencl_fail(char *err, size_t err_len, const char *call, cl_int code);

/* Runs a checked call; on failure records it in err, sets the caller's `ret` and jumps to its
 * `fail` label. */
#define LS_CL_TRY(err, err_len, call_name, expr)                                                  \
    do {                                                                                          \
        const cl_int ls_cl_rc_ = (expr);                                                          \
        if (ls_cl_rc_ != CL_SUCCESS) {                                                            \
            ret = ls_opencl_fail(err, err_len, call_name, ls_cl_rc_);                             \
            goto fail;                                                                            \
        }                                                                                         \
    } while (0)

/* Sets kernel arguments in order; each call checked. */
#define LS_CL_ARG(err, err_len, d, kernel, index, value)                                          \
    LS_CL_TRY(err, err_len, "clSetKernelArg",                                                    \
              (d)->cl->clSetKernelArg(kernel, index, sizeof(value), &(value)))

/* Device test hook for fp32_exact.h: out[i] = op(a[i], b[i]) on device `index`, op 0:
 * ls_sqrt_prod_rn, 1: ls_div_rn. */
int ls_opencl_fp32_selftest(int index, int op, const float *a, const float *b, float *out,
                            size_t n, char *err, size_t err_len);

/* Device test hook for core/soft_f64.h: out[i] = op(a[i], b[i]) on binary64 bits on device
 * `index` (ops: src/opencl/soft_f64_selftest.cl). */
int ls_opencl_soft_f64_selftest(int index, int op, const uint64_t *a, const uint64_t *b,
                                uint64_t *out, size_t n, char *err, size_t err_len);

#endif
