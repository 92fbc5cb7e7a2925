/* Float ADM (`float_adm`): what the CPU extractor and a GPU twin share. Spec:
 * shared/spec/features/float_adm.md, tables/float_adm.json.
 *
 * Part 1 (LS_HD, C11, CUDA and OpenCL C): the constants and the per-pixel arithmetic, in the
 * reference's order with every float rounding explicit: DWT taps and border rules, decoupling
 * with the refined approximate reciprocal, CSF, masking threshold, energy terms, regions (host
 * and CUDA), and the outputs the GPU twins form one work-item each. Its binary64 steps go through
 * core/soft_f64.h's ls_f64 (double in C and CUDA, the exact integer emulation in OpenCL C), its
 * float divisions through LS_FDIV.
 * Part 2 (host): options, the extractor's state, the DSP units of the CPU path, and the per-frame
 * finish (powf, double sums, output combination) that a twin calls with its accumulators.
 *
 * Order-sensitive float sums (a twin replays them with the ordered-sum method): per scale nine
 * float chains, acc[b] for b = den h, v, d, DLM h, v, d, AIM h, v, d. Each is the float sum, in
 * row order over [T, B), of one float per row; a row's float is the sum, from 0 in column order
 * over [L, Rt), of the pixel terms: the cube (p = 3) of |F * o| (denominator) or of
 * ls_float_adm_cm_excess (DLM, AIM). */
#ifndef LOCKSTEP_FEATURE_FLOAT_ADM_H
#define LOCKSTEP_FEATURE_FLOAT_ADM_H

#include "core/portable.h"
#include "core/rcp.h"
#include "core/soft_f64.h"

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#endif

/* The approximate reciprocal of §5.2. The host takes the instruction (core/rcp.h); a GPU twin
 * defines this before including the header, e.g. as ls_rcp_from_table(x, its uploaded table). */
#ifndef LS_FLOAT_ADM_RCP_APPROX
#define LS_FLOAT_ADM_RCP_APPROX(x) ls_rcp_approx(x)
#endif

/* ---- Part 1: shared arithmetic ---- */

/* Every float division goes through LS_FDIV: a device whose division is not correctly rounded
 * defines it as its integer emulation (src/opencl/fp32_exact.h). */
#ifndef LS_FDIV
#define LS_FDIV(a, b) ((a) / (b))
#endif

LS_HD static inline float ls_float_adm_fabs(float x)
{
#if defined(LS_OPENCL_C)
    return fabs(x);
#else
    return fabsf(x);
#endif
}

#define LS_FLOAT_ADM_SCALES 4

/* db2 analysis taps (binary32), tap k multiplies input 2i - 1 + k */
#define LS_FLOAT_ADM_LO_INIT { 0x1.ee8dd4p-2f, 0x1.ac4bdep-1f, 0x1.cb0bfp-3f, -0x1.0907dcp-3f }
#define LS_FLOAT_ADM_HI_INIT { -0x1.0907dcp-3f, -0x1.cb0bfp-3f, 0x1.ac4bdep-1f, -0x1.ee8dd4p-2f }
LS_CONSTANT float ls_float_adm_lo[4] = LS_FLOAT_ADM_LO_INIT;
LS_CONSTANT float ls_float_adm_hi[4] = LS_FLOAT_ADM_HI_INIT;

#define LS_FLOAT_ADM_EPS 0x1.4484cp-100f         /* 1e-30 stored in a float */
#define LS_FLOAT_ADM_COS1_SQ 0x1.ffd814p-1f      /* (float)(cos(pi/180) * cos(pi/180)) */
/* the double literals 0.0333333351 and 0.0666666701 (ls_f64: OpenCL C has their bits) */
#define LS_FLOAT_ADM_ONE_BY_30 LS_F64_C(0x3fa11111203e01fcull, 0x1.11111203e01fcp-5)
#define LS_FLOAT_ADM_ONE_BY_15 LS_F64_C(0x3fb111111fd00e7dull, 0x1.111111fd00e7dp-4)

/* A sample as §3 makes it: v / 2^(bpc-8) - 128, exact in float (a power-of-two scale, at most 16
 * significant bits). */
LS_HD static inline float ls_float_adm_sample(unsigned v, unsigned bpc)
{
    return (float)v * LS_FDIV(1.0f, (float)(1u << (bpc - 8))) - 128.0f;
}

