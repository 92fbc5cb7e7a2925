/* AVX2 SSE of a plane. Integer arithmetic: exact, so lanes may split the sum any way. */
#include <immintrin.h>
#include <stdint.h>

#include "core/cpu.h"
#include "feature/psnr.h"

static inline uint64_t hsum_epi64(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

static uint64_t sse_8bit_avx2(const void *ref, ptrdiff_t ref_stride, const void *dis,
                              ptrdiff_t dis_stride, unsigned w, unsigned h)
{
    uint64_t sse = 0;
    const __m256i zero = _mm256_setzero_si256();
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *r = (const uint8_t *)ref + y * ref_stride;
        const uint8_t *d = (const uint8_t *)dis + y * dis_stride;
        __m256i acc = zero; /* 32-bit lanes: 4 x 255^2 per step, < 2^31 for rows up to 2^17 */
        unsigned x = 0;
        for (; x + 32 <= w; x += 32) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(r + x));
            const __m256i b = _mm256_loadu_si256((const __m256i *)(d + x));
            /* |a - b| in bytes, then widened: the square needs 16 bits */
            const __m256i e = _mm256_or_si256(_mm256_subs_epu8(a, b), _mm256_subs_epu8(b, a));
            const __m256i lo = _mm256_unpacklo_epi8(e, zero), hi = _mm256_unpackhi_epi8(e, zero);
            acc = _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(lo, lo),
                                                         _mm256_madd_epi16(hi, hi)));
        }
        uint64_t row = hsum_epi64(_mm256_add_epi64(_mm256_unpacklo_epi32(acc, zero),
                                                   _mm256_unpackhi_epi32(acc, zero)));
        for (; x < w; x++) {
            const int e = (int)r[x] - (int)d[x];
            row += (uint32_t)(e * e);
        }
        sse += row;
    }
    return sse;
}

/* Up to 15 bits the difference fits int16 and a madd pair (<= 2 * 32767^2) fits int32; 16-bit
 * samples keep the C path. */
static uint64_t sse_hbd_avx2(const void *ref, ptrdiff_t ref_stride, const void *dis,
                               ptrdiff_t dis_stride, unsigned w, unsigned h)
{
    uint64_t sse = 0;
    const __m256i zero = _mm256_setzero_si256();
    for (unsigned y = 0; y < h; y++) {
        const uint16_t *r = (const uint16_t *)((const uint8_t *)ref + y * ref_stride);
        const uint16_t *d = (const uint16_t *)((const uint8_t *)dis + y * dis_stride);
        __m256i acc = zero;
        unsigned x = 0;
        for (; x + 16 <= w; x += 16) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(r + x));
            const __m256i b = _mm256_loadu_si256((const __m256i *)(d + x));
            const __m256i e = _mm256_sub_epi16(a, b);
            const __m256i sq = _mm256_madd_epi16(e, e); 
            acc = _mm256_add_epi64(acc, _mm256_add_epi64(_mm256_unpacklo_epi32(sq, zero),
                                                         _mm256_unpackhi_epi32(sq, zero)));
        }
        uint64_t row = hsum_epi64(acc);
        for (; x < w; x++) {
            const int64_t e = (int64_t)r[x] - (int64_t)d[x];
            row += (uint64_t)(e * e);
        }
        sse += row;
    }
    return sse;
}

void ls_psnr_dsp_init_x86(LsPsnrDsp *dsp, uint64_t cpu_flags)
{
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->sse[LS_PSNR_SSE_8BIT] = sse_8bit_avx2;
    dsp->sse[LS_PSNR_SSE_UP_TO_15BIT] = sse_hbd_avx2;
}
