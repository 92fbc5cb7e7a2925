/* AVX-512 variants of the CIEDE2000 units: the vector layer of x86/ciede_tmpl.c on eight double
 * lanes (__m512d) and eight float lanes (__m256); masks are __mmask8. Built with
 * -mavx512f/bw/dq/vl (no -mfma, no fused intrinsics). */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "feature/ciede.h"

#define LANES 8
#define FN(name) name##_avx512

typedef __m512d VD;
typedef __m256 VF;
typedef __m512i VI; /* int64 lanes */
typedef __mmask8 MD;
typedef __mmask8 MF;

static inline VD vd(double v) { return _mm512_set1_pd(v); }
static inline VD vd_load(const double *p) { return _mm512_loadu_pd(p); }
static inline void vd_store(double *p, VD v) { _mm512_storeu_pd(p, v); }
static inline VD vd_add(VD a, VD b) { return _mm512_add_pd(a, b); }
static inline VD vd_sub(VD a, VD b) { return _mm512_sub_pd(a, b); }
static inline VD vd_mul(VD a, VD b) { return _mm512_mul_pd(a, b); }
static inline VD vd_div(VD a, VD b) { return _mm512_div_pd(a, b); }
static inline VD vd_sqrt(VD a) { return _mm512_sqrt_pd(a); }
static inline VD vd_min(VD a, VD b) { return _mm512_min_pd(a, b); }
static inline VD vd_max(VD a, VD b) { return _mm512_max_pd(a, b); }
#define ROUND(a, mode) _mm512_roundscale_pd(a, mode | _MM_FROUND_NO_EXC)
static inline VD vd_round(VD a) { return ROUND(a, _MM_FROUND_TO_NEAREST_INT); }
static inline VD vd_floor(VD a) { return ROUND(a, _MM_FROUND_TO_NEG_INF); }
static inline VD vd_trunc(VD a) { return ROUND(a, _MM_FROUND_TO_ZERO); }
static inline VD vd_and(VD a, VD b) { return _mm512_and_pd(a, b); }
static inline VD vd_or(VD a, VD b) { return _mm512_or_pd(a, b); }
static inline VD vd_xor(VD a, VD b) { return _mm512_xor_pd(a, b); }
static inline VD vd_abs(VD a) { return _mm512_andnot_pd(vd(-0.0), a); }
static inline MD vd_gt(VD a, VD b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline MD vd_lt(VD a, VD b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline MD vd_le(VD a, VD b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
static inline MD vd_eq(VD a, VD b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
static inline VD vd_select(MD m, VD if_true, VD if_false)
{
    return _mm512_mask_blend_pd(m, if_false, if_true);
}
static inline MD md_and(MD a, MD b) { return (MD)(a & b); }
static inline MD md_or(MD a, MD b) { return (MD)(a | b); }
static inline int md_bits(MD m) { return m; }

static inline VI vd_bits(VD a) { return _mm512_castpd_si512(a); }
static inline VD vd_from_bits(VI a) { return _mm512_castsi512_pd(a); }
static inline VI vi(long long v) { return _mm512_set1_epi64(v); }
static inline VI vi_add(VI a, VI b) { return _mm512_add_epi64(a, b); }
static inline VI vi_sub(VI a, VI b) { return _mm512_sub_epi64(a, b); }
static inline VI vi_and(VI a, VI b) { return _mm512_and_si512(a, b); }
static inline VI vi_or(VI a, VI b) { return _mm512_or_si512(a, b); }
static inline MD vi_eq(VI a, VI b) { return _mm512_cmpeq_epi64_mask(a, b); }
#define VI_SRL(a, n) _mm512_srli_epi64(a, n)
#define VI_SLL(a, n) _mm512_slli_epi64(a, n)
/* integers below 2^51 in magnitude (exact) */
static inline VI vd_to_vi(VD a) { return _mm512_cvtpd_epi64(a); }
static inline VD vi_to_vd(VI a) { return _mm512_cvtepi64_pd(a); }
/* table[k], k in 0..7: one register */
static inline VD vd_lookup8(const double table[8], VI k)
{
    return _mm512_permutexvar_pd(k, vd_load(table));
}
/* LANES samples of a row from x on (x a multiple of LANES), chroma sub-sampled by ss_x: bytes
 * for 8 bits, else 16-bit words; as int32 lanes */
typedef __m256i VS;
static inline VS vs_load_samples(const void *row, unsigned x, unsigned ss_x, unsigned bpc)
{
    const uint8_t *p = (const uint8_t *)row + (size_t)(x >> ss_x) * (bpc > 8 ? 2 : 1);
    const __m256i pairs = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    uint32_t u32;
    if (bpc == 8) {
        if (ss_x) {
            memcpy(&u32, p, 4);
            return _mm256_permutevar8x32_epi32(
                _mm256_castsi128_si256(_mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)u32))), pairs);
        }
        return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
    }
    if (ss_x)
        return _mm256_permutevar8x32_epi32(
            _mm256_castsi128_si256(_mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)p))), pairs);
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
}
static inline VD vd_from_vs(VS s) { return _mm512_cvtepi32_pd(s); }
/* table[y * 256 + c] per lane, by scalar loads (gathers are slow on some CPUs) */
static inline VD vd_table(const double *table, VS y, VS c)
{
    int32_t i[LANES];
    _mm256_storeu_si256((__m256i *)i, _mm256_or_si256(_mm256_slli_epi32(y, 8), c));
    return _mm512_set_pd(table[i[7]], table[i[6]], table[i[5]], table[i[4]], table[i[3]],
                         table[i[2]], table[i[1]], table[i[0]]);
}

static inline VF vf(float v) { return _mm256_set1_ps(v); }
static inline VF vf_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store(float *p, VF v) { _mm256_storeu_ps(p, v); }
static inline VF vf_add(VF a, VF b) { return _mm256_add_ps(a, b); }
static inline VF vf_sub(VF a, VF b) { return _mm256_sub_ps(a, b); }
static inline VF vf_mul(VF a, VF b) { return _mm256_mul_ps(a, b); }
static inline VF vf_div(VF a, VF b) { return _mm256_div_ps(a, b); }
static inline VF vf_abs(VF a) { return _mm256_andnot_ps(vf(-0.0f), a); }
static inline MF vf_eq(VF a, VF b) { return _mm256_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline MF vf_lt(VF a, VF b) { return _mm256_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline MF vf_le(VF a, VF b) { return _mm256_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline MF vf_same_bits(VF a, VF b)
{
    return _mm256_cmpeq_epi32_mask(_mm256_castps_si256(a), _mm256_castps_si256(b));
}
static inline VF vf_select(MF m, VF if_true, VF if_false)
{
    return _mm256_mask_blend_ps(m, if_false, if_true);
}
static inline MF mf_and(MF a, MF b) { return (MF)(a & b); }
static inline MF mf_or(MF a, MF b) { return (MF)(a | b); }
static inline int mf_bits(MF m) { return m; }

static inline VD vd_from_vf(VF a) { return _mm512_cvtps_pd(a); }
static inline VF vf_from_vd(VD a) { return _mm512_cvtpd_ps(a); } /* rounds to nearest */
static inline MF mf_from_md(MD m) { return m; }
static inline MD md_from_mf(MF m) { return m; }

#include "feature/x86/ciede_tmpl.c"
