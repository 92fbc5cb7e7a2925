/* Shard reports and their merge: a part of a video scored with a frame range writes everything
 * that one run over the whole video would hold for its frames, exactly (scores at %.17g, which
 * strtod reads back to the same double), plus the integer sums its aggregates come from; merging
 * puts the frames back into one collector, in the first shard's order of names (the whole run's:
 * that shard is the whole run's first frames), adds the sums up and lets the extractors compute
 * their aggregates from them, so that pooling and the report writers do exactly what they do
 * after one run. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/collector.h"
#include "core/context.h"
#include "core/log.h"
#include "core/registry.h"
#include "core/report_file.h"

#define SHARD_FORMAT 1

/* ---- writing ---- */

static void put_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);
    }
    fputc('"', out);
}

/* JSON has no infinities or NaN: those are strings, read back by read_double */
static void put_double(FILE *out, double v)
{
    if (isnan(v))
        fprintf(out, signbit(v) ? "\"-nan\"" : "\"nan\"");
    else if (isinf(v))
        fprintf(out, v < 0 ? "\"-inf\"" : "\"inf\"");
    else
        fprintf(out, "%.17g", v);
}

static void write_shard_json(FILE *out, VmafContext *ctx, const LsShardState *st,
                             const LockstepShardInfo *info)
{
    LsCollector *fc = ls_context_collector(ctx);
    fprintf(out, "{\n  \"lockstep_shard\": %d,\n  \"version\": ", SHARD_FORMAT);
    put_string(out, vmaf_version());
    fprintf(out, ",\n  \"settings\": ");
    put_string(out, info->settings);
    fprintf(out, ",\n  \"reference\": ");
    put_string(out, info->reference);
    fprintf(out, ",\n  \"distorted\": ");
    put_string(out, info->distorted);
    fprintf(out, ",\n  \"geometry\": { \"width\": %u, \"height\": %u, \"pixel_format\": %d, "
                 "\"bitdepth\": %u },\n", st->w, st->h, (int)st->fmt, st->bpc);
    fprintf(out, "  \"subsample\": %u,\n  \"extractors\": [", st->n_subsample);
    for (unsigned i = 0; i < ls_context_extractor_count(ctx); i++) {
        const LsOptionValue *v;
        unsigned n;
        const char *name = ls_context_extractor(ctx, i, &v, &n);
        fprintf(out, "%s\n    { \"name\": ", i ? "," : "");
        put_string(out, name);
        fprintf(out, ", \"options\": [");
        for (unsigned k = 0; k < n; k++) {
            fprintf(out, "%s[", k ? ", " : "");
            put_string(out, v[k].key);
            fprintf(out, ", ");
            put_string(out, v[k].value);
            fprintf(out, "]");
        }
        fprintf(out, "] }");
    }
    fprintf(out, "\n  ],\n  \"models\": [");
    for (unsigned i = 0; i < info->n_models; i++) {
        fprintf(out, "%s\n    { \"label\": ", i ? "," : "");
        put_string(out, info->models[i].label);
        fprintf(out, ", \"name\": ");
        put_string(out, info->models[i].name);
        fprintf(out, ", \"collection\": %s }", info->models[i].collection ? "true" : "false");
    }
    fprintf(out, "\n  ],\n");
    fprintf(out, "  \"frame_range\": [%u, %u],\n", st->first, st->end);
    fprintf(out, "  \"frames_read\": [%u, %u],\n", st->read_first, st->read_first + st->n_read);
    fprintf(out, "  \"input_ended\": %s,\n", info->input_ended ? "true" : "false");
    fprintf(out, "  \"seconds\": %.17g,\n", ls_collector_seconds(fc));
    fprintf(out, "  \"sums\": [");
    for (unsigned i = 0; i < ls_collector_sum_count(fc); i++) {
        uint64_t v;
        const char *name = ls_collector_sum_name(fc, i, &v);
        fprintf(out, "%s\n    [", i ? "," : "");
        put_string(out, name);
        fprintf(out, ", \"%" PRIu64 "\"]", v); /* a string: JSON numbers are doubles */
    }
    const unsigned n = ls_collector_count(fc);
    fprintf(out, "\n  ],\n  \"features\": [");
    for (unsigned f = 0; f < n; f++) {
        fprintf(out, "%s\n    ", f ? "," : "");
        put_string(out, ls_collector_name(fc, f));
    }
    /* one row per frame of the range, a value (or null) per feature */
    fprintf(out, "\n  ],\n  \"first_frame\": %u,\n  \"scores\": [", st->first);
    for (unsigned i = st->first; i < st->first + st->n_reported; i++) {
        fprintf(out, "%s\n    [", i > st->first ? "," : "");
        for (unsigned f = 0; f < n; f++) {
            double v;
            if (f)
                fprintf(out, ", ");
            if (ls_collector_has(fc, f, i, &v))
                put_double(out, v);
            else
                fprintf(out, "null");
        }
        fprintf(out, "]");
    }
    fprintf(out, "\n  ]\n}\n");
}

