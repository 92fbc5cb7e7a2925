/* The CUDA twins' host skeleton (twin.h): the context's frame pipeline and the per-twin glue. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/geometry.h"
#include "core/log.h"
#include "core/pack10.h"
#include "core/picture_ref.h"
#include "core/upload_sink.h"
#include "cuda/frames_cuda.h"
#include "cuda/twin.h"

extern const unsigned char ls_cuda_fatbin_frames[];

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int env_flag(const char *name)
{
    const char *t = getenv(name);
    return t && *t && strcmp(t, "0");
}

static int timing_enabled(void)
{
    return env_flag("LOCKSTEP_CUDA_TIMING");
}

/* LOCKSTEP_CUDA_REPLAY=N (twin.h): 0 when unset or not a count */
static unsigned replay_count(void)
{
    const char *t = getenv("LOCKSTEP_CUDA_REPLAY");
    if (!t || !*t)
        return 0;
    char *end;
    const unsigned long n = strtoul(t, &end, 10);
    return *end || n > 100000 ? 0 : (unsigned)n;
}

/* ---- pinned picture memory: one registration per block for the whole process ---- */

#define MAX_PINNED 128
#define MAX_TWINS 32
#define MAX_WRITERS 64
/* the readers' chunks: 1 MB, four per writer, measured best on the H200's host
 * (bench/device_bounce.sh: 0.89-0.93 ms per 4K pair against 1.06 for the picture's memory) */
#define WRITER_CHUNK_BYTES (1u << 20)
#define WRITER_CHUNKS 4
/* timing: the wall time per frame is taken from this frame on, when the readers' head start (the
 * pictures read while the context started) is used up */
#define STEADY_FROM 32

static struct {
    pthread_mutex_t lock;
    struct {
        void *ptr;
        unsigned refs;
    } block[MAX_PINNED];
    unsigned n;
} pins = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Context current. 0, or -EIO when the driver refuses (the staging copy is used then). */
static int pin(const LsCudaApi *cu, void *ptr, size_t size, const char *who)
{
    pthread_mutex_lock(&pins.lock);
    unsigned i = 0;
    while (i < pins.n && pins.block[i].ptr != ptr)
        i++;
    if (i == pins.n) {
        if (i == MAX_PINNED) {
            pthread_mutex_unlock(&pins.lock);
            return -EIO;
        }
        const CUresult r = cu->cuMemHostRegister(ptr, size, LS_CU_MEMHOSTREGISTER_PORTABLE);
        if (r) {
            ls_log(VMAF_LOG_LEVEL_DEBUG, "%s (cuda): cannot pin picture memory (error %d): frames "
                   "are staged through a copy", who, r);
            pthread_mutex_unlock(&pins.lock);
            return -EIO;
        }
        pins.block[i].ptr = ptr;
        pins.block[i].refs = 0;
        pins.n++;
    }
    pins.block[i].refs++;
    pthread_mutex_unlock(&pins.lock);
    return 0;
}

static void unpin(const LsCudaApi *cu, void *ptr)
{
    pthread_mutex_lock(&pins.lock);
    for (unsigned i = 0; i < pins.n; i++) {
        if (pins.block[i].ptr != ptr)
            continue;
        if (!--pins.block[i].refs) {
            CHECK_CU(cu, cuMemHostUnregister(ptr));
            pins.block[i] = pins.block[--pins.n];
        }
        break;
    }
    pthread_mutex_unlock(&pins.lock);
}

/* ---- the context's frame pipeline ---- */

typedef struct FrameSlot {
    CUstream stream;
    CUevent uploaded;          /* after the upload: the staging buffer may be refilled */
    CUevent mark[2];           /* timing: around the upload */
    unsigned char *host;       /* pinned staging */
    CUdeviceptr input;         /* packed planes on the device */
    CUdeviceptr packed10;      /* the 10-bit packed form as uploaded (layout.pack10) */
    int valid;
    unsigned index;
    VmafPicture held[2];       /* pictures uploaded straight from, kept until the upload is done */
    int holding;
    int timed;                 /* mark[] recorded for this frame */
} FrameSlot;

struct LsCudaFrames {
    LsCudaDevice dev;
    int dev_open;
    enum VmafPixelFormat fmt;
    unsigned bpc, n_planes_input;
    unsigned w[3], h[3];
    unsigned n_planes;         /* planes the twins read: luma only unless one reads chroma */
    int started;               /* layout fixed, buffers allocated */
    LsFrameLayout layout;
    LsFramePacker packer;
    int packer_up;
    CUmodule unpack_mod;       /* layout.pack10: ls_frames_unpack10 */
    CUfunction unpack;
    unsigned packed_frames;
    FrameSlot slot[LS_CUDA_SLOTS];
    unsigned next;
    LsHostBlock pinned[MAX_PINNED];
    unsigned n_pinned;
    int timing;
    unsigned frames, direct_frames;
    double pack_ms, upload_ms, idle_ms;
    double steady_t0, steady_t1; /* timing: frame STEADY_FROM's upload, every score written */
    int serial;                /* every twin on the upload streams (LOCKSTEP_CUDA_SERIAL=0: not) */
    unsigned replay;           /* LOCKSTEP_CUDA_REPLAY */
    unsigned last_index;       /* of the frames uploaded: the replays' indices follow it */
    LsCudaTwin *twin[MAX_TWINS]; /* the open twins, for the replays */
    unsigned n_twins;
    int twins_dropped;         /* more twins than twin[] holds: no replays */
    /* the readers' sink (core/upload_sink.h): pinned[i]'s bytes at mirror[i] on the device,
     * offered once sink_ready (after frames_start); writers made as readers ask, kept */
    LsUploadSink sink;
    CUdeviceptr mirror[MAX_PINNED];
    atomic_int sink_ready;
    pthread_mutex_t writers_lock;
    int writers_lock_up;
    struct LsUploadWriter *writer[MAX_WRITERS], *free_writer;
    unsigned n_writers;
    unsigned reader_frames;    /* frames whose pictures the readers sent */
};

typedef struct FramesArgs {
    const LsFex *fex;
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
} FramesArgs;

/* ---- the readers' sink: packed bands through a ring of pinned chunks to the mirrors ---- */

