/* The 10-bit packers of core/pack10.h: the C reference and the choice of the fastest. */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/cpu.h"
#include "core/pack10.h"

uint16_t ls_pack10_row_c(uint32_t *dst, const uint16_t *src, size_t n)
{
    uint16_t any = 0;
    for (size_t g = 0; g < n; g += LS_PACK10_GROUP, dst += LS_PACK10_GROUP_WORDS) {
        uint32_t w[LS_PACK10_GROUP_WORDS + 1] = { 0 };
        for (unsigned i = 0; i < LS_PACK10_GROUP; i++) {
            const uint16_t v = src[g + i];
            any |= v;
            const unsigned bit = 10u * i, k = bit >> 5, s = bit & 31u;
            const uint64_t placed = (uint64_t)(v & 1023u) << s;
            w[k] |= (uint32_t)placed;
            w[k + 1] |= (uint32_t)(placed >> 32);
        }
        memcpy(dst, w, 4u * LS_PACK10_GROUP_WORDS);
    }
    return any;
}

LsPack10RowFn ls_pack10_row_fn(void)
{
    const uint64_t f = ls_cpu_usable(0);
    if (f & LS_CPU_FLAG_AVX512VBMI)
        return ls_pack10_row_avx512;
    if (f & LS_CPU_FLAG_AVX2)
        return ls_pack10_row_avx2;
    return ls_pack10_row_c;
}

/* Samples per run packed into the cached staging buffer before it is streamed out: 64 groups,
 * 1280 bytes (a multiple of 128 samples, 160 bytes: whole 16-byte stores). */
enum { STREAM_RUN = 1024, STREAM_BLOCK = 128 };

uint16_t ls_pack10_row_stream(LsPack10RowFn row, uint32_t *dst, const uint16_t *src, size_t n)
{
#if defined(__SSE2__)
    /* Non-temporal stores write whole lines without reading them first: a normal store's read
     * for ownership would add the packed bytes again to the memory traffic that bounds a GPU
     * run's host. The groups (20 bytes) go to a cached buffer, then out 16 bytes at a time from
     * the first 16-byte boundary of dst (a 4-byte aligned dst reaches one within 4 groups); the
     * head and a tail shorter than STREAM_BLOCK samples take normal stores. */
    unsigned char *out = (unsigned char *)dst;
    uint16_t any = 0;
    size_t g = 0;
    while (g < n && ((uintptr_t)out & 15u)) {
        any |= row((uint32_t *)(void *)out, src + g, LS_PACK10_GROUP);
        g += LS_PACK10_GROUP;
        out += 4u * LS_PACK10_GROUP_WORDS;
    }
    _Alignas(64) unsigned char stage[STREAM_RUN / LS_PACK10_GROUP * 4u * LS_PACK10_GROUP_WORDS];
    while (n - g >= STREAM_BLOCK) {
        const size_t run = n - g >= STREAM_RUN ? STREAM_RUN : (n - g) / STREAM_BLOCK * STREAM_BLOCK;
        any |= row((uint32_t *)(void *)stage, src + g, run);
        const size_t bytes = ls_pack10_bytes(run);
        for (size_t b = 0; b < bytes; b += 16)
            _mm_stream_si128((__m128i *)(void *)(out + b),
                             _mm_load_si128((const __m128i *)(const void *)(stage + b)));
        g += run;
        out += bytes;
    }
    if (g < n)
        any |= row((uint32_t *)(void *)out, src + g, n - g);
    /* the streamed lines before whatever hands the picture on (a release orders no NT store) */
    _mm_sfence();
    return any;
#else
    return row(dst, src, n);
#endif
}

int ls_pack10_wanted(void)
{
    const char *v = getenv("LOCKSTEP_CUDA_PACK10");
    return !(v && !strcmp(v, "0"));
}
