/* float_vif on OpenCL: the twin of ls_fex_float_vif (the counterpart of src/cuda/float_vif.c).
 * The device builds the pyramid, filters, forms every pixel's statistic (its binary64 steps on
 * core/soft_f64.h's emulation) and adds each scale's two float chains in the CPU's order; the
 * eight floats go to the CPU's writer. Left to the CPU (init says -ENOTSUP, the context logs it):
 * vif_prescale other than 1 (resampling with glibc's sin on the host) and vif_sigma_nsq below
 * 2^-1022, 0 included (s1 / sigma_nsq divides by zero or a subnormal, outside the emulation). */
#include <errno.h>
#include <float.h>
#include <stddef.h>
#include <string.h>

#include "feature/float_vif.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_VERTICAL, K_STAT, K_DECIMATE, K_ROWS, K_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_vif_vertical", "ls_float_vif_stat",
                                                   "ls_float_vif_decimate", "ls_row_chain_rows",
                                                   "ls_row_chain_total" };

#define ROW_CHAIN_TILE 64u /* row_chain.clh's LS_RC_TILE */

typedef struct FloatVifOpenclPriv {
    LsFloatVifOptions opt; /* first: the CPU's option table points here */
    LsFloatVifState state;
    int state_open;
    LsClTwin twin;
    cl_mem v[LS_CL_SLOTS];      /* 5 planes of the scale-0 size */
    cl_mem numden[LS_CL_SLOTS]; /* num and den planes */
    cl_mem level[LS_CL_SLOTS][LS_FLOAT_VIF_SCALES][2]; /* scales 1..3, ref and dist */
    cl_mem rows[LS_CL_SLOTS];   /* row sums: num, then den, scale-0 height each */
} FloatVifOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    FloatVifOpenclPriv *p = fex->priv;
    const LsFloatVifState *s = &p->state;
    const size_t n0 = (size_t)s->sw[0] * s->sh[0];
    int ret = 0;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->v[i], 5 * n0 * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->numden[i], 2 * n0 * sizeof(cl_float));
        for (unsigned l = 1; l < LS_FLOAT_VIF_SCALES && ret >= 0; l++)
            for (unsigned k = 0; k < 2 && ret >= 0; k++)
                ret = ls_cl_twin_alloc(t, &p->level[i][l][k],
                                       (size_t)s->sw[l] * s->sh[l] * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->rows[i], 2 * (size_t)s->sh[0] * sizeof(cl_float));
    }
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    FloatVifOpenclPriv *p = fex->priv;
    const LsFloatVifState *s = &p->state;
    const unsigned k = f->slot;
    const cl_ulong plane = (cl_ulong)s->sw[0] * s->sh[0];
    cl_ulong sigma_nsq;
    memcpy(&sigma_nsq, &s->stat.sigma_nsq, sizeof(sigma_nsq)); /* ls_f64's bits */
    const cl_float gain_limit = s->stat.gain_limit, sigma_max_inv = s->stat.sigma_max_inv;
    cl_mem src[2] = { f->input, f->input };
    cl_ulong off[2] = { f->ref[0], f->dis[0] };
    cl_uint bpc = s->bpc;
    const size_t local[3] = { 64, 1, 1 };
    int ret = 0;
    for (unsigned l = 0; l < LS_FLOAT_VIF_SCALES && ret >= 0; l++) {
        const cl_uint w = s->sw[l], h = s->sh[l], n_taps = (cl_uint)s->n_taps[l];
        if (l >= s->first_scale) {
            const cl_uint products = 1;
            const size_t global[2] = { w, h };
            ret = LS_CL_LAUNCH(t, f, K_VERTICAL, 2, global, local, LS_CL_A(src[0]),
                               LS_CL_A(off[0]), LS_CL_A(src[1]), LS_CL_A(off[1]), LS_CL_A(p->v[k]),
                               LS_CL_A(plane), LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc),
                               LS_CL_A(n_taps), LS_CL_A(products));
            if (ret >= 0)
                ret = LS_CL_LAUNCH(t, f, K_STAT, 2, global, local, LS_CL_A(p->v[k]),
                                   LS_CL_A(plane), LS_CL_A(p->numden[k]), LS_CL_A(w), LS_CL_A(h),
                                   LS_CL_A(n_taps), LS_CL_A(sigma_nsq), LS_CL_A(gain_limit),
                                   LS_CL_A(sigma_max_inv));
            const cl_ulong first = 0;
            const cl_uint c0 = 0, r0 = 0, stride_rows = s->sh[0], n_seq = 2, index = 2 * l;
            const size_t rc_local[2] = { ROW_CHAIN_TILE, 1 };
            const size_t rc_global[2] = { (h + ROW_CHAIN_TILE - 1) / ROW_CHAIN_TILE *
                                              ROW_CHAIN_TILE, 2 };
            if (ret >= 0)
                ret = LS_CL_LAUNCH(t, f, K_ROWS, 2, rc_global, rc_local, LS_CL_A(p->numden[k]),
                                   LS_CL_A(first), LS_CL_A(plane), LS_CL_A(w), LS_CL_A(c0), LS_CL_A(w),
                                   LS_CL_A(r0), LS_CL_A(h), LS_CL_A(p->rows[k]),
                                   LS_CL_A(stride_rows));
            const size_t two = 2;
            if (ret >= 0)
                ret = LS_CL_LAUNCH(t, f, K_TOTAL, 1, &two, &two, LS_CL_A(p->rows[k]),
                                   LS_CL_A(stride_rows), LS_CL_A(h), LS_CL_A(n_seq),
                                   LS_CL_A(f->result), LS_CL_A(index));
        }
        if (ret < 0 || l + 1 == LS_FLOAT_VIF_SCALES)
            continue;
        const cl_uint n_next = (cl_uint)s->n_taps[l + 1];
        const cl_mem dst[2] = { p->level[k][l + 1][0], p->level[k][l + 1][1] };
        const size_t global[3] = { w / 2, h / 2, 2 };
        if (w / 2 && h / 2)
            ret = LS_CL_LAUNCH(t, f, K_DECIMATE, 3, global, local, LS_CL_A(src[0]),
                               LS_CL_A(off[0]), LS_CL_A(src[1]), LS_CL_A(off[1]), LS_CL_A(dst[0]),
                               LS_CL_A(dst[1]), LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc),
                               LS_CL_A(n_next));
        src[0] = dst[0];
        src[1] = dst[1];
        off[0] = off[1] = 0;
        bpc = 0;
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatVifOpenclPriv *p = fex->priv;
    float sums[2 * LS_FLOAT_VIF_SCALES];
    memcpy(sums, result, sizeof(sums));
    return ls_float_vif_write_sums(&p->state, sums, index, fc);
}

