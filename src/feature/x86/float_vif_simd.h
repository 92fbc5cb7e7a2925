/* The float VIF SIMD units written once for every vector width: float_vif_avx2.c (8 lanes) and
 * float_vif_avx512.c (16 lanes) define the vector operations below and include this file.
 * Every output is formed by the reference's operations in the reference's order
 * (float_vif_dsp.c); the vectors only hold different outputs side by side:
 *   fill:     VLANES samples converted (exactly) and multiplied per step;
 *   filter_v: VLANES columns per vector, up to eight output rows of a strip at once (independent
 *             chains hide the add latency; each input row is reused from L1);
 *   filter_h: VLANES consecutive outputs per vector, eight vectors in flight; the decimation
 *             (step 2) reads even and odd samples from de-interleaved copies;
 *   stat:     VLANES pixels per vector, the double quotients in two halves.
 * Tails narrower than a vector take the scalar reference arithmetic of float_vif.h.
 *
 * The includer defines:
 *   VEC, HALF (float vectors of VLANES and VLANES / 2 lanes), VECD (VLANES / 2 doubles), VECI,
 *   MASK, VLANES, MAX_ACC (accumulator registers filter_v may use), FN(name) (suffixed name);
 *   V_ZERO(), V_SET1(f), V_LOADU(p), V_STOREU(p, v), V_ADD, V_SUB, V_MUL, V_DIV,
 *   V_LOAD_U8(p), V_LOAD_U16(p) (VLANES samples as float),
 *   V_CMP(a, b, predicate) -> MASK, V_KEEP(m, v) (v where m, else +0), V_DROP(m, v) (+0 where
 *   m), V_SELECT(m, t, f) (t where m, else f), V_ALL(m) (every lane set),
 *   I_FROM_F(v), F_FROM_I(vi) (bit casts), I_SRLI(vi, n), I_AND, I_OR, I_SUB, I_SET1(i),
 *   I_TO_F(vi) (int to float conversion),
 *   H_LO(v), H_HI(v), H_COMBINE(lo, hi), D_FROM_H(h), H_FROM_D(d), D_SET1(d), D_ADD, D_MUL, D_DIV.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/float_vif.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* ---- fill ---- */

static ALWAYS_INLINE VEC load_input(const void *row, unsigned x, unsigned bpc, VEC scale)
{
    const VEC offset = V_SET1(128.0f);
    if (bpc == 0)
        return V_LOADU((const float *)row + x);
    if (bpc == 8)
        return V_SUB(V_LOAD_U8((const uint8_t *)row + x), offset);
    /* v / 2^k is exact, so the product with the exact reciprocal equals the reference's division */
    return V_SUB(V_MUL(V_LOAD_U16((const uint16_t *)row + x), scale), offset);
}

static inline float load1_input(const void *row, unsigned x, unsigned bpc)
{
    if (bpc == 0)
        return ((const float *)row)[x];
    if (bpc == 8)
        return ls_float_vif_sample(((const uint8_t *)row)[x], 8);
    return ls_float_vif_sample(((const uint16_t *)row)[x], bpc);
}

void FN(ls_float_vif_fill)(const void *ref, const void *dis, unsigned bpc, unsigned w,
                           bool products, float *const out[LS_FLOAT_VIF_NQ])
{
    const VEC scale = V_SET1(bpc > 8 ? 1.0f / (float)(1u << (bpc - 8)) : 1.0f);
    unsigned x = 0;
    for (; x + VLANES <= w; x += VLANES) {
        const VEC a = load_input(ref, x, bpc, scale), b = load_input(dis, x, bpc, scale);
        V_STOREU(out[LS_FLOAT_VIF_X] + x, a);
        V_STOREU(out[LS_FLOAT_VIF_Y] + x, b);
        if (products) {
            V_STOREU(out[LS_FLOAT_VIF_XX] + x, V_MUL(a, a));
            V_STOREU(out[LS_FLOAT_VIF_YY] + x, V_MUL(b, b));
            V_STOREU(out[LS_FLOAT_VIF_XY] + x, V_MUL(a, b));
        }
    }
    for (; x < w; x++) {
        const float a = load1_input(ref, x, bpc), b = load1_input(dis, x, bpc);
        out[LS_FLOAT_VIF_X][x] = a;
        out[LS_FLOAT_VIF_Y][x] = b;
        if (products) {
            out[LS_FLOAT_VIF_XX][x] = a * a;
            out[LS_FLOAT_VIF_YY][x] = b * b;
            out[LS_FLOAT_VIF_XY][x] = a * b;
        }
    }
}

