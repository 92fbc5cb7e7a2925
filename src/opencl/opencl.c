/* OpenCL driver loading, device selection, program building and its binary cache. */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/backend.h"
#include "core/fault.h"
#include "opencl/opencl.h"

static LsClFns cl_fns;
static pthread_once_t cl_once = PTHREAD_ONCE_INIT;
static char cl_load_error[256];

/* ---- LOCKSTEP_FAULT_INJECT (core/fault.h): the table's calls of each class, failing on cue.
 * A blocking transfer or map waits for the device: it counts as a sync, a non-blocking one as a
 * copy (the twins' skeleton waits for a frame's results with clWaitForEvents, the self-tests and
 * the setup uploads with blocking transfers or clFinish). ---- */

static LsClFns cl_real;

static cl_mem CL_API_CALL fault_clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host, cl_int *rc)
{
    if (!ls_fault_inject(LS_FAULT_ALLOC))
        return cl_real.clCreateBuffer(ctx, flags, size, host, rc);
    if (rc)
        *rc = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return NULL;
}

static cl_int CL_API_CALL fault_clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                     size_t off, size_t size, const void *ptr,
                                                     cl_uint n, const cl_event *wait, cl_event *ev)
{
    return ls_fault_inject(block ? LS_FAULT_SYNC : LS_FAULT_COPY)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueWriteBuffer(q, m, block, off, size, ptr, n, wait, ev);
}

static cl_int CL_API_CALL fault_clEnqueueWriteBufferRect(
    cl_command_queue q, cl_mem m, cl_bool block, const size_t *origin, const size_t *host_origin,
    const size_t *region, size_t row_pitch, size_t slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, const void *ptr, cl_uint n, const cl_event *wait, cl_event *ev)
{
    return ls_fault_inject(block ? LS_FAULT_SYNC : LS_FAULT_COPY)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueWriteBufferRect(q, m, block, origin, host_origin, region,
                                                  row_pitch, slice_pitch, host_row_pitch,
                                                  host_slice_pitch, ptr, n, wait, ev);
}

static cl_int CL_API_CALL fault_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                    size_t off, size_t size, void *ptr, cl_uint n,
                                                    const cl_event *wait, cl_event *ev)
{
    return ls_fault_inject(block ? LS_FAULT_SYNC : LS_FAULT_COPY)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueReadBuffer(q, m, block, off, size, ptr, n, wait, ev);
}

static cl_int CL_API_CALL fault_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k,
                                                       cl_uint dims, const size_t *offset,
                                                       const size_t *global, const size_t *local,
                                                       cl_uint n, const cl_event *wait,
                                                       cl_event *ev)
{
    return ls_fault_inject(LS_FAULT_LAUNCH)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueNDRangeKernel(q, k, dims, offset, global, local, n, wait, ev);
}

static cl_int CL_API_CALL fault_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                    size_t src_off, size_t dst_off, size_t size,
                                                    cl_uint n, const cl_event *wait, cl_event *ev)
{
    return ls_fault_inject(LS_FAULT_COPY)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueCopyBuffer(q, src, dst, src_off, dst_off, size, n, wait, ev);
}

static cl_int CL_API_CALL fault_clEnqueueFillBuffer(cl_command_queue q, cl_mem m,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t off, size_t size, cl_uint n,
                                                    const cl_event *wait, cl_event *ev)
{
    return ls_fault_inject(LS_FAULT_COPY)
               ? CL_OUT_OF_RESOURCES
               : cl_real.clEnqueueFillBuffer(q, m, pattern, pattern_size, off, size, n, wait, ev);
}

static void *CL_API_CALL fault_clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                  cl_map_flags flags, size_t off, size_t size,
                                                  cl_uint n, const cl_event *wait, cl_event *ev,
                                                  cl_int *rc)
{
    if (!ls_fault_inject(block ? LS_FAULT_SYNC : LS_FAULT_COPY))
        return cl_real.clEnqueueMapBuffer(q, m, block, flags, off, size, n, wait, ev, rc);
    if (rc)
        *rc = CL_MAP_FAILURE;
    return NULL;
}

static cl_int CL_API_CALL fault_clFinish(cl_command_queue q)
{
    return ls_fault_inject(LS_FAULT_SYNC) ? CL_OUT_OF_RESOURCES : cl_real.clFinish(q);
}

