/* Extractor `cambi`: the Contrast Aware Multiscale Banding Index of the distorted picture (and of
 * the reference in full-reference mode). Per frame, no state across frames: frames run in
 * parallel. Spec: shared/spec/features/cambi.md.
 *
 * Per picture: 10-bit working picture (§5), spatial mask (§6.1), then five scales of decimation,
 * mode filter, c-values from sliding window histograms (§6.3) and top-k pooling (§7). */
#define _POSIX_C_SOURCE 200809L /* pwrite, mkdir */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/extractor.h"
#include "core/picture_ref.h"
#include "feature/cambi.h"

#define CAMBI_MIN_SIDE 216 /* one side must be at least this (§3.1) */

const LsOption ls_cambi_options[] = {
    { .name = "cambi_max_val", .alias = "cmxv",
      .help = "maximum value allowed; larger values will be clipped to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsCambiOptions, cambi_max_val), .def.d = 1000.0,
      .min = 0.0, .max = 1000.0, .flags = LS_OPT_FEATURE_PARAM },
    /* the int defaults 0 ("the input's value") lie outside the ranges on purpose: an explicit 0
     * is rejected, as in the reference */
    { .name = "enc_width", .alias = "encw", .help = "Encoding width", .type = LS_OPT_INT,
      .offset = offsetof(LsCambiOptions, enc_width), .def.i = 0, .min = 180, .max = 7680,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "enc_height", .alias = "ench", .help = "Encoding height", .type = LS_OPT_INT,
      .offset = offsetof(LsCambiOptions, enc_height), .def.i = 0, .min = 150, .max = 7680,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "enc_bitdepth", .alias = "encbd", .help = "Encoding bitdepth", .type = LS_OPT_INT,
      .offset = offsetof(LsCambiOptions, enc_bitdepth), .def.i = 0, .min = 6, .max = 16,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "src_width", .alias = "srcw", .help = "Source width. Only used when full_ref=true.",
      .type = LS_OPT_INT, .offset = offsetof(LsCambiOptions, src_width), .def.i = 0, .min = 320,
      .max = 7680, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "src_height", .alias = "srch", .help = "Source height. Only used when full_ref=true.",
      .type = LS_OPT_INT, .offset = offsetof(LsCambiOptions, src_height), .def.i = 0, .min = 200,
      .max = 4320, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "window_size", .alias = "ws",
      .help = "Window size to compute CAMBI: 65 corresponds to ~1 degree at 4k", .type = LS_OPT_INT,
      .offset = offsetof(LsCambiOptions, window_size), .def.i = 65, .min = 15, .max = 127,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "topk",
      .help = "Ratio of pixels for the spatial pooling computation, must be 0 < topk <= 1.0",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsCambiOptions, topk), .def.d = 0.6,
      .min = 0.0001, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "cambi_topk", .alias = "ctpk",
      .help = "Ratio of pixels for the spatial pooling computation, must be 0 < cambi_topk <= 1.0",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsCambiOptions, cambi_topk), .def.d = 0.6,
      .min = 0.0001, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "tvi_threshold", .alias = "tvit",
      .help = "Visibilty threshold for luminance \xce\x94L < tvi_threshold*L_mean",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsCambiOptions, tvi_threshold), .def.d = 0.019,
      .min = 0.0001, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "cambi_vis_lum_threshold", .alias = "vlt",
      .help = "Luminance value below which we assume any banding is not visible",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsCambiOptions, cambi_vis_lum_threshold),
      .def.d = 0.0, .min = 0.0, .max = 300.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "max_log_contrast", .alias = "mlc",
      .help = "Maximum contrast in log luma level (2^max_log_contrast) at 10-bits, e.g., 2 is "
              "equivalent to 4 luma levels at 10-bit and 1 luma level at 8-bit. From 0 to 5: "
              "default 2 is recommended for banding from compression.",
      .type = LS_OPT_INT, .offset = offsetof(LsCambiOptions, max_log_contrast), .def.i = 2,
      .min = 0, .max = 5, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "heatmaps_path", .help = "Path where heatmaps will be dumped.", .type = LS_OPT_STRING,
      .offset = offsetof(LsCambiOptions, heatmaps_path), .def.s = NULL },
    { .name = "full_ref",
      .help = "If true, CAMBI will be run in full-reference mode and will be computed on both the "
              "reference and distorted inputs",
      .type = LS_OPT_BOOL, .offset = offsetof(LsCambiOptions, full_ref), .def.b = false },
    { .name = "eotf",
      .help = "Determines the EOTF used to compute the visibility thresholds. Possible values: "
              "['bt1886', 'pq']. Default: 'bt1886'",
      .type = LS_OPT_STRING, .offset = offsetof(LsCambiOptions, eotf), .def.s = "bt1886",
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "cambi_eotf", .alias = "ceot",
      .help = "Determines the EOTF used to compute the visibility thresholds. Possible values: "
              "['bt1886', 'pq']. Default: 'bt1886' If both eotf and cambi_eotf are set, cambi_eotf "
              "takes precedence.",
      .type = LS_OPT_STRING, .offset = offsetof(LsCambiOptions, cambi_eotf), .def.s = "bt1886",
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "cambi_high_res_speedup", .alias = "hrs",
      .help = "Speed up the processing by downsampling post spatial mask for resolutions >= "
              "1080p. Min speed-up resolution possible values: [1080, 1440, 2160, 0]. Default: 0 "
              "(not applied)Note some loss of accuracy is expected with this speedup.",
      .type = LS_OPT_INT, .offset = offsetof(LsCambiOptions, cambi_high_res_speedup), .def.i = 0,
      .min = 0, .max = 2160, .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

/* ---- luminance model (§4), double, glibc pow, init only ---- */

typedef double (*EotfFn)(double);

static double eotf_bt1886(double v)
{
    const double gamma = 2.4, lw = 300.0, lb = 0.01;
    const double a = pow(pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma), gamma);
    const double b = pow(lb, 1.0 / gamma) / (pow(lw, 1.0 / gamma) - pow(lb, 1.0 / gamma));
    const double x = v + b;
    return a * pow(x > 0 ? x : 0, gamma);
}

