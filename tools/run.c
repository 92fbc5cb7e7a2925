/* A run of the command line as library calls (lockstep/run.h): parse, open the inputs, load the
 * models, set up the context, read and score the frames, predict, write the report. The CLI
 * (lockstep.c) prints what a run leaves; the Python package reads it from the context. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_models.h"
#include "cli_parse.h"
#include "core/pack10.h"
#include "core/report_file.h"
#include "core/upload_sink.h"
#include "frame_reader.h"
#include "input/input.h"
#include "lockstep/run.h"
#include "report_html.h"
#include "run_internal.h"

#define EXIT_USAGE 1
#define EXIT_INFO 2
#define EXIT_RUNTIME 255

struct LockstepRun {
    char **argv;                       /* copies: the settings point into them */
    int argc;
    CliSettings s;
    bool frames_given;                 /* lockstep_run_open_frames */
    LsVideoInfo frames;                /* their geometry */
    LsInput *ref_in, *dist_in;
    FrameReader *reader;
    VmafContext *ctx, *twin;
    CliLoadedModel models[CLI_MAX_MODELS];
    LockstepShardModel scored[CLI_MAX_MODELS];
    unsigned n_scored;
    unsigned read_first, read_end;     /* the frames to read, [read_first, read_end) */
    unsigned limit;                    /* frames to read at most (0: all) */
    unsigned n_read;                   /* frame pairs given to the context */
    unsigned first, n_out;             /* the frames reported */
    bool input_ended, finished;
    bool packing;                      /* the readers pack 10-bit frames (ls_input_pack10) */
    bool uploading;                    /* ... and send them to the twins' sink */
    bool meter;                        /* a progress meter on the terminal */
    bool meter_shown;
    uint64_t expected;                 /* frames the meter expects (0: not known, e.g. a pipe) */
    bool expected_exact;               /* false: from a container's duration */
    struct timespec t0;
    /* -o and --html: temporary files from the start, renamed once both are written */
    LsReportFile report, page;
    char err[PATH_MAX + 1400];
};

/* Records the message of a failure (and ends the progress meter's line); returns status. */
static int run_fail(LockstepRun *run, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int run_fail(LockstepRun *run, int status, const char *fmt, ...)
{
    if (run->meter_shown) {
        fputc('\n', stderr);
        run->meter_shown = false;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->err, sizeof(run->err), fmt, ap);
    va_end(ap);
    return status;
}

static const char *fmt_name(enum VmafPixelFormat f)
{
    const char *name = ls_pix_fmt_name(f);
    return name ? name : "unknown";
}

/* FFmpeg's name of a layout: yuv420p, yuv422p10le, gray12le ... */
static const char *ffmpeg_pix_fmt(const LsVideoInfo *i, char *buf, size_t len)
{
    const char *base = i->fmt == VMAF_PIX_FMT_YUV400P   ? "gray"
                       : i->fmt == VMAF_PIX_FMT_YUV422P ? "yuv422p"
                       : i->fmt == VMAF_PIX_FMT_YUV444P ? "yuv444p"
                                                        : "yuv420p";
    if (i->bpc > 8)
        snprintf(buf, len, "%s%ule", base, i->bpc);
    else
        snprintf(buf, len, "%s", base);
    return buf;
}

/* One line for all the problems, in the vmaf tool's words. A common bit depth (--aom_ctc v6.0+)
 * scores inputs of different depths at the higher one. */
static int check_compatible(LockstepRun *run, const LsVideoInfo *r, const LsVideoInfo *d)
{
    char msg[512] = "";
    size_t used = 0;
    int problems = 0;
    if (r->w != d->w || r->h != d->h)
        used += (size_t)snprintf(msg + used, sizeof(msg) - used,
                                 "; dimensions do not match: %ux%u, %ux%u", r->w, r->h, d->w,
                                 d->h), problems++;
    if (r->fmt != d->fmt && used < sizeof(msg))
        used += (size_t)snprintf(msg + used, sizeof(msg) - used,
                                 "; pixel formats do not match: %s, %s", fmt_name(r->fmt),
                                 fmt_name(d->fmt)), problems++;
    if (r->bpc != d->bpc && !run->s.common_bitdepth && used < sizeof(msg))
        used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; bitdepths do not match: %u, %u",
                                 r->bpc, d->bpc), problems++;
    /* pictures are scored as they are: scaling or converting is the user's choice */
    char pix_fmt[32];
    if (problems && used < sizeof(msg))
        snprintf(msg + used, sizeof(msg) - used, " (scale or convert one of them first, e.g. "
                 "ffmpeg -i dist.mp4 -vf scale=%u:%u -pix_fmt %s -f yuv4mpegpipe -strict -1 - | "
                 "lockstep ... -d -)", r->w, r->h, ffmpeg_pix_fmt(r, pix_fmt, sizeof(pix_fmt)));
    if (problems)
        return run_fail(run, EXIT_RUNTIME, "videos are incompatible, %d problem%s%s", problems,
                        problems > 1 ? "s" : "", msg);
    return 0;
}

