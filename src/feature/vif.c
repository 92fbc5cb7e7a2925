/* Extractor `vif`: integer VIF at four scales (vif.md). Luma only. Not temporal: frames are
 * scored concurrently, priv is read-only in extract and each call has its own scratch (the
 * pyramid of both pictures and the row buffers: a block of the extractor's pool). Each scale is scored row by row: the sigmas of a
 * row (dsp.sigmas), their contributions (dsp.pixels), and the next scale is made row by row too
 * (dsp.decimate). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/scratch_pool.h"
#include "feature/vif.h"

const LsOption ls_vif_options[] = {
    { .name = "debug", .help = "debug mode: enable additional output", .type = LS_OPT_BOOL,
      .offset = offsetof(LsVifOptions, debug), .def.b = false },
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is "
              "completely disabled",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsVifOptions, vif_enhn_gain_limit), .def.d = 100.0,
      .min = 1.0, .max = 100.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_skip_scale0", .alias = "ssclz", .help = "when set, skip scale 0 calculation",
      .type = LS_OPT_BOOL, .offset = offsetof(LsVifOptions, vif_skip_scale0), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

typedef struct VifPriv {
    LsVifOptions opt; /* first: the option table's offsets point here */
    LsVifState st;
    LsVifDsp dsp;
    LsScratchPool *pool; /* blocks of scratch_layout's size */
    size_t tmp_bytes, pyr_bytes;
} VifPriv;

static const char *const score_names[LS_VIF_SCALES] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
};
static const char *const score_aliases[LS_VIF_SCALES] = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
};

int ls_vif_state_init(LsFex *fex, LsVifState *st, const LsVifOptions *opt, unsigned bpc,
                      unsigned w, unsigned h)
{
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "vif: bit depth %u is not supported (8 to 16)", bpc);
    /* Below this the reference reads outside its buffers (it crashes on 17x13 and smaller). */
    const unsigned min_side = ls_vif_min_side();
    if (w < min_side || h < min_side)
        return ls_fex_error(fex,
                            "vif: frame %ux%u is too small for the 4-scale pyramid; the smallest "
                            "frame it can score is %ux%u",
                            w, h, min_side, min_side);
    st->opt = *opt;
    st->bpc = bpc;
    st->w = w;
    st->h = h;
    fex->n_planes_read = 1;
    for (unsigned s = 0; s < LS_VIF_SCALES; s++) {
        char base[64];
        ls_fex_feature_name(fex, st->name_score[s], sizeof(st->name_score[s]), score_names[s],
                            score_aliases[s]);
        snprintf(base, sizeof(base), "integer_vif_num_scale%u", s);
        ls_fex_feature_name(fex, st->name_num_scale[s], sizeof(st->name_num_scale[s]), base, NULL);
        snprintf(base, sizeof(base), "integer_vif_den_scale%u", s);
        ls_fex_feature_name(fex, st->name_den_scale[s], sizeof(st->name_den_scale[s]), base, NULL);
    }
    ls_fex_feature_name(fex, st->name_vif, sizeof(st->name_vif), "integer_vif", NULL);
    ls_fex_feature_name(fex, st->name_num, sizeof(st->name_num), "integer_vif_num", NULL);
    ls_fex_feature_name(fex, st->name_den, sizeof(st->name_den), "integer_vif_den", NULL);
    return 0;
}

static int vif_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    VifPriv *p = fex->priv;
    (void)fmt; /* luma only: every layout, 4:0:0 included */
    const int err = ls_vif_state_init(fex, &p->st, &p->opt, bpc, w, h);
    if (err)
        return err;
    ls_vif_dsp_init(&p->dsp, fex->cpu_flags);
    /* scratch of a call: the DSP tmp, scales 1..3 of both pictures (scale s in buffer s & 1) */
    p->tmp_bytes = (ls_vif_tmp_size(w) + 63) & ~(size_t)63;
    p->pyr_bytes = ((size_t)(w / 2) * (h / 2) * sizeof(uint16_t) + 63) & ~(size_t)63;
    p->pool = ls_scratch_pool_create(p->tmp_bytes + 4 * p->pyr_bytes);
    return p->pool ? 0 : -ENOMEM;
}

