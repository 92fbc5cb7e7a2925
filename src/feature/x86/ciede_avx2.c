/* AVX2 variants of the CIEDE2000 units: the vector layer of x86/ciede_tmpl.c on four double
 * lanes (__m256d) and four float lanes (__m128); masks are vectors. Built with -mavx2 only. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "feature/ciede.h"

#define LANES 4
#ifdef LS_CIEDE_MUTANT /* tests/ciede.cmake: a deliberately inaccurate copy the tests must catch */
#define FN(name) name##_mutant
#else
#define FN(name) name##_avx2
#endif

typedef __m256d VD;
typedef __m128 VF;
typedef __m256i VI; /* int64 lanes */
typedef __m256d MD; /* all-ones lanes */
typedef __m128 MF;

static inline VD vd(double v) { return _mm256_set1_pd(v); }
static inline VD vd_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void vd_store(double *p, VD v) { _mm256_storeu_pd(p, v); }
static inline VD vd_add(VD a, VD b) { return _mm256_add_pd(a, b); }
static inline VD vd_sub(VD a, VD b) { return _mm256_sub_pd(a, b); }
static inline VD vd_mul(VD a, VD b) { return _mm256_mul_pd(a, b); }
static inline VD vd_div(VD a, VD b) { return _mm256_div_pd(a, b); }
static inline VD vd_sqrt(VD a) { return _mm256_sqrt_pd(a); }
static inline VD vd_min(VD a, VD b) { return _mm256_min_pd(a, b); }
static inline VD vd_max(VD a, VD b) { return _mm256_max_pd(a, b); }
#define ROUND(a, mode) _mm256_round_pd(a, mode | _MM_FROUND_NO_EXC)
static inline VD vd_round(VD a) { return ROUND(a, _MM_FROUND_TO_NEAREST_INT); }
static inline VD vd_floor(VD a) { return ROUND(a, _MM_FROUND_TO_NEG_INF); }
static inline VD vd_trunc(VD a) { return ROUND(a, _MM_FROUND_TO_ZERO); }
static inline VD vd_and(VD a, VD b) { return _mm256_and_pd(a, b); }
static inline VD vd_or(VD a, VD b) { return _mm256_or_pd(a, b); }
static inline VD vd_xor(VD a, VD b) { return _mm256_xor_pd(a, b); }
static inline VD vd_abs(VD a) { return _mm256_andnot_pd(vd(-0.0), a); }
static inline MD vd_gt(VD a, VD b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline MD vd_lt(VD a, VD b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline MD vd_le(VD a, VD b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
static inline MD vd_eq(VD a, VD b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
static inline VD vd_select(MD m, VD if_true, VD if_false)
{
    return _mm256_blendv_pd(if_false, if_true, m);
}
static inline MD md_and(MD a, MD b) { return _mm256_and_pd(a, b); }
static inline MD md_or(MD a, MD b) { return _mm256_or_pd(a, b); }
static inline int md_bits(MD m) { return _mm256_movemask_pd(m); }

static inline VI vd_bits(VD a) { return _mm256_castpd_si256(a); }
static inline VD vd_from_bits(VI a) { return _mm256_castsi256_pd(a); }
static inline VI vi(long long v) { return _mm256_set1_epi64x(v); }
static inline VI vi_add(VI a, VI b) { return _mm256_add_epi64(a, b); }
static inline VI vi_sub(VI a, VI b) { return _mm256_sub_epi64(a, b); }
static inline VI vi_and(VI a, VI b) { return _mm256_and_si256(a, b); }
static inline VI vi_or(VI a, VI b) { return _mm256_or_si256(a, b); }
static inline MD vi_eq(VI a, VI b) { return _mm256_castsi256_pd(_mm256_cmpeq_epi64(a, b)); }
#define VI_SRL(a, n) _mm256_srli_epi64(a, n)
#define VI_SLL(a, n) _mm256_slli_epi64(a, n)
/* integers below 2^51 in magnitude, through 2^52 + 2^51 (two's complement also below 0) */
static inline VI vd_to_vi(VD a)
{
    return vi_sub(vd_bits(vd_add(a, vd(0x1.8p52))), vd_bits(vd(0x1.8p52)));
}
static inline VD vi_to_vd(VI a)
{
    return vd_sub(vd_from_bits(vi_add(a, vd_bits(vd(0x1.8p52)))), vd(0x1.8p52));
}
/* table[k], k in 0..7, from two registers (gathers are slow on some CPUs) */
static inline VD vd_lookup8(const double table[8], VI k)
{
    const VI pair = _mm256_slli_epi64(_mm256_and_si256(k, vi(3)), 1);
    const VI idx = _mm256_or_si256(pair, _mm256_slli_epi64(_mm256_add_epi64(pair, vi(1)), 32));
    const VD lo = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(vd_load(table)), idx));
    const VD hi =
        _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(vd_load(table + 4)), idx));
    return _mm256_blendv_pd(lo, hi, _mm256_castsi256_pd(_mm256_cmpgt_epi64(k, vi(3))));
}
/* LANES samples of a row from x on (x a multiple of LANES), chroma sub-sampled by ss_x: bytes
 * for 8 bits, else 16-bit words; as int32 lanes */
