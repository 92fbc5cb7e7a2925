/* CAMBI arithmetic that every backend must run identically (shared/spec/features/cambi.md): the
 * window and mask-threshold rules, the 10-bit conversion, the resampling positions, the
 * anti-dithering average, the zero-derivative test, the 3-sample mode, the c-value of one pixel
 * from its window counts, and the weighting of the five scale scores. The C reference calls these;
 * a GPU twin includes this header too. Everything compiles as C11 and under nvcc (LS_HD functions,
 * LS_CONSTANT tables, no libc); nvcc must run with --fmad=false.
 *
 * Exactness notes: every step is integer except
 *   - the c-value term: an int product converted to float (round to nearest even, it can exceed
 *     2^24), times a binary32 reciprocal from the table, one float rounding (§6.3);
 *   - the resampling positions: accumulated in float, one addition per output sample (§5.2);
 *   - the frame score: a double chain in scale order, then one double division (§8). */
#ifndef LOCKSTEP_FEATURE_CAMBI_MATH_H
#define LOCKSTEP_FEATURE_CAMBI_MATH_H

#include "core/portable.h"
#include "feature/cambi_tables.h"

#define LS_CAMBI_NUM_SCALES 5
#define LS_CAMBI_MASK_RADIUS 3 /* the 7x7 zero-derivative count */
/* the largest adjusted window whose p0 + pm fits the reciprocal table: 65 * 65 < 4226 */
#define LS_CAMBI_MAX_WINDOW 65
/* the rows of a window plus one */
#define LS_CAMBI_RING_MAX (LS_CAMBI_MAX_WINDOW + 1)
/* working pictures are 10-bit code values; 12- and 16-bit input can round up to 1024 */
#define LS_CAMBI_MAX_VALUE 1024

/* Window at the working size (§3.3): unsigned integer arithmetic, halved with the speed-up, odd. */
LS_HD static inline int ls_cambi_adjust_window(int window_size, unsigned w, unsigned h, int speedup)
{
    unsigned ws = (((unsigned)window_size * (w + h)) / 375u) >> 4;
    if (speedup)
        ws = (ws + 1) >> 1;
    return (int)(ws | 1u);
}

/* Threshold of the 7x7 zero-derivative count (§6.1), from the full working size. */
LS_HD static inline int ls_cambi_mask_index(unsigned w, unsigned h)
{
    const unsigned n = (w >> 6) * (h >> 6);
    int ceil_log2 = 0;
    for (unsigned x = n ? n - 1 : 0; x; x >>= 1)
        ceil_log2++;
    return (49 + 3 * (ceil_log2 - 11) - 1) >> 1;
}

/* One input sample to the 10-bit scale (§5.2); 12..16-bit input rounds half up, so the largest
 * sample becomes 1024. */
LS_HD static inline int ls_cambi_to_10bit(unsigned v, unsigned bpc)
{
    if (bpc <= 9)
        return (int)(v << (10 - bpc));
    if (bpc == 10)
        return (int)v;
    return (int)((v + (1u << (bpc - 11))) >> (bpc - 10));
}

/* The input positions of a nearest-neighbour resampling from in_n to out_n samples (§5.2): the
 * position is accumulated in float, one addition per output, and rounded through double. The
 * accumulated error can carry the last position past the input when in_n / out_n is close to 1
 * (the reference then reads outside the picture); it is clamped to the last sample. */
LS_HD static inline void ls_cambi_resample_positions(int *pos, unsigned in_n, unsigned out_n)
{
    const float step = (float)in_n / (float)out_n;
    float x = (float)((double)(step / 2.0f) - 0.5);
    for (unsigned j = 0; j < out_n; j++) {
        const int p = (int)((double)x + 0.5);
        pos[j] = p > (int)in_n - 1 ? (int)in_n - 1 : p;
        x = x + step;
    }
}

/* The anti-dithering filter (§5.3) at (i, j) of a picture w samples wide, from the unfiltered
 * samples: the floor average of the 2x2 block to the right and below. row = the unfiltered row i,
 * below = row i + 1, or row i itself on the last row; the last column uses itself as its right
 * neighbour. Doubling a sample turns the 2x2 average into the spec's averages of two at the edges
 * ((2a + 2c) >> 2 = (a + c) >> 1) and the corner into itself, so one branch-free form covers all. */
LS_HD static inline int ls_cambi_avg4(int a, int b, int c, int d) { return (a + b + c + d) >> 2; }

