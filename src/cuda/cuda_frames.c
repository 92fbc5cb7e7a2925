/* Packed frame layout and the row-copy pool (cuda_frames.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/picture_ref.h"
#include "cuda/cuda_frames.h"

#define PLANE_ALIGN 256u

void ls_cuda_layout_init(LsCudaLayout *l, unsigned n_planes, unsigned bpc, const unsigned w[3],
                         const unsigned h[3])
{
    memset(l, 0, sizeof(*l));
    l->n_planes = n_planes;
    l->bytes_per_sample = bpc > 8 ? 2 : 1;
    size_t off = 0;
    for (unsigned side = 0; side < 2; side++) {
        for (unsigned p = 0; p < n_planes; p++) {
            l->w[p] = w[p];
            l->h[p] = h[p];
            l->row_bytes[p] = (size_t)w[p] * l->bytes_per_sample;
            l->offset[side][p] = off;
            off += (l->row_bytes[p] * h[p] + PLANE_ALIGN - 1) / PLANE_ALIGN * PLANE_ALIGN;
        }
    }
    l->size = off;
}

/* Rows [first, last) of the concatenated copies. */
static void copy_rows(const LsCudaPacker *pk, unsigned first, unsigned last)
{
    unsigned base = 0;
    for (unsigned c = 0; c < pk->n_copies && first < last; c++) {
        const LsCudaPackCopy *cp = &pk->copy[c];
        const unsigned end = base + cp->rows;
        if (first < end) {
            const unsigned stop = last < end ? last : end;
            for (unsigned r = first - base; r < stop - base; r++)
                memcpy(cp->dst + (size_t)r * cp->row_bytes,
                       cp->src + (ptrdiff_t)r * cp->src_stride, cp->row_bytes);
            first = stop;
        }
        base = end;
    }
}

static void share(const LsCudaPacker *pk, unsigned part, unsigned parts)
{
    const uint64_t rows = pk->total_rows;
    copy_rows(pk, (unsigned)(rows * part / parts), (unsigned)(rows * (part + 1) / parts));
}

static void *pack_thread(void *arg)
{
    LsCudaPacker *pk = arg;
    pthread_mutex_lock(&pk->lock);
    const unsigned part = 1 + pk->sync_ready++; /* part 0 is the caller's */
    unsigned seen = 0; /* threads start before the first frame: generation 0 is "no work" */
    for (;;) {
        while (!pk->stop && pk->generation == seen)
            pthread_cond_wait(&pk->go, &pk->lock);
        if (pk->stop)
            break;
        seen = pk->generation;
        pthread_mutex_unlock(&pk->lock);
        share(pk, part, pk->n_threads + 1);
        pthread_mutex_lock(&pk->lock);
        if (--pk->pending == 0)
            pthread_cond_signal(&pk->done);
    }
    pthread_mutex_unlock(&pk->lock);
    return NULL;
}

int ls_cuda_packer_init(LsCudaPacker *pk, size_t frame_bytes)
{
    memset(pk, 0, sizeof(*pk));
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = cpus > 2 ? (unsigned)(cpus / 2) - 1 : 0;
    if (n > LS_CUDA_PACK_MAX_THREADS)
        n = LS_CUDA_PACK_MAX_THREADS;
    if (frame_bytes < ((size_t)4 << 20))
        n = 0; /* below a few MB the hand-off costs more than it saves */
    if (pthread_mutex_init(&pk->lock, NULL))
        return -ENOMEM;
    if (pthread_cond_init(&pk->go, NULL) || pthread_cond_init(&pk->done, NULL))
        return -ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&pk->thread[i], NULL, pack_thread, pk))
            break; /* fewer helpers: slower, still correct */
        pk->n_threads++;
    }
    return 0;
}

void ls_cuda_packer_close(LsCudaPacker *pk)
{
    pthread_mutex_lock(&pk->lock);
    pk->stop = 1;
    pthread_cond_broadcast(&pk->go);
    pthread_mutex_unlock(&pk->lock);
    for (unsigned i = 0; i < pk->n_threads; i++)
        pthread_join(pk->thread[i], NULL);
    pthread_cond_destroy(&pk->go);
    pthread_cond_destroy(&pk->done);
    pthread_mutex_destroy(&pk->lock);
    pk->n_threads = 0;
}