struct LsUploadWriter {
    LsCudaFrames *F;
    CUstream stream;
    unsigned char *chunk[WRITER_CHUNKS];
    CUevent copied[WRITER_CHUNKS];  /* after the chunk's last copy: it may be refilled */
    unsigned cur;
    size_t fill;                    /* bytes of chunk[cur] waiting */
    unsigned block;                 /* the pinned block they belong to */
    const unsigned char *host_next; /* the picture's address just after them */
    CUdeviceptr dev_at;             /* the mirror's address of the first of them */
    int failed;
    struct LsUploadWriter *next_free;
};

/* The mirrored block holding [p, p + n), or -1. */
static int mirrored_block(const LsCudaFrames *F, const unsigned char *p, size_t n)
{
    for (unsigned i = 0; i < F->n_pinned; i++) {
        const LsHostBlock *b = &F->pinned[i];
        if (F->mirror[i] && p >= b->ptr && n <= b->size && (size_t)(p - b->ptr) <= b->size - n)
            return (int)i;
    }
    return -1;
}

/* Context current. */
static void writer_destroy(const LsCudaApi *cu, struct LsUploadWriter *w)
{
    if (w->stream)
        CHECK_CU(cu, cuStreamSynchronize(w->stream));
    for (unsigned k = 0; k < WRITER_CHUNKS; k++) {
        if (w->copied[k])
            CHECK_CU(cu, cuEventDestroy(w->copied[k]));
        if (w->chunk[k])
            CHECK_CU(cu, cuMemFreeHost(w->chunk[k]));
    }
    if (w->stream)
        CHECK_CU(cu, cuStreamDestroy(w->stream));
    free(w);
}

/* Context current. NULL when the driver refuses (the reader writes the picture then). */
static struct LsUploadWriter *writer_create(LsCudaFrames *F)
{
    const LsCudaApi *cu = F->dev.cu;
    struct LsUploadWriter *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->F = F;
    int err = CHECK_CU(cu, cuStreamCreate(&w->stream, LS_CU_STREAM_NON_BLOCKING));
    for (unsigned k = 0; k < WRITER_CHUNKS && !err; k++) {
        if (!(err = CHECK_CU(cu, cuMemHostAlloc((void **)&w->chunk[k], WRITER_CHUNK_BYTES,
                                                LS_CU_MEMHOSTALLOC_PORTABLE))) &&
            !(err = CHECK_CU(cu, cuEventCreate(&w->copied[k], LS_CU_EVENT_DISABLE_TIMING))))
            err = CHECK_CU(cu, cuEventRecord(w->copied[k], w->stream));
    }
    if (err) {
        ls_log(VMAF_LOG_LEVEL_DEBUG, "cuda: a reader's upload buffers (error %d): it writes the "
               "pictures", err);
        writer_destroy(cu, w);
        return NULL;
    }
    return w;
}

/* Copies the waiting bytes to the mirror and moves on to the next chunk, once its last copy is
 * done. */
static int writer_flush(struct LsUploadWriter *w)
{
    if (!w->fill)
        return 0;
    const LsCudaApi *cu = w->F->dev.cu;
    int err = CHECK_CU(cu, cuMemcpyHtoDAsync(w->dev_at, w->chunk[w->cur], w->fill, w->stream));
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(w->copied[w->cur], w->stream));
    w->cur = (w->cur + 1) % WRITER_CHUNKS;
    if (!err)
        err = CHECK_CU(cu, cuEventSynchronize(w->copied[w->cur]));
    w->fill = 0;
    w->failed = w->failed || err;
    return err;
}

static LsUploadWriter *sink_begin(LsUploadSink *sink, const VmafPicture *pic)
{
    LsCudaFrames *F = (LsCudaFrames *)(void *)((char *)sink - offsetof(LsCudaFrames, sink));
    if (!atomic_load(&F->sink_ready) || !pic->data[0] ||
        mirrored_block(F, pic->data[0], 1) < 0)
        return NULL;
    if (ls_cuda_push(&F->dev))
        return NULL;
    pthread_mutex_lock(&F->writers_lock);
    struct LsUploadWriter *w = F->free_writer;
    if (w) {
        F->free_writer = w->next_free;
    } else if (F->n_writers < MAX_WRITERS && (w = writer_create(F))) {
        F->writer[F->n_writers++] = w;
    }
    pthread_mutex_unlock(&F->writers_lock);
    if (!w) {
        ls_cuda_pop(&F->dev);
        return NULL;
    }
    w->fill = 0;
    w->failed = 0;
    return w;
}

static void *sink_buffer(LsUploadWriter *w, void *dst, size_t n)
{
    const LsCudaFrames *F = w->F;
    const unsigned char *to = dst;
    if (w->failed)
        return NULL;
    if (n > LS_UPLOAD_MAX_BYTES || n > WRITER_CHUNK_BYTES) {
        ls_set_error("cuda: a reader's band of %zu bytes is larger than its upload buffer", n);
        w->failed = 1;
        return NULL;
    }
    /* the waiting bytes go on where they end, inside their block: else they are sent first */
    const LsHostBlock *b = &F->pinned[w->block];
    if (w->fill && (to != w->host_next || w->fill + n > WRITER_CHUNK_BYTES ||
                    (size_t)(to - b->ptr) > b->size - n) &&
        writer_flush(w))
        return NULL;
    if (!w->fill) {
        const int i = mirrored_block(F, to, n);
        if (i < 0) {
            ls_set_error("cuda: a reader's band lies outside the picture memory the device mirrors");
            w->failed = 1;
            return NULL;
        }
        w->block = (unsigned)i;
        w->dev_at = F->mirror[i] + (CUdeviceptr)(to - F->pinned[i].ptr);
    }
    void *at = w->chunk[w->cur] + w->fill;
    w->fill += n;
    w->host_next = to + n;
    return at;
}

static int sink_end(LsUploadWriter *w)
{
    LsCudaFrames *F = w->F;
    const int failed = w->failed;
    int err = failed ? 0 : writer_flush(w);
    const int sync = CHECK_CU(F->dev.cu, cuStreamSynchronize(w->stream));
    if (!err && !failed)
        err = sync;
    ls_cuda_pop(&F->dev);
    pthread_mutex_lock(&F->writers_lock);
    w->next_free = F->free_writer;
    F->free_writer = w;
    pthread_mutex_unlock(&F->writers_lock);
    /* a failure before was said by the band's call (lockstep_last_error still tells it) */
    return err ? err : failed ? -EIO : 0;
}

