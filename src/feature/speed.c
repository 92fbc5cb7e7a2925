/* Extractors `speed_chroma` and `speed_temporal`: SpEED (speed.md).
 *
 * A plane pair (reference side, distorted side) goes through one pipeline: rows of the working
 * picture (converted samples, frame differences for speed_temporal, resampled with
 * speed_prescale), the anti-alias filter evaluated only where the 16x decimation keeps a
 * sample (the vertical pass on the kept rows' windows, the horizontal pass at the kept
 * columns: the same operations as the whole-picture filter, for the outputs that are used),
 * the local-mean removal on the small decimated arrays, then the 25x25 statistics of each
 * residual and the plane score. speed_chroma is not temporal: frames run concurrently, the
 * state is read-only in extract and the scratch memory belongs to the call. speed_temporal keeps
 * the previous frame's luma pictures (LS_FEX_TEMPORAL). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/log.h"
#include "core/picture_ref.h"
#include "feature/speed.h"

#define OPT_COMMON(T)                                                                              \
    { .name = "speed_kernelscale", .alias = "ks",                                                  \
      .help = "scaling factor for the gaussian kernel (2.0 means multiplying the standard "        \
              "deviation by 2 and enlarge the kernel size accordingly",                            \
      .type = LS_OPT_DOUBLE, .offset = offsetof(T, speed_kernelscale), .def.d = 1.0, .min = 0.1,  \
      .max = 4.0, .flags = LS_OPT_FEATURE_PARAM },                                                 \
    { .name = "speed_prescale", .alias = "ps",                                                    \
      .help = "scaling factor for the frame (2.0 means making the image twice as large on each "  \
              "dimension)",                                                                        \
      .type = LS_OPT_DOUBLE, .offset = offsetof(T, speed_prescale), .def.d = 1.0, .min = 0.1,     \
      .max = 4.0, .flags = LS_OPT_FEATURE_PARAM },                                                 \
    { .name = "speed_prescale_method", .alias = "psm",                                            \
      .help = "scaling method for the frame, supported options: [nearest, bilinear, bicubic, "    \
              "lanczos4]",                                                                         \
      .type = LS_OPT_STRING, .offset = offsetof(T, speed_prescale_method), .def.s = "nearest",    \
      .flags = LS_OPT_FEATURE_PARAM },                                                             \
    { .name = "speed_sigma_nn", .alias = "snn", .help = "standard deviation of neural noise",     \
      .type = LS_OPT_DOUBLE, .offset = offsetof(T, speed_sigma_nn), .def.d = 0.29, .min = 0.1,    \
      .max = 2.0, .flags = LS_OPT_FEATURE_PARAM },                                                 \
    { .name = "speed_nn_floor", .alias = "nnf",                                                    \
      .help = "neural noise floor, expressed in percentage of sigma_nn", .type = LS_OPT_DOUBLE,    \
      .offset = offsetof(T, speed_nn_floor), .def.d = 0.0, .min = 0.0, .max = 1.0,                \
      .flags = LS_OPT_FEATURE_PARAM },                                                             \
    { .name = "speed_max_val", .alias = "mxv",                                                     \
      .help = "maximum value allowed; larger values will be clipped to this value",               \
      .type = LS_OPT_DOUBLE, .offset = offsetof(T, speed_max_val), .def.d = 1000.0, .min = 0.0,   \
      .max = 1000.0, .flags = LS_OPT_FEATURE_PARAM }

const LsOption ls_speed_chroma_options[] = {
    OPT_COMMON(LsSpeedChromaOptions),
    { .name = "speed_weight_var_mode", .alias = "wvm",
      .help = "different approaches to perform variance-absed weighting", .type = LS_OPT_INT,
      .offset = offsetof(LsSpeedChromaOptions, speed_weight_var_mode), .def.i = 0, .min = 0,
      .max = 6, .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

const LsOption ls_speed_temporal_options[] = {
    OPT_COMMON(LsSpeedTemporalOptions),
    /* the reference's help text; the option makes the distorted difference previous distorted
     * minus current reference (§8) */
    { .name = "speed_use_ref_diff", .alias = "urd", .help = "debug mode: enable additional output",
      .type = LS_OPT_BOOL, .offset = offsetof(LsSpeedTemporalOptions, speed_use_ref_diff),
      .def.b = false, .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

/* ---- parameters and geometry ---- */

int ls_speed_params_init(LsSpeedParams *p, const LsFex *fex, const char *name, unsigned bpc,
                         double kernelscale, double prescale, const char *method, double sigma_nn,
                         double nn_floor, int mode)
{
    memset(p, 0, sizeof(*p));
    /* other depths the reference reads as bytes (§4.1) */
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "%s: bit depth %u is not supported (8, 10, 12 or 16)", name, bpc);
    /* Decision (§2.3): the reference logs these and then corrupts its heap; refused here */
    const float ks = (float)kernelscale;
    if (!ls_float_vif_kernelscale_valid(ks))
        return ls_fex_error(fex, "%s: invalid speed_kernelscale %g (valid: %s)", name,
                            kernelscale, LS_VALID_KERNELSCALES_TEXT);
    const int m = ls_float_vif_resample_method(method);
    if (m < 0)
        return ls_fex_error(fex,
                            "%s: invalid speed_prescale_method \"%s\" (nearest, bilinear, bicubic "
                            "or lanczos4)",
                            name, method);
    p->bpc = bpc;
    p->n_antialias = ls_speed_antialias_width(ks);
    p->n_mean = ls_speed_mean_width(ks);
    p->antialias = ls_speed_antialias_taps + LS_SPEED_ANTIALIAS_OFFSET(p->n_antialias);
    p->mean = ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(p->n_mean);
    p->sigma_nn = (float)sigma_nn;
    p->nn_floor = (float)nn_floor;
    p->mode = mode;
    p->prescale = prescale;
    p->method = (enum LsFloatVifResampleMethod)m;
    return 0;
}

