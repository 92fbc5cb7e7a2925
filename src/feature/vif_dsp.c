/* Integer VIF DSP units, C reference (vif.md §4, §5), and the init that lets the x86 variants
 * replace them. The arithmetic of each column and pixel is the shared header's; these loops only
 * run the separable filters row by row. */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/vif.h"

const uint16_t ls_vif_log2_table[32769] = LS_VIF_LOG2_TABLE_INIT; /* last entry 0 */

/* reflect-101 padding of r entries on both sides of an array of w */
static void pad(uint32_t *a, unsigned w, unsigned r)
{
    for (int m = 1; m <= (int)r; m++) {
        a[-m] = a[m];
        a[(int)w - 1 + m] = a[(int)w - 1 - m];
    }
}

void ls_vif_pixels_c(const int32_t *sigma1_sq, const int32_t *sigma2_sq, const int32_t *sigma12,
                     unsigned n, double gain_limit, LsVifAccum *acc)
{
    for (unsigned j = 0; j < n; j++)
        ls_vif_pixel(ls_vif_log2_table, sigma1_sq[j], sigma2_sq[j], sigma12[j], gain_limit, acc);
}

void ls_vif_stats_c(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                    double gain_limit, LsVifAccum *acc, void *tmp)
{
    const unsigned r = ls_vif_radius(level->scale), w = ref->w;
    const size_t n = (size_t)w + 2 * r;
    uint32_t *v[5];
    for (unsigned f = 0; f < 5; f++)
        v[f] = (uint32_t *)tmp + f * n + r;
    int32_t *s1 = (int32_t *)tmp + 5 * n, *s2 = s1 + w, *s12 = s2 + w;
    for (unsigned i = 0; i < ref->h; i++) {
        const void *ref_rows[LS_VIF_MAX_TAPS], *dis_rows[LS_VIF_MAX_TAPS];
        ls_vif_window(ref, (int)i, r, ref_rows);
        ls_vif_window(dis, (int)i, r, dis_rows);
        for (unsigned j = 0; j < w; j++) {
            uint32_t col[5];
            ls_vif_vert_column(ref_rows, dis_rows, j, level, col);
            for (unsigned f = 0; f < 5; f++)
                v[f][j] = col[f];
        }
        for (unsigned f = 0; f < 5; f++)
            pad(v[f], w, r);
        for (unsigned j = 0; j < w; j++) {
            const uint32_t *const at[5] = { v[0] + j - r, v[1] + j - r, v[2] + j - r,
                                            v[3] + j - r, v[4] + j - r };
            const LsVifSigmas s = ls_vif_horiz_pixel(at, level->scale);
            s1[j] = s.sigma1_sq;
            s2[j] = s.sigma2_sq;
            s12[j] = s.sigma12;
        }
        ls_vif_pixels_c(s1, s2, s12, w, gain_limit, acc);
    }
}

void ls_vif_decimate_c(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst, void *tmp)
{
    const unsigned scale = level->scale + 1;
    const unsigned width = ls_vif_width(scale), r = ls_vif_radius(scale);
    const uint16_t *f = ls_vif_taps[scale];
    const unsigned w = src->w, w_out = src->w / 2, h_out = src->h / 2;
    uint32_t *t = (uint32_t *)tmp + r;
    for (unsigned i = 0; i < h_out; i++) {
        const void *rows[LS_VIF_MAX_TAPS];
        ls_vif_window(src, 2 * (int)i, r, rows);
        for (unsigned j = 0; j < w; j++) {
            uint32_t a = 0;
            for (unsigned k = 0; k < width; k++)
                a += f[k] * (uint32_t)(level->bytes ? ((const uint8_t *)rows[k])[j]
                                                    : ((const uint16_t *)rows[k])[j]);
            t[j] = (uint16_t)((a + level->mu_round) >> level->mu_shift);
        }
        pad(t, w, r);
        uint16_t *out = dst + (size_t)i * w_out;
        for (unsigned j = 0; j < w_out; j++) {
            uint32_t a = 0;
            for (unsigned k = 0; k < width; k++)
                a += f[k] * t[2 * (int)j - (int)r + (int)k];
            out[j] = (uint16_t)((a + 32768) >> 16);
        }
    }
}

void ls_vif_dsp_init(LsVifDsp *dsp, uint64_t cpu_flags)
{
    dsp->stats = ls_vif_stats_c;
    dsp->pixels = ls_vif_pixels_c;
    dsp->decimate = ls_vif_decimate_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->stats = ls_vif_stats_avx2;
    dsp->pixels = ls_vif_pixels_avx2;
    dsp->decimate = ls_vif_decimate_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->stats = ls_vif_stats_avx512;
    dsp->pixels = ls_vif_pixels_avx512;
    dsp->decimate = ls_vif_decimate_avx512;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512ICL))
        return;
    dsp->stats = ls_vif_stats_avx512vnni;
    dsp->pixels = ls_vif_pixels_avx512vnni;
    dsp->decimate = ls_vif_decimate_avx512vnni;
#else
    (void)cpu_flags;
#endif
}