/* At frames_start: device copies of the pinned blocks, if the device has room to spare for them
 * (a quarter of its free memory at most) and LOCKSTEP_CUDA_READER_UPLOAD is not 0. Context
 * current. Without them the readers write the pictures, which the upload reads. */
static void frames_mirror(LsCudaFrames *F)
{
    const LsCudaApi *cu = F->dev.cu;
    const char *env = getenv("LOCKSTEP_CUDA_READER_UPLOAD");
    if ((env && !strcmp(env, "0")) || !F->layout.pack10 || !F->n_pinned)
        return;
    size_t free_bytes = 0, total = 0, need = 0;
    for (unsigned i = 0; i < F->n_pinned; i++)
        need += F->pinned[i].size;
    if (CHECK_CU(cu, cuMemGetInfo(&free_bytes, &total)) || need > free_bytes / 4) {
        ls_log(VMAF_LOG_LEVEL_DEBUG, "cuda: no room for the readers' device copies (%zu bytes)",
               need);
        return;
    }
    for (unsigned i = 0; i < F->n_pinned; i++) {
        if (cu->cuMemAlloc(&F->mirror[i], F->pinned[i].size)) {
            /* a block without a copy: its pictures are written and uploaded as before */
            F->mirror[i] = 0;
            ls_log(VMAF_LOG_LEVEL_DEBUG, "cuda: no device copy of a picture block");
        }
    }
    if (pthread_mutex_init(&F->writers_lock, NULL))
        return;
    F->writers_lock_up = 1;
    F->sink = (LsUploadSink){ .begin = sink_begin, .buffer = sink_buffer, .end = sink_end };
    atomic_store(&F->sink_ready, 1);
}

/* The device address of the picture bytes at p (in a mirrored block): ls_picture_uploaded. */
static CUdeviceptr mirror_of(const LsCudaFrames *F, const void *p, size_t n)
{
    const int i = mirrored_block(F, p, n);
    return i < 0 ? 0 : F->mirror[i] + (CUdeviceptr)((const unsigned char *)p - F->pinned[i].ptr);
}

static void frames_release_slot(FrameSlot *s)
{
    if (!s->holding)
        return;
    vmaf_picture_unref(&s->held[0]);
    vmaf_picture_unref(&s->held[1]);
    s->holding = 0;
}

/* Waits for slot s's upload, accounts its time. Context current. */
static int frames_slot_idle(LsCudaFrames *F, FrameSlot *s)
{
    const LsCudaApi *cu = F->dev.cu;
    if (!s->valid)
        return 0;
    const double t0 = F->timing ? now_ms() : 0.0;
    int err = CHECK_CU(cu, cuEventSynchronize(s->uploaded));
    if (F->timing)
        F->idle_ms += now_ms() - t0;
    frames_release_slot(s);
    if (!err && s->timed) {
        float ms = 0.0f;
        err = CHECK_CU(cu, cuEventElapsedTime(&ms, s->mark[0], s->mark[1]));
        F->upload_ms += ms;
        s->timed = 0;
    }
    return err;
}

static void frames_destroy(void *obj)
{
    LsCudaFrames *F = obj;
    if (F->packer_up)
        ls_frame_packer_close(&F->packer);
    if (F->dev_open && !ls_cuda_push(&F->dev)) {
        const LsCudaApi *cu = F->dev.cu;
        for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
            FrameSlot *s = &F->slot[i];
            if (s->stream)
                CHECK_CU(cu, cuStreamSynchronize(s->stream));
            frames_slot_idle(F, s);
            frames_release_slot(s);
            if (s->input)
                CHECK_CU(cu, cuMemFree(s->input));
            if (s->packed10)
                CHECK_CU(cu, cuMemFree(s->packed10));
            if (s->host)
                CHECK_CU(cu, cuMemFreeHost(s->host));
            for (unsigned k = 0; k < 2; k++)
                if (s->mark[k])
                    CHECK_CU(cu, cuEventDestroy(s->mark[k]));
            if (s->uploaded)
                CHECK_CU(cu, cuEventDestroy(s->uploaded));
            if (s->stream)
                CHECK_CU(cu, cuStreamDestroy(s->stream));
        }
        for (unsigned i = 0; i < F->n_writers; i++)
            writer_destroy(cu, F->writer[i]);
        for (unsigned i = 0; i < F->n_pinned; i++) {
            if (F->mirror[i])
                CHECK_CU(cu, cuMemFree(F->mirror[i]));
            unpin(cu, (void *)F->pinned[i].ptr);
        }
        if (F->unpack_mod)
            CHECK_CU(cu, cuModuleUnload(F->unpack_mod));
        ls_cuda_pop(&F->dev);
    }
    if (F->timing && F->frames) {
        char steady[128] = "";
        if (F->frames >= 2 * STEADY_FROM && F->steady_t1 > F->steady_t0)
            snprintf(steady, sizeof(steady), "; end to end (wall, frame %u's upload to the last "
                     "scores) %.3f ms", STEADY_FROM,
                     (F->steady_t1 - F->steady_t0) / (F->frames - STEADY_FROM));
        fprintf(stderr,
                "lockstep cuda timing frames: %u frames (%u uploaded straight from pinned "
                "pictures, %u packed to 10 bits: %.1f MB, %u sent by the readers), %u plane(s) "
                "each, %.1f MB: per frame host pack %.3f ms, host wait for a free slot %.3f ms, "
                "device upload %.3f ms%s\n",
                F->frames, F->direct_frames, F->packed_frames, (double)F->layout.packed_size / 1e6,
                F->reader_frames,
                F->layout.n_planes, (double)F->layout.size / 1e6,
                F->pack_ms / F->frames, F->idle_ms / F->frames, F->upload_ms / F->frames, steady);
    }
    if (F->writers_lock_up)
        pthread_mutex_destroy(&F->writers_lock);
    if (F->dev_open)
        ls_cuda_device_close(&F->dev);
    free(F);
}

