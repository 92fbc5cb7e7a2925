/* SSIM (`float_ssim`, integer `ssim`): what the CPU extractors and their GPU twins share.
 * Option structs (first member of every ssim extractor's private state, so a twin takes the CPU's
 * table itself), the per-position arithmetic both backends must run identically (LS_HD functions,
 * valid C and CUDA), the host-side dB transform, and the DSP units of the CPU path.
 * Spec: shared/spec/features/ssim.md, tables/ssim_gaussian.json. */
#ifndef LOCKSTEP_FEATURE_SSIM_H
#define LOCKSTEP_FEATURE_SSIM_H

#include "core/portable.h"
#include "core/soft_f64.h"

#if !defined(LS_OPENCL_C)
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)
#include "core/extractor.h" /* host only */
#endif

/* ---- float_ssim ---- */

#define LS_FLOAT_SSIM_TAPS 11

#if !defined(LS_OPENCL_C)
typedef struct LsFloatSsimOptions {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
    int scale;
} LsFloatSsimOptions;
#endif

/* The 11 binary32 taps, used as they are (they sum to 1.0000020239967853, not 1). */
#define LS_FLOAT_SSIM_GAUSSIAN_INIT                                                              \
    { 0x1.0d7beap-10f, 0x1.f2021p-8f, 0x1.26eb92p-5f, 0x1.bff152p-4f, 0x1.b43c7ep-3f,            \
      0x1.106574p-2f, 0x1.b43c7ep-3f, 0x1.bff152p-4f, 0x1.26eb92p-5f, 0x1.f2021p-8f,             \
      0x1.0d7beap-10f }

/* C1 = (K1*255)^2, C2 = (K2*255)^2 with every product rounded to float; C3 = C2 / 2. */
#define LS_FLOAT_SSIM_C1 0x1.a028f4p+2f
#define LS_FLOAT_SSIM_C2 0x1.d42e12p+5f
#define LS_FLOAT_SSIM_C3 0x1.d42e12p+4f

#if !defined(LS_OPENCL_C) /* host: the geometry */
/* Decimation factor f (ssim.md §A.4): the explicit scale, or round_half_up(min side / 256)
 * with iqa's rounding (float difference, double comparison), at least 1. */
static inline int ls_float_ssim_scale(int scale_option, unsigned w, unsigned h)
{
    if (scale_option > 0)
        return scale_option;
    const float a = (float)(w < h ? w : h) / 256.0f;
    const int t = (int)a;
    const int f = ((double)(a - (float)t) >= 0.5) ? t + 1 : t;
    return f < 1 ? 1 : f;
}

/* Size after decimation by f > 1: the +1 follows the parity of the full size (a reference quirk,
 * ssim.md §A.5). */
static inline unsigned ls_float_ssim_decimated_size(unsigned size, int f)
{
    return f > 1 ? size / (unsigned)f + (size & 1) : size;
}

#endif

/* Symmetric mirroring of the iqa box filter (ssim.md §A.5): the edge sample is repeated. One
 * reflection is enough for every size that passes the window check. */
LS_HD static inline int ls_float_ssim_mirror(int c, int size)
{
    return c < 0 ? -1 - c : c >= size ? 2 * size - 1 - c : c;
}

/* One output of the 11-tap Gaussian (ssim.md §A.6): src[k * step] times tap k, each product
 * rounded to float, added in double in tap order, the sum rounded to float. */
LS_HD static inline float ls_float_ssim_filter11(const LS_GLOBAL float *src, ptrdiff_t step)
{
    const float g[LS_FLOAT_SSIM_TAPS] = LS_FLOAT_SSIM_GAUSSIAN_INIT;
    ls_f64 acc = LS_F64_C(0, 0.0);
    for (int k = 0; k < LS_FLOAT_SSIM_TAPS; k++)
        acc = ls_f64_add(acc, ls_f64_from_f32(src[k * step] * g[k]));
    return ls_f64_to_f32(acc);
}

