/* VMAF models through the public API: built-in and file loading, the exact message of every
 * refusal, ownership, overloads and the feature names they give, each prediction step against
 * the spec's formula (transform, knots and their quirks, clip, chroma correction, kernels, sparse
 * support vectors), scoring in a context with imported and with extracted features, and every
 * number of every shipped model file against strtod/strtof of its text.
 * usage: test_model MODELS_DIR WORK_DIR; test_model --bench times loading and prediction. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "core/dict.h"
#include "core/model.h"
#include "lockstep/lockstep.h"
#include "test_support.h"

static const char *work;
static unsigned checked_numbers, checked_messages;

static int same(double a, double b) { return double_bits(a) == double_bits(b); }

/* ---- every number of the shipped files: cJSON's double is strtod of the text ---- */

/* The number tokens of a JSON text, outside strings, in document order. */
static unsigned number_tokens(const char *t, char (*tok)[64], unsigned max)
{
    unsigned n = 0;
    for (const char *p = t; *p;) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p)
                p++;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            size_t k = 0;
            while (*p && strchr("+-.eE0123456789", *p)) {
                if (k < 63 && n < max)
                    tok[n][k++] = *p;
                p++;
            }
            if (n < max)
                tok[n][k] = 0;
            n++;
        } else {
            p++;
        }
    }
    return n;
}

static void walk_numbers(const cJSON *v, char (*tok)[64], unsigned n, unsigned *i, const char *file)
{
    for (; v; v = v->next) {
        if (cJSON_IsNumber(v)) {
            CHECK(*i < n, "%s: more numbers in the tree than in the text", file);
            if (*i < n) {
                const double d = strtod(tok[*i], NULL);
                const float f = strtof(tok[*i], NULL);
                CHECK(same(v->valuedouble, d), "%s: %s parsed as %.17g, strtod %.17g", file,
                      tok[*i], v->valuedouble, d);
                CHECK(float_bits((float)v->valuedouble) == float_bits(f),
                      "%s: %s narrowed to %.9g, strtof %.9g", file, tok[*i],
                      (double)(float)v->valuedouble, (double)f);
                checked_numbers++;
            }
            (*i)++;
        }
        walk_numbers(v->child, tok, n, i, file);
    }
}

static char *model_text(const char *dir, const char *version)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.json", dir, version);
    return read_file(path);
}

static void test_builtins(const char *dir)
{
    static char tok[20000][64];
    unsigned n_builtin = 0;
    for (const char *v; (v = lockstep_builtin_model(n_builtin)); n_builtin++) {
        /* the embedded text is the file, byte for byte */
        char *text = model_text(dir, v);
        CHECK(text && strlen(text) == ls_builtin_models[n_builtin].len &&
                  !memcmp(text, ls_builtin_models[n_builtin].json, strlen(text)),
              "built-in %s differs from models/%s.json", v, v);
        const unsigned n = text ? number_tokens(text, tok, 20000) : 0;
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        unsigned i = 0;
        walk_numbers(doc, tok, n, &i, v);
        CHECK(i == n && n > 0, "%s: %u numbers in the tree, %u in the text", v, i, n);
        cJSON_Delete(doc);
        free(text);

        VmafModelConfig cfg = { 0 };
        VmafModel *m = NULL;
        VmafModelCollection *c = NULL;
        const int single = vmaf_model_load(&m, &cfg, v);
        if (single) {
            CHECK(strstr(v, "_b_v0.6.3") != NULL, "%s: %s", v, lockstep_last_error());
            CHECK(strstr(lockstep_last_error(), ": a model collection, not a single model") != NULL,
                  "%s", lockstep_last_error());
            CHECK(vmaf_model_collection_load(&m, &c, &cfg, v) == 0, "%s: %s", v,
                  lockstep_last_error());
            CHECK(c && c->cnt == 20 && !strcmp(c->name, "vmaf") && !strcmp(m->name, "vmaf") &&
                      !strcmp(c->model[0]->name, "vmaf_0001") &&
                      !strcmp(c->model[19]->name, "vmaf_0020"),
                  "%s: collection layout", v);
        } else {
            CHECK(!strcmp(m->name, "vmaf") && m->n_features >= 4 && m->svm, "%s", v);
            CHECK(vmaf_model_collection_load(&m, &c, &cfg, v) == -EINVAL, "%s", v);
            char want[256];
            snprintf(want, sizeof(want), "%s: a single model, not a model collection", v);
            CHECK(!strcmp(lockstep_last_error(), want), "%s", lockstep_last_error());
            checked_messages++;
        }
        vmaf_model_collection_destroy(c);
        vmaf_model_destroy(m);
    }
    CHECK(n_builtin == 17, "%u built-in models, expected 17", n_builtin);

    /* load flags on the shipped models (model.md §2.3, §7) */
    VmafModel *m;
    VmafModelConfig cfg = { .name = "x", .flags = 0 };
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1") == 0 && !m->transform.enabled && m->clip &&
              m->clip_min == 0 && m->clip_max == 100 && m->transform.out_gte_in &&
              m->transform.has_p[0] && !m->transform.has_knots && !strcmp(m->name, "x"),
          "vmaf_v0.6.1: transform present but off, clip [0, 100]");
    vmaf_model_destroy(m);
    cfg.flags = VMAF_MODEL_FLAG_ENABLE_TRANSFORM | VMAF_MODEL_FLAG_DISABLE_CLIP;
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1") == 0 && m->transform.enabled && !m->clip,
          "vmaf_v0.6.1 with enable_transform and disable_clip");
    vmaf_model_destroy(m);
    cfg.flags = 0;
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v1.0.16_3d0h_2160") == 0 && m->transform.enabled &&
              m->clip_max == 110 && m->chroma_correction && m->chroma_parameter == 120 &&
              m->chroma_guiding == 2 && m->chroma_guided == 1,
          "vmaf_v1.0.16_3d0h_2160: transform on, clip [0, 110], chroma correction");
    vmaf_model_destroy(m);
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1neg") == 0, "neg");
    unsigned n_opts;
    const LsOptionValue *o = ls_dict_entries(m->feature[0].opts, &n_opts);
    CHECK(n_opts == 1 && !strcmp(o[0].key, "adm_enhn_gain_limit") && !strcmp(o[0].value, "1") &&
              m->feature[1].opts == NULL, "neg: adm_enhn_gain_limit 1.0 stored as \"1\"");
    vmaf_model_destroy(m);
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v1.0.16_5d0h") == 0, "v1");
    o = ls_dict_entries(m->feature[1].opts, &n_opts);
    int seen = 0;
    for (unsigned i = 0; i < n_opts; i++)
        seen += (!strcmp(o[i].key, "speed_prescale") && !strcmp(o[i].value, "0.6")) +
                (!strcmp(o[i].key, "speed_prescale_method") && !strcmp(o[i].value, "bilinear"));
    o = ls_dict_entries(m->feature[0].opts, &n_opts);
    for (unsigned i = 0; i < n_opts; i++)
        seen += !strcmp(o[i].key, "cambi_high_res_speedup") && !strcmp(o[i].value, "1080");
    o = ls_dict_entries(m->feature[3].opts, &n_opts);
    CHECK(seen == 3 && n_opts == 1 && !strcmp(o[0].value, "18"), "v1 option texts");
    vmaf_model_destroy(m);
    CHECK(strstr(ls_builtin_models_license, "BSD") != NULL, "the models' licence is embedded");
}

