/* Extractor `psnr` on OpenCL: per-row integer SSE on the device, summed on the host (exact, so the
 * order is free); the dB, MSE and APSNR math is the CPU extractor's (ls_psnr_*). */
#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "feature/psnr.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_ROW_SSE, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_psnr_row_sse" };

typedef struct PsnrOpenclPriv {
    LsPsnrOptions opt; /* first: the CPU's option table's offsets point here */
    LsPsnrState state;
    LsClTwin twin;
    unsigned row_base[3], n_rows;
} PsnrOpenclPriv;

static size_t result_size(LsFex *fex)
{
    const PsnrOpenclPriv *p = fex->priv;
    return (size_t)p->n_rows * sizeof(uint64_t);
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    PsnrOpenclPriv *p = fex->priv;
    const cl_uint wide = f->layout->bytes_per_sample == 2;
    int ret = 0;
    for (unsigned i = 0; i < p->state.n_planes && ret >= 0; i++) {
        const cl_uint w = p->state.w[i], row_base = p->row_base[i];
        const size_t local = t->dev->wg, global = (size_t)p->state.h[i] * t->dev->wg;
        if (!w)
            continue;
        ret = LS_CL_LAUNCH(t, f, K_ROW_SSE, 1, &global, &local, LS_CL_A(f->input),
                           LS_CL_A(f->ref[i]), LS_CL_A(f->dis[i]), LS_CL_A(w), LS_CL_A(wide),
                           LS_CL_A(f->result), LS_CL_A(row_base));
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    PsnrOpenclPriv *p = fex->priv;
    const uint64_t *rows = result;
    uint64_t sse[3] = { 0, 0, 0 };
    for (unsigned i = 0; i < p->state.n_planes; i++)
        for (unsigned y = 0; y < p->state.h[i]; y++)
            sse[i] += rows[p->row_base[i] + y];
    return ls_psnr_write_scores(&p->state, sse, index, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    const PsnrOpenclPriv *p = fex->priv;
    return ls_psnr_write_aggregates(&p->state, fc);
}

static const LsClTwinDesc psnr_twin = {
    .name = "psnr",
    .source = &ls_cl_source_psnr,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = 1u << K_ROW_SSE,
    .result_size = result_size,
    .twin_offset = offsetof(PsnrOpenclPriv, twin),
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
};

static int psnr_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                            unsigned h)
{
    PsnrOpenclPriv *p = fex->priv;
    int ret = ls_psnr_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (ret < 0)
        return ret;
    unsigned n_rows = 0;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        p->row_base[i] = n_rows;
        n_rows += p->state.h[i];
    }
    p->n_rows = n_rows;
    return ls_cl_twin_open(&p->twin, fex, &psnr_twin, fmt, bpc, w, h, p->state.n_planes);
}

const LsExtractor ls_fex_psnr_opencl = {
    .name = "psnr_opencl",
    .options = ls_psnr_options,
    .priv_size = sizeof(PsnrOpenclPriv),
    /* APSNR accumulates over every frame, in order, as on the CPU */
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_psnr,
    .init = psnr_opencl_init,
    LS_CL_TWIN_EXTRACTOR(psnr_twin),
};