static cl_int CL_API_CALL fault_clWaitForEvents(cl_uint n, const cl_event *events)
{
    return ls_fault_inject(LS_FAULT_SYNC) ? CL_OUT_OF_RESOURCES : cl_real.clWaitForEvents(n, events);
}

static void wrap_for_faults(void)
{
    cl_real = cl_fns;
    cl_fns.clCreateBuffer = fault_clCreateBuffer;
    cl_fns.clEnqueueWriteBuffer = fault_clEnqueueWriteBuffer;
    cl_fns.clEnqueueWriteBufferRect = fault_clEnqueueWriteBufferRect;
    cl_fns.clEnqueueReadBuffer = fault_clEnqueueReadBuffer;
    cl_fns.clEnqueueNDRangeKernel = fault_clEnqueueNDRangeKernel;
    cl_fns.clEnqueueCopyBuffer = fault_clEnqueueCopyBuffer;
    cl_fns.clEnqueueFillBuffer = fault_clEnqueueFillBuffer;
    cl_fns.clEnqueueMapBuffer = fault_clEnqueueMapBuffer;
    cl_fns.clFinish = fault_clFinish;
    cl_fns.clWaitForEvents = fault_clWaitForEvents;
}

static void load_driver(void)
{
    /* the ICD loader: it finds the installed platforms (NVIDIA, PoCL, Intel, ...); the CUDA
     * toolkit ships one where no system package provides it */
    static const char *const names[] = { "libOpenCL.so.1", "libOpenCL.so",
                                         "/usr/local/cuda/lib64/libOpenCL.so.1" };
    void *lib = NULL;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]) && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(cl_load_error, sizeof(cl_load_error), "cannot load libOpenCL.so.1 (%s)",
                 why ? why : "not found");
        return;
    }
#define LS_CL_LOAD(ret, name, args)                                                               \
    {                                                                                             \
        void *sym = dlsym(lib, #name);                                                            \
        memcpy(&cl_fns.name, &sym, sizeof(sym));                                                  \
    }                                                                                             \
    if (!cl_fns.name) {                                                                           \
        snprintf(cl_load_error, sizeof(cl_load_error), "libOpenCL.so.1 lacks %s", #name);         \
        return;                                                                                   \
    }
    LS_CL_FUNCTIONS(LS_CL_LOAD)
#undef LS_CL_LOAD
    if (ls_fault_enabled())
        wrap_for_faults();
}

const LsClFns *ls_opencl_unfaulted(const LsClFns *cl)
{
    return ls_fault_enabled() && cl == &cl_fns ? &cl_real : cl;
}

static const LsClFns *driver(char *err, size_t err_len)
{
    pthread_once(&cl_once, load_driver);
    if (cl_load_error[0]) {
        snprintf(err, err_len, "%s", cl_load_error);
        return NULL;
    }
    return &cl_fns;
}

const char *ls_opencl_error_name(cl_int code, char buf[32])
{
    switch (code) {
#define N(c) case c: return #c;
    N(CL_SUCCESS) N(CL_DEVICE_NOT_FOUND) N(CL_DEVICE_NOT_AVAILABLE) N(CL_COMPILER_NOT_AVAILABLE)
    N(CL_MEM_OBJECT_ALLOCATION_FAILURE) N(CL_OUT_OF_RESOURCES) N(CL_OUT_OF_HOST_MEMORY)
    N(CL_PROFILING_INFO_NOT_AVAILABLE) N(CL_MEM_COPY_OVERLAP) N(CL_IMAGE_FORMAT_MISMATCH)
    N(CL_IMAGE_FORMAT_NOT_SUPPORTED) N(CL_BUILD_PROGRAM_FAILURE) N(CL_MAP_FAILURE)
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET) N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    N(CL_COMPILE_PROGRAM_FAILURE) N(CL_LINKER_NOT_AVAILABLE) N(CL_LINK_PROGRAM_FAILURE)
    N(CL_DEVICE_PARTITION_FAILED) N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) N(CL_INVALID_VALUE)
    N(CL_INVALID_DEVICE_TYPE) N(CL_INVALID_PLATFORM) N(CL_INVALID_DEVICE) N(CL_INVALID_CONTEXT)
    N(CL_INVALID_QUEUE_PROPERTIES) N(CL_INVALID_COMMAND_QUEUE) N(CL_INVALID_HOST_PTR)
    N(CL_INVALID_MEM_OBJECT) N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) N(CL_INVALID_IMAGE_SIZE)
    N(CL_INVALID_SAMPLER) N(CL_INVALID_BINARY) N(CL_INVALID_BUILD_OPTIONS) N(CL_INVALID_PROGRAM)
    N(CL_INVALID_PROGRAM_EXECUTABLE) N(CL_INVALID_KERNEL_NAME) N(CL_INVALID_KERNEL_DEFINITION)
    N(CL_INVALID_KERNEL) N(CL_INVALID_ARG_INDEX) N(CL_INVALID_ARG_VALUE) N(CL_INVALID_ARG_SIZE)
    N(CL_INVALID_KERNEL_ARGS) N(CL_INVALID_WORK_DIMENSION) N(CL_INVALID_WORK_GROUP_SIZE)
    N(CL_INVALID_WORK_ITEM_SIZE) N(CL_INVALID_GLOBAL_OFFSET) N(CL_INVALID_EVENT_WAIT_LIST)
    N(CL_INVALID_EVENT) N(CL_INVALID_OPERATION) N(CL_INVALID_GL_OBJECT)
    N(CL_INVALID_BUFFER_SIZE) N(CL_INVALID_MIP_LEVEL) N(CL_INVALID_GLOBAL_WORK_SIZE)
    N(CL_INVALID_PROPERTY) N(CL_INVALID_IMAGE_DESCRIPTOR) N(CL_INVALID_COMPILER_OPTIONS)
    N(CL_INVALID_LINKER_OPTIONS) N(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef N
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        snprintf(buf, 32, "CL error %d", (int)code);
        return buf;
    }
}

