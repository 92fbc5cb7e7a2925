/* AVX-512 (F, BW, DQ, VL) variants of the hot ADM row units, bit for bit the C references of
 * adm_dsp.c. The scale 0 DWT is the template x86/adm_simd.h on
 * 512-bit vectors; the rest is the arithmetic of adm_avx2.c on twice the lanes,
 * with what AVX-512 adds: native 64-bit arithmetic shifts, min/max and int64 -> float conversion
 * (one rounding, as the reference's (float) cast), masks instead of blends, and truncating narrowing
 * moves for the reference's (int16)/(int32) casts. Rows are padded by the caller (adm.c): vectors
 * may read and write up to 64 samples past a row's end; sums mask the lanes past the end. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/adm.h"

/* adm_vnni_avx512.c builds this file again under another suffix */
#ifndef LS_ADM_AVX512_SUFFIX
#define LS_ADM_AVX512_SUFFIX _avx512
#endif
#define FN_CAT(name, suffix) name##suffix
#define FN_EXPAND(name, suffix) FN_CAT(name, suffix)
#define FN(name) FN_EXPAND(name, LS_ADM_AVX512_SUFFIX)

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE __m512i pair16(int32_t lo, int32_t hi)
{
    return _mm512_set1_epi32((int32_t)(((uint32_t)hi << 16) | ((uint32_t)lo & 0xffff)));
}

/* the first n of 16 lanes (n may exceed 16) */
ALWAYS_INLINE __mmask16 first16(int n) { return n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1); }

/* 16 int16 from memory, sign-extended */
ALWAYS_INLINE __m512i load16_i16(const int16_t *p)
{
    return _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)p));
}

ALWAYS_INLINE __m512i load16_i32(const int32_t *p) { return _mm512_loadu_si512((const void *)p); }

/* 16 int32 truncated to int16 (the reference's (int16) cast) and stored */
ALWAYS_INLINE void store16_i16(int16_t *p, __m512i x)
{
    _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(x));
}

/* the low (half 0) or high (half 1) 256 bits */
ALWAYS_INLINE __m256i half256(__m512i x, int half)
{
    return half ? _mm512_extracti64x4_epi64(x, 1) : _mm512_castsi512_si256(x);
}

/* low 16 bits of each int32, sign-extended */
ALWAYS_INLINE __m512i wrap16(__m512i x) { return _mm512_srai_epi32(_mm512_slli_epi32(x, 16), 16); }

/* 8 low halves of the 64-bit lanes of lo (outputs 0..7) and hi (8..15), in order */
ALWAYS_INLINE __m512i join_low_halves(__m512i lo, __m512i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)),
                              _mm512_cvtepi64_epi32(hi), 1);
}

/* even lanes from the low halves of e, odd lanes from the low halves of o */
ALWAYS_INLINE __m512i interleave_low_halves(__m512i e, __m512i o)
{
    return _mm512_mask_blend_epi32(0xaaaa, e, _mm512_slli_epi64(o, 32));
}

/* ---- DWT ---- */

/* true when every lane of the four rows lies in [-32768, 32767] */
ALWAYS_INLINE bool in_int16_rows(const __m512i x[4])
{
    const __m512i bias = _mm512_set1_epi32(32768);
    const __m512i any = _mm512_or_si512(
        _mm512_or_si512(_mm512_add_epi32(x[0], bias), _mm512_add_epi32(x[1], bias)),
        _mm512_or_si512(_mm512_add_epi32(x[2], bias), _mm512_add_epi32(x[3], bias)));
    return !_mm512_test_epi32_mask(any, _mm512_set1_epi32((int32_t)0xffff0000));
}

/* ---- decoupling ---- */

/* The angle test of adm.md §5.2 on 8 exact floats (as doubles): ot >= 0 and
 * ot^2 >= (C * oo) * tt in double (the / 4096 scalings cancel exactly). */