LS_HD static inline float ls_float_ssim_filter11_products(const LS_GLOBAL float *a,
                                                          const LS_GLOBAL float *b, ptrdiff_t step)
{
    const float g[LS_FLOAT_SSIM_TAPS] = LS_FLOAT_SSIM_GAUSSIAN_INIT;
    ls_f64 acc = LS_F64_C(0, 0.0);
    for (int k = 0; k < LS_FLOAT_SSIM_TAPS; k++) {
        const float product = a[k * step] * b[k * step];
        acc = ls_f64_add(acc, ls_f64_from_f32(product * g[k]));
    }
    return ls_f64_to_f32(acc);
}

/* One position of the valid grid (ssim.md §A.7): the terms l, c (double) and s (float) from the
 * five Gaussian moments. Mixed precision on purpose: double numerators over float denominators.
 * Identical windows come out as 1 (to the last bits) from this arithmetic alone. */
/* Every float division and root goes through LS_FDIV and LS_FSQRT: a device whose division is
 * not correctly rounded defines them as their integer emulations (src/opencl/fp32_exact.h). */
#ifndef LS_FDIV
#define LS_FDIV(a, b) ((a) / (b))
#endif
#ifndef LS_FSQRT_F64
/* (float)sqrt((double)x) of a float x: the correctly rounded float root of x */
#define LS_FSQRT_F64(x) ((float)sqrt((double)(x)))
#endif

LS_HD static inline void ls_float_ssim_position(float mu_r, float mu_d, float e_rr, float e_dd,
                                                float e_rd, ls_f64 *l, ls_f64 *c, float *s)
{
    const float c1 = LS_FLOAT_SSIM_C1, c2 = LS_FLOAT_SSIM_C2, c3 = LS_FLOAT_SSIM_C3;
    const ls_f64 two = LS_F64_C(0x4000000000000000ull, 2.0);
    float v_r = e_rr - mu_r * mu_r;
    float v_d = e_dd - mu_d * mu_d;
    const float cov = e_rd - mu_r * mu_d;
    /* the reference compares with the double 0.0: the same as 0.0f; keeps -0.0 (only strictly
     * negative values are clamped) */
    v_r = (0.0f > v_r) ? 0.0f : v_r;
    v_d = (0.0f > v_d) ? 0.0f : v_d;
    const float sig = LS_FSQRT_F64(v_r * v_d);
    /* (2.0 * mu_r * mu_d + (double)c1) / (double)(mu_r * mu_r + mu_d * mu_d + c1) */
    *l = ls_f64_div(ls_f64_add(ls_f64_mul(ls_f64_mul(two, ls_f64_from_f32(mu_r)),
                                          ls_f64_from_f32(mu_d)),
                               ls_f64_from_f32(c1)),
                    ls_f64_from_f32(mu_r * mu_r + mu_d * mu_d + c1));
    /* (2.0 * sig + (double)c2) / (double)(v_r + v_d + c2) */
    *c = ls_f64_div(ls_f64_add(ls_f64_mul(two, ls_f64_from_f32(sig)), ls_f64_from_f32(c2)),
                    ls_f64_from_f32(v_r + v_d + c2));
    /* flat identical windows: cov is -0 or tiny negative while sig is 0; this makes s exactly 1 */
    const float cov_clamped = (cov < 0.0f && sig <= 0.0f) ? 0.0f : cov;
    *s = LS_FDIV(cov_clamped + c3, sig + c3);
}

/* ---- integer ssim ---- */

#define LS_SSIM_TAPS 9

#if !defined(LS_OPENCL_C)
typedef struct LsSsimOptions {
    bool enable_db;
    bool clip_db;
} LsSsimOptions;
#endif

/* 2, 9, 28, 55, 68, 55, 28, 9, 2: the reference derives them at run time; they sum to 256. */
#define LS_SSIM_KERNEL_INIT { 2, 9, 28, 55, 68, 55, 28, 9, 2 }

/* 0.01*0.01 and 0.03*0.03 rounded in double */
#define LS_SSIM_K1 LS_F64_C(0x3f1a36e2eb1c432dull, 0x1.a36e2eb1c432dp-14)
#define LS_SSIM_K2 LS_F64_C(0x3f4d7dbf487fcb92ull, 0x1.d7dbf487fcb92p-11)

/* One position (ssim.md §B.5) from the Gaussian-weighted integer moments, given as doubles (they
 * are integers below 2^49, so exact); w is the kept weight sum (less than 65536 at the borders,
 * where taps are dropped). Returns the term added to the frame's ssim chain; the weight chain
 * adds w. */