int ls_opencl_fail(char *err, size_t err_len, const char *call, cl_int code)
{
    char buf[32];
    snprintf(err, err_len, "%s failed: %s", call, ls_opencl_error_name(code, buf));
    return -EIO;
}

/* ---- device list ---- */

typedef struct DeviceEntry {
    cl_platform_id platform;
    cl_device_id device;
    int rank; /* 0 GPU, 1 accelerator, 2 other */
    char platform_name[160];
    char device_name[160];
} DeviceEntry;

#define MAX_DEVICES 64

static int contains_nocase(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (const char *p = hay; *p; p++) {
        size_t k = 0;
        while (k < n && p[k] && tolower((unsigned char)p[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return 1;
    }
    return n == 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
}

/* A string property of a device (platform when device is NULL), truncated to out_len; strings of
 * any length are read (a short buffer would make the call fail). */
static cl_int info_string(const LsClFns *cl, cl_platform_id platform, cl_device_id device,
                          cl_uint param, char *out, size_t out_len)
{
    size_t len = 0;
    cl_int rc = device ? cl->clGetDeviceInfo(device, param, 0, NULL, &len)
                       : cl->clGetPlatformInfo(platform, param, 0, NULL, &len);
    out[0] = 0;
    if (rc != CL_SUCCESS)
        return rc;
    char *buf = malloc(len + 1);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    rc = device ? cl->clGetDeviceInfo(device, param, len, buf, NULL)
                : cl->clGetPlatformInfo(platform, param, len, buf, NULL);
    if (rc == CL_SUCCESS) {
        buf[len] = 0;
        snprintf(out, out_len, "%s", buf);
        trim(out);
    }
    free(buf);
    return rc;
}

/* The ordered, filtered device list. Returns the count (>= 0) or a negative errno. */
static int list_devices(const LsClFns *cl, DeviceEntry *out, char *err, size_t err_len)
{
    cl_platform_id platforms[16];
    cl_uint n_platforms = 0;
    cl_int rc = cl->clGetPlatformIDs(16, platforms, &n_platforms);
    if (rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (rc == CL_SUCCESS && n_platforms == 0)) {
        snprintf(err, err_len, "no OpenCL platform installed");
        return -ENODEV;
    }
    if (rc != CL_SUCCESS)
        return ls_opencl_fail(err, err_len, "clGetPlatformIDs", rc);
    if (n_platforms > 16)
        n_platforms = 16;
    DeviceEntry all[MAX_DEVICES];
    int n_all = 0;
    for (cl_uint p = 0; p < n_platforms; p++) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint n_devs = 0;
        rc = cl->clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &n_devs);
        if (rc == CL_DEVICE_NOT_FOUND)
            continue;
        if (rc != CL_SUCCESS)
            return ls_opencl_fail(err, err_len, "clGetDeviceIDs", rc);
        if (n_devs > MAX_DEVICES)
            n_devs = MAX_DEVICES;
        for (cl_uint k = 0; k < n_devs && n_all < MAX_DEVICES; k++) {
            DeviceEntry *e = &all[n_all++];
            memset(e, 0, sizeof(*e));
            e->platform = platforms[p];
            e->device = devs[k];
            cl_device_type type = 0;
            if ((rc = cl->clGetDeviceInfo(devs[k], CL_DEVICE_TYPE, sizeof(type), &type, NULL)) !=
                    CL_SUCCESS ||
                (rc = info_string(cl, platforms[p], NULL, CL_PLATFORM_NAME, e->platform_name,
                                  sizeof(e->platform_name))) != CL_SUCCESS ||
                (rc = info_string(cl, NULL, devs[k], CL_DEVICE_NAME, e->device_name,
                                  sizeof(e->device_name))) != CL_SUCCESS)
                return ls_opencl_fail(err, err_len, "clGetDeviceInfo", rc);
            e->rank = (type & CL_DEVICE_TYPE_GPU) ? 0 : (type & CL_DEVICE_TYPE_ACCELERATOR) ? 1 : 2;
        }
    }
    const char *filter = getenv("LOCKSTEP_OPENCL_DEVICE");
    int n = 0;
    for (int rank = 0; rank < 3; rank++) {
        for (int i = 0; i < n_all; i++) {
            if (all[i].rank != rank)
                continue;
            if (filter && *filter) {
                char full[330];
                snprintf(full, sizeof(full), "%s: %s", all[i].platform_name, all[i].device_name);
                if (!contains_nocase(full, filter))
                    continue;
            }
            out[n++] = all[i];
        }
    }
    if (!n) {
        if (filter && *filter)
            snprintf(err, err_len, "no OpenCL device matches LOCKSTEP_OPENCL_DEVICE=\"%s\"",
                     filter);
        else
            snprintf(err, err_len, "no OpenCL device found");
        return -ENODEV;
    }
    return n;
}

static int find_device(const LsClFns *cl, int index, DeviceEntry *entry, char *err, size_t err_len)
{
    DeviceEntry list[MAX_DEVICES];
    const int n = list_devices(cl, list, err, err_len);
    if (n < 0)
        return n;
    if (index < 0 || index >= n) {
        snprintf(err, err_len, "OpenCL device %d does not exist (%d device%s: 0 = %s: %s)", index,
                 n, n == 1 ? "" : "s", list[0].platform_name, list[0].device_name);
        return -ENODEV;
    }
    *entry = list[index];
    return 0;
}

/* Whether the device can run this backend's kernels; *emulate tells how it divides. */
static int check_device(const LsClFns *cl, const DeviceEntry *e, int *emulate, char *err,
                        size_t err_len)
{
    cl_bool available = CL_FALSE, compiler = CL_FALSE;
    char profile[64] = "", exts[16384] = "";
    cl_device_fp_config fp = 0;
    cl_int rc;
    if ((rc = cl->clGetDeviceInfo(e->device, CL_DEVICE_AVAILABLE, sizeof(available), &available,
                                  NULL)) != CL_SUCCESS ||
        (rc = cl->clGetDeviceInfo(e->device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler),
                                  &compiler, NULL)) != CL_SUCCESS ||
        (rc = info_string(cl, NULL, e->device, CL_DEVICE_PROFILE, profile, sizeof(profile))) !=
            CL_SUCCESS ||
        (rc = info_string(cl, NULL, e->device, CL_DEVICE_EXTENSIONS, exts, sizeof(exts))) !=
            CL_SUCCESS ||
        (rc = cl->clGetDeviceInfo(e->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(fp), &fp,
                                  NULL)) != CL_SUCCESS)
        return ls_opencl_fail(err, err_len, "clGetDeviceInfo", rc);
    if (!available) {
        snprintf(err, err_len, "OpenCL device %s: %s is not available", e->platform_name,
                 e->device_name);
        return -ENODEV;
    }
    if (!compiler) {
        snprintf(err, err_len, "OpenCL device %s: %s has no compiler", e->platform_name,
                 e->device_name);
        return -ENODEV;
    }
    /* the kernels need 64-bit integers: always in the full profile, an extension otherwise */
    if (strcmp(profile, "FULL_PROFILE") && !strstr(exts, "cles_khr_int64")) {
        snprintf(err, err_len, "OpenCL device %s: %s has no 64-bit integers (%s)",
                 e->platform_name, e->device_name, profile);
        return -ENODEV;
    }
    *emulate = !(fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    if (getenv("LOCKSTEP_OPENCL_EMULATE_DIV_SQRT") &&
        strcmp(getenv("LOCKSTEP_OPENCL_EMULATE_DIV_SQRT"), "0"))
        *emulate = 1; /* tests force the integer path on devices that would not need it */
    return 0;
}

int ls_opencl_probe(int device, char *err, size_t err_len)
{
    const LsClFns *cl = driver(err, err_len);
    if (!cl)
        return -ENODEV;
    DeviceEntry e;
    int emulate;
    int ret = find_device(cl, device, &e, err, err_len);
    if (!ret)
        ret = check_device(cl, &e, &emulate, err, err_len);
    return ret < 0 ? -ENODEV : 0;
}

static int describe(const LsClFns *cl, const DeviceEntry *e, char *out, size_t out_len)
{
    char driver_version[128];
    const cl_int rc = info_string(cl, NULL, e->device, CL_DRIVER_VERSION, driver_version,
                                  sizeof(driver_version));
    if (rc != CL_SUCCESS)
        return ls_opencl_fail(out, out_len, "clGetDeviceInfo", rc);
    snprintf(out, out_len, "%s: %s (driver %s)", e->platform_name, e->device_name, driver_version);
    return 0;
}

int ls_opencl_device_description(int index, char *out, size_t out_len)
{
    const LsClFns *cl = driver(out, out_len);
    if (!cl)
        return -ENODEV;
    DeviceEntry e;
    const int ret = find_device(cl, index, &e, out, out_len);
    if (ret < 0)
        return ret;
    return describe(cl, &e, out, out_len);
}

int ls_opencl_open(LsClDevice *d, int index, char *err, size_t err_len)
{
    memset(d, 0, sizeof(*d));
    const LsClFns *cl = driver(err, err_len);
    if (!cl)
        return -ENODEV;
    DeviceEntry e;
    int ret = find_device(cl, index, &e, err, err_len);
    if (!ret)
        ret = check_device(cl, &e, &d->emulate_div_sqrt, err, err_len);
    if (ret < 0)
        return ret;
    if ((ret = describe(cl, &e, d->description, sizeof(d->description))) < 0) {
        snprintf(err, err_len, "%s", d->description);
        return ret;
    }
    d->cl = cl;
    d->platform = e.platform;
    d->device = e.device;
    size_t max_wg = 0;
    LS_CL_TRY(err, err_len, "clGetDeviceInfo",
              cl->clGetDeviceInfo(e.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg,
                                  NULL));
    cl_ulong global_mem = 0, max_alloc = 0;
    LS_CL_TRY(err, err_len, "clGetDeviceInfo",
              cl->clGetDeviceInfo(e.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global_mem),
                                  &global_mem, NULL));
    LS_CL_TRY(err, err_len, "clGetDeviceInfo",
              cl->clGetDeviceInfo(e.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc),
                                  &max_alloc, NULL));
    d->global_mem = ls_fault_device_memory(global_mem);
    d->max_alloc = ls_fault_device_memory(max_alloc) < max_alloc ? ls_fault_device_memory(max_alloc)
                                                                 : max_alloc;
    d->wg = LS_CL_WG_MAX;
    while (d->wg > max_wg && d->wg > 1)
        d->wg >>= 1;
    cl_int rc = CL_SUCCESS;
    const cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)e.platform,
                                            0 };
    d->ctx = cl->clCreateContext(props, 1, &e.device, NULL, NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateContext", rc);
    d->queue = cl->clCreateCommandQueue(d->ctx, e.device, 0, &rc);
    LS_CL_TRY(err, err_len, "clCreateCommandQueue", rc);
    return 0;
fail:
    ls_opencl_close(d);
    return ret;
}

