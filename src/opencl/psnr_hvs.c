/* Extractor `psnr_hvs` on OpenCL, for devices without binary64: block terms on the device
 * (psnr_hvs.cl), each plane's float sum replayed there in the CPU's order (ordered_sum.h), one
 * float per plane read back; the scores from the CPU extractor's host math (ls_psnr_hvs_*). */
#include <stddef.h>

#include "core/extractor.h"
#include "feature/psnr_hvs.h"
#include "opencl/extractors.h"
#include "opencl/ordered_sum.h"
#include "opencl/twin.h"

enum { K_TERMS, K_OS_TOTALS, K_OS_PREDICT, K_OS_SUMMARIES, K_OS_WALK, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_psnr_hvs_terms",
                                                   LS_CL_ORDERED_SUM_KERNELS };

typedef struct PsnrHvsOpenclPriv {
    LsPsnrHvsOptions opt; /* first: the CPU's option table's offsets point here */
    LsPsnrHvsState state;
    LsClTwin twin;
    LsClOrderedSum sum[LS_CL_SLOTS];
    cl_mem terms[LS_CL_SLOTS];
    size_t terms_offset[3], plane_terms[3], n_terms, n_chunks;
    unsigned blocks_x[3], n_blocks[3];
    size_t terms_wg; /* work-group of the terms kernel: 8x8 blocks per group */
} PsnrHvsOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    int ret = 0;
    /* 128 blocks per group as the CUDA twin, fewer where the kernel's private arrays need it */
    size_t max_wg = 0;
    if (t->dev->cl->clGetKernelWorkGroupInfo(t->kernel[K_TERMS], t->dev->device,
                                             CL_KERNEL_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg,
                                             NULL) != CL_SUCCESS)
        max_wg = 1;
    for (p->terms_wg = 128; p->terms_wg > max_wg && p->terms_wg > 1; p->terms_wg >>= 1)
        ;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->terms[i], p->n_terms * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_ordered_sum_init(&p->sum[i], t->dev, p->n_chunks, 3, t->err,
                                         sizeof(t->err));
        /* the scratch goes with the twin's buffers */
        const cl_mem mems[] = { p->sum[i].chunk_totals, p->sum[i].predicted, p->sum[i].summary,
                                p->sum[i].binades, p->sum[i].replayed };
        for (unsigned m = 0; m < 5 && ret >= 0; m++)
            ret = ls_cl_twin_adopt(t, mems[m]);
    }
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    const LsClOrderedSumKernels k = { t->kernel[K_OS_TOTALS], t->kernel[K_OS_PREDICT],
                                      t->kernel[K_OS_SUMMARIES], t->kernel[K_OS_WALK] };
    const cl_int bytes_per_sample = (cl_int)f->layout->bytes_per_sample;
    const cl_mem terms = p->terms[f->slot];
    int ret = 0;
    for (unsigned i = 0; i < p->state.n_planes && ret >= 0; i++) {
        const cl_uint pitch = (cl_uint)f->layout->row_bytes[i], blocks_x = p->blocks_x[i];
        const cl_uint n_blocks = p->n_blocks[i];
        const cl_int plane = (cl_int)i;
        const cl_ulong terms_offset = p->terms_offset[i];
        const size_t global = n_blocks;
        ret = LS_CL_LAUNCH(t, f, K_TERMS, 1, &global, &p->terms_wg, LS_CL_A(f->input),
                           LS_CL_A(f->ref[i]),
                           LS_CL_A(f->dis[i]), LS_CL_A(pitch), LS_CL_A(blocks_x),
                           LS_CL_A(n_blocks), LS_CL_A(bytes_per_sample), LS_CL_A(plane),
                           LS_CL_A(terms), LS_CL_A(terms_offset));
    }
    /* the planes' sums in one set of launches: their walks run side by side */
    if (ret >= 0)
        ret = ls_cl_ordered_sum_enqueue(&p->sum[f->slot], &k, t->dev, f->queue, terms,
                                        p->terms_offset, p->plane_terms, p->state.n_planes,
                                        f->result, 0, t->err, sizeof(t->err));
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    return ls_psnr_hvs_write_scores(&p->state, (const float *)result, index, fc);
}

static const LsClTwinDesc psnr_hvs_twin = {
    .name = "psnr_hvs",
    .source = &ls_cl_source_psnr_hvs,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = 0xfu << K_OS_TOTALS,
    .result_bytes = 3 * sizeof(cl_float),
    .twin_offset = offsetof(PsnrHvsOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int psnr_hvs_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                unsigned h)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    int ret = ls_psnr_hvs_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (ret < 0)
        return ret;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        p->blocks_x[i] = ls_psnr_hvs_blocks(p->state.w[i]);
        p->n_blocks[i] = p->blocks_x[i] * ls_psnr_hvs_blocks(p->state.h[i]);
        p->terms_offset[i] = p->n_terms;
        p->plane_terms[i] = (size_t)p->n_blocks[i] * 64;
        p->n_terms += p->plane_terms[i];
        p->n_chunks += (p->plane_terms[i] + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    }
    return ls_cl_twin_open(&p->twin, fex, &psnr_hvs_twin, fmt, bpc, w, h, p->state.n_planes);
}

const LsExtractor ls_fex_psnr_hvs_opencl = {
    .name = "psnr_hvs_opencl",
    .options = ls_psnr_hvs_options,
    .priv_size = sizeof(PsnrHvsOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_psnr_hvs,
    .init = psnr_hvs_opencl_init,
    LS_CL_TWIN_EXTRACTOR(psnr_hvs_twin),
};