static bool extractor_known(const char *name)
{
    enum LockstepBackend b;
    const char *n;
    for (unsigned i = 0; (n = lockstep_extractor_name(i, &b)); i++)
        if (b == LOCKSTEP_BACKEND_CPU && !strcmp(n, name))
            return true;
    return false;
}

static VmafContext *make_context(LockstepRun *run, enum LockstepBackend backend)
{
    const CliSettings *s = &run->s;
    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_WARNING,
        .n_threads = s->threads,
        .n_subsample = s->subsample,
        .cpumask = s->cpumask,
        .gpumask = s->gpumask,
    };
    VmafContext *ctx;
    if (vmaf_init(&ctx, cfg)) {
        run_fail(run, EXIT_RUNTIME, "problem initializing lockstep context");
        return NULL;
    }
    if (backend != LOCKSTEP_BACKEND_CPU && lockstep_use_backend(ctx, backend, s->gpu)) {
        run_fail(run, EXIT_RUNTIME, "%s", lockstep_last_error());
        vmaf_close(ctx);
        return NULL;
    }
    for (unsigned i = 0; i < s->n_models; i++) {
        const CliLoadedModel *m = &run->models[i];
        const int err = m->collection ? vmaf_use_features_from_model_collection(ctx, m->collection)
                                      : vmaf_use_features_from_model(ctx, m->model);
        if (err) {
            run_fail(run, EXIT_RUNTIME, "problem loading feature extractors from model: %s",
                     lockstep_last_error());
            vmaf_close(ctx);
            return NULL;
        }
    }
    for (unsigned i = 0; i < s->n_features; i++) {
        if (!extractor_known(s->feature[i].name)) {
            char list[512] = "";
            enum LockstepBackend b;
            const char *n;
            for (unsigned k = 0; (n = lockstep_extractor_name(k, &b)); k++)
                if (b == LOCKSTEP_BACKEND_CPU && strlen(list) + strlen(n) + 3 < sizeof(list))
                    strcat(strcat(list, *list ? ", " : ""), n);
            run_fail(run, EXIT_RUNTIME,
                     "problem loading feature extractor: unknown extractor \"%s\" (built in: %s)",
                     s->feature[i].name, list);
            vmaf_close(ctx);
            return NULL;
        }
        VmafFeatureDictionary *d;
        cli_feature_options(&s->feature[i], &d);
        /* the context consumes d whatever the outcome, the name being known */
        if (vmaf_use_feature(ctx, s->feature[i].name, d)) {
            run_fail(run, EXIT_RUNTIME, "problem loading feature extractor: %s",
                     lockstep_last_error());
            vmaf_close(ctx);
            return NULL;
        }
    }
    return ctx;
}

static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