/* "12.3 MiB", or "340 KiB" below a mebibyte (rounded up for a need, down for a limit) */
static void format_bytes(char *out, size_t len, uint64_t bytes, int round_up)
{
    if (bytes >= (1u << 20))
        snprintf(out, len, "%.1f MiB", (double)bytes / (1u << 20));
    else
        snprintf(out, len, "%llu KiB",
                 (unsigned long long)((bytes + (round_up ? 1023 : 0)) / 1024));
}

int ls_opencl_check_memory(const LsClDevice *d, const size_t *buffers, unsigned n, unsigned w,
                           unsigned h, char *err, size_t err_len)
{
    uint64_t total = 0, largest = 0;
    for (unsigned i = 0; i < n; i++) {
        total += buffers[i];
        if (buffers[i] > largest)
            largest = buffers[i];
    }
    char need[32], have[32];
    if (largest > d->max_alloc) {
        format_bytes(need, sizeof(need), largest, 1);
        format_bytes(have, sizeof(have), d->max_alloc, 0);
        snprintf(err, err_len, "a %ux%u frame needs a device buffer of %s; %s allows %s per buffer "
                 "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)", w, h, need, d->description, have);
        return -ENOMEM;
    }
    if (total > d->global_mem) {
        format_bytes(need, sizeof(need), total, 1);
        format_bytes(have, sizeof(have), d->global_mem, 0);
        snprintf(err, err_len, "a %ux%u frame needs %s of device memory; %s has %s "
                 "(CL_DEVICE_GLOBAL_MEM_SIZE)", w, h, need, d->description, have);
        return -ENOMEM;
    }
    return 0;
}

