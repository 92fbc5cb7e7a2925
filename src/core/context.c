/* The scoring context: libvmaf's call sequence (init, use feature, read pictures, flush, pool,
 * write, close) over the registry, the collector and a worker pool.
 *
 * Scheduling: extractors without flags run on workers for any frame in any order; TEMPORAL ones
 * run on workers one call at a time in index order; SERIAL ones (GPU twins, which keep a device
 * stream) run in the calling thread in index order. Frame 0 runs entirely in the calling thread,
 * in registration order, and the twins write its scores before the next extractor runs (drain),
 * so the order of output names depends neither on thread timing nor on the backend. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/collector.h"
#include "core/context.h"
#include "core/cpu.h"
#include "core/dict.h"
#include "core/log.h"
#include "core/output.h"
#include "core/picture_ref.h"
#include "core/registry.h"
#include "core/upload_sink.h"

typedef struct Slot {
    LsFex fex;
    LsOptionValue *values;       /* owned copies of the options given */
    unsigned n_values;
    int initialized;
    int busy;                    /* TEMPORAL: a call is running */
} Slot;

/* The jobs of one frame: the frame counts as in flight until its last job is done. */
typedef struct FrameJobs {
    unsigned pending;
} FrameJobs;

typedef struct Job {
    Slot *slot;
    FrameJobs *frame;
    VmafPicture ref, dist;
    unsigned index;
    struct Job *next;
} Job;

struct VmafContext {
    VmafConfiguration cfg;
    uint64_t cpu_flags;
    LsCollector *fc;
    Slot **slot;
    unsigned n_slot, cap_slot;
    enum LockstepBackend backend;
    int gpu;
    int have_geometry;
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
    unsigned pic_cnt;
    int flushed;

    /* a shard (lockstep_set_frame_range): frames [range_first, range_end) are reported; the
     * temporal extractors also score [read_first, read_end) around them, numbered from
     * read_first, and write through `view`, which drops the context frames' scores */
    int sharded;
    unsigned range_first, range_end, read_first, read_end;
    int context_delta[2];        /* tests: fewer or more context frames than declared */
    unsigned range_cnt;          /* frames of the range read */
    LsCollector *view;
    /* a merged context (lockstep_merge_shards): the models the shards scored */
    LockstepShardModel *models;
    unsigned n_models;
    LsPicturePool *pool;
    VmafPictureConfiguration pool_cfg; /* the pool's geometry: pictures lent beside it */
    LsShared *shared;            /* what the extractors share (a GPU frame pipeline) */

    /* workers */
    pthread_t *thread;
    unsigned n_thread;
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    Job *head, *tail;
    unsigned queued, running, frames_in_flight;
    int stop;
    int error;                   /* first extractor error, sticky */
    char error_msg[1024];
};

static void set_error(VmafContext *ctx, int err, const char *msg)
{
    if (!ctx->error) {
        ctx->error = err;
        snprintf(ctx->error_msg, sizeof(ctx->error_msg), "%s", msg);
    }
}

int ls_fex_error(const LsFex *fex, const char *fmt, ...)
{
    (void)fex;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    ls_set_error("%s", buf);
    return -EINVAL;
}

void ls_fex_feature_name(const LsFex *fex, char *out, size_t out_len, const char *base,
                         const char *alias)
{
    ls_feature_param_name(out, out_len, base, alias, fex->ex->options, fex->priv);
}

/* Where extractors write: the shard's view, else the collector. */
static LsCollector *extractor_collector(VmafContext *ctx) { return ctx->view ? ctx->view : ctx->fc; }

/* Records an extractor's failure at a frame as the run's error; returns err. */
static int extractor_failed(VmafContext *ctx, const Slot *s, int err, unsigned index)
{
    if (err) {
        char msg[1024];
        const char *why = lockstep_last_error();
        snprintf(msg, sizeof(msg), "problem with feature extractor \"%s\" at index %u%s%s",
                 s->fex.ex->name, index, *why ? ": " : "", why);
        pthread_mutex_lock(&ctx->lock);
        set_error(ctx, err, msg);
        pthread_mutex_unlock(&ctx->lock);
    }
    return err;
}

/* index: the video's frame number; the extractors count from the first frame they are given. */
static int run_extract(VmafContext *ctx, Slot *s, const VmafPicture *ref, const VmafPicture *dist,
                       unsigned index)
{
    const unsigned stream_index = index - (ctx->sharded ? ctx->read_first : 0);
    /* packed pictures (ls_picture_packed10) are the CUDA twins' alone */
    if (s->fex.ex->backend != LOCKSTEP_BACKEND_CUDA &&
        (ls_picture_packed10(ref) || ls_picture_packed10(dist)))
        return extractor_failed(
            ctx, s,
            ls_fex_error(&s->fex, "a packed 10-bit picture reached an extractor that does not "
                                  "read it"),
            index);
    return extractor_failed(ctx, s, s->fex.ex->extract(&s->fex, ref, dist, stream_index,
                                                       extractor_collector(ctx)), index);
}

