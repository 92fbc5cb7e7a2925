/* psnr on CUDA: the twin of ls_fex_psnr. The device returns each plane's integer SSE; the dB, MSE,
 * ceiling and APSNR math is the CPU extractor's own (ls_psnr_write_scores and friends). */
#include <errno.h>
#include <string.h>

#include "core/extractor.h"
#include "core/log.h"
#include "cuda/cuda_frames.h"
#include "cuda/cuda_loader.h"
#include "cuda/extractors.h"
#include "cuda/psnr_cuda.h"
#include "feature/psnr.h"

extern const unsigned char ls_cuda_fatbin_psnr[];

enum { K_SSE_8, K_SSE_16, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_psnr_sse_8", "ls_psnr_sse_16" };

typedef struct PsnrCudaPriv {
    LsPsnrOptions opt; /* first: the CPU's option table points here */
    LsPsnrState state;
    LsCudaPipe pipe;
    int pipe_open;
    CUfunction fn[K_COUNT];
    CUdeviceptr sse[LS_CUDA_SLOTS]; /* per slot: 3 x uint64 */
    unsigned grid_x;
} PsnrCudaPriv;

static void psnr_cuda_close(LsFex *fex)
{
    PsnrCudaPriv *p = fex->priv;
    if (!p->pipe_open)
        return;
    if (!ls_cuda_push(&p->pipe.dev)) {
        for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
            if (p->pipe.slot[i].stream)
                CHECK_CU(p->pipe.dev.cu, cuStreamSynchronize(p->pipe.slot[i].stream));
            if (p->sse[i])
                CHECK_CU(p->pipe.dev.cu, cuMemFree(p->sse[i]));
            p->sse[i] = 0;
        }
        ls_cuda_pop(&p->pipe.dev);
    }
    ls_cuda_pipe_close(&p->pipe);
    p->pipe_open = 0;
}

static int psnr_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                          unsigned h)
{
    PsnrCudaPriv *p = fex->priv;
    int err = ls_psnr_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (err)
        return err;
    LsCudaLayout layout;
    ls_cuda_layout_init(&layout, p->state.n_planes, bpc, p->state.w, p->state.h);
    const size_t words0 = layout.row_bytes[0] * layout.h[0] / 4;
    p->grid_x = (unsigned)((words0 + 8 * LS_PSNR_THREADS - 1) / (8 * LS_PSNR_THREADS));
    if (p->grid_x > 4096)
        p->grid_x = 4096;
    err = ls_cuda_pipe_open(&p->pipe, fex, "psnr", ls_cuda_fatbin_psnr, kernel_names, p->fn,
                            K_COUNT, &layout, 3 * sizeof(uint64_t));
    if (err)
        return err;
    p->pipe_open = 1;
    p->pipe.stage_name[1] = "sse";
    p->pipe.stage_name[2] = "-";
    if ((err = ls_cuda_push(&p->pipe.dev)))
        goto fail;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++)
        err = CHECK_CU(p->pipe.dev.cu, cuMemAlloc(&p->sse[i], 3 * sizeof(uint64_t)));
    const int pop_err = ls_cuda_pop(&p->pipe.dev);
    if (!err)
        err = pop_err;
    if (!err)
        return 0;
fail:
    ls_fex_error(fex, "psnr (cuda): %s", lockstep_last_error());
    psnr_cuda_close(fex);
    return err;
}

static int collect(void *twin, LsCudaSlot *s, LsCollector *fc)
{
    PsnrCudaPriv *p = twin;
    const int err = ls_cuda_pipe_wait(&p->pipe, s);
    if (err)
        return err;
    return ls_psnr_write_scores(&p->state, (const uint64_t *)s->result, s->index, fc);
}

static int enqueue(void *twin, LsCudaSlot *s, unsigned slot, const VmafPicture *ref,
                   const VmafPicture *dist)
{
    PsnrCudaPriv *p = twin;
    const CUdeviceptr sse = p->sse[slot];
    const LsCudaApi *cu = p->pipe.dev.cu;
    const LsCudaLayout *l = &p->pipe.layout;
    int err = ls_cuda_pipe_upload(&p->pipe, s, ref, dist);
    if (!err)
        err = CHECK_CU(cu, cuMemsetD8Async(sse, 0, 3 * sizeof(uint64_t), s->stream));
    if (err)
        return err;
    LsPsnrFrame f;
    memset(&f, 0, sizeof(f));
    const unsigned per_word = 4 / l->bytes_per_sample;
    for (unsigned q = 0; q < l->n_planes; q++) {
        const size_t samples = (size_t)l->w[q] * l->h[q];
        f.ref[q] = s->input + l->offset[0][q];
        f.dis[q] = s->input + l->offset[1][q];
        f.words[q] = (uint32_t)(samples / per_word);
        f.tail[q] = (uint32_t)(samples % per_word);
    }
    f.sse = sse;
    void *params[] = { &f };
    err = CHECK_CU(cu, cuLaunchKernel(p->fn[l->bytes_per_sample == 1 ? K_SSE_8 : K_SSE_16],
                                      p->grid_x, l->n_planes, 1, LS_PSNR_THREADS, 1, 1, 0,
                                      s->stream, params, NULL));
    if (!err)
        err = ls_cuda_pipe_mark(&p->pipe, s, 2);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(s->result, sse, 3 * sizeof(uint64_t), s->stream));
    if (!err)
        err = ls_cuda_pipe_mark(&p->pipe, s, 3);
    return err;
}

static int psnr_cuda_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                             unsigned index, LsCollector *fc)
{
    PsnrCudaPriv *p = fex->priv;
    return ls_cuda_pipe_extract(&p->pipe, p, enqueue, collect, ref, dist, index, fc);
}

static int psnr_cuda_flush(LsFex *fex, LsCollector *fc)
{
    PsnrCudaPriv *p = fex->priv;
    const int err = ls_cuda_pipe_flush(&p->pipe, p, collect, fc);
    return err ? err : ls_psnr_write_aggregates(&p->state, fc);
}

static const char *const psnr_provided[] = { "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb",
                                              "mse_cr", NULL };

static int psnr_cuda_use_host_memory(LsFex *fex, void *ptr, size_t size)
{
    PsnrCudaPriv *p = fex->priv;
    return p->pipe_open ? ls_cuda_pipe_pin(&p->pipe, ptr, size) : -EIO;
}

const LsExtractor ls_fex_psnr_cuda = {
    .name = "psnr_cuda",
    .options = ls_psnr_options,
    .priv_size = sizeof(PsnrCudaPriv),
    /* APSNR needs every frame in order, as on the CPU; a device stream needs one call at a time */
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .backend = LOCKSTEP_BACKEND_CUDA,
    .cpu_twin = &ls_fex_psnr,
    .provided_features = psnr_provided,
    .init = psnr_cuda_init,
    .extract = psnr_cuda_extract,
    .flush = psnr_cuda_flush,
    .close = psnr_cuda_close,
    .frames_held = LS_CUDA_SLOTS,
    .use_host_memory = psnr_cuda_use_host_memory,
};
