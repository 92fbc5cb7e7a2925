/* Integer motion on OpenCL: the twin of ls_fex_motion. The device keeps the reference luma of the
 * last frames and returns each frame's integer SAD; the score, motion2/motion3 and the flush are
 * the CPU's own (ls_motion_write, ls_motion_flush). */
#include <stddef.h>
#include <string.h>

#include "feature/motion.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_INT_SAD, K_REDUCE, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_int_motion_sad", "ls_reduce_partials" };

#define TILE_W 128u /* motion.cl's tile */
#define TILE_H 8u
#define HISTORY 3   /* frames of reference luma kept: min_idx + 1 <= 3 */

typedef struct MotionOpenclPriv {
    LsMotionOptions opt; /* first: the CPU's option table points here */
    LsMotionState state;
    LsClTwin twin;
    unsigned bpc;
    size_t plane_bytes;
    cl_mem luma[HISTORY];           /* reference luma of frame i at i % (min_idx + 1) */
    cl_mem partial[LS_CL_SLOTS];    /* per work-group SAD */
    unsigned n_groups;
} MotionOpenclPriv;

static int setup(LsFex *fex, LsClTwin *t)
{
    MotionOpenclPriv *p = fex->priv;
    int ret = 0;
    p->n_groups = ((p->state.w + TILE_W - 1) / TILE_W) * ((p->state.h + TILE_H - 1) / TILE_H);
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++)
        ret = ls_cl_twin_alloc(t, &p->partial[i], (size_t)p->n_groups * sizeof(cl_long));
    for (unsigned i = 0; i <= p->state.min_idx && ret >= 0 && !p->opt.motion_force_zero; i++)
        ret = ls_cl_twin_alloc(t, &p->luma[i], p->plane_bytes);
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    MotionOpenclPriv *p = fex->priv;
    LsMotionState *s = &p->state;
    const unsigned ring = s->min_idx + 1;
    if (p->opt.motion_force_zero)
        return 0; /* the result stays zero */
    /* the luma of frame index - min_idx, written by an earlier frame's work on another queue */
    int ret = ls_cl_twin_after_previous(t, f);
    if (ret >= 0 && ls_motion_needs_sad(s, f->index)) {
        const cl_uint w = s->w, h = s->h, bpc = p->bpc;
        const size_t local[2] = { t->dev->wg, 1 };
        const size_t global[2] = { (w + TILE_W - 1) / TILE_W * local[0],
                                   (h + TILE_H - 1) / TILE_H };
        const cl_mem prev = p->luma[(f->index - s->min_idx) % ring];
        ret = LS_CL_LAUNCH(t, f, K_INT_SAD, 2, global, local, LS_CL_A(prev), LS_CL_A(f->input),
                           LS_CL_A(f->ref[0]), LS_CL_A(w), LS_CL_A(h), LS_CL_A(bpc),
                           LS_CL_A(p->partial[f->slot]));
        if (ret >= 0) {
            const cl_ulong first = 0;
            const cl_uint n_parts = p->n_groups, n_values = 1, out_index = 0;
            ret = LS_CL_LAUNCH(t, f, K_REDUCE, 1, local, local, LS_CL_A(p->partial[f->slot]),
                               LS_CL_A(first), LS_CL_A(n_parts), LS_CL_A(n_values),
                               LS_CL_A(f->result), LS_CL_A(out_index));
        }
    }
    if (ret >= 0)
        LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueCopyBuffer",
                  t->dev->cl->clEnqueueCopyBuffer(f->queue, f->input, p->luma[f->index % ring],
                                                  f->ref[0], 0, p->plane_bytes, 0, NULL, NULL));
fail:
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    MotionOpenclPriv *p = fex->priv;
    uint64_t sad;
    memcpy(&sad, result, sizeof(sad));
    return ls_motion_write(&p->state, index, sad, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    MotionOpenclPriv *p = fex->priv;
    return ls_motion_flush(&p->state, fc);
}

static void teardown(LsFex *fex)
{
    MotionOpenclPriv *p = fex->priv;
    ls_motion_state_close(&p->state);
}

static const LsClTwinDesc motion_twin = {
    .name = "motion",
    .source = &ls_cl_source_motion,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = (1u << K_COUNT) - 1,
    .result_bytes = sizeof(cl_ulong),
    .twin_offset = offsetof(MotionOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
    .teardown = teardown,
};

static int motion_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                              unsigned h)
{
    MotionOpenclPriv *p = fex->priv;
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "motion: bit depth %u is not supported (8..16)", bpc);
    int err = ls_motion_state_init(&p->state, &p->opt, fex, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    p->bpc = bpc;
    p->plane_bytes = (size_t)w * h * (bpc > 8 ? 2 : 1);
    return ls_cl_twin_open(&p->twin, fex, &motion_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_motion_opencl = {
    .name = "motion_opencl",
    .options = ls_motion_options,
    .priv_size = sizeof(MotionOpenclPriv),
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_motion,
    .init = motion_opencl_init,
    LS_CL_TWIN_EXTRACTOR(motion_twin),
};
