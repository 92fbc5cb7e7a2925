/* AVX-512 variants of the CAMBI units whose runs are long at 4K: the histogram trapezoids
 * (32 int16 lanes) and the c-values (16 lanes); and of the full-size row units of the mask pass
 * and the scales (anti-dithering of 8-bit rows, zero derivatives, mode filter, decimation,
 * window counts, the run bitmaps), whose masked last vectors replace the AVX2 variants' scalar
 * tails. Same arithmetic as the AVX2 variants
 * (cambi_avx2.c), twice as wide: VCVTDQ2PS rounds to nearest even like C's conversion, one VMULPS
 * by the table's reciprocal, no FMA (nothing here fuses: the file has no -mfma and uses no fused
 * intrinsics), VMAXPS over non-negative non-NaN values. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/cambi.h"
#include "feature/x86/cambi_runs.h"

/* 32 anti-dithered samples from column j; row[j + 32] and below[j + 32] must exist. */
static inline void antidither32(uint16_t *out, const uint8_t *row, const uint8_t *below,
                                unsigned j)
{
    const __m512i a = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(row + j)));
    const __m512i b = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(row + j + 1)));
    const __m512i c = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(below + j)));
    const __m512i d = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(below + j + 1)));
    _mm512_storeu_si512(out + j, _mm512_add_epi16(_mm512_add_epi16(a, b), _mm512_add_epi16(c, d)));
}

void ls_cambi_antidither8_avx512(uint16_t *out, const uint8_t *row, const uint8_t *below,
                                 unsigned w)
{
    if (w < 33) {
        ls_cambi_antidither8_avx2(out, row, below, w);
        return;
    }
    for (unsigned j = 0; j + 33 <= w; j += 32)
        antidither32(out, row, below, j);
    antidither32(out, row, below, w - 33); /* overlaps: the same samples again */
    ls_cambi_antidither8_c(out + w - 1, row + w - 1, below + w - 1, 1);
}

void ls_cambi_colsum_avx512(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave,
                            unsigned w)
{
    unsigned j = 0;
    for (; j + 64 <= w; j += 64) { /* plain loads: a masked load waits for the stores it overlaps */
        const __m512i c = _mm512_loadu_si512(colsum + j);
        const __m512i e = _mm512_loadu_si512(enter + j);
        const __m512i l = _mm512_loadu_si512(leave + j);
        _mm512_storeu_si512(colsum + j, _mm512_sub_epi8(_mm512_add_epi8(c, e), l));
    }
    if (j < w) { /* the last vector masked to the row: nothing past w is read or written */
        const __mmask64 k = ((__mmask64)1 << (w - j)) - 1;
        const __m512i c = _mm512_maskz_loadu_epi8(k, colsum + j);
        const __m512i e = _mm512_maskz_loadu_epi8(k, enter + j);
        const __m512i l = _mm512_maskz_loadu_epi8(k, leave + j);
        _mm512_mask_storeu_epi8(colsum + j, k, _mm512_sub_epi8(_mm512_add_epi8(c, e), l));
    }
}

/* 32-lane masks: the first n lanes */
static inline __mmask32 first32(unsigned n)
{
    return n >= 32 ? ~(__mmask32)0 : ((__mmask32)1 << n) - 1;
}

/* zero[t] = row[t] == right[t] && row[t] == below[t] as 0/1 bytes, 32 columns from j, the first
 * n of them; right holds the right neighbours (the last column's own value at the row end). */
static inline void zero_deriv32(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned j,
                                unsigned n, bool row_end)
{
    const __m256i one = _mm256_set1_epi8(1);
    if (!row_end) { /* plain loads: a masked load waits for the stores it overlaps to retire */
        const __m512i a = _mm512_loadu_si512(row + j);
        const __m512i r = _mm512_loadu_si512(row + j + 1);
        const __m512i b = _mm512_loadu_si512(below + j);
        const __mmask32 flat = _mm512_cmpeq_epi16_mask(a, r) & _mm512_cmpeq_epi16_mask(a, b);
        _mm256_storeu_si256((__m256i *)(z + j), _mm256_maskz_mov_epi8(flat, one));
        return;
    }
    const __mmask32 k = first32(n);
    const __m512i a = _mm512_maskz_loadu_epi16(k, row + j);
    __m512i r = _mm512_maskz_loadu_epi16(first32(n - 1), row + j + 1);
    r = _mm512_mask_mov_epi16(r, (__mmask32)1 << (n - 1), a); /* the last column: itself */
    const __m512i b = _mm512_maskz_loadu_epi16(k, below + j);
    const __mmask32 flat = _mm512_cmpeq_epi16_mask(a, r) & _mm512_cmpeq_epi16_mask(a, b);
    _mm256_mask_storeu_epi8(z + j, k, _mm256_maskz_mov_epi8(flat, one));
}