/* ---- refusals ---- */

static char *write_model(const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", work, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static const char svm_text[] = "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\n"
                               "total_sv 2\\nrho -1.5\\nSV\\n1 1:0.5 2:0.25 \\n-2 2:0.75 \\n";

/* A model_dict with defaults, then the given members (a later key wins, as in libvmaf). */
static char *model_json(const char *members)
{
    static char text[8192];
    snprintf(text, sizeof(text),
             "{\"param_dict\": {\"x\": null}, \"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", "
             "\"norm_type\": \"linear_rescale\", \"feature_names\": "
             "[\"VMAF_integer_feature_motion2_score\", \"VMAF_feature_motion2_score\"], "
             "\"slopes\": [0.5, 2.0, 3.0], \"intercepts\": [1.0, -0.5, 0.25], \"model\": \"%s\"%s%s}}",
             svm_text, *members ? ", " : "", members);
    return text;
}

/* Loading `text` as a file must fail with exactly "<path>: <want>". */
static void refuse(const char *what, const char *text, const char *want)
{
    const char *path = write_model("bad.json", text);
    VmafModel *m = NULL;
    VmafModelConfig cfg = { 0 };
    CHECK(vmaf_model_load_from_path(&m, &cfg, path) == -EINVAL && !m, "%s: loaded", what);
    char full[8192];
    snprintf(full, sizeof(full), "%s: %s", path, want);
    CHECK(!strcmp(lockstep_last_error(), full), "%s:\n  got  %s\n  want %s", what,
          lockstep_last_error(), full);
    checked_messages++;
}

static void refuse_collection(const char *what, const char *text, const char *want)
{
    const char *path = write_model("badc.json", text);
    VmafModel *m = NULL;
    VmafModelCollection *c = NULL;
    VmafModelConfig cfg = { 0 };
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, path) == -EINVAL && !m && !c,
          "%s: loaded", what);
    char full[8192];
    snprintf(full, sizeof(full), "%s: %s", path, want);
    CHECK(!strcmp(lockstep_last_error(), full), "%s:\n  got  %s\n  want %s", what,
          lockstep_last_error(), full);
    checked_messages++;
}

