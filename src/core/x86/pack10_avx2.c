/* AVX2 packer of core/pack10.h, checked against the format by tests/checkasm/pack10.c. */
#include <immintrin.h>

#include "core/pack10.h"

uint16_t ls_pack10_row_avx2(uint32_t *dst, const uint16_t *src, size_t n)
{
    /* pairs s0 + s1 * 2^10 by madd, then pairs of those into 40 bits per 64-bit lane, then the
     * five low bytes of each 64-bit lane together: 10 bytes per 128-bit half */
    const __m256i pair = _mm256_set1_epi32(1 | (1024 << 16));
    const __m256i low20 = _mm256_set1_epi64x(0xfffff);
    const __m256i bytes = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                           0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    __m256i any = _mm256_setzero_si256();
    unsigned char *out = (unsigned char *)dst;
    for (size_t g = 0; g < n; g += LS_PACK10_GROUP, out += 4u * LS_PACK10_GROUP_WORDS) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + g));
        any = _mm256_or_si256(any, v);
        const __m256i p20 = _mm256_madd_epi16(v, pair);
        const __m256i p40 = _mm256_or_si256(_mm256_and_si256(p20, low20),
                                            _mm256_slli_epi64(_mm256_srli_epi64(p20, 32), 20));
        const __m256i c = _mm256_shuffle_epi8(p40, bytes);
        const __m128i c0 = _mm256_castsi256_si128(c), c1 = _mm256_extracti128_si256(c, 1);
        /* bytes 0..15 and 4..19 of the group: two stores that end at its last byte */
        _mm_storeu_si128((__m128i *)(void *)out, _mm_or_si128(c0, _mm_slli_si128(c1, 10)));
        _mm_storeu_si128((__m128i *)(void *)(out + 4),
                         _mm_or_si128(_mm_srli_si128(c0, 4), _mm_slli_si128(c1, 6)));
    }
    __m128i a = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
    a = _mm_or_si128(a, _mm_srli_si128(a, 8));
    a = _mm_or_si128(a, _mm_srli_si128(a, 4));
    a = _mm_or_si128(a, _mm_srli_si128(a, 2));
    return (uint16_t)_mm_cvtsi128_si32(a);
}
