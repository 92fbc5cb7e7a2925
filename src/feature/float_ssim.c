/* Extractor `float_ssim`: libvmaf's float SSIM (iqa) on luma, ssim.md Part A.
 * The picture is streamed row by row: convert (and decimate), 11-tap horizontal pass into a ring
 * of 11 rows, vertical pass, per-position terms added into four sequential double chains. Only
 * the order of every sum matters, and it is the reference's. The statistics of one pair of
 * float pictures (ls_float_ssim_stats) are also MS-SSIM's per-scale statistics. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "feature/ssim.h"

const LsOption ls_float_ssim_options[] = {
    { .name = "enable_lcs", .help = "enable luminance, contrast and structure intermediate output",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatSsimOptions, enable_lcs), .def.b = false },
    { .name = "enable_db", .help = "write SSIM values as dB",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatSsimOptions, enable_db), .def.b = false },
    { .name = "clip_db", .help = "clip dB scores",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatSsimOptions, clip_db), .def.b = false },
    { .name = "scale",
      .help = "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)",
      .type = LS_OPT_INT, .offset = offsetof(LsFloatSsimOptions, scale), .def.i = 0,
      .min = 0, .max = 10 },
    { 0 },
};

enum { NTAPS = LS_FLOAT_SSIM_TAPS, NMOMENTS = 5 };

typedef struct FloatSsimPriv {
    LsFloatSsimOptions opt; /* first: the option table's offsets point here */
    LsFloatSsimState st;
    LsSsimDsp dsp;
    int32_t *dec_cols;      /* f > 1: mirrored source column of tap u of output X, at u*dw+X */
} FloatSsimPriv;

int ls_float_ssim_state_init(LsFex *fex, LsFloatSsimState *p, const LsFloatSsimOptions *opt,
                             unsigned bpc, unsigned w, unsigned h)
{
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "float_ssim: bit depth %u is not supported (8, 10, 12 or 16)",
                            bpc);
    fex->n_planes_read = 1;
    p->opt = *opt;
    p->w = w;
    p->h = h;
    p->bpc = bpc;
    p->f = ls_float_ssim_scale(p->opt.scale, w, h);
    p->dw = ls_float_ssim_decimated_size(w, p->f);
    p->dh = ls_float_ssim_decimated_size(h, p->f);
    if (p->dw <= 10 || p->dh <= 10) {
        /* the reference divides 0 by a non-positive size and reports 0 here */
        if (p->f > 1)
            return ls_fex_error(fex,
                                "float_ssim: %ux%u luma decimated by scale %d is %ux%u, smaller "
                                "than the 11x11 SSIM window; use a smaller scale (scale=1 "
                                "disables decimation)",
                                w, h, p->f, p->dw, p->dh);
        return ls_fex_error(fex,
                            "float_ssim: %ux%u luma is smaller than the 11x11 SSIM window (the "
                            "reference reports 0 here); use the integer 'ssim' extractor, "
                            "which scores any size, or frames of at least 11x11",
                            w, h);
    }
    p->box_weight = 1.0f / (float)(p->f * p->f);
    p->max_db = ls_ssim_db_ceiling(p->opt.clip_db, bpc, w, h);
    return 0;
}

