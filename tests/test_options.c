/* Option tables: parsing, ranges, refusals and the FEATURE_PARAM suffix rule (options.md). */
#include <errno.h>
#include <float.h>
#include <stddef.h>

#include "core/options.h"
#include "test_util.h"

typedef struct Opts {
    bool force_zero;
    double fps_weight, max_val;
    int filter_size;
    bool debug;
    const char *label;
} Opts;

static const LsOption table[] = {
    { .name = "debug", .type = LS_OPT_BOOL, .offset = offsetof(Opts, debug), .def.b = true },
    { .name = "motion_force_zero", .alias = "force_0", .type = LS_OPT_BOOL,
      .offset = offsetof(Opts, force_zero), .def.b = false, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw", .type = LS_OPT_DOUBLE,
      .offset = offsetof(Opts, fps_weight), .def.d = 1.0, .min = 0, .max = 5,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv", .type = LS_OPT_DOUBLE,
      .offset = offsetof(Opts, max_val), .def.d = 10000.0, .min = 0, .max = 10000,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_filter_size", .alias = "mfs", .type = LS_OPT_INT,
      .offset = offsetof(Opts, filter_size), .def.i = 5, .min = 0, .max = 9,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "label", .type = LS_OPT_STRING, .offset = offsetof(Opts, label), .def.s = "x" },
    { 0 },
};

static int apply(Opts *o, const char *k, const char *v, char *err)
{
    const LsOptionValue val = { k, v };
    return ls_options_apply("fake", table, o, &val, k ? 1 : 0, err, 256);
}

static void name_of(Opts *o, const char *k1, const char *v1, const char *k2, const char *v2,
                    const char *expect)
{
    LsOptionValue vals[2] = { { k1, v1 }, { k2, v2 } };
    char err[256], out[256];
    CHECK(ls_options_apply("fake", table, o, vals, k2 ? 2 : (k1 ? 1 : 0), err, sizeof(err)) == 0);
    ls_feature_param_name(out, sizeof(out), "VMAF_feature_motion2_score", "motion2", table, o);
    CHECK(!strcmp(out, expect));
    if (strcmp(out, expect))
        fprintf(stderr, "  got %s, expected %s\n", out, expect);
}

int main(void)
{
    Opts o;
    char err[256];
    CHECK(apply(&o, NULL, NULL, err) == 0);
    CHECK(o.debug && !o.force_zero && o.fps_weight == 1.0 && o.filter_size == 5 && !strcmp(o.label, "x"));

    CHECK(apply(&o, "motion_fps_weight", "2.5", err) == 0 && o.fps_weight == 2.5);
    CHECK(apply(&o, "motion_fps_weight", "5.01", err) == -EINVAL && strstr(err, "out of range"));
    CHECK(apply(&o, "motion_fps_weight", "1x", err) == -EINVAL && strstr(err, "\"1x\""));
    CHECK(apply(&o, "motion_fps_weight", "nan", err) == -EINVAL);
    CHECK(apply(&o, "motion_fps_weight", "", err) == -EINVAL);
    CHECK(apply(&o, "motion_filter_size", "3.7", err) == -EINVAL && strstr(err, "integer"));
    CHECK(apply(&o, "motion_filter_size", "10", err) == -EINVAL);
    CHECK(apply(&o, "motion_filter_size", "99999999999999999999", err) == -EINVAL);
    CHECK(apply(&o, "motion_force_zero", "True", err) == -EINVAL && strstr(err, "boolean"));
    CHECK(apply(&o, "mfw", "2", err) == -EINVAL && strstr(err, "unknown option \"mfw\"") &&
          strstr(err, "fake:"));

    /* options.md §5 examples */
    name_of(&o, NULL, NULL, NULL, NULL, "VMAF_feature_motion2_score");
    name_of(&o, "motion_fps_weight", "1", NULL, NULL, "VMAF_feature_motion2_score");
    name_of(&o, "debug", "false", NULL, NULL, "VMAF_feature_motion2_score");
    name_of(&o, "motion_fps_weight", "2.5", "motion_max_val", "40", "motion2_mfw_2.5_mmxv_40");
    name_of(&o, "motion_max_val", "40", "motion_fps_weight", "2.5", "motion2_mfw_2.5_mmxv_40");
    name_of(&o, "motion_force_zero", "true", NULL, NULL, "motion2_force_0");
    name_of(&o, "motion_max_val", "0.00001", NULL, NULL, "motion2_mmxv_1e-05");
    name_of(&o, "motion_filter_size", "3", "motion_force_zero", "true", "motion2_mfs_3_force_0"); /* sorted by option name */
    return test_summary();
}
