/* Float VIF (`float_vif`): what the CPU extractor and its GPU twins share.
 *
 * The arithmetic a twin must reproduce is here as LS_HD functions (valid C11, CUDA and OpenCL C):
 * the sample conversion, the window sizes, the reflect-101 border, one filter output (taps in
 * order, float accumulator), the per-pixel statistic with its approximate log2 (its binary64
 * steps through core/soft_f64.h's ls_f64, its float division through LS_FDIV), the
 * row-sum-then-total accumulation of a scale, the per-pixel resampling of vif_prescale, and the
 * outputs the GPU twins form one work-item each (vertical pass, horizontal pass, decimation).
 * Host-only parts (option table, validation, output names, the scores from the per-scale sums,
 * and the resampling coordinates, which call glibc's sin/floor/ceil) follow under !__CUDACC__.
 *
 * Order of every float reduction (a twin replays these, design/ordered-sum.md):
 *   filter output:  acc = 0; for k = 0..N-1: acc = acc + tap[k] * x[k]   (float, k ascending)
 *   scale sums:     per row i: r = 0; for j = 0..w-1: r = r + v[i][j]; then total = total + r,
 *                   rows top to bottom (float), separately for num and den
 *   frame:          score_num = sum over scales s0..3 of (double)num[s] in scale order (double)
 * Spec: shared/spec/features/float_vif.md, tables/float_vif.json. */
#ifndef LOCKSTEP_FEATURE_FLOAT_VIF_H
#define LOCKSTEP_FEATURE_FLOAT_VIF_H

#include "core/portable.h"
#include "core/soft_f64.h"

#if !defined(LS_OPENCL_C)
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#include "feature/float_vif_taps.h"
#include "feature/motion_filter.h" /* the bilinear resampling of vif_prescale is float_motion's */

#define LS_FLOAT_VIF_SCALES 4

/* Every float division goes through LS_FDIV: a device whose division is not correctly rounded
 * defines it as its integer emulation (src/opencl/fp32_exact.h). */
#ifndef LS_FDIV
#define LS_FDIV(a, b) ((a) / (b))
#endif

/* ---- sample conversion (§3.1) ---- */

/* x = v / S - 128 with S = 2^(bpc-8): every step exact for bpc 8, 10, 12, 16. */
LS_HD static inline float ls_float_vif_sample(unsigned v, unsigned bpc)
{
    if (bpc == 8)
        return (float)v - 128.0f;
    return LS_FDIV((float)v, (float)(1u << (bpc - 8))) - 128.0f;
}

/* ---- filters (§4) ---- */

#if !defined(LS_OPENCL_C) /* host and CUDA: the OpenCL host passes the window sizes */
/* Window of scale s for the kernel scale ks (the option value as float): n = 2^(4-s) + 1 times
 * ks, float product, ceil in double, made odd, at least 3. */
LS_HD static inline int ls_float_vif_window(int s, float ks)
{
    const float n = (float)((1 << (4 - s)) + 1);
    int c = (int)ceil((double)(n * ks));
    if (!(c & 1))
        c++;
    return c < 3 ? 3 : c;
}
#endif

/* Reflect-101 (mirror without repeating the edge sample), all four sides: -m -> m,
 * n-1+m -> n-1-m. Valid for m < n, i.e. for a filter radius below the size. */
LS_HD static inline int ls_float_vif_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * (n - 1) - i;
    return i;
}

/* One step of a filter output: the product rounded to float, then the float sum. Every pass
 * (vertical, horizontal, decimation) adds its taps with this, k ascending, from acc = 0. */
LS_HD static inline float ls_float_vif_mac(float acc, float tap, float x)
{
    return acc + tap * x;
}

/* ---- approximate log2 (§5.4) ---- */

LS_CONSTANT float ls_float_vif_log2_poly[9] = {
    -0x1.9f3962p-7f, 0x1.0996e8p-4f,  -0x1.41a2d2p-3f, 0x1.0756fap-2f, -0x1.6a4ab2p-2f,
    0x1.eba792p-2f,  -0x1.71501cp-1f, 0x1.715472p+0f,  0x0p+0f,
};