/* A GPU twin's scores of the frames it has in flight, written now (LsExtractor.drain). */
static int run_drain(VmafContext *ctx, Slot *s, unsigned index)
{
    return extractor_failed(ctx, s, s->fex.ex->drain(&s->fex, extractor_collector(ctx)), index);
}

/* ---- workers ---- */

static Job *take_runnable(VmafContext *ctx)
{
    Job *prev = NULL;
    for (Job *j = ctx->head; j; prev = j, j = j->next) {
        Slot *s = j->slot;
        if (s->fex.ex->flags & LS_FEX_TEMPORAL) {
            if (s->busy)
                continue;
            /* only the oldest queued job of a temporal slot may run */
            int older = 0;
            for (Job *k = ctx->head; k != j; k = k->next)
                if (k->slot == s) {
                    older = 1;
                    break;
                }
            if (older)
                continue;
            s->busy = 1;
        }
        if (prev)
            prev->next = j->next;
        else
            ctx->head = j->next;
        if (ctx->tail == j)
            ctx->tail = prev;
        ctx->queued--;
        return j;
    }
    return NULL;
}

static void *worker(void *arg)
{
    VmafContext *ctx = arg;
    pthread_mutex_lock(&ctx->lock);
    for (;;) {
        Job *j = NULL;
        while (!ctx->stop && !(j = take_runnable(ctx)))
            pthread_cond_wait(&ctx->work, &ctx->lock);
        if (!j)
            break;
        ctx->running++;
        pthread_mutex_unlock(&ctx->lock);
        if (!ctx->error)
            run_extract(ctx, j->slot, &j->ref, &j->dist, j->index);
        vmaf_picture_unref(&j->ref);
        vmaf_picture_unref(&j->dist);
        pthread_mutex_lock(&ctx->lock);
        if (j->slot->fex.ex->flags & LS_FEX_TEMPORAL)
            j->slot->busy = 0;
        ctx->running--;
        if (!--j->frame->pending) {
            free(j->frame);
            ctx->frames_in_flight--;
        }
        free(j);
        pthread_cond_broadcast(&ctx->work);
        pthread_cond_broadcast(&ctx->done);
    }
    pthread_mutex_unlock(&ctx->lock);
    return NULL;
}

static int submit(VmafContext *ctx, FrameJobs **frame, Slot *s, const VmafPicture *ref,
                  const VmafPicture *dist, unsigned index)
{
    Job *j = calloc(1, sizeof(*j));
    if (!j)
        return -ENOMEM;
    if (!*frame) {
        if (!(*frame = calloc(1, sizeof(**frame)))) {
            free(j);
            return -ENOMEM;
        }
        /* the submitter's own hold, released by release_frame once every job is queued, so
         * that a fast first job cannot retire the frame while later ones are being added */
        (*frame)->pending = 1;
        pthread_mutex_lock(&ctx->lock);
        ctx->frames_in_flight++;
        pthread_mutex_unlock(&ctx->lock);
    }
    j->frame = *frame;
    j->slot = s;
    ls_picture_ref(&j->ref, ref);
    ls_picture_ref(&j->dist, dist);
    j->index = index;
    pthread_mutex_lock(&ctx->lock);
    j->frame->pending++;
    if (ctx->tail)
        ctx->tail->next = j;
    else
        ctx->head = j;
    ctx->tail = j;
    ctx->queued++;
    pthread_cond_signal(&ctx->work);
    pthread_mutex_unlock(&ctx->lock);
    return 0;
}

static void release_frame(VmafContext *ctx, FrameJobs *frame)
{
    if (!frame)
        return;
    pthread_mutex_lock(&ctx->lock);
    if (!--frame->pending) {
        free(frame);
        ctx->frames_in_flight--;
        pthread_cond_broadcast(&ctx->done);
    }
    pthread_mutex_unlock(&ctx->lock);
}

/* Bounds the frames held by unfinished jobs, so memory stays constant however fast the reader is:
 * at most n_threads + 1 frames (lockstep_max_frames_held) besides the one being handed in. */
static void wait_frames_below(VmafContext *ctx, unsigned limit)
{
    pthread_mutex_lock(&ctx->lock);
    while (ctx->frames_in_flight > limit)
        pthread_cond_wait(&ctx->done, &ctx->lock);
    pthread_mutex_unlock(&ctx->lock);
}

unsigned lockstep_max_frames_held(VmafContext *ctx)
{
    if (!ctx)
        return 0;
    unsigned gpu = 0;
    for (unsigned i = 0; i < ctx->n_slot; i++)
        if (ctx->slot[i]->fex.ex->frames_held > gpu)
            gpu = ctx->slot[i]->fex.ex->frames_held;
    return (ctx->n_thread ? ctx->n_thread + 1 : 0) + gpu;
}

