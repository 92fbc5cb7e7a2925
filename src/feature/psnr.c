/* Extractor `psnr`: integer SSE per plane, dB per libvmaf's integer_psnr (psnr.md).
 * The dB and APSNR math is shared with the GPU twins (ls_psnr_* below). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/extractor.h"
#include "core/geometry.h"
#include "feature/psnr.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

const LsOption ls_psnr_options[] = {
    { .name = "enable_chroma", .help = "enable calculation for chroma channels",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrOptions, enable_chroma), .def.b = true },
    { .name = "enable_mse", .help = "enable MSE calculation",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrOptions, enable_mse), .def.b = false },
    { .name = "enable_apsnr", .help = "enable APSNR calculation",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrOptions, enable_apsnr), .def.b = false },
    { .name = "reduced_hbd_peak",
      .help = "reduce hbd peak value to align with scaled 8-bit content",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrOptions, reduced_hbd_peak), .def.b = false },
    { .name = "min_sse", .help = "constrain the minimum possible sse",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsPsnrOptions, min_sse), .def.d = 0.0,
      .min = 0.0, .max = DBL_MAX },
    { .name = "uncapped",
      .help = "report the true PSNR instead of truncating at the psnr_max ceiling "
              "(an all-zero SSE still reports psnr_max)",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrOptions, uncapped), .def.b = false },
    { 0 },
};

static const char *const psnr_names[3] = { "psnr_y", "psnr_cb", "psnr_cr" };
static const char *const mse_names[3] = { "mse_y", "mse_cb", "mse_cr" };
static const char *const apsnr_names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
/* APSNR's sums live in the collector, so that the shards of a video add up to the whole run */
static const char *const apsnr_sse_names[3] = { "apsnr_sse_y", "apsnr_sse_cb", "apsnr_sse_cr" };
static const char *const apsnr_n_names[3] = { "apsnr_samples_y", "apsnr_samples_cb",
                                              "apsnr_samples_cr" };

int ls_psnr_state_init(LsFex *fex, LsPsnrState *s, const LsPsnrOptions *opt,
                       enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "psnr: bit depth %u is not supported (8, 10, 12 or 16)", bpc);
    s->opt = *opt;
    s->bpc = bpc;
    if (fmt == VMAF_PIX_FMT_YUV400P)
        s->opt.enable_chroma = false;
    s->n_planes = s->opt.enable_chroma ? 3 : 1;
    fex->n_planes_read = s->n_planes;
    /* the picture model's chroma (ceil of half): the fork's sizes for odd frames, whose goldens
     * these match; the min_sse ceiling below uses the same sizes */
    unsigned pw[3], ph[3];
    ls_plane_sizes(fmt == VMAF_PIX_FMT_YUV400P ? VMAF_PIX_FMT_YUV444P : fmt, w, h, pw, ph);
    for (unsigned i = 0; i < 3; i++)
        s->w[i] = pw[i], s->h[i] = ph[i];
    s->peak = s->opt.reduced_hbd_peak ? (255u << (bpc - 8)) : ((1u << bpc) - 1);
    for (unsigned i = 0; i < 3; i++) {
        if (s->opt.min_sse != 0.0) {
            const double mse_floor = s->opt.min_sse / (double)(s->w[i] * s->h[i]);
            s->psnr_max[i] = ceil(10.0 * log10((double)(s->peak * s->peak) / mse_floor));
        } else {
            s->psnr_max[i] = (double)(6 * bpc + 12);
        }
    }
    return 0;
}

int ls_psnr_write_scores(LsPsnrState *s, const uint64_t sse[3], unsigned index, LsCollector *fc)
{
    const double peak_sq = s->bpc == 8 ? 65025.0 : (double)(s->peak * s->peak);
    for (unsigned p = 0; p < s->n_planes; p++) {
        const double mse = (double)sse[p] / (double)(s->w[p] * s->h[p]);
        double psnr;
        if (s->opt.uncapped)
            psnr = mse <= 0.0 ? s->psnr_max[p] : 10.0 * log10(peak_sq / MAX(mse, 1e-16));
        else
            psnr = MIN(10.0 * log10(peak_sq / MAX(mse, 1e-16)), s->psnr_max[p]);
        int err = ls_collector_append(fc, psnr_names[p], psnr, index);
        if (!err && s->opt.enable_mse)
            err = ls_collector_append(fc, mse_names[p], mse, index);
        if (err)
            return err;
        if (s->opt.enable_apsnr) {
            err = ls_collector_add_sum(fc, apsnr_sse_names[p], sse[p], index);
            if (!err)
                err = ls_collector_add_sum(fc, apsnr_n_names[p], (uint64_t)s->h[p] * s->w[p],
                                           index);
            if (err)
                return err;
        }
    }
    return 0;
}

int ls_psnr_write_aggregates(const LsPsnrState *s, LsCollector *fc)
{
    if (!s->opt.enable_apsnr)
        return 0;
    /* every plane, active or not: an inactive one gives MIN(NaN, -inf) = -inf, as upstream */
    for (unsigned i = 0; i < 3; i++) {
        const uint64_t acc_sse = ls_collector_sum(fc, apsnr_sse_names[i]);
        const uint64_t acc_n = ls_collector_sum(fc, apsnr_n_names[i]);
        const double apsnr = 10 * ((log10((double)(s->peak * s->peak)) + log10((double)acc_n))
                                   - log10((double)acc_sse));
        const double max_apsnr =
            ceil(10 * log10((double)((uint64_t)s->peak * s->peak * acc_n * 2)));
        const int err = ls_collector_set_aggregate(fc, apsnr_names[i], MIN(apsnr, max_apsnr));
        if (err)
            return err;
    }
    return 0;
}

typedef struct PsnrPriv {
    LsPsnrOptions opt; /* first: the option table's offsets point here */
    LsPsnrState state;
    LsPsnrDsp dsp;
} PsnrPriv;

static int psnr_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    PsnrPriv *p = fex->priv;
    ls_psnr_dsp_init(&p->dsp, fex->cpu_flags);
    return ls_psnr_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
}

static int psnr_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                        unsigned index, LsCollector *fc)
{
    PsnrPriv *p = fex->priv;
    uint64_t sse[3] = { 0, 0, 0 };
    const LsPsnrSseFn fn = p->dsp.sse[ls_psnr_sse_kind(ref->bpc)];
    for (unsigned i = 0; i < p->state.n_planes; i++)
        sse[i] = fn(ref->data[i], ref->stride[i], dist->data[i], dist->stride[i], ref->w[i],
                    ref->h[i]);
    return ls_psnr_write_scores(&p->state, sse, index, fc);
}

static int psnr_aggregate(LsFex *fex, LsCollector *fc)
{
    const PsnrPriv *p = fex->priv;
    return ls_psnr_write_aggregates(&p->state, fc);
}

/* every frame is scored on its own: APSNR's sums take no context */
static void psnr_frames_around(const LsFex *fex, unsigned *before, unsigned *after)
{
    (void)fex;
    *before = *after = 0;
}

static const char *const psnr_provided[] = { "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb",
                                              "mse_cr", NULL };

const LsExtractor ls_fex_psnr = {
    .name = "psnr",
    .options = ls_psnr_options,
    .priv_size = sizeof(PsnrPriv),
    .flags = LS_FEX_TEMPORAL, /* APSNR accumulates over every frame, in order */
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = psnr_provided,
    .init = psnr_init,
    .extract = psnr_extract,
    .aggregate = psnr_aggregate,
    .frames_around = psnr_frames_around,
};