/* Parses a copy of argv (the settings point into it). */
static int parse(LockstepRun *run, int argc, const char *const *argv)
{
    if (argc < 1 || !argv || !argv[0])
        return run_fail(run, EXIT_USAGE, "no arguments: argv[0] is the program's name");
    run->argv = calloc((size_t)argc + 1, sizeof(*run->argv));
    if (!run->argv)
        return run_fail(run, EXIT_RUNTIME, "out of memory");
    for (run->argc = 0; run->argc < argc; run->argc++)
        if (!(run->argv[run->argc] = strdup(argv[run->argc] ? argv[run->argc] : "")))
            return run_fail(run, EXIT_RUNTIME, "out of memory");
    pthread_mutex_lock(&parse_lock);
    const int r = cli_parse(run->argc, run->argv, &run->s, run->frames_given, run->err,
                            sizeof(run->err));
    pthread_mutex_unlock(&parse_lock);
    if (r != CLI_PARSE_OK)
        return r == CLI_PARSE_DONE ? EXIT_INFO : EXIT_USAGE;
    if (run->s.html_path && run->s.sharded)
        return run_fail(run, EXIT_USAGE, "%s: --html draws a whole run, not a shard: write the "
                        "page from the merged report's run, without --frame_range (see --help)",
                        run->argv[0]);
    /* an unwritable report fails before any frame is read */
    if ((run->s.output_path &&
         ls_report_begin(&run->report, run->s.output_path, run->err, sizeof(run->err))) ||
        (run->s.html_path &&
         ls_report_begin(&run->page, run->s.html_path, run->err, sizeof(run->err))))
        return EXIT_RUNTIME;
    return 0;
}

/* The models, the context(s), the frame range: what both kinds of run set up alike. */
static int set_up(LockstepRun *run)
{
    const CliSettings *s = &run->s;
    if (cli_load_models(s, run->models, run->err, sizeof(run->err)))
        return EXIT_RUNTIME;
    run->ctx = make_context(run, s->parity ? LOCKSTEP_BACKEND_CPU : s->backend);
    if (!run->ctx)
        return EXIT_RUNTIME;
    if (s->parity && !(run->twin = make_context(run, s->parity_backend)))
        return EXIT_RUNTIME;
    if (run->twin) {
        /* the twin's copies of the frames come from its own pool, which the backend pins as it
         * does the reader's: --parity checks the uploads that a run on the backend makes */
        const LsVideoInfo *f = &run->frames;
        const VmafPictureConfiguration pcfg = {
            .pic_params = { .w = f->w, .h = f->h, .bpc = f->bpc, .pix_fmt = f->fmt },
            .pic_cnt = 2 * (lockstep_max_frames_held(run->twin) + 2),
        };
        if (vmaf_preallocate_pictures(run->twin, pcfg))
            return run_fail(run, EXIT_RUNTIME, "problem with the parity run's picture pool");
    }
    run->n_scored = s->no_prediction ? 0 : s->n_models;
    for (unsigned i = 0; i < run->n_scored; i++)
        run->scored[i] = (LockstepShardModel){ run->models[i].label, s->model[i].name,
                                               run->models[i].collection != NULL };
    /* a shard reads its frames and the context around them, and one more frame to learn whether
     * the video ends there */
    run->read_first = 0;
    run->read_end = UINT_MAX;
    run->limit = s->frame_cnt;
    if (s->sharded) {
        if (lockstep_set_frame_range(run->ctx, s->range_first, s->range_end) ||
            lockstep_frames_to_read(run->ctx, &run->read_first, &run->read_end))
            return run_fail(run, EXIT_RUNTIME, "%s", lockstep_last_error());
        if (s->frame_cnt && s->frame_cnt <= s->range_first)
            return run_fail(run, EXIT_RUNTIME, "--frame_range %u:%u starts after the last frame "
                            "scored (--frame_cnt %u)", s->range_first, s->range_end,
                            s->frame_cnt);
        const uint64_t want = (uint64_t)run->read_end - run->read_first + 1;
        run->limit = want > UINT_MAX ? UINT_MAX : (unsigned)want;
        if (s->frame_cnt && s->frame_cnt - run->read_first < run->limit)
            run->limit = s->frame_cnt - run->read_first;
    }
    return 0;
}