LS_HD static inline ls_f64 ls_ssim_position(ls_f64 mx, ls_f64 my, ls_f64 xx, ls_f64 xy, ls_f64 yy,
                                            ls_f64 w, ls_f64 sample_max)
{
    /* the binary64 expression of the reference, left to right, through ls_f64
     * (core/soft_f64.h: double in C and CUDA, its integer emulation in OpenCL C) */
    const ls_f64 two = LS_F64_C(0x4000000000000000ull, 2.0);
    const ls_f64 mm = ls_f64_mul(sample_max, sample_max);
    const ls_f64 c1 = ls_f64_mul(ls_f64_mul(ls_f64_mul(mm, LS_SSIM_K1), w), w);
    const ls_f64 c2 = ls_f64_mul(ls_f64_mul(ls_f64_mul(mm, LS_SSIM_K2), w), w);
    const ls_f64 mx2 = ls_f64_mul(mx, mx);
    const ls_f64 mxy = ls_f64_mul(mx, my);
    const ls_f64 my2 = ls_f64_mul(my, my);
    /* w * (2.0 * mxy + c1) * (c2 + 2.0 * (xy * w - mxy)) */
    const ls_f64 num =
        ls_f64_mul(ls_f64_mul(w, ls_f64_add(ls_f64_mul(two, mxy), c1)),
                   ls_f64_add(c2, ls_f64_mul(two, ls_f64_sub(ls_f64_mul(xy, w), mxy))));
    /* (mx2 + my2 + c1) * (xx * w - mx2 + yy * w - my2 + c2) */
    const ls_f64 den = ls_f64_mul(
        ls_f64_add(ls_f64_add(mx2, my2), c1),
        ls_f64_add(ls_f64_sub(ls_f64_add(ls_f64_sub(ls_f64_mul(xx, w), mx2), ls_f64_mul(yy, w)),
                              my2),
                   c2));
    return ls_f64_div(num, den);
}

#if !defined(LS_OPENCL_C)
/* ---- host scalars shared by the CPU extractors and their twins ---- */

/* The clip_db ceiling (ssim.md §A.9, §B.2) from the stream's luma size and full-depth peak,
 * or +inf without clip_db. */
static inline double ls_ssim_db_ceiling(bool clip_db, unsigned bpc, unsigned w, unsigned h)
{
    if (!clip_db)
        return INFINITY;
    const unsigned peak = (1u << bpc) - 1u;
    return ceil(10.0 * log10((double)(peak * peak) / (0.5 / ((double)w * (double)h))));
}

/* SSIM as dB: a perfect 1.0 gives +inf (log10(0) = -inf), and so max_db; so does a NaN. */
static inline double ls_ssim_to_db(double score, double max_db)
{
    const double db = -10.0 * log10(1.0 - score);
    return db < max_db ? db : max_db;
}

#endif

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)

/* What the CPU extractors and their GPU twins share besides the math: the checks and refusals
 * (one line through ls_fex_error), the geometry and the score writers. Both read luma only. */
typedef struct LsFloatSsimState {
    LsFloatSsimOptions opt;
    unsigned w, h, bpc;
    int f;                  /* decimation factor, 1 = none */
    unsigned dw, dh;        /* size after decimation; the valid grid is (dw - 10) x (dh - 10) */
    float box_weight;       /* 1/(f*f) as float */
    double max_db;
} LsFloatSsimState;

int ls_float_ssim_state_init(LsFex *fex, LsFloatSsimState *st, const LsFloatSsimOptions *opt,
                             unsigned bpc, unsigned w, unsigned h);
/* acc: the four sequential double chains { sum l*c*s, sum l, sum c, sum s } of the valid grid. */
int ls_float_ssim_write_scores(const LsFloatSsimState *st, const double acc[4], unsigned index,
                               LsCollector *fc);

typedef struct LsSsimState {
    LsSsimOptions opt;
    unsigned w, h;
    double sample_max, max_db;
} LsSsimState;

int ls_ssim_state_init(LsFex *fex, LsSsimState *st, const LsSsimOptions *opt, unsigned bpc,
                       unsigned w, unsigned h);