static void test_refusals(void)
{
    VmafModel *m = NULL;
    VmafModelCollection *c = NULL;
    VmafModelConfig cfg = { 0 };
    CHECK(vmaf_model_load(NULL, &cfg, "vmaf_v0.6.1") == -EINVAL, "NULL model");
    CHECK(vmaf_model_load(&m, NULL, "vmaf_v0.6.1") == -EINVAL, "NULL config");
    CHECK(vmaf_model_load(&m, &cfg, NULL) == -EINVAL, "NULL version");
    CHECK(vmaf_model_load_from_path(&m, &cfg, NULL) == -EINVAL, "NULL path");
    CHECK(vmaf_model_collection_load(&m, NULL, &cfg, "vmaf_b_v0.6.3") == -EINVAL, "NULL coll");
    vmaf_model_destroy(NULL);
    vmaf_model_collection_destroy(NULL);

    CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.6.2") == -EINVAL && !m, "unknown version");
    CHECK(!strcmp(lockstep_last_error(),
                  "no such built-in model: \"vmaf_v0.6.2\" (built in: vmaf_v0.6.1, vmaf_b_v0.6.3, "
                  "vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, vmaf_v1.0.16_3d0h, "
                  "vmaf_v1.0.16_3d0h_2160, vmaf_v1.0.16_5d0h, vmaf_v1.0.16_1d5h_2160, "
                  "vmaf_v1.0.16_hfr_3d0h, vmaf_v1.0.16_hfr_3d0h_2160, vmaf_v1.0.16_hfr_5d0h, "
                  "vmaf_v1.0.16_hfr_1d5h_2160, vmaf_float_v0.6.1, vmaf_float_b_v0.6.3, "
                  "vmaf_float_v0.6.1neg, vmaf_float_4k_v0.6.1)"),
          "%s", lockstep_last_error());
    CHECK(vmaf_model_load(&m, &cfg, "vmaf_b_v0.6.3") == -EINVAL, "collection as single");
    CHECK(!strcmp(lockstep_last_error(), "vmaf_b_v0.6.3: a model collection, not a single model "
                                         "(load it as a collection)"),
          "%s", lockstep_last_error());
    checked_messages += 2;

    char path[4096], want[4400];
    snprintf(path, sizeof(path), "%s/nope.json", work);
    CHECK(vmaf_model_load_from_path(&m, &cfg, path) == -EINVAL, "missing file");
    snprintf(want, sizeof(want), "could not read model from path: \"%s\": No such file or directory",
             path);
    CHECK(!strcmp(lockstep_last_error(), want), "%s", lockstep_last_error());
    snprintf(path, sizeof(path), "%s/model.pkl", work);
    CHECK(vmaf_model_load_from_path(&m, &cfg, path) == -EINVAL, "pkl");
    snprintf(want, sizeof(want), "could not read model from path: \"%s\": No such file or "
             "directory (support for pkl model files has been removed, use json)", path);
    CHECK(!strcmp(lockstep_last_error(), want), "%s", lockstep_last_error());
    CHECK(vmaf_model_load_from_path(&m, &cfg, work) == -EINVAL, "directory");
    snprintf(want, sizeof(want), "could not read model from path: \"%s\": Is a directory", work);
    CHECK(!strcmp(lockstep_last_error(), want), "%s", lockstep_last_error());
    checked_messages += 3;

    refuse("not JSON", "{\"model_dict\": {\"a\": 1,,}}", "not valid JSON (line 1, column 25)");
    refuse("not JSON, line 2", "{\n  \"model_dict\": nope}", "not valid JSON (line 2, column 17)");
    refuse("empty file", "", "not valid JSON (line 1, column 1)");
    refuse("trailing text", "{} x", "not valid JSON (line 1, column 4)");
    refuse("array at the top", "[1, 2]", "expected a JSON object at the top level, found an array");
    refuse("no model_dict", "{\"param_dict\": {}}", "no \"model_dict\" object at the top level");
    refuse("model_dict not an object", "{\"model_dict\": [1]}",
           "model_dict: expected an object, found an array");
    refuse("model_type", model_json("\"model_type\": \"SVR\""),
           "model_dict.model_type: \"SVR\" is not a model type (LIBSVMNUSVR, "
           "BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)");
    refuse("norm_type type", model_json("\"norm_type\": 1"),
           "model_dict.norm_type: expected a string, found a number");
    refuse("norm_type value", model_json("\"norm_type\": \"clip_0to1\""),
           "model_dict.norm_type: \"clip_0to1\" is not a norm type (linear_rescale or none)");
    refuse("slopes type", model_json("\"slopes\": \"1\""),
           "model_dict.slopes: expected an array of numbers, found a string");
    refuse("slopes entry", model_json("\"slopes\": [1, 2, true]"),
           "model_dict.slopes[2]: expected a number, found a boolean");
    refuse("intercepts entry", model_json("\"intercepts\": [1, null]"),
           "model_dict.intercepts[1]: expected a number, found null");
    refuse("feature name type", model_json("\"feature_names\": [\"a\", 2]"),
           "model_dict.feature_names[1]: expected a string, found a number");
    refuse("score_clip short", model_json("\"score_clip\": [0]"),
           "model_dict.score_clip: expected [min, max], found 1 number");
    refuse("score_clip entry", model_json("\"score_clip\": [0, \"100\"]"),
           "model_dict.score_clip[1]: expected a number, found a string");
    refuse("transform type", model_json("\"score_transform\": true"),
           "model_dict.score_transform: expected an object, found a boolean");
    refuse("transform null", model_json("\"score_transform\": {\"p0\": 1, \"p1\": null}"),
           "model_dict.score_transform.p1: null is not accepted (libvmaf refuses it too): give a "
           "number or leave the key out");
    refuse("knots null", model_json("\"score_transform\": {\"knots\": null}"),
           "model_dict.score_transform.knots: null is not accepted (libvmaf refuses it too): give "
           "a list of [x, y] knots or leave the key out");
    refuse("knot of three", model_json("\"score_transform\": {\"knots\": [[0, 0], [1, 2, 3]]}"),
           "model_dict.score_transform.knots[1]: a knot is [x, y], found 3 numbers");
    refuse("knot entry", model_json("\"score_transform\": {\"knots\": [[0, \"a\"]]}"),
           "model_dict.score_transform.knots[0][1]: expected a number, found a string");
    refuse("eleven knots", model_json("\"score_transform\": {\"knots\": [[0,0],[1,1],[2,2],[3,3],"
                                      "[4,4],[5,5],[6,6],[7,7],[8,8],[9,9],[10,10]]}"),
           "model_dict.score_transform.knots: more than 10 knots");
    refuse("out_gte_in type", model_json("\"score_transform\": {\"out_gte_in\": true}"),
           "model_dict.score_transform.out_gte_in: expected a string (\"true\" or \"false\"), "
           "found a boolean");
    refuse("enabled type", model_json("\"score_transform\": {\"enabled\": \"true\"}"),
           "model_dict.score_transform.enabled: expected true or false, found a string");
    refuse("opts count", model_json("\"feature_opts_dicts\": [{}, {}, {}]"),
           "model_dict.feature_opts_dicts: 3 entries for 2 features");
    refuse("opts entry", model_json("\"feature_opts_dicts\": [[]]"),
           "model_dict.feature_opts_dicts[0]: expected an object, found an array");
    refuse("option value", model_json("\"feature_opts_dicts\": [{\"motion_max_val\": [1]}]"),
           "model_dict.feature_opts_dicts[0].motion_max_val: expected a number, a string or a "
           "boolean, found an array");
    refuse("option twice", model_json("\"feature_opts_dicts\": [{\"motion_max_val\": 1.0, "
                                      "\"motion_max_val\": 2}]"),
           "model_dict.feature_opts_dicts[0].motion_max_val: given twice, as \"1\" and \"2\"");
    refuse("no model", "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
                       "\"feature_names\": []}}",
           "model_dict: no \"model\" (the libsvm model text)");
    refuse("no norm_type", "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\"}}",
           "model_dict: no \"norm_type\" (linear_rescale or none)");
    refuse("no model_type", "{\"model_dict\": {}}", "model_dict: no \"model_type\" (LIBSVMNUSVR)");
    refuse("chroma zero", model_json("\"chroma_correction_parameter\": 0"),
           "model_dict.chroma_correction_parameter: 0 gives no score (libvmaf writes none): "
           "remove it or give the parameter");
    refuse("chroma without features", model_json("\"chroma_correction_parameter\": 120"),
           "model_dict.chroma_correction_parameter: needs a feature containing \"adm3\" in "
           "feature_names");
    {
        char many[8192] = "\"feature_names\": [";
        for (int i = 0; i < 65; i++)
            strcat(many, i ? ", \"f\"" : "\"f\"");
        strcat(many, "]");
        refuse("65 features", model_json(many), "model_dict.feature_names: more than 64 features");
    }

    /* the libsvm text */
    static const struct { const char *what, *svm, *want; } svm_cases[] = {
        { "unknown keyword", "svm_type nu_svr\\nfoo 1\\nSV\\n", "line 2: unknown keyword \"foo\"" },
        { "classifier", "svm_type c_svc\\nkernel_type rbf\\nnr_class 2\\ntotal_sv 0\\nrho 0\\nSV\\n",
          "line 1: svm_type c_svc is a classifier: VMAF models are regressions (nu_svr, epsilon_svr)" },
        { "no SV", "svm_type nu_svr\\nkernel_type rbf\\n", "line 3: the header ends without \"SV\"" },
        { "bad gamma", "svm_type nu_svr\\nkernel_type rbf\\ngamma x\\n",
          "line 3: \"gamma\" value \"x\" is not a number" },
        { "no rho", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 0\\nSV\\n",
          "line 6: the header has no rho" },
        { "rho first", "svm_type nu_svr\\nrho 1\\n", "line 2: \"rho\" comes before nr_class" },
        { "too few SVs", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 3\\n"
                         "rho 1\\nSV\\n1 1:1\\n2 1:2",
          "line 7: total_sv 3, but only 2 lines follow" },
        { "huge total_sv", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\n"
                           "total_sv 2000000000\\nrho 1\\nSV\\n1 1:1\\n",
          "line 7: total_sv 2000000000, but only 1 lines follow" },
        { "SV missing", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 3\\n"
                        "rho 1\\nSV\\n1 1:1\\n2 1:2\\n\\n",
          "line 10: support vector 3 of 3 is missing (total_sv 3)" },
        { "bad entry", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 1\\n"
                       "rho 1\\nSV\\n1 1:1 2-3\\n",
          "line 8: support vector 1: \"2-3\" is not index:value" },
        { "bad value", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 1\\n"
                       "rho 1\\nSV\\n1 1:1 2:x\\n",
          "line 8: support vector 1: \"2:x\" is not index:value" },
        { "unsorted", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 1\\n"
                      "rho 1\\nSV\\n1 2:1 1:2\\n",
          "line 8: support vector 1: index 1 after 2 (indices increase from 1)" },
        { "extra SV", "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 1\\n"
                      "rho 1\\nSV\\n1 1:1\\n2 1:2\\n",
          "line 9: text after the last of total_sv 1 support vectors" },
        { "three classes", "svm_type nu_svr\\nnr_class 3\\n",
          "line 2: nr_class 3: regression models have 2" },
        { "poly without degree", "svm_type nu_svr\\nkernel_type polynomial\\ngamma 1\\ncoef0 0\\n"
                                 "nr_class 2\\ntotal_sv 0\\nrho 0\\nSV\\n",
          "line 8: the header has no degree (the polynomial kernel uses it)" },
    };
    for (unsigned i = 0; i < sizeof(svm_cases) / sizeof(svm_cases[0]); i++) {
        char text[4096], w[1024];
        snprintf(text, sizeof(text), "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", "
                 "\"norm_type\": \"none\", \"feature_names\": [], \"model\": \"%s\"}}",
                 svm_cases[i].svm);
        snprintf(w, sizeof(w), "model_dict.model: %s", svm_cases[i].want);
        refuse(svm_cases[i].what, text, w);
    }

    /* collections */
    char entry[8192], coll[32768];
    snprintf(entry, sizeof(entry), "%s", model_json(""));
    snprintf(coll, sizeof(coll), "{\"0\": %s}", entry);
    refuse_collection("only entry 0", coll,
                      "a model collection needs entries \"0\" and \"1\"...: only \"0\" found");
    refuse_collection("no entries", "{\"a\": 1}",
                      "neither \"model_dict\" (a model) nor \"0\" (a model collection) at the top "
                      "level");
    refuse_collection("a broken single model", model_json("\"norm_type\": 1"),
                      "model_dict.norm_type: expected a string, found a number");
    refuse_collection("a single model", model_json(""), "a single model, not a model collection");
    snprintf(coll, sizeof(coll), "{\"0\": %s, \"1\": %s, \"2\": 5}", entry, entry);
    refuse_collection("entry not an object", coll, "entry \"2\": expected an object, found a number");
    snprintf(coll, sizeof(coll), "{\"0\": %s, \"1\": %s, \"2\": %s}", entry, entry,
             model_json("\"model_type\": \"BOOTSTRAP_LIBSVMNUSVR\""));
    refuse_collection("mixed types", coll, "entry \"2\": model_dict.model_type: differs from entry "
                                           "\"1\"'s: a collection's members have one type");
    snprintf(coll, sizeof(coll), "{\"0\": %s, \"1\": %s, \"2\": %s}", entry, entry,
             model_json("\"slopes\": [\"x\"]"));
    refuse_collection("entry error", coll, "entry \"2\": model_dict.slopes[0]: expected a number, "
                                           "found a string");
    /* entries are taken in file order when their key is the next count: "2" before "1" is skipped */
    snprintf(coll, sizeof(coll), "{\"x\": 1, \"0\": %s, \"2\": 7, \"1\": %s}", entry, entry);
    const char *p = write_model("order.json", coll);
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, p) == 0 && c->cnt == 1,
          "collection keys in order: %s", lockstep_last_error());
    vmaf_model_collection_destroy(c);
    vmaf_model_destroy(m);
    m = NULL;
    c = NULL;
    /* a plain-model collection loads but has no bootstrap score */
    VmafContext *ctx;
    VmafConfiguration vc = { .log_level = VMAF_LOG_LEVEL_NONE };
    vmaf_init(&ctx, vc);
    VmafModelCollectionScore s;
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, p) == 0, "plain collection");
    CHECK(vmaf_score_at_index_model_collection(ctx, c, &s, 0) == -EINVAL, "plain collection score");
    CHECK(!strcmp(lockstep_last_error(), "collection \"vmaf\": its members are not bootstrap models "
                                         "(model_type BOOTSTRAP_LIBSVMNUSVR or "
                                         "RESIDUEBOOTSTRAP_LIBSVMNUSVR)"),
          "%s", lockstep_last_error());
    vmaf_close(ctx);
    vmaf_model_collection_destroy(c);
    vmaf_model_destroy(m);
}

