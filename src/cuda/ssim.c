/* ssim (integer) on CUDA: the twin of ls_fex_ssim. The device forms every position's term and
 * weight and adds the terms in the CPU's order (one chain); the weights are integers, summed in any
 * order. Both come back to the CPU's score writer. */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/ssim_cuda.h"
#include "cuda/twin.h"
#include "feature/ssim.h"

extern const unsigned char ls_cuda_fatbin_ssim[];

enum { K_TERMS, K_CHAIN, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_ssim_terms", "ls_chain_sum" };

typedef struct SsimCudaPriv {
    LsSsimOptions opt; /* first: the CPU's option table points here */
    LsSsimState state;
    LsCudaTwin twin;
    unsigned bpc;
    CUdeviceptr terms[LS_CUDA_SLOTS];
    CUdeviceptr sums[LS_CUDA_SLOTS]; /* the chain's double, then the weights' integer */
} SsimCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    SsimCudaPriv *p = fex->priv;
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        err = ls_cuda_twin_alloc(t, &p->terms[i],
                                 (size_t)p->state.w * p->state.h * sizeof(double));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->sums[i], 2 * sizeof(double));
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    SsimCudaPriv *p = fex->priv;
    const LsSsimState *s = &p->state;
    const unsigned k = f->slot, th = LS_SSIM_THREADS;
    int err = CHECK_CU(t->dev.cu, cuMemsetD8Async(p->sums[k], 0, 2 * sizeof(double), f->stream));
    LsSsimTermsArgs a = { .ref = f->ref[0], .dis = f->dis[0], .terms = p->terms[k],
                          .weights = p->sums[k] + sizeof(double), .sample_max = s->sample_max,
                          .w = s->w, .h = s->h, .bpc = p->bpc };
    if (!err)
        err = ls_cuda_twin_launch(t, K_TERMS, (s->w + th - 1) / th, s->h, 1, th, 1, 1, 0, f, &a);
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    const uint64_t n = (uint64_t)s->w * s->h;
    LsChainArgs c = { .terms = p->terms[k], .out = p->sums[k], .stride = n, .n = n };
    if (!err)
        err = ls_cuda_twin_launch(t, K_CHAIN, 1, 1, 1, 32, 1, 1, 0, f, &c);
    if (!err)
        err = CHECK_CU(t->dev.cu, cuMemcpyDtoHAsync(result, p->sums[k], 2 * sizeof(double),
                                                    f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    SsimCudaPriv *p = fex->priv;
    double ssim_sum;
    uint64_t weights;
    memcpy(&ssim_sum, result, sizeof(ssim_sum));
    memcpy(&weights, (const char *)result + sizeof(double), sizeof(weights));
    /* the CPU adds the weights in double: exact, they are integers far below 2^53 */
    return ls_ssim_write_score(&p->state, ssim_sum, (double)weights, index, fc);
}

static const LsCudaTwinDesc ssim_twin = {
    .name = "ssim",
    .fatbin = ls_cuda_fatbin_ssim,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 2 * sizeof(double),
    .twin_offset = offsetof(SsimCudaPriv, twin),
    .stage_name = { "terms", "chain" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int ssim_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                          unsigned h)
{
    SsimCudaPriv *p = fex->priv;
    int err = ls_ssim_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    p->bpc = bpc;
    return ls_cuda_twin_open(&p->twin, fex, &ssim_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_ssim_cuda = {
    .name = "ssim_cuda",
    .options = ls_ssim_options,
    .priv_size = sizeof(SsimCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_ssim,
    .init = ssim_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(ssim_twin),
};