static double eotf_pq(double v)
{
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625,
                 c3 = 18.6875;
    const double num = pow(v, 1.0 / m2) - c1;
    const double den = c2 - c3 * pow(v, 1.0 / m2);
    return 10000 * pow((num > 0 ? num : 0) / den, 1.0 / m1);
}

/* 10-bit limited range: foot 64, head 940 */
static double luminance(EotfFn eotf, int s)
{
    const int c = s < 64 ? 64 : s > 940 ? 940 : s;
    return eotf((double)(c - 64) / 876);
}

static bool visible(EotfFn eotf, int s, int diff, double t)
{
    const double l = luminance(eotf, s);
    return luminance(eotf, s + diff) - l > t * l;
}

enum { TOO_BIG, TOO_SMALL, EXACT };

static int tvi_test(EotfFn eotf, int s, int diff, double t)
{
    if (!visible(eotf, s, diff, t))
        return TOO_BIG;
    if (visible(eotf, s + 1, diff, t))
        return TOO_SMALL;
    return EXACT;
}

/* The largest code value at which a step of diff is visible (§4.3): the reference's bisection. */
static int tvi_for_diff(EotfFn eotf, int diff, double t)
{
    int lo = 64, hi = 940 - diff - 1;
    int r = tvi_test(eotf, lo, diff, t);
    if (r == TOO_BIG)
        return 0;
    if (r == EXACT)
        return lo;
    r = tvi_test(eotf, hi, diff, t);
    if (r == TOO_SMALL)
        return 1023;
    if (r == EXACT)
        return hi;
    for (;;) {
        const int mid = lo + (hi - lo) / 2;
        r = tvi_test(eotf, mid, diff, t);
        if (r == EXACT)
            return mid;
        if (r == TOO_BIG)
            hi = mid;
        else
            lo = mid;
    }
}