ALWAYS_INLINE __mmask8 angle8(__m512d ot, __m512d oo, __m512d tt)
{
    const __m512d c = _mm512_set1_pd((double)LS_ADM_COS_1DEG_SQ);
    const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(c, oo), tt);
    return _mm512_cmp_pd_mask(ot, _mm512_setzero_pd(), _CMP_GE_OQ) &
           _mm512_cmp_pd_mask(_mm512_mul_pd(ot, ot), rhs, _CMP_GE_OQ);
}

/* float of int32 lanes whose pattern INT32_MIN stands for +2^31 (adm_avx2.c), as double */
ALWAYS_INLINE void doubles_of_sum(__m512i x, __m512d out[2])
{
    const __mmask16 is_min = _mm512_cmpeq_epi32_mask(x, _mm512_set1_epi32(INT32_MIN));
    const __m512 f =
        _mm512_mask_blend_ps(is_min, _mm512_cvtepi32_ps(x), _mm512_set1_ps(2147483648.0f));
    out[0] = _mm512_cvtps_pd(_mm512_castps512_ps256(f));
    out[1] = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1)));
}

/* trunc(min (pos) or max of rst * egl and t) in double, 16 lanes */
ALWAYS_INLINE __m512i gain_limit_double(__m512i rst, __m512i t, __mmask16 pos, double egl)
{
    const __m512d e = _mm512_set1_pd(egl);
    __m256i out[2];
    for (int half = 0; half < 2; half++) {
        const __m256i r8 = half256(rst, half);
        const __m256i t8 = half256(t, half);
        const __m512d g = _mm512_mul_pd(_mm512_cvtepi32_pd(r8), e);
        const __m512d td = _mm512_cvtepi32_pd(t8);
        const __m512d val = _mm512_mask_blend_pd((__mmask8)(pos >> (8 * half)),
                                                 _mm512_max_pd(g, td), _mm512_min_pd(g, td));
        out[half] = _mm512_cvttpd_epi32(val);
    }
    return _mm512_inserti64x4(_mm512_castsi256_si512(out[0]), out[1], 1);
}

/* The limited value for an integral egl, in int32: min (pos) or max of rst * egl and t. Where
 * |rst| * egl leaves int32 (wide rows only: |rst| <= 2^15 at scale 0) the product lies beyond
 * every t on the side the min/max drops, so INT32_MAX (pos) or INT32_MIN stands for it: the
 * double path's value, without its conversions. */
ALWAYS_INLINE __m512i gain_limit_int(__m512i rst, __m512i t, __mmask16 pos, int32_t egl, bool wide)
{
    __m512i g = _mm512_mullo_epi32(rst, _mm512_set1_epi32(egl));
    if (wide) {
        const __mmask16 big = _mm512_cmpgt_epu32_mask(_mm512_abs_epi32(rst),
                                                      _mm512_set1_epi32(INT32_MAX / egl));
        g = _mm512_mask_mov_epi32(g, big,
                                  _mm512_mask_blend_epi32(pos, _mm512_set1_epi32(INT32_MIN),
                                                          _mm512_set1_epi32(INT32_MAX)));
    }
    return _mm512_mask_blend_epi32(pos, _mm512_max_epi32(g, t), _mm512_min_epi32(g, t));
}

/* Restored values rr of 16 pixels whose reference o and distorted t (int32 lanes, h, v, d) lie in
 * the int16 range: the scale 0 arithmetic, which for such values equals that of scales 1..3 (no
 * 15-bit rounding of |o|, every product fits int32). */
