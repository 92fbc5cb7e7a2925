/* VMAF prediction against the reference, without the extractors: the per-frame feature values of
 * every golden model run go into the built-in model, and every per-frame and pooled model score
 * (bootstrap members and summaries included) must be the golden's bits (output_scalar).
 *
 * Public path: the values are imported with vmaf_import_feature_score under the names the model
 * reads them by, then scored with vmaf_score_at_index / vmaf_score_pooled and the collection
 * calls. Where a feature has options and its extractor is not in this build its name with options
 * is unknown, and the values go straight into the prediction (ls_model_predict_values), pooled
 * through the same collector. VMAF v1: on either path, the frames where speed_chroma_uv is 0 and
 * the chroma correction changes the score are counted (there must be some).
 *
 * The float model runs are checked in both the AMD and the Intel goldens: they differ in their
 * float_adm features (RCPSS), and the prediction from each file's features must give that file's
 * score on any CPU. usage: test_model_golden GOLDEN_DIR */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/model.h"
#include "core/output.h"
#include "core/registry.h"
#include "lockstep/lockstep.h"
#include "test_support.h"

static const char *const fixtures[] = { "p01", "p02", "p03", "p04", "p05", "p06", "p06b",
                                        "p07", "p08", "p09", "p10", "p11a", "p11b", "p11c",
                                        "p11d", "p12", "p13", NULL };
static const char *const runs[] = {
    "vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3",
    "vmaf_v0.6.1:disable_clip", "vmaf_v0.6.1:enable_transform", "vmaf_float_v0.6.1",
    "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
    "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_5d0h",
    "vmaf_v1.0.16_hfr_1d5h_2160", NULL,
};
static const char *const pool_names[] = { NULL, "min", "max", "mean", "harmonic_mean" };
static const char *const summary[] = { "bagging", "stddev", "ci_p95_lo", "ci_p95_hi" };

