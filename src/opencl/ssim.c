/* ssim (integer) on OpenCL: the twin of ls_fex_ssim (the counterpart of src/cuda/ssim.c). The
 * device forms every position's term and weight and adds the terms in the CPU's order (one binary64
 * chain, emulated with integers: no device binary64); the weights are integers, summed in any
 * order. Both come back to the CPU's score writer. The chain is replayed in parallel, bit for bit
 * (opencl/ordered_sum_f64.h). */
#include <stddef.h>
#include <string.h>

#include "feature/ssim.h"
#include "opencl/extractors.h"
#include "opencl/ordered_sum_f64.h"
#include "opencl/twin.h"

enum { K_TERMS, K_REDUCE, K_CHAIN, K_COUNT = K_CHAIN + LS_CL_OS64_N_KERNELS };
static const char *const kernel_names[K_COUNT] = { "ls_ssim_terms", "ls_reduce_partials",
                                                   LS_CL_OS64_KERNELS };

typedef struct SsimOpenclPriv {
    LsSsimOptions opt; /* first: the CPU's option table points here */
    LsSsimState state;
    LsClTwin twin;
    unsigned bpc, n_groups;
    size_t group[2]; /* terms: 64 x (LS_WG / 64) positions per work-group (ls_group_sum's size) */
    cl_mem terms[LS_CL_SLOTS];
    cl_mem partial[LS_CL_SLOTS];
    LsClOs64 chain;
} SsimOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    SsimOpenclPriv *p = fex->priv;
    int ret = 0;
    p->group[0] = t->dev->wg < 64 ? t->dev->wg : 64;
    p->group[1] = t->dev->wg / p->group[0];
    p->n_groups = (unsigned)(((p->state.w + p->group[0] - 1) / p->group[0]) *
                             ((p->state.h + p->group[1] - 1) / p->group[1]));
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->terms[i], (size_t)p->state.w * p->state.h * sizeof(cl_ulong));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->partial[i], (size_t)p->n_groups * sizeof(cl_long));
    }
    return ret < 0 ? ret
                   : ls_cl_os64_setup(t, &p->chain, K_CHAIN, (cl_ulong)p->state.w * p->state.h, 1);
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    SsimOpenclPriv *p = fex->priv;
    const LsSsimState *s = &p->state;
    const cl_uint w = s->w, h = s->h, bpc = p->bpc;
    cl_ulong sample_max;
    memcpy(&sample_max, &s->sample_max, sizeof(sample_max)); /* ls_f64's bits */
    const size_t global[2] = { w, h };
    const cl_mem terms = p->terms[f->slot], partial = p->partial[f->slot];
    int ret = LS_CL_LAUNCH(t, f, K_TERMS, 2, global, p->group, LS_CL_A(f->input),
                           LS_CL_A(f->ref[0]),
                           LS_CL_A(f->dis[0]), LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc),
                           LS_CL_A(sample_max), LS_CL_A(terms), LS_CL_A(partial));
    if (ret >= 0)
        ret = ls_cl_os64_enqueue(t, f, &p->chain, terms, (cl_ulong)w * h, f->result);
    if (ret >= 0) {
        const cl_ulong first = 0;
        const cl_uint n_parts = p->n_groups, n_values = 1, out_index = 1;
        const size_t rlocal = t->dev->wg;
        ret = LS_CL_LAUNCH(t, f, K_REDUCE, 1, &rlocal, &rlocal, LS_CL_A(partial), LS_CL_A(first),
                           LS_CL_A(n_parts), LS_CL_A(n_values), LS_CL_A(f->result),
                           LS_CL_A(out_index));
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    SsimOpenclPriv *p = fex->priv;
    double ssim_sum;
    uint64_t weights;
    memcpy(&ssim_sum, result, sizeof(ssim_sum));
    memcpy(&weights, (const char *)result + sizeof(double), sizeof(weights));
    /* the CPU adds the weights in double: exact, they are integers far below 2^53 */
    return ls_ssim_write_score(&p->state, ssim_sum, (double)weights, index, fc);
}

static const LsClTwinDesc ssim_twin = {
    .name = "ssim",
    .source = &ls_cl_source_ssim,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = (1u << K_TERMS) | (1u << K_REDUCE) | LS_CL_OS64_WG_KERNELS(K_CHAIN),
    .result_bytes = 2 * sizeof(cl_ulong),
    .twin_offset = offsetof(SsimOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int ssim_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                            unsigned h)
{
    SsimOpenclPriv *p = fex->priv;
    int err = ls_ssim_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    p->bpc = bpc;
    return ls_cl_twin_open(&p->twin, fex, &ssim_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_ssim_opencl = {
    .name = "ssim_opencl",
    .options = ls_ssim_options,
    .priv_size = sizeof(SsimOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_ssim,
    .init = ssim_opencl_init,
    LS_CL_TWIN_EXTRACTOR(ssim_twin),
};
