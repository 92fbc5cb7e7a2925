/* What the float twins' host files (float_vif.c, float_adm.c) and their kernels share: launch
 * parameters (by value, fixed-size types only), and the row chains of row_chain.cuh. */
#ifndef LOCKSTEP_CUDA_FLOAT_CUDA_H
#define LOCKSTEP_CUDA_FLOAT_CUDA_H

#include <stdint.h>

#define LS_FLOAT_THREADS 256u
#define LS_ROW_CHAIN_WARPS 4u /* warps per block of the row sums, 32 rows each */
#define LS_ROW_CHAIN_MAX_SEQ 9

/* Float chains the CPU forms as "each row summed from 0 left to right over columns [c0, c1), the
 * row sums added to 0 top to bottom over rows [r0, r1)": sequence blockIdx.y reads plane[seq]
 * (floats, rows of `stride`), its row sums go to rows[seq * stride_rows + r], its total to
 * out[seq] (ls_row_chain_total). */
typedef struct LsRowChainArgs {
    uint64_t plane[LS_ROW_CHAIN_MAX_SEQ];
    uint64_t rows;   /* float scratch, n_seq x stride_rows */
    uint64_t out;    /* float, n_seq */
    uint32_t stride, stride_rows, c0, c1, r0, r1, n_seq;
} LsRowChainArgs;

/* float_vif: the vertical pass of one scale (the window of n_taps, float_vif_taps.h): V[q] = taps
 * over rows (reflect-101) of the filter inputs (q = x, y and, with `products`, x*x, y*y, x*y), into planes of w x h. */
typedef struct LsFloatVifVerticalArgs {
    uint64_t src[2];           /* samples (bpc 8: bytes, else uint16) or, bpc 0, float planes */
    uint64_t v[5];             /* float planes */
    uint32_t w, h, bpc, n_taps, products;
} LsFloatVifVerticalArgs;

/* float_vif: the horizontal pass (reflect-101) and the statistic of every pixel. */
typedef struct LsFloatVifStatArgs {
    uint64_t v[5];
    uint64_t num, den;         /* float planes */
    double sigma_nsq;
    float gain_limit, sigma_max_inv;
    uint32_t w, h, n_taps;
} LsFloatVifStatArgs;

/* float_vif: the next scale of both pictures (blockIdx.z) with the next scale's taps: the
 * vertical pass at even rows, the horizontal pass at even columns. */
typedef struct LsFloatVifDecimateArgs {
    uint64_t src[2], dst[2];
    uint32_t w, h, bpc, n_taps;
} LsFloatVifDecimateArgs;

/* float_adm: one scale's DWT of both pictures (blockIdx.z), input w x h, bands bw x bh. */
typedef struct LsFloatAdmDwtArgs {
    uint64_t src[2];           /* scale 0: samples; else float approximation planes */
    uint64_t approx[2];        /* float bw x bh, 0 at the last scale */
    uint64_t band[2][3];       /* h, v, d; 0: no details */
    int32_t w, h, bw, bh, bpc, left, top, right, bottom;
} LsFloatAdmDwtArgs;

/* float_adm: decoupling and CSF over [left, right) x [top, bottom). */
typedef struct LsFloatAdmAnalyseArgs {
    uint64_t o[3], t[3];
    uint64_t c_a[3], f_a[3], c_r[3], f_r[3];
    double gain_limit;
    float factor[3];
    int32_t bw, left, top, right, bottom;
} LsFloatAdmAnalyseArgs;

/* float_adm: the pixel terms of [L, Rt) x [T, B): den h, v, d, DLM h, v, d, AIM h, v, d planes. */
typedef struct LsFloatAdmTermsArgs {
    uint64_t o[3];
    uint64_t c_a[3], f_a[3], c_r[3], f_r[3];
    uint64_t terms[9];
    float factor[3];
    int32_t bw, bh, L, T, Rt, B, bypass;
} LsFloatAdmTermsArgs;

#endif
