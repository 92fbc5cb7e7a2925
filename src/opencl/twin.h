/* The host skeleton of every OpenCL twin, the counterpart of src/cuda/twin.h. A twin is its
 * program plus an LsClTwinDesc: what to allocate, what to launch for a frame, how to turn the
 * bytes its kernels leave in the result buffer into scores. Everything else is here, once:
 *
 *   - one frame pipeline per context and device (LsClFrames): one OpenCL context, LS_CL_SLOTS
 *     frame slots, each with its own in-order command queue, a pinned staging buffer (allocated
 *     by the driver, CL_MEM_ALLOC_HOST_PTR, mapped once for the whole run) and a device copy of
 *     the planes that the context's twins read (core/frame_pack.h's packed layout). A frame is
 *     packed and uploaded once, by the first twin that needs it: a pack thread copies the
 *     pictures (held until the upload is done) into the staging buffer while the caller goes on,
 *     and the upload waits for it through a user event; every twin's kernels for that frame go
 *     on the slot's queue after the upload, so frames overlap (packing frame i, uploading i-1,
 *     kernels of i-2) and nothing blocks per frame;
 *   - per twin: the program and its kernels, a per-slot device result buffer (zeroed before the
 *     twin's kernels run) read back without blocking into pinned mapped host memory, the
 *     in-order collection of scores (the host waits only for the oldest frame when its slot is
 *     needed again, or at flush), device buffers freed with the twin;
 *   - the extractor callbacks (extract, flush, close) of every twin.
 *
 * A temporal twin (LS_FEX_TEMPORAL: state across frames on the device, e.g. motion's previous
 * luma) gets every frame in order (the skeleton refuses a gap, as the CPU does) and orders its
 * device work after the previous frame's with ls_cl_twin_after_previous(). */
#ifndef LOCKSTEP_OPENCL_TWIN_H
#define LOCKSTEP_OPENCL_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "core/frame_pack.h"
#include "opencl/opencl.h"

#define LS_CL_SLOTS 3
#define LS_CL_MAX_KERNELS 16
#define LS_CL_MAX_BUFFERS 64

typedef struct LsClTwin LsClTwin;
typedef struct LsClFrames LsClFrames;

/* One frame on the device, as a twin's enqueue sees it. */
typedef struct LsClFrame {
    unsigned index;
    unsigned slot;              /* 0 .. LS_CL_SLOTS-1: pick per-slot buffers with it */
    cl_command_queue queue;     /* the slot's queue: enqueue everything of this frame on it */
    cl_mem input;               /* the packed planes (layout) */
    cl_ulong ref[3], dis[3];    /* byte offsets of the planes in input, rows without padding */
    cl_mem result;              /* result_bytes, zeroed: what comes back to collect */
    const LsFrameLayout *layout;
} LsClFrame;

typedef struct LsClTwinDesc {
    const char *name;              /* the CPU extractor's name, for messages */
    const LsClSource *source;      /* the twin's program */
    const char *const *kernels;    /* names, looked up into LsClTwin.kernel[] in this order */
    unsigned n_kernels;
    uint32_t wg_kernels;           /* bit k: kernel k is written for work-groups of LS_WG */
    size_t result_bytes;           /* what one frame's kernels leave in f->result */
    /* Optional: the result size where it follows the input (called once, before setup) */
    size_t (*result_size)(LsFex *fex);
    size_t twin_offset;            /* offsetof(the twin's private state, its LsClTwin) */
    /* After the program is built: allocate with ls_cl_twin_alloc. */
    int (*setup)(LsFex *fex, LsClTwin *t);
    /* Enqueues frame f's work on f->queue; its results go to f->result. */
    int (*enqueue)(LsFex *fex, LsClTwin *t, const LsClFrame *f);
    /* Writes frame `index`'s scores from its results. Called in index order. */
    int (*collect)(LsFex *fex, const void *result, unsigned index, LsCollector *fc);
    /* Optional: at flush, after every frame has been collected. */
    int (*finish)(LsFex *fex, LsCollector *fc);
    /* Optional: at close, after the device side is released. */
    void (*teardown)(LsFex *fex);
} LsClTwinDesc;

typedef struct LsClTwinSlot {
    cl_mem result;                 /* device, result_bytes */
    cl_mem host;                   /* pinned host result buffer, mapped at `mapped` */
    void *mapped;
    cl_event done;                 /* the readback of the frame's results */
    int pending;
    unsigned index;
} LsClTwinSlot;

