/* Integer motion on CUDA: the twin of ls_fex_motion. The device keeps the reference luma of the
 * last frames and returns each frame's integer SAD; the score, motion2/motion3 and the flush are
 * the CPU's own (ls_motion_write, ls_motion_flush). */
#include <stddef.h>
#include <string.h>

#include "cuda/extractors.h"
#include "cuda/motion_cuda.h"
#include "cuda/twin.h"
#include "feature/motion.h"

extern const unsigned char ls_cuda_fatbin_motion[];

enum { K_INT_SAD, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_int_motion_sad" };

#define HISTORY 3 /* frames of reference luma kept: min_idx + 1 <= 3 */

typedef struct MotionCudaPriv {
    LsMotionOptions opt; /* first: the CPU's option table points here */
    LsMotionState state;
    LsCudaTwin twin;
    unsigned bpc;
    size_t plane_bytes;
    CUdeviceptr luma[HISTORY];      /* reference luma of frame i at i % (min_idx + 1) */
    CUdeviceptr sad[LS_CUDA_SLOTS]; /* per slot: one uint64 */
} MotionCudaPriv;

static int setup(LsFex *fex, LsCudaTwin *t)
{
    MotionCudaPriv *p = fex->priv;
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++)
        err = ls_cuda_twin_alloc(t, &p->sad[i], sizeof(uint64_t));
    for (unsigned i = 0; i <= p->state.min_idx && !err && !p->opt.motion_force_zero; i++)
        err = ls_cuda_twin_alloc(t, &p->luma[i], p->plane_bytes);
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    MotionCudaPriv *p = fex->priv;
    LsMotionState *s = &p->state;
    const LsCudaApi *cu = t->dev.cu;
    const unsigned ring = s->min_idx + 1;
    if (p->opt.motion_force_zero) {
        memset(result, 0, sizeof(uint64_t));
        return 0;
    }
    /* the luma of frame index - min_idx, written by an earlier frame's work on another stream */
    int err = ls_cuda_twin_after_previous(t, f);
    if (!err && ls_motion_needs_sad(s, f->index)) {
        LsIntMotionSadArgs a = {
            .prev = p->luma[(f->index - s->min_idx) % ring],
            .cur = f->ref[0],
            .sad = p->sad[f->slot],
            .w = s->w,
            .h = s->h,
            .bpc = p->bpc,
        };
        err = CHECK_CU(cu, cuMemsetD8Async(a.sad, 0, sizeof(uint64_t), f->stream));
        if (!err)
            err = ls_cuda_twin_launch(t, K_INT_SAD, (s->w + LS_MOTION_TILE_W - 1) / LS_MOTION_TILE_W,
                                      (s->h + LS_MOTION_TILE_H - 1) / LS_MOTION_TILE_H, 1,
                                      LS_MOTION_THREADS, 1, 1, 0, f, &a);
        if (!err)
            err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, a.sad, sizeof(uint64_t), f->stream));
    } else if (!err) {
        memset(result, 0, sizeof(uint64_t));
    }
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoDAsync(p->luma[f->index % ring], f->ref[0], p->plane_bytes,
                                             f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    MotionCudaPriv *p = fex->priv;
    uint64_t sad;
    memcpy(&sad, result, sizeof(sad));
    return ls_motion_write(&p->state, index, sad, fc);
}

static int finish(LsFex *fex, LsCollector *fc)
{
    MotionCudaPriv *p = fex->priv;
    return ls_motion_flush(&p->state, fc);
}

static void teardown(LsFex *fex);

static const LsCudaTwinDesc motion_twin = {
    .name = "motion",
    .fatbin = ls_cuda_fatbin_motion,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = sizeof(uint64_t),
    .twin_offset = offsetof(MotionCudaPriv, twin),
    .stage_name = { "sad", "keep luma" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .finish = finish,
    .teardown = teardown,
};

static int motion_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                            unsigned h)
{
    MotionCudaPriv *p = fex->priv;
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "motion: bit depth %u is not supported (8..16)", bpc);
    int err = ls_motion_state_init(&p->state, &p->opt, fex, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    p->bpc = bpc;
    p->plane_bytes = (size_t)w * h * (bpc > 8 ? 2 : 1);
    return ls_cuda_twin_open(&p->twin, fex, &motion_twin, fmt, bpc, w, h, 1);
}

static void teardown(LsFex *fex)
{
    MotionCudaPriv *p = fex->priv;
    ls_motion_state_close(&p->state);
}

const LsExtractor ls_fex_motion_cuda = {
    .name = "motion_cuda",
    .options = ls_motion_options,
    .priv_size = sizeof(MotionCudaPriv),
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_motion,
    .init = motion_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(motion_twin),
};
