/* AVX2 variants of the float VIF DSP units (float_vif_dsp.c holds the references): the units of
 * x86/float_vif_simd.h at eight lanes, and the accumulation, where lane r carries row r's chain
 * over 8x8 blocks transposed (as float_motion's SAD does). */
#include <immintrin.h>

#define VEC __m256
#define HALF __m128
#define VECD __m256d
#define VECI __m256i
#define MASK __m256
#define VLANES 8
#define MAX_ACC 8
#define FN(name) name##_avx2
#define V_ZERO() _mm256_setzero_ps()
#define V_SET1(f) _mm256_set1_ps(f)
#define V_LOADU(p) _mm256_loadu_ps(p)
#define V_STOREU(p, v) _mm256_storeu_ps(p, v)
#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_MUL(a, b) _mm256_mul_ps(a, b)
#define V_DIV(a, b) _mm256_div_ps(a, b)
#define V_LOAD_U8(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p))))
#define V_LOAD_U16(p)                                                                              \
    _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(p))))
#define V_CMP(a, b, pred) _mm256_cmp_ps(a, b, pred)
#define V_KEEP(m, v) _mm256_and_ps(m, v)
#define V_DROP(m, v) _mm256_andnot_ps(m, v)
#define V_SELECT(m, t, f) _mm256_blendv_ps(f, t, m)
#define V_ALL(m) (_mm256_movemask_ps(m) == 0xff)
#define I_FROM_F(v) _mm256_castps_si256(v)
#define F_FROM_I(v) _mm256_castsi256_ps(v)
#define I_SRLI(v, n) _mm256_srli_epi32(v, n)
#define I_AND(a, b) _mm256_and_si256(a, b)
#define I_OR(a, b) _mm256_or_si256(a, b)
#define I_SUB(a, b) _mm256_sub_epi32(a, b)
#define I_SET1(i) _mm256_set1_epi32(i)
#define I_TO_F(v) _mm256_cvtepi32_ps(v)
#define H_LO(v) _mm256_castps256_ps128(v)
#define H_HI(v) _mm256_extractf128_ps(v, 1)
#define H_COMBINE(lo, hi) _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1)
#define D_FROM_H(h) _mm256_cvtps_pd(h)
#define H_FROM_D(d) _mm256_cvtpd_ps(d)
#define D_SET1(d) _mm256_set1_pd(d)
#define D_ADD(a, b) _mm256_add_pd(a, b)
#define D_MUL(a, b) _mm256_mul_pd(a, b)
#define D_DIV(a, b) _mm256_div_pd(a, b)

#include "feature/x86/transpose_avx2.h"
#include "feature/x86/float_vif_simd.h"

/* ---- accumulation ---- */

/* lane r: the running sum of row r of v (eight rows, stride floats apart), left to right */
static ALWAYS_INLINE __m256 row_sums8(const float *v, size_t stride, unsigned w)
{
    __m256 acc = _mm256_setzero_ps();
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        __m256 c[8];
        for (int r = 0; r < 8; r++)
            c[r] = _mm256_loadu_ps(v + r * stride + x);
        ls_transpose8x8_ps(c);
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