static double seconds_since(struct timespec t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* The frames this run will score, for the time left: 0 when not known (pipes); *exact is false
 * when it comes from a container's duration. */
static uint64_t frames_expected(const LsVideoInfo *r, const LsVideoInfo *d, const CliSettings *s,
                                unsigned limit, bool *exact)
{
    const LsVideoInfo *in[2] = { r, d };
    const unsigned skip[2] = { s->skip_ref, s->skip_dist };
    uint64_t n = 0;
    *exact = true;
    for (unsigned k = 0; k < 2; k++) {
        if (!in[k]->frame_count)
            continue;
        const uint64_t left = in[k]->frame_count > skip[k] ? in[k]->frame_count - skip[k] : 0;
        if (!n || left < n)
            n = left;
        *exact = *exact && in[k]->frame_count_exact;
    }
    if (limit && (!n || limit < n)) {
        *exact = *exact && n;
        n = limit;
    }
    return n;
}

static LockstepRun *run_alloc(void)
{
    return calloc(1, sizeof(LockstepRun));
}

int lockstep_run_open(LockstepRun **out, int argc, const char *const *argv)
{
    LockstepRun *run = *out = run_alloc();
    if (!run)
        return EXIT_RUNTIME;
    int err = parse(run, argc, argv);
    if (err)
        return err;
    const CliSettings *s = &run->s;
    run->meter = isatty(2) && !s->quiet;
    char msg[512];
    const LsRawParams *raw = s->raw_given ? &s->raw : NULL;
    if (ls_input_open(&run->ref_in, s->ref_path, raw, msg, sizeof(msg)) ||
        ls_input_open(&run->dist_in, s->dist_path, raw, msg, sizeof(msg)))
        return run_fail(run, EXIT_RUNTIME, "%s", msg);
    if ((err = check_compatible(run, ls_input_info(run->ref_in), ls_input_info(run->dist_in))))
        return err;
    run->frames = *ls_input_info(run->ref_in);
    if (ls_input_info(run->dist_in)->bpc > run->frames.bpc)
        run->frames.bpc = ls_input_info(run->dist_in)->bpc;
    if ((err = set_up(run)))
        return err;
    /* a run on CUDA twins alone takes 10-bit frames packed, the upload being its floor
     * (bench/README.md); LOCKSTEP_CUDA_PACK10=0 keeps them 16-bit. Both inputs or neither, set
     * before the readers start: a pair is packed whole. */
    if (!run->twin && lockstep_all_on_backend(run->ctx, LOCKSTEP_BACKEND_CUDA) &&
        ls_pack10_wanted() && ls_input_can_pack10(run->ref_in) &&
        ls_input_can_pack10(run->dist_in)) {
        ls_input_pack10(run->ref_in);
        ls_input_pack10(run->dist_in);
        run->packing = true;
    }
    if (frame_reader_open(&run->reader, run->ctx, run->ref_in, run->dist_in,
                          s->skip_ref + run->read_first, s->skip_dist + run->read_first,
                          run->limit,
                          s->backend != LOCKSTEP_BACKEND_CPU && !s->parity
                              ? 0
                              : (s->threads ? s->threads : 1),
                          /* the CLI's CPU runs; LOCKSTEP_NO_MAP=1 copies the frames (the tests
                           * compare both ways) */
                          s->backend == LOCKSTEP_BACKEND_CPU && !s->parity &&
                              ls_report_signals_caught() &&
                              !(getenv("LOCKSTEP_NO_MAP") && *getenv("LOCKSTEP_NO_MAP") == '1')))
        return run_fail(run, EXIT_RUNTIME, "problem with picture pool or reader threads");
    run->expected = frames_expected(ls_input_info(run->ref_in), ls_input_info(run->dist_in), s,
                                    run->limit, &run->expected_exact);
    return 0;
}

int lockstep_run_open_frames(LockstepRun **out, int argc, const char *const *argv,
                             enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h)
{
    LockstepRun *run = *out = run_alloc();
    if (!run)
        return EXIT_RUNTIME;
    run->frames_given = true;
    int err = parse(run, argc, argv);
    if (err)
        return err;
    if (!ls_pix_fmt_name(pix_fmt) || bpc < 8 || bpc > 16 || !w || !h || w > LS_INPUT_MAX_DIM ||
        h > LS_INPUT_MAX_DIM)
        return run_fail(run, EXIT_USAGE, "frames of %ux%u, pixel format %d, %u bits: expected "
                        "1..%u pixels a side, 4:2:0, 4:2:2, 4:4:4 or 4:0:0, 8..16 bits", w, h,
                        (int)pix_fmt, bpc, LS_INPUT_MAX_DIM);
    run->frames = (LsVideoInfo){ .w = w, .h = h, .bpc = bpc, .fmt = pix_fmt };
    clock_gettime(CLOCK_MONOTONIC, &run->t0);
    return set_up(run);
}

int lockstep_run_count_frames(LockstepRun *run, unsigned *count)
{
    const CliSettings *s = &run->s;
    if (!run->ref_in || run->n_read)
        return run_fail(run, EXIT_USAGE, "lockstep_run_count_frames: the run has no files open, "
                        "or has read frames");
    uint64_t n;
    char err[512];
    if (ls_input_count_frames(run->ref_in, &n, err, sizeof(err)))
        return run_fail(run, EXIT_RUNTIME, "%s", err);
    n = n > s->skip_ref ? n - s->skip_ref : 0;
    if (s->frame_cnt && n > s->frame_cnt)
        n = s->frame_cnt;
    *count = n > UINT_MAX ? UINT_MAX : (unsigned)n;
    return 0;
}

static void show_progress(LockstepRun *run)
{
    const unsigned count = run->n_read + 1;
    const double secs = seconds_since(run->t0), fps = secs > 0 ? count / secs : 0.0;
    const uint64_t expected = run->expected;
    const bool exact = run->expected_exact;
    char left[48] = "";
    if (expected >= count && fps > 0) {
        const unsigned long long eta = (unsigned long long)((double)(expected - count) / fps + 0.5);
        if (eta >= 3600)
            snprintf(left, sizeof(left), ", %s%llu:%02llu:%02llu left", exact ? "" : "~",
                     eta / 3600, eta / 60 % 60, eta % 60);
        else
            snprintf(left, sizeof(left), ", %s%llu:%02llu left", exact ? "" : "~", eta / 60,
                     eta % 60);
    }
    if (expected >= count)
        fprintf(stderr, "\r%u/%s%llu frames %.2f FPS%s\033[K", count, exact ? "" : "~",
                (unsigned long long)expected, fps, left);
    else
        fprintf(stderr, "\r%u frame%s %.2f FPS\033[K", count, count > 1 ? "s" : " ", fps);
    fflush(stderr);
    run->meter_shown = true;
}

static void copy_picture(VmafPicture *dst, const VmafPicture *src)
{
    for (unsigned p = 0; p < 3 && src->data[p]; p++)
        memcpy(dst->data[p], src->data[p], (size_t)src->stride[p] * src->h[p]);
}

/* Hands the pair (owned by the call) to the context, and a copy to the parity twin. */
static int score_pair(LockstepRun *run, VmafPicture *ref, VmafPicture *dist)
{
    if (run->meter)
        show_progress(run);
    if (run->twin) {
        VmafPicture ref2, dist2;
        vmaf_fetch_preallocated_picture(run->twin, &ref2);
        vmaf_fetch_preallocated_picture(run->twin, &dist2);
        copy_picture(&ref2, ref);
        copy_picture(&dist2, dist);
        if (vmaf_read_pictures(run->twin, &ref2, &dist2, run->n_read)) {
            vmaf_picture_unref(&ref2);
            vmaf_picture_unref(&dist2);
            vmaf_picture_unref(ref);
            vmaf_picture_unref(dist);
            return run_fail(run, EXIT_RUNTIME, "%s", lockstep_last_error());
        }
    }
    if (vmaf_read_pictures(run->ctx, ref, dist, run->read_first + run->n_read)) {
        vmaf_picture_unref(ref);
        vmaf_picture_unref(dist);
        return run_fail(run, EXIT_RUNTIME, "%s", lockstep_last_error());
    }
    run->n_read++;
    return 0;
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double thread_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int lockstep_run_files(LockstepRun *run)
{
    if (!run->reader || run->finished)
        return run_fail(run, EXIT_USAGE, "lockstep_run_files: the run has no files open, or is "
                        "finished");
    const CliSettings *s = &run->s;
    char err[512];
    clock_gettime(CLOCK_MONOTONIC, &run->t0);
    /* LOCKSTEP_CUDA_TIMING=1: where the scoring thread's time goes (bench/README.md) */
    const char *timing_env = getenv("LOCKSTEP_CUDA_TIMING");
    const bool timing = timing_env && *timing_env == '1';
    /* from frame 32 on, as the CUDA pipeline's end to end: the set-up is done by then */
    enum { STEADY_FROM = 32, UPLOAD_SINK_TRIES = 64 };
    double waited = 0.0, cpu0 = 0.0, wall0 = 0.0;
    for (;;) {
        VmafPicture ref, dist;
        if (timing && run->n_read == STEADY_FROM) {
            waited = 0.0;
            cpu0 = thread_cpu_ms();
            wall0 = wall_ms();
        }
        const double w0 = timing ? wall_ms() : 0.0;
        const int r = frame_reader_next(run->reader, &ref, &dist, err, sizeof(err));
        if (timing)
            waited += wall_ms() - w0;
        if (r < 0) {
            if (s->sharded && run->n_read == 0)
                return run_fail(run, EXIT_RUNTIME, "--frame_range %u:%u: %s", s->range_first,
                                s->range_end, err);
            return run_fail(run, EXIT_RUNTIME, "%s", err);
        }
        if (r == 0)
            break;
        if (run->read_first + run->n_read >= run->read_end) {
            /* the frame after the shard's: the video goes on */
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            run->n_read++;
            break;
        }
        const int e = score_pair(run, &ref, &dist);
        if (e)
            return e;
        if (run->packing && !run->uploading && run->n_read <= UPLOAD_SINK_TRIES) {
            /* the twins offer their sink once their first frame fixed the layout: from then on
             * the readers send packed frames to the device themselves */
            LsUploadSink *sink = ls_context_upload_sink(run->ctx);
            if (sink) {
                ls_input_upload_to(run->ref_in, sink);
                ls_input_upload_to(run->dist_in, sink);
                run->uploading = true;
            }
        }
        if (run->n_read == 1) {
            /* the extractors are set up now: later frames skip the planes none of them reads */
            unsigned planes = lockstep_planes_read(run->ctx);
            if (run->twin && lockstep_planes_read(run->twin) > planes)
                planes = lockstep_planes_read(run->twin);
            frame_reader_read_planes(run->reader, planes);
        }
    }
    if (run->meter_shown) {
        fputc('\n', stderr);
        run->meter_shown = false;
    }
    if (timing && run->n_read > 2 * STEADY_FROM) {
        const unsigned n = run->n_read - STEADY_FROM;
        fprintf(stderr, "lockstep timing scoring thread: from frame %u: per frame %.3f ms wall, "
                "%.3f ms waiting for the readers, %.3f ms of CPU\n", (unsigned)STEADY_FROM,
                (wall_ms() - wall0) / n, waited / n, (thread_cpu_ms() - cpu0) / n);
    }
    return lockstep_run_finish(run);
}

int lockstep_run_read_frame(LockstepRun *run, const void *const ref[3],
                            const ptrdiff_t ref_stride[3], const void *const dist[3],
                            const ptrdiff_t dist_stride[3])
{
    if (!run->frames_given || !run->ctx || run->finished)
        return run_fail(run, EXIT_USAGE, "lockstep_run_read_frame: the run takes no frames (open "
                        "it with lockstep_run_open_frames), or is finished");
    const LsVideoInfo *f = &run->frames;
    VmafPicture pic[2];
    const void *const *src[2] = { ref, dist };
    const ptrdiff_t *stride[2] = { ref_stride, dist_stride };
    for (unsigned k = 0; k < 2; k++) {
        if (vmaf_picture_alloc(&pic[k], f->fmt, f->bpc, f->w, f->h)) {
            if (k)
                vmaf_picture_unref(&pic[0]);
            return run_fail(run, EXIT_RUNTIME, "out of memory");
        }
        const size_t sample = f->bpc > 8 ? 2 : 1;
        for (unsigned p = 0; p < 3 && pic[k].data[p]; p++) {
            const size_t row = (size_t)pic[k].w[p] * sample;
            for (unsigned y = 0; y < pic[k].h[p]; y++)
                memcpy((uint8_t *)pic[k].data[p] + (size_t)pic[k].stride[p] * y,
                       (const uint8_t *)src[k][p] + (ptrdiff_t)y * stride[k][p], row);
        }
    }
    /* the extractors' tables stop at the depth's maximum, as the file readers check too */
    static const char *const planes[] = { "luma", "Cb", "Cr" };
    const unsigned limit = f->bpc < 16 ? (1u << f->bpc) - 1 : 0xffffu;
    for (unsigned k = 0; k < 2 && f->bpc > 8; k++)
        for (unsigned p = 0; p < 3 && pic[k].data[p]; p++)
            for (unsigned y = 0; y < pic[k].h[p]; y++) {
                const uint16_t *row = (const uint16_t *)((const uint8_t *)pic[k].data[p] +
                                                         (size_t)pic[k].stride[p] * y);
                for (unsigned x = 0; x < pic[k].w[p]; x++)
                    if (row[x] > limit) {
                        const unsigned v = row[x];
                        vmaf_picture_unref(&pic[0]);
                        vmaf_picture_unref(&pic[1]);
                        return run_fail(run, EXIT_RUNTIME, "frame %u: %s %s sample %u at (%u, "
                                        "%u) is above the %u-bit maximum %u", run->n_read,
                                        k ? "distorted" : "reference", planes[p], v, x, y,
                                        f->bpc, limit);
                    }
            }
    return score_pair(run, &pic[0], &pic[1]);
}

int lockstep_run_finish(LockstepRun *run)
{
    const CliSettings *s = &run->s;
    if (!run->ctx || run->finished)
        return run_fail(run, EXIT_USAGE, "lockstep_run_finish: the run is not set up, or is "
                        "finished already");
    run->finished = true;
    const unsigned n = run->n_read;
    if (!n && s->sharded && run->read_first)
        return run_fail(run, EXIT_RUNTIME, "--frame_range %u:%u starts after the last frame of the "
                        "video (frame %u)", s->range_first, s->range_end, run->read_first - 1);
    if (!n)
        return run_fail(run, EXIT_RUNTIME, "no frames to score in \"%s\"",
                        run->frames_given ? "the frames given" : s->ref_path);
    /* the frames reported: the range's, where the video has them */
    run->first = 0;
    run->n_out = n;
    if (s->sharded) {
        const unsigned limit = run->limit;
        const bool video_ended =
            n < limit || (s->frame_cnt && s->frame_cnt - run->read_first == limit);
        const unsigned video_end = run->read_first + (n < limit ? n : limit);
        if (video_ended && video_end <= s->range_first)
            return run_fail(run, EXIT_RUNTIME, "--frame_range %u:%u starts after the last frame "
                            "of the video (frame %u)", s->range_first, s->range_end,
                            video_end - 1);
        run->input_ended = video_ended && video_end <= s->range_end;
        run->first = s->range_first;
        run->n_out = (run->input_ended ? video_end : s->range_end) - run->first;
    }
    if (vmaf_read_pictures(run->ctx, NULL, NULL, 0) ||
        (run->twin && vmaf_read_pictures(run->twin, NULL, NULL, 0)))
        return run_fail(run, EXIT_RUNTIME, "problem flushing context: %s", lockstep_last_error());
    /* the models at every frame reported (stored under their names): the single models
     * (collections' primary models included) in --model order, then the collections */
    VmafContext *const ctxs[2] = { run->ctx, run->twin };
    const unsigned last = run->first + run->n_out - 1;
    for (unsigned c = 0; c < 2 && ctxs[c]; c++) {
        for (unsigned i = 0; i < run->n_scored; i++) {
            double score;
            if (vmaf_score_pooled(ctxs[c], run->models[i].model, VMAF_POOL_METHOD_MEAN, &score,
                                  run->first, last))
                return run_fail(run, EXIT_RUNTIME, "problem generating pooled VMAF score: %s",
                                lockstep_last_error());
        }
        for (unsigned i = 0; i < run->n_scored; i++) {
            VmafModelCollectionScore score;
            if (run->models[i].collection &&
                vmaf_score_pooled_model_collection(ctxs[c], run->models[i].collection,
                                                   VMAF_POOL_METHOD_MEAN, &score, run->first,
                                                   last))
                return run_fail(run, EXIT_RUNTIME, "problem generating pooled VMAF score: %s",
                                lockstep_last_error());
        }
    }
    if (s->output_path && s->sharded) {
        char settings[8192], ref_id[1024], dist_id[1024];
        cli_shard_settings(s, settings, sizeof(settings));
        LockstepShardInfo info = { .settings = settings, .reference = ref_id,
                                   .distorted = dist_id, .input_ended = run->input_ended,
                                   .models = run->scored, .n_models = run->n_scored };
        if (lockstep_file_identity(s->ref_path, ref_id, sizeof(ref_id)) ||
            lockstep_file_identity(s->dist_path, dist_id, sizeof(dist_id)))
            return run_fail(run, EXIT_RUNTIME, "%s", lockstep_last_error());
        if (lockstep_write_shard(run->ctx, run->report.write_path, &info)) {
            ls_report_error(&run->report, lockstep_last_error(), run->err, sizeof(run->err));
            return EXIT_RUNTIME;
        }
        return ls_report_commit(&run->report, run->err, sizeof(run->err)) ? EXIT_RUNTIME : 0;
    }
    /* the page and the report to their temporaries; either failing leaves neither (the
     * progress meter's line is ended: errors here go straight into run->err) */
    if (s->html_path) {
        const LsVideoInfo *ri = run->ref_in ? ls_input_info(run->ref_in) : &run->frames;
        const LsVideoInfo *di = run->dist_in ? ls_input_info(run->dist_in) : &run->frames;
        const HtmlRun page = { run->ctx, n, s, ri, di, run->argc, run->argv,
                               seconds_since(run->t0) };
        char err[PATH_MAX + 512];
        if (html_report_write(&page, run->page.write_path, err, sizeof(err))) {
            ls_report_error(&run->page, err, run->err, sizeof(run->err));
            return EXIT_RUNTIME;
        }
    }
    if (s->output_path &&
        vmaf_write_output_with_format(run->ctx, run->report.write_path, s->fmt,
                                      s->score_format)) {
        ls_report_error(&run->report, lockstep_last_error(), run->err, sizeof(run->err));
        return EXIT_RUNTIME;
    }
    if (ls_report_commit(&run->page, run->err, sizeof(run->err)))
        return EXIT_RUNTIME;
    if (ls_report_commit(&run->report, run->err, sizeof(run->err))) {
        /* the page of a run without its report: gone too (a page written straight to a
         * device or stdout stays written) */
        if (s->html_path && run->page.write_path != s->html_path)
            unlink(s->html_path);
        return EXIT_RUNTIME;
    }
    return 0;
}

const char *lockstep_run_error(const LockstepRun *run)
{
    return run ? run->err : "out of memory";
}

VmafContext *lockstep_run_context(LockstepRun *run)
{
    return run->ctx;
}

void lockstep_run_frames(const LockstepRun *run, unsigned *first, unsigned *count)
{
    *first = run->first;
    *count = run->n_out;
}

unsigned lockstep_run_model_count(const LockstepRun *run)
{
    return run->n_scored;
}

int lockstep_run_model_info(const LockstepRun *run, unsigned i, LockstepShardModel *model)
{
    if (i >= run->n_scored)
        return -EINVAL;
    *model = run->scored[i];
    return 0;
}

const CliSettings *run_settings(const LockstepRun *run)
{
    return &run->s;
}

VmafContext *run_twin(LockstepRun *run)
{
    return run->twin;
}

unsigned run_frames_read(const LockstepRun *run)
{
    return run->n_read;
}

bool run_meter(const LockstepRun *run)
{
    return run->meter;
}

void lockstep_run_close(LockstepRun *run)
{
    if (!run)
        return;
    frame_reader_close(run->reader);
    vmaf_close(run->twin);
    vmaf_close(run->ctx);
    cli_free_models(run->models, run->s.n_models);
    ls_report_abandon(&run->report);
    ls_report_abandon(&run->page);
    ls_input_close(run->ref_in);
    ls_input_close(run->dist_in);
    for (int i = 0; i < run->argc; i++)
        free(run->argv[i]);
    free(run->argv);
    free(run);
}
