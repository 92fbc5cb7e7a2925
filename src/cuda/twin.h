/* The host skeleton of every CUDA twin. A twin is its kernels plus an LsCudaTwinDesc: what to
 * allocate, what to launch for a frame, how to turn the bytes its kernels copy back into scores.
 * Everything else is here, once:
 *
 *   - one frame pipeline per context and device (LsCudaFrames): LS_CUDA_SLOTS frame slots, each
 *     with its own upload stream, pinned staging and device copy of the planes that the context's
 *     twins read (luma only unless a twin reads chroma). A frame is uploaded once, by the first
 *     twin that needs it; each twin's kernels for that frame go on the twin's own stream of the
 *     slot, after the upload, so the twins of a frame run beside each other and frames overlap
 *     (reading frame i, uploading i-1, kernels of i-2 and earlier). The slot's next upload waits
 *     for every twin's work on its previous frame, on the device: no host wait orders them;
 *   - per twin: the module and its kernels, per-slot streams, pinned results and a completion
 *     event, device buffers (freed by the skeleton), the in-order collection of scores, timing;
 *   - the extractor callbacks (extract, flush, close, use_host_memory) of every twin.
 *
 * A temporal twin (LS_FEX_TEMPORAL: state across frames on the device, e.g. motion's previous
 * blurred frame) gets every frame in order (the skeleton refuses a gap, as the CPU does) and
 * orders its device work with ls_cuda_twin_after_previous().
 *
 * By default every twin runs on the slot's upload stream, one twin after another;
 * LOCKSTEP_CUDA_SERIAL=0 gives each twin a stream of its own per slot, waiting on the device for
 * the slot's upload, the slot's next upload waiting for all of them: less device time, but more
 * host enqueue, and end to end no faster where the host's reading is the floor (twin.c says the
 * figures). Comparing the two tells a race between twins from a twin's own bug. LOCKSTEP_CUDA_REPLAY=N, once
 * every twin of the pipeline is flushed, runs the twins N more times on the frames still on the
 * device, then uploads N frames, then both, and prints the device time of each per frame (the
 * scores are already written: the replays' results are discarded). */
#ifndef LOCKSTEP_CUDA_TWIN_H
#define LOCKSTEP_CUDA_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "core/frame_pack.h"
#include "cuda/cuda_loader.h"

/* Frames in flight. On the H200, VMAF v1 at 4K 10-bit took 1.13-1.27 ms a frame with 5 against
 * 1.30-1.35 with 3 (bench/README.md, 2026-12-04 eleventh session): with 3 the scoring thread
 * waited on the oldest frame's results (speed_chroma's entropies, on the driver's host-function
 * thread, come 0.4-0.6 ms after its kernels) while the readers had frames ready. */
#define LS_CUDA_SLOTS 5
#define LS_CUDA_MAX_KERNELS 16
/* device buffers of one twin: float_vif, the largest, takes 15 a slot */
#define LS_CUDA_MAX_BUFFERS (16 * LS_CUDA_SLOTS + 16)

typedef struct LsCudaTwin LsCudaTwin;
typedef struct LsCudaFrames LsCudaFrames;

/* One frame on the device, as a twin's enqueue sees it. */
typedef struct LsCudaFrame {
    unsigned index;
    unsigned slot;                 /* 0 .. LS_CUDA_SLOTS-1: pick per-slot buffers with it */
    CUstream stream;               /* the slot's stream: launch everything of this frame on it */
    CUdeviceptr ref[3], dis[3];    /* planes, rows of row_bytes[p] bytes, no padding */
    const LsFrameLayout *layout;
} LsCudaFrame;

typedef struct LsCudaTwinDesc {
    const char *name;              /* the CPU extractor's name, for messages */
    const unsigned char *fatbin;
    const char *const *kernels;    /* names, looked up into LsCudaTwin.fn[] in this order */
    unsigned n_kernels;
    size_t result_bytes;           /* what one frame's kernels copy back to the host */
    size_t twin_offset;            /* offsetof(the twin's private state, its LsCudaTwin) */
    const char *stage_name[2];     /* timing: before and after ls_cuda_twin_mark */
    /* After the module is loaded, context current: allocate with ls_cuda_twin_alloc. */
    int (*setup)(LsFex *fex, LsCudaTwin *t);
    /* Launches frame f's work on f->stream, ending with the copy of result_bytes into `result`
     * (pinned host memory, read by collect once the frame is done). */
    int (*enqueue)(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result);
    /* Writes frame `index`'s scores from its results. Called in index order. */
    int (*collect)(LsFex *fex, const void *result, unsigned index, LsCollector *fc);
    /* Optional: at flush, after every frame has been collected (temporal scores, aggregates). */
    int (*finish)(LsFex *fex, LsCollector *fc);
    /* Optional: at close, after the device side is released (the CPU state's memory). */
    void (*teardown)(LsFex *fex);
} LsCudaTwinDesc;

