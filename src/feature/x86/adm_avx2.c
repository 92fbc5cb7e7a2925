/* AVX2 variants of the ADM row units, bit for bit the C references of adm_dsp.c. The scale 0
 * DWT is the template x86/adm_simd.h on 256-bit vectors.
 *
 * Every unit is integer apart from the angle test (double compares of exactly converted floats)
 * and the non-integral gain limit (double, as the reference): lanes are independent, so any
 * vector width gives the reference's bits. The horizontal DWT reads the rows through mapped
 * padding (index -1 holds sample 1, indices n and n+1 hold n-1 and n-2), so the border rule
 * of adm.md §4.1 holds at every width, unlike upstream's SIMD (adm.md §11).
 * Rows are padded by the caller (adm.c): vectors may read and write up to 32 samples past a row's
 * end; sums mask the lanes past the end. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/x86/gather_avx2.h"
#include "feature/adm.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* (lo, hi) int16 pair in every int32 lane, for madd */
ALWAYS_INLINE __m256i pair16(int32_t lo, int32_t hi)
{
    return _mm256_set1_epi32((int32_t)(((uint32_t)hi << 16) | ((uint32_t)lo & 0xffff)));
}

/* low 16 bits of each int32, sign-extended: the (int16) cast */
ALWAYS_INLINE __m256i wrap16(__m256i x) { return _mm256_srai_epi32(_mm256_slli_epi32(x, 16), 16); }

/* 8 int32 that fit int16 to 8 int16 */
ALWAYS_INLINE __m128i narrow16(__m256i x)
{
    return _mm_packs_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}

/* all-ones in the first n of 8 int32 lanes (n may exceed 8) */
ALWAYS_INLINE __m256i first_lanes32(int n)
{
    static const int32_t ramp[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_loadu_si256((const __m256i *)ramp));
}

/* all-ones in the first n of 16 int16 lanes (n may exceed 16) */
ALWAYS_INLINE __m256i first_lanes16(int n)
{
    static const int16_t ramp[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    return _mm256_cmpgt_epi16(_mm256_set1_epi16((int16_t)(n > 16 ? 16 : n)),
                              _mm256_loadu_si256((const __m256i *)ramp));
}

/* 8 results in the low halves of the 64-bit lanes of lo (outputs 0..3) and hi (4..7) */
ALWAYS_INLINE __m256i gather_low_halves(__m256i lo, __m256i hi)
{
    const __m256 s = _mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), 0x88);
    return _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castps_pd(s), 0xD8));
}

/* ---- DWT ---- */

/* true when every lane of the four rows lies in [-32768, 32767] */
ALWAYS_INLINE bool in_int16_rows(const __m256i x[4])
{
    const __m256i bias = _mm256_set1_epi32(32768);
    const __m256i any = _mm256_or_si256(
        _mm256_or_si256(_mm256_add_epi32(x[0], bias), _mm256_add_epi32(x[1], bias)),
        _mm256_or_si256(_mm256_add_epi32(x[2], bias), _mm256_add_epi32(x[3], bias)));
    return _mm256_testz_si256(any, _mm256_set1_epi32((int32_t)0xffff0000));
}

/* ---- decoupling ---- */

/* float of int32 lanes whose bit pattern INT32_MIN stands for +2^31 (a sum of two int16
 * products or squares reaches 2^31 only as (-32768)^2 * 2, and never -2^31) */
ALWAYS_INLINE __m256 float_of_sum(__m256i x)
{
    const __m256i is_min = _mm256_cmpeq_epi32(x, _mm256_set1_epi32(INT32_MIN));
    return _mm256_blendv_ps(_mm256_cvtepi32_ps(x), _mm256_set1_ps(2147483648.0f),
                            _mm256_castsi256_ps(is_min));
}

/* The angle test of adm.md §5.2 on exact floats: ot >= 0 and ot^2 >= (C * oo) * tt in double
 * (the reference's / 4096 scalings are powers of two and cancel exactly). */
