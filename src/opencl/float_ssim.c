/* float_ssim on OpenCL: the twin of ls_fex_float_ssim (the counterpart of src/cuda/float_ssim.c).
 * The device converts and decimates, runs the 11-tap passes and the per-position terms, and adds
 * the four chains in the CPU's order, every binary64 step on core/soft_f64.h's integer emulation;
 * the four doubles come back to the CPU's score writer. The chains are replayed in parallel, bit
 * for bit (opencl/ordered_sum_f64.h). */
#include <stddef.h>
#include <string.h>

#include "feature/ssim.h"
#include "opencl/extractors.h"
#include "opencl/ordered_sum_f64.h"
#include "opencl/twin.h"

enum { K_PREP, K_HORIZONTAL, K_TERMS, K_CHAIN, K_COUNT = K_CHAIN + LS_CL_OS64_N_KERNELS };
static const char *const kernel_names[K_COUNT] = { "ls_float_ssim_prep", "ls_float_ssim_horizontal",
                                                   "ls_float_ssim_terms", LS_CL_OS64_KERNELS };

typedef struct FloatSsimOpenclPriv {
    LsFloatSsimOptions opt; /* first: the CPU's option table points here */
    LsFloatSsimState state;
    LsClTwin twin;
    cl_mem pic[LS_CL_SLOTS][2], mom[LS_CL_SLOTS], terms[LS_CL_SLOTS];
    LsClOs64 chains;
} FloatSsimOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    FloatSsimOpenclPriv *p = fex->priv;
    const LsFloatSsimState *s = &p->state;
    const size_t w_out = s->dw - 10, h_out = s->dh - 10;
    int ret = 0;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        for (unsigned k = 0; k < 2 && ret >= 0; k++)
            ret = ls_cl_twin_alloc(t, &p->pic[i][k], (size_t)s->dw * s->dh * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->mom[i], 5 * (size_t)s->dh * w_out * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->terms[i], 4 * h_out * w_out * sizeof(cl_ulong));
    }
    return ret < 0 ? ret : ls_cl_os64_setup(t, &p->chains, K_CHAIN, h_out * w_out, 4);
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    FloatSsimOpenclPriv *p = fex->priv;
    const LsFloatSsimState *s = &p->state;
    const unsigned k = f->slot;
    const cl_uint w = s->w, h = s->h, bpc = s->bpc, fac = (cl_uint)s->f, dw = s->dw, dh = s->dh;
    const cl_uint w_out = s->dw - 10, h_out = s->dh - 10;
    const cl_float box_weight = s->box_weight;
    const size_t local[3] = { 64, 1, 1 };
    const size_t prep[3] = { dw, dh, 2 }, hor[2] = { w_out, dh }, terms[2] = { w_out, h_out };
    int ret = LS_CL_LAUNCH(t, f, K_PREP, 3, prep, local, LS_CL_A(f->input), LS_CL_A(f->ref[0]),
                           LS_CL_A(f->dis[0]), LS_CL_A(p->pic[k][0]), LS_CL_A(p->pic[k][1]),
                           LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc), LS_CL_A(fac), LS_CL_A(dw),
                           LS_CL_A(dh), LS_CL_A(box_weight));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K_HORIZONTAL, 2, hor, local, LS_CL_A(p->pic[k][0]),
                           LS_CL_A(p->pic[k][1]), LS_CL_A(p->mom[k]), LS_CL_A(dw), LS_CL_A(dh));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K_TERMS, 2, terms, local, LS_CL_A(p->mom[k]),
                           LS_CL_A(p->terms[k]), LS_CL_A(w_out), LS_CL_A(h_out), LS_CL_A(dh));
    if (ret >= 0)
        ret = ls_cl_os64_enqueue(t, f, &p->chains, p->terms[k], (cl_ulong)w_out * h_out,
                                 f->result);
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatSsimOpenclPriv *p = fex->priv;
    double acc[4];
    memcpy(acc, result, sizeof(acc));
    return ls_float_ssim_write_scores(&p->state, acc, index, fc);
}

static const LsClTwinDesc float_ssim_twin = {
    .name = "float_ssim",
    .source = &ls_cl_source_ssim,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = LS_CL_OS64_WG_KERNELS(K_CHAIN),
    .result_bytes = 4 * sizeof(cl_ulong),
    .twin_offset = offsetof(FloatSsimOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int float_ssim_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                  unsigned h)
{
    FloatSsimOpenclPriv *p = fex->priv;
    int err = ls_float_ssim_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cl_twin_open(&p->twin, fex, &float_ssim_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_float_ssim_opencl = {
    .name = "float_ssim_opencl",
    .options = ls_float_ssim_options,
    .priv_size = sizeof(FloatSsimOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_ssim,
    .init = float_ssim_opencl_init,
    LS_CL_TWIN_EXTRACTOR(float_ssim_twin),
};
