/* Report writers: XML, JSON, CSV and SUB in libvmaf's exact layout (pooling_and_output.md §5). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/output.h"

static const struct { const char *name, *alias; } aliases[] = {
    { "VMAF_feature_motion_score", "motion" },
    { "VMAF_feature_motion2_score", "motion2" },
    { "VMAF_feature_motion3_score", "motion3" },
    { "VMAF_integer_feature_motion_score", "integer_motion" },
    { "VMAF_integer_feature_motion2_score", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "integer_motion3" },
    { "VMAF_feature_adm2_score", "adm2" },
    { "VMAF_feature_aim_score", "aim" },
    { "VMAF_feature_adm3_score", "adm3" },
    { "VMAF_feature_adm_scale0_score", "adm_scale0" },
    { "VMAF_feature_adm_scale1_score", "adm_scale1" },
    { "VMAF_feature_adm_scale2_score", "adm_scale2" },
    { "VMAF_feature_adm_scale3_score", "adm_scale3" },
    { "Cambi_feature_cambi_score", "cambi" },
    { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
    { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
    { "VMAF_feature_vif_scale0_score", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "vif_scale3" },
    { "VMAF_integer_feature_adm2_score", "integer_adm2" },
    { "VMAF_integer_feature_aim_score", "integer_aim" },
    { "VMAF_integer_feature_adm3_score", "integer_adm3" },
    { NULL, NULL },
};

const char *ls_output_alias(const char *name)
{
    for (unsigned i = 0; aliases[i].name; i++)
        if (!strcmp(aliases[i].name, name))
            return aliases[i].alias;
    return name;
}

int ls_pool(LsCollector *fc, const char *name, enum VmafPoolingMethod method, unsigned n_sub,
            unsigned index_low, unsigned index_high, double *score)
{
    unsigned cnt = 0;
    double sum = 0.0, isum = 0.0, min = 0.0, max = 0.0;
    for (unsigned i = index_low; i <= index_high; i++) {
        if (n_sub > 1 && i % n_sub != 0)
            continue;
        cnt++;
        double s;
        if (ls_collector_get(fc, name, i, &s))
            return -EINVAL;
        sum = sum + s;
        isum = isum + 1.0 / (s + 1.0);
        if (i == index_low || s < min)
            min = s;
        if (i == index_low || s > max)
            max = s;
        if (i == index_high)
            break; /* index_high may be UINT_MAX */
    }
    switch (method) {
    case VMAF_POOL_METHOD_MIN: *score = min; return 0;
    case VMAF_POOL_METHOD_MAX: *score = max; return 0;
    case VMAF_POOL_METHOD_MEAN: *score = sum / cnt; return 0;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: *score = (double)cnt / isum - 1.0; return 0;
    default: return -EINVAL;
    }
}

/* libvmaf 3.1+: %.6f, or %.16f when the fraction has more than six leading zeros. */
static void format_score(char *buf, size_t len, const char *fmt, double v)
{
    if (fmt) {
        snprintf(buf, len, fmt, v);
        return;
    }
    double x = fabs(v);
    double f = x - (double)(int)x;
    int z = 0;
    if (isfinite(x) && x < 2147483647.0) {
        while (f < 1.0 && f != 0.0) {
            f = f * 10.0;
            z++;
        }
    }
    snprintf(buf, len, z > 6 ? "%.16f" : "%.6f", v);
}

void ls_format_score(char *buf, size_t len, const char *score_format, double v)
{
    format_score(buf, len, score_format, v);
}

const char *lockstep_precision_format(const char *precision)
{
    static const char *const digits[] = { "%.1g", "%.2g", "%.3g", "%.4g", "%.5g", "%.6g",
                                          "%.7g", "%.8g", "%.9g", "%.10g", "%.11g", "%.12g",
                                          "%.13g", "%.14g", "%.15g", "%.16g", "%.17g" };
    if (!precision)
        return NULL;
    if (!strcmp(precision, "max") || !strcmp(precision, "full"))
        return "%.17g";
    if (!strcmp(precision, "legacy"))
        return "%.6f";
    char *end;
    const long n = strtol(precision, &end, 10);
    if (!*precision || *end || n < 1 || n > 17 || precision[0] == '+' || precision[0] == ' ')
        return NULL;
    return digits[n - 1];
}

static const char *const pool_names[] = { NULL, "min", "max", "mean", "harmonic_mean" };

