/* AVX-512 (F, BW, DQ, VL) variant of the integer motion SAD: the template motion_int_simd.h on
 * 512-bit vectors. Bit-identical to the C reference (tests/test_motion.c). */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/motion.h"

#define VI __m512i
#define N16 32
/* motion_vnni_avx512.c builds this file again under another suffix */
#ifndef LS_MOTION_AVX512_SUFFIX
#define LS_MOTION_AVX512_SUFFIX _avx512
#endif
#define MI_CAT(name, suffix) name##suffix
#define MI_EXPAND(name, suffix) MI_CAT(name, suffix)
#define MI_FN(name) MI_EXPAND(name, LS_MOTION_AVX512_SUFFIX)
#define VSET32 _mm512_set1_epi32
#define VZERO _mm512_setzero_si512
#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VSTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define VLOAD_BYTES(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define VSUB16 _mm512_sub_epi16
#define VADD16 _mm512_add_epi16
#define VSET16 _mm512_set1_epi16
#define VUNPLO16 _mm512_unpacklo_epi16
#define VUNPHI16 _mm512_unpackhi_epi16
#define VMADD _mm512_madd_epi16
#define VADD32 _mm512_add_epi32
#define VSRA32 _mm512_sra_epi32
#define VSRAI32 _mm512_srai_epi32
#define VPACKS32 _mm512_packs_epi32
#define VAND _mm512_and_si512
#define VOR _mm512_or_si512
#define VABS32 _mm512_abs_epi32
#define VANY(v) (_mm512_test_epi32_mask(v, v) != 0)
#define VHSUM32(v) ((uint32_t)_mm512_reduce_add_epi32(v))

#include "feature/x86/motion_int_simd.h"