/* Exponent plus a degree-8 polynomial of the mantissa, Horner in float. The statistic only
 * passes x >= 1, +inf or (vif_sigma_nsq = 0) NaN: all of them take the bit formula. */
LS_HD static inline float ls_float_vif_log2(float x)
{
    const ls_u32 bits = ls_float_bits(x);
    const int e = (int)((bits >> 23) & 0xffu);
    const float t = ls_bits_float((bits & 0x7fffffu) | 0x3f800000u) - 1.0f;
    float p = 0.0f;
    for (int i = 0; i < 9; i++)
        p = p * t + ls_float_vif_log2_poly[i];
    return (float)(e - 127) + p;
}

/* ---- per-pixel statistic (§5.2) ---- */

#define LS_FLOAT_VIF_EPS 1.0e-10f

typedef struct LsFloatVifStatParams {
    ls_f64 sigma_nsq;    /* vif_sigma_nsq (OpenCL C: its bits) */
    float gain_limit;    /* (float)vif_enhn_gain_limit */
    float sigma_max_inv; /* (float)(powf((float)sigma_nsq, 2.0f) / 65025.0) */
} LsFloatVifStatParams;

/* num and den of one pixel from its five filtered values. The clamps come in the reference's
 * order: sv from the unclamped gain, the gain limit last; the quotients inside LOG2 are double
 * (ls_f64: on OpenCL C the integer emulation, which needs sigma_nsq >= 2^-1022 for
 * s1 / sigma_nsq: the OpenCL twin leaves smaller values, 0 included, to the CPU). */
LS_HD static inline void ls_float_vif_statistic(float mu1, float mu2, float xx, float yy, float xy,
                                                const LsFloatVifStatParams *p, float *num,
                                                float *den)
{
    const float eps = LS_FLOAT_VIF_EPS;
    float s1 = xx - mu1 * mu1;
    float s2 = yy - mu2 * mu2;
    const float s12 = xy - mu1 * mu2;
    s1 = s1 > 0.0f ? s1 : 0.0f; /* -0 and NaN become +0 */
    s2 = s2 > 0.0f ? s2 : 0.0f;
    float g = LS_FDIV(s12, s1 + eps);
    float sv = s2 - g * s12;
    if (s1 < eps) {
        g = 0.0f;
        sv = s2;
        s1 = 0.0f;
    }
    if (s2 < eps) {
        g = 0.0f;
        sv = 0.0f;
    }
    if (g < 0.0f) {
        sv = s2;
        g = 0.0f;
    }
    sv = sv > eps ? sv : eps;
    g = g < p->gain_limit ? g : p->gain_limit;
    const ls_f64 one = LS_F64_C(0x3ff0000000000000ull, 1.0);
    const ls_f64 s1d = ls_f64_from_f32(s1);
    /* (float)(1.0 + (double)(g * g * s1) / ((double)sv + sigma_nsq)) */
    float n = ls_float_vif_log2(ls_f64_to_f32(ls_f64_add(
        one, ls_f64_div(ls_f64_from_f32(g * g * s1),
                        ls_f64_add(ls_f64_from_f32(sv), p->sigma_nsq)))));
    /* (float)(1.0 + (double)s1 / sigma_nsq) */
    float d = ls_float_vif_log2(ls_f64_to_f32(ls_f64_add(one, ls_f64_div(s1d, p->sigma_nsq))));
    if (s12 < 0.0f)
        n = 0.0f;
    if (ls_f64_lt(s1d, p->sigma_nsq)) {
        n = 1.0f - s2 * p->sigma_max_inv;
        d = 1.0f;
    }
    *num = n;
    *den = d;
}

/* ---- accumulation (§5.3) ---- */

/* One row's float sum, left to right; the scale total adds the row sums top to bottom. */
LS_HD static inline float ls_float_vif_row_sum(const float *v, unsigned w)
{
    float r = 0.0f;
    for (unsigned j = 0; j < w; j++)
        r = r + v[j];
    return r;
}

