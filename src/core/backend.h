/* The seam where GPU backends plug in. A backend is built when its toolchain/headers are present
 * (LOCKSTEP_HAVE_CUDA / LOCKSTEP_HAVE_OPENCL); its driver is loaded at run time, so a build without
 * a GPU still compiles every backend and reports "no device" as a clear, stated condition. */
#ifndef LOCKSTEP_CORE_BACKEND_H
#define LOCKSTEP_CORE_BACKEND_H

#include <stddef.h>

#include "core/shared.h"

/* 0 when device `device` of the backend can run twins; otherwise a negative errno and a one-line
 * reason in err (no driver, no device, device N out of range, missing capability). */
int ls_cuda_probe(int device, char *err, size_t err_len);
int ls_opencl_probe(int device, char *err, size_t err_len);

/* Host memory that a backend's device reads by DMA (pinned), for the picture pool: a picture
 * uploaded from it needs no copy into a staging buffer. alloc returns `bytes` (a multiple of 4096)
 * aligned to 4096, or NULL (the pool then takes the heap's); release takes back what alloc gave;
 * done, once the pool has released everything, drops the pool's hold on self. */
typedef struct LsHostMemory {
    void *(*alloc)(void *self, size_t bytes);
    void (*release)(void *self, void *mem);
    void (*done)(void *self);
    void *self;
} LsHostMemory;

/* The pinned host memory of OpenCL device `device`, through the context's OpenCL device in sh
 * (the twins' one context: memory pinned for another context may not count as pinned). The
 * device stays open until both sh and the pool (done) have let it go. 0, or a negative errno and
 * the reason in err. */
int ls_opencl_host_memory(LsShared *sh, int device, LsHostMemory *out, char *err,
                          size_t err_len);

#endif
