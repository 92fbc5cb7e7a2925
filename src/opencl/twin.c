/* The OpenCL twins' host skeleton (twin.h): the context's frame pipeline and the per-twin glue. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/geometry.h"
#include "core/log.h"
#include "core/picture_ref.h"
#include "opencl/host_memory.h"
#include "opencl/twin.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int timing_enabled(void)
{
    const char *t = getenv("LOCKSTEP_OPENCL_TIMING");
    return t && *t && strcmp(t, "0");
}

/* ---- the context's frame pipeline ---- */

typedef struct FrameSlot {
    cl_command_queue queue;
    cl_mem staging;            /* pinned host memory (CL_MEM_ALLOC_HOST_PTR), mapped at host */
    unsigned char *host;
    cl_mem input;              /* packed planes on the device */
    cl_event uploaded;         /* the upload: the staging buffer may be refilled after it */
    cl_event packed;           /* user event: the pack thread has filled the staging buffer */
    VmafPicture held[2];       /* the pictures being packed, kept until the upload is done */
    int holding;
    int valid;
    unsigned index;
} FrameSlot;

struct LsClFrames {
    LsClHost *host;            /* the context's device, and the pinned pictures it can read */
    LsClDevice *dev;
    enum VmafPixelFormat fmt;
    unsigned bpc, n_planes_input;
    unsigned w[3], h[3];
    unsigned n_planes;         /* planes the twins read: luma only unless one reads chroma */
    int started;               /* layout fixed, buffers allocated */
    LsFrameLayout layout;
    LsFramePacker packer;      /* started with the first frame that is not pinned */
    int packer_up;
    FrameSlot slot[LS_CL_SLOTS];
    unsigned next;
    /* The pack thread fills a slot's staging buffer while the caller goes on with the next frame
     * (the copy of 17-25 MB per 4K frame would otherwise be half the host's time per frame); the
     * slot's upload waits for it through the slot's user event. LOCKSTEP_OPENCL_PACK=sync packs
     * in the caller instead (for comparison). */
    int async_pack;
    pthread_t pack_thread;
    int pack_thread_up;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    unsigned jobs[LS_CL_SLOTS], n_jobs; /* slots to pack, in order */
    cl_event pack_event[LS_CL_SLOTS];    /* each job's reference to its slot's user event */
    int stop, sync_up;
    int timing;
    unsigned frames, direct_frames;
    double pack_ms, staging_wait_ms;
    char err[1024];
};

typedef struct FramesArgs {
    const LsFex *fex;
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
} FramesArgs;

/* Waits for slot s's upload (its staging buffer is free then). */
static int frames_slot_idle(LsClFrames *F, FrameSlot *s, char *err, size_t err_len)
{
    int ret = 0;
    if (s->uploaded)
        LS_CL_TRY(err, err_len, "clWaitForEvents", F->dev->cl->clWaitForEvents(1, &s->uploaded));
fail:
    if (s->uploaded)
        F->dev->cl->clReleaseEvent(s->uploaded);
    s->uploaded = NULL;
    if (s->packed)
        F->dev->cl->clReleaseEvent(s->packed);
    s->packed = NULL;
    if (s->holding) {
        vmaf_picture_unref(&s->held[0]);
        vmaf_picture_unref(&s->held[1]);
        s->holding = 0;
    }
    return ret;
}

static void *pack_thread(void *arg)
{
    LsClFrames *F = arg;
    pthread_mutex_lock(&F->lock);
    for (;;) {
        while (!F->stop && !F->n_jobs)
            pthread_cond_wait(&F->wake, &F->lock);
        if (!F->n_jobs)
            break; /* stop, and nothing left to pack */
        const unsigned k = F->jobs[0];
        memmove(F->jobs, F->jobs + 1, --F->n_jobs * sizeof(F->jobs[0]));
        pthread_mutex_unlock(&F->lock);
        FrameSlot *s = &F->slot[k];
        const double t0 = F->timing ? now_ms() : 0.0;
        ls_frame_pack(&F->packer, &F->layout, s->host, &s->held[0], &s->held[1]);
        if (F->timing)
            F->pack_ms += now_ms() - t0;
        /* the job's own reference: the caller may release the slot's as soon as the upload this
         * completes is done, while this call may still be using the event */
        const cl_event packed = F->pack_event[k];
        F->dev->cl->clSetUserEventStatus(packed, CL_COMPLETE);
        F->dev->cl->clReleaseEvent(packed);
        pthread_mutex_lock(&F->lock);
    }
    pthread_mutex_unlock(&F->lock);
    return NULL;
}