/* DWT border (§4): -1 -> 1 (no edge repeat), n -> n-1, n+1 -> n-2 (edge repeated). */
LS_HD static inline int ls_float_adm_dwt_index(int k, int n)
{
    return k < 0 ? -k : k >= n ? 2 * n - k - 1 : k;
}

/* Masking neighbours (§7.3): -1 -> 1, n -> n-1. */
LS_HD static inline int ls_float_adm_cm_index(int k, int n)
{
    return k < 0 ? -k : k >= n ? n - 1 : k;
}

#if !defined(LS_OPENCL_C) /* host and CUDA: the OpenCL host passes the regions */
/* The regions of one band of w x h (§5.1, §6): decoupling and CSF cover [left, right) x
 * [top, bottom); the denominator and the masked energy visit [L, Rt) x [T, B) (the spec's three
 * row groups are that range in row order, since L, T >= 0), which reads only decoupled pixels. */
typedef struct LsFloatAdmRegion {
    int left, top, right, bottom;
    int L, T, Rt, B;
} LsFloatAdmRegion;

LS_HD static inline LsFloatAdmRegion ls_float_adm_region(int w, int h)
{
    LsFloatAdmRegion r;
    r.left = (int)(w * 0.1 - 0.5 - 1);
    r.top = (int)(h * 0.1 - 0.5 - 1);
    r.right = w - r.left + 2;
    r.bottom = h - r.top + 2;
    r.left = r.left < 0 ? 0 : r.left;
    r.top = r.top < 0 ? 0 : r.top;
    r.right = r.right > w ? w : r.right;
    r.bottom = r.bottom > h ? h : r.bottom;
    r.L = (int)(w * 0.1 - 0.5);
    r.T = (int)(h * 0.1 - 0.5);
    r.Rt = w - r.L;
    r.B = h - r.T;
    return r;
}
#endif

/* One DWT output from the four inputs in tap order (§4): float products added to 0 in order. */
LS_HD static inline float ls_float_adm_taps(const LS_CONSTANT_SPACE float tap[4], float x0,
                                            float x1, float x2, float x3)
{
    float acc = 0.0f;
    acc = acc + tap[0] * x0;
    acc = acc + tap[1] * x1;
    acc = acc + tap[2] * x2;
    acc = acc + tap[3] * x3;
    return acc;
}

/* RCP(d) of §5.2: the approximation refined by one Newton step, every operation in float. */
LS_HD static inline float ls_float_adm_rcp(float d)
{
    const float r0 = LS_FLOAT_ADM_RCP_APPROX(d);
    const float e = 1.0f - d * r0;
    return r0 + r0 * e;
}

/* The gain t / (o + 1e-30) clamped to [0, 1] (NaN stays), divided as the reference on x86 does
 * (the reference built without SSE2 divides: LS_RCP_DIVIDE). */
LS_HD static inline float ls_float_adm_gain(float o, float t)
{
    const float d = o + LS_FLOAT_ADM_EPS;
#if LS_RCP_MODE == LS_RCP_DIVIDE
    const float k = LS_FDIV(t, d);
#else
    const float k = t * ls_float_adm_rcp(d);
#endif
    return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
}

/* The angle test of §5.3, in float, on the h and v bands. */
LS_HD static inline int ls_float_adm_angle_flag(float oh, float ov, float th, float tv)
{
    const float ot_h = oh * th, ot_v = ov * tv;
    const float oo_h = oh * oh, oo_v = ov * ov;
    const float tt_h = th * th, tt_v = tv * tv;
    const float dp = ot_h + ot_v, mo = oo_h + oo_v, mt = tt_h + tt_v;
    const float dp2 = dp * dp, cmo = LS_FLOAT_ADM_COS1_SQ * mo;
    return dp >= 0.0f && dp2 >= cmo * mt;
}

/* The restored value of one band from its gain k (§5.2, §5.3); the additive part is t minus it. */
LS_HD static inline float ls_float_adm_restore_k(float o, float t, float k, int flag,
                                                 ls_f64 gain_limit)
{
    float rst = k * o;
    if (flag && rst > 0.0f) {
        const ls_f64 g = ls_f64_mul(ls_f64_from_f32(rst), gain_limit), td = ls_f64_from_f32(t);
        rst = ls_f64_to_f32(ls_f64_lt(g, td) ? g : td);
    }
    if (flag && rst < 0.0f) {
        const ls_f64 g = ls_f64_mul(ls_f64_from_f32(rst), gain_limit), td = ls_f64_from_f32(t);
        rst = ls_f64_to_f32(ls_f64_lt(td, g) ? g : td);
    }
    return rst;
}

