/* psnr_hvs on CUDA: the twin of ls_fex_psnr_hvs. The device computes every block's terms with the
 * CPU's arithmetic and replays each plane's float sum in the CPU's order (ordered_sum.cuh); one
 * float per plane comes back and goes through the CPU extractor's own score functions. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/extractor.h"
#include "core/log.h"
#include "cuda/twin.h"
#include "cuda/cuda_loader.h"
#include "cuda/extractors.h"
#include "cuda/ordered_sum.h"
#include "cuda/psnr_hvs_cuda.h"
#include "feature/psnr_hvs.h"

extern const unsigned char ls_cuda_fatbin_psnr_hvs[];

enum { K_TERMS_8, K_TERMS_16, K_TOTALS, K_SUMMARIES, K_WALK, K_COUNT };
static const char *const kernel_names[K_COUNT] = {
    "ls_hvs_terms_8", "ls_hvs_terms_16", "ls_os_chunk_totals", "ls_os_chunk_summaries",
    "ls_os_walk",
};

typedef struct HvsBuffers {
    CUdeviceptr terms, totals, summaries, out;
} HvsBuffers;

typedef struct PsnrHvsCudaPriv {
    LsPsnrHvsOptions opt; /* first: the CPU's option table points here */
    LsPsnrHvsState state;
    LsCudaTwin twin;
    HvsBuffers buf[LS_CUDA_SLOTS]; /* per slot */
    LsHvsFrame frame;     /* per-frame parameters but the device pointers */
    LsOsSequences seq;
    unsigned n_blocks, n_chunks;
} PsnrHvsCudaPriv;

/* Planes as sequences for the ordered sum: chunk and term offsets. */
static void sequences_init(LsOsSequences *seq, const int n_terms[3], unsigned n_planes)
{
    memset(seq, 0, sizeof(*seq));
    seq->n_seq = n_planes;
    for (unsigned p = 0; p < n_planes; p++) {
        const uint32_t n = (uint32_t)n_terms[p];
        seq->term_off[p + 1] = seq->term_off[p] + n;
        seq->chunk_off[p + 1] = seq->chunk_off[p] + (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    }
}

static int launch(const LsCudaApi *cu, CUfunction fn, unsigned grid, unsigned block, CUstream s,
                  void *param)
{
    void *params[] = { param };
    return CHECK_CU(cu, cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, s, params, NULL));
}

/* The three ordered-sum kernels over seq, results copied to host_out (n_seq floats). */
static int ordered_sum_launch(const LsCudaApi *cu, const CUfunction *fn, LsOsSequences *seq,
                              unsigned n_chunks, CUstream s, void *host_out)
{
    int err = launch(cu, fn[K_TOTALS], n_chunks, 256, s, seq);
    if (!err)
        err = launch(cu, fn[K_SUMMARIES], n_chunks, 256, s, seq);
    if (!err)
        err = launch(cu, fn[K_WALK], seq->n_seq, 32, s, seq);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(host_out, (CUdeviceptr)seq->out,
                                             seq->n_seq * sizeof(float), s));
    return err;
}

static int setup(LsFex *fex, LsCudaTwin *t)
{
    PsnrHvsCudaPriv *p = fex->priv;
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        HvsBuffers *b = &p->buf[i];
        if ((err = ls_cuda_twin_alloc(t, &b->terms, (size_t)p->n_blocks * 64 * sizeof(float))) ||
            (err = ls_cuda_twin_alloc(t, &b->totals, (size_t)p->n_chunks * sizeof(double))) ||
            (err = ls_cuda_twin_alloc(t, &b->summaries, (size_t)p->n_chunks * sizeof(LsOsSummary))))
            break;
        err = ls_cuda_twin_alloc(t, &b->out, 3 * sizeof(float));
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *fr, void *result)
{
    PsnrHvsCudaPriv *p = fex->priv;
    const HvsBuffers *b = &p->buf[fr->slot];
    const LsCudaApi *cu = t->dev.cu;
    LsHvsFrame f = p->frame;
    for (unsigned q = 0; q < p->state.n_planes; q++) {
        f.ref[q] = fr->ref[q];
        f.dis[q] = fr->dis[q];
    }
    f.terms = b->terms;
    const unsigned kernel = fr->layout->bytes_per_sample == 1 ? K_TERMS_8 : K_TERMS_16;
    int err = ls_cuda_twin_launch(t, kernel, (p->n_blocks + LS_HVS_THREADS - 1) / LS_HVS_THREADS,
                                  1, 1, LS_HVS_THREADS, 1, 1, 0, fr, &f);
    if (!err)
        err = ls_cuda_twin_mark(t, fr);
    LsOsSequences seq = p->seq;
    seq.terms = b->terms;
    seq.totals = b->totals;
    seq.summaries = b->summaries;
    seq.out = b->out;
    if (!err)
        err = ordered_sum_launch(cu, t->fn, &seq, p->n_chunks, fr->stream, result);
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    PsnrHvsCudaPriv *p = fex->priv;
    return ls_psnr_hvs_write_scores(&p->state, (const float *)result, index, fc);
}

