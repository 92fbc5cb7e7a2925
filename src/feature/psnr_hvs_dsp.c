/* C reference of the psnr_hvs plane-sum unit: the shared per-block functions, block by block in
 * raster order, one float accumulator. SIMD variants must match it bit for bit
 * (tests/test_psnr_hvs.c). */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/psnr_hvs.h"
#include "feature/psnr_hvs_block.h"

static inline float plane_sum_c(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                ptrdiff_t dis_stride, unsigned w, unsigned h, int plane,
                                int bytes_per_sample)
{
    float sum = 0.0f;
    int s[64], d[64];
    float terms[64];
    for (int y = 0; y < (int)h - 7; y += 7) {
        for (int x = 0; x < (int)w - 7; x += 7) {
            ls_psnr_hvs_load_block(s, ref, ref_stride, x, y, bytes_per_sample);
            ls_psnr_hvs_load_block(d, dis, dis_stride, x, y, bytes_per_sample);
            ls_psnr_hvs_block(terms, s, d, plane);
            for (int k = 0; k < 64; k++)
                sum += terms[k];
        }
    }
    return sum;
}

static float plane_sum_8bit_c(const void *ref, ptrdiff_t ref_stride, const void *dis,
                              ptrdiff_t dis_stride, unsigned w, unsigned h, int plane)
{
    return plane_sum_c(ref, ref_stride, dis, dis_stride, w, h, plane, 1);
}

static float plane_sum_16bit_c(const void *ref, ptrdiff_t ref_stride, const void *dis,
                               ptrdiff_t dis_stride, unsigned w, unsigned h, int plane)
{
    return plane_sum_c(ref, ref_stride, dis, dis_stride, w, h, plane, 2);
}

void ls_psnr_hvs_dsp_init(LsPsnrHvsDsp *dsp, uint64_t cpu_flags)
{
    dsp->plane_sum[0] = plane_sum_8bit_c;
    dsp->plane_sum[1] = plane_sum_16bit_c;
#if defined(__x86_64__) || defined(__i386__)
    ls_psnr_hvs_dsp_init_x86(dsp, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
