/* AVX2 variants of the CAMBI DSP units (feature/cambi_dsp.c has the references). Everything but
 * the c-value is integer and exact in any lane order. The c-value runs the reference's float steps
 * per lane: the int product w * p0 * pm converted with VCVTDQ2PS (round to nearest even, as C's
 * conversion), one VMULPS by the table's reciprocal (no FMA: this file is built with -mavx2
 * only), and the maximum over the steps (VMAXPS picks the same value as `if (val > c) c = val`
 * for these non-negative, non-NaN values). Tails run the C references. */
#include <immintrin.h>
#include <stdint.h>

#include "feature/x86/gather_avx2.h"
#include "feature/cambi.h"
#include "feature/x86/cambi_runs.h"

/* 16 anti-dithered samples from column j; row[j + 16] and below[j + 16] must exist. */
static inline void antidither16(uint16_t *out, const uint8_t *row, const uint8_t *below,
                                unsigned j)
{
    const __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + j)));
    const __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + j + 1)));
    const __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(below + j)));
    const __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(below + j + 1)));
    _mm256_storeu_si256((__m256i *)(out + j),
                        _mm256_add_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, d)));
}

void ls_cambi_antidither8_avx2(uint16_t *out, const uint8_t *row, const uint8_t *below,
                               unsigned w)
{
    if (w < 17) {
        ls_cambi_antidither8_c(out, row, below, w);
        return;
    }
    for (unsigned j = 0; j + 17 <= w; j += 16)
        antidither16(out, row, below, j);
    antidither16(out, row, below, w - 17); /* overlaps: the same samples again */
    ls_cambi_antidither8_c(out + w - 1, row + w - 1, below + w - 1, 1);
}

void ls_cambi_colsum_avx2(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave, unsigned w)
{
    unsigned j = 0;
    /* in place: no overlapping last vector, the C reference takes the tail */
    for (; j + 32 <= w; j += 32) {
        const __m256i c = _mm256_loadu_si256((const __m256i *)(colsum + j));
        const __m256i e = _mm256_loadu_si256((const __m256i *)(enter + j));
        const __m256i l = _mm256_loadu_si256((const __m256i *)(leave + j));
        _mm256_storeu_si256((__m256i *)(colsum + j), _mm256_sub_epi8(_mm256_add_epi8(c, e), l));
    }
    ls_cambi_colsum_c(colsum + j, enter + j, leave + j, w - j);
}

/* 32 zero-derivative flags from column j; the right neighbour of the last lane must exist. */
static inline void zero_deriv32(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned j)
{
    __m256i flat[2];
    for (int k = 0; k < 2; k++) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(row + j + 16 * k));
        const __m256i r = _mm256_loadu_si256((const __m256i *)(row + j + 16 * k + 1));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(below + j + 16 * k));
        flat[k] = _mm256_and_si256(_mm256_cmpeq_epi16(a, r), _mm256_cmpeq_epi16(a, b));
    }
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(flat[0], flat[1]), 0xd8);
    _mm256_storeu_si256((__m256i *)(z + j), _mm256_and_si256(packed, _mm256_set1_epi8(1)));
}

void ls_cambi_zero_deriv_avx2(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned w)
{
    if (w < 33) {
        ls_cambi_zero_deriv_c(z, row, below, w);
        return;
    }
    for (unsigned j = 0; j + 33 <= w; j += 32)
        zero_deriv32(z, row, below, j);
    zero_deriv32(z, row, below, w - 33); /* overlaps: the same flags again */
    ls_cambi_zero_deriv_c(z + w - 1, row + w - 1, below + w - 1, 1);
}

