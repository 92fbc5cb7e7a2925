/* Extractor `psnr_hvs`: the Xiph PSNR-HVS with the lusoris fork's threshold arithmetic
 * (psnr_hvs.md). The plane sums come from the DSP unit; the score math is shared with the GPU
 * twins (ls_psnr_hvs_* below). */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "core/extractor.h"
#include "core/geometry.h"
#include "feature/psnr_hvs.h"

const LsOption ls_psnr_hvs_options[] = {
    { .name = "enable_chroma", .help = "enable calculation for chroma channels",
      .type = LS_OPT_BOOL, .offset = offsetof(LsPsnrHvsOptions, enable_chroma), .def.b = true },
    { 0 },
};

static const char *const plane_names[3] = { "luma", "cb", "cr" };

int ls_psnr_hvs_check_planes(const LsFex *fex, const LsPsnrHvsState *s)
{
    if (s->w[0] < 8 || s->h[0] < 8)
        return ls_fex_error(fex,
                            "psnr_hvs: the luma plane is %ux%u, smaller than the 8x8 block the "
                            "metric needs",
                            s->w[0], s->h[0]);
    for (unsigned p = 1; p < s->n_planes; p++) {
        if (s->w[p] < 8 || s->h[p] < 8)
            return ls_fex_error(fex,
                                "psnr_hvs: the %s plane is %ux%u, smaller than the 8x8 block the "
                                "metric needs; use enable_chroma=false to score luma only",
                                plane_names[p], s->w[p], s->h[p]);
    }
    return 0;
}

int ls_psnr_hvs_state_init(LsFex *fex, LsPsnrHvsState *s, const LsPsnrHvsOptions *opt,
                           enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    if (bpc > 12)
        return ls_fex_error(fex,
                            "psnr_hvs: invalid bitdepth (%u), bpc must be less than or equal to 12",
                            bpc);
    s->opt = *opt;
    s->bpc = bpc;
    if (fmt == VMAF_PIX_FMT_YUV400P)
        s->opt.enable_chroma = false;
    s->n_planes = s->opt.enable_chroma ? 3 : 1;
    fex->n_planes_read = s->n_planes;
    ls_plane_sizes(fmt, w, h, s->w, s->h);
    for (unsigned p = 0; p < 3; p++)
        s->n_terms[p] = (int)(64 * ls_psnr_hvs_blocks(s->w[p]) * ls_psnr_hvs_blocks(s->h[p]));
    return ls_psnr_hvs_check_planes(fex, s);
}

double ls_psnr_hvs_plane_score(float sum, int n_terms, unsigned bpc)
{
    const int samplemax = (1 << bpc) - 1;
    float score = sum / (float)n_terms;
    score = score / (float)(samplemax * samplemax);
    return (double)score;
}

double ls_psnr_hvs_combine(const double score[3], unsigned n_planes)
{
    if (n_planes == 1)
        return score[0];
    const double luma = score[0] * 0.8;
    double chroma = score[1] + score[2];
    chroma = 0.1 * chroma;
    return luma + chroma;
}

double ls_psnr_hvs_db(double score)
{
    return 10 * (-1 * log10(1.0 * score));
}

static const char *const score_names[3] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr" };

int ls_psnr_hvs_write_scores(const LsPsnrHvsState *s, const float sum[3], unsigned index,
                             LsCollector *fc)
{
    double score[3] = { 0.0, 0.0, 0.0 };
    for (unsigned p = 0; p < s->n_planes; p++) {
        score[p] = ls_psnr_hvs_plane_score(sum[p], s->n_terms[p], s->bpc);
        const int err = ls_collector_append(fc, score_names[p], ls_psnr_hvs_db(score[p]), index);
        if (err)
            return err;
    }
    return ls_collector_append(fc, "psnr_hvs",
                               ls_psnr_hvs_db(ls_psnr_hvs_combine(score, s->n_planes)), index);
}

typedef struct PsnrHvsPriv {
    LsPsnrHvsOptions opt; /* first: the option table's offsets point here */
    LsPsnrHvsState state;
    LsPsnrHvsDsp dsp;
} PsnrHvsPriv;

static int psnr_hvs_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                         unsigned h)
{
    PsnrHvsPriv *p = fex->priv;
    ls_psnr_hvs_dsp_init(&p->dsp, fex->cpu_flags);
    return ls_psnr_hvs_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
}

static int psnr_hvs_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                            unsigned index, LsCollector *fc)
{
    const PsnrHvsPriv *p = fex->priv;
    const LsPsnrHvsPlaneSumFn fn = p->dsp.plane_sum[ref->bpc > 8];
    float sum[3] = { 0.0f, 0.0f, 0.0f };
    for (unsigned i = 0; i < p->state.n_planes; i++)
        sum[i] = fn(ref->data[i], ref->stride[i], dist->data[i], dist->stride[i],
                    p->state.w[i], p->state.h[i], (int)i);
    return ls_psnr_hvs_write_scores(&p->state, sum, index, fc);
}

static const char *const psnr_hvs_provided[] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr",
                                                 "psnr_hvs", NULL };

const LsExtractor ls_fex_psnr_hvs = {
    .name = "psnr_hvs",
    .options = ls_psnr_hvs_options,
    .priv_size = sizeof(PsnrHvsPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = psnr_hvs_provided,
    .init = psnr_hvs_init,
    .extract = psnr_hvs_extract,
};