int lockstep_write_shard(VmafContext *ctx, const char *path, const LockstepShardInfo *info)
{
    if (!ctx || !path || !info)
        return -EINVAL;
    LsShardState st;
    ls_context_shard_state(ctx, &st);
    if (!st.sharded) {
        ls_set_error("a shard report needs a frame range (lockstep_set_frame_range)");
        return -EINVAL;
    }
    if (!st.flushed) {
        ls_set_error("a shard report is written after the flush");
        return -EINVAL;
    }
    if (!st.n_reported) {
        ls_set_error("frame range %u:%u: no frame of it was scored (the video has %u frames)",
                     st.first, st.end, st.read_first + st.n_read);
        return -EINVAL;
    }
    /* written next to the destination, then renamed: never a partial report under its name */
    LsReportFile rf;
    char msg[PATH_MAX + 128];
    int err = ls_report_begin(&rf, path, msg, sizeof(msg));
    if (err) {
        ls_set_error("%s", msg);
        return err;
    }
    FILE *out = !strcmp(rf.write_path, "-") ? stdout : fopen(rf.write_path, "w");
    if (!out) {
        err = -errno;
        ls_report_abandon(&rf);
        ls_set_error("cannot write the report to %s: %s", path, strerror(-err));
        return err;
    }
    write_shard_json(out, ctx, &st, info);
    /* errno of the write that failed (ENOSPC, EFBIG...); fclose sets it when it fails itself */
    int reason = ferror(out) ? (errno ? errno : EIO) : 0;
    if (out == stdout ? fflush(out) : fclose(out))
        reason = errno ? errno : EIO;
    if (reason) {
        ls_report_abandon(&rf);
        ls_set_error("cannot write the report to %s: %s", path, strerror(reason));
        return -reason;
    }
    if ((err = ls_report_commit(&rf, msg, sizeof(msg))))
        ls_set_error("%s", msg);
    return err;
}

int lockstep_file_identity(const char *path, char *out, size_t out_len)
{
    if (!path || !out || !out_len)
        return -EINVAL;
    if (!strcmp(path, "-")) {
        snprintf(out, out_len, "stdin");
        return 0;
    }
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb)) {
        ls_set_error("could not open file: %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -EINVAL;
    }
    /* FNV-1a over the first MiB: the header and the start of the first frame */
    uint64_t hash = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    size_t total = 0, got;
    while (total < (1u << 20) && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
        for (size_t i = 0; i < got; i++)
            hash = (hash ^ buf[i]) * 0x100000001b3ull;
        total += got;
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad) {
        ls_set_error("could not read %s", path);
        return -EIO;
    }
    const char *name = strrchr(path, '/');
    snprintf(out, out_len, "%s, %lld bytes, fnv1a64 of the first MiB %016" PRIx64,
             name ? name + 1 : path, (long long)sb.st_size, hash);
    return 0;
}

/* ---- reading ---- */

typedef struct Shard {
    const char *path;
    cJSON *root;
    unsigned first, end;         /* frames scored */
    unsigned asked_end;
    int input_ended;
    const cJSON *features, *scores, *sums;
    double seconds;
} Shard;

static int shard_error(const char *path, const char *what)
{
    ls_set_error("%s: not a lockstep shard report: %s", path, what);
    return -EINVAL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        const size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *bigger = realloc(buf, 2 * cap + 1);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

static int get_unsigned(const cJSON *v, unsigned *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
        v->valuedouble != floor(v->valuedouble))
        return -EINVAL;
    *out = (unsigned)v->valuedouble;
    return 0;
}

static int get_pair(const cJSON *v, unsigned *a, unsigned *b)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2 ||
        get_unsigned(cJSON_GetArrayItem(v, 0), a) || get_unsigned(cJSON_GetArrayItem(v, 1), b))
        return -EINVAL;
    return 0;
}

