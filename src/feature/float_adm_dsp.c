/* float_adm DSP units: the C reference (every variant is checked against it bit for bit), built
 * on the per-pixel arithmetic of float_adm.h, and the dispatch. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpu.h"
#include "feature/float_adm.h"

void ls_float_adm_split_pad(float *e, float *o, unsigned w)
{
    const unsigned bw = (w + 1) / 2;
    o[-1] = o[0]; /* input -1 is input 1 */
    if (w & 1) {
        o[bw - 1] = e[bw - 1]; /* input w is input w-1 */
        e[bw] = o[bw - 2];     /* input w+1 is input w-2 */
    } else {
        e[bw] = o[bw - 1]; /* input w is input w-1 */
    }
}

void ls_float_adm_dwt_v_c(const float *const rows[4], unsigned w, float *lo_e, float *lo_o,
                          float *hi_e, float *hi_o)
{
    for (unsigned x = 0; x < w; x++) {
        const float s0 = rows[0][x], s1 = rows[1][x], s2 = rows[2][x], s3 = rows[3][x];
        float *lo = x & 1 ? lo_o : lo_e;
        lo[x / 2] = ls_float_adm_taps(ls_float_adm_lo, s0, s1, s2, s3);
        if (hi_e) {
            float *hi = x & 1 ? hi_o : hi_e;
            hi[x / 2] = ls_float_adm_taps(ls_float_adm_hi, s0, s1, s2, s3);
        }
    }
}

void ls_float_adm_dwt_h_c(const float *lo_e, const float *lo_o, const float *hi_e,
                          const float *hi_o, unsigned bw, float *a, unsigned x0, unsigned x1,
                          float *h, float *v, float *d)
{
    for (unsigned j = 0; a && j < bw; j++)
        a[j] = ls_float_adm_taps(ls_float_adm_lo, lo_o[(int)j - 1], lo_e[j], lo_o[j], lo_e[j + 1]);
    for (unsigned j = x0; h && j < x1; j++) {
        v[j] = ls_float_adm_taps(ls_float_adm_hi, lo_o[(int)j - 1], lo_e[j], lo_o[j], lo_e[j + 1]);
        h[j] = ls_float_adm_taps(ls_float_adm_lo, hi_o[(int)j - 1], hi_e[j], hi_o[j], hi_e[j + 1]);
        d[j] = ls_float_adm_taps(ls_float_adm_hi, hi_o[(int)j - 1], hi_e[j], hi_o[j], hi_e[j + 1]);
    }
}

void ls_float_adm_decouple_c(const float *const o[3], const float *const t[3], unsigned x0,
                             unsigned x1, double gain_limit, float *const r[3], float *const a[3])
{
    for (unsigned j = x0; j < x1; j++) {
        const float ov[3] = { o[0][j], o[1][j], o[2][j] }, tv[3] = { t[0][j], t[1][j], t[2][j] };
        float rv[3], av[3];
        ls_float_adm_decouple_px(ov, tv, gain_limit, rv, av);
        for (int b = 0; b < 3; b++) {
            r[b][j] = rv[b];
            a[b][j] = av[b];
        }
    }
}

static void csf_c(const float *x, float factor, unsigned x0, unsigned x1, float *c, float *f)
{
    for (unsigned j = x0; j < x1; j++) {
        c[j] = factor * x[j];
        f[j] = ls_float_adm_csf_filter(c[j]);
    }
}

static inline float power(float x, int cube, float p)
{
    return cube ? ls_float_adm_cube(x) : powf(x, p);
}

void ls_float_adm_den_row_c(const float *const o[3], const float factor[3], unsigned x0,
                            unsigned x1, int cube, float p, float acc[3])
{
    for (int b = 0; b < 3; b++) {
        float inner = 0.0f;
        for (unsigned j = x0; j < x1; j++)
            inner = inner + power(fabsf(factor[b] * o[b][j]), cube, p);
        acc[b] = acc[b] + inner;
    }
}

void ls_float_adm_cm_row_c(const LsFloatAdmCmRows *rows, unsigned w, unsigned x0, unsigned x1,
                           int bypass, int cube, float p, float acc[6])
{
    float inner[6] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    for (unsigned j = x0; j < x1; j++) {
        float e[6];
        ls_float_adm_cm_excess(rows, (int)w, (int)j, bypass, e);
        for (int b = 0; b < 6; b++)
            inner[b] = inner[b] + power(e[b], cube, p);
    }
    for (int b = 0; b < 6; b++)
        acc[b] = acc[b] + inner[b];
}

void ls_float_adm_dsp_init(LsFloatAdmDsp *dsp, uint64_t cpu_flags)
{
    dsp->dwt_v = ls_float_adm_dwt_v_c;
    dsp->dwt_h = ls_float_adm_dwt_h_c;
    dsp->decouple = ls_float_adm_decouple_c;
    dsp->csf = csf_c;
    dsp->den_row = ls_float_adm_den_row_c;
    dsp->cm_row = ls_float_adm_cm_row_c;
#if defined(__x86_64__) || defined(__i386__)
    if (cpu_flags & LS_CPU_FLAG_AVX2)
        ls_float_adm_dsp_init_avx2(dsp);
#else
    (void)cpu_flags;
#endif
}
