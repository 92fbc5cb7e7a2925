/* Motion blur taps and per-sample arithmetic shared by the CPU extractors (float_motion, motion)
 * and their GPU twins. Compiles as C and as CUDA (LS_HD); the taps are binary32 hex literals so
 * every compiler gets the same bits. Spec: shared/spec/features/motion.md,
 * shared/spec/tables/motion_filter.json. */
#ifndef LOCKSTEP_FEATURE_MOTION_FILTER_H
#define LOCKSTEP_FEATURE_MOTION_FILTER_H

#include "core/portable.h" /* LS_HD; LS_CONSTANT: device code cannot read host arrays */
#include "core/soft_f64.h"

#if !defined(LS_OPENCL_C)
#include <math.h>
#include <stdint.h>
#endif

#define LS_MOTION_MAX_TAPS 5
#define LS_INT_MOTION_RADIUS 2

/* float_motion: motion_filter_size 5 (and every value but 1 and 3), 3, and 1 (identity, still
 * run through the 5-tap convolution). */
#define LS_FLOAT_MOTION_FILTER5                                                                    \
    {                                                                                              \
        0x1.be5f0ep-5f, 0x1.f41fd6p-3f, 0x1.9c4868p-2f, 0x1.f41fd6p-3f, 0x1.be5f0ep-5f             \
    }
#define LS_FLOAT_MOTION_FILTER3                                                                    \
    {                                                                                              \
        0x1.54be4p-3f, 0x1.55a0ep-1f, 0x1.54be4p-3f                                                \
    }
#define LS_FLOAT_MOTION_FILTER_IDENTITY                                                            \
    {                                                                                              \
        0.0f, 0.0f, 1.0f, 0.0f, 0.0f                                                               \
    }
LS_CONSTANT float ls_float_motion_filter5[5] = LS_FLOAT_MOTION_FILTER5;
LS_CONSTANT float ls_float_motion_filter3[3] = LS_FLOAT_MOTION_FILTER3;
LS_CONSTANT float ls_float_motion_filter_identity[5] = LS_FLOAT_MOTION_FILTER_IDENTITY;

/* integer motion: Q16, sums to 65536 (so the horizontal pass shifts by 16) */
#define LS_INT_MOTION_F0 3571
#define LS_INT_MOTION_F1 16004
#define LS_INT_MOTION_F2 26386
LS_CONSTANT int32_t ls_int_motion_filter[5] = { LS_INT_MOTION_F0, LS_INT_MOTION_F1,
                                                LS_INT_MOTION_F2, LS_INT_MOTION_F1,
                                                LS_INT_MOTION_F0 };

/* Reflection about the edge sample, the edge itself not repeated: -1 -> 1, n -> n-2.
 * Valid for idx in [-(n-1), 2n-2], i.e. for a radius below n. */
LS_HD static inline int ls_motion_mirror(int idx, int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - idx - 2;
    return idx;
}

/* Every float division goes through LS_FDIV: a device whose division is not correctly rounded
 * defines it as its integer emulation (src/opencl/fp32_exact.h). */
#ifndef LS_FDIV
#define LS_FDIV(a, b) ((a) / (b))
#endif

/* float_motion sample conversion: (float)v [/ D] + (float)-128, D = 2^(bpc-8) for bpc > 8. */
LS_HD static inline float ls_float_motion_sample(unsigned v, unsigned bpc, float divisor)
{
    if (bpc == 8)
        return (float)v + (float)(-128);
    return LS_FDIV((float)v, divisor) + (float)(-128);
}

LS_HD static inline float ls_float_motion_divisor(unsigned bpc)
{
    return bpc == 8 ? 1.0f : (float)(1u << (bpc - 8));
}

/* Bilinear coordinate of the half-size rescale (motion_add_scale1): source index pair and the
 * float weight of the second one. */
LS_HD static inline float ls_motion_fmirror(float i, float lo, float hi)
{
    return i < lo ? -i : (i > hi ? 2.0f * hi - i : i);
}

/* floor and ceil of a float, exact in float or double alike */
#if defined(LS_OPENCL_C)
#define LS_MOTION_FLOORF(x) floor(x)
#define LS_MOTION_CEILF(x) ceil(x)
#else
#define LS_MOTION_FLOORF(x) ((float)floor(x))
#define LS_MOTION_CEILF(x) ((float)ceil(x))
#endif

/* pos = (float)((out_idx + 0.5) * (double)ratio - 0.5): the binary64 steps through ls_f64
 * (core/soft_f64.h: double in C and CUDA, its integer emulation in OpenCL C). */
LS_HD static inline void ls_motion_bilinear_coord(int out_idx, float ratio, int src_len, int *i1,
                                                  int *i2, float *frac)
{
    const ls_f64 one_half = LS_F64_C(0x3fe0000000000000ull, 0.5);
    const float pos = ls_f64_to_f32(ls_f64_sub(
        ls_f64_mul(ls_f64_add(ls_f64_from_i64(out_idx), one_half), ls_f64_from_f32(ratio)),
        one_half));
    const float hi = (float)(src_len - 1);
    *i1 = (int)ls_motion_fmirror(LS_MOTION_FLOORF(pos), 0.0f, hi);
    *i2 = (int)ls_motion_fmirror(LS_MOTION_CEILF(pos), 0.0f, hi);
    *frac = pos - (float)*i1;
}

LS_HD static inline float ls_motion_bilinear_sample(float p11, float p12, float p21, float p22,
                                                    float dx, float dy)
{
    return (1.0f - dy) * (1.0f - dx) * p11 + (1.0f - dy) * dx * p12 + dy * (1.0f - dx) * p21 +
           dy * dx * p22;
}

/* Integer motion (pipelined): vertical pass on the difference prev - cur, rounded to the row
 * value; then the horizontal pass of five row values. */
LS_HD static inline int32_t ls_int_motion_vertical_round(int64_t acc, unsigned bpc)
{
    if (bpc == 8)
        return ((int32_t)acc + 128) >> 8;
    return (int32_t)((acc + (1 << (bpc - 1))) >> bpc);
}

LS_HD static inline int32_t ls_int_motion_horizontal(int32_t r0, int32_t r1, int32_t r2, int32_t r3,
                                                     int32_t r4)
{
    const int64_t acc = (int64_t)LS_INT_MOTION_F0 * r0 + (int64_t)LS_INT_MOTION_F1 * r1 +
                        (int64_t)LS_INT_MOTION_F2 * r2 + (int64_t)LS_INT_MOTION_F1 * r3 +
                        (int64_t)LS_INT_MOTION_F0 * r4;
    return (int32_t)((acc + 32768) >> 16);
}

#endif