int ls_cambi_thresholds(LsCambiThresholds *t, const char *eotf_name, double tvi_threshold,
                        int max_log_contrast, double vis_lum_threshold)
{
    EotfFn eotf;
    if (!strcmp(eotf_name, "bt1886"))
        eotf = eotf_bt1886;
    else if (!strcmp(eotf_name, "pq"))
        eotf = eotf_pq;
    else
        return -1;
    memset(t, 0, sizeof(*t));
    t->n_diffs = 1 << max_log_contrast;
    for (int d = 1; d <= t->n_diffs; d++)
        t->tvi[d - 1] = tvi_for_diff(eotf, d, tvi_threshold);
    /* luminance is constant above code 940, where it equals Lw (300 or 10000 cd/m2, at least the
     * option's maximum): the search ends there */
    int s = 64;
    while (s < 1023 && luminance(eotf, s) < vis_lum_threshold)
        s++;
    t->vlt = s == 64 ? 0 : s;
    /* values that any c-value reads (§6.3): v <= tvi[d] with v + d read, v + N + d > vlt with
     * v - d read */
    int hi = 0;
    for (int d = 1; d <= t->n_diffs; d++)
        if (t->tvi[d - 1] + d > hi)
            hi = t->tvi[d - 1] + d;
    t->hi = hi < LS_CAMBI_MAX_VALUE ? hi : LS_CAMBI_MAX_VALUE;
    const int lo = t->vlt - 3 * t->n_diffs + 1;
    t->lo = lo > 0 ? lo : 0;
    return 0;
}

/* ---- pooling (§7) ---- */

double ls_cambi_pool_select(float *c, unsigned n, unsigned k)
{
    ls_cambi_select_c(c, n, k);
    return ls_cambi_top_mean(c, k);
}

double ls_cambi_top_mean(const float *c, unsigned k)
{
    /* in index order; +0.0 leaves a non-negative double sum as it is */
    double sum = 0.0;
    for (unsigned t = 0; t < k; t++)
        if (c[t] != 0.0f)
            sum += (double)c[t];
    return sum / (double)k;
}

void ls_cambi_sums_add(LsCambiSums *sums, const float *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t f = 0;
        switch (ls_cambi_sum_units(c[i], &f)) {
        case 0: break;
        case 1:
            sums->nonzero++;
            sums->total += f;
            sums->bits |= f;
            break;
        default: sums->odd++; break;
        }
    }
}

static unsigned pool_k(unsigned n, double topk)
{
    int k = (int)(topk * (double)n);
    return (unsigned)(k < 1 ? 1 : k > (int)n ? (int)n : k);
}

bool ls_cambi_pool_shortcut(unsigned n, double topk, const LsCambiSums *sums, double *score)
{
    const unsigned k = pool_k(n, topk);
    /* When the non-zero values are at most k, the k largest are all of them plus zeros. If
     * moreover every partial sum of them is exact in double (all are multiples of 2^g and their
     * total is below 2^(53+g)), the reference's double sum in its own order equals the exact
     * total, whatever the order: no selection is needed. n < 2^25 keeps the total below 2^63. */
    if (!sums->odd && n < (1u << 25) && sums->nonzero <= k) {
        const int g = sums->bits ? __builtin_ctzll(sums->bits) : 0;
        if ((sums->total >> g) < ((uint64_t)1 << 53)) {
            *score = ldexp((double)sums->total, -24) / (double)k;
            return true;
        }
    }
    return false;
}

double ls_cambi_pool(const LsCambiDsp *dsp, float *c, unsigned n, double topk,
                     const LsCambiSums *sums)
{
    double score;
    if (ls_cambi_pool_shortcut(n, topk, sums, &score))
        return score;
    const unsigned k = pool_k(n, topk);
    dsp->select(c, n, k);
    return ls_cambi_top_mean(c, k);
}

int ls_cambi_check_top(unsigned top, unsigned bpc)
{
    const unsigned max = (1u << bpc) - 1;
    if (top > max)
        return ls_fex_error(NULL,
                            "cambi: invalid input: a luma sample is %u, above %u, the largest "
                            "%u-bit value",
                            top, max, bpc);
    return 0;
}

/* ---- init ---- */

static unsigned half_up(unsigned x) { return (x + 1) >> 1; }

static void scale_sizes(LsCambiGeometry *g, bool speedup)
{
    unsigned w = g->w, h = g->h;
    for (int s = 0; s < LS_CAMBI_NUM_SCALES; s++) {
        if (s > 0 || speedup) {
            w = half_up(w);
            h = half_up(h);
        }
        g->sw[s] = w;
        g->sh[s] = h;
    }
}

/* Every scale must be larger than the half window in both directions (cambi.md §11: the
 * reference reads stale rows and columns otherwise). Returns the first failing scale or -1. */
static int small_scale(const LsCambiGeometry *g)
{
    const unsigned pad = (unsigned)g->window >> 1;
    for (int s = 0; s < LS_CAMBI_NUM_SCALES; s++)
        if (g->sw[s] <= pad || g->sh[s] <= pad)
            return s;
    return -1;
}