void ls_cambi_mask_row_avx2(uint8_t *mask, const uint8_t *colsum, unsigned w, int mask_index)
{
    if (w < 32) {
        ls_cambi_mask_row_c(mask, colsum, w, mask_index);
        return;
    }
    const __m256i threshold = _mm256_set1_epi8((char)mask_index), one = _mm256_set1_epi8(1);
    for (unsigned j = 0;; j += 32) {
        if (j + 32 > w)
            j = w - 32; /* the last vector overlaps the previous one: same values again */
        __m256i sum = _mm256_setzero_si256();
        for (int k = -LS_CAMBI_MASK_RADIUS; k <= LS_CAMBI_MASK_RADIUS; k++)
            sum = _mm256_add_epi8(sum, _mm256_loadu_si256((const __m256i *)(colsum + j + k)));
        /* sums <= 49 and mask_index <= 28: the signed byte compare is exact */
        const __m256i m = _mm256_cmpgt_epi8(sum, threshold);
        _mm256_storeu_si256((__m256i *)(mask + j), _mm256_and_si256(m, one));
        if (j + 32 == w)
            break;
    }
}

static inline __m256i mode3(__m256i a, __m256i b, __m256i c)
{
    const __m256i take_a = _mm256_or_si256(_mm256_cmpeq_epi16(a, b), _mm256_cmpeq_epi16(a, c));
    const __m256i take_b = _mm256_cmpeq_epi16(b, c);
    const __m256i least = _mm256_min_epu16(_mm256_min_epu16(a, b), c);
    return _mm256_blendv_epi8(_mm256_blendv_epi8(least, b, take_b), a, take_a);
}

void ls_cambi_mode_h_avx2(uint16_t *out, const uint16_t *row, unsigned w)
{
    if (w < 18) {
        ls_cambi_mode_h_c(out, row, w);
        return;
    }
    out[0] = row[0];
    out[w - 1] = row[w - 1];
    for (unsigned j = 1;; j += 16) {
        if (j + 17 > w)
            j = w - 17; /* the last vector overlaps the previous one: same values again */
        const __m256i a = _mm256_loadu_si256((const __m256i *)(row + j - 1));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(row + j));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(row + j + 1));
        _mm256_storeu_si256((__m256i *)(out + j), mode3(a, b, c));
        if (j + 17 == w)
            break;
    }
}

void ls_cambi_mode_v_avx2(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                          const uint16_t *down, unsigned w)
{
    unsigned j = 0;
    for (; j + 16 <= w; j += 16) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(up + j));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(mid + j));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(down + j));
        _mm256_storeu_si256((__m256i *)(out + j), mode3(a, b, c));
    }
    ls_cambi_mode_v_c(out + j, up + j, mid + j, down + j, w - j);
}

void ls_cambi_decimate_avx2(uint16_t *out, uint8_t *mout, const uint16_t *in, const uint8_t *min,
                            unsigned w)
{
    /* even lanes: the low halves of 32-bit (16-bit) pairs, packed; in place the stores stay
     * behind the loads */
    const __m256i low16 = _mm256_set1_epi32(0xffff), low8 = _mm256_set1_epi16(0xff);
    unsigned j = 0;
    /* in holds 2w - 1 samples: the odd lane after the last even one may not exist */
    for (; j + 33 <= w; j += 32) {
        __m256i v[4], m[2];
        for (int k = 0; k < 4; k++)
            v[k] = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(in + 2 * j + 16 * k)),
                                    low16);
        for (int k = 0; k < 2; k++)
            m[k] = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(min + 2 * j + 32 * k)),
                                    low8);
        _mm256_storeu_si256((__m256i *)(out + j),
                            _mm256_permute4x64_epi64(_mm256_packus_epi32(v[0], v[1]), 0xd8));
        _mm256_storeu_si256((__m256i *)(out + j + 16),
                            _mm256_permute4x64_epi64(_mm256_packus_epi32(v[2], v[3]), 0xd8));
        _mm256_storeu_si256((__m256i *)(mout + j),
                            _mm256_permute4x64_epi64(_mm256_packus_epi16(m[0], m[1]), 0xd8));
    }
    ls_cambi_decimate_c(out + j, mout + j, in + 2 * j, min + 2 * j, w - j);
}