/* How the reference's writer shows each model feature (libvmaf's alias map). */
static const char *const shown_as[][2] = {
    { "VMAF_integer_feature_adm2_score", "integer_adm2" },
    { "VMAF_integer_feature_adm3_score", "integer_adm3" },
    { "VMAF_integer_feature_motion2_score", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "integer_motion3" },
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
    { "VMAF_feature_adm2_score", "adm2" },
    { "VMAF_feature_motion2_score", "motion2" },
    { "VMAF_feature_vif_scale0_score", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "vif_scale3" },
    { "Cambi_feature_cambi_score", "cambi" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    { NULL, NULL },
};

static struct {
    unsigned runs_public, runs_direct, runs_skipped, frame_values, pooled_values, names;
    unsigned v1_frames, v1_pooled, chroma_applies, chroma_corrected;
} count;

/* The golden's metric for model feature `name`: its alias, or the alias with an option suffix. */
static const char *golden_name(const cJSON *metrics, const char *name)
{
    const char *alias = NULL;
    for (unsigned i = 0; shown_as[i][0]; i++)
        if (!strcmp(shown_as[i][0], name))
            alias = shown_as[i][1];
    if (!alias)
        return NULL;
    const char *found = NULL;
    const size_t n = strlen(alias);
    for (const cJSON *m = metrics->child; m; m = m->next) {
        if (!strcmp(m->string, alias))
            return m->string;
        if (!strncmp(m->string, alias, n) && m->string[n] == '_') {
            if (found)
                return NULL; /* ambiguous */
            found = m->string;
        }
    }
    return found;
}

static int same(double a, double b) { return double_bits(a) == double_bits(b); }

static double metric(const cJSON *obj, const char *name, int *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    *ok = cJSON_IsNumber(v);
    return *ok ? v->valuedouble : 0.0;
}

static void check_value(const char *where, const char *name, unsigned frame, double ours,
                        const cJSON *obj, unsigned *counter)
{
    int ok;
    const double gold = metric(obj, name, &ok);
    CHECK(ok, "%s: golden has no %s", where, name);
    if (!ok)
        return;
    (*counter)++;
    CHECK(same(ours, gold), "%s frame %u %s: %.17g, golden %.17g", where, frame, name, ours, gold);
}

/* Every pooled statistic of `series` in ctx against the golden's (as the writer computes them). */
static void check_pooled(VmafContext *ctx, const char *where, const char *series,
                         const char *golden, unsigned n_frames, const cJSON *pooled)
{
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(pooled, golden);
    CHECK(stats != NULL, "%s: golden has no pooled %s", where, golden);
    for (int m = VMAF_POOL_METHOD_MIN; stats && m <= VMAF_POOL_METHOD_HARMONIC_MEAN; m++) {
        double s;
        CHECK(vmaf_feature_score_pooled(ctx, series, m, &s, 0, n_frames - 1) == 0,
              "%s: pooling %s", where, series);
        check_value(where, pool_names[m], UINT32_MAX, s, stats, &count.pooled_values);
    }
}

static VmafContext *new_context(void)
{
    VmafContext *ctx;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
    return vmaf_init(&ctx, cfg) ? NULL : ctx;
}

/* The features of frame i of model m, as the golden printed them. */
static int frame_features(const VmafModel *m, const cJSON *metrics, double *raw, const char *where)
{
    for (unsigned k = 0; k < m->n_features; k++) {
        const char *g = golden_name(metrics, m->feature[k].name);
        int ok = g != NULL;
        if (ok)
            raw[k] = metric(metrics, g, &ok);
        CHECK(ok, "%s: no golden value for feature %s", where, m->feature[k].name);
        if (!ok)
            return -1;
    }
    return 0;
}

/* Imports every frame's features under the names the model reads; 1 when a name is unknown. */
static int import_features(VmafContext *ctx, VmafModel *m, const cJSON *frames, const char *where)
{
    const char *keys[LS_MODEL_MAX_FEATURES];
    for (unsigned k = 0; k < m->n_features; k++)
        if (ls_model_feature_key(m, k, &keys[k]))
            return 1;
    unsigned i = 0;
    for (const cJSON *f = frames->child; f; f = f->next, i++) {
        const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(f, "metrics");
        double raw[LS_MODEL_MAX_FEATURES];
        if (frame_features(m, metrics, raw, where))
            return -1;
        for (unsigned k = 0; k < m->n_features; k++) {
            CHECK(vmaf_import_feature_score(ctx, keys[k], raw[k], i) == 0, "%s: import", where);
            /* with the extractor built in, the name must be the one the reference printed */
            if (i == 0 && ls_extractor_providing(m->feature[k].name)) {
                count.names++;
                CHECK(!strcmp(ls_output_alias(keys[k]), golden_name(metrics, m->feature[k].name)),
                      "%s: feature %s is read as %s, the golden shows %s", where,
                      m->feature[k].name, keys[k], golden_name(metrics, m->feature[k].name));
            }
        }
    }
    return 0;
}

/* A golden feature printed as null is non-finite, sign unknown (the reference's reads outside
 * its buffers on p11d, a size lockstep refuses): nothing to predict from. */
static int has_null_feature(const VmafModel *m, const cJSON *frames, const char *where)
{
    unsigned i = 0;
    for (const cJSON *f = frames->child; f; f = f->next, i++) {
        const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(f, "metrics");
        for (unsigned k = 0; k < m->n_features; k++) {
            const char *g = golden_name(metrics, m->feature[k].name);
            if (g && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(metrics, g))) {
                printf("%s: skipped, the golden's %s is null (non-finite) at frame %u\n", where,
                       g, i);
                count.runs_skipped++;
                return 1;
            }
        }
    }
    return 0;
}

static void run_single(const char *where, VmafModel *m, const cJSON *out)
{
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(out, "frames");
    const cJSON *pooled = cJSON_GetObjectItemCaseSensitive(out, "pooled_metrics");
    const unsigned n = (unsigned)cJSON_GetArraySize(frames);
    if (has_null_feature(m, frames, where))
        return;
    VmafContext *ctx = new_context();
    const int imported = import_features(ctx, m, frames, where);
    if (imported < 0)
        goto out;
    unsigned i = 0;
    for (const cJSON *f = frames->child; f; f = f->next, i++) {
        const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(f, "metrics");
        double score, raw[LS_MODEL_MAX_FEATURES];
        if (frame_features(m, metrics, raw, where))
            goto out;
        if (imported == 0) {
            CHECK(vmaf_score_at_index(ctx, m, &score, i) == 0, "%s: score at %u: %s", where, i,
                  lockstep_last_error());
        } else {
            CHECK(ls_model_predict_values(m, raw, 0, &score) == 0, "%s: predict", where);
            CHECK(vmaf_import_feature_score(ctx, "vmaf", score, i) == 0, "%s", where);
        }
        /* on either path: where the correction fires, it must change the score */
        if (m->chroma_correction && raw[m->chroma_guided] == 0.0) {
            VmafModel plain = *m; /* shallow: only read */
            double uncorrected;
            plain.chroma_correction = false;
            ls_model_predict_values(&plain, raw, 0, &uncorrected);
            count.chroma_applies++;
            count.chroma_corrected += !same(uncorrected, score);
        }
        count.v1_frames += m->chroma_correction;
        check_value(where, "vmaf", i, score, metrics, &count.frame_values);
    }
    if (imported == 0) {
        double again, mean;
        CHECK(vmaf_score_at_index(ctx, m, &again, 0) == 0, "%s: stored score", where);
        CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &mean, 0, n - 1) == 0, "%s", where);
        const cJSON *stats = cJSON_GetObjectItemCaseSensitive(pooled, "vmaf");
        check_value(where, "mean", UINT32_MAX, mean, stats, &count.pooled_values);
    }
    check_pooled(ctx, where, "vmaf", "vmaf", n, pooled);
    count.v1_pooled += m->chroma_correction ? 4 : 0;
    (*(imported == 0 ? &count.runs_public : &count.runs_direct))++;
