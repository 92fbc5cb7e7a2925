/* PSNR-HVS per-block arithmetic (psnr_hvs.md §5-§8): the one implementation that the C reference,
 * the CUDA kernel and the OpenCL kernel all run. Everything here compiles as C11, as CUDA
 * (functions are LS_HD: __host__ __device__ under nvcc, which must run with --fmad=false) and as
 * OpenCL C, except ls_psnr_hvs_threshold_fp64(), which needs binary64 (see LS_PSNR_HVS_THRESHOLD).
 *
 * Portability rules kept here: no libc call but sqrt, no VLA, plain int/float arrays passed as
 * private pointers, samples read through an LS_GLOBAL pointer (__global in OpenCL C), tables in
 * psnr_hvs_tables.h (LS_CONSTANT storage). `int` is 32-bit and `>>` of a negative int is an
 * arithmetic shift on all three targets, which the DCT relies on.
 *
 * A block is 64 samples in row-major order: b[8 * i + j], i = row, j = column. */
#ifndef LOCKSTEP_FEATURE_PSNR_HVS_BLOCK_H
#define LOCKSTEP_FEATURE_PSNR_HVS_BLOCK_H

#include "core/portable.h" /* LS_HD, LS_GLOBAL, LS_CONSTANT */

#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)
#include <math.h>
#include <stddef.h>
#endif

#include "feature/psnr_hvs_tables.h"

/* Every float division of the unit goes through LS_FDIV: a device whose division is not
 * correctly rounded defines it to an exact emulation before including this header (and can test
 * LS_PSNR_HVS_FDIV_HOOK to know that the header honours it). */
#ifndef LS_FDIV
#define LS_FDIV(a, b) ((a) / (b))
#endif
#define LS_PSNR_HVS_FDIV_HOOK 1

/* The reference's bias factors (1.0f / 63.0f) * 64.0f and (1.0f / 15.0f) * 16.0f, each evaluated
 * in float, as literals so that no compiler folds them differently (the test checks the values). */
#define LS_PSNR_HVS_F63 0x1.041042p+0f
#define LS_PSNR_HVS_F15 0x1.111112p+0f

/* Loads the 8x8 block with top-left sample (x, y) of a plane into b. stride in bytes; samples are
 * bytes when bytes_per_sample is 1, else little-endian 16-bit words (psnr_hvs.md §5). */
LS_HD static inline void ls_psnr_hvs_load_block(int b[64], LS_GLOBAL const unsigned char *plane,
                                                ptrdiff_t stride, int x, int y,
                                                int bytes_per_sample)
{
    for (int i = 0; i < 8; i++) {
        LS_GLOBAL const unsigned char *row = plane + (ptrdiff_t)(y + i) * stride;
        for (int j = 0; j < 8; j++) {
            if (bytes_per_sample == 1) {
                b[8 * i + j] = row[x + j];
            } else {
                LS_GLOBAL const unsigned char *p = row + 2 * (x + j);
                b[8 * i + j] = p[0] + (p[1] << 8);
            }
        }
    }
}

/* The block's variance ratio (§6): sum of the four quadrant variances over the global variance,
 * each variance bias-corrected; 0 for a flat block. Every float operation in the spec's order. */
LS_HD static inline float ls_psnr_hvs_variance_ratio(const int b[64])
{
    float gmean = 0.0f, gvar = 0.0f;
    float mean[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    float var[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
            gmean += (float)b[8 * i + j];
            mean[q] += (float)b[8 * i + j];
        }
    }
    gmean = LS_FDIV(gmean, 64.0f);
    for (int q = 0; q < 4; q++)
        mean[q] = LS_FDIV(mean[q], 16.0f);
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
            const float a = (float)b[8 * i + j] - gmean;
            const float c = (float)b[8 * i + j] - mean[q];
            gvar += a * a;
            var[q] += c * c;
        }
    }
    gvar *= LS_PSNR_HVS_F63;
    for (int q = 0; q < 4; q++)
        var[q] *= LS_PSNR_HVS_F15;
    if (gvar > 0.0f)
        gvar = LS_FDIV(((var[0] + var[1]) + var[2]) + var[3], gvar);
    return gvar;
}

/* v / 2 rounded toward zero; v + 1 cannot overflow for a negative v */
LS_HD static inline int ls_psnr_hvs_half(int v)
{
    return (v + (int)((unsigned)v >> 31)) >> 1;
}

/* (v * c) / 2^s rounded to nearest, ties up (floor shift) */
LS_HD static inline int ls_psnr_hvs_round_mul(int v, int c, int s)
{
    return (v * c + (1 << (s - 1))) >> s;
}

