/* C references of the ADM row units: straight loops over the per-coefficient functions of adm.h.
 * Every unit is integer (or float/double per coefficient, no sums), so a SIMD variant may work on
 * any number of columns at once and must match these bit for bit. */
#include <pthread.h>
#include <stdint.h>

#include "core/cpu.h"
#include "feature/adm.h"

static void dwt0_c(const void *const rows[4], int bpc, int wi, int d0, int d1, void *tmp,
                   int32_t *a, int16_t *h, int16_t *v, int16_t *d)
{
    int16_t *lo = tmp, *hi = lo + wi;
    for (int j = 0; j < wi; j++) {
        uint32_t u[4];
        for (int k = 0; k < 4; k++)
            u[k] = bpc == 8 ? ((const uint8_t *)rows[k])[j] : ((const uint16_t *)rows[k])[j];
        ls_adm_dwt0_vertical(u, bpc, &lo[j], &hi[j]);
    }
    const int w = (wi + 1) / 2;
    for (int j = 0; j < w; j++) {
        int16_t xl[4], xh[4];
        for (int k = 0; k < 4; k++) {
            const int c = ls_adm_dwt_index(j, k, wi);
            xl[k] = lo[c];
            xh[k] = hi[c];
        }
        if (a)
            a[j] = ls_adm_dwt0_horizontal(ls_adm_dwt_lo, xl);
        if (h && j >= d0 && j < d1) {
            v[j] = ls_adm_dwt0_horizontal(ls_adm_dwt_hi, xl);
            h[j] = ls_adm_dwt0_horizontal(ls_adm_dwt_lo, xh);
            d[j] = ls_adm_dwt0_horizontal(ls_adm_dwt_hi, xh);
        }
    }
}

