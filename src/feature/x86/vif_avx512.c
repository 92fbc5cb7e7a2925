/* AVX-512 (F, BW, DQ, VL) variants of the integer VIF DSP units: the template vif_simd.h on
 * 512-bit vectors. No FMA is used. Bit-identical to the C references (tests/test_vif.c). */
#include <immintrin.h>
#include <stdint.h>

#include "feature/vif.h"

#define VI __m512i
#define VD __m512d
#define VH __m256i
#define N16 32
#define N32 16
#define N64 8
/* vif_vnni_avx512.c builds this file again under another suffix */
#ifndef LS_VIF_AVX512_SUFFIX
#define LS_VIF_AVX512_SUFFIX _avx512
#endif
#define FN_CAT(name, suffix) name##suffix
#define FN_EXPAND(name, suffix) FN_CAT(name, suffix)
#define FN(name) FN_EXPAND(name, LS_VIF_AVX512_SUFFIX)

#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VSTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define VZERO _mm512_setzero_si512
#define VSET16 _mm512_set1_epi16
#define VSET32 _mm512_set1_epi32
#define VSET64 _mm512_set1_epi64
#define VADD32 _mm512_add_epi32
#define VSUB32 _mm512_sub_epi32
#define VADD64 _mm512_add_epi64
#define VSUB64 _mm512_sub_epi64
#define VAND _mm512_and_si512
#define VANDNOT _mm512_andnot_si512
#define VXOR _mm512_xor_si512
#define VMADD _mm512_madd_epi16
#define VUNPLO16 _mm512_unpacklo_epi16
#define VUNPHI16 _mm512_unpackhi_epi16
#define VMULLO16 _mm512_mullo_epi16
#define VMULHIU16 _mm512_mulhi_epu16
#define VMULU32 _mm512_mul_epu32
#define VSRLI32 _mm512_srli_epi32
#define VSLLI32 _mm512_slli_epi32
#define VSRLI64 _mm512_srli_epi64
#define VSLLI64 _mm512_slli_epi64
#define VSRLV32 _mm512_srlv_epi32
#define VSRL32(v, n) _mm512_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSLL32(v, n) _mm512_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VMAX32 _mm512_max_epi32
#define VCMPGT32(a, b) _mm512_movm_epi32(_mm512_cmpgt_epi32_mask(a, b))
#define VTEST_ANY(m) (_mm512_test_epi32_mask(m, m) != 0)
#define VBLENDV(a, b, m) _mm512_mask_blend_epi32(_mm512_movepi32_mask(m), a, b)
#define VBLEND_ODD32(even, odd) _mm512_mask_blend_epi32(0xAAAA, even, odd)
#define VLOAD_BYTES(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
/* 64-bit lane order after which unpacklo/unpackhi of two vectors cover columns 0..15, 16..31 */
#define VPRE_UNPACK(v) _mm512_permutexvar_epi64(_mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0), v)
/* two vectors of 32-bit values (columns 0..15, 16..31) to 16-bit lanes in column order */
#define VPACK16(a, b)                                                                            \
    _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), _mm512_packs_epi32(a, b))
#define VPACKUS16(a, b)                                                                          \
    _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), _mm512_packus_epi32(a, b))
#define VF_FROM_I32 _mm512_cvtepi32_ps
#define VF_BITS _mm512_castps_si512
#define VGATHER32_SCALE2(table, idx) _mm512_i32gather_epi32(idx, (const void *)(table), 2)

#define VLO(v) _mm512_castsi512_si256(v)
#define VHI(v) _mm512_extracti64x4_epi64(v, 1)
#define VCOMBINE(lo, hi) _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1)
#define VH_WIDEN64 _mm512_cvtepi32_epi64
#define VH_ZERO _mm256_setzero_si256
#define VH_SET32 _mm256_set1_epi32
#define VH_ADD32 _mm256_add_epi32
#define VH_MAX32 _mm256_max_epi32

#define VD_SET1 _mm512_set1_pd
#define VD_ADD _mm512_add_pd
#define VD_SUB _mm512_sub_pd
#define VD_MUL _mm512_mul_pd
#define VD_DIV _mm512_div_pd
#define VD_MIN _mm512_min_pd
#define VD_FROM_I32 _mm512_cvtepi32_pd
#define VD_TRUNC_I32 _mm512_cvttpd_epi32
#define VD_TRUNC(d) _mm512_roundscale_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define VFH __m256
#define VD_TO_F _mm512_cvtpd_ps
#define VD_FROM_BITS _mm512_castsi512_pd
#define VF_COMBINE(lo, hi) _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1)
#define VD_BITS _mm512_castpd_si512

#include "feature/x86/vif_simd.h"
