/* C references of the CIEDE2000 DSP units: the reference's per-pixel arithmetic
 * (feature/ciede.h) with glibc's transcendental functions. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/cpu.h"
#include "feature/ciede.h"

static inline unsigned sample(const void *row, unsigned x, unsigned bpc)
{
    return bpc == 8 ? ((const uint8_t *)row)[x] : ((const uint16_t *)row)[x];
}

void ls_ciede_lab_row_c(const void *y, const void *u, const void *v, unsigned w, unsigned ss_x,
                        unsigned bpc, float *const lab[3])
{
    const double scale = (double)(1u << (bpc - 8));
    for (unsigned x = 0; x < w; x++) {
        const unsigned xc = x >> ss_x;
        const LsLab c = ls_ciede_lab(sample(y, x, bpc), sample(u, xc, bpc), sample(v, xc, bpc),
                                     scale);
        lab[0][x] = c.l;
        lab[1][x] = c.a;
        lab[2][x] = c.b;
    }
}

void ls_ciede_delta_e_row_c(const float *const ref[3], const float *const dis[3], unsigned w,
                            float *de)
{
    for (unsigned x = 0; x < w; x++) {
        const LsLab r = { ref[0][x], ref[1][x], ref[2][x] };
        const LsLab d = { dis[0][x], dis[1][x], dis[2][x] };
        de[x] = ls_ciede_delta_e(r, d);
    }
}

static double *lin_table;
static pthread_once_t lin_table_once = PTHREAD_ONCE_INIT;

static void build_lin_table(void)
{
    double *t = malloc(2 * 65536 * sizeof(double));
    if (!t)
        return;
    for (unsigned y = 0; y < 256; y++) {
        for (unsigned c = 0; c < 256; c++) {
            double yn, un, vn, r, g, b;
            ls_ciede_normalise(y, c, c, 1.0, &yn, &un, &vn);
            ls_ciede_rgb(yn, un, vn, &r, &g, &b);
            t[y * 256 + c] = ls_ciede_linearise(r);         /* r depends on y and v alone */
            t[65536 + y * 256 + c] = ls_ciede_linearise(b); /* b on y and u */
        }
    }
    lin_table = t;
}

const double *ls_ciede_lin_table_8bit(void)
{
    pthread_once(&lin_table_once, build_lin_table);
    return lin_table;
}

void ls_ciede_dsp_init(LsCiedeDsp *dsp, uint64_t cpu_flags)
{
    dsp->lab_row = ls_ciede_lab_row_c;
    dsp->delta_e_row = ls_ciede_delta_e_row_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->lab_row = ls_ciede_lab_row_avx2;
    dsp->delta_e_row = ls_ciede_delta_e_row_avx2;
    ls_ciede_lin_table_8bit(); /* built once per process, before any frame */
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->lab_row = ls_ciede_lab_row_avx512;
    dsp->delta_e_row = ls_ciede_delta_e_row_avx512;
#else
    (void)cpu_flags;
#endif
}