ALWAYS_INLINE __m256i angle_flag8(__m256 ot, __m256 oo, __m256 tt)
{
    const __m256d c = _mm256_set1_pd((double)LS_ADM_COS_1DEG_SQ);
    __m256d ge[2];
    for (int half = 0; half < 2; half++) {
        const __m128 o1 = half ? _mm256_extractf128_ps(ot, 1) : _mm256_castps256_ps128(ot);
        const __m128 o2 = half ? _mm256_extractf128_ps(oo, 1) : _mm256_castps256_ps128(oo);
        const __m128 o3 = half ? _mm256_extractf128_ps(tt, 1) : _mm256_castps256_ps128(tt);
        const __m256d dp = _mm256_cvtps_pd(o1);
        const __m256d rhs =
            _mm256_mul_pd(_mm256_mul_pd(c, _mm256_cvtps_pd(o2)), _mm256_cvtps_pd(o3));
        ge[half] = _mm256_cmp_pd(_mm256_mul_pd(dp, dp), rhs, _CMP_GE_OQ);
    }
    const __m256i big = gather_low_halves(_mm256_castpd_si256(ge[0]), _mm256_castpd_si256(ge[1]));
    const __m256 nonneg = _mm256_cmp_ps(ot, _mm256_setzero_ps(), _CMP_GE_OQ);
    return _mm256_and_si256(big, _mm256_castps_si256(nonneg));
}

/* trunc(min (o > 0) or max (o < 0) of rst * egl and t) in double, 8 lanes */
ALWAYS_INLINE __m256i gain_limit_double(__m256i rst, __m256i t, __m256i pos, double egl)
{
    const __m256d e = _mm256_set1_pd(egl);
    __m128i out[2];
    for (int half = 0; half < 2; half++) {
        const __m128i r4 = half ? _mm256_extracti128_si256(rst, 1) : _mm256_castsi256_si128(rst);
        const __m128i t4 = half ? _mm256_extracti128_si256(t, 1) : _mm256_castsi256_si128(t);
        const __m128i p4 = half ? _mm256_extracti128_si256(pos, 1) : _mm256_castsi256_si128(pos);
        const __m256d g = _mm256_mul_pd(_mm256_cvtepi32_pd(r4), e);
        const __m256d td = _mm256_cvtepi32_pd(t4);
        const __m256d sel = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(p4));
        const __m256d val = _mm256_blendv_pd(_mm256_max_pd(g, td), _mm256_min_pd(g, td), sel);
        out[half] = _mm256_cvttpd_epi32(val);
    }
    return _mm256_set_m128i(out[1], out[0]);
}

/* The limited value for an integral egl, in int32: min (pos) or max of rst * egl and t. Where
 * |rst| * egl leaves int32 (wide rows only: |rst| <= 2^15 at scale 0) the product lies beyond
 * every t on the side the min/max drops, so INT32_MAX (pos) or INT32_MIN stands for it: the
 * double path's value, without its conversions. */
ALWAYS_INLINE __m256i gain_limit_int(__m256i rst, __m256i t, __m256i pos, int32_t egl, bool wide)
{
    __m256i g = _mm256_mullo_epi32(rst, _mm256_set1_epi32(egl));
    if (wide) {
        /* |rst| > INT32_MAX / egl, unsigned (|INT32_MIN| is 2^31) */
        const __m256i m = _mm256_abs_epi32(rst), q = _mm256_set1_epi32(INT32_MAX / egl);
        const __m256i big = _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(m, q), m),
                                             _mm256_set1_epi32(-1));
        const __m256i sat = _mm256_xor_si256(pos, _mm256_set1_epi32(INT32_MIN));
        g = _mm256_blendv_epi8(g, sat, big);
    }
    return _mm256_blendv_epi8(_mm256_max_epi32(g, t), _mm256_min_epi32(g, t), pos);
}

/* Restored values rr of 8 pixels whose reference o and distorted t (int32 lanes, h, v, d) lie in
 * the int16 range: the scale 0 arithmetic, which for such values equals that of scales 1..3 (no
 * 15-bit rounding of |o|, every product fits int32). */
