/* C references of the CAMBI DSP units (cambi.md §6) and the whole-picture passes built on them.
 * All integer except the c-value, whose float steps are ls_cambi_c_value() itself; SIMD variants
 * must match these bit for bit.
 *
 * The window counts of §6.3 are kept as one histogram row per value (cambi.h): a picture row enters
 * or leaves the window run by run, a run [c0, c1] adding to entry t of its value's row the overlap
 * of [t - pad, t + pad] with [c0, c1], a trapezoid. */
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "feature/cambi.h"

void ls_cambi_antidither8_c(uint16_t *out, const uint8_t *row, const uint8_t *below, unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++)
        out[j] = (uint16_t)(row[j] + row[j + 1] + below[j] + below[j + 1]);
    out[w - 1] = (uint16_t)(2 * (row[w - 1] + below[w - 1]));
}

void ls_cambi_zero_deriv_c(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        z[j] = (uint8_t)ls_cambi_zero_derivative(row, below, (int)j, (int)w);
}

void ls_cambi_colsum_c(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        colsum[j] = (uint8_t)(colsum[j] + enter[j] - leave[j]);
}

void ls_cambi_mask_row_c(uint8_t *mask, const uint8_t *colsum, unsigned w, int mask_index)
{
    int sum = 0;
    for (int k = -LS_CAMBI_MASK_RADIUS; k < LS_CAMBI_MASK_RADIUS; k++)
        sum += colsum[k];
    for (unsigned j = 0; j < w; j++) {
        sum += colsum[j + LS_CAMBI_MASK_RADIUS];
        mask[j] = sum > mask_index;
        sum -= colsum[(int)j - LS_CAMBI_MASK_RADIUS];
    }
}

void ls_cambi_mode_h_c(uint16_t *out, const uint16_t *row, unsigned w)
{
    out[0] = row[0];
    out[w - 1] = row[w - 1];
    for (unsigned j = 1; j + 1 < w; j++)
        out[j] = (uint16_t)ls_cambi_mode3(row[j - 1], row[j], row[j + 1]);
}

void ls_cambi_mode_v_c(uint16_t *out, const uint16_t *up, const uint16_t *mid, const uint16_t *down,
                     unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        out[j] = (uint16_t)ls_cambi_mode3(up[j], mid[j], down[j]);
}

void ls_cambi_decimate_c(uint16_t *out, uint8_t *mout, const uint16_t *in, const uint8_t *min,
                         unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        out[j] = in[2 * j];
        mout[j] = min[2 * j];
    }
}

unsigned ls_cambi_runs_c(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask, unsigned w,
                         int lo, int hi)
{
    unsigned n = 0;
    for (unsigned c0 = 0; c0 < w;) {
        const int v = vals[c0];
        if (!mask[c0] || v < lo || v > hi) {
            c0++;
            continue;
        }
        unsigned c1 = c0 + 1;
        while (c1 < w && mask[c1] && vals[c1] == v)
            c1++;
        runs[n++] = (LsCambiRun){ (int32_t)c0, (int32_t)c1 - 1 };
        c0 = c1;
    }
    return n;
}

void ls_cambi_hist_runs_c(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                          unsigned n, const uint16_t *vals, unsigned w, int pad, int lo, int sign)
{
    for (unsigned k = 0; k < n; k++) {
        const int c0 = runs[k].start, c1 = runs[k].end;
        uint16_t *row = hist + (vals[c0] - lo) * hist_stride;
        const int t0 = c0 - pad > 0 ? c0 - pad : 0;
        const int t1 = c1 + pad < (int)w - 1 ? c1 + pad : (int)w - 1;
        for (int t = t0; t <= t1; t++) {
            const int right = t + pad < c1 ? t + pad : c1;
            const int left = t - pad > c0 ? t - pad : c0;
            row[t] = (uint16_t)(row[t] + sign * (right - left + 1));
        }
    }
}

void ls_cambi_c_runs_c(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                       unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                       const LsCambiThresholds *t, LsCambiSums *sums)
{
    const int nd = t->n_diffs;
    int cnt[2 * LS_CAMBI_MAX_DIFFS + 1];
    for (unsigned j = 0; j < w; j++)
        c[j] = 0.0f;
    for (unsigned k = 0; k < n; k++) {
        const int v = vals[runs[k].start];
        for (int j = runs[k].start; j <= runs[k].end; j++) {
            const uint16_t *h = hist + (v - t->lo) * hist_stride + j;
            for (int d = -nd; d <= nd; d++)
                cnt[nd + d] = h[d * hist_stride];
            c[j] = ls_cambi_c_value(t, v, cnt + nd);
        }
    }
    ls_cambi_sums_add(sums, c, w);
}