static void *frames_create(void *arg, int *err)
{
    const FramesArgs *a = arg;
    LsCudaFrames *F = calloc(1, sizeof(*F));
    if (!F)
        return NULL;
    char why[256];
    if ((*err = ls_cuda_device_open(&F->dev, a->fex->gpu_index, why, sizeof(why)))) {
        ls_fex_error(a->fex, "%s", why);
        free(F);
        return NULL;
    }
    F->dev_open = 1;
    F->fmt = a->fmt;
    F->bpc = a->bpc;
    F->timing = timing_enabled();
    /* serial unless LOCKSTEP_CUDA_SERIAL=0: on the H200 the twins on streams of their own take
     * less device time (4K v1: 0.76 against 0.89 ms) but the run's end to end is the host's
     * reading either way, and their enqueue costs the host 0.38 ms a frame against 0.12: end to
     * end they were 1.5-3 % slower (bench/README.md, 2026-12-02 third session) */
    const char *serial = getenv("LOCKSTEP_CUDA_SERIAL");
    F->serial = !(serial && !strcmp(serial, "0"));
    F->replay = replay_count();
    F->n_planes_input = ls_plane_sizes(a->fmt, a->w, a->h, F->w, F->h);
    const LsCudaApi *cu = F->dev.cu;
    if ((*err = ls_cuda_push(&F->dev)))
        goto fail;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !*err; i++) {
        FrameSlot *s = &F->slot[i];
        if ((*err = CHECK_CU(cu, cuStreamCreate(&s->stream, LS_CU_STREAM_NON_BLOCKING))) ||
            (*err = CHECK_CU(cu, cuEventCreate(&s->uploaded, LS_CU_EVENT_DISABLE_TIMING))))
            break;
        for (unsigned k = 0; k < 2 && F->timing && !*err; k++)
            *err = CHECK_CU(cu, cuEventCreate(&s->mark[k], 0));
    }
    ls_cuda_pop(&F->dev);
    if (!*err)
        return F;
fail:
    ls_fex_error(a->fex, "%s", lockstep_last_error());
    frames_destroy(F);
    return NULL;
}

/* Fixes the layout at the first frame: every twin of the context has joined by then. */
static int frames_start(LsCudaFrames *F)
{
    const LsCudaApi *cu = F->dev.cu;
    ls_frame_layout_init(&F->layout, F->n_planes, F->bpc, F->w, F->h);
    /* 10-bit frames cross to the device packed unless LOCKSTEP_CUDA_PACK10=0: the copy engine
     * bounds a 10-bit run (bench/README.md) and the packed form is 5/8 of the bytes */
    if (ls_pack10_wanted() && ls_frame_layout_pack10(&F->layout)) {
        static const char *const names[] = { "ls_frames_unpack10" };
        int e = ls_cuda_module_load(&F->dev, &F->unpack_mod, ls_cuda_fatbin_frames, names,
                                    &F->unpack, 1);
        if (e)
            return e;
    }
    /* a frame too large for the device is refused with its sizes, before any allocation (the
     * twins' own buffers, allocated at setup, are already taken from the free memory) */
    size_t free_bytes = 0, total = 0;
    int err = CHECK_CU(cu, cuMemGetInfo(&free_bytes, &total));
    if (err)
        return err;
    const double need = (double)(F->layout.size + F->layout.packed_size) * LS_CUDA_SLOTS;
    if (need > (double)free_bytes) {
        ls_set_error("cuda: a %ux%u frame needs %.1f MiB of device memory (%d frames in flight); "
                     "the device has %.1f MiB free", F->w[0], F->h[0], need / (1u << 20),
                     LS_CUDA_SLOTS, (double)free_bytes / (1u << 20));
        return -ENOMEM;
    }
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        FrameSlot *s = &F->slot[i];
        if ((err = CHECK_CU(cu, cuMemHostAlloc((void **)&s->host, F->layout.size,
                                               LS_CU_MEMHOSTALLOC_PORTABLE))) ||
            (err = CHECK_CU(cu, cuMemAlloc(&s->input, F->layout.size))) ||
            (F->layout.pack10 &&
             (err = CHECK_CU(cu, cuMemAlloc(&s->packed10, F->layout.packed_size)))))
            break;
    }
    if (!err) {
        err = ls_frame_packer_init(&F->packer, F->layout.size);
        F->packer_up = !err;
    }
    if (!err)
        frames_mirror(F);
    F->started = !err;
    return err;
}

/* Unpacks the packed frame uploaded to s->packed10 into s->input, on the slot's stream. Context
 * current. */
static int frames_unpack(LsCudaFrames *F, FrameSlot *s)
{
    const LsCudaApi *cu = F->dev.cu;
    const LsFrameLayout *l = &F->layout;
    LsUnpack10Args a;
    memset(&a, 0, sizeof(a));
    a.src = (uint64_t)s->packed10;
    a.dst = (uint64_t)s->input;
    uint32_t groups = 0;
    for (unsigned side = 0; side < 2; side++) {
        for (unsigned p = 0; p < l->n_planes; p++, a.n_planes++) {
            a.src_off[a.n_planes] = l->packed_offset[side][p];
            a.dst_off[a.n_planes] = l->offset[side][p];
            groups += l->w[p] / LS_PACK10_GROUP * l->h[p];
            a.groups_end[a.n_planes] = groups;
        }
    }
    void *params[] = { &a };
    return CHECK_CU(cu, cuLaunchKernel(F->unpack, (groups + LS_UNPACK10_THREADS - 1) /
                                                      LS_UNPACK10_THREADS,
                                       1, 1, LS_UNPACK10_THREADS, 1, 1, 0, s->stream, params,
                                       NULL));
}

/* The slot that holds frame `index` on the device, uploading it if no twin has yet. Context
 * current. */