/* ---- API ---- */

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg)
{
    if (!vmaf)
        return -EINVAL;
    VmafContext *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return -ENOMEM;
    ctx->cfg = cfg;
    ls_log_set_level(cfg.log_level);
    ctx->cpu_flags = ls_cpu_usable(cfg.cpumask);
    ctx->backend = LOCKSTEP_BACKEND_CPU;
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_cond_init(&ctx->work, NULL);
    pthread_cond_init(&ctx->done, NULL);
    int err = ls_collector_create(&ctx->fc);
    if (!err)
        err = ls_shared_create(&ctx->shared);
    if (err)
        goto error;
    if (cfg.n_threads) {
        ctx->thread = calloc(cfg.n_threads, sizeof(*ctx->thread));
        if (!ctx->thread) {
            err = -ENOMEM;
            goto error;
        }
        for (unsigned i = 0; i < cfg.n_threads; i++) {
            if (pthread_create(&ctx->thread[i], NULL, worker, ctx)) {
                err = -ENOMEM;
                goto error;
            }
            ctx->n_thread++;
        }
    }
    *vmaf = ctx;
    return 0;
error:
    vmaf_close(ctx);
    return err;
}

const char *lockstep_backend_name(enum LockstepBackend backend)
{
    switch (backend) {
    case LOCKSTEP_BACKEND_AUTO: return "auto";
    case LOCKSTEP_BACKEND_CPU: return "cpu";
    case LOCKSTEP_BACKEND_CUDA: return "cuda";
    case LOCKSTEP_BACKEND_OPENCL: return "opencl";
    }
    return "unknown";
}

static int probe(enum LockstepBackend backend, int device, char *why, size_t len)
{
    (void)device;
    switch (backend) {
    case LOCKSTEP_BACKEND_CUDA:
#if LOCKSTEP_HAVE_CUDA
        return ls_cuda_probe(device, why, len);
#else
        snprintf(why, len, "this build has no CUDA backend (nvcc was not found when it was built)");
        return -ENODEV;
#endif
    case LOCKSTEP_BACKEND_OPENCL:
#if LOCKSTEP_HAVE_OPENCL
        return ls_opencl_probe(device, why, len);
#else
        snprintf(why, len, "this build has no OpenCL backend (CL/cl.h was not found when it was built)");
        return -ENODEV;
#endif
    default:
        return 0;
    }
}

int lockstep_use_backend(VmafContext *ctx, enum LockstepBackend backend, int device)
{
    if (!ctx || device < 0)
        return -EINVAL;
    char why[512] = "";
    if (ctx->cfg.gpumask && backend != LOCKSTEP_BACKEND_CPU && backend != LOCKSTEP_BACKEND_AUTO) {
        ls_set_error("backend %s: GPUs are disabled by the gpumask", lockstep_backend_name(backend));
        return -ENODEV;
    }
    if (backend == LOCKSTEP_BACKEND_AUTO) {
        /* auto: CUDA when a device answers, else the CPU (never an emulated OpenCL device) */
        if (!ctx->cfg.gpumask && !probe(LOCKSTEP_BACKEND_CUDA, device, why, sizeof(why)))
            backend = LOCKSTEP_BACKEND_CUDA;
        else
            backend = LOCKSTEP_BACKEND_CPU;
    } else if (backend != LOCKSTEP_BACKEND_CPU) {
        const int err = probe(backend, device, why, sizeof(why));
        if (err) {
            ls_set_error("backend %s: %s", lockstep_backend_name(backend), why);
            return err;
        }
    }
    ctx->backend = backend;
    ctx->gpu = device;
    return 0;
}

static void free_slot(Slot *s)
{
    if (!s)
        return;
    if (s->initialized && s->fex.ex->close)
        s->fex.ex->close(&s->fex);
    for (unsigned i = 0; i < s->n_values; i++) {
        free((char *)s->values[i].key);
        free((char *)s->values[i].value);
    }
    free(s->values);
    free(s->fex.priv);
    free(s);
}

static int make_slot(VmafContext *ctx, const LsExtractor *ex, const LsOptionValue *values,
                     unsigned n_values, Slot **out)
{
    Slot *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->fex.ex = ex;
    s->fex.cpu_flags = ctx->cpu_flags;
    s->fex.gpu_index = ctx->gpu;
    s->fex.shared = ctx->shared;
    s->fex.priv = calloc(1, ex->priv_size ? ex->priv_size : 1);
    s->values = n_values ? calloc(n_values, sizeof(*s->values)) : NULL;
    if (!s->fex.priv || (n_values && !s->values)) {
        free_slot(s);
        return -ENOMEM;
    }
    for (unsigned i = 0; i < n_values; i++) {
        s->values[i].key = strdup(values[i].key);
        s->values[i].value = strdup(values[i].value);
        s->n_values = i + 1;
        if (!s->values[i].key || !s->values[i].value) {
            free_slot(s);
            return -ENOMEM;
        }
    }
    char err[512];
    const char *name = ex->cpu_twin ? ex->cpu_twin->name : ex->name;
    /* string options point into s->values, which live as long as the slot */
    const int ret = ls_options_apply(name, ex->options, s->fex.priv, s->values, s->n_values, err,
                                     sizeof(err));
    if (ret) {
        ls_set_error("%s", err);
        free_slot(s);
        return ret;
    }
    ls_feature_param_name(s->fex.instance_name, sizeof(s->fex.instance_name), name, NULL,
                          ex->options, s->fex.priv);
    *out = s;
    return 0;
}