/* From the two chains: the ssim terms in row-major order, and the kept weights. */
int ls_ssim_write_score(const LsSsimState *st, double ssim_sum, double weight_sum,
                        unsigned index, LsCollector *fc);

extern const LsOption ls_float_ssim_options[];
extern const LsOption ls_ssim_options[];
extern const LsExtractor ls_fex_float_ssim;
extern const LsExtractor ls_fex_ssim;

/* ---- DSP units of the CPU path (C reference in ssim_dsp.c, AVX2 in x86/ssim_avx2.c) ---- */

/* float_ssim, horizontal pass over one row: for x in [0, w_out) the 11-tap "valid" convolution
 * of ref, dis, ref*ref, dis*dis and ref*dis (squares and product rounded to float first). Each
 * output: 11 float products added in double in tap order, rounded to float. */
/* float_ssim, one decimated row: out[X] = sum over rows v (the f source rows, already times the
 * box weight, `stride` floats apart) and taps u of src[v][cols[u * n_out + X]], added in double
 * in (v, u) order, rounded to float. cols holds the mirrored source column of tap u of output X. */
typedef void (*LsFloatSsimDecimateFn)(const float *src, size_t stride, const int32_t *cols,
                                      unsigned f, unsigned n_out, float *out);
typedef void (*LsFloatSsimConvHFn)(const float *ref, const float *dis, unsigned w_out,
                                   float *mu_r, float *mu_d, float *e_rr, float *e_dd, float *e_rd);
/* float_ssim, vertical pass: out[x] = the same 11-tap sum over rows[0..10][x]. */
typedef void (*LsFloatSsimConvVFn)(const float *const rows[LS_FLOAT_SSIM_TAPS], float *out,
                                   unsigned w);
/* float_ssim, per-position terms of one row of the valid grid, added left to right into the
 * four sequential double chains acc = { sum l*c*s, sum l, sum c, sum s }. */
typedef void (*LsFloatSsimTermsFn)(const float *mu_r, const float *mu_d, const float *e_rr,
                                   const float *e_dd, const float *e_rd, unsigned w, double acc[4]);

/* Integer ssim moments are integers below 2^49 (16-bit samples: 65536 * 65535^2), and every
 * product and partial sum of them below 2^53, so they are held as doubles: exact. Being integer
 * sums, they also do not depend on the order of the two passes: the CPU path runs the vertical
 * pass first, over the sample rows, which keeps its working set small. */

/* Integer ssim, vertical pass for one output row: per column the sums over the nine sample rows
 * (bytes for bpc 8, else uint16 words) of q*s, q*d, q*s*s, q*s*d, q*d*d into v[0..4], with
 * q = kernel_v[t]: 0 for a row outside the picture (its pointer may then be any valid row). */
typedef void (*LsSsimSumsVFn)(const void *const ref_rows[LS_SSIM_TAPS],
                              const void *const dis_rows[LS_SSIM_TAPS],
                              const int32_t kernel_v[LS_SSIM_TAPS], unsigned w,
                              double *const v[5]);
/* Integer ssim, one output row from its vertical sums: horizontal 9-tap sums (taps outside the
 * row dropped), then per position ls_ssim_position with the weight weight_v * (kept horizontal
 * taps), added left to right into acc[0], the weights into acc[1]. */
typedef void (*LsSsimRowFn)(const double *const v[5], double weight_v, unsigned w,
                            double sample_max, double acc[2]);

/* One column of the integer vertical sums: the reference for every variant (the C unit loops it,
 * SIMD variants finish their row tails with it). Integer sums, exact in any order. */
#define LS_SSIM_DEF_SUMS_V_COLUMN(name, pixel)                                                   \
    static inline void name(const void *const ref_rows[LS_SSIM_TAPS],                           \
                            const void *const dis_rows[LS_SSIM_TAPS],                           \
                            const int32_t kernel_v[LS_SSIM_TAPS], unsigned x,                   \
                            double *const v[5])                                                 \
    {                                                                                            \
        int64_t a_x = 0, a_y = 0, a_xx = 0, a_xy = 0, a_yy = 0;                                  \
        for (unsigned t = 0; t < LS_SSIM_TAPS; t++) {                                            \
            const int64_t s = ((const pixel *)ref_rows[t])[x];                                   \
            const int64_t d = ((const pixel *)dis_rows[t])[x];                                   \
            const int64_t q = kernel_v[t];                                                       \
            a_x += q * s;                                                                        \
            a_y += q * d;                                                                        \
            a_xx += q * s * s;                                                                   \
            a_xy += q * s * d;                                                                   \
            a_yy += q * d * d;                                                                   \
        }                                                                                        \
        v[0][x] = (double)a_x;                                                                   \
        v[1][x] = (double)a_y;                                                                   \
        v[2][x] = (double)a_xx;                                                                  \
        v[3][x] = (double)a_xy;                                                                  \
        v[4][x] = (double)a_yy;                                                                  \
    }