static int frames_acquire(LsCudaFrames *F, unsigned index, const VmafPicture *ref,
                          const VmafPicture *dis, unsigned *slot_out)
{
    const LsCudaApi *cu = F->dev.cu;
    for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
        if (F->slot[i].valid && F->slot[i].index == index) {
            *slot_out = i;
            return 0;
        }
    }
    int err = F->started ? 0 : frames_start(F);
    if (err)
        return err;
    const unsigned k = F->next;
    FrameSlot *s = &F->slot[k];
    /* the staging buffer is refilled once its last upload is done; the device copy is
     * overwritten in stream order, after the kernels that read the slot's previous frame */
    if ((err = frames_slot_idle(F, s)))
        return err;
    s->valid = 0;
    const LsFrameLayout *l = &F->layout;
    const double t0 = F->timing ? now_ms() : 0.0;
    /* Pictures the reader packed (ls_picture_packed10) go as they are. Others go straight from
     * the pictures where they are pinned, else through the staging buffer, packed where the
     * layout packs (the same host pass as a copy, 5/8 of the bytes to write and upload) unless a
     * sample lies above 10 bits, which the packed form cannot hold. */
    const unsigned need = (1u << l->n_planes) - 1;
    const unsigned packed_r = ls_picture_packed10(ref), packed_d = ls_picture_packed10(dis);
    const int from_packed = packed_r || packed_d;
    if (from_packed && (!l->pack10 || (packed_r & need) != need || (packed_d & need) != need)) {
        ls_set_error("cuda: the frame's pictures are packed to 10 bits where the device's frame "
                     "layout is not (planes %#x and %#x of %#x)", packed_r, packed_d, need);
        return -EINVAL;
    }
    /* pictures the readers sent (ls_picture_uploaded) hold nothing on the host: their bytes
     * are in the mirrors, which only this pipeline's own sink fills */
    const LsUploadSink *up_r = ls_picture_uploaded(ref), *up_d = ls_picture_uploaded(dis);
    if ((up_r && up_r != &F->sink) || (up_d && up_d != &F->sink) ||
        ((up_r || up_d) && !from_packed)) {
        ls_set_error("cuda: the frame's pictures were sent to another device's memory");
        return -EINVAL;
    }
    int direct, packed;
    if (from_packed) {
        packed = 1;
        direct = ls_frame_direct_packed(l, ref, F->pinned, F->n_pinned) &&
                 ls_frame_direct_packed(l, dis, F->pinned, F->n_pinned);
        if (!direct && (up_r || up_d)) {
            ls_set_error("cuda: the frame's pictures were sent to the device but lie outside the "
                         "memory it mirrors");
            return -EINVAL;
        }
        if (!direct)
            ls_frame_copy_packed(l, s->host, ref, dis);
    } else {
        direct = ls_frame_direct(l, ref, F->pinned, F->n_pinned) &&
                 ls_frame_direct(l, dis, F->pinned, F->n_pinned);
        packed = !direct && l->pack10 && !ls_frame_pack10(&F->packer, l, s->host, ref, dis);
        if (!direct && !packed)
            ls_frame_pack(&F->packer, l, s->host, ref, dis);
    }
    if (F->timing) {
        F->pack_ms += now_ms() - t0;
        err = CHECK_CU(cu, cuEventRecord(s->mark[0], s->stream));
    }
    if (!err && direct) {
        /* the DMA reads the pictures after extract returns: hold them until it is done */
        ls_picture_ref(&s->held[0], ref);
        ls_picture_ref(&s->held[1], dis);
        s->holding = 1;
        F->direct_frames++;
        F->reader_frames += up_r || up_d;
        for (unsigned side = 0; side < 2 && !err; side++) {
            for (unsigned p = 0; p < l->n_planes && !err; p++) {
                const VmafPicture *pic = side ? dis : ref;
                const CUdeviceptr to = packed ? s->packed10 + l->packed_offset[side][p]
                                              : s->input + l->offset[side][p];
                const size_t bytes = (packed ? l->packed_row_bytes[p] : l->row_bytes[p]) * l->h[p];
                if (!(side ? up_d : up_r)) {
                    err = CHECK_CU(cu, cuMemcpyHtoDAsync(to, pic->data[p], bytes, s->stream));
                    continue;
                }
                /* the reader's copy is done (sink_end): the mirror holds the plane */
                const CUdeviceptr from = mirror_of(F, pic->data[p], bytes);
                if (!from) {
                    ls_set_error("cuda: plane %u of a picture sent to the device lies outside "
                                 "the memory it mirrors", p);
                    err = -EINVAL;
                } else {
                    err = CHECK_CU(cu, cuMemcpyDtoDAsync(to, from, bytes, s->stream));
                }
            }
        }
    } else if (!err && packed) {
        err = CHECK_CU(cu, cuMemcpyHtoDAsync(s->packed10, s->host, l->packed_size, s->stream));
    } else if (!err) {
        err = CHECK_CU(cu, cuMemcpyHtoDAsync(s->input, s->host, l->size, s->stream));
    }
    if (!err && packed) {
        F->packed_frames++;
        err = frames_unpack(F, s);
    }
    if (!err && F->timing) {
        err = CHECK_CU(cu, cuEventRecord(s->mark[1], s->stream));
        s->timed = !err;
    }
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(s->uploaded, s->stream));
    if (err)
        return err;
    s->valid = 1;
    s->index = index;
    if (!F->frames || index > F->last_index)
        F->last_index = index;
    if (F->timing && F->frames == STEADY_FROM)
        F->steady_t0 = t0;
    F->frames++;
    F->next = (k + 1) % LS_CUDA_SLOTS;
    *slot_out = k;
    return 0;
}

static int frames_pin(LsCudaFrames *F, void *ptr, size_t size, const char *who)
{
    for (unsigned i = 0; i < F->n_pinned; i++)
        if (F->pinned[i].ptr == ptr)
            return 0;
    if (F->n_pinned == MAX_PINNED)
        return -EIO;
    int err = ls_cuda_push(&F->dev);
    if (err)
        return err;
    err = pin(F->dev.cu, ptr, size, who);
    ls_cuda_pop(&F->dev);
    if (err)
        return err;
    F->pinned[F->n_pinned].ptr = ptr;
    F->pinned[F->n_pinned].size = size;
    F->n_pinned++;
    return 0;
}

/* ---- per twin ---- */

static LsCudaTwin *twin_of(LsFex *fex)
{
    const LsCudaTwinDesc *d = fex->ex->backend_desc;
    return (LsCudaTwin *)((char *)fex->priv + d->twin_offset);
}

int ls_cuda_twin_alloc(LsCudaTwin *t, CUdeviceptr *ptr, size_t bytes)
{
    *ptr = 0;
    if (t->n_buffers == LS_CUDA_MAX_BUFFERS) {
        ls_set_error("cuda: %s: more than %d device buffers (LS_CUDA_MAX_BUFFERS in cuda/twin.h)",
                     t->desc->name, LS_CUDA_MAX_BUFFERS);
        return -ENOMEM;
    }
    const int err = CHECK_CU(t->dev.cu, cuMemAlloc(ptr, bytes ? bytes : 1));
    if (!err)
        t->buffer[t->n_buffers++] = *ptr;
    return err;
}