static void vif_close(LsFex *fex)
{
    VifPriv *p = fex->priv;
    ls_scratch_pool_destroy(p->pool);
    p->pool = NULL;
}

static int vif_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                       unsigned index, LsCollector *fc)
{
    const VifPriv *p = fex->priv;
    const unsigned w = p->st.w, h = p->st.h;
    const size_t tmp_bytes = p->tmp_bytes, pyr_bytes = p->pyr_bytes;
    uint8_t *mem = ls_scratch_take(p->pool);
    if (!mem)
        return -ENOMEM;
    void *tmp = mem;
    uint16_t *pyr[2][2];
    for (unsigned k = 0; k < 2; k++)
        for (unsigned b = 0; b < 2; b++)
            pyr[k][b] = (uint16_t *)(mem + tmp_bytes + (2 * k + b) * pyr_bytes);

    LsVifPlane cur[2] = { { ref->data[0], ref->stride[0], w, h },
                          { dist->data[0], dist->stride[0], w, h } };
    LsVifAccum acc[LS_VIF_SCALES];
    memset(acc, 0, sizeof(acc));
    const unsigned first = p->opt.vif_skip_scale0 ? 1 : 0;
    for (unsigned s = 0; s < LS_VIF_SCALES; s++) {
        if (s > 0) {
            /* scale 1 comes from the full-size picture also when scale 0 is skipped */
            const LsVifLevel prev = ls_vif_level(s - 1, p->st.bpc);
            for (unsigned k = 0; k < 2; k++) {
                p->dsp.decimate(&cur[k], &prev, pyr[k][s & 1], tmp);
                cur[k].w /= 2;
                cur[k].h /= 2;
                cur[k].stride = (ptrdiff_t)(cur[k].w * sizeof(uint16_t));
                cur[k].data = pyr[k][s & 1];
            }
        }
        if (s >= first) {
            const LsVifLevel level = ls_vif_level(s, p->st.bpc);
            p->dsp.stats(&cur[0], &cur[1], &level, p->opt.vif_enhn_gain_limit, &acc[s], tmp);
        }
    }
    ls_scratch_give(p->pool, mem);
    return ls_vif_write_scores(&p->st, acc, index, fc);
}

int ls_vif_write_scores(const LsVifState *st, const LsVifAccum acc[LS_VIF_SCALES], unsigned index,
                        LsCollector *fc)
{
    const unsigned first = st->opt.vif_skip_scale0 ? 1 : 0;
    float num[LS_VIF_SCALES], den[LS_VIF_SCALES];
    double score[LS_VIF_SCALES];
    for (unsigned s = 0; s < LS_VIF_SCALES; s++) {
        num[s] = ls_vif_num(&acc[s]);
        den[s] = ls_vif_den(&acc[s]);
        score[s] = (double)(num[s] / den[s]);
    }
    if (first) {
        score[0] = 0.0;
        num[0] = 0.0f;
        den[0] = -1.0f;
    }
    int err = 0;
    for (unsigned s = 0; !err && s < LS_VIF_SCALES; s++)
        err = ls_collector_append(fc, st->name_score[s], score[s], index);
    if (err || !st->opt.debug)
        return err;
    double score_num = 0.0, score_den = 0.0;
    for (unsigned s = first; s < LS_VIF_SCALES; s++) {
        score_num += (double)num[s];
        score_den += (double)den[s];
    }
    err = ls_collector_append(fc, st->name_vif, score_den == 0.0 ? 1.0 : score_num / score_den,
                              index);
    if (!err)
        err = ls_collector_append(fc, st->name_num, score_num, index);
    if (!err)
        err = ls_collector_append(fc, st->name_den, score_den, index);
    for (unsigned s = 0; !err && s < LS_VIF_SCALES; s++) {
        err = ls_collector_append(fc, st->name_num_scale[s], (double)num[s], index);
        if (!err)
            err = ls_collector_append(fc, st->name_den_scale[s], (double)den[s], index);
    }
    return err;
}

static const char *const vif_provided[] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score", NULL,
};

const LsExtractor ls_fex_vif = {
    .name = "vif",
    .options = ls_vif_options,
    .priv_size = sizeof(VifPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = vif_provided,
    .init = vif_init,
    .extract = vif_extract,
    .close = vif_close,
};