void ls_cuda_pack(LsCudaPacker *pk, const LsCudaLayout *l, unsigned char *dst,
                  const VmafPicture *ref, const VmafPicture *dis)
{
    pk->n_copies = 0;
    pk->total_rows = 0;
    for (unsigned side = 0; side < 2; side++) {
        const VmafPicture *pic = side ? dis : ref;
        for (unsigned p = 0; p < l->n_planes; p++) {
            LsCudaPackCopy *cp = &pk->copy[pk->n_copies++];
            cp->dst = dst + l->offset[side][p];
            cp->src = pic->data[p];
            cp->src_stride = pic->stride[p];
            cp->row_bytes = l->row_bytes[p];
            cp->rows = l->h[p];
            pk->total_rows += l->h[p];
        }
    }
    if (!pk->n_threads) {
        copy_rows(pk, 0, pk->total_rows);
        return;
    }
    pthread_mutex_lock(&pk->lock);
    pk->pending = pk->n_threads;
    pk->generation++;
    pthread_cond_broadcast(&pk->go);
    pthread_mutex_unlock(&pk->lock);
    share(pk, 0, pk->n_threads + 1);
    pthread_mutex_lock(&pk->lock);
    while (pk->pending)
        pthread_cond_wait(&pk->done, &pk->lock);
    pthread_mutex_unlock(&pk->lock);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int ls_cuda_pipe_open(LsCudaPipe *pp, const LsFex *fex, const char *name,
                      const unsigned char *fatbin, const char *const *kernels, CUfunction *fns,
                      unsigned n_kernels, const LsCudaLayout *layout, size_t result_bytes)
{
    char why[256];
    memset(pp, 0, sizeof(*pp));
    pp->name = name;
    pp->layout = *layout;
    const char *t = getenv("LOCKSTEP_CUDA_TIMING");
    pp->timing = t && *t && strcmp(t, "0");
    int err = ls_cuda_device_open(&pp->dev, fex->gpu_index, why, sizeof(why));
    if (err)
        return ls_fex_error(fex, "%s (cuda): %s", name, why), err;
    pp->dev_open = 1;
    const LsCudaApi *cu = pp->dev.cu;
    if ((err = ls_cuda_push(&pp->dev)))
        goto fail;
    err = ls_cuda_module_load(&pp->dev, &pp->mod, fatbin, kernels, fns, n_kernels);
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        LsCudaSlot *s = &pp->slot[i];
        if ((err = CHECK_CU(cu, cuStreamCreate(&s->stream, LS_CU_STREAM_NON_BLOCKING))) ||
            (err = CHECK_CU(cu, cuEventCreate(&s->done, LS_CU_EVENT_DISABLE_TIMING))) ||
            (err = CHECK_CU(cu, cuMemHostAlloc((void **)&s->host, layout->size,
                                               LS_CU_MEMHOSTALLOC_PORTABLE))) ||
            (err = CHECK_CU(cu, cuMemHostAlloc(&s->result, result_bytes,
                                               LS_CU_MEMHOSTALLOC_PORTABLE))) ||
            (err = CHECK_CU(cu, cuMemAlloc(&s->input, layout->size))))
            break;
        for (unsigned k = 0; k < 4 && pp->timing && !err; k++)
            err = CHECK_CU(cu, cuEventCreate(&s->mark[k], 0));
    }
    if (!err) {
        err = ls_cuda_packer_init(&pp->packer, layout->size);
        pp->packer_up = !err;
    }
    const int pop_err = ls_cuda_pop(&pp->dev);
    if (!err)
        err = pop_err;
    if (!err)
        return 0;
fail:
    ls_fex_error(fex, "%s (cuda): %s", name, lockstep_last_error());
    ls_cuda_pipe_close(pp);
    return err;
}

static void release_held(LsCudaSlot *s)
{
    if (!s->holding)
        return;
    vmaf_picture_unref(&s->held[0]);
    vmaf_picture_unref(&s->held[1]);
    s->holding = 0;
}

/* Pinned blocks are shared by every twin of the process (one registration per block, counted),
 * so a second twin never asks the driver to pin memory that is pinned already. */
static struct {
    pthread_mutex_t lock;
    struct {
        void *ptr;
        unsigned refs;
    } block[LS_CUDA_MAX_PINNED];
    unsigned n;
} pins = { .lock = PTHREAD_MUTEX_INITIALIZER };