ALWAYS_INLINE void decouple16(const __m512i ob[3], const __m512i tb[3], double egl, bool int_egl,
                              __m512i rr[3])
{
    const __m512i zero = _mm512_setzero_si512(), one15 = _mm512_set1_epi32(32768);
    const __m512i low15 = _mm512_set1_epi32(0x7fff), rnd = _mm512_set1_epi32(16384);
    const __m512i low16 = _mm512_set1_epi32(0xffff);
    /* (h, v) int16 pairs for madd, in pixel order */
    const __m512i po =
        _mm512_or_si512(_mm512_and_si512(ob[0], low16), _mm512_slli_epi32(ob[1], 16));
    const __m512i pt =
        _mm512_or_si512(_mm512_and_si512(tb[0], low16), _mm512_slli_epi32(tb[1], 16));
    __m512d ot[2], oo[2], tt[2];
    doubles_of_sum(_mm512_madd_epi16(po, pt), ot);
    doubles_of_sum(_mm512_madd_epi16(po, po), oo);
    doubles_of_sum(_mm512_madd_epi16(pt, pt), tt);
    const __mmask16 angle =
        (__mmask16)(angle8(ot[0], oo[0], tt[0]) | ((unsigned)angle8(ot[1], oo[1], tt[1]) << 8));
    for (int b = 0; b < 3; b++) {
        const __m512i div = _mm512_i32gather_epi32(_mm512_abs_epi32(ob[b]), ls_adm_div_table, 4);
        const __mmask16 o_neg = _mm512_cmplt_epi32_mask(ob[b], zero);
        const __mmask16 o_zero = _mm512_cmpeq_epi32_mask(ob[b], zero);
        /* t * sign(o), 0 where o == 0 */
        const __m512i ts = _mm512_maskz_mov_epi32((__mmask16)~o_zero,
                                                  _mm512_mask_sub_epi32(tb[b], o_neg, zero, tb[b]));
        /* k = (div * ts + 2^14) >> 15 in int32: div = dh * 2^15 + dl */
        __m512i k = _mm512_mullo_epi32(_mm512_srli_epi32(div, 15), ts);
        k = _mm512_add_epi32(
            k,
            _mm512_srai_epi32(
                _mm512_add_epi32(_mm512_mullo_epi32(_mm512_and_si512(div, low15), ts), rnd), 15));
        k = _mm512_min_epi32(_mm512_max_epi32(k, zero), one15);
        k = _mm512_mask_mov_epi32(k, o_zero, one15);
        const __m512i rst =
            _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(k, ob[b]), rnd), 15);
        const __mmask16 pos = _mm512_cmpgt_epi32_mask(ob[b], zero);
        const __mmask16 limit = angle & (__mmask16)~o_zero & _mm512_cmpgt_epi32_mask(k, zero);
        const __m512i lim = int_egl ? gain_limit_int(rst, tb[b], pos, (int32_t)egl, false)
                                    : gain_limit_double(rst, tb[b], pos, egl);
        rr[b] = _mm512_mask_blend_epi32(limit, rst, lim);
    }
}

ALWAYS_INLINE bool integral(double egl) { return egl == (double)(int32_t)egl; }

static void FN(decouple0)(const int16_t *const o[3], const int16_t *const t[3], int c0, int c1,
                             double egl, int16_t *const r[3], int16_t *const a[3])
{
    const bool int_egl = integral(egl);
    for (int j = c0; j < c1; j += 16) {
        __m512i ob[3], tb[3], rr[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = load16_i16(o[b] + j);
            tb[b] = load16_i16(t[b] + j);
        }
        decouple16(ob, tb, egl, int_egl, rr);
        for (int b = 0; b < 3; b++) {
            store16_i16(r[b] + j, rr[b]);
            store16_i16(a[b] + j, _mm512_sub_epi32(tb[b], rr[b]));
        }
    }
}

/* true when every lane of the six bands lies in [-32768, 32767] */
ALWAYS_INLINE bool in_int16(const __m512i o[3], const __m512i t[3])
{
    const __m512i bias = _mm512_set1_epi32(32768);
    __m512i any = _mm512_setzero_si512();
    for (int b = 0; b < 3; b++)
        any = _mm512_or_si512(
            any, _mm512_or_si512(_mm512_add_epi32(o[b], bias), _mm512_add_epi32(t[b], bias)));
    return !_mm512_test_epi32_mask(any, _mm512_set1_epi32((int32_t)0xffff0000));
}

