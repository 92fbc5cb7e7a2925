/* AVX-512 variants of the float VIF DSP units (float_vif_dsp.c holds the references): the units
 * of x86/float_vif_simd.h at sixteen lanes. The accumulation keeps the AVX2 unit: its chains
 * are the strip's eight rows. */
#include <immintrin.h>

#define VEC __m512
#define HALF __m256
#define VECD __m512d
#define VECI __m512i
#define MASK __mmask16
#define VLANES 16
#define MAX_ACC 16
#define FN(name) name##_avx512
#define V_ZERO() _mm512_setzero_ps()
#define V_SET1(f) _mm512_set1_ps(f)
#define V_LOADU(p) _mm512_loadu_ps(p)
#define V_STOREU(p, v) _mm512_storeu_ps(p, v)
#define V_ADD(a, b) _mm512_add_ps(a, b)
#define V_SUB(a, b) _mm512_sub_ps(a, b)
#define V_MUL(a, b) _mm512_mul_ps(a, b)
#define V_DIV(a, b) _mm512_div_ps(a, b)
#define V_LOAD_U8(p) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p))))
#define V_LOAD_U16(p)                                                                              \
    _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p))))
#define V_CMP(a, b, pred) _mm512_cmp_ps_mask(a, b, pred)
#define V_KEEP(m, v) _mm512_maskz_mov_ps(m, v)
#define V_DROP(m, v) _mm512_maskz_mov_ps((__mmask16) ~(m), v)
#define V_SELECT(m, t, f) _mm512_mask_blend_ps(m, f, t)
#define V_ALL(m) ((m) == 0xffff)
#define I_FROM_F(v) _mm512_castps_si512(v)
#define F_FROM_I(v) _mm512_castsi512_ps(v)
#define I_SRLI(v, n) _mm512_srli_epi32(v, n)
#define I_AND(a, b) _mm512_and_si512(a, b)
#define I_OR(a, b) _mm512_or_si512(a, b)
#define I_SUB(a, b) _mm512_sub_epi32(a, b)
#define I_SET1(i) _mm512_set1_epi32(i)
#define I_TO_F(v) _mm512_cvtepi32_ps(v)
#define H_LO(v) _mm512_castps512_ps256(v)
#define H_HI(v) _mm512_extractf32x8_ps(v, 1)
#define H_COMBINE(lo, hi) _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1)
#define D_FROM_H(h) _mm512_cvtps_pd(h)
#define H_FROM_D(d) _mm512_cvtpd_ps(d)
#define D_SET1(d) _mm512_set1_pd(d)
#define D_ADD(a, b) _mm512_add_pd(a, b)
#define D_MUL(a, b) _mm512_mul_pd(a, b)
#define D_DIV(a, b) _mm512_div_pd(a, b)

#include "feature/x86/float_vif_simd.h"
