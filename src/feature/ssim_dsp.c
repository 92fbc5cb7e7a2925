/* C references of the SSIM DSP units. Every float sum here is order-sensitive: a SIMD variant
 * vectorises across outputs, never across the taps or positions of one sum, and must match these
 * bit for bit (tests/test_ssim.c). */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/ssim.h"

static void float_decimate_c(const float *src, size_t stride, const int32_t *cols, unsigned f,
                             unsigned n_out, float *out)
{
    for (unsigned x = 0; x < n_out; x++) {
        double acc = 0.0;
        for (unsigned v = 0; v < f; v++)
            for (unsigned u = 0; u < f; u++)
                acc += (double)src[v * stride + (size_t)cols[u * n_out + x]];
        out[x] = (float)acc;
    }
}

static void float_conv_h_c(const float *ref, const float *dis, unsigned w_out, float *mu_r,
                           float *mu_d, float *e_rr, float *e_dd, float *e_rd)
{
    for (unsigned x = 0; x < w_out; x++) {
        mu_r[x] = ls_float_ssim_filter11(ref + x, 1);
        mu_d[x] = ls_float_ssim_filter11(dis + x, 1);
        e_rr[x] = ls_float_ssim_filter11_products(ref + x, ref + x, 1);
        e_dd[x] = ls_float_ssim_filter11_products(dis + x, dis + x, 1);
        e_rd[x] = ls_float_ssim_filter11_products(ref + x, dis + x, 1);
    }
}

static void float_conv_v_c(const float *const rows[LS_FLOAT_SSIM_TAPS], float *out, unsigned w)
{
    for (unsigned x = 0; x < w; x++) {
        float column[LS_FLOAT_SSIM_TAPS];
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++)
            column[k] = rows[k][x];
        out[x] = ls_float_ssim_filter11(column, 1);
    }
}

static void float_terms_c(const float *mu_r, const float *mu_d, const float *e_rr,
                          const float *e_dd, const float *e_rd, unsigned w, double acc[4])
{
    double sum_lcs = acc[0], sum_l = acc[1], sum_c = acc[2], sum_s = acc[3];
    for (unsigned x = 0; x < w; x++) {
        double l, c;
        float s;
        ls_float_ssim_position(mu_r[x], mu_d[x], e_rr[x], e_dd[x], e_rd[x], &l, &c, &s);
        sum_lcs += l * c * (double)s;
        sum_l += l;
        sum_c += c;
        sum_s += (double)s;
    }
    acc[0] = sum_lcs;
    acc[1] = sum_l;
    acc[2] = sum_c;
    acc[3] = sum_s;
}

/* Integer sums, exact in any order: int64 here, int32 or double in the AVX2 variants. */
static void sums_v_8bit_c(const void *const ref_rows[LS_SSIM_TAPS],
                          const void *const dis_rows[LS_SSIM_TAPS],
                          const int32_t kernel_v[LS_SSIM_TAPS], unsigned w, double *const v[5])
{
    for (unsigned x = 0; x < w; x++)
        ls_ssim_sums_v_column_8bit(ref_rows, dis_rows, kernel_v, x, v);
}

static void sums_v_16bit_c(const void *const ref_rows[LS_SSIM_TAPS],
                           const void *const dis_rows[LS_SSIM_TAPS],
                           const int32_t kernel_v[LS_SSIM_TAPS], unsigned w, double *const v[5])
{
    for (unsigned x = 0; x < w; x++)
        ls_ssim_sums_v_column_16bit(ref_rows, dis_rows, kernel_v, x, v);
}

static void ssim_row_c(const double *const v[5], double weight_v, unsigned w, double sample_max,
                       double acc[2])
{
    static const int kernel[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;
    double ssim_acc = acc[0], weight_acc = acc[1];
    for (unsigned x = 0; x < w; x++) {
        const unsigned t_min = x < 4 ? 4 - x : 0;
        const unsigned t_end = x + 4 >= w ? w + 4 - x : LS_SSIM_TAPS;
        int64_t m[5] = { 0, 0, 0, 0, 0 };
        int64_t weight_h = 0;
        for (unsigned t = t_min; t < t_end; t++) {
            for (unsigned i = 0; i < 5; i++)
                m[i] += kernel[t] * (int64_t)v[i][x + t - 4];
            weight_h += kernel[t];
        }
        const double weight = weight_v * (double)weight_h;
        ssim_acc += ls_ssim_position((double)m[0], (double)m[1], (double)m[2], (double)m[3],
                                     (double)m[4], weight, sample_max);
        weight_acc += weight;
    }
    acc[0] = ssim_acc;
    acc[1] = weight_acc;
}

void ls_ssim_dsp_init(LsSsimDsp *dsp, uint64_t cpu_flags)
{
    dsp->float_decimate = float_decimate_c;
    dsp->float_conv_h = float_conv_h_c;
    dsp->float_conv_v = float_conv_v_c;
    dsp->float_terms = float_terms_c;
    dsp->sums_v[0] = sums_v_8bit_c;
    dsp->sums_v[1] = sums_v_16bit_c;
    dsp->row = ssim_row_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->float_decimate = ls_float_ssim_decimate_avx2;
    dsp->float_conv_h = ls_float_ssim_conv_h_avx2;
    dsp->float_conv_v = ls_float_ssim_conv_v_avx2;
    dsp->float_terms = ls_float_ssim_terms_avx2;
    dsp->sums_v[0] = ls_ssim_sums_v_8bit_avx2;
    dsp->sums_v[1] = ls_ssim_sums_v_16bit_avx2;
    dsp->row = ls_ssim_row_avx2;
#else
    (void)cpu_flags;
#endif
}
