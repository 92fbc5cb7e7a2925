/* What psnr.c and psnr.cu share: the SSE kernel's launch parameters (passed by value, fixed-size
 * types only). */
#ifndef LOCKSTEP_CUDA_PSNR_CUDA_H
#define LOCKSTEP_CUDA_PSNR_CUDA_H

#include <stdint.h>

#define LS_PSNR_THREADS 256u

typedef struct LsPsnrFrame {
    uint64_t ref[3], dis[3]; /* packed planes on the device, 256-byte aligned, no row padding */
    uint32_t words[3];       /* 32-bit words of whole samples per plane (4 or 2 samples each) */
    uint32_t tail[3];        /* samples after the last whole word */
    uint64_t sse;            /* unsigned long long[3]: zeroed before the launch */
} LsPsnrFrame;

#endif