static void frames_destroy(void *obj)
{
    LsClFrames *F = obj;
    if (F->pack_thread_up) {
        pthread_mutex_lock(&F->lock);
        F->stop = 1;
        pthread_cond_signal(&F->wake);
        pthread_mutex_unlock(&F->lock);
        pthread_join(F->pack_thread, NULL); /* it packs what was queued first */
    }
    if (F->packer_up)
        ls_frame_packer_close(&F->packer);
    if (F->dev) {
        const LsClFns *cl = F->dev->cl;
        char err[256];
        for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
            FrameSlot *s = &F->slot[i];
            if (s->queue)
                cl->clFinish(s->queue);
            frames_slot_idle(F, s, err, sizeof(err));
            if (s->host && s->queue) {
                cl->clEnqueueUnmapMemObject(s->queue, s->staging, s->host, 0, NULL, NULL);
                cl->clFinish(s->queue);
            }
            if (s->staging)
                cl->clReleaseMemObject(s->staging);
            if (s->input)
                cl->clReleaseMemObject(s->input);
            if (s->queue)
                cl->clReleaseCommandQueue(s->queue);
        }
    }
    if (F->sync_up) {
        pthread_cond_destroy(&F->wake);
        pthread_mutex_destroy(&F->lock);
    }
    if (F->timing && F->frames)
        fprintf(stderr,
                "lockstep opencl timing frames: %u frames (%u uploaded straight from pinned "
                "pictures), %u plane(s) each, %.1f MB: per frame host pack %.3f ms, wait for a "
                "free slot %.3f ms\n",
                F->frames, F->direct_frames, F->layout.n_planes, (double)F->layout.size / 1e6,
                F->pack_ms / F->frames, F->staging_wait_ms / F->frames);
    free(F);
}

static void *frames_create(void *arg, int *err_out)
{
    const FramesArgs *a = arg;
    LsClFrames *F = calloc(1, sizeof(*F));
    if (!F)
        return NULL;
    char err[1024];
    int ret = 0;
    F->host = ls_cl_host_get(a->fex->shared, a->fex->gpu_index, &ret, err, sizeof(err));
    if (!F->host) {
        ls_fex_error(a->fex, "%s", err);
        *err_out = ret;
        free(F);
        return NULL;
    }
    F->dev = ls_cl_host_device(F->host);
    F->fmt = a->fmt;
    F->bpc = a->bpc;
    F->timing = timing_enabled();
    F->n_planes_input = ls_plane_sizes(a->fmt, a->w, a->h, F->w, F->h);
    const char *pack = getenv("LOCKSTEP_OPENCL_PACK");
    F->async_pack = !(pack && !strcmp(pack, "sync"));
    if (pthread_mutex_init(&F->lock, NULL) || pthread_cond_init(&F->wake, NULL)) {
        free(F);
        return NULL;
    }
    F->sync_up = 1;
    cl_int rc = CL_SUCCESS;
    for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
        F->slot[i].queue = F->dev->cl->clCreateCommandQueue(F->dev->ctx, F->dev->device, 0, &rc);
        LS_CL_TRY(err, sizeof(err), "clCreateCommandQueue", rc);
    }
    return F;
fail:
    ls_fex_error(a->fex, "%s", err);
    *err_out = ret;
    frames_destroy(F);
    return NULL;
}

