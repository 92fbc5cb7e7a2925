/* SpEED DSP units with AVX2 (8 floats, 4 doubles per vector): x86/speed_simd.h. Built with
 * -mavx2 and without -mfma: every product and sum rounds on its own, as in the C reference. */
#include <immintrin.h>

#include "feature/x86/gather_avx2.h"

#define VLANES 8
#define DLANES 4
#define VEC __m256
#define VECD __m256d
#define VECI __m256i
#define V_SUB(a, b) _mm256_sub_ps(a, b)
#define V_GATHER(base, i) ls_gather_ps_avx2(base, i)
#define I_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define H8_LOADU(p) _mm256_loadu_ps(p)
#define H8_STOREU(p, v) _mm256_storeu_ps(p, v)
#define FN(name) name##_avx2
#define V_ZERO() _mm256_setzero_ps()
#define V_SET1(f) _mm256_set1_ps(f)
#define V_LOADU(p) _mm256_loadu_ps(p)
#define V_STOREU(p, v) _mm256_storeu_ps(p, v)
#define V_ADD(a, b) _mm256_add_ps(a, b)
#define V_MUL(a, b) _mm256_mul_ps(a, b)
#define D_SET1(d) _mm256_set1_pd(d)
#define D_LOADU(p) _mm256_loadu_pd(p)
#define D_STOREU(p, v) _mm256_storeu_pd(p, v)
#define D_ADD(a, b) _mm256_add_pd(a, b)
#define D_SUB(a, b) _mm256_sub_pd(a, b)
#define D_MUL(a, b) _mm256_mul_pd(a, b)
#define D_FROM_F(p) _mm256_cvtps_pd(_mm_loadu_ps(p))

#include "feature/x86/speed_simd.h"
