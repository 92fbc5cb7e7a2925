/* CAMBI (`cambi`, no-reference banding index): what the CPU extractor, its SIMD variants and a
 * GPU twin share. The option struct (first member of the extractor's private state, so a twin
 * takes the CPU's table itself), the init-time setup (working sizes, windows, thresholds, names,
 * refusals), the pooling, and the DSP units of the CPU path. Per-pixel arithmetic lives in
 * feature/cambi_math.h. Spec: shared/spec/features/cambi.md, tables/cambi.json. */
#ifndef LOCKSTEP_FEATURE_CAMBI_H
#define LOCKSTEP_FEATURE_CAMBI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "feature/cambi_math.h"

typedef struct LsCambiOptions {
    double cambi_max_val;
    int enc_width, enc_height, enc_bitdepth;
    int src_width, src_height;
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double cambi_vis_lum_threshold;
    int max_log_contrast;
    const char *heatmaps_path;
    bool full_ref;
    const char *eotf, *cambi_eotf;
    int cambi_high_res_speedup;
} LsCambiOptions;

extern const LsOption ls_cambi_options[];
extern const LsExtractor ls_fex_cambi;

/* How one picture is scored: its working size, window and the size of every scale. pos_x/pos_y:
 * the input column/row of each working sample when the working size differs from the input's
 * (§5.2), else NULL. */
typedef struct LsCambiGeometry {
    unsigned w, h;
    int window;
    int mask_index;
    unsigned sw[LS_CAMBI_NUM_SCALES], sh[LS_CAMBI_NUM_SCALES];
    int *pos_x, *pos_y;
} LsCambiGeometry;

typedef struct LsCambiState {
    LsCambiOptions opt;
    unsigned in_w, in_h, bpc;
    bool antidither;  /* encoder bit depth below 10 (§5.3) */
    bool speedup;     /* cambi_high_res_speedup in effect (§3.2) */
    double topk;      /* topk or cambi_topk (§2) */
    LsCambiThresholds thr;
    LsCambiGeometry dist, src; /* src: full-reference mode only */
    char name_score[256];
    int heatmap_fd[LS_CAMBI_NUM_SCALES]; /* -1 without heatmaps_path */
    double heatmap_scale;
} LsCambiState;

/* Fills s from the options and the input (§3, §4); refuses what cannot be scored with one line
 * (ls_fex_error, -EINVAL). Opens the heat-map files when asked to. */
int ls_cambi_state_init(LsCambiState *s, const LsCambiOptions *opt, const LsFex *fex, unsigned bpc,
                        unsigned w, unsigned h);
void ls_cambi_state_close(LsCambiState *s);

/* Visibility thresholds (§4.3) and the luminance threshold (§4.4) of the options; glibc pow.
 * Returns -1 for an unknown EOTF name. */
int ls_cambi_thresholds(LsCambiThresholds *t, const char *eotf, double tvi_threshold,
                        int max_log_contrast, double vis_lum_threshold);

/* What the pooling needs to know of a scale's c-values to skip the selection (§7): how many are
 * non-zero, their exact total in units of 2^-24 and the OR of those units, and how many are not
 * of the form these units cover (a non-zero c-value lies in [0.5, 2^14)). */
typedef struct LsCambiSums {
    uint64_t total, bits;
    uint32_t nonzero, odd;
} LsCambiSums;

/* Adds c[0..n-1] to sums. */
void ls_cambi_sums_add(LsCambiSums *sums, const float *c, unsigned n);

/* The three outputs of full-reference mode (§1) and the plain score, each capped. */
static inline double ls_cambi_cap(double x, double max_val) { return x < max_val ? x : max_val; }
static inline double ls_cambi_full_reference(double dist, double src, double max_val)
{
    const double d = dist - src;
    return ls_cambi_cap(0 > d ? 0 : d, max_val);
}

/* ---- DSP units (working pictures: uint16 10-bit values, uint8 masks 0/1) ---- */

