/* Integer VIF DSP units, C reference (vif.md §4, §5), and the init that lets the x86 variants
 * replace them. The arithmetic of each pixel is the shared header's; these loops only apply the
 * separable filters with the reference's integer widths. */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/vif.h"

const uint16_t ls_vif_log2_table[32768] = LS_VIF_LOG2_TABLE_INIT;

/* reflect-101 padding of R entries on both sides of an array of w */
#define PAD(a, w, r)                                                                             \
    do {                                                                                         \
        for (int m_ = 1; m_ <= (int)(r); m_++) {                                                 \
            (a)[-m_] = (a)[m_];                                                                  \
            (a)[(int)(w)-1 + m_] = (a)[(int)(w)-1 - m_];                                         \
        }                                                                                        \
    } while (0)

void ls_vif_sigmas_c(const void *const ref_rows[LS_VIF_MAX_TAPS],
                     const void *const dis_rows[LS_VIF_MAX_TAPS], unsigned w,
                     const LsVifLevel *level, int32_t *sigma1_sq, int32_t *sigma2_sq,
                     int32_t *sigma12, void *tmp)
{
    const unsigned width = ls_vif_width(level->scale), r = ls_vif_radius(level->scale);
    const uint16_t *f = ls_vif_taps[level->scale];
    const size_t n = (size_t)w + 2 * r;
    uint32_t *mu1 = (uint32_t *)tmp + r, *mu2 = mu1 + n, *xx = mu2 + n, *yy = xx + n, *xy = yy + n;

    for (unsigned j = 0; j < w; j++) {
        if (level->bytes) {
            /* 8-bit scale 0: every sum fits 32 bits (65536 * 255^2 < 2^32), moments unshifted */
            uint32_t ax = 0, ay = 0, axx = 0, ayy = 0, axy = 0;
            for (unsigned k = 0; k < width; k++) {
                const uint32_t x = ((const uint8_t *)ref_rows[k])[j];
                const uint32_t y = ((const uint8_t *)dis_rows[k])[j];
                const uint32_t fx = f[k] * x, fy = f[k] * y;
                ax += fx;
                ay += fy;
                axx += fx * x;
                ayy += fy * y;
                axy += fx * y;
            }
            mu1[j] = (ax + level->mu_round) >> level->mu_shift;
            mu2[j] = (ay + level->mu_round) >> level->mu_shift;
            xx[j] = axx;
            yy[j] = ayy;
            xy[j] = axy;
        } else {
            uint32_t ax = 0, ay = 0;
            uint64_t axx = 0, ayy = 0, axy = 0;
            for (unsigned k = 0; k < width; k++) {
                const uint32_t x = ((const uint16_t *)ref_rows[k])[j];
                const uint32_t y = ((const uint16_t *)dis_rows[k])[j];
                const uint32_t fx = f[k] * x, fy = f[k] * y;
                ax += fx;
                ay += fy;
                axx += (uint64_t)fx * x;
                ayy += (uint64_t)fy * y;
                axy += (uint64_t)fx * y;
            }
            mu1[j] = (ax + level->mu_round) >> level->mu_shift;
            mu2[j] = (ay + level->mu_round) >> level->mu_shift;
            xx[j] = (uint32_t)((axx + level->sq_round) >> level->sq_shift);
            yy[j] = (uint32_t)((ayy + level->sq_round) >> level->sq_shift);
            xy[j] = (uint32_t)((axy + level->sq_round) >> level->sq_shift);
        }
    }
    PAD(mu1, w, r);
    PAD(mu2, w, r);
    PAD(xx, w, r);
    PAD(yy, w, r);
    PAD(xy, w, r);

    for (unsigned j = 0; j < w; j++) {
        uint32_t mx = 0, my = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
        for (unsigned k = 0; k < width; k++) {
            const int c = (int)j - (int)r + (int)k;
            mx += f[k] * mu1[c];
            my += f[k] * mu2[c];
            sxx += (uint64_t)f[k] * xx[c];
            syy += (uint64_t)f[k] * yy[c];
            sxy += (uint64_t)f[k] * xy[c];
        }
        const LsVifSigmas s = ls_vif_sigmas(mx, my, sxx, syy, sxy);
        sigma1_sq[j] = s.sigma1_sq;
        sigma2_sq[j] = s.sigma2_sq;
        sigma12[j] = s.sigma12;
    }
}

void ls_vif_pixels_c(const int32_t *sigma1_sq, const int32_t *sigma2_sq, const int32_t *sigma12,
                     unsigned n, double gain_limit, LsVifAccum *acc)
{
    for (unsigned j = 0; j < n; j++)
        ls_vif_pixel(ls_vif_log2_table, sigma1_sq[j], sigma2_sq[j], sigma12[j], gain_limit, acc);
}

void ls_vif_decimate_c(const void *const rows[LS_VIF_MAX_TAPS], unsigned w,
                       const LsVifLevel *level, uint16_t *dst, void *tmp)
{
    const unsigned scale = level->scale + 1;
    const unsigned width = ls_vif_width(scale), r = ls_vif_radius(scale);
    const uint16_t *f = ls_vif_taps[scale];
    uint32_t *t = (uint32_t *)tmp + r;
    for (unsigned j = 0; j < w; j++) {
        uint32_t a = 0;
        for (unsigned k = 0; k < width; k++)
            a += f[k] * (uint32_t)(level->bytes ? ((const uint8_t *)rows[k])[j]
                                                : ((const uint16_t *)rows[k])[j]);
        t[j] = (uint16_t)((a + level->mu_round) >> level->mu_shift);
    }
    PAD(t, w, r);
    for (unsigned j = 0; j < w / 2; j++) {
        uint32_t a = 0;
        for (unsigned k = 0; k < width; k++)
            a += f[k] * t[2 * (int)j - (int)r + (int)k];
        dst[j] = (uint16_t)((a + 32768) >> 16);
    }
}

void ls_vif_dsp_init(LsVifDsp *dsp, uint64_t cpu_flags)
{
    dsp->sigmas = ls_vif_sigmas_c;
    dsp->pixels = ls_vif_pixels_c;
    dsp->decimate = ls_vif_decimate_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->sigmas = ls_vif_sigmas_avx2;
    dsp->pixels = ls_vif_pixels_avx2;
    dsp->decimate = ls_vif_decimate_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->sigmas = ls_vif_sigmas_avx512;
    dsp->pixels = ls_vif_pixels_avx512;
#else
    (void)cpu_flags;
#endif
}