int ls_context_use_extractor(VmafContext *ctx, const LsExtractor *cpu, const LsOptionValue *values,
                             unsigned n_values, bool warn_duplicate)
{
    if (ctx->have_geometry || ctx->flushed) {
        ls_set_error("%s: features must be added before the first picture", cpu->name);
        return -EINVAL;
    }
    const LsExtractor *ex = cpu;
    if (ctx->backend != LOCKSTEP_BACKEND_CPU) {
        ex = ls_extractor_find(cpu->name, ctx->backend);
        if (!ex) {
            ls_log(VMAF_LOG_LEVEL_WARNING, "%s has no %s twin: it runs on the CPU", cpu->name,
                   lockstep_backend_name(ctx->backend));
            ex = cpu;
        }
    }
    Slot *s;
    int err = make_slot(ctx, ex, values, n_values, &s);
    if (err)
        return err;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        if (!strcmp(ctx->slot[i]->fex.instance_name, s->fex.instance_name)) {
            if (warn_duplicate)
                ls_log(VMAF_LOG_LEVEL_WARNING,
                       "%s is already requested with the same output names: this request is "
                       "dropped", s->fex.instance_name);
            free_slot(s);
            return 0;
        }
    }
    if (ctx->n_slot == ctx->cap_slot) {
        const unsigned cap = ctx->cap_slot ? ctx->cap_slot * 2 : 8;
        Slot **ns = realloc(ctx->slot, cap * sizeof(*ns));
        if (!ns) {
            free_slot(s);
            return -ENOMEM;
        }
        ctx->slot = ns;
        ctx->cap_slot = cap;
    }
    ctx->slot[ctx->n_slot++] = s;
    return 0;
}

