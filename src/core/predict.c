/* VMAF prediction (libvmaf's predict.c) and the context calls that score models: normalised
 * features, the SVM, the score transform and clip, bootstrap summaries. Spec: model.md §5, §6;
 * api.md §4. Every step is evaluated in the order the spec gives, in double, without FMA. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/dict.h"
#include "core/log.h"
#include "core/model.h"
#include "core/output.h"
#include "core/registry.h"

/* §5.3: the SpEED chroma feature replaced from the luma adm3 feature, only when the SpEED value
 * is exactly 0. The guiding value is recovered from the normalised node, as libvmaf does. */
static void correct_chroma(const VmafModel *m, LsSvmNode *x)
{
    const LsModelFeature *guided = &m->feature[m->chroma_guided];
    const LsModelFeature *guiding = &m->feature[m->chroma_guiding];
    if ((x[m->chroma_guided].value - guided->intercept) / guided->slope != 0.0)
        return;
    const double g = (x[m->chroma_guiding].value - guiding->intercept) / guiding->slope;
    const double p = m->chroma_parameter;
    const double c = (-p * g) + p;
    x[m->chroma_guided].value = guided->slope * c + guided->intercept;
}

void ls_model_predict_raw(const VmafModel *m, const double *raw, double *prediction)
{
    LsSvmNode x[LS_MODEL_MAX_FEATURES + 1];
    for (unsigned k = 0; k < m->n_features; k++) {
        double v = raw[k];
        if (m->norm == LS_MODEL_NORM_LINEAR_RESCALE)
            v = m->feature[k].slope * v + m->feature[k].intercept;
        x[k] = (LsSvmNode){ (int)k + 1, v };
    }
    x[m->n_features].index = -1;
    if (m->chroma_correction)
        correct_chroma(m, x);
    double y = ls_svm_predict(m->svm, x);
    if (m->norm == LS_MODEL_NORM_LINEAR_RESCALE)
        y = (y - m->intercept) / m->slope;
    *prediction = y;
}

/* §5.5, with libvmaf's quirks: an unordered segment ends the walk with what was computed so far
 * (possibly 0.0), and at a shared knot the later segment wins. */
static double piecewise_linear(const LsScoreTransform *t, double in)
{
    const unsigned n = t->n_knots;
    if (n <= 1)
        return in;
    double out = 0.0;
    for (unsigned q = 0; q + 1 < n; q++) {
        const double x0 = t->knot_x[q], y0 = t->knot_y[q];
        const double x1 = t->knot_x[q + 1], y1 = t->knot_y[q + 1];
        if (!(x0 < x1 && y0 <= y1))
            return out;
        const bool covers = (x0 <= in && in <= x1) || (q == 0 && in < x0) ||
                            (q + 2 == n && in > x1);
        if (!covers)
            continue;
        if (y0 == y1) {
            out = y0;
            continue;
        }
        double a, b;
        if (x0 == 0) {
            b = y0;
            a = (y1 - b) / x1;
        } else {
            a = (y1 - y0) / (x1 - x0);
            b = y0 - x0 * a;
        }
        out = a * in + b;
    }
    return out;
}

double ls_model_transform_clip(const VmafModel *m, double y, uint64_t flags)
{
    const LsScoreTransform *t = &m->transform;
    if (t->enabled && !(flags & VMAF_MODEL_FLAG_DISABLE_TRANSFORM)) {
        const double in = y;
        double out = in;
        if (t->has_p[0] || t->has_p[1] || t->has_p[2]) {
            out = 0.0;
            if (t->has_p[0])
                out = out + t->p[0];
            if (t->has_p[1])
                out = out + t->p[1] * in;
            if (t->has_p[2])
                out = out + (t->p[2] * in) * in;
        }
        if (t->has_knots)
            out = piecewise_linear(t, out);
        /* the rectifications compare with the value before the polynomial */
        if (t->out_lte_in)
            out = out > in ? in : out;
        if (t->out_gte_in)
            out = out < in ? in : out;
        y = out;
    }
    if (m->clip && !(flags & VMAF_MODEL_FLAG_DISABLE_CLIP)) {
        y = y < m->clip_min ? m->clip_min : y;
        y = y > m->clip_max ? m->clip_max : y;
    }
    return y;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *v, unsigned n, double p)
{
    const double q = p * (n - 1) / 100.0;
    const double l = floor(q), r = ceil(q);
    if (l == r)
        return v[(unsigned)l];
    return v[(unsigned)l] * (r - q) + v[(unsigned)r] * (q - l);
}