/* Bit j % 32 of word j / 32: counted[j] = masked and in [lo, hi]; cont[j] = counted[j] and
 * counted[j - 1] with the same value (the run goes on). The vector loop covers the chunks that
 * have a left neighbour; the first and the partial last chunk are scalar. */
static void run_bits(uint32_t *counted, uint32_t *cont, const uint16_t *vals, const uint8_t *mask,
                     unsigned w, int lo, int hi)
{
    const __m256i vlo = _mm256_set1_epi16((short)lo), vhi = _mm256_set1_epi16((short)hi);
    const __m256i zero = _mm256_setzero_si256();
    const unsigned words = (w + 31) / 32;
    for (unsigned k = 0; k < words; k++) {
        const unsigned j = 32 * k;
        uint32_t c = 0, e = 0;
        if (j > 0 && j + 32 <= w) {
            const __m256i v0 = _mm256_loadu_si256((const __m256i *)(vals + j));
            const __m256i v1 = _mm256_loadu_si256((const __m256i *)(vals + j + 16));
            const __m256i l0 = _mm256_loadu_si256((const __m256i *)(vals + j - 1));
            const __m256i l1 = _mm256_loadu_si256((const __m256i *)(vals + j + 15));
            const __m256i in0 = _mm256_and_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(v0, vlo), v0),
                                                 _mm256_cmpeq_epi16(_mm256_min_epu16(v0, vhi), v0));
            const __m256i in1 = _mm256_and_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(v1, vlo), v1),
                                                 _mm256_cmpeq_epi16(_mm256_min_epu16(v1, vhi), v1));
            const __m256i in = _mm256_permute4x64_epi64(_mm256_packs_epi16(in0, in1), 0xd8);
            const __m256i eq = _mm256_permute4x64_epi64(
                _mm256_packs_epi16(_mm256_cmpeq_epi16(v0, l0), _mm256_cmpeq_epi16(v1, l1)), 0xd8);
            const __m256i m = _mm256_loadu_si256((const __m256i *)(mask + j));
            c = (uint32_t)_mm256_movemask_epi8(_mm256_andnot_si256(_mm256_cmpeq_epi8(m, zero), in));
            e = (uint32_t)_mm256_movemask_epi8(eq);
        } else {
            for (unsigned b = 0; b < 32 && j + b < w; b++) {
                const int v = vals[j + b];
                c |= (uint32_t)(mask[j + b] && v >= lo && v <= hi) << b;
                e |= (uint32_t)(j + b > 0 && vals[j + b - 1] == v) << b;
            }
        }
        const uint32_t left = (c << 1) | (k ? counted[k - 1] >> 31 : 0);
        counted[k] = c;
        cont[k] = c & left & e;
    }
}

unsigned ls_cambi_runs_avx2(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                            unsigned w, int lo, int hi)
{
    return runs_from_bits(runs, vals, mask, w, lo, hi, run_bits);
}

void ls_cambi_hist_runs_avx2(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                             unsigned n, const uint16_t *vals, unsigned w, int pad, int lo,
                             int sign)
{
    if (w > 32000) { /* the int16 lane arithmetic below needs columns + pad < 2^15 */
        ls_cambi_hist_runs_c(hist, hist_stride, runs, n, vals, w, pad, lo, sign);
        return;
    }
    const __m256i iota = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i vpad = _mm256_set1_epi16((short)pad), one = _mm256_set1_epi16(1);
    const __m256i zero = _mm256_setzero_si256();
    for (unsigned k = 0; k < n; k++) {
        const int c0 = runs[k].start, c1 = runs[k].end;
        uint16_t *row = hist + (vals[c0] - lo) * hist_stride;
        const int t0 = c0 - pad > 0 ? c0 - pad : 0;
        const int t1 = c1 + pad < (int)w - 1 ? c1 + pad : (int)w - 1;
        const __m256i first = _mm256_set1_epi16((short)c0), last = _mm256_set1_epi16((short)c1);
        /* overlap of [t - pad, t + pad] with [c0, c1], 0 outside the trapezoid, in aligned vectors
         * (a run's update then never half-overlaps the previous run's, which would stall store
         * forwarding); the last may run into the slack [w, w + 16) */
        for (int t = t0 & ~15; t <= t1; t += 16) {
            const __m256i tv = _mm256_add_epi16(_mm256_set1_epi16((short)t), iota);
            const __m256i right = _mm256_min_epi16(_mm256_add_epi16(tv, vpad), last);
            const __m256i left = _mm256_max_epi16(_mm256_sub_epi16(tv, vpad), first);
            const __m256i overlap =
                _mm256_max_epi16(_mm256_add_epi16(_mm256_sub_epi16(right, left), one), zero);
            __m256i *p = (__m256i *)(void *)(row + t);
            const __m256i cur = _mm256_load_si256(p);
            _mm256_store_si256(p, sign > 0 ? _mm256_add_epi16(cur, overlap)
                                           : _mm256_sub_epi16(cur, overlap));
        }
    }
}

