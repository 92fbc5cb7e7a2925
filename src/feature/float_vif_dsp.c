/* C references of the float VIF DSP units: each output formed with the shared arithmetic of
 * float_vif.h, in the reference's order. SIMD variants vectorise across outputs (columns, rows of
 * a strip) or, for the sums, across rows, and must match these bit for bit. */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/float_vif.h"

static inline float load_input(const void *row, unsigned x, unsigned bpc)
{
    if (bpc == 0)
        return ((const float *)row)[x];
    if (bpc == 8)
        return ls_float_vif_sample(((const uint8_t *)row)[x], 8);
    return ls_float_vif_sample(((const uint16_t *)row)[x], bpc);
}

static void fill_c(const void *ref, const void *dis, unsigned bpc, unsigned w, bool products,
                   float *const out[LS_FLOAT_VIF_NQ])
{
    for (unsigned x = 0; x < w; x++) {
        const float a = load_input(ref, x, bpc), b = load_input(dis, x, bpc);
        out[LS_FLOAT_VIF_X][x] = a;
        out[LS_FLOAT_VIF_Y][x] = b;
        if (products) {
            out[LS_FLOAT_VIF_XX][x] = a * a;
            out[LS_FLOAT_VIF_YY][x] = b * b;
            out[LS_FLOAT_VIF_XY][x] = a * b;
        }
    }
}

/* Both passes run tap by tap over a whole output row: each output still adds its taps in order
 * from 0, and the loops over columns are plain element-wise arithmetic. */
static void filter_v_c(const float *src, ptrdiff_t stride, unsigned row_step, unsigned n_out,
                       const float *taps, unsigned n_taps, unsigned w, float *out,
                       ptrdiff_t out_stride)
{
    for (unsigned u = 0; u < n_out; u++) {
        float *restrict o = out + (ptrdiff_t)u * out_stride;
        for (unsigned x = 0; x < w; x++)
            o[x] = 0.0f;
        for (unsigned k = 0; k < n_taps; k++) {
            const float *restrict r = src + (ptrdiff_t)(u * row_step + k) * stride;
            const float tap = taps[k];
            for (unsigned x = 0; x < w; x++)
                o[x] = ls_float_vif_mac(o[x], tap, r[x]);
        }
    }
}

static void filter_h_c(const float *in, unsigned step, const float *taps, unsigned n_taps,
                       unsigned n_out, float *out, float *tmp)
{
    (void)tmp;
    float *restrict o = out;
    for (unsigned j = 0; j < n_out; j++)
        o[j] = 0.0f;
    for (unsigned k = 0; k < n_taps; k++) {
        const float *restrict p = in + k;
        const float tap = taps[k];
        if (step == 1)
            for (unsigned j = 0; j < n_out; j++)
                o[j] = ls_float_vif_mac(o[j], tap, p[j]);
        else
            for (unsigned j = 0; j < n_out; j++)
                o[j] = ls_float_vif_mac(o[j], tap, p[2 * j]);
    }
}

static void stat_c(const float *const q[LS_FLOAT_VIF_NQ], unsigned w, const LsFloatVifStatParams *p,
                   float *num, float *den)
{
    for (unsigned x = 0; x < w; x++)
        ls_float_vif_statistic(q[LS_FLOAT_VIF_X][x], q[LS_FLOAT_VIF_Y][x], q[LS_FLOAT_VIF_XX][x],
                               q[LS_FLOAT_VIF_YY][x], q[LS_FLOAT_VIF_XY][x], p, &num[x], &den[x]);
}

static void accumulate_c(const float *num, const float *den, size_t stride, unsigned w, unsigned h,
                         float acc[2])
{
    for (unsigned i = 0; i < h; i++) {
        acc[0] = acc[0] + ls_float_vif_row_sum(num + i * stride, w);
        acc[1] = acc[1] + ls_float_vif_row_sum(den + i * stride, w);
    }
}

void ls_float_vif_dsp_init(LsFloatVifDsp *dsp, uint64_t cpu_flags)
{
    dsp->fill = fill_c;
    dsp->filter_v = filter_v_c;
    dsp->filter_h = filter_h_c;
    dsp->stat = stat_c;
    dsp->accumulate = accumulate_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->fill = ls_float_vif_fill_avx2;
    dsp->filter_v = ls_float_vif_filter_v_avx2;
    dsp->filter_h = ls_float_vif_filter_h_avx2;
    dsp->stat = ls_float_vif_stat_avx2;
    dsp->accumulate = ls_float_vif_accumulate_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->fill = ls_float_vif_fill_avx512;
    dsp->filter_v = ls_float_vif_filter_v_avx512;
    dsp->filter_h = ls_float_vif_filter_h_avx512;
    dsp->stat = ls_float_vif_stat_avx512;
#else
    (void)cpu_flags;
#endif
}
