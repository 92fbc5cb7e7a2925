/* float_vif on CUDA: the twin of ls_fex_float_vif. The device builds the pyramid, filters, forms
 * every pixel's statistic and adds each scale's two float chains in the CPU's order; the eight
 * floats go to the CPU's writer. vif_prescale other than 1 (resampling with glibc's sin on the
 * host) runs on the CPU: init says -ENOTSUP and the context logs it. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/float_cuda.h"
#include "cuda/twin.h"
#include "feature/float_vif.h"

extern const unsigned char ls_cuda_fatbin_float_vif[];

enum { K_VERTICAL, K_STAT, K_DECIMATE, K_ROWS, K_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_vif_vertical", "ls_float_vif_stat",
                                                   "ls_float_vif_decimate", "ls_row_chain_rows",
                                                   "ls_row_chain_total" };

typedef struct FloatVifCudaPriv {
    LsFloatVifOptions opt; /* first: the CPU's option table points here */
    LsFloatVifState state;
    int state_open;
    LsCudaTwin twin;
    CUdeviceptr v[LS_CUDA_SLOTS][5], num[LS_CUDA_SLOTS], den[LS_CUDA_SLOTS];
    CUdeviceptr level[LS_CUDA_SLOTS][LS_FLOAT_VIF_SCALES][2]; /* scales 1..3, ref and dist */
    CUdeviceptr rows[LS_CUDA_SLOTS], sums[LS_CUDA_SLOTS];       /* sums: num[4], den[4] */
} FloatVifCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    FloatVifCudaPriv *p = fex->priv;
    const LsFloatVifState *s = &p->state;
    const size_t n0 = (size_t)s->sw[0] * s->sh[0];
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        for (unsigned q = 0; q < 5 && !err; q++)
            err = ls_cuda_twin_alloc(t, &p->v[i][q], n0 * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->num[i], n0 * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->den[i], n0 * sizeof(float));
        for (unsigned l = 1; l < LS_FLOAT_VIF_SCALES && !err; l++)
            for (unsigned k = 0; k < 2 && !err; k++)
                err = ls_cuda_twin_alloc(t, &p->level[i][l][k],
                                         (size_t)s->sw[l] * s->sh[l] * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->rows[i], 2 * (size_t)s->sh[0] * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->sums[i], 2 * LS_FLOAT_VIF_SCALES * sizeof(float));
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    FloatVifCudaPriv *p = fex->priv;
    const LsFloatVifState *s = &p->state;
    const unsigned k = f->slot, th = LS_FLOAT_THREADS;
    int err = CHECK_CU(t->dev.cu, cuMemsetD8Async(p->sums[k], 0, 2 * LS_FLOAT_VIF_SCALES *
                                                  sizeof(float), f->stream));
    CUdeviceptr src[2] = { f->ref[0], f->dis[0] };
    unsigned bpc = s->bpc;
    for (unsigned l = 0; l < LS_FLOAT_VIF_SCALES && !err; l++) {
        const unsigned w = s->sw[l], h = s->sh[l], n_taps = (unsigned)s->n_taps[l];
        if (l >= s->first_scale) {
            LsFloatVifVerticalArgs va = { .src = { src[0], src[1] }, .w = w, .h = h, .bpc = bpc,
                                          .n_taps = n_taps, .products = 1 };
            LsFloatVifStatArgs sa = { .num = p->num[k], .den = p->den[k],
                                      .sigma_nsq = s->stat.sigma_nsq,
                                      .gain_limit = s->stat.gain_limit,
                                      .sigma_max_inv = s->stat.sigma_max_inv, .w = w, .h = h,
                                      .n_taps = n_taps };
            for (unsigned q = 0; q < 5; q++)
                va.v[q] = sa.v[q] = p->v[k][q];
            err = ls_cuda_twin_launch(t, K_VERTICAL, (w + th - 1) / th, h, 1, th, 1, 1, 0, f, &va);
            if (!err)
                err = ls_cuda_twin_launch(t, K_STAT, (w + th - 1) / th, h, 1, th, 1, 1, 0, f, &sa);
            LsRowChainArgs ra = { .plane = { p->num[k], p->den[k] }, .rows = p->rows[k],
                                  .out = p->sums[k] + 2 * l * sizeof(float), .stride = w,
                                  .stride_rows = s->sh[0], .c0 = 0, .c1 = w, .r0 = 0, .r1 = h,
                                  .n_seq = 2 };
            const unsigned rows_per_block = 32 * LS_ROW_CHAIN_WARPS;
            if (!err)
                err = ls_cuda_twin_launch(t, K_ROWS, (h + rows_per_block - 1) / rows_per_block, 2,
                                          1, rows_per_block, 1, 1, 0, f, &ra);
            if (!err)
                err = ls_cuda_twin_launch(t, K_TOTAL, 1, 1, 1, 32, 1, 1, 0, f, &ra);
        }
        if (err || l + 1 == LS_FLOAT_VIF_SCALES)
            continue;
        const unsigned n_next = (unsigned)s->n_taps[l + 1];
        LsFloatVifDecimateArgs da = { .src = { src[0], src[1] },
                                      .dst = { p->level[k][l + 1][0], p->level[k][l + 1][1] },
                                      .w = w, .h = h, .bpc = bpc, .n_taps = n_next };
        if (h / 2)
            err = ls_cuda_twin_launch(t, K_DECIMATE, (w / 2 + th - 1) / th, h / 2, 2, th, 1, 1, 0,
                                      f, &da);
        src[0] = da.dst[0];
        src[1] = da.dst[1];
        bpc = 0;
        if (!err && l == 0)
            err = ls_cuda_twin_mark(t, f);
    }
    if (!err)
        err = CHECK_CU(t->dev.cu, cuMemcpyDtoHAsync(result, p->sums[k],
                                                    2 * LS_FLOAT_VIF_SCALES * sizeof(float),
                                                    f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatVifCudaPriv *p = fex->priv;
    float sums[2 * LS_FLOAT_VIF_SCALES];
    memcpy(sums, result, sizeof(sums));
    return ls_float_vif_write_sums(&p->state, sums, index, fc);
}

static void teardown(LsFex *fex)
{
    FloatVifCudaPriv *p = fex->priv;
    if (p->state_open)
        ls_float_vif_state_close(&p->state);
    p->state_open = 0;
}

static const LsCudaTwinDesc float_vif_twin = {
    .name = "float_vif",
    .fatbin = ls_cuda_fatbin_float_vif,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = 2 * LS_FLOAT_VIF_SCALES * sizeof(float),
    .twin_offset = offsetof(FloatVifCudaPriv, twin),
    .stage_name = { "scale 0", "scales 1-3" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .teardown = teardown,
};

static int float_vif_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                               unsigned h)
{
    FloatVifCudaPriv *p = fex->priv;
    int err = ls_float_vif_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    p->state_open = 1;
    fex->n_planes_read = 1;
    if (p->state.prescaled)
        return ls_fex_error(fex, "float_vif: vif_prescale resamples on the host"), -ENOTSUP;
    return ls_cuda_twin_open(&p->twin, fex, &float_vif_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_float_vif_cuda = {
    .name = "float_vif_cuda",
    .options = ls_float_vif_options,
    .priv_size = sizeof(FloatVifCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_vif,
    .init = float_vif_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(float_vif_twin),
};