/* Eight consecutive counts of one histogram row. */
static inline __m256i load_counts(const uint16_t *row)
{
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)row));
}

/* One contrast step for eight lanes: the term of each lane where `on`, max-ed into cv. */
static inline __m256 step_term(__m256 cv, __m256i on, __m256i weight, __m256i p0, __m256i p1,
                               __m256i p2)
{
    const __m256i pm = _mm256_max_epi32(p1, p2);
    /* pm = 0 makes the term 0, which never raises the maximum */
    const __m256i live = _mm256_andnot_si256(_mm256_cmpeq_epi32(pm, _mm256_setzero_si256()), on);
    const __m256i prod = _mm256_mullo_epi32(_mm256_mullo_epi32(weight, p0), pm);
    /* masked: lanes off the run never touch the table */
    const __m256 recip =
        ls_mask_gather_ps_avx2(ls_cambi_reciprocal, _mm256_add_epi32(pm, p0), live);
    const __m256 val = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), recip);
    return _mm256_max_ps(cv, _mm256_and_ps(_mm256_castsi256_ps(live), val));
}

/* ls_cambi_sums_add() for eight lanes, the total and the OR in four 64-bit lanes. */
typedef struct Sums8 {
    __m256i total, bits;
    uint32_t nonzero, odd;
} Sums8;

static inline void sums_add8(Sums8 *s, __m256 cv)
{
    const __m256i b = _mm256_castps_si256(cv);
    const __m256i e = _mm256_srli_epi32(b, 23);
    const __m256i nonzero = _mm256_cmpgt_epi32(b, _mm256_setzero_si256());
    const __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(126), e),
                                            _mm256_cmpgt_epi32(e, _mm256_set1_epi32(140)));
    const __m256i odd = _mm256_and_si256(nonzero, outside);
    const __m256i good = _mm256_andnot_si256(outside, nonzero);
    s->odd += (uint32_t)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(odd)));
    s->nonzero +=
        (uint32_t)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(good)));
    const __m256i m = _mm256_and_si256(
        good, _mm256_or_si256(_mm256_and_si256(b, _mm256_set1_epi32(0x7fffff)),
                              _mm256_set1_epi32(0x800000)));
    const __m256i sh = _mm256_and_si256(good, _mm256_sub_epi32(e, _mm256_set1_epi32(126)));
    const __m256i lo = _mm256_sllv_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(m)),
                                         _mm256_cvtepu32_epi64(_mm256_castsi256_si128(sh)));
    const __m256i hi = _mm256_sllv_epi64(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(m, 1)),
                                         _mm256_cvtepu32_epi64(_mm256_extracti128_si256(sh, 1)));
    s->total = _mm256_add_epi64(s->total, _mm256_add_epi64(lo, hi));
    s->bits = _mm256_or_si256(s->bits, _mm256_or_si256(lo, hi));
}

