/* AVX2 variants of the float VIF DSP units (float_vif_dsp.c holds the references). Every output
 * is formed by the reference's operations in the reference's order; the vectors only hold
 * different outputs side by side:
 *   filter_v: eight columns per vector, up to eight output rows of a strip at once (independent
 *             chains, so the add latency is hidden; each input row is reused from L1);
 *   filter_h: eight consecutive outputs per vector, eight vectors in flight; the decimation
 *             (step 2) reads even and odd samples from de-interleaved copies;
 *   stat:     eight pixels per vector, the double quotients in two halves of four;
 *   accumulate: lane r carries row r's chain (8x8 blocks transposed), as in float_motion's SAD. */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#include "feature/float_vif.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* ---- fill ---- */

static ALWAYS_INLINE __m256 load8_input(const void *row, unsigned x, unsigned bpc, __m256 scale)
{
    const __m256 offset = _mm256_set1_ps(128.0f);
    if (bpc == 0)
        return _mm256_loadu_ps((const float *)row + x);
    if (bpc == 8) {
        const __m128i v = _mm_loadl_epi64((const __m128i *)((const uint8_t *)row + x));
        return _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)), offset);
    }
    /* v / 2^k is exact, so the product with the exact reciprocal equals the reference's division */
    const __m128i v = _mm_loadu_si128((const __m128i *)((const uint16_t *)row + x));
    return _mm256_sub_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(v)), scale),
                         offset);
}

static inline float load1_input(const void *row, unsigned x, unsigned bpc)
{
    if (bpc == 0)
        return ((const float *)row)[x];
    if (bpc == 8)
        return ls_float_vif_sample(((const uint8_t *)row)[x], 8);
    return ls_float_vif_sample(((const uint16_t *)row)[x], bpc);
}