struct LsClTwin {
    const LsClTwinDesc *desc;
    LsClFrames *frames;            /* the context's pipeline for this device */
    LsClDevice *dev;               /* the pipeline's device (context, options) */
    cl_program prog;
    cl_kernel kernel[LS_CL_MAX_KERNELS];
    LsClTwinSlot slot[LS_CL_SLOTS];
    cl_mem buffer[LS_CL_MAX_BUFFERS];
    unsigned n_buffers;
    size_t result_bytes;
    cl_event previous;             /* temporal twins: the last frame's work */
    unsigned n_frames;             /* temporal twins: frames seen, to refuse a gap */
    int open;
    char err[16384];               /* the failed call of the last error */
    /* LOCKSTEP_OPENCL_TIMING=1: host time per frame, printed at close */
    int timing;
    unsigned timed_frames;
    double enqueue_ms, wait_ms;
};

/* Opens the twin on device fex->gpu_index: joins (or makes) the context's frame pipeline, builds
 * the program, allocates per-slot results and calls desc->setup. fmt, bpc, w, h: the input (luma
 * size); n_planes: how many planes the twin reads (1: luma only). On failure everything is
 * released, the reason recorded with ls_fex_error ("NAME (opencl): ...") and a negative errno
 * returned (-ENOTSUP when the device cannot build the program and a fallback is acceptable is the
 * twin's own decision, from setup). */
int ls_cl_twin_open(LsClTwin *t, LsFex *fex, const LsClTwinDesc *desc, enum VmafPixelFormat fmt,
                    unsigned bpc, unsigned w, unsigned h, unsigned n_planes);

/* Device memory freed with the twin. */
int ls_cl_twin_alloc(LsClTwin *t, cl_mem *mem, size_t bytes);
/* A buffer made elsewhere (e.g. ls_cl_ordered_sum_init's scratch) released with the twin; on
 * failure it is released at once. */
int ls_cl_twin_adopt(LsClTwin *t, cl_mem mem);
/* Device memory freed with the twin, filled with `bytes` of src before the call returns. */
int ls_cl_twin_upload(LsClTwin *t, cl_mem *mem, const void *src, size_t bytes);
/* Zeroes `bytes` of mem from `offset` on frame f's queue. */
int ls_cl_twin_zero(LsClTwin *t, const LsClFrame *f, cl_mem mem, size_t offset, size_t bytes);

/* One kernel argument by value (a cl_mem is passed as its handle). */
typedef struct LsClArg {
    size_t size;
    const void *value;
} LsClArg;
#define LS_CL_A(v) { sizeof(v), &(v) }

/* Launches kernel `kernel` on f's queue with the arguments in order: a `dims`-dimensional range of
 * global[] work-items (rounded up to whole groups; kernels check their bounds) in groups of
 * local[] (NULL: the driver's choice). */
int ls_cl_twin_launch(LsClTwin *t, const LsClFrame *f, unsigned kernel, unsigned dims,
                      const size_t *global, const size_t *local, const LsClArg *args,
                      unsigned n_args);
#define LS_CL_LAUNCH(t, f, kernel, dims, global, local, ...)                                      \
    ls_cl_twin_launch(t, f, kernel, dims, global, local, (const LsClArg[]){ __VA_ARGS__ },       \
                      (unsigned)(sizeof((const LsClArg[]){ __VA_ARGS__ }) / sizeof(LsClArg)))

/* For temporal twins: makes frame f's queue wait for the work this twin queued for the previous
 * frame (on another slot's queue); call before the first command that reads that state. */
int ls_cl_twin_after_previous(LsClTwin *t, const LsClFrame *f);

/* The extractor callbacks of every twin. The extractor's .backend_desc is its LsClTwinDesc, whose
 * twin_offset locates the LsClTwin in the private state (which begins with the options, as the
 * CPU's option table requires). */
int ls_cl_twin_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                       unsigned index, LsCollector *fc);
int ls_cl_twin_flush(LsFex *fex, LsCollector *fc);
void ls_cl_twin_close(LsFex *fex);

/* Fills the backend fields and callbacks of a twin's LsExtractor (init is the twin's own). */
#define LS_CL_TWIN_EXTRACTOR(desc)                                                                \
    .backend = LOCKSTEP_BACKEND_OPENCL, .backend_desc = &(desc), .extract = ls_cl_twin_extract,   \
    .flush = ls_cl_twin_flush, .close = ls_cl_twin_close, .frames_held = LS_CL_SLOTS

#endif
