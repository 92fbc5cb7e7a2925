/* Getting frames to the device without per-frame allocation: a packed layout of the planes a twin
 * reads (reference planes, then distorted planes, rows without padding, each plane 256-byte
 * aligned), and a small pool of host threads that copies picture rows into the pinned staging
 * buffer (one thread's memcpy cannot keep up with the copy engine at 4K). */
#ifndef LOCKSTEP_CUDA_CUDA_FRAMES_H
#define LOCKSTEP_CUDA_CUDA_FRAMES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "cuda/cuda_loader.h"
#include "lockstep/picture.h"

typedef struct LsCudaLayout {
    unsigned n_planes;
    unsigned bytes_per_sample;
    unsigned w[3], h[3];
    size_t row_bytes[3];
    size_t offset[2][3]; /* [0] reference, [1] distorted: byte offset of each plane */
    size_t size;         /* bytes of one packed frame pair */
} LsCudaLayout;

void ls_cuda_layout_init(LsCudaLayout *l, unsigned n_planes, unsigned bpc, const unsigned w[3],
                         const unsigned h[3]);

#define LS_CUDA_PACK_MAX_THREADS 8
#define LS_CUDA_PACK_MAX_COPIES 6

typedef struct LsCudaPackCopy {
    unsigned char *dst;
    const unsigned char *src;
    ptrdiff_t src_stride;
    size_t row_bytes;
    unsigned rows;
} LsCudaPackCopy;

typedef struct LsCudaPacker {
    pthread_t thread[LS_CUDA_PACK_MAX_THREADS];
    unsigned n_threads;
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    int sync_ready;
    unsigned generation, pending;
    int stop;
    LsCudaPackCopy copy[LS_CUDA_PACK_MAX_COPIES];
    unsigned n_copies, total_rows;
} LsCudaPacker;

/* Starts the helper threads (none on small frames or machines). Returns 0 or -errno. */
int ls_cuda_packer_init(LsCudaPacker *pk, size_t frame_bytes);
void ls_cuda_packer_close(LsCudaPacker *pk);
/* Copies the planes of ref and dis into dst (the layout's packed form); returns when done. */
void ls_cuda_pack(LsCudaPacker *pk, const LsCudaLayout *l, unsigned char *dst,
                  const VmafPicture *ref, const VmafPicture *dis);

/* A twin's frame pipeline: LS_CUDA_SLOTS slots, each with its own stream, pinned staging, device
 * input and pinned results. extract(i) packs and uploads frame i and launches its kernels on one
 * slot, then collects frame i - (LS_CUDA_SLOTS - 1) (waits for its event, writes its scores): the
 * host copy of frame i overlaps the upload of frame i-1 and the kernels of frame i-2, each on its
 * own stream. Scores are written in index order. */
#define LS_CUDA_SLOTS 3
typedef struct LsCudaSlot {
    CUstream stream;
    CUevent done;
    CUevent mark[4];        /* timing: before upload, after upload, after stage 1, after stage 2 */
    unsigned char *host;    /* pinned packed input */
    void *result;           /* pinned results, result_bytes */
    CUdeviceptr input;      /* device copy of host */
    int pending;            /* launched, scores not written yet */
    unsigned index;
    VmafPicture held[2];    /* pinned pictures uploaded straight from, kept until the slot is done */
    int holding;
} LsCudaSlot;

/* Picture-pool blocks pinned with cuMemHostRegister (ls_cuda_pipe_pin). */
#define LS_CUDA_MAX_PINNED 128
typedef struct LsCudaPinned {
    unsigned char *ptr;
    size_t size;
    int counted;            /* holds one count of the process-wide registration */
} LsCudaPinned;

typedef struct LsCudaPipe {
    const char *name;       /* extractor name for messages */
    LsCudaDevice dev;
    int dev_open;
    CUmodule mod;
    LsCudaLayout layout;
    LsCudaPacker packer;
    int packer_up;
    LsCudaSlot slot[LS_CUDA_SLOTS];
    unsigned next;          /* the slot for the next frame */
    LsCudaPinned pinned[LS_CUDA_MAX_PINNED];
    unsigned n_pinned;
    unsigned direct_frames; /* frames uploaded without the staging copy */
    /* LOCKSTEP_CUDA_TIMING=1 in the environment: per-stage times, printed at close */
    int timing;
    unsigned frames;
    double pack_ms, enqueue_ms, wait_ms, stage_ms[3];
    double enqueue_start;
    const char *stage_name[3];
} LsCudaPipe;

/* Opens the device fex->gpu_index, loads the kernels, allocates both slots. Leaves no context
 * current. On failure everything is released, the error is recorded with ls_fex_error and a
 * negative errno returned. */
int ls_cuda_pipe_open(LsCudaPipe *pp, const LsFex *fex, const char *name,
                      const unsigned char *fatbin, const char *const *kernels, CUfunction *fns,
                      unsigned n_kernels, const LsCudaLayout *layout, size_t result_bytes);
/* Waits for outstanding work, frees everything, prints timing. Safe on a partly opened pipe. */
void ls_cuda_pipe_close(LsCudaPipe *pp);
/* Pins a block of host memory that pool pictures live in, so frames from it are uploaded by DMA
 * straight from the picture (no staging copy). Non-fatal: -EIO leaves the staging path. */
int ls_cuda_pipe_pin(LsCudaPipe *pp, void *ptr, size_t size);
/* The slot for the next frame (the caller has collected it if it was pending): queues the upload
 * of ref and dis, straight from pinned pictures whose rows are unpadded (the slot then holds a
 * reference to both until it is waited for), else through the slot's staging buffer. Context must
 * be current. */
int ls_cuda_pipe_upload(LsCudaPipe *pp, LsCudaSlot *s, const VmafPicture *ref,
                        const VmafPicture *dis);
/* Timing mark k (2 or 3) on the slot's stream; no-op unless timing. */
int ls_cuda_pipe_mark(LsCudaPipe *pp, LsCudaSlot *s, unsigned k);
/* After the twin's launches and result copy: records the slot's completion, marks it pending for
 * `index`, and moves on to the next slot. */
int ls_cuda_pipe_submit(LsCudaPipe *pp, LsCudaSlot *s, unsigned index);
/* The pending slot with the lowest frame index, or NULL. */
LsCudaSlot *ls_cuda_pipe_oldest(LsCudaPipe *pp);
/* Waits for a pending slot's work; afterwards s->result holds its results. */
int ls_cuda_pipe_wait(LsCudaPipe *pp, LsCudaSlot *s);

/* A twin's frame work: enqueue uploads frame ref/dist into slot number `slot` and launches its
 * kernels; collect waits for a slot and writes its scores. */
typedef int (*LsCudaEnqueueFn)(void *twin, LsCudaSlot *s, unsigned slot, const VmafPicture *ref,
                               const VmafPicture *dist);
typedef int (*LsCudaCollectFn)(void *twin, LsCudaSlot *s, LsCollector *fc);
/* The extract of every twin: collects the slot about to be reused, enqueues frame `index` on it,
 * then collects the oldest frame in flight, which ran while the later ones were copied; scores are
 * written in index order. Makes the device's context current around the calls. */
int ls_cuda_pipe_extract(LsCudaPipe *pp, void *twin, LsCudaEnqueueFn enqueue,
                         LsCudaCollectFn collect, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc);
/* End of stream: collects every frame still in flight, oldest first. */
int ls_cuda_pipe_flush(LsCudaPipe *pp, void *twin, LsCudaCollectFn collect, LsCollector *fc);

#endif
