/* AVX-512 (F, BW, DQ, VL) variants of the integer VIF DSP units: the template vif_simd.h on
 * 512-bit vectors. No FMA is used. Bit-identical to the C references (tests/test_vif.c). */
#include <immintrin.h>
#include <stdbool.h>
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
#define VIOTA32() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define VADD32 _mm512_add_epi32
#define VSUB32 _mm512_sub_epi32
#define VADD64 _mm512_add_epi64
#define VAND _mm512_and_si512
#define VXOR _mm512_xor_si512
#define VMADD _mm512_madd_epi16
#define VUNPLO16 _mm512_unpacklo_epi16
#define VUNPHI16 _mm512_unpackhi_epi16
#define VMULLO16 _mm512_mullo_epi16
#define VMULHIU16 _mm512_mulhi_epu16
#define VMULU32 _mm512_mul_epu32
#define VSRLI32 _mm512_srli_epi32
#define VSLLI32 _mm512_slli_epi32
#define VSRAI32 _mm512_srai_epi32
#define VSRLI64 _mm512_srli_epi64
#define VSRL32(v, n) _mm512_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSLL32(v, n) _mm512_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSRA32(v, n) _mm512_sra_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VMAX32 _mm512_max_epi32
#define VBLEND_ODD32(even, odd) _mm512_mask_blend_epi32(0xAAAA, even, odd)
#define VLOAD_BYTES(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
/* packs within 128-bit lanes: after unpacklo/unpackhi of two rows, the sums of the low and high
 * halves pack back to column order */
#define VPACKS32 _mm512_packs_epi32
#define VPACKUS32 _mm512_packus_epi32
/* two vectors of 32-bit values (columns 0..15, 16..31) to 16-bit lanes in column order */
#define VPACKUS16(a, b)                                                                          \
    _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), _mm512_packus_epi32(a, b))
/* the odd (high) 32-bit lanes of a and b (in a lane order of its own) */
#define VSHUF_ODD32(a, b)                                                                        \
    _mm512_castps_si512(                                                                         \
        _mm512_shuffle_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), 0xDD))
#define VGATHER32_SCALE2(table, idx) _mm512_i32gather_epi32(idx, (const void *)(table), 2)

#define VH_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VH_ZERO _mm256_setzero_si256
#define VH_MAX32 _mm256_max_epi32

#define VD_SET1 _mm512_set1_pd
#define VD_ADD _mm512_add_pd
#define VD_SUB _mm512_sub_pd
#define VD_MUL _mm512_mul_pd
#define VD_DIV _mm512_div_pd
#define VD_MIN _mm512_min_pd
#define VD_MAX _mm512_max_pd
#define VD_FROM_I32 _mm512_cvtepi32_pd
#define VD_TRUNC_I32 _mm512_cvttpd_epi32
#define VD_TRUNC(d) _mm512_roundscale_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define VD_BITS _mm512_castpd_si512

/* lane masks */
#define VM __mmask16
#define VM_GT32 _mm512_cmpgt_epi32_mask
#define VM_AND(a, b) ((__mmask16)((a) & (b)))
#define VM_ANDNOT(a, b) ((__mmask16)(~(a) & (b)))
#define VM_ANY(m) ((m) != 0)
#define VM_FULL(m) ((m) == (__mmask16)0xffff) /* every lane */
#define VM_POPCNT(m) ((unsigned)__builtin_popcount((unsigned)(m)))
#define VM_ADD32(acc, m, v) _mm512_mask_add_epi32(acc, m, acc, v)
#define VM_ZERO_OFF(v, m) _mm512_maskz_mov_epi32(m, v) /* 0 outside m */
#define VM_BLEND32(a, b, m) _mm512_mask_blend_epi32(m, a, b)
#define VCP __mmask16
#define VCP_MAKE(m) (m)
#define VCOMPRESS(cp, v) _mm512_maskz_compress_epi32(cp, v)

#include "feature/x86/vif_simd.h"