LS_HD static inline float ls_float_adm_restore(float o, float t, int flag, ls_f64 gain_limit)
{
    return ls_float_adm_restore_k(o, t, ls_float_adm_gain(o, t), flag, gain_limit);
}

/* Decoupling of one pixel: o, t the reference and distorted h, v, d values. */
LS_HD static inline void ls_float_adm_decouple_px(const float o[3], const float t[3],
                                                  ls_f64 gain_limit, float r[3], float a[3])
{
    const int flag = ls_float_adm_angle_flag(o[0], o[1], t[0], t[1]);
    for (int b = 0; b < 3; b++) {
        r[b] = ls_float_adm_restore(o[b], t[b], flag, gain_limit);
        a[b] = t[b] - r[b];
    }
}

/* CSF-filtered value of a weighted value c (§7.1): double constant and product, then float. */
LS_HD static inline float ls_float_adm_csf_filter(float c)
{
    return ls_f64_to_f32(ls_f64_mul(LS_FLOAT_ADM_ONE_BY_30, ls_f64_from_f32(ls_float_adm_fabs(c))));
}

/* One orientation's share of the masking threshold at column j (§7.3): fp, fc, fn the filtered
 * rows above, at and below (already mapped), jm and jp the mapped neighbour columns, c the
 * weighted value at the centre. */
LS_HD static inline float ls_float_adm_mask_sum(const LS_GLOBAL float *fp, const LS_GLOBAL float *fc,
                                                const LS_GLOBAL float *fn, int jm, int j, int jp,
                                                float c)
{
    float s = 0.0f;
    s = s + fp[jm];
    s = s + fp[j];
    s = s + fp[jp];
    s = s + fc[jm];
    s = ls_f64_to_f32(ls_f64_add(ls_f64_from_f32(s), ls_f64_mul(LS_FLOAT_ADM_ONE_BY_15,
                                                                  ls_f64_from_f32(ls_float_adm_fabs(c)))));
    s = s + fc[jp];
    s = s + fn[jm];
    s = s + fn[j];
    s = s + fn[jp];
    return s;
}

/* max(|c| - thr, 0) of §7.4 (c = the weighted source value). */
LS_HD static inline float ls_float_adm_excess(float c, float thr)
{
    const float x = ls_float_adm_fabs(c) - thr;
    return x < 0.0f ? 0.0f : x;
}

/* x^3 as two float products (adm_p_norm = 3; other norms use glibc's powf on the host). */
LS_HD static inline float ls_float_adm_cube(float x) { return (x * x) * x; }

/* The rows of the CSF arrays that the masking of one band row reads (§7.1, §7.3). For each
 * orientation b: c_a, c_r the weighted additive and restored values of the centre row, f_a, f_r
 * the filtered rows above, at and below (mapped), indexed by absolute column. */
typedef struct LsFloatAdmCmRows {
    const LS_GLOBAL float *f_a[3][3]; /* [b][row - centre + 1] */
    const LS_GLOBAL float *f_r[3][3];
    const LS_GLOBAL float *c_a[3];
    const LS_GLOBAL float *c_r[3];
} LsFloatAdmCmRows;

/* The six excesses at column j of a band w wide: e[b] for the DLM (source r, masked by the CSF
 * of a) and e[3 + b] for the AIM (source a, masked by the CSF of r). bypass: threshold 0. */
LS_HD static inline void ls_float_adm_cm_excess(const LsFloatAdmCmRows *rows, int w, int j,
                                                int bypass, float e[6])
{
    const int jm = ls_float_adm_cm_index(j - 1, w), jp = ls_float_adm_cm_index(j + 1, w);
    float thr_dlm = 0.0f, thr_aim = 0.0f;
    if (!bypass) {
        for (int b = 0; b < 3; b++)
            thr_dlm = thr_dlm + ls_float_adm_mask_sum(rows->f_a[b][0], rows->f_a[b][1],
                                                      rows->f_a[b][2], jm, j, jp, rows->c_a[b][j]);
        for (int b = 0; b < 3; b++)
            thr_aim = thr_aim + ls_float_adm_mask_sum(rows->f_r[b][0], rows->f_r[b][1],
                                                      rows->f_r[b][2], jm, j, jp, rows->c_r[b][j]);
    }
    for (int b = 0; b < 3; b++) {
        e[b] = ls_float_adm_excess(rows->c_r[b][j], thr_dlm);
        e[3 + b] = ls_float_adm_excess(rows->c_a[b][j], thr_aim);
    }
}