ALWAYS_INLINE void decouple8(const __m256i o[3], const __m256i t[3], double egl, bool int_egl,
                             __m256i rr[3])
{
    const __m256i zero = _mm256_setzero_si256(), one15 = _mm256_set1_epi32(32768);
    const __m256i low15 = _mm256_set1_epi32(0x7fff), rnd = _mm256_set1_epi32(16384);
    const __m256i low16 = _mm256_set1_epi32(0xffff);
    /* (h, v) int16 pairs for madd */
    const __m256i po = _mm256_or_si256(_mm256_and_si256(o[0], low16), _mm256_slli_epi32(o[1], 16));
    const __m256i pt = _mm256_or_si256(_mm256_and_si256(t[0], low16), _mm256_slli_epi32(t[1], 16));
    const __m256i angle = angle_flag8(float_of_sum(_mm256_madd_epi16(po, pt)),
                                      float_of_sum(_mm256_madd_epi16(po, po)),
                                      float_of_sum(_mm256_madd_epi16(pt, pt)));
    for (int b = 0; b < 3; b++) {
        const __m256i ob = o[b], tb = t[b];
        const __m256i div = ls_gather32_avx2(ls_adm_div_table, _mm256_abs_epi32(ob));
        /* k = (div * sign(o) * t + 2^14) >> 15 in int32: div = dh * 2^15 + dl */
        const __m256i ts = _mm256_sign_epi32(tb, ob);
        __m256i k = _mm256_mullo_epi32(_mm256_srli_epi32(div, 15), ts);
        k = _mm256_add_epi32(
            k,
            _mm256_srai_epi32(
                _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(div, low15), ts), rnd), 15));
        k = _mm256_min_epi32(_mm256_max_epi32(k, zero), one15);
        const __m256i o_zero = _mm256_cmpeq_epi32(ob, zero);
        k = _mm256_blendv_epi8(k, one15, o_zero);
        const __m256i rst = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, ob), rnd), 15);
        const __m256i pos = _mm256_cmpgt_epi32(ob, zero);
        const __m256i limit =
            _mm256_andnot_si256(o_zero, _mm256_and_si256(angle, _mm256_cmpgt_epi32(k, zero)));
        const __m256i lim = int_egl ? gain_limit_int(rst, tb, pos, (int32_t)egl, false)
                                    : gain_limit_double(rst, tb, pos, egl);
        rr[b] = _mm256_blendv_epi8(rst, lim, limit);
    }
}

ALWAYS_INLINE bool integral(double egl) { return egl == (double)(int32_t)egl; }

static void decouple0_avx2(const int16_t *const o[3], const int16_t *const t[3], int c0, int c1,
                           double egl, int16_t *const r[3], int16_t *const a[3])
{
    const bool int_egl = integral(egl);
    for (int j = c0; j < c1; j += 8) {
        __m256i ob[3], tb[3], rr[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(o[b] + j)));
            tb[b] = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(t[b] + j)));
        }
        decouple8(ob, tb, egl, int_egl, rr);
        for (int b = 0; b < 3; b++) {
            _mm_storeu_si128((__m128i *)(r[b] + j), narrow16(rr[b]));
            _mm_storeu_si128((__m128i *)(a[b] + j),
                             narrow16(wrap16(_mm256_sub_epi32(tb[b], rr[b]))));
        }
    }
}

/* exact double of int64 lanes with |x| < 2^51 */
ALWAYS_INLINE __m256d double_of_i64(__m256i x)
{
    const __m256i magic = _mm256_set1_epi64x(0x4338000000000000ll); /* 0x1.8p52 */
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, magic)),
                         _mm256_castsi256_pd(magic));
}

/* true when every lane satisfies |x| < 2^51 */
ALWAYS_INLINE bool small_i64(__m256i x)
{
    const __m256i biased = _mm256_add_epi64(x, _mm256_set1_epi64x(1ll << 51));
    return _mm256_testz_si256(biased, _mm256_set1_epi64x(~((1ll << 52) - 1)));
}

/* (double)(float)x of exactly converted int64 lanes (one rounding to float, as the reference) */
ALWAYS_INLINE __m256d float_round(__m256d d) { return _mm256_cvtps_pd(_mm256_cvtpd_ps(d)); }

/* (double)(float)x for any int64 lanes with one rounding, as the reference's (float) cast: the
 * two 32-bit halves of |x| are added in double and the sum rounded to odd at 53 bits (from its
 * exact Fast2Sum error), which then rounds to float as |x| would (53 >= 2 * 24 + 2). */