int vmaf_use_feature(VmafContext *ctx, const char *feature_name, VmafFeatureDictionary *opts_dict)
{
    if (!ctx || !feature_name)
        return -EINVAL;
    const LsExtractor *cpu = ls_extractor_find(feature_name, LOCKSTEP_BACKEND_CPU);
    if (!cpu) {
        ls_set_error("unknown feature extractor \"%s\"", feature_name);
        return -EINVAL;
    }
    unsigned n;
    const LsOptionValue *values = ls_dict_entries(opts_dict, &n);
    const int err = ls_context_use_extractor(ctx, cpu, values, n, true);
    vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

LsCollector *ls_context_collector(VmafContext *ctx) { return ctx->fc; }
unsigned ls_context_subsample(const VmafContext *ctx) { return ctx->cfg.n_subsample; }

int vmaf_import_feature_score(VmafContext *ctx, const char *feature_name, double value,
                              unsigned index)
{
    if (!ctx || !feature_name)
        return -EINVAL;
    return ls_collector_append(ctx->fc, feature_name, value, index);
}

int vmaf_preallocate_pictures(VmafContext *ctx, VmafPictureConfiguration cfg)
{
    if (!ctx || !cfg.pic_params.w || !cfg.pic_params.h || !cfg.pic_cnt || ctx->pool)
        return -EINVAL;
    ctx->pool_cfg = cfg;
    LsHostMemory host = { 0 };
#if LOCKSTEP_HAVE_OPENCL
    /* OpenCL has no way to pin memory it did not allocate (CUDA pins the pool's blocks later,
     * through use_host_memory): its twins upload straight from pictures the driver allocated */
    char why[512];
    if (ctx->backend == LOCKSTEP_BACKEND_OPENCL &&
        ls_opencl_host_memory(ctx->shared, ctx->gpu, &host, why, sizeof(why)) < 0)
        ls_log(VMAF_LOG_LEVEL_DEBUG, "opencl: the pictures are not pinned (%s): frames are "
               "staged through a copy", why);
#endif
    return ls_picture_pool_create(&ctx->pool, cfg.pic_params.pix_fmt, cfg.pic_params.bpc,
                                  cfg.pic_params.w, cfg.pic_params.h, cfg.pic_cnt, &host);
}

/* Temporal extractors (motion, speed) and GPU twins keep pictures referenced after
 * vmaf_read_pictures returns, worker threads the frames in flight: up to
 * lockstep_max_frames_held frames. A pool of fewer than twice that plus a pair (one sized for
 * libvmaf, whose extractors copy what they keep) could run dry with nothing left that would
 * give a picture back, and a blocking fetch would wait forever. From such a pool a fetch that
 * finds none free while no frame is in flight lends a picture allocated beside the pool (freed
 * at its last unref), and otherwise waits for the frames in flight, rechecking. */
int vmaf_fetch_preallocated_picture(VmafContext *ctx, VmafPicture *pic)
{
    if (!ctx || !pic || !ctx->pool)
        return -EINVAL;
    if (ls_picture_pool_count(ctx->pool) >= 2 * (lockstep_max_frames_held(ctx) + 1))
        return ls_picture_pool_fetch(ctx->pool, pic); /* always gets one back */
    for (int wait_ms = 0;; wait_ms = 2) {
        if (ls_picture_pool_fetch_within(ctx->pool, pic, wait_ms) == 0)
            return 0;
        pthread_mutex_lock(&ctx->lock);
        const bool idle = ctx->frames_in_flight == 0;
        pthread_mutex_unlock(&ctx->lock);
        if (idle) {
            const VmafPictureConfiguration *g = &ctx->pool_cfg;
            return vmaf_picture_alloc(pic, g->pic_params.pix_fmt, g->pic_params.bpc,
                                      g->pic_params.w, g->pic_params.h);
        }
    }
}

/* A twin that cannot honour an option or an input returns -ENOTSUP from init: that feature then
 * runs on the CPU for the whole run, and the log says so. */
static int init_slot(VmafContext *ctx, Slot *s)
{
    int err = s->fex.ex->init(&s->fex, ctx->fmt, ctx->bpc, ctx->w, ctx->h);
    if (err == -ENOTSUP && s->fex.ex->cpu_twin) {
        ls_log(VMAF_LOG_LEVEL_WARNING, "%s: the %s twin cannot run this input (%s): it runs on the CPU",
               s->fex.instance_name, lockstep_backend_name(s->fex.ex->backend), lockstep_last_error());
        if (s->fex.ex->close)
            s->fex.ex->close(&s->fex);
        Slot *cpu;
        if ((err = make_slot(ctx, s->fex.ex->cpu_twin, s->values, s->n_values, &cpu)))
            return err;
        /* the CPU extractor's string options point into its slot's copies of the values: they
         * move with it */
        LsFex keep = s->fex;
        s->fex = cpu->fex;
        cpu->fex = keep;
        LsOptionValue *keep_values = s->values;
        const unsigned keep_n = s->n_values;
        s->values = cpu->values;
        s->n_values = cpu->n_values;
        cpu->values = keep_values;
        cpu->n_values = keep_n;
        cpu->initialized = 0;
        free_slot(cpu);
        err = s->fex.ex->init(&s->fex, ctx->fmt, ctx->bpc, ctx->w, ctx->h);
    }
    if (err) {
        const char *why = lockstep_last_error();
        char msg[1024];
        snprintf(msg, sizeof(msg), "%s", *why ? why : "initialisation failed");
        set_error(ctx, err, msg);
        return err;
    }
    s->initialized = 1;
    return 0;
}

/* The frames a shard reads: its own, and the context its temporal extractors declare. */
static int shard_window(VmafContext *ctx)
{
    unsigned before = 0, after = 0;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        const LsFex *fex = &ctx->slot[i]->fex;
        if (!(fex->ex->flags & LS_FEX_TEMPORAL))
            continue;
        const LsExtractor *cpu = fex->ex->cpu_twin ? fex->ex->cpu_twin : fex->ex;
        if (!cpu->frames_around) {
            ls_set_error("frame range %u:%u: %s keeps state across frames and cannot score a "
                         "part of a video", ctx->range_first, ctx->range_end, cpu->name);
            return -EINVAL;
        }
        unsigned b, a;
        cpu->frames_around(fex, &b, &a);
        before = b > before ? b : before;
        after = a > after ? a : after;
    }
    const int64_t b = (int64_t)before + ctx->context_delta[0];
    const int64_t a = (int64_t)after + ctx->context_delta[1];
    const unsigned b_frames = b > 0 ? (unsigned)b : 0;
    const uint64_t end = (uint64_t)ctx->range_end + (a > 0 ? (uint64_t)a : 0);
    ctx->read_first = ctx->range_first > b_frames ? ctx->range_first - b_frames : 0;
    ctx->read_end = end > UINT_MAX ? UINT_MAX : (unsigned)end;
    return 0;
}

int ls_context_set_frame_range(VmafContext *ctx, unsigned first, unsigned end, int fewer_before,
                               int fewer_after)
{
    if (!ctx)
        return -EINVAL;
    if (first >= end) {
        ls_set_error("frame range %u:%u is empty: the end comes after the first frame", first, end);
        return -EINVAL;
    }
    if (ctx->have_geometry || ctx->flushed) {
        ls_set_error("frame range %u:%u: set it before the first picture", first, end);
        return -EINVAL;
    }
    ctx->sharded = 1;
    ctx->range_first = first;
    ctx->range_end = end;
    ctx->context_delta[0] = -fewer_before;
    ctx->context_delta[1] = -fewer_after;
    return shard_window(ctx);
}

int lockstep_set_frame_range(VmafContext *ctx, unsigned first, unsigned end)
{
    return ls_context_set_frame_range(ctx, first, end, 0, 0);
}

int lockstep_frames_to_read(VmafContext *ctx, unsigned *first, unsigned *end)
{
    if (!ctx || !first || !end)
        return -EINVAL;
    if (!ctx->sharded) {
        *first = 0;
        *end = UINT_MAX;
        return 0;
    }
    const int err = ctx->have_geometry ? 0 : shard_window(ctx);
    *first = ctx->read_first;
    *end = ctx->read_end;
    return err;
}