/* ---- the outputs of the GPU twins (CUDA and OpenCL), one work-item each ----
 * Each is formed as the CPU forms it (the CPU streams rows through the same functions). */

/* An input of scale 0 (samples, bpc 8: bytes, else 16-bit words) or of an approximation plane
 * (bpc 0: floats), rows of w. */
LS_HD static inline float ls_float_adm_input(const LS_GLOBAL uint8_t *src, int w, int bpc, int x,
                                             int y)
{
    const size_t i = (size_t)y * (unsigned)w + (unsigned)x;
    if (bpc == 0)
        return ((const LS_GLOBAL float *)src)[i];
    if (bpc == 8)
        return ls_float_adm_sample(src[i], 8);
    return ls_float_adm_sample(((const LS_GLOBAL uint16_t *)src)[i], (unsigned)bpc);
}

/* Output (i, j) of the DWT of an input w x h (§4): the horizontal taps over input columns
 * 2j - 1 .. 2j + 2 (border rule) of the vertical low- and high-pass at rows 2i - 1 .. 2i + 2.
 * *a the approximation; with details, hvd the h, v and d bands. */
LS_HD static inline void ls_float_adm_dwt_at(const LS_GLOBAL uint8_t *src, int w, int h, int bpc,
                                             int i, int j, int details, float *a, float hvd[3])
{
    int rows[4];
    for (int k = 0; k < 4; k++)
        rows[k] = ls_float_adm_dwt_index(2 * i - 1 + k, h);
    float lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_float_adm_dwt_index(2 * j - 1 + k, w);
        const float s0 = ls_float_adm_input(src, w, bpc, c, rows[0]);
        const float s1 = ls_float_adm_input(src, w, bpc, c, rows[1]);
        const float s2 = ls_float_adm_input(src, w, bpc, c, rows[2]);
        const float s3 = ls_float_adm_input(src, w, bpc, c, rows[3]);
        lo[k] = ls_float_adm_taps(ls_float_adm_lo, s0, s1, s2, s3);
        hi[k] = details ? ls_float_adm_taps(ls_float_adm_hi, s0, s1, s2, s3) : 0.0f;
    }
    *a = ls_float_adm_taps(ls_float_adm_lo, lo[0], lo[1], lo[2], lo[3]);
    if (details) {
        hvd[0] = ls_float_adm_taps(ls_float_adm_lo, hi[0], hi[1], hi[2], hi[3]);
        hvd[1] = ls_float_adm_taps(ls_float_adm_hi, lo[0], lo[1], lo[2], lo[3]);
        hvd[2] = ls_float_adm_taps(ls_float_adm_hi, hi[0], hi[1], hi[2], hi[3]);
    }
}

/* Decoupling and CSF of one pixel (§5, §7.1): c_a, f_a the weighted and filtered additive
 * values, c_r, f_r the restored ones, per orientation. */
LS_HD static inline void ls_float_adm_analyse_px(const float o[3], const float t[3],
                                                 ls_f64 gain_limit, const float factor[3],
                                                 float c_a[3], float f_a[3], float c_r[3],
                                                 float f_r[3])
{
    float r[3], d[3];
    ls_float_adm_decouple_px(o, t, gain_limit, r, d);
    for (int b = 0; b < 3; b++) {
        c_a[b] = factor[b] * d[b];
        f_a[b] = ls_float_adm_csf_filter(c_a[b]);
        c_r[b] = factor[b] * r[b];
        f_r[b] = ls_float_adm_csf_filter(c_r[b]);
    }
}

/* The rows the masking of band row i (of bh rows of bw) reads, from the four CSF planes of each
 * orientation. */
LS_HD static inline void ls_float_adm_cm_rows_at(const LS_GLOBAL float *const c_a[3],
                                                 const LS_GLOBAL float *const f_a[3],
                                                 const LS_GLOBAL float *const c_r[3],
                                                 const LS_GLOBAL float *const f_r[3], int bw,
                                                 int bh, int i, LsFloatAdmCmRows *cr)
{
    const int rows[3] = { ls_float_adm_cm_index(i - 1, bh), i, ls_float_adm_cm_index(i + 1, bh) };
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 3; k++) {
            cr->f_a[b][k] = f_a[b] + (size_t)rows[k] * (unsigned)bw;
            cr->f_r[b][k] = f_r[b] + (size_t)rows[k] * (unsigned)bw;
        }
        cr->c_a[b] = c_a[b] + (size_t)i * (unsigned)bw;
        cr->c_r[b] = c_r[b] + (size_t)i * (unsigned)bw;
    }
}