int ls_output_frame_printed(const LsOutputInfo *info, unsigned i)
{
    if (info->n_subsample > 1 && i % info->n_subsample)
        return 0;
    const unsigned n = ls_collector_count(info->fc);
    for (unsigned f = 0; f < n; f++)
        if (ls_collector_has(info->fc, f, i, NULL))
            return 1;
    return 0;
}

static void write_xml(FILE *out, const LsOutputInfo *info)
{
    LsCollector *fc = info->fc;
    const unsigned n = ls_collector_count(fc), cap = ls_collector_capacity(fc);
    char v[64];
    fprintf(out, "<VMAF version=\"%s\">\n", vmaf_version());
    fprintf(out, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", info->width,
            info->height);
    fprintf(out, "  <fyi fps=\"%.2f\" />\n", ls_collector_fps(fc, info->pic_cnt));
    fprintf(out, "  <frames>\n");
    for (unsigned i = 0; i < cap; i++) {
        if (!ls_output_frame_printed(info, i))
            continue;
        fprintf(out, "    <frame frameNum=\"%u\" ", i);
        for (unsigned f = 0; f < n; f++) {
            double s;
            if (!ls_collector_has(fc, f, i, &s))
                continue;
            format_score(v, sizeof(v), info->score_format, s);
            fprintf(out, "%s=\"%s\" ", ls_output_alias(ls_collector_name(fc, f)), v);
        }
        fprintf(out, "/>\n");
    }
    fprintf(out, "  </frames>\n  <pooled_metrics>\n");
    for (unsigned f = 0; f < n; f++) {
        const char *name = ls_collector_name(fc, f);
        fprintf(out, "    <metric name=\"%s\" ", ls_output_alias(name));
        for (int m = VMAF_POOL_METHOD_MIN; m <= VMAF_POOL_METHOD_HARMONIC_MEAN; m++) {
            double s;
            if (!info->pic_cnt || ls_pool(fc, name, m, info->n_subsample, info->first,
                                          info->first + info->pic_cnt - 1, &s))
                continue;
            format_score(v, sizeof(v), info->score_format, s);
            fprintf(out, "%s=\"%s\" ", pool_names[m], v);
        }
        fprintf(out, "/>\n");
    }
    fprintf(out, "  </pooled_metrics>\n  <aggregate_metrics ");
    for (unsigned a = 0; a < ls_collector_aggregate_count(fc); a++) {
        double s;
        const char *name = ls_collector_aggregate_name(fc, a, &s);
        format_score(v, sizeof(v), info->score_format, s);
        fprintf(out, "%s=\"%s\" ", name, v);
    }
    fprintf(out, "/>\n</VMAF>\n");
}

static void json_value(FILE *out, const LsOutputInfo *info, double s)
{
    char v[64];
    if (!isfinite(s)) {
        fprintf(out, "null");
        return;
    }
    format_score(v, sizeof(v), info->score_format, s);
    fprintf(out, "%s", v);
}