/* z[j] = zero derivative at j of a row (§6.1); below = the next row, the row itself on the last. */
typedef void (*LsCambiZeroDerivFn)(uint8_t *z, const uint16_t *row, const uint16_t *below,
                                   unsigned w);
/* colsum[j] = colsum[j] + enter[j] - leave[j] for j < w (counts of the rows in the mask window:
 * a zero-derivative row enters, another leaves); nothing past w changes. */
typedef void (*LsCambiColsumFn)(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave,
                                unsigned w);
/* The working row of 8-bit input rows with the anti-dithering filter (§5.2, §5.3): the sum of
 * four samples shifted up by 2, shifted back by 2, is their plain sum, out[j] = row[j] +
 * row[j + 1] + below[j] + below[j + 1], the last column its own right neighbour. */
typedef void (*LsCambiAntidither8Fn)(uint16_t *out, const uint8_t *row, const uint8_t *below,
                                     unsigned w);
/* mask[j] = (colsum[j - 3] + ... + colsum[j + 3]) > mask_index, where colsum holds the
 * zero-derivative counts of the 7 rows around the mask row, with 3 zero entries before colsum[0]
 * and after colsum[w - 1] and readable up to 32 entries past them. */
typedef void (*LsCambiMaskRowFn)(uint8_t *mask, const uint8_t *colsum, unsigned w, int mask_index);
/* The horizontal pass of the mode filter (§6.2.1): out[0] and out[w - 1] copied. */
typedef void (*LsCambiModeHFn)(uint16_t *out, const uint16_t *row, unsigned w);
/* The vertical pass: out[j] = mode3(up[j], mid[j], down[j]); out may be the unfiltered row. */
typedef void (*LsCambiModeVFn)(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                               const uint16_t *down, unsigned w);
/* Row i of the next scale (§6.2): out[j] = in[2j], mout[j] = min[2j] (in and min hold 2w - 1
 * samples). out may be in (row 0: the write position never passes the read position). */
typedef void (*LsCambiDecimateFn)(uint16_t *out, uint8_t *mout, const uint16_t *in,
                                  const uint8_t *min, unsigned w);
/* The window counts of §6.3 come from one histogram row per value u in [lo, hi]: hist + (u - lo) *
 * hist_stride, whose entry j counts the masked pixels of value u in columns [j - pad, j + pad] of
 * the picture rows in the window. A picture row enters and leaves the window as its runs: maximal
 * stretches [start, end] of masked pixels of one value in [lo, hi]. */
typedef struct LsCambiRun {
    int32_t start, end;
} LsCambiRun;

/* The runs of a row, left to right; returns how many (at most w). */
typedef unsigned (*LsCambiRunsFn)(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                                  unsigned w, int lo, int hi);
/* Adds (sign 1) or removes (sign -1) a row's runs to the histograms: a run [c0, c1] adds to entry
 * t the overlap of [t - pad, t + pad] with it. Entries [w, w + 32) of a histogram row may change
 * too; adding and removing the same runs leaves them as they were. hist is 64-byte aligned,
 * hist_stride a multiple of 32 and >= w + 32. */
typedef void (*LsCambiHistRunsFn)(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                                  unsigned n, const uint16_t *vals, unsigned w, int pad, int lo,
                                  int sign);
/* The c-values of one row (§6.3): 0 outside its runs, else from the histograms of the row's
 * window; all w added to sums. Histogram rows of values [lo - n_diffs, hi + n_diffs] around hist
 * must be readable (those outside [lo, hi] hold 0). */
typedef void (*LsCambiCRunsFn)(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                               unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                               const LsCambiThresholds *t, LsCambiSums *sums);

/* The reference's quickselect (§7): the k largest values end in c[0..k-1] in the order its
 * partitions leave them (the double sum over them depends on that order). k <= n; k == n leaves c
 * alone. */
typedef void (*LsCambiSelectFn)(float *c, unsigned n, unsigned k);

