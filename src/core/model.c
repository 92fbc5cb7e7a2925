/* Loading VMAF model files (libvmaf's read_json_model.c and model.c): built-in JSON texts or a
 * path, single models and bootstrap collections, feature overloads. Every refusal is one line
 * naming the file, the field and the problem (lockstep_last_error()).
 *
 * JSON numbers: cJSON converts them with strtod on the number's text (as libvmaf does), in the
 * "C" numeric locale while a model loads (uselocale below); test_model checks every number of
 * every shipped model against strtod and strtof of its text. Where the spec asks for strtof of
 * the text (feature options, options.md §3.3) the double is narrowed instead: for the numbers of
 * the shipped models the two are the same float (same test).
 *
 * Deviations from libvmaf, each a refusal where libvmaf would go on to fail later, crash or
 * write no score: a model without norm_type, model or feature_names is refused at load (libvmaf
 * fails at prediction or dereferences NULL); chroma_correction_parameter 0 is refused (libvmaf
 * returns success without a score), as is one without exactly one adm3 and one speed_chroma
 * feature; more feature_opts_dicts than features; libsvm classifier types and the precomputed
 * kernel; support-vector indices that do not increase. An overload that no model feature takes
 * is an error (libvmaf ignores it). Errors are recorded for lockstep_last_error(), not logged,
 * so that a tool prints one line. */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/dict.h"
#include "core/log.h"
#include "core/model.h"
#include "core/output.h"
#include "core/registry.h"

#define MAX_MODEL_FILE_SIZE (64u << 20)
/* field paths in messages: a key, then up to two levels of [index] under it */
#define FIELD_LEN 128

/* Where a refusal happened: "<source>: <entry>model_dict.<field>: <problem>". */
typedef struct Where {
    const char *source;
    char entry[32];              /* "entry \"3\": " inside a collection, else "" */
} Where;

static int fail(const Where *w, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(const Where *w, const char *field, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    ls_set_error("%s: %s%s%s%s", w->source, w->entry, field ? field : "", field ? ": " : "", what);
    return -EINVAL;
}

static const char *json_type(const cJSON *v)
{
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an invalid value";
}

static int expect(const Where *w, const char *field, const cJSON *v, cJSON_bool ok,
                  const char *wanted)
{
    return ok ? 0 : fail(w, field, "expected %s, found %s", wanted, json_type(v));
}

static int parse_number_array(const Where *w, const char *field, const cJSON *v, double *out,
                              unsigned max, unsigned *n)
{
    int err = expect(w, field, v, cJSON_IsArray(v), "an array of numbers");
    if (err)
        return err;
    unsigned i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        char at[FIELD_LEN + 64];
        snprintf(at, sizeof(at), "%s[%u]", field, i);
        if (i >= max)
            return fail(w, field, "more than %u entries", max);
        if ((err = expect(w, at, e, cJSON_IsNumber(e), "a number")))
            return err;
        out[i] = e->valuedouble;
    }
    *n = i;
    return 0;
}