LS_SSIM_DEF_SUMS_V_COLUMN(ls_ssim_sums_v_column_8bit, uint8_t)
LS_SSIM_DEF_SUMS_V_COLUMN(ls_ssim_sums_v_column_16bit, uint16_t)

typedef struct LsSsimDsp {
    LsFloatSsimDecimateFn float_decimate;
    LsFloatSsimConvHFn float_conv_h;
    LsFloatSsimConvVFn float_conv_v;
    LsFloatSsimTermsFn float_terms;
    LsSsimSumsVFn sums_v[2]; /* [0]: 8-bit samples, [1]: 16-bit words */
    LsSsimRowFn row;
} LsSsimDsp;

void ls_ssim_dsp_init(LsSsimDsp *dsp, uint64_t cpu_flags);

/* ---- float SSIM statistics of one pair of float pictures (float_ssim, and MS-SSIM per scale) */

/* One luma row of a picture as float in the 8-bit range: v / 2^(bpc-8), exact for bpc 8, 10,
 * 12 and 16 (the only depths the float extractors accept). */
void ls_float_ssim_convert_row(const VmafPicture *pic, unsigned y, unsigned w, float *out);

/* Row y of the reference and distorted pictures, as float in the 8-bit range: written into the
 * two buffers (w floats each) or taken from memory the source holds; *ref and *dis say where. */
typedef void (*LsFloatSsimRowFn)(const void *ctx, unsigned y, float *ref_buf, float *dis_buf,
                                 const float **ref, const float **dis);

/* Floats of scratch memory ls_float_ssim_stats needs for pictures w wide. */
size_t ls_float_ssim_stats_scratch(unsigned w);

/* The statistics of a w x h pair, w and h at least 11 (ssim.md §A.6-A.7): the four sequential
 * double chains acc = { sum l*c*s, sum l, sum c, sum s } over the (w-10) x (h-10) valid grid in
 * row-major order. Rows are requested once each, top to bottom. */
void ls_float_ssim_stats(const LsSsimDsp *dsp, unsigned w, unsigned h, LsFloatSsimRowFn row,
                         const void *ctx, float *scratch, double acc[4]);

void ls_float_ssim_decimate_avx2(const float *src, size_t stride, const int32_t *cols,
                                 unsigned f, unsigned n_out, float *out);
void ls_float_ssim_conv_h_avx2(const float *ref, const float *dis, unsigned w_out, float *mu_r,
                               float *mu_d, float *e_rr, float *e_dd, float *e_rd);
void ls_float_ssim_conv_v_avx2(const float *const rows[LS_FLOAT_SSIM_TAPS], float *out,
                               unsigned w);
void ls_float_ssim_terms_avx2(const float *mu_r, const float *mu_d, const float *e_rr,
                              const float *e_dd, const float *e_rd, unsigned w, double acc[4]);

void ls_ssim_sums_v_8bit_avx2(const void *const ref_rows[LS_SSIM_TAPS],
                              const void *const dis_rows[LS_SSIM_TAPS],
                              const int32_t kernel_v[LS_SSIM_TAPS], unsigned w,
                              double *const v[5]);
void ls_ssim_sums_v_16bit_avx2(const void *const ref_rows[LS_SSIM_TAPS],
                               const void *const dis_rows[LS_SSIM_TAPS],
                               const int32_t kernel_v[LS_SSIM_TAPS], unsigned w,
                               double *const v[5]);
void ls_ssim_row_avx2(const double *const v[5], double weight_v, unsigned w, double sample_max,
                      double acc[2]);

#endif /* !__CUDACC__ && !LS_OPENCL_C */

#endif