ALWAYS_INLINE __m256d float_round_i64(__m256i x)
{
    const __m256i zero = _mm256_setzero_si256(), low32 = _mm256_set1_epi64x(0xffffffffll);
    const __m256i magic = _mm256_set1_epi64x(0x4330000000000000ll); /* 2^52 */
    const __m256i neg = _mm256_cmpgt_epi64(zero, x);
    const __m256i a = _mm256_sub_epi64(_mm256_xor_si256(x, neg), neg); /* |x|, 2^63 for INT64_MIN */
    const __m256d hi = _mm256_mul_pd(
        _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(a, 32), magic)),
                      _mm256_castsi256_pd(magic)),
        _mm256_set1_pd(4294967296.0));
    const __m256d lo =
        _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(a, low32), magic)),
                      _mm256_castsi256_pd(magic));
    const __m256d s = _mm256_add_pd(hi, lo);
    const __m256d e = _mm256_add_pd(_mm256_sub_pd(hi, s), lo); /* exact: |hi| >= |lo| or hi = 0 */
    const __m256i inexact = _mm256_castpd_si256(_mm256_cmp_pd(e, _mm256_setzero_pd(), _CMP_NEQ_OQ));
    const __m256i below = _mm256_castpd_si256(_mm256_cmp_pd(e, _mm256_setzero_pd(), _CMP_LT_OQ));
    __m256i odd = _mm256_add_epi64(_mm256_castpd_si256(s), below); /* truncation: s or below s */
    odd = _mm256_or_si256(odd, _mm256_and_si256(inexact, _mm256_set1_epi64x(1)));
    odd = _mm256_or_si256(odd, _mm256_and_si256(neg, _mm256_set1_epi64x(INT64_MIN)));
    return float_round(_mm256_castsi256_pd(odd));
}

/* Σ of two int32 products per 64-bit lane, even (low) or odd (high) halves: a0*b0 + a1*b1 */
ALWAYS_INLINE __m256i dot2_i64(__m256i a0, __m256i b0, __m256i a1, __m256i b1)
{
    return _mm256_add_epi64(_mm256_mul_epi32(a0, b0), _mm256_mul_epi32(a1, b1));
}

/* one 64-bit half (4 lanes) of the scale 1..3 gain ratio k, clamped to [0, 32768] */
ALWAYS_INLINE __m256i gain123_half(__m256i div, __m256i t, __m256i oneg, __m256i e)
{
    /* p = div * t * sign(o); q = p + 2^(14+e); k = q < 0 ? 0 : min(q >> (15+e), 32768) */
    __m256i p = _mm256_mul_epi32(div, t);
    p = _mm256_sub_epi64(_mm256_xor_si256(p, oneg), oneg);
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i q =
        _mm256_add_epi64(p, _mm256_sllv_epi64(one, _mm256_add_epi64(e, _mm256_set1_epi64x(14))));
    __m256i k = _mm256_srlv_epi64(q, _mm256_add_epi64(e, _mm256_set1_epi64x(15)));
    const __m256i cap = _mm256_set1_epi64x(32768);
    k = _mm256_blendv_epi8(k, cap, _mm256_cmpgt_epi64(k, cap));
    return _mm256_andnot_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), q), k);
}

/* true when every lane of the six bands lies in [-32768, 32767] */
ALWAYS_INLINE bool in_int16(const __m256i o[3], const __m256i t[3])
{
    const __m256i bias = _mm256_set1_epi32(32768);
    __m256i any = _mm256_setzero_si256();
    for (int b = 0; b < 3; b++)
        any = _mm256_or_si256(
            any, _mm256_or_si256(_mm256_add_epi32(o[b], bias), _mm256_add_epi32(t[b], bias)));
    return _mm256_testz_si256(any, _mm256_set1_epi32((int32_t)0xffff0000));
}