void ls_speed_geometry_close(LsSpeedGeometry *g)
{
    ls_float_vif_axis_free(&g->axis_x);
    ls_float_vif_axis_free(&g->axis_y);
    free(g->bl_x1);
    free(g->bl_x2);
    free(g->bl_dx);
    g->bl_x1 = g->bl_x2 = NULL;
    g->bl_dx = NULL;
}

int ls_speed_geometry_init(LsSpeedGeometry *g, const LsSpeedParams *p, const LsFex *fex,
                           const char *name, const char *what, unsigned w0, unsigned h0,
                           unsigned sub_x, unsigned sub_y)
{
    memset(g, 0, sizeof(*g));
    const double ps = p->prescale;
    g->w0 = w0;
    g->h0 = h0;
    g->ws = ls_speed_scaled(w0, ps);
    g->hs = ls_speed_scaled(h0, ps);
    const bool unity = fabs(ps - 1.0) < 1e-3;
    /* Decision (§4.3): within 1e-3 of 1 the reference does not resample but filters the
     * working size, reading past the picture where that size is larger */
    if (unity && (g->ws != w0 || g->hs != h0))
        return ls_fex_error(fex,
                            "%s: speed_prescale %g makes the %ux%u %s %ux%u, but values within "
                            "0.001 of 1 do not resample; use 1 or a value further from 1",
                            name, ps, w0, h0, what, g->ws, g->hs);
    /* Decision (§3.2): below one block the reference's sizes underflow and it crashes */
    if (g->ws < LS_SPEED_MIN_WORKING || g->hs < LS_SPEED_MIN_WORKING) {
        unsigned need = 1;
        while (ls_speed_scaled(need, ps) < LS_SPEED_MIN_WORKING)
            need++;
        char frame[96] = "";
        if (sub_x || sub_y)
            snprintf(frame, sizeof(frame), ", i.e. a %s frame of at least %ux%u",
                     sub_x ? (sub_y ? "4:2:0" : "4:2:2") : "4:4:4", need << sub_x, need << sub_y);
        if (g->ws == w0 && g->hs == h0)
            return ls_fex_error(fex, "%s: %s %ux%u is too small; SpEED needs at least %ux%u%s",
                                name, what, w0, h0, need, need, frame);
        return ls_fex_error(fex,
                            "%s: %s %ux%u scaled to %ux%u (speed_prescale %g) is too small; "
                            "SpEED needs at least %ux%u after scaling (a %s of at least %ux%u%s)",
                            name, what, w0, h0, g->ws, g->hs, ps, LS_SPEED_MIN_WORKING,
                            LS_SPEED_MIN_WORKING, what, need, need, frame);
    }
    g->wd = g->ws / LS_SPEED_DECIMATION;
    g->hd = g->hs / LS_SPEED_DECIMATION;
    g->tw = g->wd / LS_SPEED_BLOCK * LS_SPEED_BLOCK;
    g->th = g->hd / LS_SPEED_BLOCK * LS_SPEED_BLOCK;
    g->nbh = g->tw / LS_SPEED_BLOCK;
    g->nbv = g->th / LS_SPEED_BLOCK;
    g->nb = g->nbh * g->nbv;
    g->sw = g->tw - (LS_SPEED_BLOCK - 1);
    g->sh = g->th - (LS_SPEED_BLOCK - 1);
    g->resample = !unity && (g->ws != w0 || g->hs != h0);
    if (!g->resample)
        return 0;
    const bool ok = ls_float_vif_axis_init(&g->axis_x, p->method, w0, g->ws) &&
                    ls_float_vif_axis_init(&g->axis_y, p->method, h0, g->hs);
    if (ok && p->method != LS_FLOAT_VIF_BILINEAR)
        return 0;
    if (ok) {
        g->bl_x1 = malloc(g->ws * sizeof(int32_t));
        g->bl_x2 = malloc(g->ws * sizeof(int32_t));
        g->bl_dx = malloc(g->ws * sizeof(float));
        if (!g->bl_x1 || !g->bl_x2 || !g->bl_dx) {
            ls_speed_geometry_close(g);
            return -ENOMEM;
        }
        for (unsigned x = 0; x < g->ws; x++) {
            g->bl_x1[x] = g->axis_x.idx[2 * x];
            g->bl_x2[x] = g->axis_x.idx[2 * x + 1];
            g->bl_dx[x] = g->axis_x.weight[2 * x];
        }
        return 0;
    }
    const bool nomem = !g->axis_x.idx || !g->axis_x.weight ||
                       (g->axis_y.n_out && (!g->axis_y.idx || !g->axis_y.weight));
    ls_speed_geometry_close(g);
    if (nomem)
        return -ENOMEM;
    /* unreachable from the size rule above (the input is at least 20 samples per axis), kept
     * for the resampler's own contract */
    return ls_fex_error(fex, "%s: %s %ux%u is too small for speed_prescale_method=%s", name, what,
                        w0, h0, p->method == LS_FLOAT_VIF_BICUBIC ? "bicubic" : "lanczos4");
}

