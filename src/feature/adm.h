/* Integer ADM (`adm`): what the CPU extractor and a GPU twin share. Spec: features/adm.md.
 *
 * The per-coefficient arithmetic (DWT taps and border rule, decoupling, CSF, the masking threshold,
 * the numerator and denominator terms) is LS_HD static inline and compiles as C11 and under nvcc
 * (--fmad=false): no libc, fixed-width integers, wrap-around written out where the reference's
 * 32-bit arithmetic wraps. Everything that calls libm (the CSF factors, the shifts derived with
 * log2/ceil/pow, the per-scale powf) is host code (ls_adm_setup, ls_adm_scale_num/den,
 * ls_adm_scores): a twin returns the integer accumulators of each scale and the host finishes
 * with these functions, as the CPU does.
 *
 * Order: ADM has no long float sum. Every per-pixel and per-row accumulation is integer (exact in
 * any order); the only float steps are a few per scale (LsAdmScaleSums -> float num_s, den_s,
 * aim_s, in the order of ls_adm_scale_num/den) and the three double sums over scales 0..3 in
 * ls_adm_scores. A twin may therefore sum the integer terms in any order and in parallel.
 *
 * Row pipeline (adm.c): every unit below works on one band row. The masking threshold of pixel
 * (i, j) is Σθ [Σ 8 neighbours flt_θ + center_θ]; since the sums are integer this equals
 * box3x3(F)(i, j) − F(i, j) + M(i, j) with F = Σθ flt_θ and M = Σθ center_θ, which is what the
 * CSF units store (ls_adm_threshold). */
#ifndef LOCKSTEP_FEATURE_ADM_H
#define LOCKSTEP_FEATURE_ADM_H

#include "core/portable.h"
#include "core/soft_f64.h"

#if (!defined(__CUDACC__) || !defined(__CUDA_ARCH__)) && !defined(LS_OPENCL_C)
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

/* ---- constants (tables/adm_filters.json) ---- */

#define LS_ADM_LO_SUM 46342
LS_CONSTANT int32_t ls_adm_dwt_lo[4] = { 15826, 27411, 7345, -4240 };
LS_CONSTANT int32_t ls_adm_dwt_hi[4] = { -4240, -7345, 27411, -15826 };
/* scale 1..3 DWT rounding and shifts, index s - 1 */
LS_CONSTANT int32_t ls_adm_dwt_v_round[3] = { 0, 32768, 32768 };
LS_CONSTANT int32_t ls_adm_dwt_v_shift[3] = { 0, 16, 16 };
LS_CONSTANT int32_t ls_adm_dwt_h_round[3] = { 16384, 32768, 16384 };
LS_CONSTANT int32_t ls_adm_dwt_h_shift[3] = { 15, 16, 15 };
/* (float)(cos(pi/180) * cos(pi/180)) */
#define LS_ADM_COS_1DEG_SQ 0x1.ffd814p-1f
/* scale 0 CSF shift and rounding per band h, v, d (the d rounding 65535 is the reference's) */
LS_CONSTANT int32_t ls_adm_csf0_shift[3] = { 15, 15, 17 };
LS_CONSTANT int32_t ls_adm_csf0_round[3] = { 16384, 16384, 65535 };
/* scale 0 numerator: threshold shift, square shift and rounding per band */
LS_CONSTANT int32_t ls_adm_cm0_thr_shift[3] = { 10, 10, 12 };
LS_CONSTANT int32_t ls_adm_cm0_sq_shift[3] = { 29, 29, 30 };
LS_CONSTANT int64_t ls_adm_cm0_sq_round[3] = { 1 << 28, 1 << 28, 1 << 29 };
/* scale 1..3 denominator: square shift (its rounding term is 2^shift, as the reference has it) */
LS_CONSTANT int32_t ls_adm_den123_sq_shift[3] = { 31, 30, 31 };
/* The reference stores its rounding term 1u << 31 in an int32: it is -2^31 (adm.md §6.3, §8.1). */
#define LS_ADM_ROUND_MINUS_2_31 (-(int64_t)2147483648)

/* ---- small integer helpers with the reference's 32-bit wrap ---- */

