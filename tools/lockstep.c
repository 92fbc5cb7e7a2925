/* lockstep: the command-line tool, a thin client of the public API (vmaf tool flags). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_models.h"
#include "cli_parse.h"
#include "frame_reader.h"
#include "report_file.h"
#include "input/input.h"
#include "lockstep/lockstep.h"

#define EXIT_RUNTIME 255

static const char *fmt_name(enum VmafPixelFormat f)
{
    const char *name = ls_pix_fmt_name(f);
    return name ? name : "unknown";
}

/* One line for all the problems, in the vmaf tool's words. A common bit depth (--aom_ctc v6.0+)
 * scores inputs of different depths at the higher one. */
static int check_compatible(const LsVideoInfo *r, const LsVideoInfo *d, bool common_bitdepth)
{
    char msg[512] = "";
    size_t used = 0;
    int problems = 0;
    if (r->w != d->w || r->h != d->h)
        used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; dimensions do not match: %ux%u, %ux%u",
                                 r->w, r->h, d->w, d->h), problems++;
    if (r->fmt != d->fmt && used < sizeof(msg))
        used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; pixel formats do not match: %s, %s",
                                 fmt_name(r->fmt), fmt_name(d->fmt)), problems++;
    if (r->bpc != d->bpc && !common_bitdepth && used < sizeof(msg))
        used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; bitdepths do not match: %u, %u",
                                 r->bpc, d->bpc), problems++;
    if (problems)
        fprintf(stderr, "videos are incompatible, %d problem%s%s\n", problems, problems > 1 ? "s" : "",
                msg);
    return problems;
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

static VmafContext *make_context(const CliSettings *s, const CliLoadedModel *lm,
                                 enum LockstepBackend backend)
{
    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_WARNING,
        .n_threads = s->threads,
        .n_subsample = s->subsample,
        .cpumask = s->cpumask,
        .gpumask = s->gpumask,
    };
    VmafContext *ctx;
    if (vmaf_init(&ctx, cfg)) {
        fprintf(stderr, "problem initializing lockstep context\n");
        return NULL;
    }
    if (backend != LOCKSTEP_BACKEND_CPU && lockstep_use_backend(ctx, backend, s->gpu)) {
        fprintf(stderr, "%s\n", lockstep_last_error());
        vmaf_close(ctx);
        return NULL;
    }
    for (unsigned i = 0; i < s->n_models; i++) {
        const int err = lm[i].collection
                            ? vmaf_use_features_from_model_collection(ctx, lm[i].collection)
                            : vmaf_use_features_from_model(ctx, lm[i].model);
        if (err) {
            fprintf(stderr, "problem loading feature extractors from model: %s\n",
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
            fprintf(stderr, "problem loading feature extractor: unknown extractor \"%s\" (built in: %s)\n",
                    s->feature[i].name, list);
            vmaf_close(ctx);
            return NULL;
        }
        VmafFeatureDictionary *d;
        cli_feature_options(&s->feature[i], &d);
        /* the context consumes d whatever the outcome, the name being known */
        if (vmaf_use_feature(ctx, s->feature[i].name, d)) {
            fprintf(stderr, "problem loading feature extractor: %s\n", lockstep_last_error());
            vmaf_close(ctx);
            return NULL;
        }
    }
    return ctx;
}

static void copy_picture(VmafPicture *dst, const VmafPicture *src)
{
    for (unsigned p = 0; p < 3 && src->data[p]; p++)
        memcpy(dst->data[p], src->data[p], (size_t)src->stride[p] * src->h[p]);
}