int ls_cuda_twin_upload(LsCudaTwin *t, CUdeviceptr *ptr, const void *src, size_t bytes)
{
    const int err = ls_cuda_twin_alloc(t, ptr, bytes);
    return err ? err : CHECK_CU(t->dev.cu, cuMemcpyHtoD(*ptr, src, bytes));
}

int ls_cuda_twin_set_global(LsCudaTwin *t, const char *name, const void *src, size_t bytes)
{
    CUdeviceptr ptr;
    size_t size;
    int err = CHECK_CU(t->dev.cu, cuModuleGetGlobal(&ptr, &size, t->mod, name));
    if (!err && bytes > size)
        err = -EINVAL;
    return err ? err : CHECK_CU(t->dev.cu, cuMemcpyHtoD(ptr, src, bytes));
}

int ls_cuda_twin_launch(LsCudaTwin *t, unsigned kernel, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
                        const LsCudaFrame *f, void *param)
{
    void *params[] = { param };
    return CHECK_CU(t->dev.cu, cuLaunchKernel(t->fn[kernel], gx, gy, gz, bx, by, bz, shared_bytes,
                                              f->stream, params, NULL));
}

int ls_cuda_twin_mark(LsCudaTwin *t, const LsCudaFrame *f)
{
    if (!t->timing || !t->slot[f->slot].timed)
        return 0;
    t->slot[f->slot].marked = 1;
    return CHECK_CU(t->dev.cu, cuEventRecord(t->slot[f->slot].mark[1], f->stream));
}

int ls_cuda_twin_after_previous(LsCudaTwin *t, const LsCudaFrame *f)
{
    if (!t->have_previous)
        return 0;
    return CHECK_CU(t->dev.cu, cuStreamWaitEvent(f->stream, t->previous, 0));
}

static void twin_release(LsCudaTwin *t)
{
    LsCudaFrames *F = t->frames;
    for (unsigned i = 0; F && i < F->n_twins; i++) {
        if (F->twin[i] == t) {
            memmove(&F->twin[i], &F->twin[i + 1], (F->n_twins - i - 1) * sizeof(F->twin[0]));
            F->n_twins--;
            break;
        }
    }
    if (!t->dev_open)
        return;
    const LsCudaApi *cu = t->dev.cu;
    if (!ls_cuda_push(&t->dev)) {
        for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
            LsCudaTwinSlot *s = &t->slot[i];
            if (s->done)
                CHECK_CU(cu, cuEventSynchronize(s->done));
        }
        for (unsigned i = 0; i < LS_CUDA_SLOTS && t->own_streams; i++) {
            if (t->stream[i]) {
                CHECK_CU(cu, cuStreamSynchronize(t->stream[i]));
                CHECK_CU(cu, cuStreamDestroy(t->stream[i]));
            }
        }
        memset(t->stream, 0, sizeof(t->stream));
        t->own_streams = 0;
        for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
            LsCudaTwinSlot *s = &t->slot[i];
            if (s->result)
                CHECK_CU(cu, cuMemFreeHost(s->result));
            for (unsigned k = 0; k < 3; k++)
                if (s->mark[k])
                    CHECK_CU(cu, cuEventDestroy(s->mark[k]));
            if (s->done)
                CHECK_CU(cu, cuEventDestroy(s->done));
            memset(s, 0, sizeof(*s));
        }
        if (t->previous)
            CHECK_CU(cu, cuEventDestroy(t->previous));
        t->previous = NULL;
        for (unsigned i = 0; i < t->n_buffers; i++)
            CHECK_CU(cu, cuMemFree(t->buffer[i]));
        t->n_buffers = 0;
        if (t->mod)
            CHECK_CU(cu, cuModuleUnload(t->mod));
        t->mod = NULL;
        ls_cuda_pop(&t->dev);
    }
    ls_cuda_device_close(&t->dev);
    t->dev_open = 0;
    if (t->timing && t->timed_frames) {
        const double n = t->timed_frames;
        const LsCudaTwinDesc *d = t->desc;
        fprintf(stderr,
                "lockstep cuda timing %s: %u frames, per frame: device %s %.3f ms, %s %.3f ms; "
                "host enqueue %.3f ms, host wait %.3f ms, host collect %.3f ms\n",
                d->name, t->timed_frames, d->stage_name[0] ? d->stage_name[0] : "stage 1",
                t->stage_ms[0] / n, d->stage_name[1] ? d->stage_name[1] : "stage 2",
                t->stage_ms[1] / n, t->enqueue_ms / n, t->wait_ms / n, t->collect_ms / n);
    }
}

int ls_cuda_twin_open(LsCudaTwin *t, LsFex *fex, const LsCudaTwinDesc *desc,
                      enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                      unsigned n_planes)
{
    memset(t, 0, sizeof(*t));
    t->desc = desc;
    t->timing = timing_enabled();
    char key[64], why[256];
    snprintf(key, sizeof(key), "cuda-frames:%d", fex->gpu_index);
    FramesArgs args = { fex, fmt, bpc, w, h };
    int err;
    t->frames = ls_shared_get(fex->shared, key, frames_create, &args, frames_destroy, &err);
    if (!t->frames)
        return ls_fex_error(fex, "%s (cuda): %s", desc->name, lockstep_last_error()), err;
    if (t->frames->started)
        return ls_fex_error(fex, "%s (cuda): twins must all be set up before the first frame",
                            desc->name);
    if (n_planes > t->frames->n_planes_input)
        n_planes = t->frames->n_planes_input;
    if (n_planes > t->frames->n_planes)
        t->frames->n_planes = n_planes;
    if ((err = ls_cuda_device_open(&t->dev, fex->gpu_index, why, sizeof(why))))
        return ls_fex_error(fex, "%s (cuda): %s", desc->name, why), err;
    t->dev_open = 1;
    const LsCudaApi *cu = t->dev.cu;
    if ((err = ls_cuda_push(&t->dev)))
        goto fail;
    err = ls_cuda_module_load(&t->dev, &t->mod, desc->fatbin, desc->kernels, t->fn,
                              desc->n_kernels);
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        LsCudaTwinSlot *s = &t->slot[i];
        if ((err = CHECK_CU(cu, cuEventCreate(&s->done, LS_CU_EVENT_DISABLE_TIMING))) ||
            (err = CHECK_CU(cu, cuMemHostAlloc(&s->result, desc->result_bytes ? desc->result_bytes : 1,
                                               LS_CU_MEMHOSTALLOC_PORTABLE))))
            break;
        for (unsigned k = 0; k < 3 && t->timing && !err; k++)
            err = CHECK_CU(cu, cuEventCreate(&s->mark[k], 0));
    }
    if (!err)
        err = CHECK_CU(cu, cuEventCreate(&t->previous, LS_CU_EVENT_DISABLE_TIMING));
    t->own_streams = !t->frames->serial;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        if (t->own_streams)
            err = CHECK_CU(cu, cuStreamCreate(&t->stream[i], LS_CU_STREAM_NON_BLOCKING));
        else
            t->stream[i] = t->frames->slot[i].stream;
    }
    if (!err && desc->setup)
        err = desc->setup(fex, t);
    const int pop_err = ls_cuda_pop(&t->dev);
    if (!err)
        err = pop_err;
    if (!err) {
        t->open = 1;
        t->fex = fex;
        LsCudaFrames *F = t->frames;
        if (F->n_twins < MAX_TWINS)
            F->twin[F->n_twins++] = t;
        else
            F->twins_dropped = 1;
        return 0;
    }
