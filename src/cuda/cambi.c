/* cambi on CUDA: the twin of ls_fex_cambi (distorted picture only). The device builds the working
 * picture, the mask, and every scale's c-values with their exact pooling sums (cambi.cu); the
 * pooling and the score are the CPU's functions on those per-frame values: where the sums decide
 * a scale's pool (ls_cambi_pool_shortcut) its c-values stay on the device, else they are copied
 * and the CPU's selection runs on them. Full-reference mode and heat maps stay on the CPU: init
 * says -ENOTSUP. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cambi_cuda.h"
#include "cuda/extractors.h"
#include "cuda/twin.h"
#include "feature/cambi.h"

extern const unsigned char ls_cuda_fatbin_cambi[];

enum { K_PRE, K_TOP, K_ZD, K_MASK, K_MODE, K_C, K_COUNT };
static const char *const kernel_names[K_COUNT] = {
    "ls_cambi_preprocess",  "ls_cambi_top",         "ls_cambi_zero_derivatives",
    "ls_cambi_mask",        "ls_cambi_mode_filter", "ls_cambi_c_values",
};

typedef struct CambiSlot {
    CUdeviceptr img, z, mask, result;
    CUdeviceptr filtered[LS_CAMBI_NUM_SCALES], mv[LS_CAMBI_NUM_SCALES], c[LS_CAMBI_NUM_SCALES];
} CambiSlot;

typedef struct CambiCudaPriv {
    LsCambiOptions opt; /* first: the CPU's option table points here */
    LsCambiState state;
    LsCambiDsp dsp;     /* the CPU's selection, where the sums do not decide */
    LsCudaTwin twin;
    CUdeviceptr pos_x, pos_y;
    CambiSlot slot[LS_CUDA_SLOTS];
    int n_values;       /* histogram rows of the c-value kernel */
    unsigned shared_bytes;
    float *c;           /* host copy of one scale's c-values */
} CambiCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    CambiCudaPriv *p = fex->priv;
    const LsCambiGeometry *g = &p->state.dist;
    const size_t n = (size_t)g->w * g->h;
    int err = 0;
    if (g->pos_x)
        err = ls_cuda_twin_upload(t, &p->pos_x, g->pos_x, g->w * sizeof(int32_t));
    if (!err && g->pos_y)
        err = ls_cuda_twin_upload(t, &p->pos_y, g->pos_y, g->h * sizeof(int32_t));
    /* one block per slot (the skeleton's buffer table is small), carved 256-byte aligned */
    for (unsigned s = 0; s < LS_CUDA_SLOTS && !err; s++) {
        CambiSlot *cs = &p->slot[s];
        CUdeviceptr base = 0;
        for (int pass = 0; pass < 2 && !err; pass++) {
            size_t off = 0;
#define TAKE(ptr, bytes)                                                                           \
    do {                                                                                           \
        (ptr) = base + off;                                                                        \
        off += ((size_t)(bytes) + 255) & ~(size_t)255;                                             \
    } while (0)
            TAKE(cs->img, n * sizeof(uint16_t));
            TAKE(cs->z, n);
            TAKE(cs->mask, n);
            TAKE(cs->result, sizeof(LsCambiResult));
            for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++) {
                const size_t m = (size_t)g->sw[k] * g->sh[k];
                TAKE(cs->filtered[k], m * sizeof(uint16_t));
                TAKE(cs->mv[k], m * sizeof(uint16_t));
                TAKE(cs->c[k], m * sizeof(float));
            }
#undef TAKE
            if (!pass)
                err = ls_cuda_twin_alloc(t, &base, off);
        }
    }
    if (!err && p->shared_bytes > 48 * 1024)
        err = CHECK_CU(t->dev.cu, cuFuncSetAttribute(t->fn[K_C],
                                                     LS_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                     (int)p->shared_bytes));
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    CambiCudaPriv *p = fex->priv;
    const LsCambiState *s = &p->state;
    const LsCambiGeometry *g = &s->dist;
    const CambiSlot *cs = &p->slot[f->slot];
    const LsCudaApi *cu = t->dev.cu;
    const unsigned T = LS_CAMBI_THREADS;
    LsCambiPreArgs pre = {
        .src = f->dis[0], .pos_x = p->pos_x, .pos_y = p->pos_y, .img = cs->img, .z = cs->z,
        .mask = cs->mask, .result = cs->result, .in_w = (int32_t)s->in_w,
        .in_h = (int32_t)s->in_h, .w = (int32_t)g->w, .h = (int32_t)g->h, .bpc = (int32_t)s->bpc,
        .antidither = s->antidither, .mask_index = g->mask_index,
    };
    int err = CHECK_CU(cu, cuMemsetD8Async(cs->result, 0, sizeof(LsCambiResult), f->stream));
    if (!err && s->bpc != 8 && s->bpc != 16)
        err = ls_cuda_twin_launch(t, K_TOP, 264, 1, 1, T, 1, 1, 0, f, &pre);
    const unsigned gx = (g->w + T - 1) / T;
    if (!err)
        err = ls_cuda_twin_launch(t, K_PRE, gx, g->h, 1, T, 1, 1, 0, f, &pre);
    if (!err)
        err = ls_cuda_twin_launch(t, K_ZD, gx, g->h, 1, T, 1, 1, 0, f, &pre);
    /* the mask is read at the scales' samples only: every other one with the speed-up */
    pre.mask_step = g->sw[0] != g->w || g->sh[0] != g->h ? 2 : 1;
    const unsigned mw = (g->w + (unsigned)pre.mask_step - 1) / (unsigned)pre.mask_step;
    const unsigned mh = (g->h + (unsigned)pre.mask_step - 1) / (unsigned)pre.mask_step;
    if (!err)
        err = ls_cuda_twin_launch(t, K_MASK, (mw + T - 1) / T, mh, 1, T, 1, 1, 0, f, &pre);
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    /* scale k reads the previous scale's filtered picture every other sample, or (scale 0) the
     * working picture, every other sample with the speed-up; the mode filters run in scale
     * order, then the c-values of every scale in one launch */
    LsCambiCArgs cv = { .result = cs->result, .thr = s->thr, .pad = g->window >> 1,
                        .n_values = p->n_values };
    CUdeviceptr src = cs->img;
    unsigned src_w = g->w, w = g->w, h = g->h;
    int mask_step = 1, blocks = 0;
    for (int k = 0; k < LS_CAMBI_NUM_SCALES && !err; k++) {
        int step = 1;
        if (g->sw[k] != w || g->sh[k] != h) {
            step = 2;
            mask_step *= 2;
            w = g->sw[k];
            h = g->sh[k];
        }
        LsCambiScaleArgs sc = {
            .src = src, .mask0 = cs->mask, .filtered = cs->filtered[k], .mv = cs->mv[k],
            .thr = s->thr, .src_w = (int32_t)src_w, .step = step, .mask_w = (int32_t)g->w,
            .mask_step = mask_step, .w = (int32_t)w, .h = (int32_t)h,
        };
        err = ls_cuda_twin_launch(t, K_MODE, (w + T - 1) / T, h, 1, T, 1, 1, 0, f, &sc);
        if (!err && p->n_values <= 0) /* no value can have a c-value: all zero */
            err = CHECK_CU(cu, cuMemsetD8Async(cs->c[k], 0, (size_t)w * h * sizeof(float),
                                               f->stream));
        cv.mv[k] = cs->mv[k];
        cv.c[k] = cs->c[k];
        cv.w[k] = (int32_t)w;
        cv.h[k] = (int32_t)h;
        cv.gx[k] = (int32_t)((w + LS_CAMBI_COLS - 1) / LS_CAMBI_COLS);
        cv.block0[k] = blocks;
        blocks += cv.gx[k] * (int32_t)((h + LS_CAMBI_STRIP - 1) / LS_CAMBI_STRIP);
        src = cs->filtered[k];
        src_w = w;
    }
    cv.block0[LS_CAMBI_NUM_SCALES] = blocks;
    if (!err && p->n_values > 0)
        err = ls_cuda_twin_launch(t, K_C, (unsigned)blocks, 1, 1, LS_CAMBI_COLS, 1, 1,
                                  p->shared_bytes, f, &cv);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, cs->result, sizeof(LsCambiResult),
                                             f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    CambiCudaPriv *p = fex->priv;
    const LsCambiState *s = &p->state;
    const LsCambiGeometry *g = &s->dist;
    LsCambiResult r;
    memcpy(&r, result, sizeof(r));
    int err = s->bpc != 8 && s->bpc != 16 ? ls_cambi_check_top(r.top, s->bpc) : 0;
    if (err)
        return err;
    unsigned slot = 0;
    while (slot + 1 < LS_CUDA_SLOTS && p->twin.slot[slot].result != result)
        slot++;
    double scale_score[LS_CAMBI_NUM_SCALES];
    for (int k = 0; k < LS_CAMBI_NUM_SCALES; k++) {
        const unsigned n = g->sw[k] * g->sh[k];
        const LsCambiSums sums = { .total = r.total[k], .bits = r.bits[k],
                                   .nonzero = r.nonzero[k], .odd = r.odd[k] };
        if (ls_cambi_pool_shortcut(n, s->topk, &sums, &scale_score[k]))
            continue;
        /* the CPU's selection on this scale's c-values (the frame is done: the copy is
         * synchronous) */
        if ((err = CHECK_CU(p->twin.dev.cu, cuMemcpyDtoH(p->c, p->slot[slot].c[k],
                                                          (size_t)n * sizeof(float)))))
            return err;
        scale_score[k] = ls_cambi_pool(&p->dsp, p->c, n, s->topk, &sums);
    }
    const double d = ls_cambi_frame_score(scale_score, g->window);
    return ls_collector_append(fc, s->name_score, ls_cambi_cap(d, s->opt.cambi_max_val), index);
}