static bool speedup_applies(int option, unsigned w, unsigned h)
{
    const unsigned long p = (unsigned long)w * h;
    return (option == 1080 && p >= 1920ul * 1080) || (option == 1440 && p >= 2560ul * 1440) ||
           (option == 2160 && p >= 3840ul * 2160);
}

static int geometry_init(const LsFex *fex, LsCambiGeometry *g, const char *what, unsigned w,
                         unsigned h, int window_size, bool speedup, unsigned in_w, unsigned in_h)
{
    g->w = w;
    g->h = h;
    g->window = ls_cambi_adjust_window(window_size, w, h, speedup);
    g->mask_index = ls_cambi_mask_index(w, h);
    scale_sizes(g, speedup);
    const int s = small_scale(g);
    if (s >= 0) {
        /* the smallest working height at this width, and width at this height, that work (a
         * picture too thin for every width has no such width) */
        char fix[96] = "";
        unsigned found = 0;
        for (int dim = 0; dim < 2; dim++) {
            LsCambiGeometry t = *g;
            unsigned *grow = dim ? &t.w : &t.h;
            for (; *grow < 32768; (*grow)++) {
                t.window = ls_cambi_adjust_window(window_size, t.w, t.h, speedup);
                scale_sizes(&t, speedup);
                if (small_scale(&t) < 0)
                    break;
            }
            if (*grow < 32768) {
                const size_t used = strlen(fix);
                snprintf(fix + used, sizeof(fix) - used, "%s%ux%u", found++ ? " or " : "; ", t.w,
                         t.h);
            }
        }
        return ls_fex_error(fex,
                            "cambi: %s %ux%u is too small for its %d-sample window: scale %d is "
                            "%ux%u, and every scale needs more than %d rows and columns%s%s",
                            what, w, h, g->window, s, g->sw[s], g->sh[s], g->window >> 1, fix,
                            found ? " works" : "");
    }
    if (w != in_w || h != in_h) {
        g->pos_x = malloc(w * sizeof(*g->pos_x));
        g->pos_y = malloc(h * sizeof(*g->pos_y));
        if (!g->pos_x || !g->pos_y)
            return -ENOMEM;
        ls_cambi_resample_positions(g->pos_x, in_w, w);
        ls_cambi_resample_positions(g->pos_y, in_h, h);
    }
    return 0;
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    const size_t n = strlen(path);
    if (n >= sizeof(buf))
        return -ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        const char keep = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0770) && errno != EEXIST)
            return -errno;
        buf[i] = keep;
    }
    return 0;
}

static int heatmaps_open(LsCambiState *s, const LsFex *fex)
{
    const char *dir = s->opt.heatmaps_path;
    int err = mkdir_p(dir);
    if (err)
        return ls_fex_error(fex, "cambi: cannot create the heat-map directory \"%s\": %s", dir,
                            strerror(-err));
    unsigned w = s->dist.w, h = s->dist.h; /* the names ignore the speed-up */
    for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++) {
        char path[4352];
        snprintf(path, sizeof(path), "%s/cambi_heatmap_scale_%d_%ux%u_16b.gray", dir, k, w, h);
        s->heatmap_fd[k] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (s->heatmap_fd[k] < 0)
            return ls_fex_error(fex, "cambi: cannot open the heat map \"%s\": %s", path,
                                strerror(errno));
        w = half_up(w);
        h = half_up(h);
    }
    const int max_weight = ls_cambi_contrast_weights[s->thr.n_diffs - 1];
    s->heatmap_scale = 65535.0 / ((max_weight * s->dist.window * s->dist.window) / 4);
    return 0;
}

void ls_cambi_state_close(LsCambiState *s)
{
    for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++) {
        if (s->heatmap_fd[k] >= 0)
            close(s->heatmap_fd[k]);
        s->heatmap_fd[k] = -1;
    }
    free(s->dist.pos_x);
    free(s->dist.pos_y);
    free(s->src.pos_x);
    free(s->src.pos_y);
    s->dist.pos_x = s->dist.pos_y = s->src.pos_x = s->src.pos_y = NULL;
}