static int start(VmafContext *ctx, const VmafPicture *pic)
{
    if (ctx->sharded) {
        int err = shard_window(ctx);
        if (!err)
            err = ls_collector_create_view(&ctx->view, ctx->fc, ctx->read_first, ctx->range_first,
                                           ctx->range_end);
        if (err)
            return err;
    }
    ctx->fmt = pic->pix_fmt;
    ctx->bpc = pic->bpc;
    ctx->w = pic->w[0];
    ctx->h = pic->h[0];
    ctx->have_geometry = 1;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        const int err = init_slot(ctx, ctx->slot[i]);
        if (err)
            return err;
    }
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        const LsFex *fex = &ctx->slot[i]->fex;
        for (unsigned b = 0; fex->ex->use_host_memory && b < ls_picture_pool_count(ctx->pool); b++) {
            size_t size;
            void *mem = ls_picture_pool_block(ctx->pool, b, &size);
            if (fex->ex->use_host_memory(&ctx->slot[i]->fex, mem, size))
                break; /* the twin keeps its staging copy */
        }
    }
    return 0;
}

static int runs_on(const VmafContext *ctx, const Slot *s, unsigned index)
{
    const unsigned n_sub = ctx->cfg.n_subsample;
    if (s->fex.ex->flags & LS_FEX_TEMPORAL)
        return 1;
    if (ctx->sharded && (index < ctx->range_first || index >= ctx->range_end))
        return 0; /* a context frame: only the temporal extractors need it */
    return n_sub <= 1 || index % n_sub == 0;
}

static int finish_error(VmafContext *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    const int err = ctx->error;
    pthread_mutex_unlock(&ctx->lock);
    if (err)
        ls_set_error("%s", ctx->error_msg);
    return err;
}

static int flush(VmafContext *ctx)
{
    if (ctx->flushed)
        return -EINVAL;
    wait_frames_below(ctx, 0);
    ctx->flushed = 1;
    int err = finish_error(ctx);
    if (err)
        return err;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        Slot *s = ctx->slot[i];
        if (!s->initialized || !s->fex.ex->flush)
            continue;
        err = s->fex.ex->flush(&s->fex, extractor_collector(ctx));
        if (err) {
            char msg[1024];
            snprintf(msg, sizeof(msg), "problem flushing feature extractor \"%s\": %s",
                     s->fex.ex->name, lockstep_last_error());
            set_error(ctx, err, msg);
            return finish_error(ctx);
        }
    }
    return ls_context_aggregate(ctx, ctx->fc);
}

int ls_context_aggregate(VmafContext *ctx, LsCollector *fc)
{
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        Slot *s = ctx->slot[i];
        if (!s->initialized || !s->fex.ex->aggregate)
            continue;
        const int err = s->fex.ex->aggregate(&s->fex, fc);
        if (err) {
            char msg[1024];
            snprintf(msg, sizeof(msg), "problem computing the aggregates of \"%s\": %s",
                     s->fex.ex->name, lockstep_last_error());
            set_error(ctx, err, msg);
            return finish_error(ctx);
        }
    }
    return 0;
}

int vmaf_read_pictures(VmafContext *ctx, VmafPicture *ref, VmafPicture *dist, unsigned index)
{
    if (!ctx)
        return -EINVAL;
    if (!ref && !dist)
        return flush(ctx);
    if (!ref || !dist || ctx->flushed)
        return -EINVAL;
    if (ref->pix_fmt != dist->pix_fmt || ref->bpc != dist->bpc || ref->w[0] != dist->w[0] ||
        ref->h[0] != dist->h[0]) {
        ls_set_error("reference and distorted pictures differ in size, format or bit depth");
        return -EINVAL;
    }
    if (!ctx->have_geometry) {
        const int err = start(ctx, ref);
        if (err)
            return err;
    } else if (ref->pix_fmt != ctx->fmt || ref->bpc != ctx->bpc || ref->w[0] != ctx->w ||
               ref->h[0] != ctx->h) {
        ls_set_error("picture %u differs in size, format or bit depth from the first", index);
        return -EINVAL;
    }
    int err = finish_error(ctx);
    if (err)
        return err;
    if (ctx->sharded && (index != ctx->read_first + ctx->pic_cnt || index >= ctx->read_end)) {
        ls_set_error("frame range %u:%u: picture %u given where frame %u was expected (the "
                     "frames to read are %u..%u, in order)", ctx->range_first, ctx->range_end,
                     index, ctx->read_first + ctx->pic_cnt, ctx->read_first, ctx->read_end - 1);
        return -EINVAL;
    }
    /* the first frame reported runs in the calling thread, in registration order, like frame 0
     * of a whole run, so the order of output names does not depend on thread timing; the GPU
     * twins write its scores at once (drain), not frames later */
    const int first = ctx->pic_cnt == 0 || (ctx->sharded && index == ctx->range_first);
    const int sync = !ctx->n_thread || first;
    FrameJobs *frame = NULL;
    for (unsigned i = 0; i < ctx->n_slot && !err; i++) {
        Slot *s = ctx->slot[i];
        if (!runs_on(ctx, s, index))
            continue;
        if (sync || (s->fex.ex->flags & LS_FEX_SERIAL)) {
            err = run_extract(ctx, s, ref, dist, index) ? finish_error(ctx) : 0;
            if (!err && first && s->fex.ex->drain)
                err = run_drain(ctx, s, index) ? finish_error(ctx) : 0;
        } else {
            err = submit(ctx, &frame, s, ref, dist, index);
        }
    }
    release_frame(ctx, frame);
    if (err)
        return err;
    ctx->pic_cnt++;
    if (ctx->sharded && index >= ctx->range_first && index < ctx->range_end)
        ctx->range_cnt++;
    vmaf_picture_unref(ref);
    vmaf_picture_unref(dist);
    if (ctx->n_thread)
        wait_frames_below(ctx, ctx->n_thread + 1);
    return 0;
}