void ls_cambi_zero_deriv_avx512(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned w)
{
    if (!w)
        return;
    unsigned j = 0;
    for (; j + 33 <= w; j += 32) /* the right neighbour of every lane is in the row */
        zero_deriv32(z, row, below, j, 32, false);
    zero_deriv32(z, row, below, j, w - j, true);
}

static inline __m512i mode3(__m512i a, __m512i b, __m512i c)
{
    const __mmask32 take_a = _mm512_cmpeq_epi16_mask(a, b) | _mm512_cmpeq_epi16_mask(a, c);
    const __mmask32 take_b = _mm512_cmpeq_epi16_mask(b, c);
    const __m512i least = _mm512_min_epu16(_mm512_min_epu16(a, b), c);
    return _mm512_mask_mov_epi16(_mm512_mask_mov_epi16(least, take_b, b), take_a, a);
}

void ls_cambi_mode_h_avx512(uint16_t *out, const uint16_t *row, unsigned w)
{
    if (w < 3) {
        ls_cambi_mode_h_c(out, row, w);
        return;
    }
    out[0] = row[0];
    out[w - 1] = row[w - 1];
    unsigned j = 1;
    for (; j + 33 <= w; j += 32) /* plain loads and stores where the whole vector is in the row */
        _mm512_storeu_si512(out + j, mode3(_mm512_loadu_si512(row + j - 1),
                                           _mm512_loadu_si512(row + j),
                                           _mm512_loadu_si512(row + j + 1)));
    if (j + 1 < w) {
        const __mmask32 k = first32(w - 1 - j);
        const __m512i a = _mm512_maskz_loadu_epi16(k, row + j - 1);
        const __m512i b = _mm512_maskz_loadu_epi16(k, row + j);
        const __m512i c = _mm512_maskz_loadu_epi16(k, row + j + 1);
        _mm512_mask_storeu_epi16(out + j, k, mode3(a, b, c));
    }
}

void ls_cambi_mode_v_avx512(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                            const uint16_t *down, unsigned w)
{
    unsigned j = 0;
    for (; j + 32 <= w; j += 32)
        _mm512_storeu_si512(out + j, mode3(_mm512_loadu_si512(up + j), _mm512_loadu_si512(mid + j),
                                           _mm512_loadu_si512(down + j)));
    if (j < w) {
        const __mmask32 k = first32(w - j);
        const __m512i a = _mm512_maskz_loadu_epi16(k, up + j);
        const __m512i b = _mm512_maskz_loadu_epi16(k, mid + j);
        const __m512i c = _mm512_maskz_loadu_epi16(k, down + j);
        _mm512_mask_storeu_epi16(out + j, k, mode3(a, b, c));
    }
}

void ls_cambi_decimate_avx512(uint16_t *out, uint8_t *mout, const uint16_t *in, const uint8_t *min,
                              unsigned w)
{
    /* 16 outputs a step: the low halves of 16 32-bit (16-bit) pairs, truncated by VPMOVDW
     * (VPMOVWB); in place the stores stay behind the loads. Plain loads and stores while the
     * whole step is inside (a masked load waits for the stores it overlaps to retire, and the
     * truncating masked store to memory is slow); the last step reads the 2n - 1 samples its n
     * outputs need and nothing past them. */
    unsigned j = 0;
    for (; j + 16 < w; j += 16) {
        const __m512i v = _mm512_loadu_si512(in + 2 * j);
        const __m256i m = _mm256_loadu_si256((const __m256i *)(min + 2 * j));
        _mm256_storeu_si256((__m256i *)(out + j), _mm512_cvtepi32_epi16(v));
        _mm_storeu_si128((__m128i *)(mout + j), _mm256_cvtepi16_epi8(m));
    }
    if (j < w) {
        const unsigned n = w - j;
        const __mmask32 kin = first32(2 * n - 1);
        const __mmask16 kout = (__mmask16)((1u << n) - 1);
        const __m256i vo = _mm512_cvtepi32_epi16(_mm512_maskz_loadu_epi16(kin, in + 2 * j));
        const __m128i mo = _mm256_cvtepi16_epi8(_mm256_maskz_loadu_epi8(kin, min + 2 * j));
        _mm256_mask_storeu_epi16(out + j, kout, vo);
        _mm_mask_storeu_epi8(mout + j, kout, mo);
    }
}

