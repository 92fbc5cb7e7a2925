#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "core/cpu.h"
#include "feature/psnr.h"

/* Fills a w x h plane of `bytes`-sized samples: random in [0, max], all 0, all max, or
 * alternating 0/max against the other plane's max/0 (largest differences). */
static void fill(uint8_t *p, ptrdiff_t stride, unsigned w, unsigned h, unsigned bytes,
                 unsigned max, int mode, int invert)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v;
            switch (mode) {
            case 0: v = checkasm_rand() % (max + 1); break;
            case 1: v = 0; break;
            case 2: v = max; break;
            default: v = ((x + y) & 1) ^ invert ? max : 0; break;
            }
            if (bytes == 1)
                p[y * stride + x] = (uint8_t)v;
            else
                ((uint16_t *)(p + y * stride))[x] = (uint16_t)v;
        }
}

void checkasm_check_psnr(void)
{
    LsPsnrDsp ref, simd;
    ls_psnr_dsp_init(&ref, 0);
    ls_psnr_dsp_init(&simd, ls_cpu_detect());
    static const unsigned depths[] = { 8, 10, 12, 15, 16 };
    static const unsigned sizes[][2] = { { 1, 1 }, { 15, 3 }, { 16, 2 }, { 17, 5 }, { 33, 7 },
                                         { 576, 4 }, { 1923, 3 } };
    for (unsigned d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        const unsigned bpc = depths[d], bytes = bpc > 8 ? 2 : 1, max = (1u << bpc) - 1;
        const enum LsPsnrSseKind kind = ls_psnr_sse_kind(bpc);
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const unsigned w = sizes[s][0], h = sizes[s][1];
            const ptrdiff_t stride = (ptrdiff_t)(((w + 31) & ~31u) * bytes);
            uint8_t *a = calloc((size_t)stride * h + 64, 1), *b = calloc((size_t)stride * h + 64, 1);
            for (int mode = 0; mode < 4; mode++) {
                fill(a, stride, w, h, bytes, max, mode, 0);
                fill(b, stride, w, h, bytes, max, mode == 1 ? 2 : mode == 2 ? 1 : mode, 1);
                const uint64_t r = ref.sse[kind](a, stride, b, stride, w, h);
                const uint64_t n = simd.sse[kind](a, stride, b, stride, w, h);
                checkasm_check(r == n, "psnr_sse", "bpc %u, %ux%u, fill %d: C %llu, SIMD %llu", bpc,
                               w, h, mode, (unsigned long long)r, (unsigned long long)n);
            }
            free(a);
            free(b);
        }
    }
    if (checkasm_bench_enabled()) {
        const unsigned w = 1920, h = 1080;
        uint8_t *a = malloc(w * h), *b = malloc(w * h);
        fill(a, w, w, h, 1, 255, 0, 0);
        fill(b, w, w, h, 1, 255, 0, 0);
        const LsPsnrDsp *v[2] = { &ref, &simd };
        for (int i = 0; i < 2; i++) {
            const double t0 = checkasm_seconds();
            volatile uint64_t sink = 0;
            for (int k = 0; k < 50; k++)
                sink += v[i]->sse[LS_PSNR_SSE_8BIT](a, w, b, w, w, h);
            printf("  bench psnr_sse 8-bit 1920x1080 %s: %.3f ms\n", i ? "simd" : "c",
                   (checkasm_seconds() - t0) / 50 * 1e3);
        }
        free(a);
        free(b);
    }
}