void ls_opencl_close(LsClDevice *d)
{
    if (d->queue)
        d->cl->clReleaseCommandQueue(d->queue);
    if (d->ctx)
        d->cl->clReleaseContext(d->ctx);
    d->queue = NULL;
    d->ctx = NULL;
}

/* ---- programs and the binary cache ---- */

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The cache folder, created if missing; 0 when there is none. */
static int cache_dir(char *out, size_t out_len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char base[1024];
    if (xdg && *xdg)
        snprintf(base, sizeof(base), "%s", xdg);
    else if (home && *home)
        snprintf(base, sizeof(base), "%s/.cache", home);
    else
        return 0;
    mkdir(base, 0755);
    if ((size_t)snprintf(out, out_len, "%s/lockstep", base) >= out_len)
        return 0;
    mkdir(out, 0755);
    struct stat st;
    return !stat(out, &st) && S_ISDIR(st.st_mode);
}

#define CACHE_MAGIC "lockstep-opencl-binary-1\n"

/* A cached binary for key: malloc'ed bytes, or NULL. The file stores the key to rule out hash
 * collisions and stale entries. */
static unsigned char *cache_load(const char *path, const char *key, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *bin = NULL;
    const size_t head_len = strlen(CACHE_MAGIC) + strlen(key) + 1;
    char *head = malloc(head_len);
    long size = -1;
    if (head && fread(head, 1, head_len, f) == head_len &&
        !memcmp(head, CACHE_MAGIC, strlen(CACHE_MAGIC)) &&
        !memcmp(head + strlen(CACHE_MAGIC), key, strlen(key)) && head[head_len - 1] == '\n' &&
        !fseek(f, 0, SEEK_END) && (size = ftell(f)) > (long)head_len &&
        !fseek(f, (long)head_len, SEEK_SET)) {
        *len = (size_t)size - head_len;
        bin = malloc(*len);
        if (bin && fread(bin, 1, *len, f) != *len) {
            free(bin);
            bin = NULL;
        }
    }
    free(head);
    fclose(f);
    return bin;
}