void ls_bootstrap_summary(const VmafModel *m1, double *u, unsigned n,
                          VmafModelCollectionScore *score)
{
    double sum = 0.0;
    for (unsigned j = 0; j < n; j++)
        sum += u[j];
    const double mean = sum / n;
    double ssd = 0.0;
    for (unsigned j = 0; j < n; j++)
        ssd += pow(u[j] - mean, 2.0);
    const double stddev = sqrt(ssd / n);
    qsort(u, n, sizeof(*u), by_value);
    const double lo = percentile(u, n, 2.5), hi = percentile(u, n, 97.5);
    const double delta = 0.01;
    const double plus = ls_model_transform_clip(m1, mean + delta, 0);
    const double minus = ls_model_transform_clip(m1, mean - delta, 0);
    score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    score->bootstrap.bagging_score = ls_model_transform_clip(m1, mean, 0);
    score->bootstrap.ci.p95.lo = ls_model_transform_clip(m1, lo, 0);
    score->bootstrap.ci.p95.hi = ls_model_transform_clip(m1, hi, 0);
    /* the spread seen through the transform's slope at the mean */
    score->bootstrap.stddev = stddev * ((plus - minus) / (2.0 * delta));
}

int ls_model_predict_values(const VmafModel *m, const double *raw, uint64_t flags, double *score)
{
    if (!m || !raw || !score)
        return -EINVAL;
    double y;
    ls_model_predict_raw(m, raw, &y);
    *score = ls_model_transform_clip(m, y, flags);
    return 0;
}

static int collection_is_bootstrap(const VmafModelCollection *c)
{
    if (c->type == LS_MODEL_BOOTSTRAP_SVM_NUSVR || c->type == LS_MODEL_RESIDUE_BOOTSTRAP_SVM_NUSVR)
        return 0;
    ls_set_error("collection \"%s\": its members are not bootstrap models (model_type "
                 "BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR)", c->name);
    return -EINVAL;
}

/* The feature values of one member, wherever they come from. */
typedef int (*MemberFeatures)(void *source, VmafModel *member, double *raw);

/* §6: each member's score as stored (transformed and clipped), and the summary from their
 * untransformed, unclipped predictions. */
static int predict_collection(const VmafModelCollection *c, MemberFeatures features, void *source,
                              double *member_scores, VmafModelCollectionScore *score)
{
    int err = collection_is_bootstrap(c);
    if (err)
        return err;
    double *u = malloc(c->cnt * sizeof(*u));
    if (!u)
        return -ENOMEM;
    for (unsigned j = 0; j < c->cnt && !err; j++) {
        double raw[LS_MODEL_MAX_FEATURES];
        if ((err = features(source, c->model[j], raw)))
            break;
        ls_model_predict_raw(c->model[j], raw, &u[j]);
        member_scores[j] = ls_model_transform_clip(c->model[j], u[j], 0);
    }
    if (!err)
        ls_bootstrap_summary(c->model[0], u, c->cnt, score);
    free(u);
    return err;
}

typedef struct GivenValues {
    const VmafModel *first;
    const double *raw;
} GivenValues;

static int given_values(void *source, VmafModel *m, double *raw)
{
    const GivenValues *g = source;
    int same = m->n_features == g->first->n_features;
    for (unsigned k = 0; same && k < m->n_features; k++)
        same = !strcmp(m->feature[k].name, g->first->feature[k].name);
    if (!same) {
        ls_set_error("model \"%s\" reads other features than \"%s\"", m->name, g->first->name);
        return -EINVAL;
    }
    memcpy(raw, g->raw, m->n_features * sizeof(*raw));
    return 0;
}

int ls_model_collection_predict_values(const VmafModelCollection *c, const double *raw,
                                       double *member_scores, VmafModelCollectionScore *score)
{
    if (!c || !raw || !member_scores || !score)
        return -EINVAL;
    GivenValues g = { c->model[0], raw };
    return predict_collection(c, given_values, &g, member_scores, score);
}

/* ---- scoring in a context ---- */

typedef struct Stored {
    LsCollector *fc;
    unsigned index;
} Stored;

static int features_at(LsCollector *fc, VmafModel *m, unsigned index, double *raw)
{
    for (unsigned k = 0; k < m->n_features; k++) {
        const char *key;
        int err = ls_model_feature_key(m, k, &key);
        if (err)
            return err;
        if (ls_collector_get(fc, key, index, &raw[k])) {
            ls_set_error("model \"%s\": no feature \"%s\" at index %u", m->name, key, index);
            return -EINVAL;
        }
    }
    return 0;
}

static int stored_values(void *source, VmafModel *m, double *raw)
{
    const Stored *st = source;
    return features_at(st->fc, m, st->index, raw);
}