/* Fixes the layout at the first frame: every twin of the context has joined by then. */
static int frames_start(LsClFrames *F, char *err, size_t err_len)
{
    const LsClFns *cl = F->dev->cl;
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    ls_frame_layout_init(&F->layout, F->n_planes, F->bpc, F->w, F->h);
    /* a frame too large for the device is refused with its sizes before any of its buffers is
     * allocated (the staging buffers are host memory) */
    size_t frame_buffers[LS_CL_SLOTS];
    for (unsigned i = 0; i < LS_CL_SLOTS; i++)
        frame_buffers[i] = F->layout.size;
    if ((ret = ls_opencl_check_memory(F->dev, frame_buffers, LS_CL_SLOTS, F->w[0], F->h[0], err,
                                      err_len)) < 0)
        return ret;
    for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
        FrameSlot *s = &F->slot[i];
        s->input = cl->clCreateBuffer(F->dev->ctx, CL_MEM_READ_ONLY, F->layout.size, NULL, &rc);
        LS_CL_TRY(err, err_len, "clCreateBuffer(frame)", rc);
    }
    F->started = 1;
    return 0;
fail:
    return ret;
}

/* Slot s's staging buffer and the packing threads, made for the first frame whose pictures are
 * not pinned (none when every picture comes from the pinned pool). */
static int frames_staging(LsClFrames *F, FrameSlot *s, char *err, size_t err_len)
{
    const LsClFns *cl = F->dev->cl;
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    if (!F->packer_up) {
        if ((ret = ls_frame_packer_init(&F->packer, F->layout.size)) < 0) {
            snprintf(err, err_len, "cannot start the frame packing threads");
            return ret;
        }
        F->packer_up = 1;
        if (F->async_pack && pthread_create(&F->pack_thread, NULL, pack_thread, F))
            F->async_pack = 0; /* no thread: pack in the caller */
        F->pack_thread_up = F->async_pack;
    }
    if (s->staging)
        return 0;
    s->staging = cl->clCreateBuffer(F->dev->ctx, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                    F->layout.size, NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateBuffer(staging)", rc);
    s->host = cl->clEnqueueMapBuffer(s->queue, s->staging, CL_TRUE, CL_MAP_WRITE, 0,
                                     F->layout.size, 0, NULL, NULL, &rc);
    LS_CL_TRY(err, err_len, "clEnqueueMapBuffer(staging)", rc);
fail:
    return ret;
}

/* Frame pair ref, dis uploaded into slot s straight from the pinned pictures: one non-blocking
 * write per plane, the last one's event marking the upload's end. */
static int frames_upload_direct(LsClFrames *F, FrameSlot *s, const VmafPicture *ref,
                                const VmafPicture *dis, char *err, size_t err_len)
{
    const LsClFns *cl = F->dev->cl;
    const LsFrameLayout *l = &F->layout;
    int ret = 0;
    /* the DMA reads the pictures after extract returns: hold them until it is done */
    ls_picture_ref(&s->held[0], ref);
    ls_picture_ref(&s->held[1], dis);
    s->holding = 1;
    for (unsigned side = 0; side < 2; side++) {
        const VmafPicture *pic = side ? dis : ref;
        for (unsigned p = 0; p < l->n_planes; p++) {
            const int last = side == 1 && p + 1 == l->n_planes;
            LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer(plane)",
                      cl->clEnqueueWriteBuffer(s->queue, s->input, CL_FALSE, l->offset[side][p],
                                               l->row_bytes[p] * l->h[p], pic->data[p], 0, NULL,
                                               last ? &s->uploaded : NULL));
        }
    }
    F->direct_frames++;
fail:
    return ret;
}

