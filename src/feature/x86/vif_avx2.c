/* AVX2 variants of the integer VIF DSP units: the template vif_simd.h on 256-bit vectors.
 * Built with -mavx2 only: no FMA. Bit-identical to the C references (tests/test_vif.c). */
#include <immintrin.h>
#include <stdint.h>

#include "feature/vif.h"

#define VI __m256i
#define VD __m256d
#define VH __m128i
#define N16 16
#define N32 8
#define N64 4
#define FN(name) name##_avx2

#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define VZERO _mm256_setzero_si256
#define VSET16 _mm256_set1_epi16
#define VSET32 _mm256_set1_epi32
#define VSET64 _mm256_set1_epi64x
#define VADD32 _mm256_add_epi32
#define VSUB32 _mm256_sub_epi32
#define VADD64 _mm256_add_epi64
#define VSUB64 _mm256_sub_epi64
#define VAND _mm256_and_si256
#define VANDNOT _mm256_andnot_si256
#define VXOR _mm256_xor_si256
#define VMADD _mm256_madd_epi16
#define VUNPLO16 _mm256_unpacklo_epi16
#define VUNPHI16 _mm256_unpackhi_epi16
#define VMULLO16 _mm256_mullo_epi16
#define VMULHIU16 _mm256_mulhi_epu16
#define VMULU32 _mm256_mul_epu32
#define VSRLI32 _mm256_srli_epi32
#define VSLLI32 _mm256_slli_epi32
#define VSRLI64 _mm256_srli_epi64
#define VSLLI64 _mm256_slli_epi64
#define VSRLV32 _mm256_srlv_epi32
#define VSRL32(v, n) _mm256_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSLL32(v, n) _mm256_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VMAX32 _mm256_max_epi32
#define VCMPGT32 _mm256_cmpgt_epi32
#define VTEST_ANY(m) (!_mm256_testz_si256(m, m))
#define VBLENDV(a, b, m) _mm256_blendv_epi8(a, b, m)
#define VBLEND_ODD32(even, odd) _mm256_blend_epi32(even, odd, 0xAA)
#define VLOAD_BYTES(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
/* 64-bit lane order after which unpacklo/unpackhi of two vectors cover columns 0..7 and 8..15 */
#define VPRE_UNPACK(v) _mm256_permute4x64_epi64(v, 0xD8)
/* two vectors of 32-bit values (columns 0..7, 8..15) to 16-bit lanes in column order */
#define VPACK16(a, b) _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8)
#define VPACKUS16(a, b) _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8)
#define VF_FROM_I32 _mm256_cvtepi32_ps
#define VF_BITS _mm256_castps_si256
#define VGATHER32_SCALE2(table, idx)                                                             \
    _mm256_i32gather_epi32((const int *)(const void *)(table), idx, 2)

#define VLO(v) _mm256_castsi256_si128(v)
#define VHI(v) _mm256_extracti128_si256(v, 1)
#define VCOMBINE(lo, hi) _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1)
#define VH_WIDEN64 _mm256_cvtepi32_epi64
#define VH_ZERO _mm_setzero_si128
#define VH_SET32 _mm_set1_epi32
#define VH_ADD32 _mm_add_epi32
#define VH_MAX32 _mm_max_epi32

#define VD_SET1 _mm256_set1_pd
#define VD_ADD _mm256_add_pd
#define VD_SUB _mm256_sub_pd
#define VD_MUL _mm256_mul_pd
#define VD_DIV _mm256_div_pd
#define VD_MIN _mm256_min_pd
#define VD_FROM_I32 _mm256_cvtepi32_pd
#define VD_TRUNC_I32 _mm256_cvttpd_epi32
#define VD_TRUNC(d) _mm256_round_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define VFH __m128
#define VD_TO_F _mm256_cvtpd_ps
#define VD_FROM_BITS _mm256_castsi256_pd
#define VF_COMBINE(lo, hi) _mm256_set_m128(hi, lo)
#define VD_BITS _mm256_castpd_si256

#include "feature/x86/vif_simd.h"