/* ---- prediction steps ---- */

/* A model whose prediction is the value of its one feature (identity SVM, no normalisation), so
 * that its score is transform(clip(x)) of an imported x. */
static VmafModel *identity_model(const char *members, uint64_t flags)
{
    char text[4096];
    snprintf(text, sizeof(text),
             "{\"model_dict\": {%s%s\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
             "\"feature_names\": [\"VMAF_integer_feature_motion2_score\"], \"model\": "
             "\"svm_type nu_svr\\nkernel_type linear\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n"
             "1 1:1\\n\"}}",
             members, *members ? ", " : "");
    VmafModel *m = NULL;
    VmafModelConfig cfg = { .name = "id", .flags = flags };
    CHECK(vmaf_model_load_from_path(&m, &cfg, write_model("id.json", text)) == 0, "%s: %s",
          members, lockstep_last_error());
    return m;
}

static double score_of(const VmafModel *m, double x, uint64_t flags)
{
    double s = NAN;
    CHECK(ls_model_predict_values(m, &x, flags, &s) == 0, "predict");
    return s;
}

static void test_transform(void)
{
    VmafModel *m = identity_model("", 0);
    CHECK(same(score_of(m, 123.25, 0), 123.25) && same(score_of(m, -7.5, 0), -7.5), "identity");
    vmaf_model_destroy(m);

    /* clip, and disable_clip at load and at prediction */
    m = identity_model("\"score_clip\": [0, 100]", 0);
    CHECK(score_of(m, 150, 0) == 100 && score_of(m, -5, 0) == 0 && score_of(m, 50, 0) == 50,
          "clip");
    CHECK(score_of(m, 150, VMAF_MODEL_FLAG_DISABLE_CLIP) == 150, "clip disabled at prediction");
    vmaf_model_destroy(m);
    m = identity_model("\"score_clip\": [0, 100, 5]", VMAF_MODEL_FLAG_DISABLE_CLIP);
    CHECK(score_of(m, 150, 0) == 150, "clip disabled at load");
    vmaf_model_destroy(m);

    /* polynomial in the spec's order, off until enabled, rectified against its input */
    const double p0 = 1.70674692, p1 = 1.72643844, p2 = -0.00705305, y = 61.2345678;
    const char poly[] = "\"score_transform\": {\"p2\": -0.00705305, \"out_gte_in\": \"true\", "
                        "\"p0\": 1.70674692, \"p1\": 1.72643844}";
    m = identity_model(poly, 0);
    CHECK(same(score_of(m, y, 0), y), "transform off without enabled");
    vmaf_model_destroy(m);
    m = identity_model(poly, VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    const double t = ((0.0 + p0) + p1 * y) + (p2 * y) * y;
    CHECK(same(score_of(m, y, 0), t), "polynomial: %.17g, expected %.17g", score_of(m, y, 0), t);
    CHECK(same(score_of(m, y, VMAF_MODEL_FLAG_DISABLE_TRANSFORM), y), "disable_transform");
    CHECK(same(score_of(m, 200.0, 0), 200.0), "out_gte_in keeps the input where it is larger");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": false, \"p1\": 2}",
                       VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    CHECK(score_of(m, 3, 0) == 6, "enable_transform over enabled=false (only p1: 0 + p1*y)");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": true, \"p0\": 10, \"p1\": 0.5, "
                       "\"out_lte_in\": \"true\", \"out_gte_in\": \"no\"}", 0);
    CHECK(score_of(m, 40, 0) == 30 && score_of(m, 10, 0) == 10, "out_lte_in against the input");
    vmaf_model_destroy(m);
    m = identity_model("\"score_clip\": [0, 100]", VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    CHECK(score_of(m, 150, 0) == 100, "enable_transform without a transform object: no effect");
    vmaf_model_destroy(m);

    /* knots: segments, flat segments, x0 = 0, the ends, and the unordered-segment quirk */
    m = identity_model("\"score_transform\": {\"enabled\": true, \"knots\": [[0, 0], [50, 60], "
                       "[100, 100]]}", 0);
    const double a0 = (60.0 - 0.0) / 50.0, a1 = (100.0 - 60.0) / (100.0 - 50.0);
    const double b1 = 60.0 - 50.0 * a1;
    CHECK(same(score_of(m, 25, 0), a0 * 25 + 0.0), "first segment (x0 = 0: b = y0)");
    CHECK(same(score_of(m, 75, 0), a1 * 75 + b1), "second segment");
    CHECK(same(score_of(m, 50, 0), a1 * 50 + b1), "a shared knot: the later segment wins");
    CHECK(same(score_of(m, -10, 0), a0 * -10 + 0.0), "below the first knot");
    CHECK(same(score_of(m, 130, 0), a1 * 130 + b1), "above the last knot");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": true, \"knots\": [[0, 10], [50, 10], "
                       "[100, 90]]}", 0);
    CHECK(score_of(m, 20, 0) == 10 && score_of(m, -5, 0) == 10, "flat first segment");
    CHECK(same(score_of(m, 150, 0), 1.6 * 150 + (10 - 50 * 1.6)), "last segment beyond");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": true, \"knots\": [[0, 0], [50, 60], "
                       "[40, 70]]}", 0);
    CHECK(same(score_of(m, 20, 0), 1.2 * 20 + 0.0), "before an unordered segment");
    CHECK(score_of(m, 80, 0) == 0.0, "an unordered segment returns what was computed so far (0)");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": true, \"knots\": [[5, 7]]}", 0);
    CHECK(score_of(m, 3, 0) == 3, "one knot: unchanged");
    vmaf_model_destroy(m);
    m = identity_model("\"score_transform\": {\"enabled\": true, \"p0\": 1, \"knots\": [[10, 20], "
                       "[20, 40]]}", 0);
    CHECK(same(score_of(m, 5, 0), 2.0 * 1 + (20 - 10 * 2.0)),
          "knots map the polynomial's output (x0 != 0)");
    vmaf_model_destroy(m);
}