static inline void sums_flush(LsCambiSums *sums, const Sums8 *s)
{
    uint64_t t[4], b[4];
    _mm256_storeu_si256((__m256i *)(void *)t, s->total);
    _mm256_storeu_si256((__m256i *)(void *)b, s->bits);
    sums->total += t[0] + t[1] + t[2] + t[3];
    sums->bits |= b[0] | b[1] | b[2] | b[3];
    sums->nonzero += s->nonzero;
    sums->odd += s->odd;
}

void ls_cambi_c_runs_avx2(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                          unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                          const LsCambiThresholds *t, LsCambiSums *sums)
{
    Sums8 acc = { _mm256_setzero_si256(), _mm256_setzero_si256(), 0, 0 };
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    unsigned j = 0;
    for (; j + 8 <= w; j += 8)
        _mm256_storeu_ps(c + j, _mm256_setzero_ps());
    for (; j < w; j++)
        c[j] = 0.0f;
    for (unsigned k = 0; k < n; k++) {
        const int c0 = runs[k].start, c1 = runs[k].end;
        const int v = vals[c0];
        /* the steps active at v, and their weights */
        int steps[LS_CAMBI_MAX_DIFFS], n_steps = 0;
        for (int d = 1; d <= t->n_diffs; d++)
            if (ls_cambi_step_active(t, v, d))
                steps[n_steps++] = d;
        if (!n_steps)
            continue;
        const uint16_t *row = hist + (v - t->lo) * hist_stride;
        for (int x = c0; x <= c1; x += 8) {
            /* lanes past the run end are computed from the slack of the rows, then dropped */
            const __m256i in_run = _mm256_cmpgt_epi32(_mm256_set1_epi32(c1 - x + 1), lanes);
            const __m256i p0 = load_counts(row + x);
            __m256 cv = _mm256_setzero_ps();
            for (int s = 0; s < n_steps; s++) {
                const int d = steps[s];
                cv = step_term(cv, in_run, _mm256_set1_epi32(ls_cambi_contrast_weights[d - 1]), p0,
                               load_counts(row + x + d * hist_stride),
                               load_counts(row + x - d * hist_stride));
            }
            _mm256_maskstore_ps(c + x, in_run, cv);
            if (_mm256_movemask_ps(_mm256_cmp_ps(cv, _mm256_setzero_ps(), _CMP_NEQ_OQ)))
                sums_add8(&acc, cv);
        }
    }
    sums_flush(sums, &acc);
}

/* Stops of the reference partition's scans, 32 positions per word: left stops (c <= piv) of
 * [base, base + 32), right stops (c >= piv) of [base - 31, base] (bit 31 = base), only positions
 * in [lo, hi]. */
static inline uint32_t left_stops(const float *c, int base, int hi, __m256 piv)
{
    if (base + 32 <= hi + 1) {
        uint32_t m = 0;
        for (int q = 0; q < 4; q++)
            m |= (uint32_t)_mm256_movemask_ps(
                     _mm256_cmp_ps(_mm256_loadu_ps(c + base + 8 * q), piv, _CMP_LE_OQ))
                 << (8 * q);
        return m;
    }
    const float p = _mm256_cvtss_f32(piv);
    uint32_t m = 0;
    for (int b = 0; base + b <= hi && b < 32; b++)
        m |= (uint32_t)(c[base + b] <= p) << b;
    return m;
}

static inline uint32_t right_stops(const float *c, int base, int lo, __m256 piv)
{
    if (base - 31 >= lo) {
        uint32_t m = 0;
        for (int q = 0; q < 4; q++)
            m |= (uint32_t)_mm256_movemask_ps(
                     _mm256_cmp_ps(_mm256_loadu_ps(c + base - 31 + 8 * q), piv, _CMP_GE_OQ))
                 << (8 * q);
        return m;
    }
    const float p = _mm256_cvtss_f32(piv);
    uint32_t m = 0;
    for (int b = 0; base - b >= lo && b < 32; b++)
        m |= (uint32_t)(c[base - b] >= p) << (31 - b);
    return m;
}