/* run_bits of x86/cambi_runs.h, one word of 32 columns a vector: plain loads inside the row, the
 * first word (no left neighbour) and a partial last one with masked loads. */
static void run_bits(uint32_t *counted, uint32_t *cont, const uint16_t *vals, const uint8_t *mask,
                     unsigned w, int lo, int hi)
{
    const __m512i vlo = _mm512_set1_epi16((short)lo), vhi = _mm512_set1_epi16((short)hi);
    /* lane t takes lane t - 1 (lane 0 is not used) */
    const __m512i up1 = _mm512_set_epi16(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                         16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                         0);
    const unsigned words = (w + 31) / 32;
    for (unsigned k = 0; k < words; k++) {
        const unsigned j = 32 * k;
        __m512i v, left_v;
        __m256i m;
        __mmask32 valid;
        if (j > 0 && j + 32 <= w) {
            v = _mm512_loadu_si512(vals + j);
            left_v = _mm512_loadu_si512(vals + j - 1);
            m = _mm256_loadu_si256((const __m256i *)(mask + j));
            valid = ~(__mmask32)0;
        } else {
            valid = first32(w - j);
            v = _mm512_maskz_loadu_epi16(valid, vals + j);
            left_v = j ? _mm512_maskz_loadu_epi16(valid, vals + j - 1)
                       : _mm512_permutexvar_epi16(up1, v);
            m = _mm256_maskz_loadu_epi8(valid, mask + j);
        }
        const __mmask32 in_band = _mm512_cmp_epu16_mask(v, vlo, _MM_CMPINT_NLT) &
                                  _mm512_cmp_epu16_mask(v, vhi, _MM_CMPINT_LE);
        const uint32_t c = (uint32_t)(in_band & _mm256_test_epi8_mask(m, m) & valid);
        const uint32_t e = (uint32_t)(_mm512_cmpeq_epi16_mask(v, left_v) & valid) & (j ? ~0u : ~1u);
        const uint32_t left = (c << 1) | (k ? counted[k - 1] >> 31 : 0);
        counted[k] = c;
        cont[k] = c & left & e;
    }
}

unsigned ls_cambi_runs_avx512(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                              unsigned w, int lo, int hi)
{
    return runs_from_bits(runs, vals, mask, w, lo, hi, run_bits);
}

void ls_cambi_hist_runs_avx512(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                               unsigned n, const uint16_t *vals, unsigned w, int pad, int lo,
                               int sign)
{
    if (w > 32000) { /* int16 lane arithmetic: columns + pad < 2^15 */
        ls_cambi_hist_runs_c(hist, hist_stride, runs, n, vals, w, pad, lo, sign);
        return;
    }
    const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
                                          17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                          1, 0);
    const __m512i vpad = _mm512_set1_epi16((short)pad), one = _mm512_set1_epi16(1);
    const __m512i zero = _mm512_setzero_si512();
    for (unsigned k = 0; k < n; k++) {
        const int c0 = runs[k].start, c1 = runs[k].end;
        uint16_t *row = hist + (vals[c0] - lo) * hist_stride;
        const int t0 = c0 - pad > 0 ? c0 - pad : 0;
        const int t1 = c1 + pad < (int)w - 1 ? c1 + pad : (int)w - 1;
        const __m512i first = _mm512_set1_epi16((short)c0), last = _mm512_set1_epi16((short)c1);
        /* aligned 64-byte vectors, as in the AVX2 variant; the last may reach [w, w + 32) */
        for (int t = t0 & ~31; t <= t1; t += 32) {
            const __m512i tv = _mm512_add_epi16(_mm512_set1_epi16((short)t), iota);
            const __m512i right = _mm512_min_epi16(_mm512_add_epi16(tv, vpad), last);
            const __m512i left = _mm512_max_epi16(_mm512_sub_epi16(tv, vpad), first);
            const __m512i overlap =
                _mm512_max_epi16(_mm512_add_epi16(_mm512_sub_epi16(right, left), one), zero);
            void *p = row + t;
            const __m512i cur = _mm512_load_si512(p);
            _mm512_store_si512(p, sign > 0 ? _mm512_add_epi16(cur, overlap)
                                           : _mm512_sub_epi16(cur, overlap));
        }
    }
}

/* ls_cambi_sums_add() for sixteen lanes: the total and the OR in eight 64-bit lanes. */
typedef struct Sums16 {
    __m512i total, bits;
    uint32_t nonzero, odd;
} Sums16;