int vmaf_feature_score_at_index(VmafContext *ctx, const char *feature_name, double *score,
                                unsigned index)
{
    if (!ctx || !feature_name || !score)
        return -EINVAL;
    return ls_collector_get(ctx->fc, feature_name, index, score);
}

int vmaf_feature_score_pooled(VmafContext *ctx, const char *feature_name,
                              enum VmafPoolingMethod method, double *score, unsigned index_low,
                              unsigned index_high)
{
    if (!ctx || !feature_name || !score || index_low > index_high ||
        method <= VMAF_POOL_METHOD_UNKNOWN || method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    return ls_pool(ctx->fc, feature_name, method, ctx->cfg.n_subsample, index_low, index_high,
                   score);
}

int vmaf_write_output_with_format(VmafContext *ctx, const char *path, enum VmafOutputFormat fmt,
                                  const char *score_format)
{
    if (!ctx || !path)
        return -EINVAL;
    /* programs that cannot pass a format (FFmpeg's libvmaf filter) get one from the environment */
    const char *env = score_format ? NULL : getenv("LOCKSTEP_PRECISION");
    if (env && *env && !(score_format = lockstep_precision_format(env)))
        ls_log(VMAF_LOG_LEVEL_WARNING, "LOCKSTEP_PRECISION=\"%s\" ignored: expected 1..17, max, "
               "full or legacy", env);
    LsOutputInfo info;
    ls_context_output_info(ctx, &info);
    info.score_format = score_format;
    return ls_write_output(&info, path, fmt);
}

void ls_context_output_info(VmafContext *ctx, LsOutputInfo *info)
{
    *info = (LsOutputInfo){
        .fc = ctx->fc, .first = ctx->sharded ? ctx->range_first : 0,
        .pic_cnt = ctx->sharded ? ctx->range_cnt : ctx->pic_cnt,
        .n_subsample = ctx->cfg.n_subsample, .width = ctx->w, .height = ctx->h,
    };
}

unsigned lockstep_report_frames(VmafContext *ctx, unsigned *frames, unsigned max)
{
    if (!ctx)
        return 0;
    LsOutputInfo info;
    ls_context_output_info(ctx, &info);
    unsigned n = 0;
    for (unsigned i = 0, cap = ls_collector_capacity(info.fc); i < cap; i++)
        if (ls_output_frame_printed(&info, i)) {
            if (frames && n < max)
                frames[n] = i;
            n++;
        }
    return n;
}

int lockstep_report_pooled(VmafContext *ctx, const char *name, enum VmafPoolingMethod method,
                           double *score)
{
    if (!ctx || !name || !score || method <= VMAF_POOL_METHOD_UNKNOWN ||
        method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    LsOutputInfo info;
    ls_context_output_info(ctx, &info);
    if (!info.pic_cnt)
        return -EINVAL;
    return ls_pool(info.fc, name, method, info.n_subsample, info.first,
                   info.first + info.pic_cnt - 1, score);
}

int vmaf_write_output(VmafContext *ctx, const char *path, enum VmafOutputFormat fmt)
{
    return vmaf_write_output_with_format(ctx, path, fmt, NULL);
}

unsigned lockstep_feature_count(VmafContext *ctx) { return ctx ? ls_collector_count(ctx->fc) : 0; }

const char *lockstep_feature_name(VmafContext *ctx, unsigned i)
{
    if (!ctx || i >= ls_collector_count(ctx->fc))
        return NULL;
    return ls_collector_name(ctx->fc, i);
}

const char *lockstep_output_name(const char *name) { return name ? ls_output_alias(name) : NULL; }

unsigned lockstep_planes_read(VmafContext *ctx)
{
    if (!ctx || !ctx->have_geometry)
        return 0;
    unsigned n = 1;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        const unsigned k = ctx->slot[i]->fex.n_planes_read;
        if (!k || k > n)
            n = k ? k : 3;
    }
    return n;
}

LsUploadSink *ls_context_upload_sink(VmafContext *ctx)
{
    if (!ctx || !ctx->n_slot)
        return NULL;
    LsUploadSink *sink = NULL;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        LsFex *fex = &ctx->slot[i]->fex;
        LsUploadSink *s = fex->ex->upload_sink ? fex->ex->upload_sink(fex) : NULL;
        if (!s || (sink && s != sink))
            return NULL;
        sink = s;
    }
    return sink;
}