/* ---- vertical pass ---- */

/* NO output rows x NV vectors from column x; taps k ascending for each. */
static ALWAYS_INLINE void filter_v_block(const float *src, ptrdiff_t stride, unsigned row_step,
                                         const float *taps, unsigned n_taps, unsigned x, float *out,
                                         ptrdiff_t out_stride, const unsigned NO, const unsigned NV)
{
    VEC acc[LS_FLOAT_VIF_STRIP][4];
    for (unsigned u = 0; u < NO; u++)
        for (unsigned v = 0; v < NV; v++)
            acc[u][v] = V_ZERO();
    const ptrdiff_t ustride = (ptrdiff_t)row_step * stride;
    const float *p = src + x;
    for (unsigned k = 0; k < n_taps; k++, p += stride) {
        const VEC f = V_SET1(taps[k]);
        for (unsigned u = 0; u < NO; u++)
            for (unsigned v = 0; v < NV; v++)
                acc[u][v] = V_ADD(acc[u][v], V_MUL(f, V_LOADU(p + u * ustride + VLANES * v)));
    }
    for (unsigned u = 0; u < NO; u++)
        for (unsigned v = 0; v < NV; v++)
            V_STOREU(out + u * out_stride + x + VLANES * v, acc[u][v]);
}

static ALWAYS_INLINE void filter_v_tmpl(const float *src, ptrdiff_t stride, unsigned row_step,
                                        const float *taps, unsigned n_taps, unsigned w, float *out,
                                        ptrdiff_t out_stride, const unsigned NO)
{
    /* fewer rows, more vectors per row: MAX_ACC chains in flight */
    const unsigned NV = MAX_ACC / NO >= 4 ? 4 : MAX_ACC / NO >= 2 ? MAX_ACC / NO : 1;
    unsigned x = 0;
    for (; x + VLANES * NV <= w; x += VLANES * NV)
        filter_v_block(src, stride, row_step, taps, n_taps, x, out, out_stride, NO, NV);
    for (; x + VLANES <= w; x += VLANES)
        filter_v_block(src, stride, row_step, taps, n_taps, x, out, out_stride, NO, 1);
    for (; x < w; x++) {
        for (unsigned u = 0; u < NO; u++) {
            const float *r = src + (ptrdiff_t)(u * row_step) * stride + x;
            float acc = 0.0f;
            for (unsigned k = 0; k < n_taps; k++)
                acc = ls_float_vif_mac(acc, taps[k], r[(ptrdiff_t)k * stride]);
            out[u * out_stride + x] = acc;
        }
    }
}

void FN(ls_float_vif_filter_v)(const float *src, ptrdiff_t stride, unsigned row_step,
                               unsigned n_out, const float *taps, unsigned n_taps, unsigned w,
                               float *out, ptrdiff_t out_stride)
{
#define CASE(n)                                                                                    \
    case n: filter_v_tmpl(src, stride, row_step, taps, n_taps, w, out, out_stride, n); break;
    switch (n_out) {
        CASE(8)
        CASE(7)
        CASE(6)
        CASE(5)
        CASE(4)
        CASE(3)
        CASE(2)
        CASE(1)
    default: break;
    }
#undef CASE
}

/* ---- horizontal pass ---- */

/* out[j] = sum_k taps[k] * src(k)[j] for NV vectors of outputs from j, where src(k) is the
 * sample sequence tap k reads: in + k for step 1; for step 2 the even (k even) or odd copy
 * shifted by k / 2. */
static ALWAYS_INLINE void filter_h_block(const float *even, const float *odd, unsigned step,
                                         const float *taps, unsigned n_taps, unsigned j, float *out,
                                         const unsigned NV)
{
    VEC acc[8];
    for (unsigned v = 0; v < NV; v++)
        acc[v] = V_ZERO();
    for (unsigned k = 0; k < n_taps; k++) {
        const VEC f = V_SET1(taps[k]);
        const float *src = step == 1 ? even + k : (k & 1 ? odd : even) + k / 2;
        for (unsigned v = 0; v < NV; v++)
            acc[v] = V_ADD(acc[v], V_MUL(f, V_LOADU(src + j + VLANES * v)));
    }
    for (unsigned v = 0; v < NV; v++)
        V_STOREU(out + j + VLANES * v, acc[v]);
}