void ls_float_vif_fill_avx2(const void *ref, const void *dis, unsigned bpc, unsigned w,
                            bool products, float *const out[LS_FLOAT_VIF_NQ])
{
    const __m256 scale = _mm256_set1_ps(bpc > 8 ? 1.0f / (float)(1u << (bpc - 8)) : 1.0f);
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        const __m256 a = load8_input(ref, x, bpc, scale), b = load8_input(dis, x, bpc, scale);
        _mm256_storeu_ps(out[LS_FLOAT_VIF_X] + x, a);
        _mm256_storeu_ps(out[LS_FLOAT_VIF_Y] + x, b);
        if (products) {
            _mm256_storeu_ps(out[LS_FLOAT_VIF_XX] + x, _mm256_mul_ps(a, a));
            _mm256_storeu_ps(out[LS_FLOAT_VIF_YY] + x, _mm256_mul_ps(b, b));
            _mm256_storeu_ps(out[LS_FLOAT_VIF_XY] + x, _mm256_mul_ps(a, b));
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

/* NO output rows x NV vectors of eight columns from column x; taps k ascending for each. */
static ALWAYS_INLINE void filter_v_block(const float *src, ptrdiff_t stride, unsigned row_step,
                                         const float *taps, unsigned n_taps, unsigned x,
                                         float *out, ptrdiff_t out_stride, const unsigned NO,
                                         const unsigned NV)
{
    __m256 acc[8][2];
    for (unsigned u = 0; u < NO; u++)
        for (unsigned v = 0; v < NV; v++)
            acc[u][v] = _mm256_setzero_ps();
    const ptrdiff_t ustride = (ptrdiff_t)row_step * stride;
    const float *p = src + x;
    for (unsigned k = 0; k < n_taps; k++, p += stride) {
        const __m256 f = _mm256_broadcast_ss(taps + k);
        for (unsigned u = 0; u < NO; u++)
            for (unsigned v = 0; v < NV; v++)
                acc[u][v] = _mm256_add_ps(
                    acc[u][v], _mm256_mul_ps(f, _mm256_loadu_ps(p + u * ustride + 8 * v)));
    }
    for (unsigned u = 0; u < NO; u++)
        for (unsigned v = 0; v < NV; v++)
            _mm256_storeu_ps(out + u * out_stride + x + 8 * v, acc[u][v]);
}

static ALWAYS_INLINE void filter_v_tmpl(const float *src, ptrdiff_t stride, unsigned row_step,
                                        const float *taps, unsigned n_taps, unsigned w,
                                        float *out, ptrdiff_t out_stride, const unsigned NO)
{
    /* at most four rows: two vectors per row keep eight chains in flight */
    const unsigned NV = NO <= 4 ? 2 : 1;
    unsigned x = 0;
    for (; x + 8 * NV <= w; x += 8 * NV)
        filter_v_block(src, stride, row_step, taps, n_taps, x, out, out_stride, NO, NV);
    for (; x + 8 <= w; x += 8)
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

void ls_float_vif_filter_v_avx2(const float *src, ptrdiff_t stride, unsigned row_step,
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

/* out[j] = sum_k taps[k] * src(k)[j] for NV vectors of eight outputs from j, where src(k) is
 * the sample sequence tap k reads: in + k for step 1; for step 2 the even (k even) or odd copy
 * shifted by k / 2. */
static ALWAYS_INLINE void filter_h_block(const float *even, const float *odd, unsigned step,
                                         const float *taps, unsigned n_taps, unsigned j,
                                         float *out, const unsigned NV)
{
    __m256 acc[8];
    for (unsigned v = 0; v < NV; v++)
        acc[v] = _mm256_setzero_ps();
    for (unsigned k = 0; k < n_taps; k++) {
        const __m256 f = _mm256_broadcast_ss(taps + k);
        const float *src = step == 1 ? even + k : (k & 1 ? odd : even) + k / 2;
        for (unsigned v = 0; v < NV; v++)
            acc[v] = _mm256_add_ps(acc[v], _mm256_mul_ps(f, _mm256_loadu_ps(src + j + 8 * v)));
    }
    for (unsigned v = 0; v < NV; v++)
        _mm256_storeu_ps(out + j + 8 * v, acc[v]);
}

static ALWAYS_INLINE void filter_h_tmpl(const float *even, const float *odd, unsigned step,
                                        const float *taps, unsigned n_taps, unsigned n_out,
                                        float *out)
{
    unsigned j = 0;
    for (; j + 64 <= n_out; j += 64)
        filter_h_block(even, odd, step, taps, n_taps, j, out, 8);
    for (; j + 8 <= n_out; j += 8)
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

void ls_float_vif_filter_h_avx2(const float *in, unsigned step, const float *taps,
                                unsigned n_taps, unsigned n_out, float *out, float *tmp)
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

static ALWAYS_INLINE __m256 log2_ps(__m256 x)
{
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i e = _mm256_and_si256(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(0xff));
    const __m256 m = _mm256_castsi256_ps(
        _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff)),
                        _mm256_set1_epi32(0x3f800000)));
    const __m256 t = _mm256_sub_ps(m, _mm256_set1_ps(1.0f));
    /* The reference's Horner from p = 0 over nine coefficients, two steps shorter: t is in
     * [0, 1), so its first step 0 * t + c0 is c0 exactly; its last adds the coefficient 0, which
     * only turns p = -0 into +0, and (e - 127) + p is the same for both. */
    __m256 p = _mm256_set1_ps(ls_float_vif_log2_poly[0]);
    for (int i = 1; i < 8; i++)
        p = _mm256_add_ps(_mm256_mul_ps(p, t), _mm256_set1_ps(ls_float_vif_log2_poly[i]));
    p = _mm256_mul_ps(p, t);
    return _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(e, _mm256_set1_epi32(127))), p);
}

/* (float)(1.0 + (double)a / d) per lane, d a double vector; with a power-of-two divisor the
 * quotient is the product with its exact reciprocal (recip_exact). */
static ALWAYS_INLINE __m128 one_plus_quotient(__m128 a, __m256d d, bool by_recip, __m256d recip)
{
    const __m256d ad = _mm256_cvtps_pd(a);
    const __m256d q = by_recip ? _mm256_mul_pd(ad, recip) : _mm256_div_pd(ad, d);
    return _mm256_cvtpd_ps(_mm256_add_pd(_mm256_set1_pd(1.0), q));
}