/* ---- the outputs of the GPU twins (CUDA and OpenCL), one work-item each ----
 * Every output is the CPU's: its taps in order from 0 with ls_float_vif_mac, on the same inputs
 * (the CPU only stages them differently, a strip of rows at a time). */

/* Tap k of the window of n taps. */
#define LS_FLOAT_VIF_TAP(n, k) ls_float_vif_taps[LS_FLOAT_VIF_TAPS_OFFSET(n) + (k)]

/* A filter input of a level w wide: converted samples at scale 0 (bpc 8: bytes, else 16-bit
 * words), floats (bpc 0) at the later scales. */
LS_HD static inline float ls_float_vif_input(const LS_GLOBAL uint8_t *src, unsigned w, unsigned bpc,
                                             int x, int y)
{
    const size_t i = (size_t)y * w + (unsigned)x;
    if (bpc == 0)
        return ((const LS_GLOBAL float *)src)[i];
    if (bpc == 8)
        return ls_float_vif_sample(src[i], 8);
    return ls_float_vif_sample(((const LS_GLOBAL uint16_t *)src)[i], bpc);
}

/* The vertical pass at column x, row y of a level w x h: acc[q] for the quantities x = ref,
 * y = dist and, with products, x*x, y*y, x*y (LS_FLOAT_VIF_X..XY), over rows y - r .. y + r
 * reflected (r = n_taps / 2). */
LS_HD static inline void ls_float_vif_vertical_at(const LS_GLOBAL uint8_t *ref,
                                                  const LS_GLOBAL uint8_t *dis, unsigned w,
                                                  unsigned h, unsigned bpc, int n_taps,
                                                  int products, int x, int y, float acc[5])
{
    const int r = n_taps / 2;
    for (int q = 0; q < 5; q++)
        acc[q] = 0.0f;
    for (int k = 0; k < n_taps; k++) {
        const int yy = ls_float_vif_reflect(y - r + k, (int)h);
        const float a = ls_float_vif_input(ref, w, bpc, x, yy);
        const float b = ls_float_vif_input(dis, w, bpc, x, yy);
        const float t = LS_FLOAT_VIF_TAP(n_taps, k);
        acc[0] = ls_float_vif_mac(acc[0], t, a);
        acc[1] = ls_float_vif_mac(acc[1], t, b);
        if (products) {
            acc[2] = ls_float_vif_mac(acc[2], t, a * a);
            acc[3] = ls_float_vif_mac(acc[3], t, b * b);
            acc[4] = ls_float_vif_mac(acc[4], t, a * b);
        }
    }
}

/* The horizontal pass at column x of one vertically filtered row w wide (reflect-101). */
LS_HD static inline float ls_float_vif_horizontal_at(const LS_GLOBAL float *row, int w, int n_taps,
                                                     int x)
{
    const int r = n_taps / 2;
    float acc = 0.0f;
    for (int k = 0; k < n_taps; k++)
        acc = ls_float_vif_mac(acc, LS_FLOAT_VIF_TAP(n_taps, k),
                               row[ls_float_vif_reflect(x - r + k, w)]);
    return acc;
}

/* Output (i, j) of the next scale from a level w x h with the next scale's window: the
 * horizontal taps at source columns 2j - r + k (reflected) of the vertical low-pass at source
 * row 2i. */
LS_HD static inline float ls_float_vif_decimate_at(const LS_GLOBAL uint8_t *src, unsigned w,
                                                   unsigned h, unsigned bpc, int n_taps, int i,
                                                   int j)
{
    const int r = n_taps / 2;
    float acc = 0.0f;
    for (int k2 = 0; k2 < n_taps; k2++) {
        const int c = ls_float_vif_reflect(2 * j - r + k2, (int)w);
        float v = 0.0f;
        for (int k = 0; k < n_taps; k++)
            v = ls_float_vif_mac(v, LS_FLOAT_VIF_TAP(n_taps, k),
                                 ls_float_vif_input(src, w, bpc, c,
                                                    ls_float_vif_reflect(2 * i - r + k, (int)h)));
        acc = ls_float_vif_mac(acc, LS_FLOAT_VIF_TAP(n_taps, k2), v);
    }
    return acc;
}