static ALWAYS_INLINE void filter_h_tmpl(const float *even, const float *odd, unsigned step,
                                        const float *taps, unsigned n_taps, unsigned n_out,
                                        float *out)
{
    unsigned j = 0;
    for (; j + 8 * VLANES <= n_out; j += 8 * VLANES)
        filter_h_block(even, odd, step, taps, n_taps, j, out, 8);
    for (; j + VLANES <= n_out; j += VLANES)
        filter_h_block(even, odd, step, taps, n_taps, j, out, 1);
    for (; j < n_out; j++) {
        float acc = 0.0f;
        for (unsigned k = 0; k < n_taps; k++) {
            const float *src = step == 1 ? even + k : (k & 1 ? odd : even) + k / 2;
            acc = ls_float_vif_mac(acc, taps[k], src[j]);
        }
        out[j] = acc;
    }
}

void FN(ls_float_vif_filter_h)(const float *in, unsigned step, const float *taps, unsigned n_taps,
                               unsigned n_out, float *out, float *tmp)
{
    if (step == 1) {
        filter_h_tmpl(in, in, 1, taps, n_taps, n_out, out);
        return;
    }
    /* in[2j + k]: even k reads even[j + k/2], odd k reads odd[j + k/2] */
    const unsigned n_in = n_out ? 2 * (n_out - 1) + n_taps : 0;
    const unsigned n_even = (n_in + 1) / 2, n_odd = n_in / 2;
    float *even = tmp, *odd = tmp + n_even + 8;
    for (unsigned i = 0; i < n_even; i++)
        even[i] = in[2 * i];
    for (unsigned i = 0; i < n_odd; i++)
        odd[i] = in[2 * i + 1];
    filter_h_tmpl(even, odd, 2, taps, n_taps, n_out, out);
}

/* ---- statistic ---- */

static ALWAYS_INLINE VEC log2_v(VEC x)
{
    const VECI bits = I_FROM_F(x);
    const VECI e = I_AND(I_SRLI(bits, 23), I_SET1(0xff));
    const VEC m = F_FROM_I(I_OR(I_AND(bits, I_SET1(0x7fffff)), I_SET1(0x3f800000)));
    const VEC t = V_SUB(m, V_SET1(1.0f));
    /* The reference's Horner from p = 0 over nine coefficients, two steps shorter: t is in
     * [0, 1), so its first step 0 * t + c0 is c0 exactly; its last adds the coefficient 0, which
     * only turns p = -0 into +0, and (e - 127) + p is the same for both. */
    VEC p = V_SET1(ls_float_vif_log2_poly[0]);
    for (int i = 1; i < 8; i++)
        p = V_ADD(V_MUL(p, t), V_SET1(ls_float_vif_log2_poly[i]));
    p = V_MUL(p, t);
    return V_ADD(I_TO_F(I_SUB(e, I_SET1(127))), p);
}

/* (float)(1.0 + (double)a / d) per lane; with a power-of-two divisor the quotient is the product
 * with its exact reciprocal */
static ALWAYS_INLINE HALF one_plus_quotient(HALF a, VECD d, const bool by_recip, VECD recip)
{
    const VECD ad = D_FROM_H(a);
    const VECD q = by_recip ? D_MUL(ad, recip) : D_DIV(ad, d);
    return H_FROM_D(D_ADD(D_SET1(1.0), q));
}

typedef struct StatConsts {
    VECD nsq, recip;
    VEC zero, eps, limit, nsq_ceil, one, smi;
} StatConsts;