static void decouple123_avx2(const int32_t *const o[3], const int32_t *const t[3], int c0, int c1,
                             double egl, int32_t *const r[3], int32_t *const a[3])
{
    const bool int_egl = integral(egl);
    const __m256i zero = _mm256_setzero_si256(), low32 = _mm256_set1_epi64x(0xffffffffll);
    const __m256i one15 = _mm256_set1_epi32(32768), rnd64 = _mm256_set1_epi64x(16384);
    const __m256d c = _mm256_set1_pd((double)LS_ADM_COS_1DEG_SQ);
    for (int j = c0; j < c1; j += 8) {
        __m256i o8[3], t8[3], rr8[3];
        for (int b = 0; b < 3; b++) {
            o8[b] = _mm256_loadu_si256((const __m256i *)(o[b] + j));
            t8[b] = _mm256_loadu_si256((const __m256i *)(t[b] + j));
        }
        if (in_int16(o8, t8)) {
            decouple8(o8, t8, egl, int_egl, rr8);
            for (int b = 0; b < 3; b++) {
                _mm256_storeu_si256((__m256i *)(r[b] + j), rr8[b]);
                _mm256_storeu_si256((__m256i *)(a[b] + j), _mm256_sub_epi32(t8[b], rr8[b]));
            }
            continue;
        }
        const __m256i oh = o8[0], ov = o8[1], th = t8[0], tv = t8[1];
        /* angle test per 64-bit half: even lanes, then odd lanes */
        __m256i angle_half[2];
        for (int odd = 0; odd < 2; odd++) {
            const __m256i a0 = odd ? _mm256_srli_epi64(oh, 32) : oh;
            const __m256i a1 = odd ? _mm256_srli_epi64(ov, 32) : ov;
            const __m256i b0 = odd ? _mm256_srli_epi64(th, 32) : th;
            const __m256i b1 = odd ? _mm256_srli_epi64(tv, 32) : tv;
            const __m256i ot = dot2_i64(a0, b0, a1, b1), oo = dot2_i64(a0, a0, a1, a1);
            const __m256i tt = dot2_i64(b0, b0, b1, b1);
            __m256d dp, mo, mt;
            if (small_i64(ot) && small_i64(oo) && small_i64(tt)) {
                dp = float_round(double_of_i64(ot));
                mo = float_round(double_of_i64(oo));
                mt = float_round(double_of_i64(tt));
            } else {
                dp = float_round_i64(ot);
                mo = float_round_i64(oo);
                mt = float_round_i64(tt);
            }
            const __m256d rhs = _mm256_mul_pd(_mm256_mul_pd(c, mo), mt);
            const __m256d ok = _mm256_and_pd(_mm256_cmp_pd(dp, _mm256_setzero_pd(), _CMP_GE_OQ),
                                             _mm256_cmp_pd(_mm256_mul_pd(dp, dp), rhs, _CMP_GE_OQ));
            angle_half[odd] = _mm256_castpd_si256(ok);
        }
        const __m256i angle =
            _mm256_blend_epi32(angle_half[0], _mm256_slli_epi64(angle_half[1], 32), 0xAA);
        for (int b = 0; b < 3; b++) {
            const __m256i ob = _mm256_loadu_si256((const __m256i *)(o[b] + j));
            const __m256i tb = _mm256_loadu_si256((const __m256i *)(t[b] + j));
            const __m256i m = _mm256_abs_epi32(ob); /* |INT32_MIN| = 2^31 as uint32 */
            /* 15 significant bits: e = bit length - 15 from the exact float of m >> 8 */
            const __m256i expo = _mm256_srli_epi32(
                _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32(m, 8))), 23);
            const __m256i e =
                _mm256_max_epi32(_mm256_sub_epi32(expo, _mm256_set1_epi32(127 + 6)), zero);
            const __m256i half = _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), e), 1);
            const __m256i mm = _mm256_srlv_epi32(_mm256_add_epi32(m, half), e);
            const __m256i div = ls_gather32_avx2(ls_adm_div_table, mm);
            const __m256i oneg = _mm256_cmpgt_epi64(zero, _mm256_slli_epi64(ob, 32));
            const __m256i onego = _mm256_cmpgt_epi64(zero, ob);
            const __m256i ke = gain123_half(div, tb, oneg, _mm256_and_si256(e, low32));
            const __m256i ko = gain123_half(_mm256_srli_epi64(div, 32), _mm256_srli_epi64(tb, 32),
                                            onego, _mm256_srli_epi64(e, 32));
            __m256i k = _mm256_blend_epi32(ke, _mm256_slli_epi64(ko, 32), 0xAA);
            const __m256i o_zero = _mm256_cmpeq_epi32(ob, zero);
            k = _mm256_blendv_epi8(k, one15, o_zero);
            /* rst = (k * o + 16384) >> 15, low 32 bits */
            const __m256i re =
                _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(k, ob), rnd64), 15);
            const __m256i ro = _mm256_srli_epi64(
                _mm256_add_epi64(
                    _mm256_mul_epi32(_mm256_srli_epi64(k, 32), _mm256_srli_epi64(ob, 32)), rnd64),
                15);
            const __m256i rst = _mm256_blend_epi32(re, _mm256_slli_epi64(ro, 32), 0xAA);
            const __m256i pos = _mm256_cmpgt_epi32(ob, zero);
            const __m256i limit =
                _mm256_andnot_si256(o_zero, _mm256_and_si256(angle, _mm256_cmpgt_epi32(k, zero)));
            const __m256i lim = int_egl ? gain_limit_int(rst, tb, pos, (int32_t)egl, true)
                                        : gain_limit_double(rst, tb, pos, egl);
            const __m256i rr = _mm256_blendv_epi8(rst, lim, limit);
            _mm256_storeu_si256((__m256i *)(r[b] + j), rr);
            _mm256_storeu_si256((__m256i *)(a[b] + j), _mm256_sub_epi32(tb, rr));
        }
    }
}