typedef struct LsCambiDsp {
    LsCambiAntidither8Fn antidither8;
    LsCambiZeroDerivFn zero_deriv;
    LsCambiColsumFn colsum;
    LsCambiMaskRowFn mask_row;
    LsCambiModeHFn mode_h;
    LsCambiModeVFn mode_v;
    LsCambiDecimateFn decimate;
    LsCambiRunsFn runs;
    LsCambiHistRunsFn hist_runs;
    LsCambiCRunsFn c_runs;
    LsCambiSelectFn select;
} LsCambiDsp;

void ls_cambi_dsp_init(LsCambiDsp *dsp, uint64_t cpu_flags);

/* Spatial pooling of one scale (§7): the mean of the k = clamp((int)(topk * n), 1, n) largest
 * c-values, summed in double in the order the reference's selection leaves them. sums: of all n
 * values. c may be reordered. */
double ls_cambi_pool(const LsCambiDsp *dsp, float *c, unsigned n, double topk,
                     const LsCambiSums *sums);
/* The shortcut of ls_cambi_pool alone: true with the score when the sums decide it (the
 * c-values are not needed then). */
bool ls_cambi_pool_shortcut(unsigned n, double topk, const LsCambiSums *sums, double *score);
/* The input check of bit depths other than 8 and 16: the largest luma sample `top` must fit
 * (one line through ls_fex_error, -EINVAL, otherwise). */
int ls_cambi_check_top(unsigned top, unsigned bpc);
/* The reference's selection and sum, always (the test oracle of ls_cambi_pool's shortcut). */
double ls_cambi_pool_select(float *c, unsigned n, unsigned k);
/* (c[0] + ... + c[k - 1]) / k in double, in index order. */
double ls_cambi_top_mean(const float *c, unsigned k);

/* Whole-picture passes over the row units. */
static inline size_t ls_cambi_mask_tmp_size(unsigned w)
{
    return (size_t)(w + 64) * 12 + 16 * (size_t)w;
}
/* Working row r (w samples, called for r = 0, 1, ..., h - 1 in turn): written into buf, or found
 * elsewhere (the input row itself when it needs no conversion); *row is set to where it is, and
 * stays valid until the pass ends. Non-zero stops the pass. */
typedef int (*LsCambiRowFn)(void *ctx, unsigned r, uint16_t *buf, const uint16_t **row);
/* M of a w x h working picture (§6.1), and the picture and mask that scale 0 starts from: the
 * whole picture, or with `half` (the speed-up, §6.2) its even rows and columns, sampled as they
 * are made so that the full-size picture never goes to memory. img and mask have rows `stride`
 * apart. The working rows come from row(ctx, ...); row NULL: img holds the picture already (not
 * with half). tmp: ls_cambi_mask_tmp_size(w) bytes. Returns 0 or what row returned. */
int ls_cambi_spatial_mask(const LsCambiDsp *dsp, uint16_t *img, uint8_t *mask, ptrdiff_t stride,
                          unsigned w, unsigned h, int mask_index, bool half, LsCambiRowFn row,
                          void *ctx, void *tmp);
/* The mode filter in place (§6.2.1); tmp: 3 * w uint16. */
void ls_cambi_mode_filter(const LsCambiDsp *dsp, uint16_t *img, ptrdiff_t stride, unsigned w,
                          unsigned h, uint16_t *tmp);

/* Memory of the c-value pass for scales up to w columns and windows up to `window`: the
 * histograms of the values [lo, hi] with n_diffs zero rows on each side, all zero between passes,
 * and the runs of the rows in a window. */
typedef struct LsCambiWindowMem {
    uint16_t *mem, *hist; /* hist: the row of value lo */
    ptrdiff_t hist_stride;
    LsCambiRun *runs;
    unsigned runs_per_row, ring;
} LsCambiWindowMem;

int ls_cambi_window_mem_alloc(LsCambiWindowMem *m, const LsCambiThresholds *t, unsigned w,
                              int window);
void ls_cambi_window_mem_free(LsCambiWindowMem *m);
/* The c-values of a w x h scale (§6.3) into c (row-major, stride w), added to sums. */
void ls_cambi_c_values(const LsCambiDsp *dsp, const LsCambiThresholds *t, LsCambiWindowMem *m,
                       float *c, const uint16_t *img, const uint8_t *mask, ptrdiff_t stride,
                       unsigned w, unsigned h, int window, LsCambiSums *sums);

