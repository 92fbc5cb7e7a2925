/* What psnr_hvs.c and psnr_hvs.cu share: the terms kernel's launch parameters (passed by value,
 * fixed-size types only). */
#ifndef LOCKSTEP_CUDA_PSNR_HVS_CUDA_H
#define LOCKSTEP_CUDA_PSNR_HVS_CUDA_H

#include <stdint.h>

#define LS_HVS_THREADS 128u /* 8x8 blocks per CUDA block */

typedef struct LsHvsFrame {
    uint64_t ref[3], dis[3]; /* packed planes on the device: rows of stride[p] bytes */
    uint32_t stride[3];
    uint32_t blocks_x[3];    /* 8x8 blocks per block row */
    uint32_t block_off[4];   /* blocks before plane p; block_off[n_planes] = all blocks */
    uint32_t n_planes;
    uint64_t terms;          /* float *: 64 per block, plane after plane (the CPU's order) */
} LsHvsFrame;

#if !defined(__CUDACC__)
#include <stddef.h>

/* The ordered-sum kernels of the psnr_hvs module on arbitrary terms: *out = the sequential float
 * sum of terms[0..n), computed on CUDA device `device`. For tests; 0 or a negative errno with a
 * reason in err. */
int ls_cuda_ordered_sum(int device, const float *terms, size_t n, float *out, char *err,
                        size_t err_len);
#endif

#endif