/* VLANES pixels from x */
static ALWAYS_INLINE void stat_vec(const float *const q[LS_FLOAT_VIF_NQ], unsigned x,
                                   const StatConsts *c, const bool by_recip, float *num, float *den)
{
    const VEC mu1 = V_LOADU(q[LS_FLOAT_VIF_X] + x);
    const VEC mu2 = V_LOADU(q[LS_FLOAT_VIF_Y] + x);
    const VEC xx = V_LOADU(q[LS_FLOAT_VIF_XX] + x);
    const VEC yy = V_LOADU(q[LS_FLOAT_VIF_YY] + x);
    const VEC xy = V_LOADU(q[LS_FLOAT_VIF_XY] + x);
    VEC s1 = V_SUB(xx, V_MUL(mu1, mu1));
    VEC s2 = V_SUB(yy, V_MUL(mu2, mu2));
    const VEC s12 = V_SUB(xy, V_MUL(mu1, mu2));
    /* x > 0 ? x : 0 (ordered: NaN and -0 become +0) */
    s1 = V_KEEP(V_CMP(s1, c->zero, _CMP_GT_OQ), s1);
    s2 = V_KEEP(V_CMP(s2, c->zero, _CMP_GT_OQ), s2);
    /* s1 < eps: g = 0, sv = s2, s1 = 0 */
    const MASK m1 = V_CMP(s1, c->eps, _CMP_LT_OQ);
    const VEC s1z = V_DROP(m1, s1);
    /* the reference's non-log override, tested on the zeroed s1: num = 1 - s2 * smi, den = 1 */
    const MASK flat = V_CMP(s1z, c->nsq_ceil, _CMP_LT_OQ);
    const VEC num_flat = V_SUB(c->one, V_MUL(s2, c->smi));
    if (V_ALL(flat)) {
        V_STOREU(num + x, num_flat);
        V_STOREU(den + x, c->one);
        return;
    }
    VEC g = V_DIV(s12, V_ADD(s1, c->eps));
    VEC sv = V_SUB(s2, V_MUL(g, s12));
    g = V_DROP(m1, g);
    sv = V_SELECT(m1, s2, sv);
    s1 = s1z;
    const MASK m2 = V_CMP(s2, c->eps, _CMP_LT_OQ);
    g = V_DROP(m2, g);
    sv = V_DROP(m2, sv);
    const MASK m3 = V_CMP(g, c->zero, _CMP_LT_OQ);
    sv = V_SELECT(m3, s2, sv);
    g = V_DROP(m3, g);
    sv = V_SELECT(V_CMP(sv, c->eps, _CMP_GT_OQ), sv, c->eps);
    g = V_SELECT(V_CMP(g, c->limit, _CMP_LT_OQ), g, c->limit);

    const VEC a = V_MUL(V_MUL(g, g), s1);
    const VECD sv_lo = D_ADD(D_FROM_H(H_LO(sv)), c->nsq);
    const VECD sv_hi = D_ADD(D_FROM_H(H_HI(sv)), c->nsq);
    const VEC num_arg = H_COMBINE(one_plus_quotient(H_LO(a), sv_lo, false, c->recip),
                                  one_plus_quotient(H_HI(a), sv_hi, false, c->recip));
    const VEC den_arg = H_COMBINE(one_plus_quotient(H_LO(s1), c->nsq, by_recip, c->recip),
                                  one_plus_quotient(H_HI(s1), c->nsq, by_recip, c->recip));
    VEC n = log2_v(num_arg);
    const VEC d = log2_v(den_arg);
    n = V_DROP(V_CMP(s12, c->zero, _CMP_LT_OQ), n);
    V_STOREU(num + x, V_SELECT(flat, num_flat, n));
    V_STOREU(den + x, V_SELECT(flat, c->one, d));
}

static ALWAYS_INLINE void stat_tmpl(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                                    const LsFloatVifStatParams *p, const StatConsts *c,
                                    const bool by_recip, float *num, float *den)
{
    unsigned x = 0;
    for (; x + VLANES <= w; x += VLANES)
        stat_vec(q, x, c, by_recip, num, den);
    for (; x < w; x++)
        ls_float_vif_statistic(q[LS_FLOAT_VIF_X][x], q[LS_FLOAT_VIF_Y][x], q[LS_FLOAT_VIF_XX][x],
                               q[LS_FLOAT_VIF_YY][x], q[LS_FLOAT_VIF_XY][x], p, &num[x], &den[x]);
}

void FN(ls_float_vif_stat)(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                           const LsFloatVifStatParams *p, float *num, float *den)
{
    const double nsq = p->sigma_nsq;
    /* (double)s1 < nsq  <=>  s1 < the least float not below nsq (s1 is a float) */
    float nsq_ceil = (float)nsq;
    if ((double)nsq_ceil < nsq)
        nsq_ceil = nextafterf(nsq_ceil, INFINITY);
    /* x / 2^k == x * 2^-k in binary64 for every float x (no underflow, no overflow) */
    int exp2;
    const bool pow2 = nsq > 0.0 && frexp(nsq, &exp2) == 0.5;
    const StatConsts c = {
        .nsq = D_SET1(nsq),
        .recip = D_SET1(pow2 ? 1.0 / nsq : 0.0),
        .zero = V_ZERO(),
        .eps = V_SET1(LS_FLOAT_VIF_EPS),
        .limit = V_SET1(p->gain_limit),
        .nsq_ceil = V_SET1(nsq_ceil),
        .one = V_SET1(1.0f),
        .smi = V_SET1(p->sigma_max_inv),
    };
    if (pow2)
        stat_tmpl(q, w, p, &c, true, num, den);
    else
        stat_tmpl(q, w, p, &c, false, num, den);
}