typedef struct LsCudaTwinSlot {
    void *result;                  /* pinned, result_bytes */
    CUevent done;                  /* after the twin's last operation of the frame */
    CUevent mark[3];               /* timing: start, end of stage 1, end */
    int marked;                    /* stage 1's end was marked by the twin */
    int timed;                     /* mark[] is recorded for this frame (not for replays) */
    int pending;
    unsigned index;
} LsCudaTwinSlot;

struct LsCudaTwin {
    const LsCudaTwinDesc *desc;
    LsCudaFrames *frames;          /* the context's pipeline for this device */
    LsCudaDevice dev;
    int dev_open;
    CUmodule mod;
    CUfunction fn[LS_CUDA_MAX_KERNELS];
    LsCudaTwinSlot slot[LS_CUDA_SLOTS];
    CUstream stream[LS_CUDA_SLOTS]; /* the twin's work on each slot's frames */
    int own_streams;               /* stream[] created by the twin, not the slots' upload streams */
    LsFex *fex;                    /* for the replays (LOCKSTEP_CUDA_REPLAY) */
    int flushed;
    CUdeviceptr buffer[LS_CUDA_MAX_BUFFERS];
    unsigned n_buffers;
    CUevent previous;              /* temporal twins: the last frame's work */
    int have_previous;
    unsigned n_frames;             /* temporal twins: frames seen, to refuse a gap */
    int open;
    /* LOCKSTEP_CUDA_TIMING=1: device time per stage and host time, printed at close */
    int timing;
    unsigned timed_frames;
    double stage_ms[2], enqueue_ms, wait_ms, collect_ms;
};

/* Opens the twin on device fex->gpu_index: joins (or makes) the context's frame pipeline, loads
 * the kernels, allocates per-slot results and calls desc->setup. fmt, bpc, w, h: the input
 * (luma size); n_planes: how many planes the twin reads (1: luma only). On failure everything is released, the reason recorded with ls_fex_error
 * ("NAME (cuda): ...") and a negative errno returned. */
int ls_cuda_twin_open(LsCudaTwin *t, LsFex *fex, const LsCudaTwinDesc *desc,
                      enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                      unsigned n_planes);

/* Device memory freed with the twin (context current: call from setup). */
int ls_cuda_twin_alloc(LsCudaTwin *t, CUdeviceptr *ptr, size_t bytes);

/* Device memory freed with the twin, filled with `bytes` of src before the call returns (tables
 * the kernels read). Context current: call from setup. */
int ls_cuda_twin_upload(LsCudaTwin *t, CUdeviceptr *ptr, const void *src, size_t bytes);

/* Fills the module's __device__ variable `name` with `bytes` of src (at most its size) before the
 * call returns. Context current: call from setup. */
int ls_cuda_twin_set_global(LsCudaTwin *t, const char *name, const void *src, size_t bytes);

/* Launch with a single by-value parameter struct (the kernels' convention). */
int ls_cuda_twin_launch(LsCudaTwin *t, unsigned kernel, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
                        const LsCudaFrame *f, void *param);

/* Timing: the end of the twin's first stage of frame f (optional); no-op without timing. */
int ls_cuda_twin_mark(LsCudaTwin *t, const LsCudaFrame *f);

/* For temporal twins: makes frame f's stream wait for the work this twin queued for the previous
 * frame (on another slot's stream); call before the first launch that reads that state. */
int ls_cuda_twin_after_previous(LsCudaTwin *t, const LsCudaFrame *f);

/* The extractor callbacks of every twin. The extractor's .backend_desc is its LsCudaTwinDesc,
 * whose twin_offset locates the LsCudaTwin in the private state (which begins with the options,
 * as the CPU's option table requires). */
int ls_cuda_twin_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc);
int ls_cuda_twin_drain(LsFex *fex, LsCollector *fc);
int ls_cuda_twin_flush(LsFex *fex, LsCollector *fc);
void ls_cuda_twin_close(LsFex *fex);
int ls_cuda_twin_use_host_memory(LsFex *fex, void *ptr, size_t size);
/* The frame pipeline's sink for the readers (core/upload_sink.h), once it has started. */
struct LsUploadSink *ls_cuda_twin_upload_sink(LsFex *fex);

/* Fills the backend fields and callbacks of a twin's LsExtractor (init is the twin's own). */
#define LS_CUDA_TWIN_EXTRACTOR(desc)                                                               \
    .backend = LOCKSTEP_BACKEND_CUDA, .backend_desc = &(desc), .extract = ls_cuda_twin_extract,   \
    .drain = ls_cuda_twin_drain, .flush = ls_cuda_twin_flush, .close = ls_cuda_twin_close,        \
    .frames_held = LS_CUDA_SLOTS, .use_host_memory = ls_cuda_twin_use_host_memory,            \
    .upload_sink = ls_cuda_twin_upload_sink

#endif