static int load_shard(Shard *sh, const char *path)
{
    memset(sh, 0, sizeof(*sh));
    sh->path = path;
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        ls_set_error("could not read shard report %s: %s", path, strerror(errno));
        return -EINVAL;
    }
    sh->root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!sh->root)
        return shard_error(path, "it is no valid JSON");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(sh->root, "lockstep_shard");
    if (!cJSON_IsNumber(fmt))
        return shard_error(path, "no \"lockstep_shard\" member (a report written without "
                                 "--frame_range?)");
    if (fmt->valuedouble != SHARD_FORMAT) {
        ls_set_error("%s: shard report format %g, this lockstep reads format %d", path,
                     fmt->valuedouble, SHARD_FORMAT);
        return -EINVAL;
    }
    unsigned asked_first, read_first, read_end, first;
    const cJSON *ended = cJSON_GetObjectItemCaseSensitive(sh->root, "input_ended");
    const cJSON *secs = cJSON_GetObjectItemCaseSensitive(sh->root, "seconds");
    sh->features = cJSON_GetObjectItemCaseSensitive(sh->root, "features");
    sh->scores = cJSON_GetObjectItemCaseSensitive(sh->root, "scores");
    sh->sums = cJSON_GetObjectItemCaseSensitive(sh->root, "sums");
    if (get_pair(cJSON_GetObjectItemCaseSensitive(sh->root, "frame_range"), &asked_first,
                 &sh->asked_end) ||
        get_pair(cJSON_GetObjectItemCaseSensitive(sh->root, "frames_read"), &read_first,
                 &read_end) ||
        get_unsigned(cJSON_GetObjectItemCaseSensitive(sh->root, "first_frame"), &first) ||
        !cJSON_IsBool(ended) || !cJSON_IsNumber(secs) || !cJSON_IsArray(sh->features) ||
        !cJSON_IsArray(sh->scores) || !cJSON_IsArray(sh->sums) || first != asked_first)
        return shard_error(path, "a member is missing or malformed");
    sh->first = first;
    sh->end = first + (unsigned)cJSON_GetArraySize(sh->scores);
    sh->input_ended = cJSON_IsTrue(ended);
    sh->seconds = secs->valuedouble;
    if (sh->end == sh->first || sh->end > sh->asked_end ||
        (sh->end < sh->asked_end && !sh->input_ended))
        return shard_error(path, "its scores do not cover its frame range");
    return 0;
}

/* The members that must be the same in every shard of one video, and what they are called in
 * the message that refuses a mix. */
static const struct { const char *member, *what; } same_members[] = {
    { "version", "lockstep versions" },
    { "settings", "settings" },
    { "reference", "reference inputs" },
    { "distorted", "distorted inputs" },
    { "geometry", "frame sizes or formats" },
    { "subsample", "--subsample values" },
    { "extractors", "feature extractors or options" },
    { "models", "models" },
};

static int check_same(const Shard *a, const Shard *b)
{
    for (size_t i = 0; i < sizeof(same_members) / sizeof(same_members[0]); i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(a->root, same_members[i].member);
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(b->root, same_members[i].member);
        if (!x || !y)
            return shard_error(x ? b->path : a->path, same_members[i].member);
        if (cJSON_Compare(x, y, 1))
            continue;
        char *px = cJSON_PrintUnformatted(x), *py = cJSON_PrintUnformatted(y);
        ls_set_error("%s and %s come from different %s: %.300s against %.300s", a->path,
                     b->path, same_members[i].what, px ? px : "?", py ? py : "?");
        free(px);
        free(py);
        return -EINVAL;
    }
    return 0;
}