fail:
    ls_fex_error(fex, "%s (cuda): %s", desc->name, lockstep_last_error());
    twin_release(t);
    return err;
}

/* Waits for the twin's frame in slot s and writes its scores. Context current. */
static int collect(LsFex *fex, LsCudaTwin *t, LsCudaTwinSlot *s, LsCollector *fc)
{
    const LsCudaApi *cu = t->dev.cu;
    const double t0 = t->timing ? now_ms() : 0.0;
    s->pending = 0;
    int err = CHECK_CU(cu, cuEventSynchronize(s->done));
    if (!err && t->timing) {
        t->wait_ms += now_ms() - t0;
        for (unsigned k = 0; k < 2 && !err; k++) {
            float ms = 0.0f;
            err = CHECK_CU(cu, cuEventElapsedTime(&ms, s->mark[k], s->mark[k + 1]));
            t->stage_ms[k] += ms;
        }
        t->timed_frames++;
    }
    if (err)
        return err;
    const double t1 = t->timing ? now_ms() : 0.0;
    err = t->desc->collect(fex, s->result, s->index, fc);
    if (t->timing)
        t->collect_ms += now_ms() - t1;
    return err;
}

/* Collects pending frames, oldest first, until slot k is free. */
static int collect_until_free(LsFex *fex, LsCudaTwin *t, unsigned k, LsCollector *fc)
{
    int err = 0;
    while (!err && t->slot[k].pending) {
        LsCudaTwinSlot *oldest = NULL;
        for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
            LsCudaTwinSlot *s = &t->slot[i];
            if (s->pending && (!oldest || s->index < oldest->index))
                oldest = s;
        }
        err = collect(fex, t, oldest, fc);
    }
    return err;
}

/* Queues twin t's work on frame `index`, held in slot k, on the twin's stream of the slot: after
 * the slot's upload, and before the slot's next upload (which the slot's stream queues after a
 * wait for this work, so no host wait orders them). timed: record the timing marks. Context
 * current. */
static int twin_enqueue(LsCudaTwin *t, unsigned k, unsigned index, int timed)
{
    const LsCudaApi *cu = t->dev.cu;
    FrameSlot *fs = &t->frames->slot[k];
    LsCudaTwinSlot *s = &t->slot[k];
    LsCudaFrame f = { .index = index, .slot = k, .stream = t->stream[k],
                      .layout = &t->frames->layout };
    for (unsigned p = 0; p < f.layout->n_planes; p++) {
        f.ref[p] = fs->input + f.layout->offset[0][p];
        f.dis[p] = fs->input + f.layout->offset[1][p];
    }
    const int own = f.stream != fs->stream;
    int err = own ? CHECK_CU(cu, cuStreamWaitEvent(f.stream, fs->uploaded, 0)) : 0;
    s->marked = 0;
    s->timed = timed && t->timing;
    if (!err && s->timed)
        err = CHECK_CU(cu, cuEventRecord(s->mark[0], f.stream));
    if (!err)
        err = t->desc->enqueue(t->fex, t, &f, s->result);
    if (!err && s->timed && !s->marked)
        err = CHECK_CU(cu, cuEventRecord(s->mark[1], f.stream));
    if (!err && s->timed)
        err = CHECK_CU(cu, cuEventRecord(s->mark[2], f.stream));
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(s->done, f.stream));
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(t->previous, f.stream));
    if (!err && own)
        err = CHECK_CU(cu, cuStreamWaitEvent(fs->stream, s->done, 0));
    if (!err)
        t->have_previous = 1;
    return err;
}

int ls_cuda_twin_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc)
{
    LsCudaTwin *t = twin_of(fex);
    t->fex = fex;
    if (fex->ex->flags & LS_FEX_TEMPORAL) {
        if (index != t->n_frames)
            return ls_fex_error(fex,
                                "%s: frame %u arrived after %u frames; it needs every frame in "
                                "order",
                                t->desc->name, index, t->n_frames);
        t->n_frames++;
    }
    int err = ls_cuda_push(&t->dev);
    if (err)
        return err;
    unsigned k = 0;
    err = frames_acquire(t->frames, index, ref, dist, &k);
    if (!err)
        err = collect_until_free(fex, t, k, fc);
    const double t0 = t->timing ? now_ms() : 0.0;
    if (!err)
        err = twin_enqueue(t, k, index, 1);
    if (!err) {
        LsCudaTwinSlot *s = &t->slot[k];
        s->pending = 1;
        s->index = index;
        if (t->timing)
            t->enqueue_ms += now_ms() - t0;
    }
    const int pop_err = ls_cuda_pop(&t->dev);
    return err ? err : pop_err;
}

int ls_cuda_twin_drain(LsFex *fex, LsCollector *fc)
{
    LsCudaTwin *t = twin_of(fex);
    int err = ls_cuda_push(&t->dev);
    if (err)
        return err;
    for (unsigned k = 0; k < LS_CUDA_SLOTS && !err; k++)
        err = collect_until_free(fex, t, k, fc);
    const int pop_err = ls_cuda_pop(&t->dev);
    return err ? err : pop_err;
}

