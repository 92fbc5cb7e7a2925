/* What the SpEED twins' host file (speed.c) and speed.cu share: launch parameters (by value,
 * fixed-size types only). A "job" is one residual: a side (reference or distorted) of one plane
 * pair; speed_chroma runs four (U ref, U dis, V ref, V dis), speed_temporal two. */
#ifndef LOCKSTEP_CUDA_SPEED_CUDA_H
#define LOCKSTEP_CUDA_SPEED_CUDA_H

#include <stdint.h>

#define LS_SPEED_MAX_JOBS 4
#define LS_SPEED_THREADS 128u
/* covariance: 325 entries (p >= q), LS_SPEED_COV_THREADS per block, LS_SPEED_COV_BLOCKS blocks
 * per job; each block stages the deviations of LS_SPEED_COV_THREADS positions at a time */
#define LS_SPEED_COV_THREADS 128u
#define LS_SPEED_COV_BLOCKS 3u
#define LS_SPEED_COV_ENTRIES 325
#define LS_SPEED_SOLVE_THREADS 640u /* one per 25x25 entry */
/* result: per job 32 floats (lambda[25], then the singular flag as an int32 at 25 and the
 * pivot test at 26), then per job nb variances */
#define LS_SPEED_HEADER_FLOATS 32
#define LS_SPEED_SINGULAR 25
#define LS_SPEED_PIVOTS_OK 26

/* The pixel stages: working samples, the anti-alias filter at the kept rows (V) and columns (D),
 * the local-mean removal (M, R). */
typedef struct LsSpeedPixelArgs {
    uint64_t a[LS_SPEED_MAX_JOBS], b[LS_SPEED_MAX_JOBS]; /* samples: a, minus b when b != 0 */
    uint64_t V[LS_SPEED_MAX_JOBS], D[LS_SPEED_MAX_JOBS];
    uint64_t M[LS_SPEED_MAX_JOBS], R[LS_SPEED_MAX_JOBS];
    uint64_t bl_x1, bl_x2, bl_dx; /* bilinear resampling (resample != 0) */
    uint64_t ay_idx, ay_w;        /* the y axis: 2 indices and the fraction per working row */
    int32_t stride;               /* source row stride in samples */
    int32_t bpc, resample;
    int32_t w0, h0, ws, hs, wd, hd;
    int32_t n1, aa_off;           /* anti-alias width and taps (ls_speed_antialias_taps) */
    int32_t nm, mean_off;         /* local-mean width and taps (ls_float_vif_taps) */
} LsSpeedPixelArgs;

/* The statistics of each residual: covariance, eigenvalues, the QR solve, the variances. */
typedef struct LsSpeedStatsArgs {
    uint64_t R[LS_SPEED_MAX_JOBS], K[LS_SPEED_MAX_JOBS];
    uint64_t Y[LS_SPEED_MAX_JOBS], T[LS_SPEED_MAX_JOBS], X[LS_SPEED_MAX_JOBS];
    uint64_t res;                 /* the result block */
    int32_t wd, sw, sh, nb, nbh, nbp;
} LsSpeedStatsArgs;

#endif