static int float_ssim_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                           unsigned h)
{
    FloatSsimPriv *p = fex->priv;
    (void)fmt; /* luma only; every layout, 4:0:0 included */
    int err = ls_float_ssim_state_init(fex, &p->st, &p->opt, bpc, w, h);
    if (err)
        return err;
    const LsFloatSsimState *st = &p->st;
    if (st->f > 1) {
        const int r = st->f / 2;
        p->dec_cols = malloc((size_t)st->dw * (size_t)st->f * sizeof(*p->dec_cols));
        if (!p->dec_cols)
            return -ENOMEM;
        for (int u = 0; u < st->f; u++)
            for (unsigned x_out = 0; x_out < st->dw; x_out++)
                p->dec_cols[(unsigned)u * st->dw + x_out] =
                    (int32_t)ls_float_ssim_mirror((int)x_out * st->f + u - r, (int)w);
    }
    ls_ssim_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

void ls_float_ssim_convert_row(const VmafPicture *pic, unsigned y, unsigned w, float *out)
{
    const uint8_t *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
    if (pic->bpc == 8) {
        for (unsigned x = 0; x < w; x++)
            out[x] = (float)row[x];
        return;
    }
    /* v / 2^(bpc-8): exact */
    const float div = pic->bpc == 10 ? 4.0f : pic->bpc == 12 ? 16.0f : 256.0f;
    const uint16_t *row16 = (const uint16_t *)row;
    for (unsigned x = 0; x < w; x++)
        out[x] = (float)row16[x] / div;
}

/* Decimated row y_out of one picture: f x f box, double sum in (row, column) order. */
static void decimate_row(const FloatSsimPriv *p, const VmafPicture *pic, unsigned y_out,
                         float *src_rows, float *out)
{
    const LsFloatSsimState *st = &p->st;
    const unsigned f = (unsigned)st->f;
    const int r = st->f / 2;
    for (unsigned v = 0; v < f; v++) {
        const int y = ls_float_ssim_mirror((int)(y_out * f) + (int)v - r, (int)st->h);
        /* the box filter's float product, formed once per sample: every tap of a sample uses
         * the same product */
        float *src = src_rows + (size_t)v * st->w;
        ls_float_ssim_convert_row(pic, (unsigned)y, st->w, src);
        for (unsigned x = 0; x < st->w; x++)
            src[x] = src[x] * st->box_weight;
    }
    p->dsp.float_decimate(src_rows, st->w, p->dec_cols, f, st->dw, out);
}

size_t ls_float_ssim_stats_scratch(unsigned w)
{
    return 2 * (size_t)w + (NTAPS + 1) * NMOMENTS * (size_t)(w - 10);
}

void ls_float_ssim_stats(const LsSsimDsp *dsp, unsigned w, unsigned h, LsFloatSsimRowFn row,
                         const void *ctx, float *scratch, double acc[4])
{
    const unsigned w_out = w - 10;
    float *ref_buf = scratch;                    /* the row entering the filters, when copied */
    float *dis_buf = ref_buf + w;
    float *ring = dis_buf + w;                   /* [moment][row % 11][x] horizontal results */
    float *moments = ring + (size_t)NTAPS * NMOMENTS * w_out; /* [moment][x] of one grid row */
    for (unsigned i = 0; i < 4; i++)
        acc[i] = 0.0;
    for (unsigned y = 0; y < h; y++) {
        const float *row_r, *row_d;
        row(ctx, y, ref_buf, dis_buf, &row_r, &row_d);
        float *h_rows[NMOMENTS];
        for (unsigned m = 0; m < NMOMENTS; m++)
            h_rows[m] = ring + ((size_t)m * NTAPS + y % NTAPS) * w_out;
        dsp->float_conv_h(row_r, row_d, w_out, h_rows[0], h_rows[1], h_rows[2], h_rows[3],
                          h_rows[4]);
        if (y < NTAPS - 1)
            continue;
        for (unsigned m = 0; m < NMOMENTS; m++) {
            const float *rows[NTAPS];
            for (unsigned k = 0; k < NTAPS; k++)
                rows[k] = ring + ((size_t)m * NTAPS + (y + 1 + k) % NTAPS) * w_out;
            dsp->float_conv_v(rows, moments + (size_t)m * w_out, w_out);
        }
        dsp->float_terms(moments, moments + w_out, moments + 2 * (size_t)w_out,
                         moments + 3 * (size_t)w_out, moments + 4 * (size_t)w_out, w_out, acc);
    }
}

typedef struct FloatSsimRows {
    const FloatSsimPriv *p;
    const VmafPicture *ref, *dist;
    float *src_rows;        /* f > 1: f converted rows, one picture at a time */
} FloatSsimRows;

static void float_ssim_rows(const void *ctx, unsigned y, float *ref_buf, float *dis_buf,
                            const float **ref, const float **dis)
{
    const FloatSsimRows *r = ctx;
    const FloatSsimPriv *p = r->p;
    if (p->st.f > 1) {
        decimate_row(p, r->ref, y, r->src_rows, ref_buf);
        decimate_row(p, r->dist, y, r->src_rows, dis_buf);
    } else {
        ls_float_ssim_convert_row(r->ref, y, p->st.dw, ref_buf);
        ls_float_ssim_convert_row(r->dist, y, p->st.dw, dis_buf);
    }
    *ref = ref_buf;
    *dis = dis_buf;
}

static int float_ssim_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                              unsigned index, LsCollector *fc)
{
    const FloatSsimPriv *p = fex->priv;
    const unsigned dw = p->st.dw, dh = p->st.dh;
    const size_t src_len = p->st.f > 1 ? (size_t)p->st.f * p->st.w : 0;
    float *mem = malloc((src_len + ls_float_ssim_stats_scratch(dw)) * sizeof(float));
    if (!mem)
        return -ENOMEM;
    const FloatSsimRows rows = { p, ref, dist, mem };
    double acc[4];
    ls_float_ssim_stats(&p->dsp, dw, dh, float_ssim_rows, &rows, mem + src_len, acc);
    free(mem);
    return ls_float_ssim_write_scores(&p->st, acc, index, fc);
}

int ls_float_ssim_write_scores(const LsFloatSsimState *st, const double acc[4], unsigned index,
                               LsCollector *fc)
{
    const double n = (double)(int)((st->dw - 10) * (st->dh - 10));
    double score = (double)(float)(acc[0] / n);
    if (st->opt.enable_db)
        score = ls_ssim_to_db(score, st->max_db);
    int err = ls_collector_append(fc, "float_ssim", score, index);
    if (!err && st->opt.enable_lcs)
        err = ls_collector_append(fc, "float_ssim_l", (double)(float)(acc[1] / n), index);
    if (!err && st->opt.enable_lcs)
        err = ls_collector_append(fc, "float_ssim_c", (double)(float)(acc[2] / n), index);
    if (!err && st->opt.enable_lcs)
        err = ls_collector_append(fc, "float_ssim_s", (double)(float)(acc[3] / n), index);
    return err;
}

static void float_ssim_close(LsFex *fex)
{
    FloatSsimPriv *p = fex->priv;
    free(p->dec_cols);
    p->dec_cols = NULL;
}

static const char *const float_ssim_provided[] = { "float_ssim", "float_ssim_l", "float_ssim_c",
                                                    "float_ssim_s", NULL };

const LsExtractor ls_fex_float_ssim = {
    .name = "float_ssim",
    .options = ls_float_ssim_options,
    .priv_size = sizeof(FloatSsimPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = float_ssim_provided,
    .init = float_ssim_init,
    .extract = float_ssim_extract,
    .close = float_ssim_close,
};
