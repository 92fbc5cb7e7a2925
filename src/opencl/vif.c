/* vif on OpenCL: the twin of ls_fex_vif. The device builds the pyramid and returns each scale's
 * four integer accumulators; the per-scale numerator, denominator and scores are the CPU's own
 * (ls_vif_write_scores). */
#include <stddef.h>
#include <string.h>

#include "feature/vif.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

/* kernels per sample kind and scale, as in src/cuda/vif.c */
enum {
    K_STATS_8, K_STATS_16, K_DEC_8 = K_STATS_16 + LS_VIF_SCALES, K_DEC_16,
    K_REDUCE = K_DEC_16 + 3, K_COUNT
};
static const char *const kernel_names[K_COUNT] = {
    "ls_vif_stats_8",      "ls_vif_stats_16_0",    "ls_vif_stats_16_1",    "ls_vif_stats_16_2",
    "ls_vif_stats_16_3",   "ls_vif_decimate_8",    "ls_vif_decimate_16_1", "ls_vif_decimate_16_2",
    "ls_vif_decimate_16_3", "ls_reduce_partials",
};

/* vif.cl's tiles */
#define TILE_W 112u
#define TILE_H 8u
#define DEC_TILE_W 56u
#define DEC_TILE_H 8u

typedef struct VifOpenclPriv {
    LsVifOptions opt; /* first: the CPU's option table points here */
    LsVifState state;
    LsClTwin twin;
    cl_mem table;
    cl_mem partial[LS_CL_SLOTS];                    /* per scale: groups x 4 int64 */
    cl_mem pyramid[LS_CL_SLOTS][LS_VIF_SCALES][2];  /* scales 1..3, reference/distorted */
    size_t partial_off[LS_VIF_SCALES];              /* in int64 */
    unsigned n_groups[LS_VIF_SCALES];
} VifOpenclPriv;

#define RESULT_BYTES (LS_VIF_SCALES * 4 * sizeof(cl_long))

