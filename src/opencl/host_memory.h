/* The context's OpenCL device, shared by the twins' frame pipeline and the picture pool: one
 * cl_context, in which the pool's pictures are driver-allocated pinned memory
 * (CL_MEM_ALLOC_HOST_PTR buffers, mapped once for the whole run; OpenCL cannot pin memory it did
 * not allocate). A frame whose pictures lie there is uploaded straight from them by DMA, one
 * non-blocking write per plane, instead of being packed into a staging buffer first
 * (core/backend.h: ls_opencl_host_memory). */
#ifndef LOCKSTEP_OPENCL_HOST_MEMORY_H
#define LOCKSTEP_OPENCL_HOST_MEMORY_H

#include <stddef.h>

#include "core/frame_pack.h"
#include "core/shared.h"
#include "opencl/opencl.h"

typedef struct LsClHost LsClHost;

/* The device `index` of the context's shared objects sh, opened by the first caller. NULL, *ret a
 * negative errno and the reason in err when it cannot be opened. */
LsClHost *ls_cl_host_get(LsShared *sh, int index, int *ret, char *err, size_t err_len);

LsClDevice *ls_cl_host_device(LsClHost *h);

/* 1 when the planes of pic that l holds lie in this device's pinned pictures, laid out as l's rows:
 * they can be written to the device straight from the picture. */
int ls_cl_host_direct(LsClHost *h, const LsFrameLayout *l, const VmafPicture *pic);

#endif