static int use_model_features(VmafContext *ctx, VmafModel *m)
{
    for (unsigned k = 0; k < m->n_features; k++) {
        const LsModelFeature *f = &m->feature[k];
        const LsExtractor *ex = ls_extractor_providing(f->name);
        if (!ex) {
            ls_set_error("%s: no extractor in this build provides feature \"%s\"", m->source,
                         f->name);
            return -EINVAL;
        }
        unsigned n;
        const LsOptionValue *values = ls_dict_entries(f->opts, &n);
        const int err = ls_context_use_extractor(ctx, ex, values, n, false);
        if (err) {
            char why[1024];
            snprintf(why, sizeof(why), "%s", lockstep_last_error());
            ls_set_error("%s: feature \"%s\": %s", m->source, f->name, why);
            return err;
        }
    }
    return 0;
}

int vmaf_use_features_from_model(VmafContext *ctx, VmafModel *m)
{
    if (!ctx || !m)
        return -EINVAL;
    return use_model_features(ctx, m);
}

int vmaf_use_features_from_model_collection(VmafContext *ctx, VmafModelCollection *c)
{
    if (!ctx || !c)
        return -EINVAL;
    for (unsigned i = 0; i < c->cnt; i++) {
        const int err = use_model_features(ctx, c->model[i]);
        if (err)
            return err;
    }
    return 0;
}

int vmaf_score_at_index(VmafContext *ctx, VmafModel *m, double *score, unsigned index)
{
    if (!ctx || !m || !score)
        return -EINVAL;
    LsCollector *fc = ls_context_collector(ctx);
    if (!ls_collector_get(fc, m->name, index, score))
        return 0;
    double raw[LS_MODEL_MAX_FEATURES];
    int err = features_at(fc, m, index, raw);
    if (err)
        return err;
    ls_model_predict_values(m, raw, 0, score);
    return ls_collector_append(fc, m->name, *score, index);
}

static int skipped(unsigned n_sub, unsigned i) { return n_sub > 1 && i % n_sub != 0; }

int vmaf_score_pooled(VmafContext *ctx, VmafModel *m, enum VmafPoolingMethod method,
                      double *score, unsigned index_low, unsigned index_high)
{
    if (!ctx || !m || !score || index_low > index_high || method <= VMAF_POOL_METHOD_UNKNOWN ||
        method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    const unsigned n_sub = ls_context_subsample(ctx);
    for (unsigned i = index_low;; i++) {
        double s;
        if (!skipped(n_sub, i)) {
            const int err = vmaf_score_at_index(ctx, m, &s, i);
            if (err)
                return err;
        }
        if (i == index_high)
            break;
    }
    return ls_pool(ls_context_collector(ctx), m->name, method, n_sub, index_low, index_high, score);
}

static const char *const summary_suffix[] = { "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi" };

int vmaf_score_at_index_model_collection(VmafContext *ctx, VmafModelCollection *c,
                                         VmafModelCollectionScore *score, unsigned index)
{
    if (!ctx || !c || !score)
        return -EINVAL;
    Stored st = { ls_context_collector(ctx), index };
    double *members = malloc(c->cnt * sizeof(*members));
    if (!members)
        return -ENOMEM;
    int err = predict_collection(c, stored_values, &st, members, score);
    for (unsigned j = 0; j < c->cnt && !err; j++)
        err = ls_collector_append(st.fc, c->model[j]->name, members[j], index);
    double *const summary[] = { &score->bootstrap.bagging_score, &score->bootstrap.stddev,
                                &score->bootstrap.ci.p95.lo, &score->bootstrap.ci.p95.hi };
    for (unsigned s = 0; s < 4 && !err; s++) {
        char name[300];
        snprintf(name, sizeof(name), "%s%s", c->name, summary_suffix[s]);
        err = ls_collector_append(st.fc, name, *summary[s], index);
    }
    free(members);
    return err;
}

int vmaf_score_pooled_model_collection(VmafContext *ctx, VmafModelCollection *c,
                                       enum VmafPoolingMethod method,
                                       VmafModelCollectionScore *score, unsigned index_low,
                                       unsigned index_high)
{
    if (!ctx || !c || !score || index_low > index_high || method <= VMAF_POOL_METHOD_UNKNOWN ||
        method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    const unsigned n_sub = ls_context_subsample(ctx);
    for (unsigned i = index_low;; i++) {
        VmafModelCollectionScore s;
        if (!skipped(n_sub, i)) {
            const int err = vmaf_score_at_index_model_collection(ctx, c, &s, i);
            if (err)
                return err;
        }
        if (i == index_high)
            break;
    }
    double *dst[] = { &score->bootstrap.bagging_score, &score->bootstrap.stddev,
                      &score->bootstrap.ci.p95.lo, &score->bootstrap.ci.p95.hi };
    score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    for (unsigned s = 0; s < 4; s++) {
        char name[300];
        snprintf(name, sizeof(name), "%s%s", c->name, summary_suffix[s]);
        const int err = ls_pool(ls_context_collector(ctx), name, method, n_sub, index_low,
                                index_high, dst[s]);
        if (err)
            return err;
    }
    return 0;
}