/* The slot that holds frame `index` on the device, uploading it if no twin has yet. */
static int frames_acquire(LsClFrames *F, unsigned index, const VmafPicture *ref,
                          const VmafPicture *dis, unsigned *slot_out, char *err, size_t err_len)
{
    const LsClFns *cl = F->dev->cl;
    for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
        if (F->slot[i].valid && F->slot[i].index == index) {
            *slot_out = i;
            return 0;
        }
    }
    int ret = F->started ? 0 : frames_start(F, err, err_len);
    if (ret < 0)
        return ret;
    const unsigned k = F->next;
    FrameSlot *s = &F->slot[k];
    /* the staging buffer is refilled once its last upload is done; the device copy is
     * overwritten in queue order, after the kernels that read the slot's previous frame */
    const double t0 = F->timing ? now_ms() : 0.0;
    if ((ret = frames_slot_idle(F, s, err, err_len)) < 0)
        return ret;
    const double t1 = F->timing ? now_ms() : 0.0;
    s->valid = 0;
    if (F->timing)
        F->staging_wait_ms += t1 - t0;
    if (ls_cl_host_direct(F->host, &F->layout, ref) &&
        ls_cl_host_direct(F->host, &F->layout, dis)) {
        if ((ret = frames_upload_direct(F, s, ref, dis, err, err_len)) < 0)
            return ret;
    } else if ((ret = frames_staging(F, s, err, err_len)) < 0) {
        return ret;
    } else if (!F->async_pack) {
        ls_frame_pack(&F->packer, &F->layout, s->host, ref, dis);
        if (F->timing)
            F->pack_ms += now_ms() - t1;
        LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer(frame)",
                  cl->clEnqueueWriteBuffer(s->queue, s->input, CL_FALSE, 0, F->layout.size,
                                           s->host, 0, NULL, &s->uploaded));
    } else {
        cl_int rc = CL_SUCCESS;
        s->packed = cl->clCreateUserEvent(F->dev->ctx, &rc);
        LS_CL_TRY(err, err_len, "clCreateUserEvent", rc);
        /* the pack thread reads the pictures after extract returns: hold them until the upload
         * is done */
        ls_picture_ref(&s->held[0], ref);
        ls_picture_ref(&s->held[1], dis);
        s->holding = 1;
        rc = cl->clEnqueueWriteBuffer(s->queue, s->input, CL_FALSE, 0, F->layout.size, s->host, 1,
                                      &s->packed, &s->uploaded);
        if (rc != CL_SUCCESS) {
            cl->clSetUserEventStatus(s->packed, CL_COMPLETE);
            LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer(frame)", rc);
        }
        cl->clRetainEvent(s->packed);
        pthread_mutex_lock(&F->lock);
        F->pack_event[k] = s->packed;
        F->jobs[F->n_jobs++] = k; /* at most one per slot: the slot was idle */
        pthread_cond_signal(&F->wake);
        pthread_mutex_unlock(&F->lock);
    }
    s->valid = 1;
    s->index = index;
    F->frames++;
    F->next = (k + 1) % LS_CL_SLOTS;
    *slot_out = k;
    return 0;
fail:
    return ret;
}

/* ---- per twin ---- */

static LsClTwin *twin_of(LsFex *fex)
{
    const LsClTwinDesc *d = fex->ex->backend_desc;
    return (LsClTwin *)((char *)fex->priv + d->twin_offset);
}

int ls_cl_twin_alloc(LsClTwin *t, cl_mem *mem, size_t bytes)
{
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    *mem = NULL;
    if (t->n_buffers == LS_CL_MAX_BUFFERS) {
        snprintf(t->err, sizeof(t->err), "more than %d device buffers", LS_CL_MAX_BUFFERS);
        return -ENOMEM;
    }
    if ((ret = ls_opencl_check_memory(t->dev, &bytes, 1, t->frames->w[0], t->frames->h[0], t->err,
                                      sizeof(t->err))) < 0)
        return ret;
    *mem = t->dev->cl->clCreateBuffer(t->dev->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL,
                                      &rc);
    LS_CL_TRY(t->err, sizeof(t->err), "clCreateBuffer", rc);
    t->buffer[t->n_buffers++] = *mem;
fail:
    return ret;
}

int ls_cl_twin_adopt(LsClTwin *t, cl_mem mem)
{
    if (t->n_buffers == LS_CL_MAX_BUFFERS) {
        t->dev->cl->clReleaseMemObject(mem);
        snprintf(t->err, sizeof(t->err), "more than %d device buffers", LS_CL_MAX_BUFFERS);
        return -ENOMEM;
    }
    t->buffer[t->n_buffers++] = mem;
    return 0;
}