static VmafModel *model_from(const char *text, const char *name)
{
    VmafModel *m = NULL;
    VmafModelConfig cfg = { .name = name };
    CHECK(vmaf_model_load_from_path(&m, &cfg, write_model("m.json", text)) == 0, "%s",
          lockstep_last_error());
    return m;
}

static void test_svm_and_chroma(void)
{
    /* rbf with a sparse support vector: the missing index adds x1*x1 first */
    VmafModel *m = model_from(
        "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"linear_rescale\", "
        "\"feature_names\": [\"VMAF_integer_feature_motion2_score\", \"VMAF_feature_motion2_score\"], "
        "\"slopes\": [0.5, 2.0, 3.0], \"intercepts\": [1.0, -0.5, 0.25], \"model\": "
        "\"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\ntotal_sv 2\\nrho -1.5\\nSV"
        "\\n1.25 1:0.5 2:0.25 \\n-2 2:0.75 \\n\"}}", NULL);
    const double raw[2] = { 0.3, 0.7 };
    const double x1 = 2.0 * 0.3 + -0.5, x2 = 3.0 * 0.7 + 0.25;
    const double d0 = (0.0 + (x1 - 0.5) * (x1 - 0.5)) + (x2 - 0.25) * (x2 - 0.25);
    const double d1 = (0.0 + x1 * x1) + (x2 - 0.75) * (x2 - 0.75);
    const double sum = (0.0 + 1.25 * exp(-0.04 * d0)) + -2 * exp(-0.04 * d1);
    const double want = ((sum - -1.5) - 1.0) / 0.5;
    double got;
    CHECK(ls_model_predict_values(m, raw, 0, &got) == 0 && same(got, want),
          "rbf: %.17g, expected %.17g", got, want);
    vmaf_model_destroy(m);

    m = model_from("{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
                   "\"feature_names\": [\"VMAF_integer_feature_motion2_score\"], \"model\": "
                   "\"svm_type epsilon_svr\\nkernel_type polynomial\\ndegree 3\\ngamma 0.5\\n"
                   "coef0 1\\nnr_class 2\\ntotal_sv 1\\nrho 0.25\\nSV\\n2 1:3\\n\"}}", NULL);
    const double b = 0.5 * (1.5 * 3) + 1;
    CHECK(ls_model_predict_values(m, (double[]){ 1.5 }, 0, &got) == 0 &&
              same(got, 2 * (b * (b * b)) - 0.25),
          "polynomial kernel by repeated squaring: %.17g", got);
    vmaf_model_destroy(m);
    m = model_from("{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
                   "\"feature_names\": [\"VMAF_integer_feature_motion2_score\"], \"model\": "
                   "\"svm_type nu_svr\\nkernel_type sigmoid\\ngamma 0.5\\ncoef0 1\\nnr_class 2\\n"
                   "total_sv 1\\nrho 0\\nSV\\n2 1:3\\n\"}}", NULL);
    CHECK(ls_model_predict_values(m, (double[]){ 1.5 }, 0, &got) == 0 &&
              same(got, 2 * tanh(0.5 * (1.5 * 3) + 1)), "sigmoid kernel");
    vmaf_model_destroy(m);

    /* chroma correction: the SVM reads the guided node back (linear kernel on index 2) */
    m = model_from(
        "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"linear_rescale\", "
        "\"feature_names\": [\"VMAF_integer_feature_adm3_score\", "
        "\"Speed_chroma_feature_speed_chroma_uv_score\"], \"slopes\": [1, 0.03147688934068315, "
        "0.07265168094288038], \"intercepts\": [0, -0.014977474082856242, "
        "-0.00016348141788834398], \"chroma_correction_parameter\": 120.0, \"model\": "
        "\"svm_type nu_svr\\nkernel_type linear\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 2:1\\n\"}}",
        NULL);
    const double sa = 0.03147688934068315, ia = -0.014977474082856242;
    const double ss = 0.07265168094288038, is = -0.00016348141788834398;
    const double adm3 = 0.987654321;
    const double g = ((sa * adm3 + ia) - ia) / sa, c = (-120.0 * g) + 120.0;
    CHECK(ls_model_predict_values(m, (double[]){ adm3, 0.0 }, 0, &got) == 0 &&
              same(got, ss * c + is),
          "chroma correction fires on speed_chroma 0: %.17g, expected %.17g", got, ss * c + is);
    CHECK(ls_model_predict_values(m, (double[]){ adm3, 2.5e-6 }, 0, &got) == 0 &&
              same(got, ss * 2.5e-6 + is), "no correction when speed_chroma is not 0");
    vmaf_model_destroy(m);
    refuse("two adm3 features",
           "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
           "\"feature_names\": [\"a_adm3\", \"b_adm3\"], \"chroma_correction_parameter\": 1, "
           "\"model\": \"svm_type nu_svr\\nkernel_type linear\\nnr_class 2\\ntotal_sv 0\\nrho 0\\n"
           "SV\\n\"}}",
           "model_dict.feature_names: two features contain \"adm3\": the chroma correction needs "
           "exactly one");

    /* bootstrap summary: population stddev, interpolated percentiles, transform slope */
    VmafModel *first = identity_model("\"score_clip\": [0, 100], \"score_transform\": "
                                      "{\"enabled\": true, \"p1\": 2}", 0);
    double u[20], sorted[20], mean = 0, ssd = 0;
    for (int j = 0; j < 20; j++)
        u[j] = 30.0 + (double)((j * 7) % 20) * 0.37;
    memcpy(sorted, u, sizeof(u));
    for (int j = 0; j < 20; j++)
        mean += u[j];
    mean /= 20;
    for (int j = 0; j < 20; j++)
        ssd += pow(u[j] - mean, 2.0);
    for (int i = 0; i < 20; i++)
        for (int j = i + 1; j < 20; j++)
            if (sorted[j] < sorted[i]) {
                const double tmp = sorted[i];
                sorted[i] = sorted[j];
                sorted[j] = tmp;
            }
    const double q_lo = 2.5 * 19 / 100.0, q_hi = 97.5 * 19 / 100.0;
    const double lo = sorted[0] * (ceil(q_lo) - q_lo) + sorted[1] * (q_lo - floor(q_lo));
    const double hi = sorted[18] * (ceil(q_hi) - q_hi) + sorted[19] * (q_hi - floor(q_hi));
    VmafModelCollectionScore s;
    ls_bootstrap_summary(first, u, 20, &s);
    CHECK(s.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP, "type");
    CHECK(same(s.bootstrap.bagging_score, 0.0 + 2 * mean), "bagging");
    CHECK(same(s.bootstrap.ci.p95.lo, 0.0 + 2 * lo) && same(s.bootstrap.ci.p95.hi, 0.0 + 2 * hi),
          "ci %.17g %.17g", s.bootstrap.ci.p95.lo, s.bootstrap.ci.p95.hi);
    const double slope = ((0.0 + 2 * (mean + 0.01)) - (0.0 + 2 * (mean - 0.01))) / (2.0 * 0.01);
    CHECK(same(s.bootstrap.stddev, sqrt(ssd / 20) * slope), "stddev %.17g", s.bootstrap.stddev);
    vmaf_model_destroy(first);
}