static int state_init(LsCambiState *s, const LsFex *fex, unsigned bpc, unsigned w, unsigned h)
{
    const LsCambiOptions *o = &s->opt;
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "cambi: bit depth %u is not supported (8..16)", bpc);
    s->in_w = w;
    s->in_h = h;
    s->bpc = bpc;
    s->antidither = (o->enc_bitdepth ? (unsigned)o->enc_bitdepth : bpc) < 10;
    s->topk = o->topk != 0.6 ? o->topk : o->cambi_topk;
    const char *eotf = strcmp(o->cambi_eotf, "bt1886") ? o->cambi_eotf : o->eotf;
    if (ls_cambi_thresholds(&s->thr, eotf, o->tvi_threshold, o->max_log_contrast,
                            o->cambi_vis_lum_threshold))
        return ls_fex_error(fex, "cambi: unknown EOTF \"%s\" (bt1886 or pq)", eotf);

    /* working sizes (§3.1) */
    unsigned ew = w, eh = h, sw = w, sh = h;
    const char *enc_what = "frame", *src_what = "frame";
    if (o->enc_width && o->enc_height) {
        ew = (unsigned)o->enc_width;
        eh = (unsigned)o->enc_height;
        enc_what = "enc_width x enc_height";
    }
    if (o->src_width && o->src_height) {
        sw = (unsigned)o->src_width;
        sh = (unsigned)o->src_height;
        src_what = "src_width x src_height";
    }
    if (eh > h || ew > w) { /* the distorted picture is never upscaled */
        ew = w;
        eh = h;
        enc_what = "frame";
    }
    if (ew < CAMBI_MIN_SIDE && eh < CAMBI_MIN_SIDE)
        return ls_fex_error(fex,
                            "cambi: %s %ux%u is too small: CAMBI needs a width or a height of at "
                            "least %d",
                            enc_what, ew, eh, CAMBI_MIN_SIDE);
    if (sw < CAMBI_MIN_SIDE && sh < CAMBI_MIN_SIDE)
        return ls_fex_error(fex,
                            "cambi: %s %ux%u is too small: CAMBI needs a width or a height of at "
                            "least %d",
                            src_what, sw, sh, CAMBI_MIN_SIDE);
    if ((sw > ew && sh < eh) || (sw < ew && sh > eh))
        return ls_fex_error(fex,
                            "cambi: the source size %ux%u and the encoding size %ux%u must not be "
                            "larger in one dimension and smaller in the other",
                            sw, sh, ew, eh);
    if (o->full_ref && (sw > w || sh > h))
        return ls_fex_error(fex,
                            "cambi: src_width x src_height %ux%u is larger than the input %ux%u; "
                            "full-reference mode does not upscale the reference",
                            sw, sh, w, h);

    s->speedup = speedup_applies(o->cambi_high_res_speedup, ew, eh);
    /* the window limit (§3.4): the source window is checked also without full_ref */
    const int win = ls_cambi_adjust_window(o->window_size, ew, eh, s->speedup);
    const int src_win = ls_cambi_adjust_window(o->window_size, sw, sh, s->speedup);
    if (win > LS_CAMBI_MAX_WINDOW || src_win > LS_CAMBI_MAX_WINDOW) {
        /* what would help: the speed-up where it can apply to this size, a smaller window,
         * smaller working sizes (both when both windows are too large) */
        const bool enc = win > LS_CAMBI_MAX_WINDOW, src = src_win > LS_CAMBI_MAX_WINDOW;
        const bool can_speed_up = !s->speedup && speedup_applies(1080, ew, eh);
        return ls_fex_error(
            fex,
            "cambi: window_size %d at %ux%u (%s) gives a window of %d, larger than the %d that the "
            "reciprocal table allows (window_size 65 works up to width + height = 6092); use %sa "
            "smaller window_size, or %s%s%s of at most 3840x2160",
            o->window_size, enc ? ew : sw, enc ? eh : sh, enc ? enc_what : src_what,
            enc ? win : src_win, LS_CAMBI_MAX_WINDOW,
            can_speed_up ? "cambi_high_res_speedup=1080, " : "", enc ? "enc_width/enc_height" : "",
            enc && src ? " and " : "", src ? "src_width/src_height" : "");
    }
    int err = geometry_init(fex, &s->dist, enc_what, ew, eh, o->window_size, s->speedup, w, h);
    if (!err && o->full_ref)
        err = geometry_init(fex, &s->src, src_what, sw, sh, o->window_size, s->speedup, w, h);
    if (!err && o->heatmaps_path)
        err = heatmaps_open(s, fex);
    return err;
}