static ALWAYS_INLINE __m256 combine(__m128 lo, __m128 hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

typedef struct StatConsts {
    __m256d nsq, recip;
    __m256 zero, eps, limit, nsq_ceil, one, smi;
} StatConsts;

/* eight pixels from x */
static ALWAYS_INLINE void stat8(const float *const q[LS_FLOAT_VIF_NQ], unsigned x,
                                const StatConsts *c, const bool by_recip, float *num, float *den)
{
    const __m256 mu1 = _mm256_loadu_ps(q[LS_FLOAT_VIF_X] + x);
    const __m256 mu2 = _mm256_loadu_ps(q[LS_FLOAT_VIF_Y] + x);
    const __m256 xx = _mm256_loadu_ps(q[LS_FLOAT_VIF_XX] + x);
    const __m256 yy = _mm256_loadu_ps(q[LS_FLOAT_VIF_YY] + x);
    const __m256 xy = _mm256_loadu_ps(q[LS_FLOAT_VIF_XY] + x);
    __m256 s1 = _mm256_sub_ps(xx, _mm256_mul_ps(mu1, mu1));
    __m256 s2 = _mm256_sub_ps(yy, _mm256_mul_ps(mu2, mu2));
    const __m256 s12 = _mm256_sub_ps(xy, _mm256_mul_ps(mu1, mu2));
    /* x > 0 ? x : 0 (ordered: NaN and -0 become +0) */
    s1 = _mm256_and_ps(s1, _mm256_cmp_ps(s1, c->zero, _CMP_GT_OQ));
    s2 = _mm256_and_ps(s2, _mm256_cmp_ps(s2, c->zero, _CMP_GT_OQ));
    /* s1 < eps: g = 0, sv = s2, s1 = 0 */
    const __m256 m1 = _mm256_cmp_ps(s1, c->eps, _CMP_LT_OQ);
    const __m256 s1z = _mm256_andnot_ps(m1, s1);
    /* the reference's non-log override, tested on the zeroed s1: num = 1 - s2 * smi, den = 1 */
    const __m256 flat = _mm256_cmp_ps(s1z, c->nsq_ceil, _CMP_LT_OQ);
    const __m256 num_flat = _mm256_sub_ps(c->one, _mm256_mul_ps(s2, c->smi));
    if (_mm256_movemask_ps(flat) == 0xff) {
        _mm256_storeu_ps(num + x, num_flat);
        _mm256_storeu_ps(den + x, c->one);
        return;
    }
    __m256 g = _mm256_div_ps(s12, _mm256_add_ps(s1, c->eps));
    __m256 sv = _mm256_sub_ps(s2, _mm256_mul_ps(g, s12));
    g = _mm256_andnot_ps(m1, g);
    sv = _mm256_blendv_ps(sv, s2, m1);
    s1 = s1z;
    const __m256 m2 = _mm256_cmp_ps(s2, c->eps, _CMP_LT_OQ);
    g = _mm256_andnot_ps(m2, g);
    sv = _mm256_andnot_ps(m2, sv);
    const __m256 m3 = _mm256_cmp_ps(g, c->zero, _CMP_LT_OQ);
    sv = _mm256_blendv_ps(sv, s2, m3);
    g = _mm256_andnot_ps(m3, g);
    sv = _mm256_blendv_ps(c->eps, sv, _mm256_cmp_ps(sv, c->eps, _CMP_GT_OQ));
    g = _mm256_blendv_ps(c->limit, g, _mm256_cmp_ps(g, c->limit, _CMP_LT_OQ));

    const __m256 a = _mm256_mul_ps(_mm256_mul_ps(g, g), s1);
    const __m256d sv_lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(sv)), c->nsq);
    const __m256d sv_hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(sv, 1)), c->nsq);
    const __m256 num_arg =
        combine(one_plus_quotient(_mm256_castps256_ps128(a), sv_lo, false, c->recip),
                one_plus_quotient(_mm256_extractf128_ps(a, 1), sv_hi, false, c->recip));
    const __m256 den_arg =
        combine(one_plus_quotient(_mm256_castps256_ps128(s1), c->nsq, by_recip, c->recip),
                one_plus_quotient(_mm256_extractf128_ps(s1, 1), c->nsq, by_recip, c->recip));
    __m256 n = log2_ps(num_arg);
    __m256 d = log2_ps(den_arg);
    n = _mm256_andnot_ps(_mm256_cmp_ps(s12, c->zero, _CMP_LT_OQ), n);
    n = _mm256_blendv_ps(n, num_flat, flat);
    d = _mm256_blendv_ps(d, c->one, flat);
    _mm256_storeu_ps(num + x, n);
    _mm256_storeu_ps(den + x, d);
}