/* ---- resampling of vif_prescale (§3.3), per output sample ----
 * The source coordinates and weights of every output column and row depend on the sizes only;
 * the host computes them once (ls_float_vif_resample_init) and every sample combines them here.
 * Indices are already mirrored. bilinear: ls_motion_bilinear_sample (motion_filter.h), the same
 * arithmetic as float_motion's half-size rescale. */

#define LS_FLOAT_VIF_LANCZOS_TAPS 9

/* bicubic: acc = acc + in * (wx * wy), rows j outer, columns i inner */
LS_HD static inline float ls_float_vif_bicubic_sample(const float *in, ptrdiff_t stride,
                                                      const int32_t ix[4], const float wx[4],
                                                      const int32_t iy[4], const float wy[4])
{
    float acc = 0.0f;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            acc = acc + in[iy[j] * stride + ix[i]] * (wx[i] * wy[j]);
    return acc;
}

/* lanczos4: w = wx * wy; the weight sum and the weighted sum in float, then their quotient */
LS_HD static inline float ls_float_vif_lanczos_sample(const float *in, ptrdiff_t stride,
                                                      const int32_t *ix, const float *wx,
                                                      const int32_t *iy, const float *wy)
{
    float acc = 0.0f, wsum = 0.0f;
    for (int j = 0; j < LS_FLOAT_VIF_LANCZOS_TAPS; j++) {
        for (int i = 0; i < LS_FLOAT_VIF_LANCZOS_TAPS; i++) {
            const float w = wx[i] * wy[j];
            wsum = wsum + w;
            acc = acc + in[iy[j] * stride + ix[i]] * w;
        }
    }
    return acc / wsum;
}

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)

#include "core/extractor.h" /* host only */

typedef struct LsFloatVifOptions {
    bool debug;
    double vif_enhn_gain_limit;
    double vif_kernelscale;
    double vif_prescale;
    double vif_scale1_min_val;
    double vif_scale2_min_val;
    double vif_scale3_min_val;
    const char *vif_prescale_method;
    double vif_sigma_nsq;
    bool vif_skip_scale0;
} LsFloatVifOptions;

extern const LsOption ls_float_vif_options[];
extern const LsExtractor ls_fex_float_vif;

enum LsFloatVifResampleMethod {
    LS_FLOAT_VIF_NEAREST,
    LS_FLOAT_VIF_BILINEAR,
    LS_FLOAT_VIF_BICUBIC,
    LS_FLOAT_VIF_LANCZOS4,
};

/* Source positions of the output columns (or rows) of one resampled axis: n_taps mirrored
 * indices and weights per output, at [o * n_taps + t]. nearest: one index; bilinear: two indices
 * and the fraction d in weight[o * 2] (the sample forms 1 - d itself); bicubic 4; lanczos4 9. */
typedef struct LsFloatVifAxis {
    unsigned n_out, n_taps;
    int32_t *idx;
    float *weight;
} LsFloatVifAxis;

#define LS_FLOAT_VIF_N_NAMES (LS_FLOAT_VIF_SCALES + 11)

typedef struct LsFloatVifState {
    LsFloatVifOptions opt;
    unsigned bpc;
    unsigned w, h;  /* input luma */
    bool prescaled; /* the working size differs from the input */
    enum LsFloatVifResampleMethod method;
    LsFloatVifAxis axis_x, axis_y; /* prescaled: from the input to the working size */
    unsigned first_scale;          /* 1 with vif_skip_scale0 */
    /* scale sizes, [0] = the working size */
    unsigned sw[LS_FLOAT_VIF_SCALES], sh[LS_FLOAT_VIF_SCALES];
    int n_taps[LS_FLOAT_VIF_SCALES];
    const float *taps[LS_FLOAT_VIF_SCALES];
    LsFloatVifStatParams stat;
    /* the four scores, then the debug outputs of §1 */
    char names[LS_FLOAT_VIF_N_NAMES][256];
} LsFloatVifState;

