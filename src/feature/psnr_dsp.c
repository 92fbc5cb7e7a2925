/* C reference of the psnr SSE unit. Integer sums are exact, so SIMD variants may split and
 * reorder freely and must still match this bit for bit (tests/checkasm). */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/psnr.h"

static uint64_t sse_8bit_c(const void *ref, ptrdiff_t ref_stride, const void *dis,
                           ptrdiff_t dis_stride, unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *r = (const uint8_t *)ref + y * ref_stride;
        const uint8_t *d = (const uint8_t *)dis + y * dis_stride;
        uint64_t row = 0;
        for (unsigned x = 0; x < w; x++) {
            const int e = (int)r[x] - (int)d[x];
            row += (uint32_t)(e * e);
        }
        sse += row;
    }
    return sse;
}

static uint64_t sse_16bit_c(const void *ref, ptrdiff_t ref_stride, const void *dis,
                            ptrdiff_t dis_stride, unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint16_t *r = (const uint16_t *)((const uint8_t *)ref + y * ref_stride);
        const uint16_t *d = (const uint16_t *)((const uint8_t *)dis + y * dis_stride);
        for (unsigned x = 0; x < w; x++) {
            const int64_t e = (int64_t)r[x] - (int64_t)d[x];
            sse += (uint64_t)(e * e);
        }
    }
    return sse;
}

void ls_psnr_dsp_init(LsPsnrDsp *dsp, uint64_t cpu_flags)
{
    dsp->sse[LS_PSNR_SSE_8BIT] = sse_8bit_c;
    dsp->sse[LS_PSNR_SSE_UP_TO_15BIT] = sse_16bit_c;
    dsp->sse[LS_PSNR_SSE_16BIT] = sse_16bit_c;
#if defined(__x86_64__) || defined(__i386__)
    ls_psnr_dsp_init_x86(dsp, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