/* one half (8 pixels, int64 lanes) of the scale 1..3 gain ratio k, clamped to [0, 32768] */
ALWAYS_INLINE __m512i gain123_8(__m512i div, __m512i t, __mmask8 o_neg, __m512i e)
{
    __m512i p = _mm512_mul_epi32(div, t);
    p = _mm512_mask_sub_epi64(p, o_neg, _mm512_setzero_si512(), p);
    const __m512i q = _mm512_add_epi64(
        p, _mm512_sllv_epi64(_mm512_set1_epi64(1), _mm512_add_epi64(e, _mm512_set1_epi64(14))));
    const __m512i k = _mm512_srav_epi64(q, _mm512_add_epi64(e, _mm512_set1_epi64(15)));
    return _mm512_min_epi64(_mm512_max_epi64(k, _mm512_setzero_si512()), _mm512_set1_epi64(32768));
}

static void FN(decouple123)(const int32_t *const o[3], const int32_t *const t[3], int c0, int c1,
                               double egl, int32_t *const r[3], int32_t *const a[3])
{
    const __m512i zero = _mm512_setzero_si512(), one15 = _mm512_set1_epi32(32768);
    const __m512i rnd64 = _mm512_set1_epi64(16384);
    const bool int_egl = integral(egl);
    for (int j = c0; j < c1; j += 16) {
        __m512i ob[3], tb[3];
        for (int b = 0; b < 3; b++) {
            ob[b] = load16_i32(o[b] + j);
            tb[b] = load16_i32(t[b] + j);
        }
        if (in_int16(ob, tb)) {
            __m512i rr[3];
            decouple16(ob, tb, egl, int_egl, rr);
            for (int b = 0; b < 3; b++) {
                _mm512_storeu_si512((void *)(r[b] + j), rr[b]);
                _mm512_storeu_si512((void *)(a[b] + j), _mm512_sub_epi32(tb[b], rr[b]));
            }
            continue;
        }
        unsigned angle = 0;
        for (int half = 0; half < 2; half++) {
            const __m512i oh = _mm512_cvtepi32_epi64(half256(ob[0], half));
            const __m512i ov = _mm512_cvtepi32_epi64(half256(ob[1], half));
            const __m512i th = _mm512_cvtepi32_epi64(half256(tb[0], half));
            const __m512i tv = _mm512_cvtepi32_epi64(half256(tb[1], half));
            /* int64 sums wrap as the reference's; (float) of int64 rounds once */
            const __m512i ot = _mm512_add_epi64(_mm512_mul_epi32(oh, th), _mm512_mul_epi32(ov, tv));
            const __m512i oo = _mm512_add_epi64(_mm512_mul_epi32(oh, oh), _mm512_mul_epi32(ov, ov));
            const __m512i tt = _mm512_add_epi64(_mm512_mul_epi32(th, th), _mm512_mul_epi32(tv, tv));
            angle |= (unsigned)angle8(_mm512_cvtps_pd(_mm512_cvtepi64_ps(ot)),
                                      _mm512_cvtps_pd(_mm512_cvtepi64_ps(oo)),
                                      _mm512_cvtps_pd(_mm512_cvtepi64_ps(tt)))
                     << (8 * half);
        }
        for (int b = 0; b < 3; b++) {
            const __m512i m = _mm512_abs_epi32(ob[b]); /* |INT32_MIN| = 2^31 as uint32 */
            /* 15 significant bits: e = bit length - 15 from the exact float of m >> 8 */
            const __m512i expo = _mm512_srli_epi32(
                _mm512_castps_si512(_mm512_cvtepi32_ps(_mm512_srli_epi32(m, 8))), 23);
            const __m512i e =
                _mm512_max_epi32(_mm512_sub_epi32(expo, _mm512_set1_epi32(127 + 6)), zero);
            const __m512i half_e = _mm512_srli_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), e), 1);
            const __m512i mm = _mm512_srlv_epi32(_mm512_add_epi32(m, half_e), e);
            const __m512i div = _mm512_i32gather_epi32(mm, ls_adm_div_table, 4);
            const __mmask16 o_neg = _mm512_cmplt_epi32_mask(ob[b], zero);
            const __mmask16 o_zero = _mm512_cmpeq_epi32_mask(ob[b], zero);
            __m512i kh[2], rh[2];
            for (int half = 0; half < 2; half++) {
#define HALF64(x) _mm512_cvtepi32_epi64(half256((x), half))
                const __m512i k = gain123_8(HALF64(div), HALF64(tb[b]),
                                            (__mmask8)(o_neg >> (8 * half)), HALF64(e));
                kh[half] = k;
                rh[half] = _mm512_srli_epi64(
                    _mm512_add_epi64(_mm512_mul_epi32(k, HALF64(ob[b])), rnd64), 15);
#undef HALF64
            }
            __m512i k = join_low_halves(kh[0], kh[1]);
            k = _mm512_mask_mov_epi32(k, o_zero, one15);
            const __m512i rst = join_low_halves(rh[0], rh[1]); /* o = 0 gives 0, as 32768 * 0 */
            const __mmask16 pos = _mm512_cmpgt_epi32_mask(ob[b], zero);
            const __mmask16 limit =
                (__mmask16)angle & (__mmask16)~o_zero & _mm512_cmpgt_epi32_mask(k, zero);
            const __m512i lim = int_egl ? gain_limit_int(rst, tb[b], pos, (int32_t)egl, true)
                                        : gain_limit_double(rst, tb[b], pos, egl);
            const __m512i rr = _mm512_mask_blend_epi32(limit, rst, lim);
            _mm512_storeu_si512((void *)(r[b] + j), rr);
            _mm512_storeu_si512((void *)(a[b] + j), _mm512_sub_epi32(tb[b], rr));
        }
    }
}