static ALWAYS_INLINE void stat_tmpl(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
                                    const LsFloatVifStatParams *p, const StatConsts *c,
                                    const bool by_recip, float *num, float *den)
{
    unsigned x = 0;
    /* two vectors per step: their long chains (divisions, two Horner sequences) overlap */
    for (; x + 16 <= w; x += 16) {
        stat8(q, x, c, by_recip, num, den);
        stat8(q, x + 8, c, by_recip, num, den);
    }
    for (; x + 8 <= w; x += 8)
        stat8(q, x, c, by_recip, num, den);
    for (; x < w; x++)
        ls_float_vif_statistic(q[LS_FLOAT_VIF_X][x], q[LS_FLOAT_VIF_Y][x], q[LS_FLOAT_VIF_XX][x],
                               q[LS_FLOAT_VIF_YY][x], q[LS_FLOAT_VIF_XY][x], p, &num[x], &den[x]);
}

void ls_float_vif_stat_avx2(const float *const q[LS_FLOAT_VIF_NQ], unsigned w,
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
        .nsq = _mm256_set1_pd(nsq),
        .recip = _mm256_set1_pd(pow2 ? 1.0 / nsq : 0.0),
        .zero = _mm256_setzero_ps(),
        .eps = _mm256_set1_ps(LS_FLOAT_VIF_EPS),
        .limit = _mm256_set1_ps(p->gain_limit),
        .nsq_ceil = _mm256_set1_ps(nsq_ceil),
        .one = _mm256_set1_ps(1.0f),
        .smi = _mm256_set1_ps(p->sigma_max_inv),
    };
    if (pow2)
        stat_tmpl(q, w, p, &c, true, num, den);
    else
        stat_tmpl(q, w, p, &c, false, num, den);
}

/* ---- accumulation ---- */

static ALWAYS_INLINE void transpose8(__m256 r[8])
{
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
    const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]);
    const __m256 t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]);
    const __m256 t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/* lane r: the running sum of row r of v (eight rows, stride floats apart), left to right */
static ALWAYS_INLINE __m256 row_sums8(const float *v, size_t stride, unsigned w)
{
    __m256 acc = _mm256_setzero_ps();
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        __m256 c[8];
        for (int r = 0; r < 8; r++)
            c[r] = _mm256_loadu_ps(v + r * stride + x);
        transpose8(c);
        for (int k = 0; k < 8; k++)
            acc = _mm256_add_ps(acc, c[k]);
    }
    for (; x < w; x++) {
        float col[8];
        for (int r = 0; r < 8; r++)
            col[r] = v[r * stride + x];
        acc = _mm256_add_ps(acc, _mm256_loadu_ps(col));
    }
    return acc;
}

void ls_float_vif_accumulate_avx2(const float *num, const float *den, size_t stride, unsigned w,
                                  unsigned h, float acc[2])
{
    unsigned i = 0;
    for (; i + 8 <= h; i += 8) {
        float rn[8], rd[8];
        _mm256_storeu_ps(rn, row_sums8(num + i * stride, stride, w));
        _mm256_storeu_ps(rd, row_sums8(den + i * stride, stride, w));
        for (int r = 0; r < 8; r++) {
            acc[0] = acc[0] + rn[r];
            acc[1] = acc[1] + rd[r];
        }
    }
    for (; i < h; i++) {
        acc[0] = acc[0] + ls_float_vif_row_sum(num + i * stride, w);
        acc[1] = acc[1] + ls_float_vif_row_sum(den + i * stride, w);
    }
}
