/* vif on CUDA: the twin of ls_fex_vif. The device builds the pyramid and returns each scale's four
 * integer accumulators; the per-scale numerator, denominator and scores are the CPU's own
 * (ls_vif_write_scores). */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/twin.h"
#include "cuda/vif_cuda.h"
#include "feature/vif.h"

extern const unsigned char ls_cuda_fatbin_vif[];

/* kernels per sample kind and scale: the tap loops unroll */
enum { K_STATS_8, K_STATS_16, K_DEC_8 = K_STATS_16 + LS_VIF_SCALES, K_DEC_16, K_COUNT = K_DEC_16 + 3 };
static const char *const kernel_names[K_COUNT] = {
    "ls_vif_stats_8",      "ls_vif_stats_16_0",    "ls_vif_stats_16_1",    "ls_vif_stats_16_2",
    "ls_vif_stats_16_3",   "ls_vif_decimate_8",    "ls_vif_decimate_16_1", "ls_vif_decimate_16_2",
    "ls_vif_decimate_16_3",
};

typedef struct VifCudaPriv {
    LsVifOptions opt; /* first: the CPU's option table points here */
    LsVifState state;
    LsCudaTwin twin;
    CUdeviceptr table;
    CUdeviceptr acc[LS_CUDA_SLOTS];                    /* LS_VIF_SCALES x 4 int64 */
    CUdeviceptr pyramid[LS_CUDA_SLOTS][LS_VIF_SCALES][2]; /* scales 1..3, reference/distorted */
} VifCudaPriv;

#define ACC_BYTES (LS_VIF_SCALES * 4 * sizeof(int64_t))

static int setup(LsFex *fex, LsCudaTwin *t)
{
    VifCudaPriv *p = fex->priv;
    const LsVifState *s = &p->state;
    int err = ls_cuda_twin_upload(t, &p->table, ls_vif_log2_table, sizeof(ls_vif_log2_table));
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        err = ls_cuda_twin_alloc(t, &p->acc[i], ACC_BYTES);
        for (unsigned sc = 1; sc < LS_VIF_SCALES && !err; sc++)
            for (unsigned k = 0; k < 2 && !err; k++)
                err = ls_cuda_twin_alloc(t, &p->pyramid[i][sc][k],
                                         (size_t)(s->w >> sc) * (s->h >> sc) * sizeof(uint16_t));
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    VifCudaPriv *p = fex->priv;
    const LsVifState *s = &p->state;
    const LsCudaApi *cu = t->dev.cu;
    const CUdeviceptr acc = p->acc[f->slot];
    int err = CHECK_CU(cu, cuMemsetD8Async(acc, 0, ACC_BYTES, f->stream));
    CUdeviceptr cur[2] = { f->ref[0], f->dis[0] };
    unsigned w = s->w, h = s->h;
    const unsigned first = s->opt.vif_skip_scale0 ? 1 : 0;
    for (unsigned sc = 0; sc < LS_VIF_SCALES && !err; sc++) {
        if (sc > 0) {
            /* scale sc from scale sc - 1, also when scale 0 itself is skipped */
            const LsVifLevel prev = ls_vif_level(sc - 1, s->bpc);
            LsVifDecimateArgs d = { .src = { cur[0], cur[1] },
                                    .dst = { p->pyramid[f->slot][sc][0],
                                             p->pyramid[f->slot][sc][1] },
                                    .w = w, .h = h, .scale = sc - 1, .bytes = prev.bytes,
                                    .mu_shift = prev.mu_shift, .mu_round = prev.mu_round };
            const unsigned ow = w / 2, oh = h / 2;
            err = ls_cuda_twin_launch(t, prev.bytes ? K_DEC_8 : K_DEC_16 + (sc - 1),
                                      (ow + LS_VIF_DEC_TILE_W - 1) / LS_VIF_DEC_TILE_W,
                                      (oh + LS_VIF_DEC_TILE_H - 1) / LS_VIF_DEC_TILE_H, 2,
                                      LS_VIF_THREADS, 1, 1, 0, f, &d);
            cur[0] = d.dst[0];
            cur[1] = d.dst[1];
            w = ow;
            h = oh;
        }
        if (err || sc < first)
            continue;
        const LsVifLevel level = ls_vif_level(sc, s->bpc);
        LsVifStatsArgs a = { .ref = cur[0], .dis = cur[1], .table = p->table,
                             .acc = acc + sc * 4 * sizeof(int64_t), .sq_round = level.sq_round,
                             .gain_limit = s->opt.vif_enhn_gain_limit, .w = w, .h = h,
                             .scale = sc, .bytes = level.bytes, .mu_shift = level.mu_shift,
                             .mu_round = level.mu_round, .sq_shift = level.sq_shift };
        err = ls_cuda_twin_launch(t, level.bytes ? K_STATS_8 : K_STATS_16 + sc,
                                  (w + LS_VIF_TILE_W - 1) / LS_VIF_TILE_W,
                                  (h + LS_VIF_TILE_H - 1) / LS_VIF_TILE_H, 1, LS_VIF_THREADS, 1, 1,
                                  0, f, &a);
        if (!err && sc == 0)
            err = ls_cuda_twin_mark(t, f);
    }
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, acc, ACC_BYTES, f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    VifCudaPriv *p = fex->priv;
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

static const LsCudaTwinDesc vif_twin = {
    .name = "vif",
    .fatbin = ls_cuda_fatbin_vif,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = ACC_BYTES,
    .twin_offset = offsetof(VifCudaPriv, twin),
    .stage_name = { "scale 0", "scales 1-3" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int vif_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                         unsigned h)
{
    VifCudaPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_vif_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cuda_twin_open(&p->twin, fex, &vif_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_vif_cuda = {
    .name = "vif_cuda",
    .options = ls_vif_options,
    .priv_size = sizeof(VifCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_vif,
    .init = vif_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(vif_twin),
};