static int parse_transform(const Where *w, const cJSON *obj, LsScoreTransform *t)
{
    static const char *const p_names[] = { "p0", "p1", "p2" };
    int err = expect(w, "model_dict.score_transform", obj, cJSON_IsObject(obj), "an object");
    if (err)
        return err;
    memset(t, 0, sizeof(*t));
    for (const cJSON *e = obj->child; e; e = e->next) {
        char at[FIELD_LEN];
        snprintf(at, sizeof(at), "model_dict.score_transform.%s", e->string);
        if (!strcmp(e->string, "enabled")) {
            if ((err = expect(w, at, e, cJSON_IsBool(e), "true or false")))
                return err;
            t->enabled = cJSON_IsTrue(e);
            continue;
        }
        if (!strcmp(e->string, "out_lte_in") || !strcmp(e->string, "out_gte_in")) {
            /* libvmaf takes the string "true"; any other string leaves the rule off */
            if ((err = expect(w, at, e, cJSON_IsString(e), "a string (\"true\" or \"false\")")))
                return err;
            const bool on = !strcmp(e->valuestring, "true");
            if (!strcmp(e->string, "out_lte_in"))
                t->out_lte_in = on;
            else
                t->out_gte_in = on;
            continue;
        }
        int p = -1;
        for (int k = 0; k < 3; k++)
            if (!strcmp(e->string, p_names[k]))
                p = k;
        /* libvmaf's parser does not consume a null here and the load fails: refuse it too */
        if ((p >= 0 || !strcmp(e->string, "knots")) && cJSON_IsNull(e))
            return fail(w, at, "null is not accepted (libvmaf refuses it too): give a %s or "
                               "leave the key out", p >= 0 ? "number" : "list of [x, y] knots");
        if (p >= 0) {
            if ((err = expect(w, at, e, cJSON_IsNumber(e), "a number")))
                return err;
            t->has_p[p] = true;
            t->p[p] = e->valuedouble;
            continue;
        }
        if (!strcmp(e->string, "knots")) {
            if ((err = expect(w, at, e, cJSON_IsArray(e), "an array of [x, y] pairs")))
                return err;
            unsigned k = 0;
            for (const cJSON *knot = e->child; knot; knot = knot->next, k++) {
                char kat[FIELD_LEN + 32];
                snprintf(kat, sizeof(kat), "%s[%u]", at, k);
                if (k >= LS_MODEL_MAX_KNOTS)
                    return fail(w, at, "more than %d knots", LS_MODEL_MAX_KNOTS);
                double xy[3];
                unsigned n = 0;
                if ((err = parse_number_array(w, kat, knot, xy, 3, &n)))
                    return err;
                if (n != 2)
                    return fail(w, kat, "a knot is [x, y], found %u numbers", n);
                t->knot_x[k] = xy[0];
                t->knot_y[k] = xy[1];
            }
            t->has_knots = true;
            t->n_knots = k;
        }
    }
    return 0;
}

/* One option value as libvmaf's dictionary stores it (options.md §3.3). */
static int parse_option(const Where *w, const char *at, const cJSON *v, VmafFeatureDictionary **d)
{
    char text[64];
    const char *value;
    if (cJSON_IsNumber(v)) {
        snprintf(text, sizeof(text), "%g", (double)(float)v->valuedouble);
        value = text;
    } else if (cJSON_IsBool(v)) {
        value = cJSON_IsTrue(v) ? "true" : "false";
    } else if (cJSON_IsString(v)) {
        value = v->valuestring;
    } else {
        return fail(w, at, "expected a number, a string or a boolean, found %s", json_type(v));
    }
    VmafFeatureDictionary *probe = NULL;
    int err = vmaf_feature_dictionary_set(&probe, v->string, value);
    unsigned n, m;
    const LsOptionValue *normalised = ls_dict_entries(probe, &n);
    const LsOptionValue *have = ls_dict_entries(*d, &m);
    for (unsigned i = 0; !err && i < m; i++)
        if (!strcmp(have[i].key, v->string) && strcmp(have[i].value, normalised[0].value))
            err = fail(w, at, "given twice, as \"%s\" and \"%s\"", have[i].value,
                       normalised[0].value);
    vmaf_feature_dictionary_free(&probe);
    if (!err)
        err = vmaf_feature_dictionary_set(d, v->string, value);
    return err;
}

static int parse_opts_dicts(const Where *w, const cJSON *v, VmafModel *m, unsigned *n)
{
    int err = expect(w, "model_dict.feature_opts_dicts", v, cJSON_IsArray(v),
                     "an array of objects");
    if (err)
        return err;
    unsigned i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        char at[64];
        snprintf(at, sizeof(at), "model_dict.feature_opts_dicts[%u]", i);
        if (i >= LS_MODEL_MAX_FEATURES)
            return fail(w, "model_dict.feature_opts_dicts", "more than %d entries",
                        LS_MODEL_MAX_FEATURES);
        if ((err = expect(w, at, e, cJSON_IsObject(e), "an object")))
            return err;
        vmaf_feature_dictionary_free(&m->feature[i].opts);
        for (const cJSON *o = e->child; o; o = o->next) {
            char oat[160];
            snprintf(oat, sizeof(oat), "%s.%s", at, o->string);
            if ((err = parse_option(w, oat, o, &m->feature[i].opts)))
                return err;
        }
    }
    *n = i;
    return 0;
}