/* ---- feature names, overloads, scoring in a context ---- */

static const char two_motion[] =
    "{\"model_dict\": {\"model_type\": \"BOOTSTRAP_LIBSVMNUSVR\", \"norm_type\": \"linear_rescale\", "
    "\"feature_names\": [\"VMAF_integer_feature_motion2_score\", "
    "\"VMAF_integer_feature_motion3_score\"], %s\"slopes\": [0.5, 0.1, 0.2], "
    "\"intercepts\": [-1, 0.1, 0.2], \"score_clip\": [0, 100], \"model\": "
    "\"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\nnr_class 2\\ntotal_sv 2\\nrho %s\\nSV\\n"
    "2 1:0.5 2:0.25 \\n-1 2:0.75 \\n\"}}";

static char *motion_model(const char *opts, const char *rho)
{
    static char text[4096];
    snprintf(text, sizeof(text), two_motion, opts, rho);
    return text;
}

static void fill(VmafPicture *p, unsigned seed)
{
    for (unsigned y = 0; y < p->h[0]; y++)
        for (unsigned x = 0; x < p->w[0]; x++)
            ((uint8_t *)p->data[0])[y * p->stride[0] + x] =
                (uint8_t)((x * 3 + y * 5 + seed * 17 + ((x * y * seed) >> 3)) & 255);
}

static int read_frames(VmafContext *ctx, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        VmafPicture ref, dis;
        vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 48, 32);
        vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, 48, 32);
        fill(&ref, i);
        fill(&dis, i + 1);
        if (vmaf_read_pictures(ctx, &ref, &dis, i))
            return -1;
    }
    return vmaf_read_pictures(ctx, NULL, NULL, 0);
}