typedef __m128i VS;
static inline VS vs_load_samples(const void *row, unsigned x, unsigned ss_x, unsigned bpc)
{
    const uint8_t *p = (const uint8_t *)row + (size_t)(x >> ss_x) * (bpc > 8 ? 2 : 1);
    uint32_t u32;
    uint64_t u64;
    if (bpc == 8) {
        if (ss_x) {
            uint16_t u16;
            memcpy(&u16, p, 2);
            return _mm_shuffle_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(u16)), 0x50);
        }
        memcpy(&u32, p, 4);
        return _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)u32));
    }
    if (ss_x) {
        memcpy(&u32, p, 4);
        return _mm_shuffle_epi32(_mm_cvtepu16_epi32(_mm_cvtsi32_si128((int)u32)), 0x50);
    }
    memcpy(&u64, p, 8);
    return _mm_cvtepu16_epi32(_mm_cvtsi64_si128((long long)u64));
}
static inline VD vd_from_vs(VS s) { return _mm256_cvtepi32_pd(s); }
/* table[y * 256 + c] per lane, by scalar loads (gathers are slow on some CPUs) */
static inline VD vd_table(const double *table, VS y, VS c)
{
    const VS i = _mm_or_si128(_mm_slli_epi32(y, 8), c);
    return _mm256_set_pd(table[_mm_extract_epi32(i, 3)], table[_mm_extract_epi32(i, 2)],
                         table[_mm_extract_epi32(i, 1)], table[_mm_cvtsi128_si32(i)]);
}

static inline VF vf(float v) { return _mm_set1_ps(v); }
static inline VF vf_load(const float *p) { return _mm_loadu_ps(p); }
static inline void vf_store(float *p, VF v) { _mm_storeu_ps(p, v); }
static inline VF vf_add(VF a, VF b) { return _mm_add_ps(a, b); }
static inline VF vf_sub(VF a, VF b) { return _mm_sub_ps(a, b); }
static inline VF vf_mul(VF a, VF b) { return _mm_mul_ps(a, b); }
static inline VF vf_div(VF a, VF b) { return _mm_div_ps(a, b); }
static inline VF vf_abs(VF a) { return _mm_andnot_ps(vf(-0.0f), a); }
static inline MF vf_eq(VF a, VF b) { return _mm_cmpeq_ps(a, b); }
static inline MF vf_lt(VF a, VF b) { return _mm_cmplt_ps(a, b); }
static inline MF vf_le(VF a, VF b) { return _mm_cmple_ps(a, b); }
static inline MF vf_same_bits(VF a, VF b)
{
    return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(a), _mm_castps_si128(b)));
}
static inline VF vf_select(MF m, VF if_true, VF if_false)
{
    return _mm_blendv_ps(if_false, if_true, m);
}
static inline MF mf_and(MF a, MF b) { return _mm_and_ps(a, b); }
static inline MF mf_or(MF a, MF b) { return _mm_or_ps(a, b); }
static inline int mf_bits(MF m) { return _mm_movemask_ps(m); }

static inline VD vd_from_vf(VF a) { return _mm256_cvtps_pd(a); }
static inline VF vf_from_vd(VD a) { return _mm256_cvtpd_ps(a); } /* rounds to nearest */
static inline MF mf_from_md(MD m)
{
    return _mm_castsi128_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        _mm256_castpd_si256(m), _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))));
}
static inline MD md_from_mf(MF m)
{
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_castps_si128(m)));
}

#include "feature/x86/ciede_tmpl.c"