/* The nine pixel terms at column j (adm_p_norm = 3): den h, v, d (the cube of |factor * o|),
 * then the cubes of the DLM and AIM excesses. */
LS_HD static inline void ls_float_adm_terms_px(const float o[3], const float factor[3],
                                               const LsFloatAdmCmRows *cr, int bw, int j,
                                               int bypass, float terms[9])
{
    for (int b = 0; b < 3; b++)
        terms[b] = ls_float_adm_cube(ls_float_adm_fabs(factor[b] * o[b]));
    float e[6];
    ls_float_adm_cm_excess(cr, bw, j, bypass, e);
    for (int b = 0; b < 6; b++)
        terms[3 + b] = ls_float_adm_cube(e[b]);
}

/* ---- Part 2: host ---- */
#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)

#include "core/extractor.h" /* host only */

typedef struct LsFloatAdmOptions {
    bool debug;
    double adm_enhn_gain_limit;
    double adm_norm_view_dist;
    double adm_noise_weight;
    double adm_csf_scale;
    double adm_csf_diag_scale;
    int adm_ref_display_height;
    int adm_csf_mode;
    int adm_bypass_cm;
    bool adm_adm3_apply_hm;
    double adm_p_norm;
    double adm_dlm_weight;
    double adm_min_val;
    double adm_f1s[LS_FLOAT_ADM_SCALES];
    double adm_f2s[LS_FLOAT_ADM_SCALES];
    int adm_skip_aim_scale;
    bool adm_skip_scale0;
} LsFloatAdmOptions;

extern const LsOption ls_float_adm_options[];
extern const LsExtractor ls_fex_float_adm;

/* The smallest frame the math is defined for: bands of at least 2x2 at every scale. */
#define LS_FLOAT_ADM_MIN_SIZE 17

/* The accumulators of one scale: den h, v, d, DLM h, v, d, AIM h, v, d. */
enum { LS_FLOAT_ADM_ACC = 9 };

typedef struct LsFloatAdmState {
    LsFloatAdmOptions opt;
    unsigned w, h, bpc;
    float f1[LS_FLOAT_ADM_SCALES], f2[LS_FLOAT_ADM_SCALES]; /* CSF factors, h/v and d */
    int cube;   /* adm_p_norm == 3: cubes instead of powf */
    float p;    /* (float)adm_p_norm */
    char name_adm2[256], name_aim[256], name_adm3[256], name_scale[LS_FLOAT_ADM_SCALES][256];
    char name_num[256], name_den[256];
    char name_num_scale[LS_FLOAT_ADM_SCALES][256], name_den_scale[LS_FLOAT_ADM_SCALES][256];
} LsFloatAdmState;

/* Validates the input (bit depth, the minimum size), computes the CSF factors and the names. */
int ls_float_adm_state_init(LsFloatAdmState *s, const LsFloatAdmOptions *opt, const LsFex *fex,
                            unsigned bpc, unsigned w, unsigned h);

typedef struct LsFloatAdmScores {
    double adm2, aim, adm3, scale[LS_FLOAT_ADM_SCALES];
    double num, den, num_scale[LS_FLOAT_ADM_SCALES], den_scale[LS_FLOAT_ADM_SCALES];
} LsFloatAdmScores;

/* The frame's scores from the nine accumulators of every scale (§6, §7.4, §8). */
void ls_float_adm_finish(const LsFloatAdmState *s,
                         const float acc[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC],
                         LsFloatAdmScores *out);
int ls_float_adm_write(const LsFloatAdmState *s, const LsFloatAdmScores *sc, unsigned index,
                       LsCollector *fc);
/* Whether a GPU twin computes this state's terms: 0, or -ENOTSUP with the reason logged (the
 * context falls back to the CPU extractor). */
int ls_float_adm_twin_supported(const LsFloatAdmState *s, LsFex *fex);
/* finish + write from a GPU twin's readback of the accumulators (unaligned bytes) */
int ls_float_adm_write_accumulators(const LsFloatAdmState *s, const void *acc, unsigned index,
                                    LsCollector *fc);

/* ---- DSP units (C reference in float_adm_dsp.c, AVX2 in x86/float_adm_avx2.c) ---- */

/* Split rows: the vertical pass stores column 2k of its output at e[k] and column 2k+1 at o[k];
 * ls_float_adm_split_pad then sets the border entries o[-1], e[bw] (and o[bw-1] for odd widths)
 * so that horizontal output j reads o[j-1], e[j], o[j], e[j+1] with the §4 border rule. */