static int by_first(const void *a, const void *b)
{
    const Shard *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* Shards sorted by their first frame must tile 0 .. N-1, the last one reaching the video's end. */
static int check_tiling(const Shard *sh, unsigned n)
{
    if (sh[0].first != 0) {
        ls_set_error("no shard starts at frame 0: the first one, %s, starts at frame %u (frames "
                     "0..%u are missing)", sh[0].path, sh[0].first, sh[0].first - 1);
        return -EINVAL;
    }
    for (unsigned i = 0; i + 1 < n; i++) {
        const Shard *a = &sh[i], *b = &sh[i + 1];
        if (a->input_ended) {
            ls_set_error("%s reaches the end of the video at frame %u, but %s starts at frame %u",
                         a->path, a->end - 1, b->path, b->first);
            return -EINVAL;
        }
        if (b->first < a->end) {
            ls_set_error("%s (frames %u..%u) and %s (frames %u..%u) overlap in frames %u..%u",
                         a->path, a->first, a->end - 1, b->path, b->first, b->end - 1, b->first,
                         (a->end < b->end ? a->end : b->end) - 1);
            return -EINVAL;
        }
        if (b->first > a->end) {
            ls_set_error("frames %u..%u are missing: %s ends at frame %u and %s starts at "
                         "frame %u", a->end, b->first - 1, a->path, a->end - 1, b->path,
                         b->first);
            return -EINVAL;
        }
    }
    const Shard *last = &sh[n - 1];
    if (!last->input_ended) {
        ls_set_error("the last shard, %s (frames %u..%u), does not reach the end of the video: "
                     "a shard from frame %u on is missing", last->path, last->first,
                     last->end - 1, last->end);
        return -EINVAL;
    }
    return 0;
}

static int read_double(const cJSON *v, double *out)
{
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return 0;
    }
    if (!cJSON_IsString(v))
        return -EINVAL;
    const char *s = v->valuestring;
    if (!strcmp(s, "nan") || !strcmp(s, "-nan"))
        *out = s[0] == '-' ? -NAN : NAN;
    else if (!strcmp(s, "inf") || !strcmp(s, "-inf"))
        *out = s[0] == '-' ? -INFINITY : INFINITY;
    else
        return -EINVAL;
    return 0;
}

/* The shard's scores into fc, feature by feature in the shard's order of names: a name new to
 * fc goes after the others, so the first shard's order (the whole run's) is kept. */
static int add_scores(LsCollector *fc, const Shard *sh)
{
    const int n_features = cJSON_GetArraySize(sh->features);
    const unsigned n_rows = sh->end - sh->first;
    const cJSON **cursor = calloc(n_rows, sizeof(*cursor)); /* each row's next value */
    if (!cursor)
        return -ENOMEM;
    unsigned r = 0;
    for (const cJSON *row = sh->scores->child; row; row = row->next, r++) {
        if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != n_features) {
            free(cursor);
            return shard_error(sh->path, "a row of scores does not match the feature names");
        }
        cursor[r] = row->child;
    }
    int err = 0;
    for (const cJSON *name = sh->features->child; name && !err; name = name->next) {
        if (!cJSON_IsString(name)) {
            err = shard_error(sh->path, "a feature name is no string");
            break;
        }
        for (r = 0; r < n_rows && !err; r++) {
            const cJSON *v = cursor[r];
            cursor[r] = v->next;
            double value;
            if (cJSON_IsNull(v))
                continue;
            if (read_double(v, &value))
                err = shard_error(sh->path, "a score is not a number");
            else
                err = ls_collector_append(fc, name->valuestring, value, sh->first + r);
        }
    }
    free(cursor);
    return err;
}

static int add_sums(LsCollector *fc, const Shard *sh)
{
    for (const cJSON *e = sh->sums->child; e; e = e->next) {
        const cJSON *name = cJSON_GetArrayItem(e, 0), *value = cJSON_GetArrayItem(e, 1);
        char *end;
        if (!cJSON_IsString(name) || !cJSON_IsString(value))
            return shard_error(sh->path, "a sum is malformed");
        errno = 0;
        const unsigned long long v = strtoull(value->valuestring, &end, 10);
        if (errno || *end || !*value->valuestring || value->valuestring[0] == '-')
            return shard_error(sh->path, "a sum is no unsigned integer");
        const int err = ls_collector_add_sum(fc, name->valuestring, (uint64_t)v, 0);
        if (err)
            return err;
    }
    return 0;
}

/* The merged context: the shards' extractors (for their aggregate callbacks), geometry and
 * models; the scores go in afterwards. */
