/* float_motion on OpenCL: the twin of ls_fex_float_motion (the counterpart of
 * src/cuda/float_motion.c). The device blurs each plane of the reference, keeps the previous
 * frame's blurred planes (and their half-size copies with motion_add_scale1) and returns each
 * plane's float SAD total, summed in the CPU's order; the score, its one-frame delay and the flush
 * are the CPU's own. No binary64 on the device: the rescale's coordinates go through
 * core/soft_f64.h. */
#include <stddef.h>
#include <string.h>

#include "feature/motion.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_BLUR, K_DOWNSCALE, K_SAD_ROWS, K_SAD_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_motion_blur",
                                                   "ls_float_motion_downscale",
                                                   "ls_float_motion_sad_rows",
                                                   "ls_float_motion_sad_total" };

#define TILE_W 128u /* motion.cl's tile */
#define TILE_H 8u

typedef struct FloatMotionOpenclPriv {
    LsFloatMotionOptions opt; /* first: the CPU's option table points here */
    LsFloatMotionState state;
    LsClTwin twin;
    cl_mem blur[2][3], half[2][3]; /* [index & 1][plane] */
    cl_mem rows[LS_CL_SLOTS];      /* per-row sums, the longest plane's rows */
} FloatMotionOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    FloatMotionOpenclPriv *p = fex->priv;
    const LsFloatMotionState *s = &p->state;
    int ret = 0;
    if (p->opt.motion_force_zero)
        return 0;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++)
        ret = ls_cl_twin_alloc(t, &p->rows[i], (size_t)s->h[0] * sizeof(cl_float));
    for (unsigned i = 0; i < 2 && ret >= 0; i++) {
        for (unsigned j = 0; j < s->n_planes && ret >= 0; j++) {
            ret = ls_cl_twin_alloc(t, &p->blur[i][j], (size_t)s->w[j] * s->h[j] * sizeof(cl_float));
            if (ret >= 0 && p->opt.motion_add_scale1)
                ret = ls_cl_twin_alloc(t, &p->half[i][j],
                                       (size_t)s->w1[j] * s->h1[j] * sizeof(cl_float));
        }
    }
    return ret;
}

/* The SAD total of planes a and b into f->result[index] (a float). */
static int sad(LsClTwin *t, const LsClFrame *f, cl_mem a, cl_mem b, cl_uint w, cl_uint h,
               cl_mem rows, cl_uint index)
{
    const size_t local = 64, global = h, one = 1;
    int ret = LS_CL_LAUNCH(t, f, K_SAD_ROWS, 1, &global, &local, LS_CL_A(a), LS_CL_A(b),
                           LS_CL_A(rows), LS_CL_A(w), LS_CL_A(h));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K_SAD_TOTAL, 1, &one, &one, LS_CL_A(rows), LS_CL_A(h),
                           LS_CL_A(f->result), LS_CL_A(index));
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    FloatMotionOpenclPriv *p = fex->priv;
    const LsFloatMotionState *s = &p->state;
    if (p->opt.motion_force_zero)
        return 0;
    const unsigned cur = f->index & 1, prev = cur ^ 1;
    /* the previous frame's blurred planes come from its work, on another queue */
    int ret = ls_cl_twin_after_previous(t, f);
    cl_float8 taps;
    memset(&taps, 0, sizeof(taps));
    memcpy(taps.s, s->taps, s->n_taps * sizeof(float));
    const cl_uint bpc = s->bpc, n_taps = s->n_taps;
    const cl_float divisor = ls_float_motion_divisor(s->bpc);
    for (unsigned j = 0; j < s->n_planes && ret >= 0; j++) {
        const cl_uint w = s->w[j], h = s->h[j];
        const size_t local[2] = { t->dev->wg, 1 };
        const size_t global[2] = { (w + TILE_W - 1) / TILE_W * local[0],
                                   (h + TILE_H - 1) / TILE_H };
        ret = LS_CL_LAUNCH(t, f, K_BLUR, 2, global, local, LS_CL_A(f->input), LS_CL_A(f->ref[j]),
                           LS_CL_A(p->blur[cur][j]), LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc),
                           LS_CL_A(n_taps), LS_CL_A(taps), LS_CL_A(divisor));
        if (ret >= 0 && f->index)
            ret = sad(t, f, p->blur[prev][j], p->blur[cur][j], w, h, p->rows[f->slot], j);
        if (ret < 0 || !p->opt.motion_add_scale1)
            continue;
        const cl_uint dw = s->w1[j], dh = s->h1[j];
        const cl_float rx = (float)s->w[j] / s->w1[j], ry = (float)s->h[j] / s->h1[j];
        const size_t dlocal[2] = { 64, 1 }, dglobal[2] = { dw, dh };
        ret = LS_CL_LAUNCH(t, f, K_DOWNSCALE, 2, dglobal, dlocal, LS_CL_A(p->blur[cur][j]),
                           LS_CL_A(p->half[cur][j]), LS_CL_A(w), LS_CL_A(h), LS_CL_A(dw),
                           LS_CL_A(dh), LS_CL_A(rx), LS_CL_A(ry));
        if (ret >= 0 && f->index)
            ret = sad(t, f, p->half[prev][j], p->half[cur][j], dw, dh, p->rows[f->slot], 3 + j);
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatMotionOpenclPriv *p = fex->priv;
    float totals[6];
    memcpy(totals, result, sizeof(totals));
    return ls_float_motion_write_totals(&p->state, totals, index, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    FloatMotionOpenclPriv *p = fex->priv;
    return ls_float_motion_flush(&p->state, fc);
}

static const LsClTwinDesc float_motion_twin = {
    .name = "float_motion",
    .source = &ls_cl_source_motion,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = 1u << K_BLUR,
    .result_bytes = 6 * sizeof(cl_float),
    .twin_offset = offsetof(FloatMotionOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
};

static int float_motion_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                    unsigned h)
{
    FloatMotionOpenclPriv *p = fex->priv;
    int err = ls_float_motion_state_init(&p->state, &p->opt, fex, fmt, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = p->state.n_planes;
    return ls_cl_twin_open(&p->twin, fex, &float_motion_twin, fmt, bpc, w, h, p->state.n_planes);
}

const LsExtractor ls_fex_float_motion_opencl = {
    .name = "float_motion_opencl",
    .options = ls_float_motion_options,
    .priv_size = sizeof(FloatMotionOpenclPriv),
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_motion,
    .init = float_motion_opencl_init,
    LS_CL_TWIN_EXTRACTOR(float_motion_twin),
};