typedef struct Stops {
    int base;
    uint32_t bits;
} Stops;

/* The next left stop, or hi + 1 when there is none. */
static inline int next_left(Stops *s, const float *c, int hi, __m256 piv)
{
    while (!s->bits) {
        s->base += 32;
        if (s->base > hi)
            return hi + 1;
        s->bits = left_stops(c, s->base, hi, piv);
    }
    const int x = s->base + __builtin_ctz(s->bits);
    s->bits &= s->bits - 1;
    return x;
}

/* The next right stop, or lo - 1 when there is none. */
static inline int next_right(Stops *s, const float *c, int lo, __m256 piv)
{
    while (!s->bits) {
        s->base -= 32;
        if (s->base < lo)
            return lo - 1;
        s->bits = right_stops(c, s->base, lo, piv);
    }
    const int b = 31 - __builtin_clz(s->bits);
    s->bits &= ~(1u << b);
    return s->base - 31 + b;
}

/* One partition of [lo, hi] around piv as the reference makes it (ls_cambi_select_c), from the
 * positions where its two scans stop. Between the scans nothing has been written yet, so the
 * stops there are those of the values as they were: the m-th swap pairs the m-th left stop with
 * the m-th right stop, as long as the left one is not past the right one. Stops read beyond the
 * other scan (written there already) only ever end the walk, which they would end anyway: every
 * position past j holds a value <= piv and every one before i a value >= piv, so the reference's
 * own scans stop at j + 1 and i - 1 at the latest. */
static void partition(float *c, int lo, int hi, float p, int *pi, int *pj)
{
    const __m256 piv = _mm256_set1_ps(p);
    Stops l = { lo, left_stops(c, lo, hi, piv) }, r = { hi, right_stops(c, hi, lo, piv) };
    int i = lo, j = hi;
    int x = next_left(&l, c, hi, piv), y = next_right(&r, c, lo, piv);
    while (x <= y) {
        const float t = c[x];
        c[x] = c[y];
        c[y] = t;
        i = x + 1;
        j = y - 1;
        x = next_left(&l, c, hi, piv);
        y = next_right(&r, c, lo, piv);
    }
    if (i <= j) { /* one more round of scans, which meets no swap */
        i = x < j + 1 ? x : j + 1;
        j = y > i - 1 ? y : i - 1;
    }
    *pi = i;
    *pj = j;
}

/* One reference partition of [lo, hi] around the pivot 0, every value >= 0 (c-values). Its scan
 * from the right stops at every position, so the walk pairs the zeros met from the left with the
 * positions hi, hi - 1, ... in turn while the zero lies at or before its partner: each such swap
 * puts the partner's value in the zero's place and a zero in the partner's. Afterwards
 * j = hi - (swaps) and the left scan ends at j + 1, or just past its last zero. */
static void partition_zero(float *c, int lo, int hi, int *pi, int *pj)
{
    const __m256 piv = _mm256_setzero_ps();
    int r = hi, last = lo - 1;
    for (int x = lo; x <= r; x += 32) {
        /* positions up to r are unwritten; those past r when a bit is used end the walk */
        for (uint32_t m = left_stops(c, x, r, piv); m; m &= m - 1) {
            const int z = x + __builtin_ctz(m);
            if (z > r)
                goto done;
            c[z] = c[r];
            c[r] = 0.0f;
            r--;
            last = z;
        }
    }
done:
    *pj = r;
    *pi = last + 1 > r + 1 ? last + 1 : r + 1;
}

void ls_cambi_select_avx2(float *c, unsigned n, unsigned k)
{
    if (k >= n)
        return;
    int lo = 0, hi = (int)n - 1;
    const int kk = (int)k;
    while (lo < hi) {
        int i, j;
        if (c[kk] == 0.0f)
            partition_zero(c, lo, hi, &i, &j);
        else
            partition(c, lo, hi, c[kk], &i, &j);
        if (j < kk)
            lo = i;
        if (kk < i)
            hi = j;
    }
}