/* ---- scores ---- */

/* The weights of one block (§6): log2 of one plus a variance, or of an average of both. */
static void weights(int mode, float vr, float vd, double *wr, double *wd)
{
    switch (mode) {
    case 1: *wr = *wd = log2((double)(1.0f + vr)); return;
    case 2: *wr = *wd = log2((double)(1.0f + vd)); return;
    case 3: *wr = *wd = log2(1.0 + (double)(vr + vd) / 2.0); return;
    default: break;
    }
    *wr = log2((double)(1.0f + vr));
    switch (mode) {
    case 0: *wd = log2((double)(1.0f + vd)); return;
    case 4: *wd = log2(1.0 + (double)(vr + vd) / 2.0); return;
    case 5: *wd = log2(1.0 + (0.75 * (double)vr + 0.25 * (double)vd)); return;
    default: *wd = log2(1.0 + (0.25 * (double)vr + 0.75 * (double)vd)); return;
    }
}

float ls_speed_plane_score(const LsSpeedStats *r, const LsSpeedStats *d, unsigned nb, int mode,
                           float sigma_nn, float nn_floor)
{
    if (r->singular != d->singular)
        return 0.0f;
    const float base = (float)(25.0 * (log2((double)((1.0f + nn_floor) * sigma_nn)) +
                                       LS_SPEED_LOG2_2PIE));
    float acc = 0.0f;
    for (unsigned b = 0; b < nb; b++) {
        if (r->ent[b] < base && d->ent[b] < base)
            continue;
        double wr, wd;
        weights(mode, r->var[b], d->var[b], &wr, &wd);
        const float sr = (float)((double)r->ent[b] * wr);
        const float sd = (float)((double)d->ent[b] * wd);
        acc = acc + fabsf(sr - sd);
    }
    return acc / (float)nb;
}

/* ---- one residual's statistics (§5) ---- */

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

size_t ls_speed_stats_scratch_size(const LsSpeedGeometry *g)
{
    const size_t mat = align64(LS_SPEED_NP * (size_t)ls_speed_pad16(g->nb) * sizeof(float));
    return 3 * mat + align64(ls_speed_cov_tmp_size(g->sw, g->sh));
}