int ls_cuda_pipe_pin(LsCudaPipe *pp, void *ptr, size_t size)
{
    if (!pp->dev_open || pp->n_pinned == LS_CUDA_MAX_PINNED)
        return -EIO;
    const LsCudaApi *cu = pp->dev.cu;
    int err = 0;
    pthread_mutex_lock(&pins.lock);
    unsigned i = 0;
    while (i < pins.n && pins.block[i].ptr != ptr)
        i++;
    if (i == pins.n) {
        if (i == LS_CUDA_MAX_PINNED || (err = ls_cuda_push(&pp->dev))) {
            pthread_mutex_unlock(&pins.lock);
            return err ? err : -EIO;
        }
        const CUresult r = cu->cuMemHostRegister(ptr, size, LS_CU_MEMHOSTREGISTER_PORTABLE);
        ls_cuda_pop(&pp->dev);
        if (r) {
            ls_log(VMAF_LOG_LEVEL_DEBUG, "%s (cuda): cannot pin picture memory (error %d): frames "
                   "are staged through a copy", pp->name, r);
            pthread_mutex_unlock(&pins.lock);
            return -EIO;
        }
        pins.block[pins.n].ptr = ptr;
        pins.block[pins.n].refs = 0;
        pins.n++;
    }
    pins.block[i].refs++;
    pthread_mutex_unlock(&pins.lock);
    pp->pinned[pp->n_pinned++] = (LsCudaPinned){ ptr, size, 1 };
    return 0;
}

/* Context current. */
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

static int is_pinned(const LsCudaPipe *pp, const VmafPicture *pic, const LsCudaLayout *l)
{
    for (unsigned p = 0; p < l->n_planes; p++)
        if ((size_t)pic->stride[p] != l->row_bytes[p])
            return 0;
    const unsigned char *lo = pic->data[0];
    for (unsigned i = 0; i < pp->n_pinned; i++)
        if (lo >= pp->pinned[i].ptr && lo < pp->pinned[i].ptr + pp->pinned[i].size)
            return 1;
    return 0;
}

void ls_cuda_pipe_close(LsCudaPipe *pp)
{
    if (pp->packer_up)
        ls_cuda_packer_close(&pp->packer);
    pp->packer_up = 0;
    if (!pp->dev_open)
        return;
    const LsCudaApi *cu = pp->dev.cu;
    const int pushed = !ls_cuda_push(&pp->dev);
    for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
        LsCudaSlot *s = &pp->slot[i];
        if (s->stream)
            CHECK_CU(cu, cuStreamSynchronize(s->stream));
        release_held(s);
        if (s->input)
            CHECK_CU(cu, cuMemFree(s->input));
        if (s->host)
            CHECK_CU(cu, cuMemFreeHost(s->host));
        if (s->result)
            CHECK_CU(cu, cuMemFreeHost(s->result));
        for (unsigned k = 0; k < 4; k++)
            if (s->mark[k])
                CHECK_CU(cu, cuEventDestroy(s->mark[k]));
        if (s->done)
            CHECK_CU(cu, cuEventDestroy(s->done));
        if (s->stream)
            CHECK_CU(cu, cuStreamDestroy(s->stream));
        memset(s, 0, sizeof(*s));
    }
    for (unsigned i = 0; i < pp->n_pinned; i++)
        unpin(cu, pp->pinned[i].ptr);
    pp->n_pinned = 0;
    if (pp->mod)
        CHECK_CU(cu, cuModuleUnload(pp->mod));
    pp->mod = NULL;
    if (pushed)
        ls_cuda_pop(&pp->dev);
    ls_cuda_device_close(&pp->dev);
    pp->dev_open = 0;
    if (pp->timing && pp->frames) {
        const double n = pp->frames;
        fprintf(stderr,
                "lockstep cuda timing %s: %u frames, per frame: host pack %.3f ms, host enqueue "
                "%.3f ms, host wait %.3f ms, device: upload %.3f ms, %s %.3f ms, %s %.3f ms "
                "(%u frames uploaded straight from pinned pictures)\n",
                pp->name, pp->frames, pp->pack_ms / n, pp->enqueue_ms / n, pp->wait_ms / n,
                pp->stage_ms[0] / n,
                pp->stage_name[1] ? pp->stage_name[1] : "stage 1", pp->stage_ms[1] / n,
                pp->stage_name[2] ? pp->stage_name[2] : "stage 2", pp->stage_ms[2] / n,
                pp->direct_frames);
    }
}