static void write_json(FILE *out, const LsOutputInfo *info)
{
    LsCollector *fc = info->fc;
    const unsigned n = ls_collector_count(fc), cap = ls_collector_capacity(fc);
    fprintf(out, "{\n  \"version\": \"%s\",\n", vmaf_version());
    const double fps = ls_collector_fps(fc, info->pic_cnt);
    if (isfinite(fps))
        fprintf(out, "  \"fps\": %.2f,\n", fps);
    else
        fprintf(out, "  \"fps\": null,\n");
    fprintf(out, "  \"frames\": [");
    for (unsigned i = 0, printed = 0; i < cap; i++) {
        if (!ls_output_frame_printed(info, i))
            continue;
        fprintf(out, "%s", printed++ ? ",\n" : "\n");
        fprintf(out, "    {\n      \"frameNum\": %u,\n      \"metrics\": {\n", i);
        unsigned last = 0;
        for (unsigned f = 0; f < n; f++)
            if (ls_collector_has(fc, f, i, NULL))
                last = f;
        for (unsigned f = 0; f < n; f++) {
            double s;
            if (!ls_collector_has(fc, f, i, &s))
                continue;
            fprintf(out, "        \"%s\": ", ls_output_alias(ls_collector_name(fc, f)));
            json_value(out, info, s);
            /* libvmaf prints no newline after a null value */
            fprintf(out, "%s%s", f < last ? "," : "", isfinite(s) ? "\n" : "");
        }
        fprintf(out, "      }\n    }");
    }
    fprintf(out, "\n  ],\n  \"pooled_metrics\": {");
    for (unsigned f = 0; f < n; f++) {
        const char *name = ls_collector_name(fc, f);
        fprintf(out, "%s    \"%s\": {", f ? ",\n" : "\n", ls_output_alias(name));
        for (int m = VMAF_POOL_METHOD_MIN; m <= VMAF_POOL_METHOD_HARMONIC_MEAN; m++) {
            double s;
            if (!info->pic_cnt || ls_pool(fc, name, m, info->n_subsample, info->first,
                                          info->first + info->pic_cnt - 1, &s))
                continue;
            fprintf(out, "%s      \"%s\": ", m == VMAF_POOL_METHOD_MIN ? "\n" : ",\n",
                    pool_names[m]);
            json_value(out, info, s);
        }
        fprintf(out, "\n    }");
    }
    fprintf(out, "\n  },\n  \"aggregate_metrics\": {");
    const unsigned na = ls_collector_aggregate_count(fc);
    for (unsigned a = 0; a < na; a++) {
        double s;
        const char *name = ls_collector_aggregate_name(fc, a, &s);
        fprintf(out, "\n    \"%s\": ", name);
        json_value(out, info, s);
        if (a + 1 < na)
            fprintf(out, ",");
    }
    fprintf(out, "\n  }\n}\n");
}

static void write_csv(FILE *out, const LsOutputInfo *info)
{
    LsCollector *fc = info->fc;
    const unsigned n = ls_collector_count(fc), cap = ls_collector_capacity(fc);
    char v[64];
    fprintf(out, "Frame,");
    for (unsigned f = 0; f < n; f++)
        fprintf(out, "%s,", ls_output_alias(ls_collector_name(fc, f)));
    fprintf(out, "\n");
    for (unsigned i = 0; i < cap; i++) {
        if (!ls_output_frame_printed(info, i))
            continue;
        fprintf(out, "%u,", i);
        for (unsigned f = 0; f < n; f++) {
            double s;
            if (!ls_collector_has(fc, f, i, &s))
                continue;
            format_score(v, sizeof(v), info->score_format, s);
            fprintf(out, "%s,", v);
        }
        fprintf(out, "\n");
    }
}

static void write_sub(FILE *out, const LsOutputInfo *info)
{
    LsCollector *fc = info->fc;
    const unsigned n = ls_collector_count(fc), cap = ls_collector_capacity(fc);
    char v[64];
    for (unsigned i = 0; i < cap; i++) {
        if (!ls_output_frame_printed(info, i))
            continue;
        fprintf(out, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (unsigned f = 0; f < n; f++) {
            double s;
            if (!ls_collector_has(fc, f, i, &s))
                continue;
            format_score(v, sizeof(v), info->score_format, s);
            fprintf(out, "%s: %s|", ls_output_alias(ls_collector_name(fc, f)), v);
        }
        fprintf(out, "\n");
    }
}

int ls_write_output(const LsOutputInfo *info, const char *path, enum VmafOutputFormat fmt)
{
    if (fmt <= VMAF_OUTPUT_FORMAT_NONE || fmt > VMAF_OUTPUT_FORMAT_SUB)
        return -EINVAL;
    FILE *out = !strcmp(path, "-") ? stdout : fopen(path, "w");
    if (!out) {
        ls_set_error("could not open file: %s: %s", path, strerror(errno));
        return -EINVAL;
    }
    switch (fmt) {
    case VMAF_OUTPUT_FORMAT_XML: write_xml(out, info); break;
    case VMAF_OUTPUT_FORMAT_JSON: write_json(out, info); break;
    case VMAF_OUTPUT_FORMAT_CSV: write_csv(out, info); break;
    case VMAF_OUTPUT_FORMAT_SUB: write_sub(out, info); break;
    default: break;
    }
    /* errno of the write that failed (ENOSPC, EFBIG...); fclose sets it when it fails itself */
    int err = ferror(out) ? -EIO : 0, reason = err ? errno : 0;
    if (out == stdout ? fflush(out) : fclose(out)) {
        err = -EIO;
        reason = errno;
    }
    if (err)
        ls_set_error("could not write %s: %s", path, strerror(reason ? reason : EIO));
    return err;
}