out:
    vmaf_close(ctx);
}

static void check_collection_frame(const char *where, unsigned i, const VmafModelCollection *c,
                                   const double *members, const VmafModelCollectionScore *s,
                                   const cJSON *metrics)
{
    for (unsigned j = 0; j < c->cnt; j++)
        check_value(where, c->model[j]->name, i, members[j], metrics, &count.frame_values);
    const double v[] = { s->bootstrap.bagging_score, s->bootstrap.stddev, s->bootstrap.ci.p95.lo,
                         s->bootstrap.ci.p95.hi };
    for (unsigned k = 0; k < 4; k++) {
        char name[64];
        snprintf(name, sizeof(name), "vmaf_%s", summary[k]);
        check_value(where, name, i, v[k], metrics, &count.frame_values);
    }
}

static void run_collection(const char *where, VmafModel *m, VmafModelCollection *c,
                           const cJSON *out)
{
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(out, "frames");
    const cJSON *pooled = cJSON_GetObjectItemCaseSensitive(out, "pooled_metrics");
    const unsigned n = (unsigned)cJSON_GetArraySize(frames);
    run_single(where, m, out);
    VmafContext *ctx = new_context(), *once = new_context();
    double *members = calloc(c->cnt, sizeof(*members));
    int imported = import_features(ctx, c->model[0], frames, where);
    if (imported == 0)
        for (unsigned j = 1; j < c->cnt && !imported; j++)
            for (unsigned k = 0; k < c->model[j]->n_features && !imported; k++)
                imported = !!strcmp(c->model[j]->feature[k].name, c->model[0]->feature[k].name);
    if (imported == 0)
        import_features(once, c->model[0], frames, where);
    if (imported < 0)
        goto out;
    unsigned i = 0;
    for (const cJSON *f = frames->child; f; f = f->next, i++) {
        const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(f, "metrics");
        VmafModelCollectionScore s;
        if (imported == 0) {
            CHECK(vmaf_score_at_index_model_collection(ctx, c, &s, i) == 0, "%s: %s", where,
                  lockstep_last_error());
            for (unsigned j = 0; j < c->cnt; j++)
                CHECK(vmaf_feature_score_at_index(ctx, c->model[j]->name, &members[j], i) == 0,
                      "%s", where);
            VmafModelCollectionScore again;
            CHECK(vmaf_score_at_index_model_collection(ctx, c, &again, i) == -EINVAL,
                  "%s: a second prediction at %u must be refused", where, i);
        } else {
            double raw[LS_MODEL_MAX_FEATURES];
            if (frame_features(c->model[0], metrics, raw, where))
                goto out;
            CHECK(ls_model_collection_predict_values(c, raw, members, &s) == 0, "%s", where);
            for (unsigned j = 0; j < c->cnt; j++)
                vmaf_import_feature_score(ctx, c->model[j]->name, members[j], i);
            const double v[] = { s.bootstrap.bagging_score, s.bootstrap.stddev,
                                 s.bootstrap.ci.p95.lo, s.bootstrap.ci.p95.hi };
            for (unsigned k = 0; k < 4; k++) {
                char name[64];
                snprintf(name, sizeof(name), "vmaf_%s", summary[k]);
                vmaf_import_feature_score(ctx, name, v[k], i);
            }
        }
        CHECK(s.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP, "%s", where);
        check_collection_frame(where, i, c, members, &s, metrics);
    }
    for (unsigned j = 0; j < c->cnt; j++)
        check_pooled(ctx, where, c->model[j]->name, c->model[j]->name, n, pooled);
    for (unsigned k = 0; k < 4; k++) {
        char name[64];
        snprintf(name, sizeof(name), "vmaf_%s", summary[k]);
        check_pooled(ctx, where, name, name, n, pooled);
    }
    if (imported == 0) {
        /* the pooled call predicts every frame itself: once per context */
        VmafModelCollectionScore s;
        CHECK(vmaf_score_pooled_model_collection(once, c, VMAF_POOL_METHOD_MEAN, &s, 0, n - 1) == 0,
              "%s: %s", where, lockstep_last_error());
        const double v[] = { s.bootstrap.bagging_score, s.bootstrap.stddev, s.bootstrap.ci.p95.lo,
                             s.bootstrap.ci.p95.hi };
        for (unsigned k = 0; k < 4; k++) {
            char name[64];
            snprintf(name, sizeof(name), "vmaf_%s", summary[k]);
            check_value(where, "mean", UINT32_MAX, v[k],
                        cJSON_GetObjectItemCaseSensitive(pooled, name), &count.pooled_values);
        }
        CHECK(vmaf_score_pooled_model_collection(once, c, VMAF_POOL_METHOD_MEAN, &s, 0, n - 1) ==
                  -EINVAL, "%s: the pooled collection call predicts once per context", where);
    }
out:
    free(members);
    vmaf_close(ctx);
    vmaf_close(once);
}