void ls_speed_residual_stats(const LsSpeedDsp *dsp, const LsSpeedGeometry *g, const float *R,
                             float sn, LsSpeedStats *st, void *scratch)
{
    enum { N = LS_SPEED_NP, LD = LS_SPEED_LD };
    const unsigned nb = g->nb, nbp = ls_speed_pad16(nb);
    const size_t mat = align64(N * (size_t)nbp * sizeof(float));
    float *Y = scratch, *T = (float *)((char *)scratch + mat), *X = (float *)((char *)T + mat);
    void *cov_tmp = (char *)X + mat;
    LsSpeedMatrix K, A, H, Rm, ZQ[4]; /* Z and Q, each with a second buffer for its product */

    memset(K, 0, sizeof(K)); /* the padding columns are read by the SIMD products */
    dsp->covariance(R, (ptrdiff_t)g->wd, g->sw, g->sh, K, cov_tmp);
    memcpy(A, K, sizeof(A));
    if (!ls_speed_eigenvalues(A, st->lambda))
        ls_log(VMAF_LOG_LEVEL_DEBUG, "SpEED: eigenvalues: maximum of %d QR steps reached\n",
               LS_SPEED_MAX_QR_STEPS);

    for (unsigned p = 0; p < N; p++) {
        const unsigned r = p / LS_SPEED_BLOCK, c = p % LS_SPEED_BLOCK;
        float *y = Y + (size_t)p * nbp;
        for (unsigned b = 0; b < nb; b++) {
            const unsigned bi = b / g->nbh, bj = b % g->nbh;
            y[b] = R[(size_t)(LS_SPEED_BLOCK * bi + r) * g->wd + LS_SPEED_BLOCK * bj + c];
        }
        for (unsigned b = nb; b < nbp; b++)
            y[b] = 0.0f;
    }

    bool singular = !ls_speed_eigen_regular(st->lambda);
    if (!singular) {
        float(*Z)[LD] = ZQ[0], (*Z1)[LD] = ZQ[1], (*Q)[LD] = ZQ[2], (*Q1)[LD] = ZQ[3];
        memcpy(Z, K, sizeof(K));
        memset(Q, 0, sizeof(K));
        memset(Z1, 0, sizeof(K));
        memset(Q1, 0, sizeof(K));
        memset(H, 0, sizeof(H));
        for (int a = 0; a < N; a++)
            Q[a][a] = 1.0f;
        for (int k = 0; k < N - 1; k++) {
            ls_speed_reflector(Z, K, k, H);
            dsp->mul(H, &Z[0][0], LD, N, &Z1[0][0], LD);
            dsp->mul(H, &Q[0][0], LD, N, &Q1[0][0], LD);
            float(*t)[LD] = Z;
            Z = Z1, Z1 = t;
            t = Q, Q = Q1, Q1 = t;
        }
        dsp->mul(Q, &K[0][0], LD, N, &Rm[0][0], LD);
        singular = !ls_speed_pivots_regular(Rm);
        if (!singular) {
            dsp->mul(Q, Y, (ptrdiff_t)nbp, nb, T, (ptrdiff_t)nbp);
            for (int i = N - 1; i >= 0; i--)
                for (unsigned b = 0; b < nb; b++)
                    X[(size_t)i * nbp + b] = ls_speed_back_substitute(
                        Rm, i, T[(size_t)i * nbp + b], X + b, (ptrdiff_t)nbp);
        }
    }
    if (singular) {
        ls_log(VMAF_LOG_LEVEL_DEBUG, "SpEED: est_params: covariance matrix is singular\n");
        memset(X, 0, N * (size_t)nbp * sizeof(float));
    }
    st->singular = singular;

    for (unsigned b = 0; b < nb; b++) {
        const float v = ls_speed_block_variance(X, Y, nbp, b, singular);
        st->var[b] = v;
        st->ent[b] = ls_speed_entropy(st->lambda, v, sn);
    }
}

/* ---- from a plane pair to the two decimated residuals (§4) ---- */

/* Rows of the two pictures to score, at the plane size: fills row y of both sides. */
typedef struct RowSource RowSource;
struct RowSource {
    void (*rows)(const RowSource *src, unsigned y, float *ref, float *dis);
    const LsFloatVifDsp *vif;
    unsigned w, bpc;
    const uint8_t *plane[4]; /* chroma: ref, dis; temporal: previous ref, dis, current ref, dis */
    ptrdiff_t stride[4];
    bool use_ref_diff;
    float *tmp[2]; /* temporal: the current rows, w floats each */
};

static void chroma_rows(const RowSource *s, unsigned y, float *ref, float *dis)
{
    float *const out[LS_FLOAT_VIF_NQ] = { ref, dis };
    s->vif->fill(s->plane[0] + (ptrdiff_t)y * s->stride[0],
                 s->plane[1] + (ptrdiff_t)y * s->stride[1], s->bpc, s->w, false, out);
}

/* previous minus current, each converted (§8) */
static void temporal_rows(const RowSource *s, unsigned y, float *ref, float *dis)
{
    float *const prev[LS_FLOAT_VIF_NQ] = { ref, dis };
    float *const cur[LS_FLOAT_VIF_NQ] = { s->tmp[0], s->tmp[1] };
    s->vif->fill(s->plane[0] + (ptrdiff_t)y * s->stride[0],
                 s->plane[1] + (ptrdiff_t)y * s->stride[1], s->bpc, s->w, false, prev);
    s->vif->fill(s->plane[2] + (ptrdiff_t)y * s->stride[2],
                 s->plane[3] + (ptrdiff_t)y * s->stride[3], s->bpc, s->w, false, cur);
    const float *cur_dis = s->use_ref_diff ? s->tmp[0] : s->tmp[1];
    for (unsigned x = 0; x < s->w; x++) {
        ref[x] = ref[x] - s->tmp[0][x];
        dis[x] = dis[x] - cur_dis[x];
    }
}