int ls_cambi_state_init(LsCambiState *s, const LsCambiOptions *opt, const LsFex *fex, unsigned bpc,
                        unsigned w, unsigned h)
{
    memset(s, 0, sizeof(*s));
    s->opt = *opt;
    for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++)
        s->heatmap_fd[k] = -1;
    /* names come from the options as given, before the defaults are filled in */
    ls_fex_feature_name(fex, s->name_score, sizeof(s->name_score), "Cambi_feature_cambi_score",
                        "cambi");
    const int err = state_init(s, fex, bpc, w, h);
    if (err)
        ls_cambi_state_close(s);
    return err;
}

/* ---- one picture ---- */

/* Per-call memory, kept in a pool so that frames in flight each have theirs without
 * reallocating (and faulting in) tens of megabytes per frame. */
typedef struct Scratch {
    struct Scratch *next;
    uint16_t *img;
    uint8_t *mask;
    float *c;
    uint16_t *conv; /* two converted input rows */
    LsCambiWindowMem window;
    void *tmp;
} Scratch;

typedef struct CambiPriv {
    LsCambiOptions opt; /* first: the option table's offsets point here */
    LsCambiState state;
    LsCambiDsp dsp;
    pthread_mutex_t lock;
    bool have_lock;
    Scratch *free_scratch;
} CambiPriv;

static void scratch_free(Scratch *x)
{
    if (!x)
        return;
    free(x->img);
    free(x->mask);
    free(x->c);
    free(x->conv);
    ls_cambi_window_mem_free(&x->window);
    free(x->tmp);
    free(x);
}

static Scratch *scratch_alloc(const LsCambiState *s)
{
    unsigned w = s->dist.w, h = s->dist.h;
    if (s->opt.full_ref) {
        w = w > s->src.w ? w : s->src.w;
        h = h > s->src.h ? h : s->src.h;
    }
    Scratch *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    const size_t n = (size_t)w * h;
    const int window = s->dist.window > s->src.window ? s->dist.window : s->src.window;
    x->img = malloc(n * sizeof(*x->img));
    x->mask = malloc(n);
    x->c = malloc(n * sizeof(*x->c));
    x->conv = malloc(2 * (size_t)w * sizeof(*x->conv));
    const size_t tmp_mode = 3 * (size_t)w * sizeof(uint16_t), tmp_mask = ls_cambi_mask_tmp_size(w);
    x->tmp = malloc(tmp_mode > tmp_mask ? tmp_mode : tmp_mask);
    if (!x->img || !x->mask || !x->c || !x->conv || !x->tmp ||
        ls_cambi_window_mem_alloc(&x->window, &s->thr, w, window)) {
        scratch_free(x);
        return NULL;
    }
    return x;
}

static Scratch *scratch_take(CambiPriv *p)
{
    pthread_mutex_lock(&p->lock);
    Scratch *x = p->free_scratch;
    if (x)
        p->free_scratch = x->next;
    pthread_mutex_unlock(&p->lock);
    return x ? x : scratch_alloc(&p->state);
}

static void scratch_give(CambiPriv *p, Scratch *x)
{
    pthread_mutex_lock(&p->lock);
    x->next = p->free_scratch;
    p->free_scratch = x;
    pthread_mutex_unlock(&p->lock);
}

/* One row of the 10-bit working picture (§5.2); pos: the input columns when resampling. The
 * loops are split by depth so that the compiler vectorises them. */
static void convert_row(uint16_t *out, const uint8_t *row, const int *pos, unsigned w,
                        unsigned bpc)
{
    if (bpc == 8) {
        if (pos)
            for (unsigned j = 0; j < w; j++)
                out[j] = (uint16_t)ls_cambi_to_10bit(row[pos[j]], 8);
        else
            for (unsigned j = 0; j < w; j++)
                out[j] = (uint16_t)ls_cambi_to_10bit(row[j], 8);
        return;
    }
    const uint16_t *r = (const uint16_t *)(const void *)row;
    if (pos)
        for (unsigned j = 0; j < w; j++)
            out[j] = (uint16_t)ls_cambi_to_10bit(r[pos[j]], bpc);
    else
        for (unsigned j = 0; j < w; j++)
            out[j] = (uint16_t)ls_cambi_to_10bit(r[j], bpc);
}

/* The anti-dithering filter of one row (§5.3) from the unfiltered row and the one below (the row
 * itself on the last row). */
