/* A test switch for the GPU backends' error paths: LOCKSTEP_FAULT_INJECT makes chosen driver calls
 * fail as the driver would, so that tests can check that every failure gives a clear error naming
 * the call, a non-zero exit, no report and no hang, on real devices (tests/cli_test.py on PoCL,
 * tests/gpu_faults.py on CUDA).
 *
 *   LOCKSTEP_FAULT_INJECT=ITEM[,ITEM...]   ITEM: CLASS:N, or device_memory:BYTES
 *
 * CLASS:N fails the Nth call (counted from 1, over the whole process and every thread) of a class
 * of CUDA driver / OpenCL calls:
 *   alloc   cuMemAlloc, cuMemHostAlloc / clCreateBuffer (not cuMemHostRegister nor the OpenCL
 *           picture pool's pinned blocks and their maps: a picture that cannot be pinned is
 *           staged through a copy, no failure)
 *   copy    cuMemcpy*, cuMemsetD8Async / clEnqueueWriteBuffer(Rect), clEnqueueReadBuffer,
 *           clEnqueueCopyBuffer, clEnqueueFillBuffer, clEnqueueMapBuffer (non-blocking ones)
 *   launch  cuLaunchKernel, cuLaunchHostFunc / clEnqueueNDRangeKernel
 *   sync    cuStreamSynchronize, cuEventSynchronize / clFinish, clWaitForEvents, and the
 *           blocking transfers and maps
 * device_memory:BYTES makes the devices report BYTES of memory (free memory on CUDA, the global
 * memory and the largest buffer on OpenCL): what a frame too large for the device meets.
 * BYTES may end in K, M or G (powers of 1024). Without the variable nothing changes (one getenv
 * per process). A malformed value is reported once on stderr and injects nothing. */
#ifndef LOCKSTEP_CORE_FAULT_H
#define LOCKSTEP_CORE_FAULT_H

#include <stdint.h>

enum LsFaultClass {
    LS_FAULT_ALLOC,
    LS_FAULT_COPY,
    LS_FAULT_LAUNCH,
    LS_FAULT_SYNC,
    LS_FAULT_CLASSES
};

/* Whether any item is set: the backends wrap their driver tables only then. */
int ls_fault_enabled(void);
/* Counts one call of class c; 1 when it is the one to fail. */
int ls_fault_inject(enum LsFaultClass c);
/* The device memory to report instead of the device's (bytes), or `actual` when not set. */
uint64_t ls_fault_device_memory(uint64_t actual);

#endif