/* The kernel scales the Gaussian windows are defined for (tables/float_vif.json and
 * tables/speed.json, valid_kernelscales): ks within 1e-3 of one of them. */
bool ls_float_vif_kernelscale_valid(float ks);
#define LS_VALID_KERNELSCALES_TEXT                                                                 \
    "1, 0.5, 1.5, 2, 2/3, 2.4, 3.71134, 4/3, 7/6, 1.25, 17/12, 5/3, 3, 4/9, 1.4746, 1.54, 1.6, "   \
    "1.06667, 0.711111, 0.74074, 10/9, each within 0.001"
/* nearest, bilinear, bicubic, lanczos4 -> enum LsFloatVifResampleMethod; -1 for another word */
int ls_float_vif_resample_method(const char *name);

/* The resampler of vif_prescale (also SpEED's speed_prescale: the reference's one scaler).
 * Fills one axis (n_in samples to n_out); false when a source index leaves the input, which the
 * reference's single mirror allows for inputs below the method's support, or when out of memory
 * (then idx or weight is NULL). Free with ls_float_vif_axis_free (also after a failure). */
bool ls_float_vif_axis_init(LsFloatVifAxis *a, enum LsFloatVifResampleMethod m, unsigned n_in,
                            unsigned n_out);
void ls_float_vif_axis_free(LsFloatVifAxis *a);
/* One output row: iy/wy are that row's entries of the y axis (n_taps of them), indices of rows
 * of `in` (stride floats apart). */
void ls_float_vif_resample_row(enum LsFloatVifResampleMethod m, const LsFloatVifAxis *ax,
                               const float *in, ptrdiff_t stride, const int32_t *iy,
                               const float *wy, float *out);

/* Validates bit depth, options and size (§2, §8) and plans the pyramid. */
int ls_float_vif_state_init(LsFloatVifState *s, const LsFloatVifOptions *opt, const LsFex *fex,
                            unsigned bpc, unsigned w, unsigned h);
void ls_float_vif_state_close(LsFloatVifState *s);
/* The smallest working width (or height) the pyramid of these windows is defined for. */
unsigned ls_float_vif_min_size(const int n_taps[LS_FLOAT_VIF_SCALES], unsigned first_scale);
/* Resamples a converted w x h float plane to the working size (prescaled states only). */
void ls_float_vif_resample(const LsFloatVifState *s, const float *in, float *out);
/* Writes the frame's outputs from the per-scale sums (§1, §6); scales below first_scale unused. */
int ls_float_vif_write(const LsFloatVifState *s, const float num[LS_FLOAT_VIF_SCALES],
                       const float den[LS_FLOAT_VIF_SCALES], unsigned index, LsCollector *fc);
/* The same from a GPU twin's readback: numerator and denominator of each scale, interleaved. */
int ls_float_vif_write_sums(const LsFloatVifState *s, const float sums[2 * LS_FLOAT_VIF_SCALES],
                            unsigned index, LsCollector *fc);

/* ---- DSP units of the CPU path: C references in float_vif_dsp.c; AVX2 and AVX-512 in
 * x86/float_vif_avx2.c and x86/float_vif_avx512.c, both from x86/float_vif_simd.h. Each output
 * is formed exactly as above, so variants only choose which outputs run side by side. ---- */

/* rows per strip: the vertical pass forms this many output rows from one window of input rows */
#define LS_FLOAT_VIF_STRIP 8

/* Quantities filtered per scale: x = ref, y = dist and the products x*x, y*y, x*y. */
enum {
    LS_FLOAT_VIF_X,
    LS_FLOAT_VIF_Y,
    LS_FLOAT_VIF_XX,
    LS_FLOAT_VIF_YY,
    LS_FLOAT_VIF_XY,
    LS_FLOAT_VIF_NQ
};