typedef struct PairScratch {
    float *win[2];  /* the anti-alias window: n_antialias working rows of ws */
    float *vert[2]; /* its vertical pass, ws */
    float *src[2];  /* resampling: the source rows of one working row, up to 9 rows of w0 */
    float *tmp[2];  /* temporal: current rows */
    float *D, *M;   /* decimated plane and its local-mean pass, wd x hd (one side at a time) */
    float *R[2];    /* the residuals, wd x hd */
} PairScratch;

static size_t pair_scratch_size(const LsSpeedGeometry *g, const LsSpeedParams *p)
{
    const size_t win = align64((size_t)p->n_antialias * g->ws * sizeof(float));
    const size_t row = align64((size_t)g->ws * sizeof(float) + 64);
    const size_t src = g->resample ? align64((size_t)LS_FLOAT_VIF_LANCZOS_TAPS * g->w0 *
                                             sizeof(float)) : 0;
    const size_t in = align64((size_t)g->w0 * sizeof(float) + 64);
    const size_t dec = align64(((size_t)g->wd * g->hd + LS_SPEED_R_SLACK) * sizeof(float));
    return 2 * (win + row + src + in) + 4 * dec;
}

static void pair_scratch_carve(PairScratch *ps, const LsSpeedGeometry *g, const LsSpeedParams *p,
                               void *mem)
{
    char *at = mem;
    const size_t win = align64((size_t)p->n_antialias * g->ws * sizeof(float));
    const size_t row = align64((size_t)g->ws * sizeof(float) + 64);
    const size_t src = g->resample ? align64((size_t)LS_FLOAT_VIF_LANCZOS_TAPS * g->w0 *
                                             sizeof(float)) : 0;
    const size_t in = align64((size_t)g->w0 * sizeof(float) + 64);
    const size_t dec = align64(((size_t)g->wd * g->hd + LS_SPEED_R_SLACK) * sizeof(float));
    for (int i = 0; i < 2; i++) {
        ps->win[i] = (float *)at, at += win;
        ps->vert[i] = (float *)at, at += row;
        ps->src[i] = g->resample ? (float *)at : NULL, at += src;
        ps->tmp[i] = (float *)at, at += in;
        ps->R[i] = (float *)at, at += dec;
    }
    ps->D = (float *)at, at += dec;
    ps->M = (float *)at;
}

/* Working row y of both sides (§4.3): the plane row itself, or resampled from its source rows. */
static void working_rows(const RowSource *s, const LsSpeedGeometry *g, const LsSpeedParams *p,
                         const LsSpeedDsp *dsp, const PairScratch *ps, unsigned y, float *ref,
                         float *dis)
{
    if (!g->resample) {
        s->rows(s, y, ref, dis);
        return;
    }
    const LsFloatVifAxis *ay = &g->axis_y;
    const int32_t *iy = ay->idx + (size_t)y * ay->n_taps;
    const float *wy = ay->weight + (size_t)y * ay->n_taps;
    for (unsigned t = 0; t < ay->n_taps; t++)
        s->rows(s, (unsigned)iy[t], ps->src[0] + (size_t)t * g->w0, ps->src[1] + (size_t)t * g->w0);
    if (p->method == LS_FLOAT_VIF_BILINEAR) {
        for (int side = 0; side < 2; side++)
            dsp->bilinear_row(g->bl_x1, g->bl_x2, g->bl_dx, g->ws, ps->src[side],
                              ps->src[side] + g->w0, wy[0], side ? dis : ref);
        return;
    }
    int32_t local[LS_FLOAT_VIF_LANCZOS_TAPS];
    for (unsigned t = 0; t < ay->n_taps; t++)
        local[t] = (int32_t)t;
    ls_float_vif_resample_row(p->method, &g->axis_x, ps->src[0], (ptrdiff_t)g->w0, local, wy, ref);
    ls_float_vif_resample_row(p->method, &g->axis_x, ps->src[1], (ptrdiff_t)g->w0, local, wy, dis);
}