static void test_context(void)
{
    VmafConfiguration vc = { .log_level = VMAF_LOG_LEVEL_NONE };
    VmafContext *ctx;
    const char *key;

    /* names with options: the model's own (strtof+%g), then an overload */
    VmafModel *m = model_from(motion_model("\"feature_opts_dicts\": [{\"motion_fps_weight\": 1.0},"
                                           " {\"motion_max_val\": 18.0}], ", "-0.5"), "vm");
    CHECK(ls_model_feature_key(m, 0, &key) == 0 && !strcmp(key, "VMAF_integer_feature_motion2_score"),
          "a default value adds nothing: %s", key);
    CHECK(ls_model_feature_key(m, 1, &key) == 0 && !strcmp(key, "integer_motion3_mmxv_18"),
          "%s", key);
    VmafFeatureDictionary *d = NULL;
    vmaf_feature_dictionary_set(&d, "motion_force_zero", "true");
    CHECK(vmaf_model_feature_overload(m, "motion", d) == 0, "overload");
    CHECK(ls_model_feature_key(m, 0, &key) == 0 && !strcmp(key, "integer_motion2_force_0"), "%s", key);
    CHECK(ls_model_feature_key(m, 1, &key) == 0 && !strcmp(key, "integer_motion3_force_0_mmxv_18"),
          "%s", key);
    d = NULL;
    vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "1.0");
    CHECK(vmaf_model_feature_overload(m, "vif", d) == -EINVAL, "overload of an absent extractor");
    CHECK(strstr(lockstep_last_error(), "/m.json: no feature of the model is computed by "
                                        "extractor \"vif\"") != NULL, "%s", lockstep_last_error());
    d = NULL;
    vmaf_feature_dictionary_set(&d, "x", "1");
    CHECK(vmaf_model_feature_overload(NULL, "motion", d) == -EINVAL, "NULL model: not consumed");
    CHECK(vmaf_model_feature_overload(m, NULL, d) == -EINVAL, "NULL name: not consumed");
    vmaf_feature_dictionary_free(&d);
    CHECK(vmaf_model_feature_overload(m, "motion", NULL) == -EINVAL, "NULL dictionary");

    /* extracted features: motion registered once for both features, scores under the name */
    vmaf_init(&ctx, vc);
    CHECK(vmaf_use_features_from_model(ctx, m) == 0, "%s", lockstep_last_error());
    CHECK(vmaf_use_features_from_model(ctx, m) == 0, "twice: shared, dropped silently");
    CHECK(read_frames(ctx, 5) == 0, "%s", lockstep_last_error());
    unsigned motion_names = 0;
    for (unsigned i = 0; i < lockstep_feature_count(ctx); i++)
        motion_names += !strncmp(lockstep_feature_name(ctx, i), "integer_motion2", 15);
    /* the two features' options differ: two instances, as in libvmaf */
    CHECK(motion_names == 2, "two motion instances: %u", motion_names);
    double sum = 0, score, again, raw[2], want;
    for (unsigned i = 0; i < 5; i++) {
        CHECK(vmaf_feature_score_at_index(ctx, "integer_motion2_force_0", &raw[0], i) == 0 &&
                  vmaf_feature_score_at_index(ctx, "integer_motion3_force_0_mmxv_18", &raw[1], i) == 0,
              "features at %u", i);
        ls_model_predict_values(m, raw, 0, &want);
        CHECK(vmaf_score_at_index(ctx, m, &score, i) == 0 && same(score, want), "score %u", i);
        CHECK(vmaf_score_at_index(ctx, m, &again, i) == 0 && same(again, score), "stored %u", i);
        CHECK(vmaf_feature_score_at_index(ctx, "vm", &again, i) == 0 && same(again, score),
              "stored under the model name");
        sum += score;
    }
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &score, 0, 4) == 0 &&
              same(score, sum / 5), "pooled mean");
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &score, 0, 5) == -EINVAL,
          "beyond the frames");
    CHECK(!strcmp(lockstep_last_error(), "model \"vm\": no feature \"integer_motion2_force_0\" at "
                                         "index 5"), "%s", lockstep_last_error());
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_UNKNOWN, &score, 0, 4) == -EINVAL, "method");
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &score, 3, 2) == -EINVAL, "interval");
    CHECK(vmaf_score_at_index(ctx, NULL, &score, 0) == -EINVAL, "NULL model");
    vmaf_close(ctx);
    vmaf_model_destroy(m);

    /* bad option from the model: refused at registration, naming model, feature and option */
    m = model_from(motion_model("\"feature_opts_dicts\": [{\"motion_bogus\": 1}], ", "-0.5"), NULL);
    vmaf_init(&ctx, vc);
    CHECK(vmaf_use_features_from_model(ctx, m) == -EINVAL, "bad option");
    CHECK(strstr(lockstep_last_error(), "m.json: feature \"VMAF_integer_feature_motion2_score\": "
                                        "motion: unknown option \"motion_bogus\"") != NULL,
          "%s", lockstep_last_error());
    vmaf_close(ctx);
    vmaf_model_destroy(m);
    m = identity_model("", 0);
    vmaf_model_destroy(m);
    /* a feature no extractor provides */
    m = model_from("{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\", "
                   "\"feature_names\": [\"VMAF_integer_feature_nothing_score\"], \"model\": "
                   "\"svm_type nu_svr\\nkernel_type linear\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV"
                   "\\n1 1:1\\n\"}}", NULL);
    vmaf_init(&ctx, vc);
    CHECK(vmaf_use_features_from_model(ctx, m) == -EINVAL, "unknown feature");
    CHECK(strstr(lockstep_last_error(), "m.json: no extractor in this build provides feature "
                                        "\"VMAF_integer_feature_nothing_score\"") != NULL,
          "%s", lockstep_last_error());
    /* ... but imported values of it can still be scored: it has no options */
    CHECK(vmaf_import_feature_score(ctx, "VMAF_integer_feature_nothing_score", 4.5, 0) == 0, "import");
    CHECK(vmaf_score_at_index(ctx, m, &score, 0) == 0 && score == 4.5, "imported, scored");
    vmaf_close(ctx);
    vmaf_model_destroy(m);

    /* subsampling: pooled over the kept indices only */
    m = identity_model("", 0);
    VmafConfiguration sub = { .log_level = VMAF_LOG_LEVEL_NONE, .n_subsample = 2 };
    vmaf_init(&ctx, sub);
    for (unsigned i = 0; i < 5; i++)
        if (i % 2 == 0)
            vmaf_import_feature_score(ctx, "VMAF_integer_feature_motion2_score", i * 1.5, i);
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &score, 0, 4) == 0 &&
              same(score, (0 + 3.0 + 6.0) / 3), "subsampled pooled mean %.17g", score);
    CHECK(vmaf_feature_score_at_index(ctx, "id", &score, 1) == -EINVAL, "skipped index unscored");
    vmaf_close(ctx);
    vmaf_model_destroy(m);

    /* a collection: names, overloads on every member, per-frame and pooled summaries */
    char coll[20000];
    char *e0 = strdup(motion_model("", "-0.5")), *e1 = strdup(motion_model("", "-0.25"));
    char *e2 = strdup(motion_model("", "-0.75")), *e3 = strdup(motion_model("", "0.1"));
    snprintf(coll, sizeof(coll), "{\"0\": %s, \"1\": %s, \"2\": %s, \"3\": %s}", e0, e1, e2, e3);
    free(e0), free(e1), free(e2), free(e3);
    VmafModelCollection *c = NULL;
    VmafModelConfig cfg = { .name = "bs", .flags = 0 };
    CHECK(vmaf_model_collection_load_from_path(&m, &c, &cfg, write_model("c.json", coll)) == 0,
          "%s", lockstep_last_error());
    CHECK(c->cnt == 3 && !strcmp(c->name, "bs") && !strcmp(c->model[2]->name, "bs_0003") &&
              !strcmp(m->name, "bs"), "collection names");
    d = NULL;
    vmaf_feature_dictionary_set(&d, "motion_max_val", "20.0");
    CHECK(vmaf_model_collection_feature_overload(m, NULL, "motion", d) == -EINVAL, "NULL coll");
    CHECK(vmaf_model_collection_feature_overload(m, &c, "motion", d) == 0, "collection overload");
    for (unsigned j = 0; j < 3; j++)
        CHECK(ls_model_feature_key(c->model[j], 1, &key) == 0 &&
                  !strcmp(key, "integer_motion3_mmxv_20"), "member %u: %s", j, key);
    CHECK(ls_model_feature_key(m, 0, &key) == 0 && !strcmp(key, "integer_motion2_mmxv_20"), "%s", key);
    vmaf_init(&ctx, vc);
    CHECK(vmaf_use_features_from_model_collection(ctx, c) == 0, "%s", lockstep_last_error());
    CHECK(read_frames(ctx, 4) == 0, "%s", lockstep_last_error());
    motion_names = 0;
    for (unsigned i = 0; i < lockstep_feature_count(ctx); i++)
        motion_names += !strncmp(lockstep_feature_name(ctx, i), "integer_motion2", 15);
    CHECK(motion_names == 1, "one motion instance for 3 members x 2 features: %u", motion_names);
    VmafModelCollectionScore s0, pooled;
    double members[3];
    for (unsigned i = 0; i < 4; i++) {
        VmafModelCollectionScore si, want_s;
        vmaf_feature_score_at_index(ctx, "integer_motion2_mmxv_20", &raw[0], i);
        vmaf_feature_score_at_index(ctx, "integer_motion3_mmxv_20", &raw[1], i);
        CHECK(ls_model_collection_predict_values(c, raw, members, &want_s) == 0, "values");
        CHECK(vmaf_score_at_index_model_collection(ctx, c, &si, i) == 0, "%s", lockstep_last_error());
        CHECK(!memcmp(&si.bootstrap, &want_s.bootstrap, sizeof(si.bootstrap)), "summary %u", i);
        CHECK(vmaf_feature_score_at_index(ctx, "bs_0002", &score, i) == 0 &&
                  same(score, members[1]), "member score %u", i);
        CHECK(vmaf_feature_score_at_index(ctx, "bs_ci_p95_hi", &score, i) == 0 &&
                  same(score, si.bootstrap.ci.p95.hi), "stored summary %u", i);
        if (i == 0)
            s0 = si;
    }
    CHECK(vmaf_score_at_index_model_collection(ctx, c, &s0, 0) == -EINVAL, "once per index");
    CHECK(vmaf_score_pooled_model_collection(ctx, c, VMAF_POOL_METHOD_MEAN, &pooled, 0, 3) ==
              -EINVAL, "pooled after per-index calls: the stores are final");
    vmaf_close(ctx);
    vmaf_init(&ctx, vc);
    vmaf_use_features_from_model_collection(ctx, c);
    read_frames(ctx, 4);
    CHECK(vmaf_score_pooled_model_collection(ctx, c, VMAF_POOL_METHOD_MAX, &pooled, 0, 3) == 0,
          "%s", lockstep_last_error());
    double max_bagging;
    vmaf_feature_score_pooled(ctx, "bs_bagging", VMAF_POOL_METHOD_MAX, &max_bagging, 0, 3);
    CHECK(pooled.type == VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP &&
              same(pooled.bootstrap.bagging_score, max_bagging), "pooled collection");
    CHECK(vmaf_score_pooled(ctx, m, VMAF_POOL_METHOD_MEAN, &score, 0, 3) == 0, "primary scored");
    vmaf_close(ctx);
    vmaf_model_collection_destroy(c);
    vmaf_model_destroy(m);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Load time of the default and the bootstrap model, and prediction time per frame. */