/* One input row of both pictures into the filter inputs: x, y from samples (bpc 8: bytes, else
 * uint16 words; bpc 0: floats already converted), and with products also x*x, y*y, x*y. */
typedef void (*LsFloatVifFillFn)(const void *ref, const void *dis, unsigned bpc, unsigned w,
                                 bool products, float *const out[LS_FLOAT_VIF_NQ]);
/* Vertical pass: out[u * out_stride + x] = sum over k of taps[k] * src[(u * row_step + k) *
 * stride + x], for u < n_out (at most LS_FLOAT_VIF_STRIP) and x < w; strides in floats. */
typedef void (*LsFloatVifFilterVFn)(const float *src, ptrdiff_t stride, unsigned row_step,
                                    unsigned n_out, const float *taps, unsigned n_taps, unsigned w,
                                    float *out, ptrdiff_t out_stride);
/* Horizontal pass: out[j] = sum over k of taps[k] * in[j * step + k], j < n_out, step 1 or 2
 * (2: the decimation keeps even columns only). `in` is the row with its mirrored border of
 * n_taps / 2 samples on each side already written. tmp: ls_float_vif_tmp_floats(row) floats. */
typedef void (*LsFloatVifFilterHFn)(const float *in, unsigned step, const float *taps,
                                    unsigned n_taps, unsigned n_out, float *out, float *tmp);
/* The statistic of w pixels from the five filtered rows mu1, mu2, xx, yy, xy. */
typedef void (*LsFloatVifStatFn)(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                                 const LsFloatVifStatParams *p, float *num, float *den);
/* Continues acc = { num total, den total } with h rows (stride floats apart) of num and den:
 * each row summed left to right, the row sums added top to bottom. */
typedef void (*LsFloatVifAccumulateFn)(const float *num, const float *den, size_t stride,
                                       unsigned w, unsigned h, float acc[2]);

static inline size_t ls_float_vif_tmp_floats(unsigned row)
{
    return (size_t)row + 2 * LS_FLOAT_VIF_MAX_TAPS + 32;
}

typedef struct LsFloatVifDsp {
    LsFloatVifFillFn fill;
    LsFloatVifFilterVFn filter_v;
    LsFloatVifFilterHFn filter_h;
    LsFloatVifStatFn stat;
    LsFloatVifAccumulateFn accumulate;
} LsFloatVifDsp;

void ls_float_vif_dsp_init(LsFloatVifDsp *dsp, uint64_t cpu_flags);

void ls_float_vif_fill_avx2(const void *ref, const void *dis, unsigned bpc, unsigned w,
                            bool products, float *const out[LS_FLOAT_VIF_NQ]);
void ls_float_vif_filter_v_avx2(const float *src, ptrdiff_t stride, unsigned row_step,
                                unsigned n_out, const float *taps, unsigned n_taps, unsigned w,
                                float *out, ptrdiff_t out_stride);
void ls_float_vif_filter_h_avx2(const float *in, unsigned step, const float *taps, unsigned n_taps,
                                unsigned n_out, float *out, float *tmp);
void ls_float_vif_stat_avx2(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                            const LsFloatVifStatParams *p, float *num, float *den);
void ls_float_vif_accumulate_avx2(const float *num, const float *den, size_t stride, unsigned w,
                                  unsigned h, float acc[2]);
void ls_float_vif_fill_avx512(const void *ref, const void *dis, unsigned bpc, unsigned w,
                              bool products, float *const out[LS_FLOAT_VIF_NQ]);
void ls_float_vif_filter_v_avx512(const float *src, ptrdiff_t stride, unsigned row_step,
                                  unsigned n_out, const float *taps, unsigned n_taps, unsigned w,
                                  float *out, ptrdiff_t out_stride);
void ls_float_vif_filter_h_avx512(const float *in, unsigned step, const float *taps,
                                  unsigned n_taps, unsigned n_out, float *out, float *tmp);
void ls_float_vif_stat_avx512(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                              const LsFloatVifStatParams *p, float *num, float *den);

#endif /* !__CUDACC__ && !LS_OPENCL_C */

#endif