int ls_cl_twin_upload(LsClTwin *t, cl_mem *mem, const void *src, size_t bytes)
{
    int ret = ls_cl_twin_alloc(t, mem, bytes);
    if (ret < 0 || !bytes)
        return ret;
    LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueWriteBuffer",
              t->dev->cl->clEnqueueWriteBuffer(t->frames->slot[0].queue, *mem, CL_TRUE, 0, bytes,
                                               src, 0, NULL, NULL));
fail:
    return ret;
}

int ls_cl_twin_zero(LsClTwin *t, const LsClFrame *f, cl_mem mem, size_t offset, size_t bytes)
{
    int ret = 0;
    const cl_uint zero = 0;
    if (!bytes)
        return 0;
    /* whole 32-bit patterns: every buffer here holds 32- or 64-bit values */
    LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueFillBuffer",
              t->dev->cl->clEnqueueFillBuffer(f->queue, mem, &zero, sizeof(zero), offset, bytes, 0,
                                              NULL, NULL));
fail:
    return ret;
}

int ls_cl_twin_launch(LsClTwin *t, const LsClFrame *f, unsigned kernel, unsigned dims,
                      const size_t *global, const size_t *local, const LsClArg *args,
                      unsigned n_args)
{
    const LsClFns *cl = t->dev->cl;
    int ret = 0;
    cl_kernel k = t->kernel[kernel];
    size_t g[3];
    for (unsigned i = 0; i < n_args; i++)
        LS_CL_TRY(t->err, sizeof(t->err), "clSetKernelArg",
                  cl->clSetKernelArg(k, i, args[i].size, args[i].value));
    for (unsigned d = 0; d < dims; d++) {
        g[d] = global[d];
        if (local)
            g[d] = (g[d] + local[d] - 1) / local[d] * local[d];
        if (!g[d])
            return 0; /* nothing to do */
    }
    {
        char call[160];
        snprintf(call, sizeof(call), "clEnqueueNDRangeKernel(%s)", t->desc->kernels[kernel]);
        LS_CL_TRY(t->err, sizeof(t->err), call,
                  cl->clEnqueueNDRangeKernel(f->queue, k, dims, NULL, g, local, 0, NULL, NULL));
    }
fail:
    return ret;
}

int ls_cl_twin_after_previous(LsClTwin *t, const LsClFrame *f)
{
    int ret = 0;
    if (!t->previous)
        return 0;
    LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueBarrierWithWaitList",
              t->dev->cl->clEnqueueBarrierWithWaitList(f->queue, 1, &t->previous, NULL));
fail:
    return ret;
}

static void twin_release(LsClTwin *t)
{
    if (!t->dev)
        return;
    const LsClFns *cl = t->dev->cl;
    for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
        LsClTwinSlot *s = &t->slot[i];
        if (s->done) {
            cl->clWaitForEvents(1, &s->done);
            cl->clReleaseEvent(s->done);
        }
        if (s->mapped) {
            cl->clEnqueueUnmapMemObject(t->frames->slot[i].queue, s->host, s->mapped, 0, NULL,
                                        NULL);
            cl->clFinish(t->frames->slot[i].queue);
        }
        if (s->host)
            cl->clReleaseMemObject(s->host);
        if (s->result)
            cl->clReleaseMemObject(s->result);
        memset(s, 0, sizeof(*s));
    }
    if (t->previous)
        cl->clReleaseEvent(t->previous);
    t->previous = NULL;
    for (unsigned i = 0; i < t->n_buffers; i++)
        cl->clReleaseMemObject(t->buffer[i]);
    t->n_buffers = 0;
    for (unsigned i = 0; i < LS_CL_MAX_KERNELS; i++)
        if (t->kernel[i])
            cl->clReleaseKernel(t->kernel[i]);
    memset(t->kernel, 0, sizeof(t->kernel));
    if (t->prog)
        cl->clReleaseProgram(t->prog);
    t->prog = NULL;
    t->dev = NULL;
    if (t->timing && t->timed_frames)
        fprintf(stderr,
                "lockstep opencl timing %s: %u frames, per frame: host enqueue %.3f ms, host "
                "wait %.3f ms\n",
                t->desc->name, t->timed_frames, t->enqueue_ms / t->timed_frames,
                t->wait_ms / t->timed_frames);
}