static void teardown(LsFex *fex)
{
    FloatVifOpenclPriv *p = fex->priv;
    if (p->state_open)
        ls_float_vif_state_close(&p->state);
    p->state_open = 0;
}

static const LsClTwinDesc float_vif_twin = {
    .name = "float_vif",
    .source = &ls_cl_source_float_vif,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 2 * LS_FLOAT_VIF_SCALES * sizeof(cl_float),
    .twin_offset = offsetof(FloatVifOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .teardown = teardown,
};

static int float_vif_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                 unsigned h)
{
    FloatVifOpenclPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_float_vif_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    if (p->state.prescaled || !(p->opt.vif_sigma_nsq >= DBL_MIN)) {
        if (p->state.prescaled)
            ls_fex_error(fex, "float_vif: vif_prescale resamples on the host");
        else
            ls_fex_error(fex, "float_vif: vif_sigma_nsq %g is below the divisors of the binary64 "
                              "emulation (2^-1022)",
                         p->opt.vif_sigma_nsq);
        ls_float_vif_state_close(&p->state); /* the twin is not open: no teardown */
        return -ENOTSUP;
    }
    p->state_open = 1;
    if ((err = ls_cl_twin_open(&p->twin, fex, &float_vif_twin, fmt, bpc, w, h, 1)) < 0)
        teardown(fex); /* a twin that failed to open is not closed */
    return err;
}

const LsExtractor ls_fex_float_vif_opencl = {
    .name = "float_vif_opencl",
    .options = ls_float_vif_options,
    .priv_size = sizeof(FloatVifOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_vif,
    .init = float_vif_opencl_init,
    LS_CL_TWIN_EXTRACTOR(float_vif_twin),
};