/* ---- CSF ---- */

/* (int32)((factor * x + 2^27) >> 28) with factor uint32 and x int32 (64-bit product) */
ALWAYS_INLINE __m256i csf123_lanes(__m256i x, __m256i factor)
{
    const __m256i mag = _mm256_abs_epi32(x);
    const __m256i rnd = _mm256_set1_epi64x(1 << 27), zero = _mm256_setzero_si256();
    __m256i pe = _mm256_mul_epu32(mag, factor);
    __m256i po = _mm256_mul_epu32(_mm256_srli_epi64(mag, 32), factor);
    const __m256i ne = _mm256_cmpgt_epi64(zero, _mm256_slli_epi64(x, 32));
    const __m256i no = _mm256_cmpgt_epi64(zero, x);
    pe = _mm256_sub_epi64(_mm256_xor_si256(pe, ne), ne);
    po = _mm256_sub_epi64(_mm256_xor_si256(po, no), no);
    pe = _mm256_srli_epi64(_mm256_add_epi64(pe, rnd), 28);
    po = _mm256_srli_epi64(_mm256_add_epi64(po, rnd), 28);
    return _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
}

/* (int32)((k * |c| - 2^31) >> 32) with |c| as the reference's int32 abs */
ALWAYS_INLINE __m256i scaled_abs_high(__m256i mag, __m256i k)
{
    const __m256i rnd = _mm256_set1_epi64x(LS_ADM_ROUND_MINUS_2_31);
    const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(mag, k), rnd);
    const __m256i po = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(mag, 32), k), rnd);
    return _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
}

/* ---- numerator and denominator ---- */

/* arithmetic right shift of int64 lanes */
ALWAYS_INLINE __m256i sra64(__m256i v, __m128i s)
{
    const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v);
    return _mm256_xor_si256(_mm256_srl_epi64(_mm256_xor_si256(v, sign), s), sign);
}

/* Σ ((x2 * x + cr) >> cs) over the lanes of x (0 <= x < 2^31), x2 = (int32)((x*x + qr) >> qs),
 * added to acc (int64 lanes). */
ALWAYS_INLINE __m256i cube_terms(__m256i acc, __m256i x, __m256i qr, __m128i qs, __m256i cr,
                                 __m128i cs)
{
    const __m256i xo = _mm256_srli_epi64(x, 32);
    const __m256i x2e = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, x), qr), qs);
    const __m256i x2o = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(xo, xo), qr), qs);
    __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(x2e, x), cr);
    __m256i po = _mm256_add_epi64(_mm256_mul_epi32(x2o, xo), cr);
    if (_mm256_testz_si256(x, _mm256_set1_epi32(0x40000000))) {
        /* x < 2^30: x2 < 2^31, the products are not negative */
        pe = _mm256_srl_epi64(pe, cs);
        po = _mm256_srl_epi64(po, cs);
    } else {
        pe = sra64(pe, cs);
        po = sra64(po, cs);
    }
    return _mm256_add_epi64(acc, _mm256_add_epi64(pe, po));
}