static void antidither_row(uint16_t *restrict out, const uint16_t *restrict row,
                           const uint16_t *restrict below, unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++) /* the right neighbour exists: vectorisable */
        out[j] = (uint16_t)ls_cambi_avg4(row[j], row[j + 1], below[j], below[j + 1]);
    out[w - 1] = (uint16_t)ls_cambi_antidither(row, below, (int)w - 1, (int)w);
}

/* The largest luma sample of the picture. */
static unsigned luma_max(const LsCambiState *s, const VmafPicture *pic)
{
    unsigned top = 0;
    for (unsigned i = 0; i < s->in_h; i++) {
        const uint16_t *row =
            (const uint16_t *)((const uint8_t *)pic->data[0] + (ptrdiff_t)i * pic->stride[0]);
        for (unsigned j = 0; j < s->in_w; j++)
            top = row[j] > top ? row[j] : top;
    }
    return top;
}

/* Input validation (§5.1): samples above the depth would index past the histograms. */
static bool depth_can_overflow(unsigned bpc) { return bpc != 8 && bpc != 16; }

static int depth_error(const LsCambiState *s, const VmafPicture *pic)
{
    return ls_cambi_check_top(luma_max(s, pic), s->bpc);
}

/* Makes the rows of the 10-bit working picture (§5) one at a time, for ls_cambi_spatial_mask. */
typedef struct RowMaker {
    const LsCambiState *s;
    const LsCambiDsp *dsp;
    const LsCambiGeometry *g;
    const VmafPicture *pic;
    uint16_t *cur, *next; /* anti-dithering: converted rows r and r + 1 */
    bool check;           /* rows to be checked against the depth */
} RowMaker;

static int make_row(void *ctx, unsigned r, uint16_t *out, const uint16_t **at)
{
    RowMaker *m = ctx;
    const LsCambiState *s = m->s;
    const LsCambiGeometry *g = m->g;
    const unsigned bpc = s->bpc, w = g->w, h = g->h;
    const uint8_t *plane = m->pic->data[0];
    const ptrdiff_t in_stride = m->pic->stride[0];
    *at = out;
    if (g->pos_y) { /* resampling: the whole input was checked before */
#define INPUT_ROW(i) (plane + (ptrdiff_t)g->pos_y[i] * in_stride)
        if (!s->antidither) {
            convert_row(out, INPUT_ROW(r), g->pos_x, w, bpc);
            return 0;
        }
        if (r == 0)
            convert_row(m->cur, INPUT_ROW(0), g->pos_x, w, bpc);
        if (r + 1 < h)
            convert_row(m->next, INPUT_ROW(r + 1), g->pos_x, w, bpc);
        antidither_row(out, m->cur, r + 1 < h ? m->next : m->cur, w);
        uint16_t *t = m->cur;
        m->cur = m->next;
        m->next = t;
        return 0;
#undef INPUT_ROW
    }
    /* the working size is the input's: rows are checked as they are converted */
    const uint8_t *row = plane + (ptrdiff_t)r * in_stride;
    const uint8_t *below = r + 1 < h ? row + in_stride : row;
    if (m->check && ls_row_above_depth(row, w, (1u << bpc) - 1))
        return depth_error(s, m->pic);
    if (!s->antidither) {
        if (bpc == 10)
            *at = (const uint16_t *)(const void *)row; /* already the working row */
        else
            convert_row(out, row, NULL, w, bpc);
    } else if (bpc == 8) {
        m->dsp->antidither8(out, row, below, w);
    } else {
        /* the row below is checked on its own turn; a bad sample here only meets equality
         * tests before that turn fails the picture */
        convert_row(m->cur, row, NULL, w, bpc);
        convert_row(m->next, below, NULL, w, bpc);
        antidither_row(out, m->cur, m->next, w);
    }
    return 0;
}

static int heatmap_write(const LsCambiState *s, int scale, const float *c, unsigned w, unsigned h,
                         unsigned index, uint16_t *row)
{
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < w; j++)
            row[j] = (uint16_t)(int32_t)(s->heatmap_scale * c[(size_t)i * w + j]);
        const off_t at = ((off_t)index * h + i) * w * 2;
        const ssize_t n = pwrite(s->heatmap_fd[scale], row, (size_t)w * 2, at);
        if (n != (ssize_t)w * 2)
            return ls_fex_error(NULL, "cambi: cannot write the heat map of scale %d: %s", scale,
                                n < 0 ? strerror(errno) : "short write");
    }
    return 0;
}