/* Parity: every per-frame feature and every aggregate of the CPU run against the GPU run. */
static int report_parity(VmafContext *cpu, VmafContext *gpu, unsigned n_frames, const char *name)
{
    static const char *const aggregates[] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    unsigned bad_total = 0, values = 0;
    printf("parity cpu vs %s over %u frames:\n", name, n_frames);
    printf("  %-28s %-14s %s\n", "feature", "max |diff|", "frames not bit-identical");
    for (unsigned f = 0; f < lockstep_feature_count(cpu); f++) {
        const char *feature = lockstep_feature_name(cpu, f);
        double max_diff = 0;
        unsigned differ = 0;
        for (unsigned i = 0; i < n_frames; i++) {
            double a, b;
            const int ea = vmaf_feature_score_at_index(cpu, feature, &a, i);
            const int eb = vmaf_feature_score_at_index(gpu, feature, &b, i);
            if (ea && eb)
                continue;
            values++;
            if (ea != eb || memcmp(&a, &b, sizeof(a))) {
                differ++;
                const double d = (ea || eb) ? INFINITY : fabs(a - b);
                if (d > max_diff || isnan(d))
                    max_diff = d;
            }
        }
        printf("  %-28s %-14.6g %u\n", feature, max_diff, differ);
        bad_total += differ;
    }
    for (unsigned k = 0; k < sizeof(aggregates) / sizeof(aggregates[0]); k++) {
        double a, b;
        const int ea = lockstep_aggregate_score(cpu, aggregates[k], &a);
        const int eb = lockstep_aggregate_score(gpu, aggregates[k], &b);
        if (ea && eb)
            continue;
        values++;
        const int same = !ea && !eb && !memcmp(&a, &b, sizeof(a));
        printf("  %-28s %-14.6g %s\n", aggregates[k], same ? 0.0 : (ea || eb) ? INFINITY : fabs(a - b),
               same ? "aggregate identical" : "aggregate DIFFERS");
        bad_total += !same;
    }
    printf("%s: %u values compared, %u differ\n", bad_total ? "PARITY FAILED" : "parity bit-identical",
           values, bad_total);
    return bad_total ? 3 : 0;
}

/* Pooled model scores as the vmaf tool computes them: the single models (collections' primary
 * models included) in --model order, then the collections; printed to `out` unless NULL. */
static int score_models(VmafContext *ctx, const CliSettings *s, const CliLoadedModel *lm,
                        unsigned n_frames, FILE *out)
{
    const char *fmt = s->score_format ? s->score_format : "%f";
    char v[4][64];
    for (unsigned i = 0; i < s->n_models; i++) {
        double score;
        if (vmaf_score_pooled(ctx, lm[i].model, VMAF_POOL_METHOD_MEAN, &score, 0, n_frames - 1)) {
            fprintf(stderr, "problem generating pooled VMAF score: %s\n", lockstep_last_error());
            return -1;
        }
        snprintf(v[0], sizeof(v[0]), fmt, score);
        if (out)
            fprintf(out, "%s: %s\n", lm[i].label, v[0]);
    }
    for (unsigned i = 0; i < s->n_models; i++) {
        VmafModelCollectionScore score;
        if (!lm[i].collection)
            continue;
        if (vmaf_score_pooled_model_collection(ctx, lm[i].collection, VMAF_POOL_METHOD_MEAN,
                                               &score, 0, n_frames - 1)) {
            fprintf(stderr, "problem generating pooled VMAF score: %s\n", lockstep_last_error());
            return -1;
        }
        snprintf(v[0], sizeof(v[0]), fmt, score.bootstrap.bagging_score);
        snprintf(v[1], sizeof(v[1]), fmt, score.bootstrap.ci.p95.lo);
        snprintf(v[2], sizeof(v[2]), fmt, score.bootstrap.ci.p95.hi);
        snprintf(v[3], sizeof(v[3]), fmt, score.bootstrap.stddev);
        if (out)
            fprintf(out, "%s: %s, ci.p95: [%s, %s], stddev: %s\n", lm[i].label, v[0], v[1],
                    v[2], v[3]);
    }
    return 0;
}

/* Without models (-n) and without a report file, the mean of every feature is the result. */
static void print_feature_means(VmafContext *ctx, const CliSettings *s, unsigned n_frames)
{
    const char *fmt = s->score_format ? s->score_format : "%f";
    for (unsigned f = 0; f < lockstep_feature_count(ctx); f++) {
        const char *name = lockstep_feature_name(ctx, f);
        double mean;
        char v[64];
        if (vmaf_feature_score_pooled(ctx, name, VMAF_POOL_METHOD_MEAN, &mean, 0, n_frames - 1))
            continue;
        snprintf(v, sizeof(v), fmt, mean);
        printf("%s: %s\n", lockstep_output_name(name), v);
    }
}

static void progress(unsigned count, struct timespec t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    const double secs = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
    fprintf(stderr, "\r%u frame%s %.2f FPS\033[K", count, count > 1 ? "s" : " ",
            secs > 0 ? count / secs : 0.0);
    fflush(stderr);
}