ALWAYS_INLINE int64_t hsum64(__m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (int64_t)((uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1));
}

/* the first n of the 16 int16 (8 int32) lanes at p, the others 0 (p may be read past n) */
ALWAYS_INLINE __m256i load_first16(const int16_t *p, int n)
{
    return _mm256_and_si256(_mm256_loadu_si256((const __m256i *)p), first_lanes16(n));
}
ALWAYS_INLINE __m256i load_first32(const int32_t *p, int n)
{
    return _mm256_and_si256(_mm256_loadu_si256((const __m256i *)p), first_lanes32(n));
}

/* some int32 lane is INT32_MIN */
ALWAYS_INLINE bool any_int32_min(__m256i v)
{
    return !_mm256_testz_si256(_mm256_cmpeq_epi32(v, _mm256_set1_epi32(INT32_MIN)),
                               _mm256_set1_epi32(-1));
}

/* max(x, 0) in the first n lanes (n may exceed the lane count), 0 in the others */
ALWAYS_INLINE __m256i keep_positive(__m256i x, int n)
{
    return _mm256_and_si256(_mm256_max_epi32(x, _mm256_setzero_si256()), first_lanes32(n));
}

ALWAYS_INLINE bool all_zero(__m256i x) { return _mm256_testz_si256(x, x); }

/* the vector macros of the shared units (adm_simd.h) */
#define VI __m256i
#define N16 16
#define N32 8
#define FN(name) name##_avx2
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define VLOAD_BYTES(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define VSTORE_NARROW16(p, v) _mm_storeu_si128((__m128i *)(void *)(p), narrow16(v))
#define VSET16 _mm256_set1_epi16
#define VSET32 _mm256_set1_epi32
#define VXOR _mm256_xor_si256
#define VADD32 _mm256_add_epi32
#define VMADD _mm256_madd_epi16
#define VUNPLO16 _mm256_unpacklo_epi16
#define VUNPHI16 _mm256_unpackhi_epi16
#define VSRA32 _mm256_sra_epi32
#define VSRAI32 _mm256_srai_epi32
#define VPACKS32 _mm256_packs_epi32
#define N64 4
#define VAND _mm256_and_si256
#define VOR _mm256_or_si256
#define VSLLI32 _mm256_slli_epi32
#define VMULDQ _mm256_mul_epi32
#define VADD64 _mm256_add_epi64
#define VSRLI64 _mm256_srli_epi64
#define VSRL64 _mm256_srl_epi64
#define VJOIN_LOW_HALVES(lo, hi) gather_low_halves(lo, hi)
#define VINTERLEAVE_LOW_HALVES(e, o) _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA)
#define VLOAD_I16(p) _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define VZERO _mm256_setzero_si256
#define VSET64 _mm256_set1_epi64x
#define VABS32 _mm256_abs_epi32
#define VMULLO32 _mm256_mullo_epi32
#define VSUB32 _mm256_sub_epi32
#define VSLL32 _mm256_sll_epi32
#define VABS16 _mm256_abs_epi16
#define VMULLO16 _mm256_mullo_epi16
#define VMULHIU16 _mm256_mulhi_epu16
#define VMULU32 _mm256_mul_epu32
#include "feature/x86/adm_simd.h"

void ls_adm_dsp_init_avx2(LsAdmDsp *dsp)
{
    dsp->dwt0 = dwt0_avx2;
    dsp->dwt123 = dwt123_avx2;
    dsp->decouple0 = decouple0_avx2;
    dsp->csf0 = csf0_avx2;
    dsp->cm0 = cm0_avx2;
    dsp->den0 = den0_avx2;
    dsp->decouple123 = decouple123_avx2;
    dsp->csf123 = csf123_avx2;
    dsp->cm123 = cm123_avx2;
    dsp->den123 = den123_avx2;
}