LS_HD static inline int ls_cambi_antidither(const LS_GLOBAL unsigned short *row,
                                            const LS_GLOBAL unsigned short *below, int j, int w)
{
    const int r = j + 1 < w ? j + 1 : j;
    return ls_cambi_avg4(row[j], row[r], below[j], below[r]);
}

/* Zero derivative at (i, j) (§6.1): equal to the right and to the lower neighbour, where they
 * exist (row and below as for ls_cambi_antidither: a missing neighbour is the sample itself). */
LS_HD static inline int ls_cambi_zero_derivative(const LS_GLOBAL unsigned short *row,
                                                 const LS_GLOBAL unsigned short *below, int j,
                                                 int w)
{
    const int r = j + 1 < w ? j + 1 : j;
    return row[j] == row[r] && row[j] == below[j];
}

/* The mode of three samples with the reference's tie rules (§6.2.1). */
LS_HD static inline int ls_cambi_mode3(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    const int m = a < b ? a : b;
    return m < c ? m : c;
}

/* Thresholds of the c-value (§3.5, §4): n_diffs = 2^max_log_contrast contrast steps, tvi[d - 1]
 * the largest value at which a step of d is visible, vlt the luminance threshold in code values.
 * Values outside [lo, hi] never enter a c-value: they need not be counted. */
typedef struct LsCambiThresholds {
    int n_diffs;
    int tvi[LS_CAMBI_MAX_DIFFS];
    int vlt;
    int lo, hi;
} LsCambiThresholds;

/* One contrast step's term (§6.3): weight * p0 * pm as int, rounded to float, times the table's
 * reciprocal of p0 + pm, rounded to float. pm + p0 <= window^2 <= 4225. */
LS_HD static inline float ls_cambi_term(int weight, int p0, int pm)
{
    return (float)(weight * p0 * pm) * ls_cambi_reciprocal[pm + p0];
}

/* Whether contrast step d (1-based) takes part at value v: visible (v <= tvi) and above the
 * luminance threshold, with the reference's offset of n_diffs on the value. */
LS_HD static inline int ls_cambi_step_active(const LsCambiThresholds *t, int v, int d)
{
    return v <= t->tvi[d - 1] && v + t->n_diffs + d > t->vlt;
}

/* The c-value of a masked pixel of value v (§6.3). cnt points at the count of v among the masked
 * pixels of its window; cnt[d] and cnt[-d] are the counts of v + d and v - d (0 below value 0),
 * for d = 1..n_diffs. The maximum over the active steps, from 0. */
LS_HD static inline float ls_cambi_c_value(const LsCambiThresholds *t, int v, const int *cnt)
{
    const int p0 = cnt[0];
    float c = 0.0f;
    for (int d = 1; d <= t->n_diffs; d++) {
        if (!ls_cambi_step_active(t, v, d))
            continue;
        const int p1 = cnt[d], p2 = cnt[-d];
        const float val = ls_cambi_term(ls_cambi_contrast_weights[d - 1], p0, p1 > p2 ? p1 : p2);
        if (val > c)
            c = val;
    }
    return c;
}

/* One c-value in the pooling's exact sums (cambi.h, LsCambiSums): 0 for a zero, 1 with its
 * value in units of 2^-24 in *units, 2 for a value these units do not cover (not in [0.5, 2^14)).
 * A non-zero c-value is w * p0 * pm / (p0 + pm) (within a few float roundings) with p0, pm >= 1
 * and w <= 9, p0 + pm <= 4225: it lies in [0.5, 2^14), an integer multiple of 2^-24 below 2^38. */
LS_HD static inline int ls_cambi_sum_units(float c, ls_u64 *units)
{
    const ls_u32 b = ls_float_bits(c);
    if (!b)
        return 0;
    const ls_u32 e = b >> 23; /* the sign is 0 */
    if (e < 126 || e > 140)
        return 2;
    *units = (ls_u64)((b & 0x7fffffu) | 0x800000u) << (e - 126);
    return 1;
}

/* The frame score from the five pooled scale scores (§8): a double chain in scale order, divided
 * by the pixels of a full window. */
LS_HD static inline double ls_cambi_frame_score(const double score[LS_CAMBI_NUM_SCALES], int window)
{
    double acc = 0.0;
    for (int s = 0; s < LS_CAMBI_NUM_SCALES; s++)
        acc = acc + score[s] * (double)ls_cambi_scale_weights[s];
    return acc / (double)(window * window);
}

#endif
