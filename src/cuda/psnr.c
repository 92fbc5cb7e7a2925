/* psnr on CUDA: the twin of ls_fex_psnr. The device returns each plane's integer SSE; the dB, MSE,
 * ceiling and APSNR math is the CPU extractor's own (ls_psnr_write_scores and friends). */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/psnr_cuda.h"
#include "cuda/twin.h"
#include "feature/psnr.h"

extern const unsigned char ls_cuda_fatbin_psnr[];

enum { K_SSE_8, K_SSE_16, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_psnr_sse_8", "ls_psnr_sse_16" };

typedef struct PsnrCudaPriv {
    LsPsnrOptions opt; /* first: the CPU's option table points here */
    LsPsnrState state;
    LsCudaTwin twin;
    CUdeviceptr sse[LS_CUDA_SLOTS]; /* per slot: 3 x uint64 */
    unsigned grid_x;
} PsnrCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    PsnrCudaPriv *p = fex->priv;
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++)
        err = ls_cuda_twin_alloc(t, &p->sse[i], 3 * sizeof(uint64_t));
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *fr, void *result)
{
    PsnrCudaPriv *p = fex->priv;
    const LsCudaApi *cu = t->dev.cu;
    const LsFrameLayout *l = fr->layout;
    const CUdeviceptr sse = p->sse[fr->slot];
    int err = CHECK_CU(cu, cuMemsetD8Async(sse, 0, 3 * sizeof(uint64_t), fr->stream));
    if (err)
        return err;
    LsPsnrFrame f;
    memset(&f, 0, sizeof(f));
    const unsigned per_word = 4 / l->bytes_per_sample;
    for (unsigned q = 0; q < p->state.n_planes; q++) {
        const size_t samples = (size_t)l->w[q] * l->h[q];
        f.ref[q] = fr->ref[q];
        f.dis[q] = fr->dis[q];
        f.words[q] = (uint32_t)(samples / per_word);
        f.tail[q] = (uint32_t)(samples % per_word);
    }
    f.sse = sse;
    err = ls_cuda_twin_launch(t, l->bytes_per_sample == 1 ? K_SSE_8 : K_SSE_16, p->grid_x,
                              p->state.n_planes, 1, LS_PSNR_THREADS, 1, 1, 0, fr, &f);
    if (!err)
        err = ls_cuda_twin_mark(t, fr);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, sse, 3 * sizeof(uint64_t), fr->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    PsnrCudaPriv *p = fex->priv;
    return ls_psnr_write_scores(&p->state, (const uint64_t *)result, index, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    PsnrCudaPriv *p = fex->priv;
    return ls_psnr_write_aggregates(&p->state, fc);
}

static const LsCudaTwinDesc psnr_twin = {
    .name = "psnr",
    .fatbin = ls_cuda_fatbin_psnr,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 3 * sizeof(uint64_t),
    .twin_offset = offsetof(PsnrCudaPriv, twin),
    .stage_name = { "sse", "readback" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
};

static int psnr_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                          unsigned h)
{
    PsnrCudaPriv *p = fex->priv;
    int err = ls_psnr_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (err)
        return err;
    const size_t words0 = (size_t)w * h * (bpc > 8 ? 2 : 1) / 4;
    p->grid_x = (unsigned)((words0 + 8 * LS_PSNR_THREADS - 1) / (8 * LS_PSNR_THREADS));
    if (p->grid_x > 4096)
        p->grid_x = 4096;
    if (!p->grid_x)
        p->grid_x = 1;
    return ls_cuda_twin_open(&p->twin, fex, &psnr_twin, fmt, bpc, w, h, p->state.n_planes);
}

const LsExtractor ls_fex_psnr_cuda = {
    .name = "psnr_cuda",
    .options = ls_psnr_options,
    .priv_size = sizeof(PsnrCudaPriv),
    /* APSNR needs every frame in order, as on the CPU; a device stream needs one call at a time */
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_psnr,
    .init = psnr_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(psnr_twin),
};