static void bench(void)
{
    VmafModelConfig cfg = { 0 };
    VmafModel *m, *primary;
    VmafModelCollection *c;
    const int n = 200;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        vmaf_model_load(&m, &cfg, "vmaf_v0.6.1");
        vmaf_model_destroy(m);
    }
    const double load1 = (now() - t0) / n;
    t0 = now();
    for (int i = 0; i < n / 10; i++) {
        vmaf_model_collection_load(&primary, &c, &cfg, "vmaf_b_v0.6.3");
        vmaf_model_collection_destroy(c);
        vmaf_model_destroy(primary);
    }
    const double load_b = (now() - t0) / (n / 10);
    vmaf_model_load(&m, &cfg, "vmaf_v0.6.1");
    vmaf_model_collection_load(&primary, &c, &cfg, "vmaf_b_v0.6.3");
    double raw[6] = { 0.93, 3.2, 0.41, 0.78, 0.86, 0.9 }, sink = 0, members[20];
    const int frames = 20000;
    t0 = now();
    for (int i = 0; i < frames; i++) {
        raw[1] = 3.2 + i * 1e-4;
        double s;
        ls_model_predict_values(m, raw, 0, &s);
        sink += s;
    }
    const double pred1 = (now() - t0) / frames;
    t0 = now();
    for (int i = 0; i < frames / 20; i++) {
        VmafModelCollectionScore s;
        raw[1] = 3.2 + i * 1e-4;
        ls_model_collection_predict_values(c, raw, members, &s);
        sink += s.bootstrap.bagging_score;
    }
    const double pred_b = (now() - t0) / (frames / 20);
    printf("load: vmaf_v0.6.1 %.3f ms, vmaf_b_v0.6.3 %.3f ms; predict per frame: vmaf_v0.6.1 "
           "%.4f ms, vmaf_b_v0.6.3 members + summary %.4f ms (checksum %g)\n",
           load1 * 1e3, load_b * 1e3, pred1 * 1e3, pred_b * 1e3, sink);
    vmaf_model_destroy(m);
    vmaf_model_collection_destroy(c);
    vmaf_model_destroy(primary);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--bench")) {
        bench();
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODELS_DIR WORK_DIR | --bench\n", argv[0]);
        return 2;
    }
    work = argv[2];
    mkdir(work, 0755);
    test_builtins(argv[1]);
    test_refusals();
    test_transform();
    test_svm_and_chroma();
    test_context();
    printf("models: %u numbers of the shipped files equal strtod/strtof of their text, %u exact "
           "refusal messages, %d failures\n", checked_numbers, checked_messages, failures);
    return failures ? 1 : 0;
}
