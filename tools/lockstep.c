/* lockstep: the command-line tool (vmaf tool flags), a thin client of the public API: a run
 * (lockstep/run.h) scores, this prints what it leaves. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_parse.h"
#include "core/report_file.h"
#include "lockstep/lockstep.h"
#include "lockstep/run.h"
#include "run_internal.h"

#define EXIT_INFO 2    /* lockstep_run_open: --help and the like printed their text */
#define EXIT_RUNTIME 255

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

/* The pooled model scores as the vmaf tool prints them (the mean of each model's stored scores;
 * a collection's bootstrap summary), from a run or a merge of shards. */
static void print_model_scores(VmafContext *ctx, const char *score_format,
                               const LockstepShardModel *m, unsigned n_models, unsigned first,
                               unsigned n, FILE *out)
{
    static const char *const summary[] = { "_bagging", "_ci_p95_lo", "_ci_p95_hi", "_stddev" };
    const char *fmt = score_format ? score_format : "%f";
    char v[4][64];
    for (unsigned i = 0; i < n_models; i++) {
        double score = 0.0;
        vmaf_feature_score_pooled(ctx, m[i].name, VMAF_POOL_METHOD_MEAN, &score, first,
                                  first + n - 1);
        snprintf(v[0], sizeof(v[0]), fmt, score);
        fprintf(out, "%s: %s\n", m[i].label, v[0]);
    }
    for (unsigned i = 0; i < n_models; i++) {
        if (!m[i].collection)
            continue;
        for (unsigned k = 0; k < 4; k++) {
            char name[300];
            double score = 0.0;
            snprintf(name, sizeof(name), "%s%s", m[i].name, summary[k]);
            vmaf_feature_score_pooled(ctx, name, VMAF_POOL_METHOD_MEAN, &score, first,
                                      first + n - 1);
            snprintf(v[k], sizeof(v[k]), fmt, score);
        }
        fprintf(out, "%s: %s, ci.p95: [%s, %s], stddev: %s\n", m[i].label, v[0], v[1], v[2],
                v[3]);
    }
}

/* Without models (-n) and without a report file, the mean of every feature is the result. */
static void print_feature_means(VmafContext *ctx, const char *score_format, unsigned first,
                                unsigned n)
{
    const char *fmt = score_format ? score_format : "%f";
    for (unsigned f = 0; f < lockstep_feature_count(ctx); f++) {
        const char *name = lockstep_feature_name(ctx, f);
        double mean;
        char v[64];
        if (vmaf_feature_score_pooled(ctx, name, VMAF_POOL_METHOD_MEAN, &mean, first,
                                      first + n - 1))
            continue;
        snprintf(v, sizeof(v), fmt, mean);
        printf("%s: %s\n", lockstep_output_name(name), v);
    }
}

/* lockstep merge: one report from the shard reports of a video. */
static int merge_main(int argc, char **argv)
{
    CliMergeSettings m;
    char err[1400];
    const int parsed = cli_parse_merge(argc, argv, &m, err, sizeof(err));
    if (parsed == CLI_PARSE_ERROR)
        fprintf(stderr, "%s\n", err);
    if (parsed)
        return parsed == CLI_PARSE_ERROR ? 1 : 0;
    VmafContext *ctx;
    if (lockstep_merge_shards(&ctx, m.shards, m.n_shards)) {
        fprintf(stderr, "lockstep merge: %s\n", lockstep_last_error());
        return EXIT_RUNTIME;
    }
    const unsigned n = lockstep_frame_count(ctx), n_models = lockstep_model_count(ctx);
    LockstepShardModel models[CLI_MAX_MODELS];
    for (unsigned i = 0; i < n_models && i < CLI_MAX_MODELS; i++)
        lockstep_model_info(ctx, i, &models[i]);
    FILE *scores = !m.output_path ? stdout : isatty(2) && !m.quiet ? stderr : NULL;
    if (n_models && scores)
        print_model_scores(ctx, m.score_format, models, n_models, 0, n, scores);
    if (!n_models && !m.output_path)
        print_feature_means(ctx, m.score_format, 0, n);
    int ret = 0;
    if (m.output_path) {
        /* whole or not at all, as a run's report */
        LsReportFile report;
        char msg[PATH_MAX + 512];
        int failed = ls_report_begin(&report, m.output_path, msg, sizeof(msg));
        if (!failed &&
            vmaf_write_output_with_format(ctx, report.write_path, m.fmt, m.score_format)) {
            ls_report_error(&report, lockstep_last_error(), msg, sizeof(msg));
            failed = 1;
        }
        if (!failed)
            failed = ls_report_commit(&report, msg, sizeof(msg));
        if (failed) {
            fprintf(stderr, "lockstep merge: %s\n", msg);
            ret = EXIT_RUNTIME;
        }
        ls_report_abandon(&report);
    }
    vmaf_close(ctx);
    return ret;
}

int main(int argc, char **argv)
{
    /* an interrupted run removes its reports' temporaries (the library leaves signals alone) */
    ls_report_catch_signals();
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return merge_main(argc - 1, argv + 1);
    LockstepRun *run;
    int ret = lockstep_run_open(&run, argc, (const char *const *)argv);
    if (!ret)
        ret = lockstep_run_files(run);
    if (ret) {
        if (ret != EXIT_INFO)
            fprintf(stderr, "%s\n", lockstep_run_error(run));
        lockstep_run_close(run);
        return ret == EXIT_INFO ? 0 : ret;
    }
    const CliSettings *s = run_settings(run);
    VmafContext *ctx = lockstep_run_context(run), *twin = run_twin(run);
    unsigned first, n;
    lockstep_run_frames(run, &first, &n);
    /* without a report file the pooled scores are the result (stdout); with one, a terminal
     * shows them too, as the vmaf tool does */
    FILE *scores = !s->output_path ? stdout : run_meter(run) ? stderr : NULL;
    LockstepShardModel scored[CLI_MAX_MODELS];
    const unsigned n_scored = lockstep_run_model_count(run);
    for (unsigned i = 0; i < n_scored; i++)
        lockstep_run_model_info(run, i, &scored[i]);
    if (n_scored && scores)
        print_model_scores(ctx, s->score_format, scored, n_scored, first, n, scores);
    if (s->no_prediction && !s->output_path && !twin)
        print_feature_means(ctx, s->score_format, first, n);
    if (twin)
        ret = report_parity(ctx, twin, run_frames_read(run), lockstep_backend_name(s->parity_backend));
    lockstep_run_close(run);
    return ret;
}