static int parse_model_dict(const Where *w, const cJSON *md, VmafModel *m, uint64_t flags)
{
    int err = expect(w, "model_dict", md, cJSON_IsObject(md), "an object");
    if (err)
        return err;
    double slopes[LS_MODEL_MAX_FEATURES + 1] = { 0 }, intercepts[LS_MODEL_MAX_FEATURES + 1] = { 0 };
    unsigned n_slopes = 0, n_intercepts = 0, n_opts = 0;
    bool have_type = false, have_norm = false, have_names = false, have_svm = false;
    bool have_transform = false;
    for (const cJSON *e = md->child; e && !err; e = e->next) {
        char at[FIELD_LEN];
        snprintf(at, sizeof(at), "model_dict.%s", e->string);
        const char *k = e->string;
        if (!strcmp(k, "model_type")) {
            if ((err = expect(w, at, e, cJSON_IsString(e), "a string")))
                break;
            if (!strcmp(e->valuestring, "LIBSVMNUSVR"))
                m->type = LS_MODEL_SVM_NUSVR;
            else if (!strcmp(e->valuestring, "BOOTSTRAP_LIBSVMNUSVR"))
                m->type = LS_MODEL_BOOTSTRAP_SVM_NUSVR;
            else if (!strcmp(e->valuestring, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
                m->type = LS_MODEL_RESIDUE_BOOTSTRAP_SVM_NUSVR;
            else
                err = fail(w, at, "\"%s\" is not a model type (LIBSVMNUSVR, "
                                  "BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)",
                           e->valuestring);
            have_type = true;
        } else if (!strcmp(k, "norm_type")) {
            if ((err = expect(w, at, e, cJSON_IsString(e), "a string")))
                break;
            if (!strcmp(e->valuestring, "linear_rescale"))
                m->norm = LS_MODEL_NORM_LINEAR_RESCALE;
            else if (!strcmp(e->valuestring, "none"))
                m->norm = LS_MODEL_NORM_NONE;
            else
                err = fail(w, at, "\"%s\" is not a norm type (linear_rescale or none)",
                           e->valuestring);
            have_norm = true;
        } else if (!strcmp(k, "score_clip")) {
            double mm[2];
            unsigned n = 0;
            if ((err = expect(w, at, e, cJSON_IsArray(e), "an array [min, max]")))
                break;
            for (const cJSON *c = e->child; c && n < 2; c = c->next, n++) {
                char cat[FIELD_LEN + 32];
                snprintf(cat, sizeof(cat), "%s[%u]", at, n);
                if ((err = expect(w, cat, c, cJSON_IsNumber(c), "a number")))
                    break;
                mm[n] = c->valuedouble;
            }
            if (!err && n < 2)
                err = fail(w, at, "expected [min, max], found %u number%s", n, n == 1 ? "" : "s");
            if (!err && !(flags & VMAF_MODEL_FLAG_DISABLE_CLIP)) {
                m->clip = true;
                m->clip_min = mm[0];
                m->clip_max = mm[1];
            }
        } else if (!strcmp(k, "score_transform")) {
            err = parse_transform(w, e, &m->transform);
            have_transform = true;
        } else if (!strcmp(k, "feature_names")) {
            if ((err = expect(w, at, e, cJSON_IsArray(e), "an array of strings")))
                break;
            for (unsigned i = 0; i < m->n_features; i++) {
                free(m->feature[i].name);
                m->feature[i].name = NULL;
            }
            m->n_features = 0;
            for (const cJSON *f = e->child; f && !err; f = f->next) {
                char fat[FIELD_LEN + 32];
                snprintf(fat, sizeof(fat), "%s[%u]", at, m->n_features);
                if (m->n_features == LS_MODEL_MAX_FEATURES)
                    err = fail(w, at, "more than %d features", LS_MODEL_MAX_FEATURES);
                else if (!(err = expect(w, fat, f, cJSON_IsString(f), "a string")) &&
                         !(m->feature[m->n_features++].name = strdup(f->valuestring)))
                    err = -ENOMEM;
            }
            have_names = true;
        } else if (!strcmp(k, "feature_opts_dicts")) {
            err = parse_opts_dicts(w, e, m, &n_opts);
        } else if (!strcmp(k, "slopes")) {
            err = parse_number_array(w, at, e, slopes, LS_MODEL_MAX_FEATURES + 1, &n_slopes);
        } else if (!strcmp(k, "intercepts")) {
            err = parse_number_array(w, at, e, intercepts, LS_MODEL_MAX_FEATURES + 1,
                                     &n_intercepts);
        } else if (!strcmp(k, "model")) {
            char why[256];
            if ((err = expect(w, at, e, cJSON_IsString(e), "a string (libsvm model text)")))
                break;
            ls_svm_free(m->svm);
            m->svm = NULL;
            err = ls_svm_parse(e->valuestring, &m->svm, why, sizeof(why));
            if (err == -EINVAL)
                fail(w, at, "%s", why);
            have_svm = true;
        } else if (!strcmp(k, "chroma_correction_parameter")) {
            if ((err = expect(w, at, e, cJSON_IsNumber(e), "a number")))
                break;
            m->chroma_correction = true;
            m->chroma_parameter = e->valuedouble;
        }
    }
    if (err)
        return err;
    if (!have_type)
        return fail(w, "model_dict", "no \"model_type\" (LIBSVMNUSVR)");
    if (!have_norm)
        return fail(w, "model_dict", "no \"norm_type\" (linear_rescale or none)");
    if (!have_names)
        return fail(w, "model_dict", "no \"feature_names\"");
    if (!have_svm)
        return fail(w, "model_dict", "no \"model\" (the libsvm model text)");
    if (n_opts > m->n_features)
        return fail(w, "model_dict.feature_opts_dicts", "%u entries for %u features", n_opts,
                    m->n_features);
    m->slope = slopes[0];
    m->intercept = intercepts[0];
    for (unsigned i = 0; i < m->n_features; i++) {
        m->feature[i].slope = slopes[i + 1];
        m->feature[i].intercept = intercepts[i + 1];
    }
    if (have_transform && !m->transform.enabled && (flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM))
        m->transform.enabled = true;
    if (m->chroma_correction) {
        /* libvmaf returns without a score for 0: refuse the model instead */
        if (m->chroma_parameter == 0.0)
            return fail(w, "model_dict.chroma_correction_parameter",
                        "0 gives no score (libvmaf writes none): remove it or give the parameter");
        int guiding = -1, guided = -1;
        for (unsigned i = 0; i < m->n_features; i++) {
            const char *name = m->feature[i].name;
            const int is_guiding = strstr(name, "adm3") != NULL;
            const int is_guided = strstr(name, "speed_chroma") != NULL;
            if ((is_guiding && guiding >= 0) || (is_guided && guided >= 0))
                return fail(w, "model_dict.feature_names", "two features contain \"%s\": the "
                            "chroma correction needs exactly one", is_guiding ? "adm3" : "speed_chroma");
            if (is_guiding)
                guiding = (int)i;
            if (is_guided)
                guided = (int)i;
        }
        if (guiding < 0 || guided < 0)
            return fail(w, "model_dict.chroma_correction_parameter",
                        "needs a feature containing \"%s\" in feature_names",
                        guiding < 0 ? "adm3" : "speed_chroma");
        m->chroma_guiding = (unsigned)guiding;
        m->chroma_guided = (unsigned)guided;
    }
    return 0;
}

void vmaf_model_destroy(VmafModel *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < LS_MODEL_MAX_FEATURES; i++) {
        free(m->feature[i].name);
        free(m->feature[i].key);
        vmaf_feature_dictionary_free(&m->feature[i].opts);
    }
    ls_svm_free(m->svm);
    free(m->name);
    free(m->source);
    free(m);
}

static VmafModel *model_new(const char *name, const char *source)
{
    VmafModel *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->name = strdup(name);
    m->source = strdup(source);
    if (!m->name || !m->source) {
        vmaf_model_destroy(m);
        return NULL;
    }
    return m;
}

/* An entry object ({"model_dict": ..., "param_dict": ...}) into a model. */
static int parse_entry(const Where *w, const cJSON *entry, const char *name, uint64_t flags,
                       VmafModel **out)
{
    if (!cJSON_IsObject(entry))
        return fail(w, NULL, "expected an object, found %s", json_type(entry));
    const cJSON *md = NULL;
    for (const cJSON *e = entry->child; e; e = e->next)
        if (!strcmp(e->string, "model_dict"))
            md = e;
    if (!md)
        return fail(w, NULL, "no \"model_dict\" object");
    VmafModel *m = model_new(name, w->source);
    if (!m)
        return -ENOMEM;
    const int err = parse_model_dict(w, md, m, flags);
    if (err) {
        vmaf_model_destroy(m);
        return err;
    }
    *out = m;
    return 0;
}

static void line_and_column(const char *text, const char *at, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (const char *c = text; c < at && *c; c++) {
        if (*c == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static int parse_json(const char *source, const char *text, size_t len, cJSON **doc)
{
    const Where w = { .source = source };
    if (strlen(text) != len)
        return fail(&w, NULL, "not a JSON text (it contains a NUL byte)");
    const char *end = NULL;
    *doc = cJSON_ParseWithOpts(text, &end, 1);
    if (!*doc) {
        unsigned line, col;
        line_and_column(text, end ? end : text, &line, &col);
        return fail(&w, NULL, "not valid JSON (line %u, column %u)", line, col);
    }
    if (!cJSON_IsObject(*doc)) {
        const int err = fail(&w, NULL, "expected a JSON object at the top level, found %s",
                             json_type(*doc));
        cJSON_Delete(*doc);
        *doc = NULL;
        return err;
    }
    return 0;
}

static const char *config_name(const VmafModelConfig *cfg)
{
    return cfg->name ? cfg->name : "vmaf";
}

static int load_single(const char *source, const char *text, size_t len, VmafModelConfig *cfg,
                       VmafModel **model)
{
    cJSON *doc;
    int err = parse_json(source, text, len, &doc);
    if (err)
        return err;
    const Where w = { .source = source };
    const cJSON *md = NULL;
    for (const cJSON *e = doc->child; e; e = e->next)
        if (!strcmp(e->string, "model_dict"))
            md = e;
    if (!md)
        err = cJSON_GetObjectItemCaseSensitive(doc, "0")
                  ? fail(&w, NULL, "a model collection, not a single model (load it as a "
                                   "collection)")
                  : fail(&w, NULL, "no \"model_dict\" object at the top level");
    else
        err = parse_entry(&w, doc, config_name(cfg), cfg->flags, model);
    cJSON_Delete(doc);
    return err;
}

void vmaf_model_collection_destroy(VmafModelCollection *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->cnt; i++)
        vmaf_model_destroy(c->model[i]);
    free(c->model);
    free(c->name);
    free(c);
}

static int load_collection(const char *source, const char *text, size_t len,
                           VmafModelConfig *cfg, VmafModel **model, VmafModelCollection **out)
{
    cJSON *doc;
    int err = parse_json(source, text, len, &doc);
    if (err)
        return err;
    Where w = { .source = source };
    const char *name = config_name(cfg);
    VmafModel *primary = NULL;
    VmafModelCollection *c = calloc(1, sizeof(*c));
    if (!c || !(c->name = strdup(name)) ||
        !(c->model = calloc(cJSON_GetArraySize(doc) + 1, sizeof(*c->model)))) {
        err = -ENOMEM;
        goto out;
    }
    /* entries in file order, each taken when its key is the next count: "0", "1", ... */
    unsigned next = 0;
    for (const cJSON *e = doc->child; e; e = e->next) {
        char key[16];
        snprintf(key, sizeof(key), "%u", next);
        if (strcmp(e->string, key))
            continue;
        snprintf(w.entry, sizeof(w.entry), "entry \"%u\": ", next);
        char member[256];
        snprintf(member, sizeof(member), "%s_%04u", name, next);
        VmafModel *m;
        if ((err = parse_entry(&w, e, next ? member : name, cfg->flags, &m)))
            goto out;
        if (next == 0)
            primary = m;
        else
            c->model[c->cnt++] = m;
        next++;
    }
    w.entry[0] = 0;
    if (next == 0) {
        if (cJSON_GetObjectItemCaseSensitive(doc, "model_dict")) {
            /* a single model: say what is wrong with it, if anything, or what it is */
            VmafModel *single;
            err = parse_entry(&w, doc, name, cfg->flags, &single);
            if (!err) {
                vmaf_model_destroy(single);
                err = fail(&w, NULL, "a single model, not a model collection");
            }
        } else {
            err = fail(&w, NULL, "neither \"model_dict\" (a model) nor \"0\" (a model collection) "
                                 "at the top level");
        }
        goto out;
    }
    if (!c->cnt) {
        err = fail(&w, NULL, "a model collection needs entries \"0\" and \"1\"...: only \"0\" found");
        goto out;
    }
    c->type = c->model[0]->type;
    for (unsigned i = 1; i < c->cnt; i++) {
        if (c->model[i]->type != c->type) {
            snprintf(w.entry, sizeof(w.entry), "entry \"%u\": ", i + 1);
            err = fail(&w, "model_dict.model_type", "differs from entry \"1\"'s: a collection's "
                                                    "members have one type");
            goto out;
        }
    }
out:
    cJSON_Delete(doc);
    if (err) {
        vmaf_model_destroy(primary);
        vmaf_model_collection_destroy(c);
        return err;
    }
    *model = primary;
    *out = c;
    return 0;
}

const char *lockstep_builtin_model(unsigned i)
{
    for (unsigned k = 0; ls_builtin_models[k].version; k++)
        if (k == i)
            return ls_builtin_models[k].version;
    return NULL;
}

static const LsBuiltinModel *builtin(const char *version)
{
    for (const LsBuiltinModel *b = ls_builtin_models; b->version; b++)
        if (!strcmp(b->version, version))
            return b;
    char list[1024] = "";
    size_t used = 0;
    for (const LsBuiltinModel *b = ls_builtin_models; b->version && used < sizeof(list); b++)
        used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
                                 b->version);
    ls_set_error("no such built-in model: \"%s\" (built in: %s)", version, list);
    return NULL;
}

/* The whole file, NUL-terminated. */
static int read_model_file(const char *path, char **text, size_t *len)
{
    const char *pkl = strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".pkl")
                          ? " (support for pkl model files has been removed, use json)" : "";
    FILE *f = fopen(path, "r");
    if (!f) {
        ls_set_error("could not read model from path: \"%s\": %s%s", path, strerror(errno), pkl);
        return -EINVAL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int err = buf ? 0 : -ENOMEM;
    while (!err) {
        if (n + 1 == cap) {
            char *grown = cap < MAX_MODEL_FILE_SIZE ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                ls_set_error("could not read model from path: \"%s\": larger than %u MiB", path,
                             MAX_MODEL_FILE_SIZE >> 20);
                err = -EINVAL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        const size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                ls_set_error("could not read model from path: \"%s\": %s%s", path,
                             strerror(errno), pkl);
                err = -EINVAL;
            }
            break;
        }
    }
    fclose(f);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return 0;
}

/* Model files are read in the "C" numeric locale whatever the program set (strtod in cJSON and
 * in the libsvm text, "%g" of option values). */
typedef struct CLocale {
    locale_t c, previous;
} CLocale;

static void c_locale_enter(CLocale *l)
{
    l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    l->previous = l->c ? uselocale(l->c) : (locale_t)0;
}

static void c_locale_leave(CLocale *l)
{
    if (l->c) {
        uselocale(l->previous);
        freelocale(l->c);
    }
}

typedef enum { LOAD_SINGLE, LOAD_COLLECTION } LoadKind;

static int load(LoadKind kind, VmafModel **model, VmafModelCollection **collection,
                VmafModelConfig *cfg, const char *version, const char *path)
{
    if (!model || !cfg || (!version && !path) || (kind == LOAD_COLLECTION && !collection))
        return -EINVAL;
    const char *text;
    size_t len;
    char *file = NULL;
    if (version) {
        const LsBuiltinModel *b = builtin(version);
        if (!b)
            return -EINVAL;
        text = b->json;
        len = b->len;
    } else {
        const int err = read_model_file(path, &file, &len);
        if (err)
            return err;
        text = file;
    }
    CLocale loc;
    c_locale_enter(&loc);
    const char *source = version ? version : path;
    const int err = kind == LOAD_SINGLE ? load_single(source, text, len, cfg, model)
                                        : load_collection(source, text, len, cfg, model, collection);
    c_locale_leave(&loc);
    free(file);
    return err;
}

int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version)
{
    return version ? load(LOAD_SINGLE, model, NULL, cfg, version, NULL) : -EINVAL;
}