/* ---- CSF ---- */

/* (int32)((factor * x + 2^27) >> 28) with factor uint32 and x int32 (64-bit product) */
ALWAYS_INLINE __m512i csf123_lanes(__m512i x, __m512i factor)
{
    const __m512i mag = _mm512_abs_epi32(x);
    const __m512i rnd = _mm512_set1_epi64(1 << 27), zero = _mm512_setzero_si512();
    __m512i pe = _mm512_mul_epu32(mag, factor);
    __m512i po = _mm512_mul_epu32(_mm512_srli_epi64(mag, 32), factor);
    /* the sign of the even (odd) 32-bit lane is the sign of the 64-bit lane shifted up (as is) */
    const __mmask8 ne = _mm512_cmplt_epi64_mask(_mm512_slli_epi64(x, 32), zero);
    const __mmask8 no = _mm512_cmplt_epi64_mask(x, zero);
    pe = _mm512_mask_sub_epi64(pe, ne, zero, pe);
    po = _mm512_mask_sub_epi64(po, no, zero, po);
    pe = _mm512_srli_epi64(_mm512_add_epi64(pe, rnd), 28);
    po = _mm512_srli_epi64(_mm512_add_epi64(po, rnd), 28);
    return interleave_low_halves(pe, po);
}

/* (int32)((k * |c| - 2^31) >> 32) with |c| as the reference's int32 abs: the high dwords */
ALWAYS_INLINE __m512i scaled_abs_high(__m512i mag, __m512i k)
{
    const __m512i rnd = _mm512_set1_epi64(LS_ADM_ROUND_MINUS_2_31);
    const __m512i pe = _mm512_add_epi64(_mm512_mul_epi32(mag, k), rnd);
    const __m512i po = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(mag, 32), k), rnd);
    return _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(pe, 32), po);
}

/* ---- numerator ---- */

/* sum of the int64 lanes, wrapping like the reference's uint64 accumulation */
ALWAYS_INLINE int64_t hsum64(__m512i v)
{
    const __m256i s4 = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    const __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(s4), _mm256_extracti128_si256(s4, 1));
    return (int64_t)((uint64_t)_mm_cvtsi128_si64(s2) + (uint64_t)_mm_extract_epi64(s2, 1));
}