static void dwt123_c(const int32_t *const rows[4], int scale, int wi, int d0, int d1, void *tmp,
                     int32_t *a, int32_t *h, int32_t *v, int32_t *d)
{
    const int t = scale - 1;
    int32_t *lo = tmp, *hi = lo + wi;
    for (int j = 0; j < wi; j++) {
        const int32_t x[4] = { rows[0][j], rows[1][j], rows[2][j], rows[3][j] };
        lo[j] = ls_adm_dwt123_tap(ls_adm_dwt_lo, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
        hi[j] = ls_adm_dwt123_tap(ls_adm_dwt_hi, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
    }
    const int w = (wi + 1) / 2;
    const int32_t hr = ls_adm_dwt_h_round[t], hs = ls_adm_dwt_h_shift[t];
    for (int j = 0; j < w; j++) {
        int32_t xl[4], xh[4];
        for (int k = 0; k < 4; k++) {
            const int c = ls_adm_dwt_index(j, k, wi);
            xl[k] = lo[c];
            xh[k] = hi[c];
        }
        if (a)
            a[j] = ls_adm_dwt123_tap(ls_adm_dwt_lo, xl, hr, hs);
        if (h && j >= d0 && j < d1) {
            v[j] = ls_adm_dwt123_tap(ls_adm_dwt_hi, xl, hr, hs);
            h[j] = ls_adm_dwt123_tap(ls_adm_dwt_lo, xh, hr, hs);
            d[j] = ls_adm_dwt123_tap(ls_adm_dwt_hi, xh, hr, hs);
        }
    }
}

static void decouple0_c(const int16_t *const o[3], const int16_t *const t[3], int c0, int c1,
                        double egl, int16_t *const r[3], int16_t *const a[3])
{
    for (int j = c0; j < c1; j++) {
        const int16_t oj[3] = { o[0][j], o[1][j], o[2][j] };
        const int16_t tj[3] = { t[0][j], t[1][j], t[2][j] };
        int16_t rj[3], aj[3];
        ls_adm_decouple0(oj, tj, egl, rj, aj);
        for (int b = 0; b < 3; b++) {
            r[b][j] = rj[b];
            a[b][j] = aj[b];
        }
    }
}

static void decouple123_c(const int32_t *const o[3], const int32_t *const t[3], int c0, int c1,
                          double egl, int32_t *const r[3], int32_t *const a[3])
{
    for (int j = c0; j < c1; j++) {
        const int32_t oj[3] = { o[0][j], o[1][j], o[2][j] };
        const int32_t tj[3] = { t[0][j], t[1][j], t[2][j] };
        int32_t rj[3], aj[3];
        ls_adm_decouple123(oj, tj, egl, rj, aj);
        for (int b = 0; b < 3; b++) {
            r[b][j] = rj[b];
            a[b][j] = aj[b];
        }
    }
}

static void csf0_c(const int16_t *const x[3], int c0, int c1, const uint16_t factor[3], int32_t *f,
                   int32_t *m)
{
    for (int j = c0; j < c1; j++) {
        uint32_t fs = 0, ms = 0;
        for (int b = 0; b < 3; b++) {
            const int16_t c = ls_adm_csf0(x[b][j], factor[b], b);
            fs += (uint32_t)(int32_t)ls_adm_flt0(c);
            ms += (uint32_t)(int32_t)ls_adm_center0(c);
        }
        f[j] = (int32_t)fs;
        m[j] = (int32_t)ms;
    }
}

static void csf123_c(const int32_t *const x[3], int c0, int c1, const uint32_t factor[3],
                     int32_t *f, int32_t *m)
{
    for (int j = c0; j < c1; j++) {
        uint32_t fs = 0, ms = 0;
        for (int b = 0; b < 3; b++) {
            const int32_t c = ls_adm_csf123(x[b][j], factor[b]);
            fs += (uint32_t)ls_adm_flt123(c);
            ms += (uint32_t)ls_adm_center123(c);
        }
        f[j] = (int32_t)fs;
        m[j] = (int32_t)ms;
    }
}

static void cm0_c(const int16_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                  const int32_t *f_down, const int32_t *m, int j0, int j1, const uint16_t factor[3],
                  const uint32_t cs[3], const uint32_t cr[3], int64_t acc[3])
{
    uint64_t s[3] = { 0, 0, 0 };
    for (int j = j0; j < j1; j++) {
        const int32_t thr = ls_adm_threshold(f_up, f_mid, f_down, m, j);
        for (int b = 0; b < 3; b++)
            s[b] += (uint64_t)ls_adm_cm0_term(src[b][j], factor[b], thr, b, cs[b], cr[b]);
    }
    for (int b = 0; b < 3; b++)
        acc[b] = (int64_t)s[b];
}

static void cm123_c(const int32_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                    const int32_t *f_down, const int32_t *m, int j0, int j1,
                    const uint32_t factor[3], uint32_t cs, uint32_t cr, int64_t acc[3])
{
    uint64_t s[3] = { 0, 0, 0 };
    for (int j = j0; j < j1; j++) {
        const int32_t thr = ls_adm_threshold(f_up, f_mid, f_down, m, j);
        for (int b = 0; b < 3; b++)
            s[b] += (uint64_t)ls_adm_cm123_term(src[b][j], factor[b], thr, cs, cr);
    }
    for (int b = 0; b < 3; b++)
        acc[b] = (int64_t)s[b];
}

static void den0_c(const int16_t *const band[3], int j0, int j1, uint64_t acc[3])
{
    for (int b = 0; b < 3; b++) {
        uint64_t s = 0;
        for (int j = j0; j < j1; j++)
            s += ls_adm_den0_term(band[b][j]);
        acc[b] = s;
    }
}

static void den123_c(const int32_t *const band[3], int j0, int j1, int sq, uint32_t cs, uint32_t cr,
                     uint64_t acc[3])
{
    for (int b = 0; b < 3; b++) {
        uint64_t s = 0;
        for (int j = j0; j < j1; j++)
            s += ls_adm_den123_term(band[b][j], sq, cs, cr);
        acc[b] = s;
    }
}

void ls_adm_dsp_init_c(LsAdmDsp *dsp)
{
    dsp->dwt0 = dwt0_c;
    dsp->dwt123 = dwt123_c;
    dsp->decouple0 = decouple0_c;
    dsp->decouple123 = decouple123_c;
    dsp->csf0 = csf0_c;
    dsp->csf123 = csf123_c;
    dsp->cm0 = cm0_c;
    dsp->cm123 = cm123_c;
    dsp->den0 = den0_c;
    dsp->den123 = den123_c;
}

int32_t ls_adm_div_table[32769];

static void fill_div_table(void)
{
    for (uint32_t m = 1; m <= 32768; m++)
        ls_adm_div_table[m] = ls_adm_div_q30(m);
}

void ls_adm_dsp_init(LsAdmDsp *dsp, uint64_t cpu_flags)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_div_table);
    ls_adm_dsp_init_c(dsp);
#if defined(__x86_64__) || defined(__i386__)
    if (cpu_flags & LS_CPU_FLAG_AVX2)
        ls_adm_dsp_init_avx2(dsp);
    if (cpu_flags & LS_CPU_FLAG_AVX512)
        ls_adm_dsp_init_avx512(dsp);
    if ((cpu_flags & LS_CPU_FLAG_AVX512) && (cpu_flags & LS_CPU_FLAG_AVX512ICL))
        ls_adm_dsp_init_avx512vnni(dsp);
#else
    (void)cpu_flags;
#endif
}
