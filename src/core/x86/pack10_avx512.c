/* AVX-512 packer of core/pack10.h (F, BW and VBMI's byte permute), checked against the format
 * by tests/checkasm/pack10.c. Two groups a vector: a third of the AVX2 packer's instructions. */
#include <immintrin.h>

#include "core/pack10.h"

uint16_t ls_pack10_row_avx512(uint32_t *dst, const uint16_t *src, size_t n)
{
    /* pairs s0 + s1 * 2^10 by madd, pairs of those into 40 bits per 64-bit lane, then the five
     * low bytes of each 64-bit lane together: the 40 bytes of two groups */
    const __m512i pair = _mm512_set1_epi32(1 | (1024 << 16));
    const __m512i low20 = _mm512_set1_epi64(0xfffff);
    uint8_t order[64];
    for (unsigned j = 0; j < 64; j++)
        order[j] = (uint8_t)(j < 40 ? 8 * (j / 5) + j % 5 : 0);
    const __m512i bytes = _mm512_loadu_si512(order);
    __m512i any = _mm512_setzero_si512();
    unsigned char *out = (unsigned char *)dst;
    size_t g = 0;
    for (; g + 2 * LS_PACK10_GROUP <= n; g += 2 * LS_PACK10_GROUP, out += 40) {
        const __m512i v = _mm512_loadu_si512(src + g);
        any = _mm512_or_si512(any, v);
        const __m512i p20 = _mm512_madd_epi16(v, pair);
        const __m512i p40 = _mm512_or_si512(_mm512_and_si512(p20, low20),
                                            _mm512_slli_epi64(_mm512_srli_epi64(p20, 32), 20));
        _mm512_mask_storeu_epi8(out, 0xffffffffffull, _mm512_permutexvar_epi8(bytes, p40));
    }
    uint16_t rest = 0;
    if (g < n) /* one group left */
        rest = ls_pack10_row_avx2((uint32_t *)(void *)out, src + g, n - g);
    __m256i a = _mm256_or_si256(_mm512_castsi512_si256(any), _mm512_extracti64x4_epi64(any, 1));
    __m128i b = _mm_or_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    b = _mm_or_si128(b, _mm_srli_si128(b, 8));
    b = _mm_or_si128(b, _mm_srli_si128(b, 4));
    b = _mm_or_si128(b, _mm_srli_si128(b, 2));
    return (uint16_t)(_mm_cvtsi128_si32(b) | rest);
}
