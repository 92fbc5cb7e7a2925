/* The seam where GPU backends plug in. A backend is built when its toolchain/headers are present
 * (LOCKSTEP_HAVE_CUDA / LOCKSTEP_HAVE_OPENCL); its driver is loaded at run time, so a build without
 * a GPU still compiles every backend and reports "no device" as a clear, stated condition. */
#ifndef LOCKSTEP_CORE_BACKEND_H
#define LOCKSTEP_CORE_BACKEND_H

#include <stddef.h>

/* 0 when device `device` of the backend can run twins; otherwise a negative errno and a one-line
 * reason in err (no driver, no device, device N out of range, missing capability). */
int ls_cuda_probe(int device, char *err, size_t err_len);
int ls_opencl_probe(int device, char *err, size_t err_len);

#endif