int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg, const char *path)
{
    return path ? load(LOAD_SINGLE, model, NULL, cfg, NULL, path) : -EINVAL;
}

int vmaf_model_collection_load(VmafModel **model, VmafModelCollection **collection,
                               VmafModelConfig *cfg, const char *version)
{
    return version ? load(LOAD_COLLECTION, model, collection, cfg, version, NULL) : -EINVAL;
}

int vmaf_model_collection_load_from_path(VmafModel **model, VmafModelCollection **collection,
                                         VmafModelConfig *cfg, const char *path)
{
    return path ? load(LOAD_COLLECTION, model, collection, cfg, NULL, path) : -EINVAL;
}

/* ---- features ---- */

int ls_model_feature_key(VmafModel *m, unsigned k, const char **key)
{
    LsModelFeature *f = &m->feature[k];
    if (f->key) {
        *key = f->key;
        return 0;
    }
    unsigned n;
    const LsOptionValue *values = ls_dict_entries(f->opts, &n);
    const LsExtractor *ex = ls_extractor_providing(f->name);
    char name[256];
    if (!ex && n) {
        ls_set_error("%s: no extractor in this build provides feature \"%s\", so the name it "
                     "has with its options is unknown", m->source, f->name);
        return -EINVAL;
    }
    if (!ex) {
        snprintf(name, sizeof(name), "%s", f->name);
    } else {
        void *priv = calloc(1, ex->priv_size ? ex->priv_size : 1);
        char why[512];
        if (!priv)
            return -ENOMEM;
        if (ls_options_apply(ex->name, ex->options, priv, values, n, why, sizeof(why))) {
            free(priv);
            ls_set_error("%s: feature \"%s\": %s", m->source, f->name, why);
            return -EINVAL;
        }
        ls_feature_param_name(name, sizeof(name), f->name, ls_output_alias(f->name), ex->options,
                              priv);
        free(priv);
    }
    if (!(f->key = strdup(name)))
        return -ENOMEM;
    *key = f->key;
    return 0;
}