/* the C references (also the SIMD variants' tails) */
void ls_cambi_antidither8_c(uint16_t *out, const uint8_t *row, const uint8_t *below, unsigned w);
void ls_cambi_zero_deriv_c(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned w);
void ls_cambi_colsum_c(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave, unsigned w);
void ls_cambi_mask_row_c(uint8_t *mask, const uint8_t *colsum, unsigned w, int mask_index);
void ls_cambi_mode_h_c(uint16_t *out, const uint16_t *row, unsigned w);
void ls_cambi_mode_v_c(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                       const uint16_t *down, unsigned w);
void ls_cambi_decimate_c(uint16_t *out, uint8_t *mout, const uint16_t *in, const uint8_t *min,
                         unsigned w);
void ls_cambi_select_c(float *c, unsigned n, unsigned k);
unsigned ls_cambi_runs_c(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask, unsigned w,
                         int lo, int hi);
void ls_cambi_hist_runs_c(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                          unsigned n, const uint16_t *vals, unsigned w, int pad, int lo, int sign);
void ls_cambi_c_runs_c(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                       unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                       const LsCambiThresholds *t, LsCambiSums *sums);

void ls_cambi_antidither8_avx2(uint16_t *out, const uint8_t *row, const uint8_t *below,
                               unsigned w);
void ls_cambi_zero_deriv_avx2(uint8_t *z, const uint16_t *row, const uint16_t *below, unsigned w);
void ls_cambi_colsum_avx2(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave, unsigned w);
void ls_cambi_mask_row_avx2(uint8_t *mask, const uint8_t *colsum, unsigned w, int mask_index);
void ls_cambi_mode_h_avx2(uint16_t *out, const uint16_t *row, unsigned w);
void ls_cambi_mode_v_avx2(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                          const uint16_t *down, unsigned w);
void ls_cambi_decimate_avx2(uint16_t *out, uint8_t *mout, const uint16_t *in, const uint8_t *min,
                            unsigned w);
void ls_cambi_select_avx2(float *c, unsigned n, unsigned k);
unsigned ls_cambi_runs_avx2(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                            unsigned w, int lo, int hi);
void ls_cambi_hist_runs_avx2(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                             unsigned n, const uint16_t *vals, unsigned w, int pad, int lo,
                             int sign);
void ls_cambi_c_runs_avx2(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                          unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                          const LsCambiThresholds *t, LsCambiSums *sums);
void ls_cambi_antidither8_avx512(uint16_t *out, const uint8_t *row, const uint8_t *below,
                                 unsigned w);
void ls_cambi_zero_deriv_avx512(uint8_t *z, const uint16_t *row, const uint16_t *below,
                                unsigned w);
void ls_cambi_mode_h_avx512(uint16_t *out, const uint16_t *row, unsigned w);
void ls_cambi_mode_v_avx512(uint16_t *out, const uint16_t *up, const uint16_t *mid,
                            const uint16_t *down, unsigned w);
void ls_cambi_decimate_avx512(uint16_t *out, uint8_t *mout, const uint16_t *in,
                              const uint8_t *min, unsigned w);
unsigned ls_cambi_runs_avx512(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                              unsigned w, int lo, int hi);
void ls_cambi_colsum_avx512(uint8_t *colsum, const uint8_t *enter, const uint8_t *leave,
                            unsigned w);
void ls_cambi_hist_runs_avx512(uint16_t *hist, ptrdiff_t hist_stride, const LsCambiRun *runs,
                               unsigned n, const uint16_t *vals, unsigned w, int pad, int lo,
                               int sign);
void ls_cambi_c_runs_avx512(float *c, const LsCambiRun *runs, unsigned n, const uint16_t *vals,
                            unsigned w, const uint16_t *hist, ptrdiff_t hist_stride,
                            const LsCambiThresholds *t, LsCambiSums *sums);

#endif