LS_HD static inline int32_t ls_adm_wrap32(int64_t x) { return (int32_t)(uint32_t)(uint64_t)x; }
/* abs() of an int32 as gcc computes it: INT32_MIN stays INT32_MIN */
LS_HD static inline int32_t ls_adm_abs32(int32_t x)
{
    return (int32_t)(x < 0 ? 0u - (uint32_t)x : (uint32_t)x);
}
/* 32 - clz32(m), m > 0 */
LS_HD static inline int ls_adm_bit_length(uint32_t m)
{
#if defined(LS_OPENCL_C)
    return 32 - (int)clz(m);
#elif defined(__CUDA_ARCH__)
    return 32 - __clz((int)m);
#elif defined(__GNUC__)
    return 32 - __builtin_clz(m);
#else
    int n = 0;
    for (; m; m >>= 1)
        n++;
    return n;
#endif
}
LS_HD static inline int64_t ls_adm_clamp64(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* ---- DWT (adm.md §4) ---- */

/* Input index of tap k (0..3) for output i of a length-n axis (n >= 5): 2i - 1 + k, index -1
 * reflects to 1 (top/left, no repeat), indices >= n to 2n - 1 - index (bottom/right, repeat). */
LS_HD static inline int ls_adm_dwt_index(int i, int k, int n)
{
    int idx = 2 * i - 1 + k;
    if (idx < 0)
        idx = -idx;
    else if (idx >= n)
        idx = 2 * n - idx - 1;
    return idx;
}

/* Scale 0 vertical pass of one column: u[k] the samples of the four tap rows. Low-pass has the DC
 * term LO_SUM * 2^(bpc-1) removed; both are rounded by 2^(bpc-1) and shifted by bpc. The int32
 * accumulator wraps for large 16-bit samples, as the reference's does (adm.md §10). */
LS_HD static inline void ls_adm_dwt0_vertical(const uint32_t u[4], int bpc, int16_t *lo,
                                              int16_t *hi)
{
    const uint32_t r = 1u << (bpc - 1);
    uint32_t l = 0, h = 0;
    for (int k = 0; k < 4; k++) {
        l += (uint32_t)ls_adm_dwt_lo[k] * u[k];
        h += (uint32_t)ls_adm_dwt_hi[k] * u[k];
    }
    l -= (uint32_t)LS_ADM_LO_SUM * r;
    *lo = (int16_t)((int32_t)(l + r) >> bpc);
    *hi = (int16_t)((int32_t)(h + r) >> bpc);
}

/* Scale 0 horizontal pass: the four taps x[k] of one output, filter f (lo or hi). */
LS_HD static inline int16_t ls_adm_dwt0_horizontal(const int32_t f[4], const int16_t x[4])
{
    int32_t acc = 0;
    for (int k = 0; k < 4; k++)
        acc += f[k] * x[k];
    return (int16_t)((acc + 32768) >> 16);
}

/* Scale 1..3 pass (vertical or horizontal): int64 sum, rounded, shifted, truncated to int32. */
LS_HD static inline int32_t ls_adm_dwt123_tap(const int32_t f[4], const int32_t x[4], int32_t round,
                                              int shift)
{
    int64_t acc = 0;
    for (int k = 0; k < 4; k++)
        acc += (int64_t)f[k] * x[k];
    return (int32_t)(uint32_t)(uint64_t)((acc + round) >> shift);
}

/* ---- decoupling (adm.md §5) ---- */

/* Angle test: (float)ot/4096 >= 0 and its square >= C * (float)oo/4096 * (float)tt/4096 in double,
 * left to right (through ls_f64, core/soft_f64.h). x / 4096.0 is written x * 2^-12: both are exact
 * and equal, x being zero or a float of magnitude 1 or more. */
LS_HD static inline int ls_adm_angle_flag(int64_t ot, int64_t oo, int64_t tt)
{
    const ls_f64 scale = LS_F64_C(0x3f30000000000000ull, 0x1p-12);
    const ls_f64 dp = ls_f64_mul(ls_f64_from_f32((float)ot), scale);
    const ls_f64 mo = ls_f64_mul(ls_f64_from_f32((float)oo), scale);
    const ls_f64 mt = ls_f64_mul(ls_f64_from_f32((float)tt), scale);
    const ls_f64 zero = LS_F64_C(0, 0.0);
    return ls_f64_le(zero, dp) &&
           ls_f64_le(ls_f64_mul(ls_f64_mul(ls_f64_from_f32(LS_ADM_COS_1DEG_SQ), mo), mt),
                     ls_f64_mul(dp, dp));
}

/* floor(2^30 / m) for m in 1..32768: the reference's division table entry DIV[32768 + m]
 * (DIV[32768 - m] is its negation, DIV[32768] = 0). */
LS_HD static inline int32_t ls_adm_div_q30(uint32_t m) { return (int32_t)((1u << 30) / m); }

/* Gain ratio k (Q15) of scale 0, unclamped. */
LS_HD static inline int32_t ls_adm_gain0(int32_t o, int32_t t)
{
    if (o == 0)
        return 32768;
    const int32_t d = o > 0 ? ls_adm_div_q30((uint32_t)o) : -ls_adm_div_q30((uint32_t)-o);
    return (int32_t)(((int64_t)d * t + 16384) >> 15);
}

/* Gain ratio k of scales 1..3, unclamped: |o| rounded to 15 significant bits first. */
LS_HD static inline int64_t ls_adm_gain123(int32_t o, int32_t t)
{
    if (o == 0)
        return 32768;
    uint32_t m = o < 0 ? 0u - (uint32_t)o : (uint32_t)o;
    int e = 0;
    if (m >= 32768) {
        e = ls_adm_bit_length(m) - 15;
        m = (m + (1u << (e - 1))) >> e;
    }
    const int64_t p = (int64_t)ls_adm_div_q30(m) * t;
    return ((o < 0 ? -p : p) + ((int64_t)1 << (14 + e))) >> (15 + e);
}

/* The restored value after the enhancement-gain limit: rst from k, then where the angle flag is
 * set and the float rst_f = (k / 32768) * (o / 64) is positive (negative), trunc(min (max) of
 * rst * egl and t) in double. rst_f's sign is sign(o) when k > 0, else 0. */
LS_HD static inline int64_t ls_adm_restore(int64_t k, int64_t rst, int32_t o, int32_t t, int angle,
                                           ls_f64 egl)
{
    if (angle && k > 0) {
        const ls_f64 g = ls_f64_mul(ls_f64_from_i64(rst), egl), td = ls_f64_from_i64(t);
        if (o > 0)
            return ls_f64_to_i64(ls_f64_lt(g, td) ? g : td);
        if (o < 0)
            return ls_f64_to_i64(ls_f64_lt(td, g) ? g : td);
    }
    return rst;
}

/* One pixel of scale 0: reference o[3], distorted t[3] (h, v, d) to restored r[3], additive a[3]. */
LS_HD static inline void ls_adm_decouple0(const int16_t o[3], const int16_t t[3], ls_f64 egl,
                                          int16_t r[3], int16_t a[3])
{
    const int64_t ot = (int64_t)o[0] * t[0] + (int64_t)o[1] * t[1];
    const int64_t oo = (int64_t)o[0] * o[0] + (int64_t)o[1] * o[1];
    const int64_t tt = (int64_t)t[0] * t[0] + (int64_t)t[1] * t[1];
    const int angle = ls_adm_angle_flag(ot, oo, tt);
    for (int b = 0; b < 3; b++) {
        const int32_t k = (int32_t)ls_adm_clamp64(ls_adm_gain0(o[b], t[b]), 0, 32768);
        const int32_t rst = (int16_t)((k * o[b] + 16384) >> 15);
        const int16_t rr = (int16_t)ls_adm_restore(k, rst, o[b], t[b], angle, egl);
        r[b] = rr;
        a[b] = (int16_t)(t[b] - rr);
    }
}

/* One pixel of scales 1..3 (int32 bands). int64 sums wrap as the reference's would. */
LS_HD static inline void ls_adm_decouple123(const int32_t o[3], const int32_t t[3], ls_f64 egl,
                                            int32_t r[3], int32_t a[3])
{
    const int64_t ot =
        (int64_t)((uint64_t)((int64_t)o[0] * t[0]) + (uint64_t)((int64_t)o[1] * t[1]));
    const int64_t oo =
        (int64_t)((uint64_t)((int64_t)o[0] * o[0]) + (uint64_t)((int64_t)o[1] * o[1]));
    const int64_t tt =
        (int64_t)((uint64_t)((int64_t)t[0] * t[0]) + (uint64_t)((int64_t)t[1] * t[1]));
    const int angle = ls_adm_angle_flag(ot, oo, tt);
    for (int b = 0; b < 3; b++) {
        const int64_t k = ls_adm_clamp64(ls_adm_gain123(o[b], t[b]), 0, 32768);
        const int32_t rst = (int32_t)((k * o[b] + 16384) >> 15);
        const int32_t rr = (int32_t)ls_adm_restore(k, rst, o[b], t[b], angle, egl);
        r[b] = rr;
        a[b] = (int32_t)((uint32_t)t[b] - (uint32_t)rr);
    }
}

/* ---- CSF and the masking terms (adm.md §6, §8.1) ---- */

/* Scale 0: CSF value c of band b (0 h, 1 v, 2 d) with the uint16 factor I. */
LS_HD static inline int16_t ls_adm_csf0(int16_t x, uint16_t factor, int b)
{
    return (int16_t)(((int32_t)factor * x + ls_adm_csf0_round[b]) >> ls_adm_csf0_shift[b]);
}
/* Scale 0: filtered |c| / 30 (Q5), and the threshold's centre term |c| / 15 (int16 casts wrap). */
LS_HD static inline int16_t ls_adm_flt0(int16_t c)
{
    const int32_t m = c < 0 ? -(int32_t)c : c;
    return (int16_t)((4369 * m + 2048) >> 12);
}
LS_HD static inline int16_t ls_adm_center0(int16_t c)
{
    const int32_t m = c < 0 ? -(int32_t)c : c;
    return (int16_t)((8738 * m + 2048) >> 12);
}

/* Scales 1..3: CSF value with the uint32 factor, and the two |c| terms with the -2^31 rounding. */
LS_HD static inline int32_t ls_adm_csf123(int32_t x, uint32_t factor)
{
    return (int32_t)(uint32_t)(uint64_t)(((int64_t)factor * x + (1 << 27)) >> 28);
}
LS_HD static inline int32_t ls_adm_flt123(int32_t c)
{
    return (int32_t)(((int64_t)143165577 * ls_adm_abs32(c) + LS_ADM_ROUND_MINUS_2_31) >> 32);
}
LS_HD static inline int32_t ls_adm_center123(int32_t c)
{
    return (int32_t)(((int64_t)286331153 * ls_adm_abs32(c) + LS_ADM_ROUND_MINUS_2_31) >> 32);
}

/* Masking threshold at column j of a row: F rows above, at and below (already mapped to the
 * band: row -1 is row 1, row h is row h - 1; F has one mapped column on each side: F[-1] = F[1],
 * F[w] = F[w-1]), M of the row. Integer sums in 32-bit wrap, as the reference's int32. */
LS_HD static inline int32_t ls_adm_threshold(const int32_t *f_up, const int32_t *f_mid,
                                             const int32_t *f_down, const int32_t *m, int j)
{
    uint32_t s = (uint32_t)f_up[j - 1] + (uint32_t)f_up[j] + (uint32_t)f_up[j + 1];
    s += (uint32_t)f_mid[j - 1] + (uint32_t)f_mid[j + 1];
    s += (uint32_t)f_down[j - 1] + (uint32_t)f_down[j] + (uint32_t)f_down[j + 1];
    return (int32_t)(s + (uint32_t)m[j]);
}

/* Numerator term of scale 0, band b, before the row shift: src * I, |.| minus thr << TS, clipped
 * at 0, squared (rounded, shifted), times itself again, rounded by cr and shifted by cs. */
LS_HD static inline int64_t ls_adm_cm0_term(int16_t src, uint16_t factor, int32_t thr, int b,
                                            uint32_t cs, uint32_t cr)
{
    const int32_t x0 = (int32_t)factor * src;
    int32_t x =
        (int32_t)((uint32_t)(x0 < 0 ? -x0 : x0) - ((uint32_t)thr << ls_adm_cm0_thr_shift[b]));
    x = x < 0 ? 0 : x;
    const int32_t x2 =
        ls_adm_wrap32(((int64_t)x * x + ls_adm_cm0_sq_round[b]) >> ls_adm_cm0_sq_shift[b]);
    return ((int64_t)x2 * x + cr) >> cs;
}

/* Numerator term of scales 1..3 (threshold shift 0, square shift 30). */
LS_HD static inline int64_t ls_adm_cm123_term(int32_t src, uint32_t factor, int32_t thr,
                                              uint32_t cs, uint32_t cr)
{
    const int32_t x0 = ls_adm_csf123(src, factor);
    int32_t x = (int32_t)((uint32_t)ls_adm_abs32(x0) - (uint32_t)thr);
    x = x < 0 ? 0 : x;
    const int32_t x2 = ls_adm_wrap32(((int64_t)x * x + (1 << 29)) >> 30);
    return ((int64_t)x2 * x + cr) >> cs;
}

/* Denominator terms before the row shift: |b|^3 at scale 0; at scales 1..3
 * ((((m*m + 2^sq) >> sq) * m + rc) >> sc) with m = |b| (uint64). */
LS_HD static inline uint64_t ls_adm_den0_term(int16_t b)
{
    const uint64_t m = (uint16_t)(b < 0 ? -b : b);
    return m * m * m;
}
LS_HD static inline uint64_t ls_adm_den123_term(int32_t b, int sq, uint32_t sc, uint32_t rc)
{
    const uint64_t m = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
    return ((((m * m + ((uint64_t)1 << sq)) >> sq) * m) + rc) >> sc;
}

/* ---- per-row accumulation (adm.md §7, §8.2): each row's inner sum is rounded and shifted before
 * it joins the scale's accumulator; 64-bit wrap as the reference's int64/uint64 sums ---- */

LS_HD static inline int64_t ls_adm_add_row(int64_t acc, int64_t inner, uint32_t rr, uint32_t rs)
{
    const int64_t row = (int64_t)((uint64_t)inner + rr) >> rs;
    return (int64_t)((uint64_t)acc + (uint64_t)row);
}
LS_HD static inline uint64_t ls_adm_add_row_u(uint64_t acc, uint64_t inner, uint32_t rr,
                                              uint32_t rs)
{
    return acc + ((inner + rr) >> rs);
}

/* ---- host: options, per-scale constants, the float steps ---- */
#if (!defined(__CUDACC__) || !defined(__CUDA_ARCH__)) && !defined(LS_OPENCL_C)

#include "core/extractor.h" /* host only */

typedef struct LsAdmOptions {
    bool debug;
    double adm_enhn_gain_limit;
    double adm_norm_view_dist;
    int adm_ref_display_height;
    int adm_csf_mode;
    double adm_csf_scale;
    double adm_csf_diag_scale;
    double adm_noise_weight;
    double adm_dlm_weight;
    double adm_min_val;
    bool adm_skip_scale0;
    bool adm_skip_aim;
} LsAdmOptions;

extern const LsOption ls_adm_options[];
extern const LsExtractor ls_fex_adm;

/* Smallest luma width and height: a scale-0 band wider than 16 (cube shifts) and every DWT input
 * at least 5 samples down to scale 3 (adm.md §10). */
enum { LS_ADM_SCALES = 4, LS_ADM_MIN_SIZE = 33 };

/* Everything a scale needs besides the pixels, fixed by the frame size and the options. */
typedef struct LsAdmScale {
    int wi, hi;         /* input size */
    int w, h;           /* band size */
    int L, T, R, B;     /* numerator/denominator region [L, R) x [T, B) (adm.md §7) */
    int c0, c1, r0, r1; /* rows/columns decoupled and CSF-filtered: the region and its neighbours */
    float f_hv, f_d;    /* CSF factors of the h/v and d bands */
    uint16_t i16[3];    /* scale 0 fixed-point factors h, v, d */
    uint32_t i32[3];    /* scale 1..3 fixed-point factors h, v, d */
    /* numerator */
    uint32_t cm_cs[3], cm_cr[3]; /* per-term shift and rounding per band */
    uint32_t cm_rs, cm_rr;       /* row shift and rounding */
    double cm_div[3];            /* scale 0: 2^(52|57 - cs - rs) */
    float cm_fs;                 /* scales 1..3: (float)2^(E - cs - rs) */
    /* denominator */
    int den_sq;              /* scales 1..3 square shift */
    uint32_t den_cs, den_cr; /* scales 1..3 per-term shift and rounding */
    uint32_t den_rs, den_rr; /* row shift and rounding (scale 0: rr 0 when rs 0) */
    double den_div;          /* 2^(18 - rs) (scale 0), 2^(CV - rs - cs) (scales 1..3) */
    int area;
} LsAdmScale;

typedef struct LsAdmSetup {
    int w, h;
    double numden_limit;
    LsAdmScale scale[LS_ADM_SCALES];
} LsAdmSetup;

/* Per-scale integer accumulators: what the pixel work of one scale returns. */
typedef struct LsAdmScaleSums {
    int64_t num[3];  /* DLM numerator, bands h, v, d */
    int64_t aim[3];  /* AIM numerator */
    uint64_t den[3]; /* denominator */
} LsAdmScaleSums;

typedef struct LsAdmScores {
    double adm2, aim, adm3;
    double num, den; /* after the numden limit */
    double num_s[LS_ADM_SCALES], den_s[LS_ADM_SCALES];
    double scale[LS_ADM_SCALES];
} LsAdmScores;

/* What the CPU extractor and its GPU twins share besides the math: the options, the per-scale
 * setup, the depth and the output names. */
typedef struct LsAdmState {
    LsAdmOptions opt;
    LsAdmSetup setup;
    int bpc;
    char name_adm2[256], name_aim[256], name_adm3[256], name_scale[LS_ADM_SCALES][256];
    char name_adm[256], name_num[256], name_den[256];
    char name_num_s[LS_ADM_SCALES][256], name_den_s[LS_ADM_SCALES][256];
} LsAdmState;

/* The extractor's checks and refusals (one line through ls_fex_error), the setup and the names;
 * the extractor reads luma only. */
int ls_adm_state_init(LsFex *fex, LsAdmState *st, const LsAdmOptions *opt, unsigned bpc,
                      unsigned w, unsigned h);
/* Every output of frame `index` from its four scales' integer sums. */
int ls_adm_write_scores(const LsAdmState *st, const LsAdmScaleSums sums[LS_ADM_SCALES],
                        unsigned index, LsCollector *fc);

/* Validates the frame size and the option set (one message through err, -EINVAL) and computes the
 * CSF factors and every shift. err may be NULL. */
int ls_adm_setup(LsAdmSetup *s, const LsAdmOptions *o, int w, int h, char *err, size_t err_len);

/* The float steps of one scale: num_s / aim_s (noise weight 0) / den_s from the accumulators. */
float ls_adm_scale_num(const LsAdmScale *sc, int scale, const int64_t acc[3], double noise_weight);
float ls_adm_scale_den(const LsAdmScale *sc, const uint64_t acc[3], double noise_weight);

/* Every output value from the four scales' sums (adm.md §3, §9); den == 0 gives adm2 = 1 and
 * aim = 0 (the reference leaves aim uninitialised there, adm.md §10). */
void ls_adm_scores(const LsAdmSetup *s, const LsAdmOptions *o, const LsAdmScaleSums sums[4],
                   LsAdmScores *out);

/* ---- DSP units: one band row each; C references in adm_dsp.c, SIMD in x86/ ----
 * Bands are int16 at scale 0 and int32 at scales 1..3. Band arrays [3] are h, v, d. Every row a
 * unit reads or writes has LS_ADM_ROW_PAD samples of defined memory before and after it: vector
 * variants read and write past the row's end there (and never let those lanes into a result). */
enum { LS_ADM_ROW_PAD = 64 };

/* Scale 0 DWT of one output row. rows: the input rows of the four vertical taps (uint8 samples
 * for bpc 8, else uint16), wi the input width. Writes the approximation a (int32, may be NULL)
 * over all (wi + 1) / 2 columns and, when h is not NULL, the details h, v, d over columns
 * [d0, d1). tmp: ls_adm_dwt_tmp_size(wi) bytes. */
typedef void (*LsAdmDwt0Fn)(const void *const rows[4], int bpc, int wi, int d0, int d1, void *tmp,
                            int32_t *a, int16_t *h, int16_t *v, int16_t *d);
/* Scale 1..3 DWT of one output row from int32 rows of the previous approximation. */
typedef void (*LsAdmDwt123Fn)(const int32_t *const rows[4], int scale, int wi, int d0, int d1,
                              void *tmp, int32_t *a, int32_t *h, int32_t *v, int32_t *d);
/* Decoupling of columns [c0, c1): reference o, distorted t -> restored r, additive a. */
typedef void (*LsAdmDecouple0Fn)(const int16_t *const o[3], const int16_t *const t[3], int c0,
                                 int c1, double egl, int16_t *const r[3], int16_t *const a[3]);
typedef void (*LsAdmDecouple123Fn)(const int32_t *const o[3], const int32_t *const t[3], int c0,
                                   int c1, double egl, int32_t *const r[3], int32_t *const a[3]);
/* CSF of columns [c0, c1): f[j] = Σθ flt_θ, m[j] = Σθ center_θ (int32, 32-bit wrap). */
typedef void (*LsAdmCsf0Fn)(const int16_t *const x[3], int c0, int c1, const uint16_t factor[3],
                            int32_t *f, int32_t *m);
typedef void (*LsAdmCsf123Fn)(const int32_t *const x[3], int c0, int c1, const uint32_t factor[3],
                              int32_t *f, int32_t *m);
/* Numerator of one row over columns [j0, j1): acc[b] = Σ term (before the row shift). f_up,
 * f_mid, f_down: F rows i-1, i, i+1 (mapped), readable at j0 - 1 .. j1; m: M of row i. */
typedef void (*LsAdmCm0Fn)(const int16_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                           const int32_t *f_down, const int32_t *m, int j0, int j1,
                           const uint16_t factor[3], const uint32_t cs[3], const uint32_t cr[3],
                           int64_t acc[3]);
typedef void (*LsAdmCm123Fn)(const int32_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                             const int32_t *f_down, const int32_t *m, int j0, int j1,
                             const uint32_t factor[3], uint32_t cs, uint32_t cr, int64_t acc[3]);
/* Denominator of one row over [j0, j1): acc[b] = Σ term (before the row shift). */
typedef void (*LsAdmDen0Fn)(const int16_t *const b[3], int j0, int j1, uint64_t acc[3]);
typedef void (*LsAdmDen123Fn)(const int32_t *const b[3], int j0, int j1, int sq, uint32_t cs,
                              uint32_t cr, uint64_t acc[3]);

typedef struct LsAdmDsp {
    LsAdmDwt0Fn dwt0;
    LsAdmDwt123Fn dwt123;
    LsAdmDecouple0Fn decouple0;
    LsAdmDecouple123Fn decouple123;
    LsAdmCsf0Fn csf0;
    LsAdmCsf123Fn csf123;
    LsAdmCm0Fn cm0;
    LsAdmCm123Fn cm123;
    LsAdmDen0Fn den0;
    LsAdmDen123Fn den123;
} LsAdmDsp;

/* Scratch of the DWT units for an input row of wi samples (both passes, with padding). */
static inline size_t ls_adm_dwt_tmp_size(int wi) { return (size_t)2 * ((size_t)wi + 64) * 8; }

/* floor(2^30 / m) for m = 1..32768 (entry 0 is 0): ls_adm_div_q30 as a table for vector gathers,
 * filled once by ls_adm_dsp_init. */
extern int32_t ls_adm_div_table[32769];

/* The C references, then the variants that cpu_flags allows. */
void ls_adm_dsp_init(LsAdmDsp *dsp, uint64_t cpu_flags);
void ls_adm_dsp_init_c(LsAdmDsp *dsp);
void ls_adm_dsp_init_avx2(LsAdmDsp *dsp);
void ls_adm_dsp_init_avx512(LsAdmDsp *dsp);
void ls_adm_dsp_init_avx512vnni(LsAdmDsp *dsp);

#endif /* host */

#endif