int ls_cuda_pipe_upload(LsCudaPipe *pp, LsCudaSlot *s, const VmafPicture *ref,
                        const VmafPicture *dis)
{
    const LsCudaApi *cu = pp->dev.cu;
    const LsCudaLayout *l = &pp->layout;
    const double t0 = pp->timing ? now_ms() : 0.0;
    const int direct = is_pinned(pp, ref, l) && is_pinned(pp, dis, l);
    if (!direct)
        ls_cuda_pack(&pp->packer, l, s->host, ref, dis);
    if (pp->timing) {
        pp->enqueue_start = now_ms();
        pp->pack_ms += pp->enqueue_start - t0;
    }
    int err = ls_cuda_pipe_mark(pp, s, 0);
    if (!err && direct) {
        /* the DMA reads the pictures after extract returns: hold them until the slot is done */
        ls_picture_ref(&s->held[0], ref);
        ls_picture_ref(&s->held[1], dis);
        s->holding = 1;
        pp->direct_frames++;
        for (unsigned side = 0; side < 2 && !err; side++)
            for (unsigned p = 0; p < l->n_planes && !err; p++)
                err = CHECK_CU(cu, cuMemcpyHtoDAsync(s->input + l->offset[side][p],
                                                     (side ? dis : ref)->data[p],
                                                     l->row_bytes[p] * l->h[p], s->stream));
    } else if (!err) {
        err = CHECK_CU(cu, cuMemcpyHtoDAsync(s->input, s->host, l->size, s->stream));
    }
    if (!err)
        err = ls_cuda_pipe_mark(pp, s, 1);
    return err;
}

int ls_cuda_pipe_mark(LsCudaPipe *pp, LsCudaSlot *s, unsigned k)
{
    if (!pp->timing)
        return 0;
    return CHECK_CU(pp->dev.cu, cuEventRecord(s->mark[k], s->stream));
}

int ls_cuda_pipe_submit(LsCudaPipe *pp, LsCudaSlot *s, unsigned index)
{
    const int err = CHECK_CU(pp->dev.cu, cuEventRecord(s->done, s->stream));
    if (err)
        return err;
    /* the driver calls that queue a frame: they should not block */
    if (pp->timing)
        pp->enqueue_ms += now_ms() - pp->enqueue_start;
    s->pending = 1;
    s->index = index;
    pp->next = (pp->next + 1) % LS_CUDA_SLOTS;
    return 0;
}

LsCudaSlot *ls_cuda_pipe_oldest(LsCudaPipe *pp)
{
    LsCudaSlot *oldest = NULL;
    for (unsigned i = 0; i < LS_CUDA_SLOTS; i++) {
        LsCudaSlot *s = &pp->slot[i];
        if (s->pending && (!oldest || s->index < oldest->index))
            oldest = s;
    }
    return oldest;
}

int ls_cuda_pipe_wait(LsCudaPipe *pp, LsCudaSlot *s)
{
    const LsCudaApi *cu = pp->dev.cu;
    const double t0 = pp->timing ? now_ms() : 0.0;
    s->pending = 0;
    int err = CHECK_CU(cu, cuEventSynchronize(s->done));
    release_held(s);
    if (err || !pp->timing)
        return err;
    pp->wait_ms += now_ms() - t0;
    for (unsigned k = 0; k < 3 && !err; k++) {
        float ms = 0.0f;
        err = CHECK_CU(cu, cuEventElapsedTime(&ms, s->mark[k], s->mark[k + 1]));
        pp->stage_ms[k] += ms;
    }
    pp->frames++;
    return err;
}

int ls_cuda_pipe_extract(LsCudaPipe *pp, void *twin, LsCudaEnqueueFn enqueue,
                         LsCudaCollectFn collect, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc)
{
    int err = ls_cuda_push(&pp->dev);
    if (err)
        return err;
    const unsigned slot = pp->next;
    LsCudaSlot *s = &pp->slot[slot];
    if (s->pending)
        err = collect(twin, s, fc);
    if (!err)
        err = enqueue(twin, s, slot, ref, dist);
    if (!err)
        err = ls_cuda_pipe_submit(pp, s, index);
    LsCudaSlot *oldest = &pp->slot[pp->next];
    if (!err && oldest->pending)
        err = collect(twin, oldest, fc);
    const int pop_err = ls_cuda_pop(&pp->dev);
    return err ? err : pop_err;
}

int ls_cuda_pipe_flush(LsCudaPipe *pp, void *twin, LsCudaCollectFn collect, LsCollector *fc)
{
    int err = ls_cuda_push(&pp->dev);
    if (err)
        return err;
    for (LsCudaSlot *s; !err && (s = ls_cuda_pipe_oldest(pp));)
        err = collect(twin, s, fc);
    const int pop_err = ls_cuda_pop(&pp->dev);
    return err ? err : pop_err;
}
