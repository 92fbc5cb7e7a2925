/* What the ssim twins' host files (float_ssim.c, ssim.c) and ssim.cu share: launch parameters,
 * passed by value (fixed-size types only). */
#ifndef LOCKSTEP_CUDA_SSIM_CUDA_H
#define LOCKSTEP_CUDA_SSIM_CUDA_H

#include <stdint.h>

#define LS_SSIM_THREADS 256u
#define LS_SSIM_CHAIN_CHUNK 2048u /* terms a chain's warp stages per step */

/* float_ssim: the luma of both pictures as floats in the 8-bit range, decimated by f (f = 1:
 * converted only), into dst[2] (dw x dh). blockIdx.z: 0 reference, 1 distorted. */
typedef struct LsFloatSsimPrepArgs {
    uint64_t src[2];   /* samples, rows of w (bytes at 8 bit, else uint16) */
    uint64_t dst[2];   /* float, dw x dh */
    uint32_t w, h, bpc, f, dw, dh;
    float box_weight;
} LsFloatSsimPrepArgs;

/* float_ssim: the five horizontal 11-tap moments of every grid row (rows 0..dh-1, x < dw - 10). */
typedef struct LsFloatSsimHorizontalArgs {
    uint64_t ref, dis; /* float, dw x dh */
    uint64_t mom;      /* float [5][dh][dw - 10] */
    uint32_t dw, dh;
} LsFloatSsimHorizontalArgs;

/* float_ssim: the vertical pass and the terms of every position of the valid grid, stored as
 * four double planes { l*c*s, l, c, s } in row-major order (the order of the CPU's chains). */
typedef struct LsFloatSsimTermsArgs {
    uint64_t mom;      /* float [5][dh][w_out] */
    uint64_t terms;    /* double [4][h_out][w_out] */
    uint32_t w_out, h_out, dh;
} LsFloatSsimTermsArgs;

/* Sequential double sums (the CPU's chains): sequence blockIdx.x is terms[blockIdx.x * stride ..
 * + n), added from 0.0 in order into out[blockIdx.x]. One warp per sequence. */
typedef struct LsChainArgs {
    uint64_t terms;    /* double */
    uint64_t out;      /* double */
    uint64_t stride, n;
} LsChainArgs;

/* ssim (integer): per position of one row band, the term of ls_ssim_position and its weight, from
 * the 9-tap sums with the taps outside the picture dropped. */
typedef struct LsSsimTermsArgs {
    uint64_t ref, dis; /* samples, rows of w */
    uint64_t terms;    /* double [h][w]: the ssim terms, row-major */
    uint64_t weights;  /* unsigned long long: the sum of the kept weights (exact integers) */
    double sample_max;
    uint32_t w, h, bpc;
} LsSsimTermsArgs;

#endif