int lockstep_all_on_backend(VmafContext *ctx, enum LockstepBackend backend)
{
    if (!ctx || !ctx->n_slot || backend == LOCKSTEP_BACKEND_CPU)
        return 0;
    for (unsigned i = 0; i < ctx->n_slot; i++)
        if (ctx->slot[i]->fex.ex->backend != backend)
            return 0;
    return 1;
}

int lockstep_aggregate_score(VmafContext *ctx, const char *name, double *score)
{
    if (!ctx || !name || !score)
        return -EINVAL;
    return ls_collector_get_aggregate(ctx->fc, name, score);
}

const char *lockstep_aggregate_name(VmafContext *ctx, unsigned i)
{
    double value;
    if (!ctx || i >= ls_collector_aggregate_count(ctx->fc))
        return NULL;
    return ls_collector_aggregate_name(ctx->fc, i, &value);
}

void ls_context_shard_state(const VmafContext *ctx, LsShardState *st)
{
    *st = (LsShardState){
        .sharded = ctx->sharded, .first = ctx->range_first, .end = ctx->range_end,
        .read_first = ctx->sharded ? ctx->read_first : 0, .n_read = ctx->pic_cnt,
        .n_reported = ctx->sharded ? ctx->range_cnt : ctx->pic_cnt, .flushed = ctx->flushed,
        .fmt = ctx->fmt, .bpc = ctx->bpc, .w = ctx->w, .h = ctx->h,
        .n_subsample = ctx->cfg.n_subsample,
    };
}

unsigned ls_context_extractor_count(const VmafContext *ctx) { return ctx->n_slot; }

const char *ls_context_extractor(const VmafContext *ctx, unsigned i, const LsOptionValue **values,
                                 unsigned *n_values)
{
    const Slot *s = ctx->slot[i];
    *values = s->values;
    *n_values = s->n_values;
    return s->fex.ex->cpu_twin ? s->fex.ex->cpu_twin->name : s->fex.ex->name;
}

int ls_context_become_merged(VmafContext *ctx, enum VmafPixelFormat fmt, unsigned bpc,
                             unsigned w, unsigned h, unsigned n_frames,
                             const LockstepShardModel *models, unsigned n_models)
{
    ctx->fmt = fmt;
    ctx->bpc = bpc;
    ctx->w = w;
    ctx->h = h;
    ctx->have_geometry = 1;
    ctx->flushed = 1;
    ctx->pic_cnt = n_frames;
    for (unsigned i = 0; i < ctx->n_slot; i++) {
        const int err = init_slot(ctx, ctx->slot[i]);
        if (err)
            return finish_error(ctx);
    }
    if (n_models && !(ctx->models = calloc(n_models, sizeof(*ctx->models))))
        return -ENOMEM;
    for (unsigned i = 0; i < n_models; i++) {
        LockstepShardModel *m = &ctx->models[i];
        m->label = strdup(models[i].label);
        m->name = strdup(models[i].name);
        m->collection = models[i].collection;
        ctx->n_models = i + 1;
        if (!m->label || !m->name)
            return -ENOMEM;
    }
    return 0;
}

unsigned lockstep_frame_count(VmafContext *ctx) { return ctx ? ctx->pic_cnt : 0; }
unsigned lockstep_model_count(VmafContext *ctx) { return ctx ? ctx->n_models : 0; }

int lockstep_model_info(VmafContext *ctx, unsigned i, LockstepShardModel *model)
{
    if (!ctx || !model || i >= ctx->n_models)
        return -EINVAL;
    *model = ctx->models[i];
    return 0;
}

int vmaf_close(VmafContext *ctx)
{
    if (!ctx)
        return -EINVAL;
    if (ctx->n_thread) {
        wait_frames_below(ctx, 0);
        pthread_mutex_lock(&ctx->lock);
        ctx->stop = 1;
        pthread_cond_broadcast(&ctx->work);
        pthread_mutex_unlock(&ctx->lock);
        for (unsigned i = 0; i < ctx->n_thread; i++)
            pthread_join(ctx->thread[i], NULL);
    }
    free(ctx->thread);
    for (unsigned i = 0; i < ctx->n_models; i++) {
        free((char *)ctx->models[i].label);
        free((char *)ctx->models[i].name);
    }
    free(ctx->models);
    for (unsigned i = 0; i < ctx->n_slot; i++)
        free_slot(ctx->slot[i]);
    free(ctx->slot);
    ls_shared_destroy(ctx->shared); /* the GPU pipelines give back the pictures they hold */
    ls_collector_destroy(ctx->view);
    ls_collector_destroy(ctx->fc);
    ls_picture_pool_destroy(ctx->pool);
    pthread_mutex_destroy(&ctx->lock);
    pthread_cond_destroy(&ctx->work);
    pthread_cond_destroy(&ctx->done);
    free(ctx);
    return 0;
}

/* What computed a report (it is written into each one): lockstep, not libvmaf. */
const char *vmaf_version(void) { return "lockstep " LOCKSTEP_VERSION; }