/* G(D, mean taps) on wd x hd, vertical pass then horizontal, and R = D - G(D). */
static void remove_local_mean(const LsSpeedGeometry *g, const LsSpeedParams *p, const float *D,
                              float *M, float *R)
{
    const int wd = (int)g->wd, hd = (int)g->hd, n = p->n_mean, r = n / 2;
    for (int i = 0; i < hd; i++)
        for (int j = 0; j < wd; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = ls_float_vif_mac(acc, p->mean[k],
                                       D[ls_float_vif_reflect(i - r + k, hd) * wd + j]);
            M[i * wd + j] = acc;
        }
    for (int i = 0; i < hd; i++)
        for (int j = 0; j < wd; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = ls_float_vif_mac(acc, p->mean[k],
                                       M[i * wd + ls_float_vif_reflect(j - r + k, wd)]);
            R[i * wd + j] = D[i * wd + j] - acc;
        }
}

static void decimate_pair(const LsFloatVifDsp *vif, const LsSpeedDsp *dsp, const RowSource *s,
                          const LsSpeedGeometry *g, const LsSpeedParams *p, const PairScratch *ps)
{
    const int n1 = p->n_antialias, r1 = n1 / 2;
    const int ws = (int)g->ws, hs = (int)g->hs;
    float *D[2] = { ps->R[0], ps->R[1] }; /* decimated in place of the residuals, then replaced */
    for (unsigned i = 0; i < g->hd; i++) {
        const int centre = LS_SPEED_DECIMATION * (int)i;
        for (int k = 0; k < n1; k++) {
            const unsigned y = (unsigned)ls_float_vif_reflect(centre - r1 + k, hs);
            working_rows(s, g, p, dsp, ps, y, ps->win[0] + (size_t)k * g->ws,
                         ps->win[1] + (size_t)k * g->ws);
        }
        for (int side = 0; side < 2; side++) {
            vif->filter_v(ps->win[side], ws, 0, 1, p->antialias, (unsigned)n1, g->ws,
                          ps->vert[side], 0);
            const float *t = ps->vert[side];
            float *out = D[side] + (size_t)i * g->wd;
            for (unsigned j = 0; j < g->wd; j++) {
                const int cj = LS_SPEED_DECIMATION * (int)j;
                float acc = 0.0f;
                for (int k = 0; k < n1; k++)
                    acc = ls_float_vif_mac(acc, p->antialias[k],
                                           t[ls_float_vif_reflect(cj - r1 + k, ws)]);
                out[j] = acc;
            }
        }
    }
    for (int side = 0; side < 2; side++) {
        memcpy(ps->D, D[side], (size_t)g->wd * g->hd * sizeof(float));
        remove_local_mean(g, p, ps->D, ps->M, ps->R[side]);
    }
}

/* The score of one plane pair (§6) and its error flag. */
typedef struct Pipeline {
    const LsSpeedParams *p;
    const LsSpeedGeometry *g;
    const LsSpeedDsp *dsp;
    const LsFloatVifDsp *vif;
} Pipeline;

typedef struct Scratch {
    void *mem;
    PairScratch pair;
    void *stats;
    float *var[2], *ent[2];
} Scratch;

static int scratch_alloc(Scratch *sc, const Pipeline *pl)
{
    const size_t pair = align64(pair_scratch_size(pl->g, pl->p));
    const size_t stats = align64(ls_speed_stats_scratch_size(pl->g));
    const size_t blocks = align64((size_t)pl->g->nb * sizeof(float));
    char *mem = aligned_alloc(64, pair + stats + 4 * blocks);
    if (!mem)
        return -ENOMEM;
    sc->mem = mem;
    pair_scratch_carve(&sc->pair, pl->g, pl->p, mem);
    sc->stats = mem + pair;
    char *at = mem + pair + stats;
    for (int i = 0; i < 2; i++) {
        sc->var[i] = (float *)at, at += blocks;
        sc->ent[i] = (float *)at, at += blocks;
    }
    return 0;
}

static float score_pair(const Pipeline *pl, const RowSource *s, Scratch *sc, bool *err)
{
    decimate_pair(pl->vif, pl->dsp, s, pl->g, pl->p, &sc->pair);
    LsSpeedStats st[2];
    for (int side = 0; side < 2; side++) {
        st[side].var = sc->var[side];
        st[side].ent = sc->ent[side];
        ls_speed_residual_stats(pl->dsp, pl->g, sc->pair.R[side], pl->p->sigma_nn, &st[side],
                                sc->stats);
    }
    *err = st[0].singular || st[1].singular;
    return ls_speed_plane_score(&st[0], &st[1], pl->g->nb, pl->p->mode, pl->p->sigma_nn,
                                pl->p->nn_floor);
}

/* ---- speed_chroma ---- */