/* The replays of LOCKSTEP_CUDA_REPLAY (twin.h), once every twin of the pipeline has written its
 * scores: phase 0 the twins on the frames still in the slots, phase 1 the uploads of those frames
 * (from the staging buffers, filled from the device first), phase 2 both, as the pipeline runs
 * them. Each phase's device time runs from an event that every stream of the phase waits for to
 * one after every slot's stream, which waits for its twins' work. Context current. */
static int frames_replay(LsCudaFrames *F)
{
    const LsCudaApi *cu = F->dev.cu;
    unsigned nv = 0, slot_of[LS_CUDA_SLOTS];
    for (unsigned k = 0; k < LS_CUDA_SLOTS; k++)
        if (F->slot[k].valid)
            slot_of[nv++] = k;
    if (!nv || !F->n_twins || F->twins_dropped)
        return 0;
    CUevent ev[2] = { NULL, NULL };
    int err = 0;
    for (unsigned i = 0; i < 2 && !err; i++)
        err = CHECK_CU(cu, cuEventCreate(&ev[i], 0));
    for (unsigned i = 0; i < F->n_twins && !err; i++)
        for (unsigned k = 0; k < LS_CUDA_SLOTS && !err; k++)
            err = CHECK_CU(cu, cuStreamSynchronize(F->twin[i]->stream[k]));
    for (unsigned j = 0; j < nv && !err; j++) {
        FrameSlot *s = &F->slot[slot_of[j]];
        err = CHECK_CU(cu, cuStreamSynchronize(s->stream));
        if (!err)
            err = CHECK_CU(cu, cuMemcpyDtoH(s->host, s->input, F->layout.size));
    }
    double ms[3] = { 0.0, 0.0, 0.0 }, host[3] = { 0.0, 0.0, 0.0 };
    unsigned index = F->last_index + 1;
    CUstream s0 = F->slot[slot_of[0]].stream;
    for (int phase = 0; phase < 3 && !err; phase++) {
        err = CHECK_CU(cu, cuEventRecord(ev[0], s0));
        for (unsigned j = 1; j < nv && !err; j++)
            err = CHECK_CU(cu, cuStreamWaitEvent(F->slot[slot_of[j]].stream, ev[0], 0));
        for (unsigned i = 0; i < F->n_twins && !err; i++)
            for (unsigned j = 0; j < nv && !err && F->twin[i]->own_streams; j++)
                err = CHECK_CU(cu, cuStreamWaitEvent(F->twin[i]->stream[slot_of[j]], ev[0], 0));
        const double t0 = now_ms();
        for (unsigned r = 0; r < F->replay && !err; r++) {
            const unsigned k = slot_of[r % nv];
            FrameSlot *s = &F->slot[k];
            if (phase) {
                err = CHECK_CU(cu, cuMemcpyHtoDAsync(s->input, s->host, F->layout.size, s->stream));
                if (!err)
                    err = CHECK_CU(cu, cuEventRecord(s->uploaded, s->stream));
            }
            for (unsigned i = 0; i < F->n_twins && !err && phase != 1; i++)
                err = twin_enqueue(F->twin[i], k, index + r, 0);
        }
        host[phase] = now_ms() - t0;
        index += F->replay;
        for (unsigned j = 1; j < nv && !err; j++) {
            FrameSlot *s = &F->slot[slot_of[j]];
            err = CHECK_CU(cu, cuEventRecord(s->uploaded, s->stream));
            if (!err)
                err = CHECK_CU(cu, cuStreamWaitEvent(s0, s->uploaded, 0));
        }
        if (!err)
            err = CHECK_CU(cu, cuEventRecord(ev[1], s0));
        if (!err)
            err = CHECK_CU(cu, cuEventSynchronize(ev[1]));
        float e = 0.0f;
        if (!err)
            err = CHECK_CU(cu, cuEventElapsedTime(&e, ev[0], ev[1]));
        ms[phase] = e;
    }
    for (unsigned i = 0; i < 2; i++)
        if (ev[i])
            CHECK_CU(cu, cuEventDestroy(ev[i]));
    if (err)
        return err;
    const double n = F->replay ? F->replay : 1;
    const double mb = (double)F->layout.size / 1e6;
    fprintf(stderr,
            "lockstep cuda replay: %u frames per phase on %u resident slot(s), %u twin(s) %s: "
            "device per frame: twins %.3f ms, upload %.3f ms (%.1f MB, %.1f GB/s), upload and twins "
            "%.3f ms; host enqueue per frame %.3f, %.3f, %.3f ms\n",
            F->replay, nv, F->n_twins, F->serial ? "on the upload streams (serial)"
                                                  : "on their own streams",
            ms[0] / n, ms[1] / n, mb, ms[1] > 0.0f ? mb * n / ms[1] : 0.0, ms[2] / n,
            host[0] / n, host[1] / n, host[2] / n);
    return 0;
}

int ls_cuda_twin_flush(LsFex *fex, LsCollector *fc)
{
    LsCudaTwin *t = twin_of(fex);
    int err = ls_cuda_twin_drain(fex, fc);
    if (!err && t->desc->finish)
        err = t->desc->finish(fex, fc);
    t->flushed = 1;
    LsCudaFrames *F = t->frames;
    unsigned flushed = 0;
    for (unsigned i = 0; i < F->n_twins; i++)
        flushed += F->twin[i]->flushed;
    if (F->timing && flushed == F->n_twins)
        F->steady_t1 = now_ms();
    if (!err && F->replay && F->frames && flushed == F->n_twins &&
        !(err = ls_cuda_push(&F->dev))) {
        err = frames_replay(F);
        const int pop_err = ls_cuda_pop(&F->dev);
        if (!err)
            err = pop_err;
    }
    return err;
}

void ls_cuda_twin_close(LsFex *fex)
{
    LsCudaTwin *t = twin_of(fex);
    twin_release(t);
    t->open = 0;
    if (t->desc && t->desc->teardown)
        t->desc->teardown(fex);
}

int ls_cuda_twin_use_host_memory(LsFex *fex, void *ptr, size_t size)
{
    LsCudaTwin *t = twin_of(fex);
    return t->open ? frames_pin(t->frames, ptr, size, t->desc->name) : -EIO;
}

LsUploadSink *ls_cuda_twin_upload_sink(LsFex *fex)
{
    LsCudaTwin *t = twin_of(fex);
    return t->open && t->frames && atomic_load(&t->frames->sink_ready) ? &t->frames->sink : NULL;
}
