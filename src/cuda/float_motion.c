/* float_motion on CUDA: the twin of ls_fex_float_motion. The device blurs each plane of the
 * reference, keeps the previous frame's blurred planes (and their half-size copies with
 * motion_add_scale1) and returns each plane's float SAD total, summed in the CPU's order; the
 * score, its one-frame delay and the flush are the CPU's own. */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/motion_cuda.h"
#include "cuda/twin.h"
#include "feature/motion.h"

extern const unsigned char ls_cuda_fatbin_motion[];

enum { K_BLUR, K_DOWNSCALE, K_SAD_ROWS, K_SAD_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_motion_blur",
                                                   "ls_float_motion_downscale",
                                                   "ls_float_motion_sad_rows",
                                                   "ls_float_motion_sad_total" };

typedef struct FloatMotionCudaPriv {
    LsFloatMotionOptions opt; /* first: the CPU's option table points here */
    LsFloatMotionState state;
    LsCudaTwin twin;
    CUdeviceptr blur[2][3], half[2][3]; /* [index & 1][plane] */
    CUdeviceptr rows[LS_CUDA_SLOTS];     /* per-row sums, the longest plane's rows */
    CUdeviceptr totals[LS_CUDA_SLOTS];   /* 6 floats: full-size SAD totals, then half-size */
} FloatMotionCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    FloatMotionCudaPriv *p = fex->priv;
    const LsFloatMotionState *s = &p->state;
    int err = 0;
    if (p->opt.motion_force_zero)
        return 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        if (!(err = ls_cuda_twin_alloc(t, &p->rows[i], (size_t)s->h[0] * sizeof(float))))
            err = ls_cuda_twin_alloc(t, &p->totals[i], 6 * sizeof(float));
    }
    for (unsigned i = 0; i < 2 && !err; i++) {
        for (unsigned j = 0; j < s->n_planes && !err; j++) {
            err = ls_cuda_twin_alloc(t, &p->blur[i][j], (size_t)s->w[j] * s->h[j] * sizeof(float));
            if (!err && p->opt.motion_add_scale1)
                err = ls_cuda_twin_alloc(t, &p->half[i][j],
                                         (size_t)s->w1[j] * s->h1[j] * sizeof(float));
        }
    }
    return err;
}

static int sad(LsCudaTwin *t, const LsCudaFrame *f, CUdeviceptr a, CUdeviceptr b, unsigned w,
               unsigned h, CUdeviceptr rows, CUdeviceptr total)
{
    LsFloatMotionSadArgs args = { .a = a, .b = b, .rows = rows, .total = total, .w = w, .h = h };
    const unsigned rows_per_block = 32 * LS_MOTION_SAD_WARPS;
    int err = ls_cuda_twin_launch(t, K_SAD_ROWS, (h + rows_per_block - 1) / rows_per_block, 1, 1,
                                  rows_per_block, 1, 1, 0, f, &args);
    if (!err)
        err = ls_cuda_twin_launch(t, K_SAD_TOTAL, 1, 1, 1, 1, 1, 1, 0, f, &args);
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    FloatMotionCudaPriv *p = fex->priv;
    const LsFloatMotionState *s = &p->state;
    const LsCudaApi *cu = t->dev.cu;
    memset(result, 0, 6 * sizeof(float));
    if (p->opt.motion_force_zero)
        return 0;
    const unsigned cur = f->index & 1, prev = cur ^ 1;
    const CUdeviceptr totals = p->totals[f->slot];
    /* the previous frame's blurred planes come from its work, on another stream */
    int err = ls_cuda_twin_after_previous(t, f);
    if (!err)
        err = CHECK_CU(cu, cuMemsetD8Async(totals, 0, 6 * sizeof(float), f->stream));
    for (unsigned j = 0; j < s->n_planes && !err; j++) {
        LsFloatMotionBlurArgs b = { .src = f->ref[j], .dst = p->blur[cur][j], .w = s->w[j],
                                    .h = s->h[j], .bpc = s->bpc, .n_taps = s->n_taps,
                                    .divisor = ls_float_motion_divisor(s->bpc) };
        memcpy(b.taps, s->taps, s->n_taps * sizeof(float));
        err = ls_cuda_twin_launch(t, K_BLUR, (s->w[j] + LS_MOTION_TILE_W - 1) / LS_MOTION_TILE_W,
                                  (s->h[j] + LS_MOTION_TILE_H - 1) / LS_MOTION_TILE_H, 1,
                                  LS_MOTION_THREADS, 1, 1, 0, f, &b);
        if (!err && f->index)
            err = sad(t, f, p->blur[prev][j], p->blur[cur][j], s->w[j], s->h[j], p->rows[f->slot],
                      totals + j * sizeof(float));
        if (err || !p->opt.motion_add_scale1)
            continue;
        LsFloatMotionDownscaleArgs d = { .src = p->blur[cur][j], .dst = p->half[cur][j],
                                         .sw = s->w[j], .sh = s->h[j], .dw = s->w1[j],
                                         .dh = s->h1[j], .rx = (float)s->w[j] / s->w1[j],
                                         .ry = (float)s->h[j] / s->h1[j] };
        err = ls_cuda_twin_launch(t, K_DOWNSCALE, (s->w1[j] + 127) / 128, s->h1[j], 1, 128, 1, 1,
                                  0, f, &d);
        if (!err && f->index)
            err = sad(t, f, p->half[prev][j], p->half[cur][j], s->w1[j], s->h1[j],
                      p->rows[f->slot], totals + (3 + j) * sizeof(float));
    }
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, totals, 6 * sizeof(float), f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatMotionCudaPriv *p = fex->priv;
    float totals[6];
    memcpy(totals, result, sizeof(totals));
    return ls_float_motion_write_totals(&p->state, totals, index, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    FloatMotionCudaPriv *p = fex->priv;
    return ls_float_motion_flush(&p->state, fc);
}

static const LsCudaTwinDesc float_motion_twin = {
    .name = "float_motion",
    .fatbin = ls_cuda_fatbin_motion,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 6 * sizeof(float),
    .twin_offset = offsetof(FloatMotionCudaPriv, twin),
    .stage_name = { "blur and sad", "readback" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
};

static int float_motion_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                  unsigned h)
{
    FloatMotionCudaPriv *p = fex->priv;
    int err = ls_float_motion_state_init(&p->state, &p->opt, fex, fmt, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = p->state.n_planes;
    return ls_cuda_twin_open(&p->twin, fex, &float_motion_twin, fmt, bpc, w, h,
                             p->state.n_planes);
}

const LsExtractor ls_fex_float_motion_cuda = {
    .name = "float_motion_cuda",
    .options = ls_float_motion_options,
    .priv_size = sizeof(FloatMotionCudaPriv),
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_motion,
    .init = float_motion_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(float_motion_twin),
};