static void run_golden(const char *path, const char *fixture)
{
    char *text = read_file(path);
    if (!text)
        return;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    CHECK(doc != NULL, "%s: not JSON", path);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "runs");
    for (const cJSON *r = list ? list->child : NULL; r; r = r->next) {
        const char *id = cJSON_GetObjectItemCaseSensitive(r, "id")->valuestring;
        int wanted = 0;
        for (unsigned i = 0; runs[i]; i++)
            wanted |= !strcmp(runs[i], id);
        if (!wanted || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "computed")))
            continue;
        char version[128], where[256];
        snprintf(version, sizeof(version), "%s", id);
        VmafModelConfig cfg = { .name = "vmaf", .flags = 0 };
        char *colon = strchr(version, ':');
        if (colon) {
            *colon = 0;
            cfg.flags = !strcmp(colon + 1, "disable_clip") ? VMAF_MODEL_FLAG_DISABLE_CLIP
                                                           : VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
        }
        snprintf(where, sizeof(where), "%s %s (%s)", fixture, id, strrchr(path, '/') + 1);
        const cJSON *out = cJSON_GetObjectItemCaseSensitive(r, "output_scalar");
        VmafModel *m = NULL;
        VmafModelCollection *c = NULL;
        if (vmaf_model_load(&m, &cfg, version) == 0) {
            run_single(where, m, out);
        } else {
            CHECK(vmaf_model_collection_load(&m, &c, &cfg, version) == 0, "%s: load: %s", where,
                  lockstep_last_error());
            if (c)
                run_collection(where, m, c, out);
        }
        vmaf_model_collection_destroy(c);
        vmaf_model_destroy(m);
    }
    cJSON_Delete(doc);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
        return 2;
    }
    for (unsigned i = 0; fixtures[i]; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.upstream.json", argv[1], fixtures[i]);
        run_golden(path, fixtures[i]);
        snprintf(path, sizeof(path), "%s/%s.upstream-intel.json", argv[1], fixtures[i]);
        run_golden(path, fixtures[i]);
    }
    printf("model prediction vs goldens: %u runs through vmaf_score_* (%u feature names checked), "
           "%u runs straight into the prediction, %u skipped; %u per-frame and %u pooled model "
           "scores compared, %d failures\n",
           count.runs_public, count.names, count.runs_direct, count.runs_skipped,
           count.frame_values, count.pooled_values, failures);
    printf("of which VMAF v1 (chroma correction): %u per-frame and %u pooled "
           "scores; speed_chroma_uv is 0 on %u frames, where the correction changes %u scores"
           "\n",
           count.v1_frames, count.v1_pooled, count.chroma_applies, count.chroma_corrected);
    CHECK(count.frame_values > 0 && count.chroma_corrected > 0, "no golden model run found");
    return failures ? 1 : 0;
}