int ls_speed_chroma_state_init(LsSpeedChromaState *s, const LsSpeedChromaOptions *o,
                               const LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc,
                               unsigned w, unsigned h)
{
    memset(s, 0, sizeof(*s));
    int err = ls_speed_params_init(&s->params, fex, "speed_chroma", bpc, o->speed_kernelscale,
                                   o->speed_prescale, o->speed_prescale_method, o->speed_sigma_nn,
                                   o->speed_nn_floor, o->speed_weight_var_mode);
    if (err)
        return err;
    unsigned sub_x, sub_y;
    switch (fmt) {
    case VMAF_PIX_FMT_YUV420P: sub_x = sub_y = 1; break;
    case VMAF_PIX_FMT_YUV422P: sub_x = 1, sub_y = 0; break;
    case VMAF_PIX_FMT_YUV444P: sub_x = sub_y = 0; break;
    default:
        return ls_fex_error(fex, "speed_chroma: the input has no chroma (4:0:0); speed_chroma "
                                 "scores the U and V planes");
    }
    /* odd sizes: the top-left floor(w/2) x floor(h/2) chroma samples (§10.4) */
    err = ls_speed_geometry_init(&s->geom, &s->params, fex, "speed_chroma", "chroma plane",
                                 w >> sub_x, h >> sub_y, sub_x, sub_y);
    if (err)
        return err;
    static const char *const bases[3][2] = {
        { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
        { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
        { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    };
    for (int i = 0; i < 3; i++)
        ls_fex_feature_name(fex, s->names[i], sizeof(s->names[i]), bases[i][0], bases[i][1]);
    return 0;
}

int ls_speed_chroma_write(const LsSpeedChromaState *s, double max_val, const float score[2],
                          const bool err[2], unsigned index, LsCollector *fc)
{
    const float s_uv = ls_speed_uv(score[0], err[0], score[1], err[1]);
    int e = ls_collector_append(fc, s->names[0], ls_speed_cap(score[0], max_val), index);
    if (!e)
        e = ls_collector_append(fc, s->names[1], ls_speed_cap(score[1], max_val), index);
    if (!e)
        e = ls_collector_append(fc, s->names[2], ls_speed_cap(s_uv, max_val), index);
    return e;
}

typedef struct SpeedChromaPriv {
    LsSpeedChromaOptions opt; /* first: the option table's offsets point here */
    LsSpeedChromaState state;
    LsSpeedDsp dsp;
    LsFloatVifDsp vif;
} SpeedChromaPriv;

static void speed_chroma_close(LsFex *fex)
{
    SpeedChromaPriv *p = fex->priv;
    ls_speed_geometry_close(&p->state.geom);
}

static int speed_chroma_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                             unsigned h)
{
    SpeedChromaPriv *p = fex->priv;
    const int err = ls_speed_chroma_state_init(&p->state, &p->opt, fex, fmt, bpc, w, h);
    if (err)
        return err;
    ls_speed_dsp_init(&p->dsp, fex->cpu_flags);
    ls_float_vif_dsp_init(&p->vif, fex->cpu_flags);
    return 0;
}

static int speed_chroma_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                                unsigned index, LsCollector *fc)
{
    const SpeedChromaPriv *p = fex->priv;
    const Pipeline pl = { &p->state.params, &p->state.geom, &p->dsp, &p->vif };
    Scratch sc;
    if (scratch_alloc(&sc, &pl))
        return -ENOMEM;
    float s[2];
    bool err[2];
    for (int pl_i = 0; pl_i < 2; pl_i++) {
        const unsigned plane = 1 + (unsigned)pl_i; /* U first, then V */
        const RowSource src = {
            .rows = chroma_rows, .vif = &p->vif, .w = p->state.geom.w0,
            .bpc = p->state.params.bpc,
            .plane = { ref->data[plane], dist->data[plane] },
            .stride = { ref->stride[plane], dist->stride[plane] },
        };
        s[pl_i] = score_pair(&pl, &src, &sc, &err[pl_i]);
    }
    free(sc.mem);
    return ls_speed_chroma_write(&p->state, p->opt.speed_max_val, s, err, index, fc);
}

static const char *const speed_chroma_provided[] = {
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
    NULL,
};

const LsExtractor ls_fex_speed_chroma = {
    .name = "speed_chroma",
    .options = ls_speed_chroma_options,
    .priv_size = sizeof(SpeedChromaPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = speed_chroma_provided,
    .init = speed_chroma_init,
    .extract = speed_chroma_extract,
    .close = speed_chroma_close,
};

/* ---- speed_temporal ---- */

int ls_speed_temporal_state_init(LsSpeedTemporalState *s, const LsSpeedTemporalOptions *o,
                                 const LsFex *fex, unsigned bpc, unsigned w, unsigned h)
{
    memset(s, 0, sizeof(*s));
    int err = ls_speed_params_init(&s->params, fex, "speed_temporal", bpc, o->speed_kernelscale,
                                   o->speed_prescale, o->speed_prescale_method, o->speed_sigma_nn,
                                   o->speed_nn_floor, 0);
    if (err)
        return err;
    err = ls_speed_geometry_init(&s->geom, &s->params, fex, "speed_temporal", "luma", w, h, 0, 0);
    if (err)
        return err;
    ls_fex_feature_name(fex, s->name, sizeof(s->name),
                        "Speed_temporal_feature_speed_temporal_score", "speed_temporal");
    return 0;
}

typedef struct SpeedTemporalPriv {
    LsSpeedTemporalOptions opt; /* first: the option table's offsets point here */
    LsSpeedTemporalState state;
    LsSpeedDsp dsp;
    LsFloatVifDsp vif;
    Pipeline pl;
    Scratch sc;         /* frames come one at a time: allocated once */
    VmafPicture prev[2]; /* the previous frame's pictures, held (frames_held = 1), not copied */
    bool have_prev;
    unsigned n_frames;
} SpeedTemporalPriv;

static void release_prev(SpeedTemporalPriv *p)
{
    if (!p->have_prev)
        return;
    vmaf_picture_unref(&p->prev[0]);
    vmaf_picture_unref(&p->prev[1]);
    p->have_prev = false;
}

static void speed_temporal_close(LsFex *fex)
{
    SpeedTemporalPriv *p = fex->priv;
    release_prev(p);
    ls_speed_geometry_close(&p->state.geom);
    free(p->sc.mem);
    p->sc.mem = NULL;
}

static int speed_temporal_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                               unsigned h)
{
    SpeedTemporalPriv *p = fex->priv;
    (void)fmt; /* luma only: every layout, 4:0:0 included */
    const int err = ls_speed_temporal_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    ls_speed_dsp_init(&p->dsp, fex->cpu_flags);
    ls_float_vif_dsp_init(&p->vif, fex->cpu_flags);
    p->pl = (Pipeline){ &p->state.params, &p->state.geom, &p->dsp, &p->vif };
    if (scratch_alloc(&p->sc, &p->pl)) {
        ls_speed_geometry_close(&p->state.geom);
        return -ENOMEM;
    }
    return 0;
}

static int speed_temporal_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                                  unsigned index, LsCollector *fc)
{
    SpeedTemporalPriv *p = fex->priv;
    if (index != p->n_frames)
        return ls_fex_error(fex,
                            "speed_temporal: frame %u arrived after %u frames; it needs every "
                            "frame in order",
                            index, p->n_frames);
    double score = 0.0;
    if (p->have_prev) {
        const RowSource src = {
            .rows = temporal_rows, .vif = &p->vif, .w = p->state.geom.w0,
            .bpc = p->state.params.bpc,
            .plane = { p->prev[0].data[0], p->prev[1].data[0], ref->data[0], dist->data[0] },
            .stride = { p->prev[0].stride[0], p->prev[1].stride[0], ref->stride[0],
                        dist->stride[0] },
            .use_ref_diff = p->opt.speed_use_ref_diff,
            .tmp = { p->sc.pair.tmp[0], p->sc.pair.tmp[1] },
        };
        bool err;
        score = (double)score_pair(&p->pl, &src, &p->sc, &err); /* never capped (§1.2) */
    }
    release_prev(p);
    ls_picture_ref(&p->prev[0], ref);
    ls_picture_ref(&p->prev[1], dist);
    p->have_prev = true;
    p->n_frames++;
    return ls_collector_append(fc, p->state.name, score, index);
}

/* the last pictures go back to their pool at the end of the stream */
static int speed_temporal_flush(LsFex *fex, LsCollector *fc)
{
    (void)fc;
    release_prev(fex->priv);
    return 0;
}

/* a frame's score compares it with the previous one; the first frame's is zero */
static void speed_temporal_frames_around(const LsFex *fex, unsigned *before, unsigned *after)
{
    (void)fex;
    *before = 1;
    *after = 0;
}

static const char *const speed_temporal_provided[] = {
    "Speed_temporal_feature_speed_temporal_score",
    NULL,
};

const LsExtractor ls_fex_speed_temporal = {
    .name = "speed_temporal",
    .options = ls_speed_temporal_options,
    .priv_size = sizeof(SpeedTemporalPriv),
    .flags = LS_FEX_TEMPORAL,
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = speed_temporal_provided,
    .init = speed_temporal_init,
    .extract = speed_temporal_extract,
    .flush = speed_temporal_flush,
    .close = speed_temporal_close,
    .frames_held = 1,
    .frames_around = speed_temporal_frames_around,
};