static int score_picture(const LsCambiState *s, const LsCambiDsp *dsp, Scratch *x,
                         const LsCambiGeometry *g, const VmafPicture *pic, bool heatmaps,
                         unsigned index, double *score)
{
    /* not again where the reader has checked the luma (the CLI's inputs) */
    const bool check = depth_can_overflow(s->bpc) && !ls_picture_depth_checked(pic, 0);
    if (g->pos_y && check) { /* resampled: the whole input is checked first */
        const int err = ls_cambi_check_top(luma_max(s, pic), s->bpc);
        if (err)
            return err;
    }
    /* scale 0 starts decimated with the speed-up (§6.2); the scales are stored at its width */
    const bool half = g->sw[0] != g->w || g->sh[0] != g->h;
    const ptrdiff_t stride = (ptrdiff_t)g->sw[0];
    RowMaker maker = { s, dsp, g, pic, x->conv, x->conv + g->w, check };
    int err = ls_cambi_spatial_mask(dsp, x->img, x->mask, stride, g->w, g->h, g->mask_index, half,
                                    make_row, &maker, x->tmp);
    if (err)
        return err;
    double scale_score[LS_CAMBI_NUM_SCALES];
    unsigned w = g->sw[0], h = g->sh[0];
    for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++) {
        if (g->sw[k] != w || g->sh[k] != h) {
            w = g->sw[k];
            h = g->sh[k];
            /* in place: row i lands before row 2i, row 0 moves forward within itself */
            for (unsigned i = 0; i < h; i++)
                dsp->decimate(x->img + i * stride, x->mask + i * stride, x->img + 2 * i * stride,
                              x->mask + 2 * i * stride, w);
        }
        ls_cambi_mode_filter(dsp, x->img, stride, w, h, x->tmp);
        LsCambiSums sums = { 0 };
        ls_cambi_c_values(dsp, &s->thr, &x->window, x->c, x->img, x->mask, stride, w, h, g->window,
                          &sums);
        if (heatmaps && s->heatmap_fd[k] >= 0 &&
            (err = heatmap_write(s, k, x->c, w, h, index, x->tmp)))
            return err;
        scale_score[k] = ls_cambi_pool(dsp, x->c, w * h, s->topk, &sums);
    }
    *score = ls_cambi_frame_score(scale_score, g->window);
    return 0;
}

/* ---- the extractor ---- */

static void cambi_close(LsFex *fex)
{
    CambiPriv *p = fex->priv;
    while (p->free_scratch) {
        Scratch *x = p->free_scratch;
        p->free_scratch = x->next;
        scratch_free(x);
    }
    if (p->have_lock)
        pthread_mutex_destroy(&p->lock);
    p->have_lock = false;
    ls_cambi_state_close(&p->state);
}

static int cambi_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    CambiPriv *p = fex->priv;
    (void)fmt; /* luma only: 4:0:0 works like the others */
    const int err = ls_cambi_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    ls_cambi_dsp_init(&p->dsp, fex->cpu_flags);
    pthread_mutex_init(&p->lock, NULL);
    p->have_lock = true;
    return 0;
}

static int cambi_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc)
{
    CambiPriv *p = fex->priv;
    const LsCambiState *s = &p->state;
    Scratch *x = scratch_take(p);
    if (!x)
        return -ENOMEM;
    double d = 0.0, r = 0.0;
    int err = score_picture(s, &p->dsp, x, &s->dist, dist, true, index, &d);
    if (!err && s->opt.full_ref)
        err = score_picture(s, &p->dsp, x, &s->src, ref, false, index, &r);
    scratch_give(p, x);
    const double max_val = s->opt.cambi_max_val;
    if (!err)
        err = ls_collector_append(fc, s->name_score, ls_cambi_cap(d, max_val), index);
    if (!err && s->opt.full_ref) {
        err = ls_collector_append(fc, "cambi_source", ls_cambi_cap(r, max_val), index);
        if (!err)
            err = ls_collector_append(fc, "cambi_full_reference",
                                      ls_cambi_full_reference(d, r, max_val), index);
    }
    return err;
}

static const char *const cambi_provided[] = { "Cambi_feature_cambi_score", NULL };

const LsExtractor ls_fex_cambi = {
    .name = "cambi",
    .options = ls_cambi_options,
    .priv_size = sizeof(CambiPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = cambi_provided,
    .init = cambi_init,
    .extract = cambi_extract,
    .close = cambi_close,
};