void ls_float_adm_split_pad(float *e, float *o, unsigned w);

/* Vertical pass of one output row: for every column of the four input rows (tap order), lo and hi
 * into split rows. hi_e == NULL: low-pass only. */
typedef void (*LsFloatAdmDwtVFn)(const float *const rows[4], unsigned w, float *lo_e, float *lo_o,
                                 float *hi_e, float *hi_o);
/* Horizontal pass: a[j] for j in [0, bw) (a may be NULL), and h, v, d for j in [x0, x1)
 * (h may be NULL), from padded split rows. */
typedef void (*LsFloatAdmDwtHFn)(const float *lo_e, const float *lo_o, const float *hi_e,
                                 const float *hi_o, unsigned bw, float *a, unsigned x0, unsigned x1,
                                 float *h, float *v, float *d);
/* Decoupling of [x0, x1): o, t the h, v, d rows of reference and distorted. */
typedef void (*LsFloatAdmDecoupleFn)(const float *const o[3], const float *const t[3], unsigned x0,
                                     unsigned x1, double gain_limit, float *const r[3],
                                     float *const a[3]);
/* CSF of [x0, x1): c = factor * x, f = the filtered |c|. */
typedef void (*LsFloatAdmCsfFn)(const float *x, float factor, unsigned x0, unsigned x1, float *c,
                                float *f);
/* Denominator row: acc[b] += the float sum from 0, columns [x0, x1) in order, of
 * |factor[b] * o[b]|^p (cube when `cube`, else powf(., p)). */
typedef void (*LsFloatAdmDenRowFn)(const float *const o[3], const float factor[3], unsigned x0,
                                   unsigned x1, int cube, float p, float acc[3]);
/* Masking row: acc[b] += the row's float sum of the DLM terms (b = 0..2) and AIM terms (3..5)
 * over columns [x0, x1) of a band w wide, in column order. */
typedef void (*LsFloatAdmCmRowFn)(const LsFloatAdmCmRows *rows, unsigned w, unsigned x0,
                                  unsigned x1, int bypass, int cube, float p, float acc[6]);

typedef struct LsFloatAdmDsp {
    LsFloatAdmDwtVFn dwt_v;
    LsFloatAdmDwtHFn dwt_h;
    LsFloatAdmDecoupleFn decouple;
    LsFloatAdmCsfFn csf;
    LsFloatAdmDenRowFn den_row;
    LsFloatAdmCmRowFn cm_row;
} LsFloatAdmDsp;

void ls_float_adm_dsp_init(LsFloatAdmDsp *dsp, uint64_t cpu_flags);
void ls_float_adm_dsp_init_avx2(LsFloatAdmDsp *dsp);

/* The approximate reciprocal of the AVX2 units on n values (n a multiple of 8), for the test that
 * holds it to ls_rcp_approx. */
void ls_float_adm_rcp_approx_avx2(const float *x, float *r, size_t n);

/* the C reference units (also the variants' tails and their fallback for adm_p_norm != 3) */
void ls_float_adm_dwt_v_c(const float *const rows[4], unsigned w, float *lo_e, float *lo_o,
                          float *hi_e, float *hi_o);
void ls_float_adm_dwt_h_c(const float *lo_e, const float *lo_o, const float *hi_e,
                          const float *hi_o, unsigned bw, float *a, unsigned x0, unsigned x1,
                          float *h, float *v, float *d);
void ls_float_adm_decouple_c(const float *const o[3], const float *const t[3], unsigned x0,
                             unsigned x1, double gain_limit, float *const r[3], float *const a[3]);
void ls_float_adm_den_row_c(const float *const o[3], const float factor[3], unsigned x0,
                            unsigned x1, int cube, float p, float acc[3]);
void ls_float_adm_cm_row_c(const LsFloatAdmCmRows *rows, unsigned w, unsigned x0, unsigned x1,
                           int bypass, int cube, float p, float acc[6]);

/* The nine accumulators of every scale for one frame pair (luma planes, stride in bytes), with
 * the given DSP units. Scratch memory is allocated per call; -ENOMEM on failure. */
int ls_float_adm_frame_sums(const LsFloatAdmState *s, const LsFloatAdmDsp *dsp, const void *ref,
                            ptrdiff_t ref_stride, const void *dis, ptrdiff_t dis_stride,
                            float acc[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC]);

#endif /* !__CUDACC__ && !LS_OPENCL_C */

#endif