static const LsCudaTwinDesc psnr_hvs_twin = {
    .name = "psnr_hvs",
    .fatbin = ls_cuda_fatbin_psnr_hvs,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 3 * sizeof(float),
    .twin_offset = offsetof(PsnrHvsCudaPriv, twin),
    .stage_name = { "terms", "ordered sum" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int psnr_hvs_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                              unsigned h)
{
    PsnrHvsCudaPriv *p = fex->priv;
    /* the CPU's checks and refusals, word for word */
    int err = ls_psnr_hvs_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (err)
        return err;
    const LsPsnrHvsState *st = &p->state;
    LsHvsFrame *f = &p->frame;
    memset(f, 0, sizeof(*f));
    f->n_planes = st->n_planes;
    for (unsigned q = 0; q < st->n_planes; q++) {
        const unsigned bx = ls_psnr_hvs_blocks(st->w[q]), by = ls_psnr_hvs_blocks(st->h[q]);
        f->blocks_x[q] = bx;
        f->block_off[q + 1] = f->block_off[q] + bx * by;
        f->stride[q] = st->w[q] * (bpc > 8 ? 2u : 1u); /* the pipeline's rows: unpadded */
    }
    p->n_blocks = f->block_off[st->n_planes];
    sequences_init(&p->seq, st->n_terms, st->n_planes);
    p->n_chunks = p->seq.chunk_off[st->n_planes];
    return ls_cuda_twin_open(&p->twin, fex, &psnr_hvs_twin, fmt, bpc, w, h, st->n_planes);
}

const LsExtractor ls_fex_psnr_hvs_cuda = {
    .name = "psnr_hvs_cuda",
    .options = ls_psnr_hvs_options,
    .priv_size = sizeof(PsnrHvsCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_psnr_hvs,
    .init = psnr_hvs_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(psnr_hvs_twin),
};

int ls_cuda_ordered_sum(int device, const float *terms, size_t n, float *out, char *err,
                        size_t err_len)
{
    LsCudaDevice dev;
    int ret = ls_cuda_device_open(&dev, device, err, err_len);
    if (ret)
        return ret;
    const LsCudaApi *cu = dev.cu;
    CUmodule mod = NULL;
    CUfunction fn[K_COUNT];
    CUstream s = NULL;
    CUdeviceptr d_terms = 0, d_totals = 0, d_summ = 0, d_out = 0;
    float *host_out = NULL;
    const int n_terms[3] = { (int)n, 0, 0 };
    LsOsSequences seq;
    sequences_init(&seq, n_terms, 1);
    const unsigned n_chunks = seq.chunk_off[1];
    if ((ret = ls_cuda_push(&dev)))
        goto out_close;
    if ((ret = ls_cuda_module_load(&dev, &mod, ls_cuda_fatbin_psnr_hvs, kernel_names, fn,
                                   K_COUNT)) ||
        (ret = CHECK_CU(cu, cuStreamCreate(&s, LS_CU_STREAM_NON_BLOCKING))) ||
        (ret = CHECK_CU(cu, cuMemAlloc(&d_terms, (n ? n : 1) * sizeof(float)))) ||
        (ret = CHECK_CU(cu, cuMemAlloc(&d_totals, (n_chunks + 1) * sizeof(double)))) ||
        (ret = CHECK_CU(cu, cuMemAlloc(&d_summ, (n_chunks + 1) * sizeof(LsOsSummary)))) ||
        (ret = CHECK_CU(cu, cuMemAlloc(&d_out, sizeof(float)))) ||
        (ret = CHECK_CU(cu, cuMemHostAlloc((void **)&host_out, sizeof(float), 0))))
        goto out;
    seq.terms = d_terms;
    seq.totals = d_totals;
    seq.summaries = d_summ;
    seq.out = d_out;
    if (n && (ret = CHECK_CU(cu, cuMemcpyHtoDAsync(d_terms, terms, n * sizeof(float), s))))
        goto out;
    *host_out = 0.0f;
    if (n_chunks && (ret = ordered_sum_launch(cu, fn, &seq, n_chunks, s, host_out)))
        goto out;
    if ((ret = CHECK_CU(cu, cuStreamSynchronize(s))))
        goto out;
    *out = *host_out;
out:
    if (ret)
        snprintf(err, err_len, "%s", lockstep_last_error());
    if (host_out)
        CHECK_CU(cu, cuMemFreeHost(host_out));
    CUdeviceptr bufs[] = { d_terms, d_totals, d_summ, d_out };
    for (unsigned i = 0; i < 4; i++)
        if (bufs[i])
            CHECK_CU(cu, cuMemFree(bufs[i]));
    if (s)
        CHECK_CU(cu, cuStreamDestroy(s));
    if (mod)
        CHECK_CU(cu, cuModuleUnload(mod));
    ls_cuda_pop(&dev);
out_close:
    ls_cuda_device_close(&dev);
    return ret;
}
