/* SpEED DSP units with AVX-512 (16 floats, 8 doubles per vector): x86/speed_simd.h. The
 * intrinsics used have no fused forms: every product and sum rounds on its own. */
#include <immintrin.h>

#define VLANES 16
#define DLANES 8
#define VEC __m512
#define VECD __m512d
#define VECI __m512i
#define V_SUB(a, b) _mm512_sub_ps(a, b)
#define V_GATHER(base, i) _mm512_i32gather_ps(i, base, 4)
#define I_LOADU(p) _mm512_loadu_si512(p)
#define H8_LOADU(p) _mm256_loadu_ps(p)
#define H8_STOREU(p, v) _mm256_storeu_ps(p, v)
#define FN(name) name##_avx512
#define V_ZERO() _mm512_setzero_ps()
#define V_SET1(f) _mm512_set1_ps(f)
#define V_LOADU(p) _mm512_loadu_ps(p)
#define V_STOREU(p, v) _mm512_storeu_ps(p, v)
#define V_ADD(a, b) _mm512_add_ps(a, b)
#define V_MUL(a, b) _mm512_mul_ps(a, b)
#define D_SET1(d) _mm512_set1_pd(d)
#define D_LOADU(p) _mm512_loadu_pd(p)
#define D_STOREU(p, v) _mm512_storeu_pd(p, v)
#define D_ADD(a, b) _mm512_add_pd(a, b)
#define D_SUB(a, b) _mm512_sub_pd(a, b)
#define D_MUL(a, b) _mm512_mul_pd(a, b)
#define D_FROM_F(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))

#include "feature/x86/speed_simd.h"