void ls_cambi_select_c(float *c, unsigned n, unsigned k)
{
    if (k >= n)
        return;
    int lo = 0, hi = (int)n - 1;
    const int kk = (int)k;
    while (lo < hi) {
        const float piv = c[kk];
        int i = lo, j = hi;
        do {
            while (c[i] > piv)
                i++;
            while (c[j] < piv)
                j--;
            if (i <= j) {
                const float x = c[i];
                c[i] = c[j];
                c[j] = x;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            lo = i;
        if (kk < i)
            hi = j;
    }
}

void ls_cambi_dsp_init(LsCambiDsp *dsp, uint64_t cpu_flags)
{
    dsp->antidither8 = ls_cambi_antidither8_c;
    dsp->zero_deriv = ls_cambi_zero_deriv_c;
    dsp->colsum = ls_cambi_colsum_c;
    dsp->mask_row = ls_cambi_mask_row_c;
    dsp->mode_h = ls_cambi_mode_h_c;
    dsp->mode_v = ls_cambi_mode_v_c;
    dsp->decimate = ls_cambi_decimate_c;
    dsp->runs = ls_cambi_runs_c;
    dsp->hist_runs = ls_cambi_hist_runs_c;
    dsp->c_runs = ls_cambi_c_runs_c;
    dsp->select = ls_cambi_select_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->antidither8 = ls_cambi_antidither8_avx2;
    dsp->zero_deriv = ls_cambi_zero_deriv_avx2;
    dsp->colsum = ls_cambi_colsum_avx2;
    dsp->mask_row = ls_cambi_mask_row_avx2;
    dsp->mode_h = ls_cambi_mode_h_avx2;
    dsp->mode_v = ls_cambi_mode_v_avx2;
    dsp->decimate = ls_cambi_decimate_avx2;
    dsp->runs = ls_cambi_runs_avx2;
    dsp->hist_runs = ls_cambi_hist_runs_avx2;
    dsp->c_runs = ls_cambi_c_runs_avx2;
    dsp->select = ls_cambi_select_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->antidither8 = ls_cambi_antidither8_avx512;
    dsp->zero_deriv = ls_cambi_zero_deriv_avx512;
    dsp->colsum = ls_cambi_colsum_avx512;
    dsp->mode_h = ls_cambi_mode_h_avx512;
    dsp->mode_v = ls_cambi_mode_v_avx512;
    dsp->decimate = ls_cambi_decimate_avx512;
    dsp->runs = ls_cambi_runs_avx512;
    dsp->hist_runs = ls_cambi_hist_runs_avx512;
    dsp->c_runs = ls_cambi_c_runs_avx512;
#else
    (void)cpu_flags;
#endif
}

int ls_cambi_spatial_mask(const LsCambiDsp *dsp, uint16_t *img, uint8_t *mask, ptrdiff_t stride,
                          unsigned w, unsigned h, int mask_index, bool half, LsCambiRowFn row,
                          void *ctx, void *tmp)
{
    enum { R = LS_CAMBI_MASK_RADIUS, RING = 2 * R + 2 };
    /* colsum: the zero-derivative count of the 7 rows around the mask row, between R zero
     * entries on each side (and slack for vector reads); zring: the rows still in the window;
     * none: a zero row (what enters or leaves at the picture's edges); mrow: a full mask row
     * before decimation; iring: working rows made into a buffer (mask row i needs working rows
     * up to i + R + 1, so at most R + 2 are live; 64-byte aligned), and where each live row is */
    uint8_t *colsum = (uint8_t *)tmp + R;
    uint8_t *zring = (uint8_t *)tmp + w + 64;
    uint8_t *none = zring + RING * (size_t)w;
    uint8_t *mrow = none + w + 64;
    uint16_t *iring = (uint16_t *)(void *)(((uintptr_t)(mrow + w + 64) + 63) & ~(uintptr_t)63);
    const uint16_t *work[RING];
    memset(tmp, 0, w + 64);
    memset(none, 0, w);
    unsigned made = 0, next = 0; /* working rows made, zero-derivative rows counted */
    for (unsigned i = 0; i < h; i++) {
        for (; next <= i + R && next < h; next++) {
            const unsigned below = next + 1 < h ? next + 1 : next;
            for (; made <= below; made++) {
                uint16_t *buf = half ? iring + (made % RING) * (size_t)w : img + made * stride;
                const uint16_t *at = buf;
                const int err = row ? row(ctx, made, buf, &at) : 0;
                if (err)
                    return err;
                if (!half && at != buf)
                    memcpy(buf, at, w * sizeof(*buf)); /* the scale works on img */
                work[made % RING] = at;
            }
            uint8_t *z = zring + (next % RING) * (size_t)w;
            dsp->zero_deriv(z, work[next % RING], work[below % RING], w);
            /* the row of the window that leaves when this one enters (counted for mask row
             * next - R, whose window ends at next) */
            dsp->colsum(colsum, z, next >= 2 * R + 1 ? zring + ((next - 2 * R - 1) % RING) * w
                                                      : none, w);
        }
        if (i + R >= h && i >= R + 1) /* no row enters near the bottom; one still leaves */
            dsp->colsum(colsum, none, zring + ((i - R - 1) % RING) * (size_t)w, w);
        if (!half) {
            dsp->mask_row(mask + i * stride, colsum, w, mask_index);
        } else if (!(i & 1)) {
            dsp->mask_row(mrow, colsum, w, mask_index);
            dsp->decimate(img + (i >> 1) * stride, mask + (i >> 1) * stride, work[i % RING], mrow,
                          (w + 1) >> 1);
        }
    }
    return 0;
}

void ls_cambi_mode_filter(const LsCambiDsp *dsp, uint16_t *img, ptrdiff_t stride, unsigned w,
                          unsigned h, uint16_t *tmp)
{
    if (h < 3)
        return; /* the first and last rows are never filtered */
    uint16_t *hx[3] = { tmp, tmp + w, tmp + 2 * w };
    dsp->mode_h(hx[0], img, w);
    dsp->mode_h(hx[1], img + stride, w);
    for (unsigned i = 1; i + 1 < h; i++) {
        /* row i + 1 is still unfiltered; rows i - 1 and i live on in their horizontal modes */
        uint16_t *down = hx[(i + 1) % 3];
        dsp->mode_h(down, img + (i + 1) * stride, w);
        dsp->mode_v(img + i * stride, hx[(i - 1) % 3], hx[i % 3], down, w);
    }
}

int ls_cambi_window_mem_alloc(LsCambiWindowMem *m, const LsCambiThresholds *t, unsigned w,
                              int window)
{
    memset(m, 0, sizeof(*m));
    /* rows start 64-byte aligned, with at least 32 slack entries after w */
    m->hist_stride = (ptrdiff_t)((w + 32 + 31) & ~31u);
    /* no values at all when the luminance threshold lies above every visible step */
    const int band = t->hi >= t->lo ? t->hi - t->lo + 1 : 0;
    const size_t rows = (size_t)(band + 2 * t->n_diffs);
    const size_t bytes = (rows * (size_t)m->hist_stride + 32) * sizeof(*m->mem);
    m->mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    m->ring = 2 * ((unsigned)window >> 1) + 2;
    m->runs_per_row = w;
    m->runs = malloc((size_t)m->ring * w * sizeof(*m->runs));
    if (!m->mem || !m->runs) {
        ls_cambi_window_mem_free(m);
        return -1;
    }
    memset(m->mem, 0, bytes);
    m->hist = m->mem + (size_t)t->n_diffs * (size_t)m->hist_stride;
    return 0;
}

void ls_cambi_window_mem_free(LsCambiWindowMem *m)
{
    free(m->mem);
    free(m->runs);
    memset(m, 0, sizeof(*m));
}

typedef struct Pass {
    const LsCambiDsp *dsp;
    const LsCambiThresholds *t;
    LsCambiWindowMem *m;
    const uint16_t *img;
    const uint8_t *mask;
    ptrdiff_t stride;
    unsigned w, pad;
    unsigned n_runs[LS_CAMBI_RING_MAX];
} Pass;

static LsCambiRun *row_runs(const Pass *p, unsigned r)
{
    return p->m->runs + (size_t)(r % p->m->ring) * p->m->runs_per_row;
}

/* Row r enters the window: its runs are found and kept until it leaves. */
static void enter_row(Pass *p, unsigned r)
{
    LsCambiRun *runs = row_runs(p, r);
    const unsigned n = p->dsp->runs(runs, p->img + r * p->stride, p->mask + r * p->stride, p->w,
                                    p->t->lo, p->t->hi);
    p->n_runs[r % p->m->ring] = n;
    p->dsp->hist_runs(p->m->hist, p->m->hist_stride, runs, n, p->img + r * p->stride, p->w,
                      (int)p->pad, p->t->lo, 1);
}

static void leave_row(Pass *p, unsigned r)
{
    p->dsp->hist_runs(p->m->hist, p->m->hist_stride, row_runs(p, r), p->n_runs[r % p->m->ring],
                      p->img + r * p->stride, p->w, (int)p->pad, p->t->lo, -1);
}

void ls_cambi_c_values(const LsCambiDsp *dsp, const LsCambiThresholds *t, LsCambiWindowMem *m,
                       float *c, const uint16_t *img, const uint8_t *mask, ptrdiff_t stride,
                       unsigned w, unsigned h, int window, LsCambiSums *sums)
{
    Pass p = { dsp, t, m, img, mask, stride, w, (unsigned)window >> 1, { 0 } };
    const unsigned pad = p.pad;
    for (unsigned r = 0; r < pad && r < h; r++)
        enter_row(&p, r);
    for (unsigned i = 0; i < h; i++) {
        if (i + pad < h)
            enter_row(&p, i + pad);
        dsp->c_runs(c + (size_t)i * w, row_runs(&p, i), p.n_runs[i % m->ring], img + i * stride, w,
                    m->hist, m->hist_stride, t, sums);
        if (i >= pad)
            leave_row(&p, i - pad);
    }
    for (unsigned r = h > pad ? h - pad : 0; r < h; r++)
        leave_row(&p, r); /* the histograms are all zero again */
}