static int make_merged(VmafContext **out, const Shard *sh, unsigned n_frames)
{
    const cJSON *geometry = cJSON_GetObjectItemCaseSensitive(sh->root, "geometry");
    unsigned w, h, fmt, bpc, n_sub;
    if (get_unsigned(cJSON_GetObjectItemCaseSensitive(geometry, "width"), &w) ||
        get_unsigned(cJSON_GetObjectItemCaseSensitive(geometry, "height"), &h) ||
        get_unsigned(cJSON_GetObjectItemCaseSensitive(geometry, "pixel_format"), &fmt) ||
        get_unsigned(cJSON_GetObjectItemCaseSensitive(geometry, "bitdepth"), &bpc) ||
        get_unsigned(cJSON_GetObjectItemCaseSensitive(sh->root, "subsample"), &n_sub))
        return shard_error(sh->path, "the geometry or subsample is malformed");
    VmafContext *ctx;
    int err = vmaf_init(&ctx, (VmafConfiguration){ .log_level = VMAF_LOG_LEVEL_WARNING,
                                                   .n_subsample = n_sub });
    if (err)
        return err;
    const cJSON *extractors = cJSON_GetObjectItemCaseSensitive(sh->root, "extractors");
    for (const cJSON *e = extractors ? extractors->child : NULL; e && !err; e = e->next) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *options = cJSON_GetObjectItemCaseSensitive(e, "options");
        if (!cJSON_IsString(name) || !cJSON_IsArray(options)) {
            err = shard_error(sh->path, "an extractor is malformed");
            break;
        }
        const LsExtractor *ex = ls_extractor_find(name->valuestring, LOCKSTEP_BACKEND_CPU);
        if (!ex) {
            ls_set_error("%s: extractor \"%s\" is not built in", sh->path, name->valuestring);
            err = -EINVAL;
            break;
        }
        if (!ex->aggregate)
            continue; /* only the aggregates are computed again */
        const unsigned n = (unsigned)cJSON_GetArraySize(options);
        LsOptionValue *values = calloc(n ? n : 1, sizeof(*values));
        if (!values) {
            err = -ENOMEM;
            break;
        }
        unsigned k = 0;
        for (const cJSON *o = options->child; o; o = o->next, k++) {
            const cJSON *key = cJSON_GetArrayItem(o, 0), *value = cJSON_GetArrayItem(o, 1);
            if (!cJSON_IsString(key) || !cJSON_IsString(value))
                break;
            values[k] = (LsOptionValue){ key->valuestring, value->valuestring };
        }
        err = k == n ? ls_context_use_extractor(ctx, ex, values, n, false)
                     : shard_error(sh->path, "an extractor option is malformed");
        free(values);
    }
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(sh->root, "models");
    const unsigned n_models = cJSON_IsArray(models) ? (unsigned)cJSON_GetArraySize(models) : 0;
    LockstepShardModel *m = calloc(n_models ? n_models : 1, sizeof(*m));
    unsigned k = 0;
    for (const cJSON *e = models ? models->child : NULL; e && m && !err; e = e->next, k++) {
        const cJSON *label = cJSON_GetObjectItemCaseSensitive(e, "label");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *coll = cJSON_GetObjectItemCaseSensitive(e, "collection");
        if (!cJSON_IsString(label) || !cJSON_IsString(name) || !cJSON_IsBool(coll))
            err = shard_error(sh->path, "a model is malformed");
        else
            m[k] = (LockstepShardModel){ label->valuestring, name->valuestring,
                                         cJSON_IsTrue(coll) };
    }
    if (!err && !m)
        err = -ENOMEM;
    if (!err)
        err = ls_context_become_merged(ctx, (enum VmafPixelFormat)fmt, bpc, w, h, n_frames, m,
                                       n_models);
    free(m);
    if (err) {
        vmaf_close(ctx);
        return err;
    }
    *out = ctx;
    return 0;
}

int lockstep_merge_shards(VmafContext **merged, const char *const *paths, unsigned n)
{
    if (!merged || !paths || !n)
        return -EINVAL;
    Shard *sh = calloc(n, sizeof(*sh));
    if (!sh)
        return -ENOMEM;
    int err = 0;
    unsigned loaded = 0;
    for (; loaded < n && !err; loaded++)
        err = load_shard(&sh[loaded], paths[loaded]);
    for (unsigned i = 1; i < n && !err; i++)
        err = check_same(&sh[0], &sh[i]);
    if (!err) {
        qsort(sh, n, sizeof(*sh), by_first);
        err = check_tiling(sh, n);
    }
    VmafContext *ctx = NULL;
    if (!err)
        err = make_merged(&ctx, &sh[0], sh[n - 1].end);
    double seconds = 0.0;
    for (unsigned i = 0; i < n && !err; i++) {
        LsCollector *fc = ls_context_collector(ctx);
        if (!(err = add_scores(fc, &sh[i])))
            err = add_sums(fc, &sh[i]);
        seconds += sh[i].seconds;
    }
    if (!err) {
        LsCollector *fc = ls_context_collector(ctx);
        ls_collector_set_seconds(fc, seconds);
        err = ls_context_aggregate(ctx, fc);
    }
    for (unsigned i = 0; i < loaded; i++)
        cJSON_Delete(sh[i].root);
    free(sh);
    if (err) {
        vmaf_close(ctx);
        return err;
    }
    *merged = ctx;
    return 0;
}
