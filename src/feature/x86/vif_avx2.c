/* AVX2 variants of the integer VIF DSP units: the template vif_simd.h on 256-bit vectors.
 * Built with -mavx2 only: no FMA. Bit-identical to the C references (tests/test_vif.c). */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/vif.h"
#include "feature/x86/gather_avx2.h"

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
#define VIOTA32() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define VADD32 _mm256_add_epi32
#define VSUB32 _mm256_sub_epi32
#define VADD64 _mm256_add_epi64
#define VAND _mm256_and_si256
#define VXOR _mm256_xor_si256
#define VMADD _mm256_madd_epi16
/* acc + madd(a, b) kept a chain: GCC's reassociation would otherwise turn each run of them into
 * a tree whose products are all live at once, which spills on 16 registers (on AMD's Zen, with
 * its 128-bit store path, the spills took most of the statistics' time) */
static inline __m256i vdpadd_chain(__m256i acc, __m256i a, __m256i b)
{
    __m256i r = _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
    __asm__("" : "+x"(r));
    return r;
}
#define VDPADD vdpadd_chain
/* the log2 table terms of a batch summed from scalar loads (VTABLE_SUM: the sum of the entries
 * at eight lanes' indices): AVX2 gathers are slow where AVX-512 is missing (microcoded on AMD's
 * Zen; on Haswell too), and only the sums are needed */
#define VIF_TABLE_SCALAR 1
#define VTABLE_SUM ls_table_sum_u16_avx2
#define VUNPLO16 _mm256_unpacklo_epi16
#define VUNPHI16 _mm256_unpackhi_epi16
#define VMULLO16 _mm256_mullo_epi16
#define VMULHIU16 _mm256_mulhi_epu16
#define VMULU32 _mm256_mul_epu32
#define VSRLI32 _mm256_srli_epi32
#define VSLLI32 _mm256_slli_epi32
#define VSRAI32 _mm256_srai_epi32
#define VSRLI64 _mm256_srli_epi64
#define VSRL32(v, n) _mm256_srl_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSLL32(v, n) _mm256_sll_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VSRA32(v, n) _mm256_sra_epi32(v, _mm_cvtsi32_si128((int)(n)))
#define VMAX32 _mm256_max_epi32
#define VBLEND_ODD32(even, odd) _mm256_blend_epi32(even, odd, 0xAA)
#define VLOAD_BYTES(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
/* packs within 128-bit lanes: after unpacklo/unpackhi of two rows, the sums of the low and high
 * halves pack back to column order */
#define VPACKS32 _mm256_packs_epi32
#define VPACKUS32 _mm256_packus_epi32
/* two vectors of 32-bit values (columns 0..7, 8..15) to 16-bit lanes in column order */
#define VPACKUS16(a, b) _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8)
/* the odd (high) 32-bit lanes of a and b (in a lane order of its own) */
#define VSHUF_ODD32(a, b)                                                                        \
    _mm256_castps_si256(                                                                         \
        _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0xDD))

#define VH_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define VH_ZERO _mm_setzero_si128
#define VH_MAX32 _mm_max_epi32

#define VD_SET1 _mm256_set1_pd
#define VD_ADD _mm256_add_pd
#define VD_SUB _mm256_sub_pd
#define VD_MUL _mm256_mul_pd
#define VD_DIV _mm256_div_pd
#define VD_MIN _mm256_min_pd
#define VD_MAX _mm256_max_pd
#define VD_FROM_I32 _mm256_cvtepi32_pd
#define VD_TRUNC_I32 _mm256_cvttpd_epi32
#define VD_TRUNC(d) _mm256_round_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define VD_BITS _mm256_castpd_si256

/* lane masks: vectors of all-ones lanes */
#define VM __m256i
#define VM_GT32 _mm256_cmpgt_epi32
#define VM_AND _mm256_and_si256
#define VM_ANDNOT _mm256_andnot_si256 /* ~a & b */
#define VM_ANY(m) (!_mm256_testz_si256(m, m))
#define VM_FULL(m) (_mm256_movemask_ps(_mm256_castsi256_ps(m)) == 0xff) /* every lane */
#define VM_POPCNT(m)                                                                             \
    ((unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m))))
#define VM_ADD32(acc, m, v) _mm256_add_epi32(acc, _mm256_and_si256(m, v))
#define VM_ZERO_OFF(v, m) _mm256_and_si256(v, m) /* 0 outside m */
#define VM_BLEND32(a, b, m) _mm256_blendv_epi8(a, b, m)

/* Packing the lanes of a mask to the front: for each 8-bit mask the lane indices of its set
 * bits in order, 4 bits each. */
#define BIT_(m, i) (((m) >> (i)) & 1u)
#define BELOW_(m, i) ((i) > 0 ? BIT_(m, 0) : 0u) + ((i) > 1 ? BIT_(m, 1) : 0u) +                    \
    ((i) > 2 ? BIT_(m, 2) : 0u) + ((i) > 3 ? BIT_(m, 3) : 0u) + ((i) > 4 ? BIT_(m, 4) : 0u) +     \
    ((i) > 5 ? BIT_(m, 5) : 0u) + ((i) > 6 ? BIT_(m, 6) : 0u)
#define LANE_(m, i) (BIT_(m, i) ? (unsigned)(i) << (4 * (BELOW_(m, i))) : 0u)
#define ORDER_(m)                                                                                \
    (LANE_(m, 0) | LANE_(m, 1) | LANE_(m, 2) | LANE_(m, 3) | LANE_(m, 4) | LANE_(m, 5) |         \
     LANE_(m, 6) | LANE_(m, 7))
#define ORDER4_(m) ORDER_(m), ORDER_((m) + 1), ORDER_((m) + 2), ORDER_((m) + 3)
#define ORDER16_(m) ORDER4_(m), ORDER4_((m) + 4), ORDER4_((m) + 8), ORDER4_((m) + 12)
#define ORDER64_(m) ORDER16_(m), ORDER16_((m) + 16), ORDER16_((m) + 32), ORDER16_((m) + 48)
static const uint32_t compress_order[256] = { ORDER64_(0u), ORDER64_(64u), ORDER64_(128u),
                                              ORDER64_(192u) };

static inline __m256i compress_index(__m256i m)
{
    const unsigned bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m));
    const __m256i order = _mm256_set1_epi32((int32_t)compress_order[bits]);
    return _mm256_and_si256(_mm256_srlv_epi32(order, _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28)),
                            _mm256_set1_epi32(7));
}
#define VCP __m256i
#define VCP_MAKE(m) compress_index(m)
#define VCOMPRESS(cp, v) _mm256_permutevar8x32_epi32(v, cp)

#include "feature/x86/vif_simd.h"