int ls_cl_twin_open(LsClTwin *t, LsFex *fex, const LsClTwinDesc *desc, enum VmafPixelFormat fmt,
                    unsigned bpc, unsigned w, unsigned h, unsigned n_planes)
{
    memset(t, 0, sizeof(*t));
    t->desc = desc;
    t->timing = timing_enabled();
    char key[64];
    snprintf(key, sizeof(key), "opencl-frames:%d", fex->gpu_index);
    FramesArgs args = { fex, fmt, bpc, w, h };
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    t->frames = ls_shared_get(fex->shared, key, frames_create, &args, frames_destroy, &ret);
    if (!t->frames)
        return ls_fex_error(fex, "%s (opencl): %s", desc->name, lockstep_last_error()),
               ret ? ret : -ENOMEM;
    if (t->frames->started)
        return ls_fex_error(fex, "%s (opencl): twins must all be set up before the first frame",
                            desc->name);
    if (n_planes > t->frames->n_planes_input)
        n_planes = t->frames->n_planes_input;
    if (n_planes > t->frames->n_planes)
        t->frames->n_planes = n_planes;
    t->dev = t->frames->dev;
    const LsClFns *cl = t->dev->cl;
    if ((ret = ls_opencl_build(t->dev, desc->source, &t->prog, t->err, sizeof(t->err))) < 0) {
        /* the integer division emulation is the one build configuration a kernel may refuse
         * (#error): such a device leaves the feature to the CPU */
        if (t->dev->emulate_div_sqrt)
            ret = -ENOTSUP;
        goto fail;
    }
    for (unsigned k = 0; k < desc->n_kernels; k++)
        if ((ret = ls_opencl_kernel(t->dev, t->prog, desc->kernels[k],
                                    (int)((desc->wg_kernels >> k) & 1u), &t->kernel[k], t->err,
                                    sizeof(t->err))) < 0)
            goto fail;
    t->result_bytes = desc->result_size ? desc->result_size(fex) : desc->result_bytes;
    const size_t bytes = t->result_bytes ? t->result_bytes : 4;
    for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
        LsClTwinSlot *s = &t->slot[i];
        s->result = cl->clCreateBuffer(t->dev->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc);
        LS_CL_TRY(t->err, sizeof(t->err), "clCreateBuffer(result)", rc);
        s->host = cl->clCreateBuffer(t->dev->ctx, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                     bytes, NULL, &rc);
        LS_CL_TRY(t->err, sizeof(t->err), "clCreateBuffer(result, host)", rc);
        s->mapped = cl->clEnqueueMapBuffer(t->frames->slot[i].queue, s->host, CL_TRUE,
                                           CL_MAP_READ, 0, bytes, 0, NULL, NULL, &rc);
        LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueMapBuffer(result)", rc);
    }
    if (desc->setup && (ret = desc->setup(fex, t)) < 0)
        goto fail;
    t->open = 1;
    ls_log(VMAF_LOG_LEVEL_INFO, "%s: OpenCL device %d: %s%s", fex->instance_name, fex->gpu_index,
           t->dev->description,
           t->dev->emulate_div_sqrt ? " (fp32 division emulated with integers)" : "");
    return 0;
fail:
    ls_fex_error(fex, "%s (opencl): %s", desc->name, t->err);
    twin_release(t);
    return ret;
}

/* Waits for the twin's frame in slot s and writes its scores. */
static int collect(LsFex *fex, LsClTwin *t, LsClTwinSlot *s, LsCollector *fc)
{
    const double t0 = t->timing ? now_ms() : 0.0;
    int ret = 0;
    s->pending = 0;
    LS_CL_TRY(t->err, sizeof(t->err), "clWaitForEvents", t->dev->cl->clWaitForEvents(1, &s->done));
    t->dev->cl->clReleaseEvent(s->done);
    s->done = NULL;
    if (t->timing) {
        t->wait_ms += now_ms() - t0;
        t->timed_frames++;
    }
    return t->desc->collect(fex, s->mapped, s->index, fc);
fail:
    ls_fex_error(fex, "%s (opencl): %s", t->desc->name, t->err);
    return ret;
}