int main(int argc, char **argv)
{
    CliSettings s;
    const int parsed = cli_parse(argc, argv, &s);
    if (parsed != CLI_PARSE_RUN)
        return parsed;
    const char *report_path;
    if (report_file_begin(s.output_path, &report_path))
        return EXIT_RUNTIME;
    const int tty = isatty(2) && !s.quiet;
    int ret = EXIT_RUNTIME;
    char err[512];
    LsInput *ref_in = NULL, *dist_in = NULL;
    FrameReader *reader = NULL;
    VmafContext *ctx = NULL, *twin = NULL;
    const LsRawParams *raw = s.raw_given ? &s.raw : NULL;
    CliLoadedModel models[CLI_MAX_MODELS] = { { 0 } };

    if (ls_input_open(&ref_in, s.ref_path, raw, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        goto out;
    }
    if (ls_input_open(&dist_in, s.dist_path, raw, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        goto out;
    }
    const LsVideoInfo *ri = ls_input_info(ref_in), *di = ls_input_info(dist_in);
    if (check_compatible(ri, di, s.common_bitdepth))
        goto out;
    const unsigned bpc = ri->bpc > di->bpc ? ri->bpc : di->bpc;

    if (load_models(&s, models))
        goto out;
    ctx = make_context(&s, models, s.parity ? LOCKSTEP_BACKEND_CPU : s.backend);
    if (!ctx)
        goto out;
    if (s.parity && !(twin = make_context(&s, models, s.parity_backend)))
        goto out;
    if (frame_reader_open(&reader, ctx, ref_in, dist_in, s.skip_ref, s.skip_dist, s.frame_cnt)) {
        fprintf(stderr, "problem with picture pool or reader threads\n");
        goto out;
    }

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned n = 0;
    for (;; n++) {
        VmafPicture ref, dist;
        const int r = frame_reader_next(reader, &ref, &dist, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "%s%s\n", tty ? "\n" : "", err);
            goto out;
        }
        if (r == 0)
            break;
        if (tty)
            progress(n + 1, t0);
        if (twin) {
            VmafPicture ref2, dist2;
            if (vmaf_picture_alloc(&ref2, ri->fmt, bpc, ri->w, ri->h) ||
                vmaf_picture_alloc(&dist2, ri->fmt, bpc, ri->w, ri->h)) {
                fprintf(stderr, "out of memory\n");
                goto out;
            }
            copy_picture(&ref2, &ref);
            copy_picture(&dist2, &dist);
            if (vmaf_read_pictures(twin, &ref2, &dist2, n)) {
                fprintf(stderr, "%s\n", lockstep_last_error());
                vmaf_picture_unref(&ref2);
                vmaf_picture_unref(&dist2);
                vmaf_picture_unref(&ref);
                vmaf_picture_unref(&dist);
                goto out;
            }
        }
        if (vmaf_read_pictures(ctx, &ref, &dist, n)) {
            fprintf(stderr, "%s%s\n", tty ? "\n" : "", lockstep_last_error());
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            goto out;
        }
        if (n == 0) {
            /* the extractors are set up now: later frames skip the planes none of them reads */
            unsigned planes = lockstep_planes_read(ctx);
            if (twin && lockstep_planes_read(twin) > planes)
                planes = lockstep_planes_read(twin);
            frame_reader_read_planes(reader, planes);
        }
    }
    if (tty)
        fprintf(stderr, "\n");
    if (!n) {
        fprintf(stderr, "no frames to score in \"%s\"\n", s.ref_path);
        goto out;
    }
    if (vmaf_read_pictures(ctx, NULL, NULL, 0) || (twin && vmaf_read_pictures(twin, NULL, NULL, 0))) {
        fprintf(stderr, "problem flushing context: %s\n", lockstep_last_error());
        goto out;
    }
    /* without a report file the pooled scores are the result (stdout); with one, a terminal
     * shows them too, as the vmaf tool does */
    FILE *scores = !s.output_path ? stdout : tty ? stderr : NULL;
    if (!s.no_prediction &&
        (score_models(ctx, &s, models, n, scores) ||
         (twin && score_models(twin, &s, models, n, NULL))))
        goto out;
    if (s.no_prediction && !s.output_path && !twin)
        print_feature_means(ctx, &s, n);
    if (s.output_path &&
        vmaf_write_output_with_format(ctx, report_path, s.fmt, s.score_format)) {
        /* the library's message names the file it wrote, the temporary: the reason alone (its
         * text after the last ": ", a strerror text) with the path the user gave */
        const char *why = strrchr(lockstep_last_error(), ':');
        fprintf(stderr, "cannot write the report to %s: %s\n", s.output_path,
                why ? why + 2 : lockstep_last_error());
        goto out;
    }
    if (report_file_commit())
        goto out;
    ret = twin ? report_parity(ctx, twin, n, lockstep_backend_name(s.parity_backend)) : 0;
out:
    report_file_abandon();
    frame_reader_close(reader);
    vmaf_close(twin);
    vmaf_close(ctx);
    free_models(models, s.n_models);
    ls_input_close(ref_in);
    ls_input_close(dist_in);
    return ret;
}
