/* float_ssim on CUDA: the twin of ls_fex_float_ssim. The device converts and decimates, runs the
 * 11-tap passes and the per-position terms, and adds the four chains in the CPU's order; the four
 * doubles come back to the CPU's score writer. */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/ssim_cuda.h"
#include "cuda/twin.h"
#include "feature/ssim.h"

extern const unsigned char ls_cuda_fatbin_ssim[];

enum { K_PREP, K_HORIZONTAL, K_TERMS, K_CHAIN, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_ssim_prep", "ls_float_ssim_horizontal",
                                                   "ls_float_ssim_terms", "ls_chain_sum" };

typedef struct FloatSsimCudaPriv {
    LsFloatSsimOptions opt; /* first: the CPU's option table points here */
    LsFloatSsimState state;
    LsCudaTwin twin;
    CUdeviceptr pic[LS_CUDA_SLOTS][2], mom[LS_CUDA_SLOTS], terms[LS_CUDA_SLOTS];
    CUdeviceptr sums[LS_CUDA_SLOTS]; /* 4 doubles */
} FloatSsimCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    FloatSsimCudaPriv *p = fex->priv;
    const LsFloatSsimState *s = &p->state;
    const size_t w_out = s->dw - 10, h_out = s->dh - 10;
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        for (unsigned k = 0; k < 2 && !err; k++)
            err = ls_cuda_twin_alloc(t, &p->pic[i][k], (size_t)s->dw * s->dh * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->mom[i], 5 * (size_t)s->dh * w_out * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->terms[i], 4 * h_out * w_out * sizeof(double));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->sums[i], 4 * sizeof(double));
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    FloatSsimCudaPriv *p = fex->priv;
    const LsFloatSsimState *s = &p->state;
    const unsigned k = f->slot, w_out = s->dw - 10, h_out = s->dh - 10;
    const unsigned th = LS_SSIM_THREADS;
    LsFloatSsimPrepArgs pa = { .src = { f->ref[0], f->dis[0] }, .dst = { p->pic[k][0], p->pic[k][1] },
                               .w = s->w, .h = s->h, .bpc = s->bpc, .f = (uint32_t)s->f,
                               .dw = s->dw, .dh = s->dh, .box_weight = s->box_weight };
    int err = ls_cuda_twin_launch(t, K_PREP, (s->dw + th - 1) / th, s->dh, 2, th, 1, 1, 0, f, &pa);
    LsFloatSsimHorizontalArgs ha = { .ref = p->pic[k][0], .dis = p->pic[k][1], .mom = p->mom[k],
                                     .dw = s->dw, .dh = s->dh };
    if (!err)
        err = ls_cuda_twin_launch(t, K_HORIZONTAL, (w_out + th - 1) / th, s->dh, 1, th, 1, 1, 0, f,
                                  &ha);
    LsFloatSsimTermsArgs ta = { .mom = p->mom[k], .terms = p->terms[k], .w_out = w_out,
                                .h_out = h_out, .dh = s->dh };
    if (!err)
        err = ls_cuda_twin_launch(t, K_TERMS, (w_out + th - 1) / th, h_out, 1, th, 1, 1, 0, f, &ta);
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    LsChainArgs ca = { .terms = p->terms[k], .out = p->sums[k],
                       .stride = (uint64_t)h_out * w_out, .n = (uint64_t)h_out * w_out };
    if (!err)
        err = ls_cuda_twin_launch(t, K_CHAIN, 4, 1, 1, 32, 1, 1, 0, f, &ca);
    if (!err)
        err = CHECK_CU(t->dev.cu, cuMemcpyDtoHAsync(result, p->sums[k], 4 * sizeof(double),
                                                    f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatSsimCudaPriv *p = fex->priv;
    double acc[4];
    memcpy(acc, result, sizeof(acc));
    return ls_float_ssim_write_scores(&p->state, acc, index, fc);
}

static const LsCudaTwinDesc float_ssim_twin = {
    .name = "float_ssim",
    .fatbin = ls_cuda_fatbin_ssim,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 4 * sizeof(double),
    .twin_offset = offsetof(FloatSsimCudaPriv, twin),
    .stage_name = { "filters and terms", "chains" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int float_ssim_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                unsigned h)
{
    FloatSsimCudaPriv *p = fex->priv;
    int err = ls_float_ssim_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cuda_twin_open(&p->twin, fex, &float_ssim_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_float_ssim_cuda = {
    .name = "float_ssim_cuda",
    .options = ls_float_ssim_options,
    .priv_size = sizeof(FloatSsimCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_ssim,
    .init = float_ssim_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(float_ssim_twin),
};