/* Collects pending frames, oldest first, until slot k is free. */
static int collect_until_free(LsFex *fex, LsClTwin *t, unsigned k, LsCollector *fc)
{
    int err = 0;
    while (!err && t->slot[k].pending) {
        LsClTwinSlot *oldest = NULL;
        for (unsigned i = 0; i < LS_CL_SLOTS; i++) {
            LsClTwinSlot *s = &t->slot[i];
            if (s->pending && (!oldest || s->index < oldest->index))
                oldest = s;
        }
        err = collect(fex, t, oldest, fc);
    }
    return err;
}

int ls_cl_twin_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                       unsigned index, LsCollector *fc)
{
    LsClTwin *t = twin_of(fex);
    const LsClFns *cl = t->dev->cl;
    if (fex->ex->flags & LS_FEX_TEMPORAL) {
        if (index != t->n_frames)
            return ls_fex_error(fex,
                                "%s: frame %u arrived after %u frames; it needs every frame in "
                                "order",
                                t->desc->name, index, t->n_frames);
        t->n_frames++;
    }
    unsigned k = 0;
    int ret = frames_acquire(t->frames, index, ref, dist, &k, t->err, sizeof(t->err));
    if (ret < 0)
        goto fail;
    if ((ret = collect_until_free(fex, t, k, fc)) < 0)
        return ret;
    const double t0 = t->timing ? now_ms() : 0.0;
    FrameSlot *fs = &t->frames->slot[k];
    LsClTwinSlot *s = &t->slot[k];
    LsClFrame f = { .index = index, .slot = k, .queue = fs->queue, .input = fs->input,
                    .result = s->result, .layout = &t->frames->layout };
    for (unsigned p = 0; p < f.layout->n_planes; p++) {
        f.ref[p] = f.layout->offset[0][p];
        f.dis[p] = f.layout->offset[1][p];
    }
    const size_t bytes = t->result_bytes;
    if ((ret = ls_cl_twin_zero(t, &f, s->result, 0, bytes)) < 0 ||
        (ret = t->desc->enqueue(fex, t, &f)) < 0)
        goto fail;
    if (bytes)
        LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueReadBuffer(result)",
                  cl->clEnqueueReadBuffer(f.queue, s->result, CL_FALSE, 0, bytes, s->mapped, 0,
                                          NULL, &s->done));
    else
        LS_CL_TRY(t->err, sizeof(t->err), "clEnqueueBarrierWithWaitList",
                  cl->clEnqueueBarrierWithWaitList(f.queue, 0, NULL, &s->done));
    LS_CL_TRY(t->err, sizeof(t->err), "clFlush", cl->clFlush(f.queue));
    if (t->previous)
        cl->clReleaseEvent(t->previous);
    t->previous = s->done;
    cl->clRetainEvent(t->previous);
    s->pending = 1;
    s->index = index;
    if (t->timing)
        t->enqueue_ms += now_ms() - t0;
    return 0;
fail:
    ls_fex_error(fex, "%s (opencl): %s", t->desc->name, t->err);
    return ret;
}

int ls_cl_twin_drain(LsFex *fex, LsCollector *fc)
{
    LsClTwin *t = twin_of(fex);
    int err = 0;
    for (unsigned k = 0; k < LS_CL_SLOTS && !err; k++)
        err = collect_until_free(fex, t, k, fc);
    return err;
}

int ls_cl_twin_flush(LsFex *fex, LsCollector *fc)
{
    LsClTwin *t = twin_of(fex);
    int err = ls_cl_twin_drain(fex, fc);
    if (!err && t->desc->finish)
        err = t->desc->finish(fex, fc);
    return err;
}

void ls_cl_twin_close(LsFex *fex)
{
    LsClTwin *t = twin_of(fex);
    twin_release(t);
    t->open = 0;
    if (t->desc && t->desc->teardown)
        t->desc->teardown(fex);
}