static void cache_store(const char *path, const char *key, const unsigned char *bin, size_t len)
{
    char tmp[1300];
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int ok = fputs(CACHE_MAGIC, f) >= 0 && fputs(key, f) >= 0 && fputc('\n', f) != EOF &&
             fwrite(bin, 1, len, f) == len;
    ok &= !fclose(f);
    if (!ok || rename(tmp, path))
        remove(tmp);
}

static int build_log_error(LsClDevice *d, cl_program prog, const char *what, cl_int rc, char *err,
                           size_t err_len)
{
    char name[32];
    size_t log_len = 0;
    d->cl->clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
    char *log = malloc(log_len + 1);
    if (log && d->cl->clGetProgramBuildInfo(prog, d->device, CL_PROGRAM_BUILD_LOG, log_len, log,
                                            NULL) == CL_SUCCESS) {
        log[log_len] = 0;
        trim(log);
    } else if (log) { /* the log itself is unavailable: the error code still says what failed */
        log[0] = 0;
    }
    snprintf(err, err_len, "clBuildProgram failed for %s: %s; build log:\n%s", what,
             ls_opencl_error_name(rc, name), log ? log : "(out of memory)");
    free(log);
    return -EIO;
}

int ls_opencl_build(LsClDevice *d, const LsClSource *src, cl_program *prog_out, char *err,
                    size_t err_len)
{
    const LsClFns *cl = d->cl;
    char options[512], key[1400], dir[1100], path[1200], version[128] = "";
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    cl_program prog = NULL;
    unsigned char *bin = NULL;
    const char *extra = getenv("LOCKSTEP_OPENCL_BUILD_OPTIONS"); /* tests' mutation checks */
    snprintf(options, sizeof(options), "%s -DLS_WG=%u %s",
             d->emulate_div_sqrt ? "-DLS_EMULATE_DIV_SQRT=1"
                                 : "-cl-fp32-correctly-rounded-divide-sqrt",
             d->wg, extra ? extra : "");
    LS_CL_TRY(err, err_len, "clGetDeviceInfo",
              info_string(cl, NULL, d->device, CL_DEVICE_VERSION, version, sizeof(version)));
    snprintf(key, sizeof(key), "%s|%s|%s|%s|%s", d->description, version, src->name, src->sha256,
             options);
    const int cache = cache_dir(dir, sizeof(dir));
    if (cache) {
        snprintf(path, sizeof(path), "%s/opencl-%s-%016llx.bin", dir, src->name,
                 (unsigned long long)fnv1a64(key));
        size_t len = 0;
        bin = cache_load(path, key, &len);
        if (bin) {
            const unsigned char *bins[1] = { bin };
            cl_int status = CL_SUCCESS;
            prog = cl->clCreateProgramWithBinary(d->ctx, 1, &d->device, &len, bins, &status, &rc);
            if (rc == CL_SUCCESS && status == CL_SUCCESS &&
                cl->clBuildProgram(prog, 1, &d->device, options, NULL, NULL) == CL_SUCCESS) {
                free(bin);
                *prog_out = prog;
                return 0;
            }
            /* unusable entry (driver changed in place): rebuild from source below */
            if (prog)
                cl->clReleaseProgram(prog);
            prog = NULL;
            free(bin);
            bin = NULL;
        }
    }
    const char *text = src->text;
    prog = cl->clCreateProgramWithSource(d->ctx, 1, &text, NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateProgramWithSource", rc);
    rc = cl->clBuildProgram(prog, 1, &d->device, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        ret = build_log_error(d, prog, src->name, rc, err, err_len);
        goto fail;
    }
    if (cache) {
        size_t len = 0;
        if (cl->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(len), &len, NULL) ==
                CL_SUCCESS && len && (bin = malloc(len))) {
            unsigned char *bins[1] = { bin };
            if (cl->clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL) ==
                CL_SUCCESS)
                cache_store(path, key, bin, len);
            free(bin);
        }
    }
    *prog_out = prog;
    return 0;
fail:
    if (prog)
        cl->clReleaseProgram(prog);
    return ret;
}

int ls_opencl_kernel(LsClDevice *d, cl_program prog, const char *name, int group_of_wg,
                     cl_kernel *k, char *err, size_t err_len)
{
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    size_t wg = 0;
    *k = d->cl->clCreateKernel(prog, name, &rc);
    LS_CL_TRY(err, err_len, "clCreateKernel", rc);
    if (!group_of_wg)
        return 0;
    LS_CL_TRY(err, err_len, "clGetKernelWorkGroupInfo",
              d->cl->clGetKernelWorkGroupInfo(*k, d->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg),
                                              &wg, NULL));
    if (wg < d->wg) {
        snprintf(err, err_len, "OpenCL kernel %s runs at most %zu work-items per group, needs %u",
                 name, wg, d->wg);
        ret = -ENODEV;
        goto fail;
    }
    return 0;
fail:
    if (*k)
        d->cl->clReleaseKernel(*k);
    *k = NULL;
    return ret;
}