int vmaf_model_feature_overload(VmafModel *m, const char *extractor, VmafFeatureDictionary *opts)
{
    if (!m || !extractor || !opts)
        return -EINVAL;
    unsigned n, matched = 0;
    const LsOptionValue *values = ls_dict_entries(opts, &n);
    int err = 0;
    for (unsigned k = 0; k < m->n_features && !err; k++) {
        LsModelFeature *f = &m->feature[k];
        const LsExtractor *ex = ls_extractor_providing(f->name);
        if (!ex || strcmp(ex->name, extractor))
            continue;
        matched++;
        for (unsigned i = 0; i < n && !err; i++)
            err = vmaf_feature_dictionary_set(&f->opts, values[i].key, values[i].value);
        free(f->key);
        f->key = NULL;
    }
    if (!err && !matched) {
        ls_set_error("%s: no feature of the model is computed by extractor \"%s\"", m->source,
                     extractor);
        err = -EINVAL;
    }
    vmaf_feature_dictionary_free(&opts);
    return err;
}

int vmaf_model_collection_feature_overload(VmafModel *model, VmafModelCollection **collection,
                                           const char *extractor, VmafFeatureDictionary *opts)
{
    if (!collection || !*collection || !model || !extractor || !opts)
        return -EINVAL;
    const VmafModelCollection *c = *collection;
    unsigned n;
    const LsOptionValue *values = ls_dict_entries(opts, &n);
    int err = 0;
    for (unsigned i = 0; i < c->cnt && !err; i++) {
        VmafFeatureDictionary *copy = NULL;
        for (unsigned k = 0; k < n && !err; k++)
            err = vmaf_feature_dictionary_set(&copy, values[k].key, values[k].value);
        if (err)
            vmaf_feature_dictionary_free(&copy);
        else if (copy)
            err = vmaf_model_feature_overload(c->model[i], extractor, copy);
    }
    if (err) {
        vmaf_feature_dictionary_free(&opts);
        return err;
    }
    return vmaf_model_feature_overload(model, extractor, opts);
}