static void teardown(LsFex *fex)
{
    CambiCudaPriv *p = fex->priv;
    free(p->c);
    p->c = NULL;
    ls_cambi_state_close(&p->state);
}

static const LsCudaTwinDesc cambi_twin = {
    .name = "cambi",
    .fatbin = ls_cuda_fatbin_cambi,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = sizeof(LsCambiResult),
    .twin_offset = offsetof(CambiCudaPriv, twin),
    .stage_name = { "picture and mask", "scales" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .teardown = teardown,
};

static int cambi_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                           unsigned h)
{
    CambiCudaPriv *p = fex->priv;
    int err = ls_cambi_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    const LsCambiState *s = &p->state;
    if (p->opt.full_ref || p->opt.heatmaps_path) {
        ls_cambi_state_close(&p->state);
        return ls_fex_error(fex, "cambi: %s runs on the host",
                            p->opt.full_ref ? "full-reference mode" : "heatmaps_path"),
               -ENOTSUP;
    }
    fex->n_planes_read = 1;
    ls_cambi_dsp_init(&p->dsp, fex->cpu_flags);
    p->n_values = s->thr.hi >= s->thr.lo ? s->thr.hi - s->thr.lo + 1 + 2 * s->thr.n_diffs : 0;
    p->shared_bytes = (unsigned)p->n_values * LS_CAMBI_COLS * sizeof(uint16_t);
    p->c = malloc((size_t)s->dist.sw[0] * s->dist.sh[0] * sizeof(float));
    if (!p->c) {
        ls_cambi_state_close(&p->state);
        return -ENOMEM;
    }
    return ls_cuda_twin_open(&p->twin, fex, &cambi_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_cambi_cuda = {
    .name = "cambi_cuda",
    .options = ls_cambi_options,
    .priv_size = sizeof(CambiCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_cambi,
    .init = cambi_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(cambi_twin),
};