static inline void sums_add16(Sums16 *s, __m512 cv)
{
    const __m512i b = _mm512_castps_si512(cv);
    const __m512i e = _mm512_srli_epi32(b, 23);
    const __mmask16 nonzero = _mm512_cmpgt_epi32_mask(b, _mm512_setzero_si512());
    const __mmask16 outside = _mm512_cmplt_epi32_mask(e, _mm512_set1_epi32(126)) |
                              _mm512_cmpgt_epi32_mask(e, _mm512_set1_epi32(140));
    const __mmask16 good = nonzero & (__mmask16)~outside;
    s->odd += (uint32_t)__builtin_popcount((unsigned)(nonzero & outside));
    s->nonzero += (uint32_t)__builtin_popcount((unsigned)good);
    const __m512i m = _mm512_maskz_or_epi32(good, _mm512_and_si512(b, _mm512_set1_epi32(0x7fffff)),
                                            _mm512_set1_epi32(0x800000));
    const __m512i sh = _mm512_maskz_sub_epi32(good, e, _mm512_set1_epi32(126));
    const __m512i lo = _mm512_sllv_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(m)),
                                         _mm512_cvtepu32_epi64(_mm512_castsi512_si256(sh)));
    const __m512i hi = _mm512_sllv_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(m, 1)),
                                         _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(sh, 1)));
    s->total = _mm512_add_epi64(s->total, _mm512_add_epi64(lo, hi));
    s->bits = _mm512_or_si512(s->bits, _mm512_or_si512(lo, hi));
}

static inline __m512i load_counts16(const uint16_t *row)
{
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)row));
}

void ls_cambi_c_runs_avx512(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                            unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                            const LsCambiThresholds *t, LsCambiSums *sums)
{
    Sums16 acc = { _mm512_setzero_si512(), _mm512_setzero_si512(), 0, 0 };
    const __m512i lanes =
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    unsigned j = 0;
    for (; j + 16 <= w; j += 16)
        _mm512_storeu_ps(c + j, _mm512_setzero_ps());
    for (; j < w; j++)
        c[j] = 0.0f;
    for (unsigned k = 0; k < n; k++) {
        const int c0 = runs[k].start, c1 = runs[k].end;
        const int v = vals[c0];
        int steps[LS_CAMBI_MAX_DIFFS], n_steps = 0;
        for (int d = 1; d <= t->n_diffs; d++)
            if (ls_cambi_step_active(t, v, d))
                steps[n_steps++] = d;
        if (!n_steps)
            continue;
        const uint16_t *row = hist + (v - t->lo) * hist_stride;
        for (int x = c0; x <= c1; x += 16) {
            /* lanes past the run end read the rows' slack, then drop out */
            const __mmask16 in_run =
                _mm512_cmplt_epi32_mask(lanes, _mm512_set1_epi32(c1 - x + 1));
            const __m512i p0 = load_counts16(row + x);
            __m512 cv = _mm512_setzero_ps();
            for (int s = 0; s < n_steps; s++) {
                const int d = steps[s];
                const __m512i pm = _mm512_max_epi32(load_counts16(row + x + d * hist_stride),
                                                    load_counts16(row + x - d * hist_stride));
                /* pm = 0 gives the term 0, which never raises the maximum */
                const __mmask16 live =
                    in_run & _mm512_cmpneq_epi32_mask(pm, _mm512_setzero_si512());
                const __m512i prod = _mm512_mullo_epi32(
                    _mm512_mullo_epi32(_mm512_set1_epi32(ls_cambi_contrast_weights[d - 1]), p0),
                    pm);
                const __m512 recip = _mm512_mask_i32gather_ps(
                    _mm512_setzero_ps(), live, _mm512_add_epi32(pm, p0), ls_cambi_reciprocal, 4);
                const __m512 val = _mm512_maskz_mul_ps(live, _mm512_cvtepi32_ps(prod), recip);
                cv = _mm512_max_ps(cv, val);
            }
            _mm512_mask_storeu_ps(c + x, in_run, cv);
            if (_mm512_cmpneq_ps_mask(cv, _mm512_setzero_ps()))
                sums_add16(&acc, cv);
        }
    }
    uint64_t tt[8], bb[8];
    _mm512_storeu_si512(tt, acc.total);
    _mm512_storeu_si512(bb, acc.bits);
    for (int i = 0; i < 8; i++) {
        sums->total += tt[i];
        sums->bits |= bb[i];
    }
    sums->nonzero += acc.nonzero;
    sums->odd += acc.odd;
}