static int setup(LsFex *fex, LsClTwin *t)
{
    VifOpenclPriv *p = fex->priv;
    const LsVifState *s = &p->state;
    size_t n_partial = 0;
    for (unsigned sc = 0; sc < LS_VIF_SCALES; sc++) {
        const unsigned w = s->w >> sc, h = s->h >> sc;
        p->n_groups[sc] = ((w + TILE_W - 1) / TILE_W) * ((h + TILE_H - 1) / TILE_H);
        p->partial_off[sc] = n_partial;
        n_partial += (size_t)p->n_groups[sc] * 4;
    }
    int ret = ls_cl_twin_upload(t, &p->table, ls_vif_log2_table, sizeof(ls_vif_log2_table));
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->partial[i], n_partial * sizeof(cl_long));
        for (unsigned sc = 1; sc < LS_VIF_SCALES && ret >= 0; sc++)
            for (unsigned k = 0; k < 2 && ret >= 0; k++)
                ret = ls_cl_twin_alloc(t, &p->pyramid[i][sc][k],
                                       (size_t)(s->w >> sc) * (s->h >> sc) * sizeof(cl_ushort));
    }
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    VifOpenclPriv *p = fex->priv;
    const LsVifState *s = &p->state;
    const cl_mem partial = p->partial[f->slot];
    cl_mem cur[2] = { f->input, f->input };
    cl_ulong off[2] = { f->ref[0], f->dis[0] };
    cl_ulong gain_limit;
    memcpy(&gain_limit, &s->opt.vif_enhn_gain_limit, sizeof(gain_limit)); /* ls_f64's bits */
    cl_uint w = s->w, h = s->h;
    const unsigned first = s->opt.vif_skip_scale0 ? 1 : 0;
    const size_t local[3] = { t->dev->wg, 1, 1 };
    int ret = 0;
    for (unsigned sc = 0; sc < LS_VIF_SCALES && ret >= 0; sc++) {
        if (sc > 0) {
            /* scale sc from scale sc - 1, also when scale 0 itself is skipped */
            const LsVifLevel prev = ls_vif_level(sc - 1, s->bpc);
            const cl_uint mu_shift = prev.mu_shift, mu_round = prev.mu_round;
            const cl_mem dst[2] = { p->pyramid[f->slot][sc][0], p->pyramid[f->slot][sc][1] };
            const cl_uint ow = w / 2, oh = h / 2;
            const size_t global[3] = { (ow + DEC_TILE_W - 1) / DEC_TILE_W * local[0],
                                       (oh + DEC_TILE_H - 1) / DEC_TILE_H, 2 };
            ret = LS_CL_LAUNCH(t, f, prev.bytes ? K_DEC_8 : K_DEC_16 + (sc - 1), 3, global, local,
                               LS_CL_A(cur[0]), LS_CL_A(off[0]), LS_CL_A(cur[1]), LS_CL_A(off[1]),
                               LS_CL_A(dst[0]), LS_CL_A(dst[1]), LS_CL_A(w), LS_CL_A(h),
                               LS_CL_A(mu_shift), LS_CL_A(mu_round));
            cur[0] = dst[0];
            cur[1] = dst[1];
            off[0] = off[1] = 0;
            w = ow;
            h = oh;
        }
        if (ret < 0 || sc < first)
            continue;
        const LsVifLevel level = ls_vif_level(sc, s->bpc);
        const cl_ulong sq_round = level.sq_round;
        const cl_uint mu_shift = level.mu_shift, mu_round = level.mu_round;
        const cl_uint sq_shift = level.sq_shift;
        const size_t global[2] = { (w + TILE_W - 1) / TILE_W * local[0],
                                   (h + TILE_H - 1) / TILE_H };
        const cl_ulong part_off = p->partial_off[sc];
        ret = LS_CL_LAUNCH(t, f, level.bytes ? K_STATS_8 : K_STATS_16 + sc, 2, global, local,
                           LS_CL_A(cur[0]), LS_CL_A(off[0]), LS_CL_A(cur[1]), LS_CL_A(off[1]),
                           LS_CL_A(p->table), LS_CL_A(partial), LS_CL_A(part_off), LS_CL_A(w),
                           LS_CL_A(h), LS_CL_A(sq_round), LS_CL_A(gain_limit),
                           LS_CL_A(mu_shift), LS_CL_A(mu_round), LS_CL_A(sq_shift));
        if (ret >= 0) {
            const cl_uint n_parts = p->n_groups[sc], n_values = 4, out_index = 4 * sc;
            const size_t rglobal = 4 * local[0];
            ret = LS_CL_LAUNCH(t, f, K_REDUCE, 1, &rglobal, local, LS_CL_A(partial),
                               LS_CL_A(part_off), LS_CL_A(n_parts), LS_CL_A(n_values),
                               LS_CL_A(f->result), LS_CL_A(out_index));
        }
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    VifOpenclPriv *p = fex->priv;
    LsVifAccum acc[LS_VIF_SCALES];
    const int64_t *v = result;
    for (unsigned sc = 0; sc < LS_VIF_SCALES; sc++) {
        acc[sc].num_log = v[4 * sc + 0];
        acc[sc].den_log = v[4 * sc + 1];
        acc[sc].num_nonlog = v[4 * sc + 2];
        acc[sc].den_nonlog = v[4 * sc + 3];
    }
    return ls_vif_write_scores(&p->state, acc, index, fc);
}

static const LsClTwinDesc vif_twin = {
    .name = "vif",
    .source = &ls_cl_source_vif,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = (1u << K_COUNT) - 1,
    .result_bytes = RESULT_BYTES,
    .twin_offset = offsetof(VifOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int vif_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                           unsigned h)
{
    VifOpenclPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_vif_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cl_twin_open(&p->twin, fex, &vif_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_vif_opencl = {
    .name = "vif_opencl",
    .options = ls_vif_options,
    .priv_size = sizeof(VifOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_vif,
    .init = vif_opencl_init,
    LS_CL_TWIN_EXTRACTOR(vif_twin),
};