/* The Daala 1-D 8-point integer DCT (od_bin_fdct8, §7.1): x[k * xstride] in, y[0..7] out. */
LS_HD static inline void ls_psnr_hvs_fdct8(int y[8], const int *x, int xstride)
{
    int t0 = x[0 * xstride], t4 = x[1 * xstride], t2 = x[2 * xstride], t6 = x[3 * xstride];
    int t7 = x[4 * xstride], t3 = x[5 * xstride], t5 = x[6 * xstride], t1 = x[7 * xstride];
    int h1, h4, h6;
    t1 = t0 - t1;
    h1 = ls_psnr_hvs_half(t1);
    t0 = t0 - h1;
    t4 = t4 + t5;
    h4 = ls_psnr_hvs_half(t4);
    t5 = t5 - h4;
    t3 = t2 - t3;
    t2 = t2 - ls_psnr_hvs_half(t3);
    t6 = t6 + t7;
    h6 = ls_psnr_hvs_half(t6);
    t7 = h6 - t7;
    t0 = t0 + h6;
    t6 = t0 - t6;
    t2 = h4 - t2;
    t4 = t2 - t4;
    t0 = t0 - ls_psnr_hvs_round_mul(t4, 13573, 15);
    t4 = t4 + ls_psnr_hvs_round_mul(t0, 11585, 14);
    t0 = t0 - ls_psnr_hvs_round_mul(t4, 13573, 15);
    t6 = t6 - ls_psnr_hvs_round_mul(t2, 21895, 15);
    t2 = t2 + ls_psnr_hvs_round_mul(t6, 15137, 14);
    t6 = t6 - ls_psnr_hvs_round_mul(t2, 21895, 15);
    t3 = t3 + ls_psnr_hvs_round_mul(t5, 19195, 15);
    t5 = t5 + ls_psnr_hvs_round_mul(t3, 11585, 14);
    t3 = t3 - ls_psnr_hvs_round_mul(t5, 7489, 13);
    t7 = ls_psnr_hvs_half(t5) - t7;
    t5 = t5 - t7;
    t3 = h1 - t3;
    t1 = t1 - t3;
    t7 = t7 + ls_psnr_hvs_round_mul(t1, 3227, 15);
    t1 = t1 - ls_psnr_hvs_round_mul(t7, 6393, 15);
    t7 = t7 + ls_psnr_hvs_round_mul(t1, 3227, 15);
    t5 = t5 + ls_psnr_hvs_round_mul(t3, 2485, 13);
    t3 = t3 - ls_psnr_hvs_round_mul(t5, 18205, 15);
    t5 = t5 + ls_psnr_hvs_round_mul(t3, 2485, 13);
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

/* 2-D DCT of a row-major block: columns first, each column's outputs stored as a row of z, then
 * the columns of z; c[8 * i + j] has vertical frequency i and horizontal frequency j. */
LS_HD static inline void ls_psnr_hvs_fdct8x8(int c[64], const int b[64])
{
    int z[64];
    for (int k = 0; k < 8; k++)
        ls_psnr_hvs_fdct8(z + 8 * k, b + k, 8);
    for (int k = 0; k < 8; k++)
        ls_psnr_hvs_fdct8(c + 8 * k, z + k, 8);
}

/* Masking energy (§7.2): every coefficient but DC, row-major; the integer square is converted
 * (and may round above 2^24), never a float squared. */
LS_HD static inline float ls_psnr_hvs_mask_energy(const int c[64], int plane)
{
    float e = 0.0f;
    for (int k = 1; k < 64; k++)
        e += (float)(c[k] * c[k]) * ls_psnr_hvs_mask[plane][k];
    return e;
}

#if (!defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__)) || defined(LS_PSNR_HVS_FP64)
/* Masking threshold of one side (§7.3), the fork's arithmetic: the product of the two floats taken
 * in double (exact), double sqrt, /32, one rounding to float. fp64-free devices compute the same
 * value as sqrt_prod_rn(energy, ratio) / 32.0f (exactness.md §4.3) and define
 * LS_PSNR_HVS_THRESHOLD to it before including this header. */
LS_HD static inline float ls_psnr_hvs_threshold_fp64(float energy, float ratio)
{
    return (float)(sqrt((double)energy * (double)ratio) / 32.0);
}
#ifndef LS_PSNR_HVS_THRESHOLD
#define LS_PSNR_HVS_THRESHOLD(energy, ratio) ls_psnr_hvs_threshold_fp64(energy, ratio)
#endif
#endif

/* The 64 error terms w*w of a block (§8), row-major, DC unmasked. t is the larger of the two
 * sides' thresholds. */
LS_HD static inline void ls_psnr_hvs_block_terms(float terms[64], const int cs[64],
                                                 const int cd[64], float t, int plane)
{
    for (int k = 0; k < 64; k++) {
        const int diff = cs[k] - cd[k];
        float err = (float)(diff < 0 ? -diff : diff);
        if (k != 0) {
            const float thr = LS_FDIV(t, ls_psnr_hvs_mask[plane][k]);
            err = err < thr ? 0.0f : err - thr;
        }
        const float w = err * ls_psnr_hvs_csf[plane][k];
        terms[k] = w * w;
    }
}

#ifdef LS_PSNR_HVS_THRESHOLD
/* Everything of §6-§8 for one block: reference samples s and distorted samples d (row-major) in,
 * the 64 terms out. */
LS_HD static inline void ls_psnr_hvs_block(float terms[64], const int s[64], const int d[64],
                                           int plane)
{
    int cs[64], cd[64];
    const float ratio_s = ls_psnr_hvs_variance_ratio(s);
    const float ratio_d = ls_psnr_hvs_variance_ratio(d);
    ls_psnr_hvs_fdct8x8(cs, s);
    ls_psnr_hvs_fdct8x8(cd, d);
    const float t_s = LS_PSNR_HVS_THRESHOLD(ls_psnr_hvs_mask_energy(cs, plane), ratio_s);
    const float t_d = LS_PSNR_HVS_THRESHOLD(ls_psnr_hvs_mask_energy(cd, plane), ratio_d);
    ls_psnr_hvs_block_terms(terms, cs, cd, t_d > t_s ? t_d : t_s, plane);
}
#endif

#endif