/* Σ ((x2 * x + cr) >> cs) over the lanes of x (0 <= x < 2^31), x2 = (int32)((x*x + qr) >> qs) */
ALWAYS_INLINE __m512i cube_terms(__m512i acc, __m512i x, __m512i qr, __m128i qs, __m512i cr,
                                 __m128i cs)
{
    const __m512i xo = _mm512_srli_epi64(x, 32);
    const __m512i x2e = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(x, x), qr), qs);
    const __m512i x2o = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(xo, xo), qr), qs);
    const __m512i pe = _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(x2e, x), cr), cs);
    const __m512i po = _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(x2o, xo), cr), cs);
    return _mm512_add_epi64(acc, _mm512_add_epi64(pe, po));
}

/* max(x, 0) in the first n lanes (n may exceed the lane count), 0 in the others */
ALWAYS_INLINE __m512i keep_positive(__m512i x, int n)
{
    return _mm512_maskz_max_epi32(first16(n), x, _mm512_setzero_si512());
}

ALWAYS_INLINE bool all_zero(__m512i x) { return !_mm512_test_epi32_mask(x, x); }

/* the first n of the 32 int16 (16 int32) lanes at p, the others 0 (masked: not read) */
ALWAYS_INLINE __m512i load_first16(const int16_t *p, int n)
{
    return _mm512_maskz_loadu_epi16(n >= 32 ? 0xffffffffu : (__mmask32)((1u << n) - 1), p);
}
ALWAYS_INLINE __m512i load_first32(const int32_t *p, int n)
{
    return _mm512_maskz_loadu_epi32(first16(n), p);
}

/* some int32 lane is INT32_MIN */
ALWAYS_INLINE bool any_int32_min(__m512i v)
{
    return _mm512_cmpeq_epi32_mask(v, _mm512_set1_epi32(INT32_MIN)) != 0;
}

/* the vector macros of the shared units (adm_simd.h) */
#define VI __m512i
#define N16 32
#define N32 16
#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VSTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define VLOAD_BYTES(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define VSTORE_NARROW16(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(v))
#define VSET16 _mm512_set1_epi16
#define VSET32 _mm512_set1_epi32
#define VXOR _mm512_xor_si512
#define VADD32 _mm512_add_epi32
#define VMADD _mm512_madd_epi16
#define VUNPLO16 _mm512_unpacklo_epi16
#define VUNPHI16 _mm512_unpackhi_epi16
#define VSRA32 _mm512_sra_epi32
#define VSRAI32 _mm512_srai_epi32
#define VPACKS32 _mm512_packs_epi32
#define N64 8
#define VAND _mm512_and_si512
#define VOR _mm512_or_si512
#define VSLLI32 _mm512_slli_epi32
#define VMULDQ _mm512_mul_epi32
#define VADD64 _mm512_add_epi64
#define VSRLI64 _mm512_srli_epi64
#define VSRL64 _mm512_srl_epi64
#define VJOIN_LOW_HALVES(lo, hi) join_low_halves(lo, hi)
#define VINTERLEAVE_LOW_HALVES(e, o) interleave_low_halves(e, o)
#define VLOAD_I16(p) load16_i16(p)
#define VZERO _mm512_setzero_si512
#define VSET64 _mm512_set1_epi64
#define VABS32 _mm512_abs_epi32
#define VMULLO32 _mm512_mullo_epi32
#define VSUB32 _mm512_sub_epi32
#define VSLL32 _mm512_sll_epi32
#define VABS16 _mm512_abs_epi16
#define VMULLO16 _mm512_mullo_epi16
#define VMULHIU16 _mm512_mulhi_epu16
#define VMULU32 _mm512_mul_epu32
#include "feature/x86/adm_simd.h"

void FN(ls_adm_dsp_init)(LsAdmDsp *dsp)
{
    dsp->dwt0 = FN(dwt0);
    dsp->dwt123 = FN(dwt123);
    dsp->decouple0 = FN(decouple0);
    dsp->decouple123 = FN(decouple123);
    dsp->csf0 = FN(csf0);
    dsp->csf123 = FN(csf123);
    dsp->cm0 = FN(cm0);
    dsp->cm123 = FN(cm123);
    dsp->den0 = FN(den0);
    dsp->den123 = FN(den123);
}
