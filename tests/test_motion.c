/* motion (float_motion and integer motion): taps against the spec's JSON, the AVX2 units against
 * the C references (checkasm-style: random and extreme planes, 8..12 and 16 bit, exact
 * comparison, failing parameters printed), output names with the FEATURE_PARAM suffix
 * (options.md §5/§8), the write schedule of both extractors and the init refusals.
 * usage: test_motion MOTION_FILTER_JSON [--bench] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/collector.h"
#include "core/cpu.h"
#include "core/extractor.h"
#include "feature/motion.h"


static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* ---- tables ---- */

/* The float32_hex values of the taps of `filter` ("FILTER_5", ...) in the JSON. */
static int json_taps(const char *json, const char *filter, float *taps, int max)
{
    char key[64];
    snprintf(key, sizeof(key), "\"%s\"", filter);
    const char *p = strstr(json, key);
    if (!p)
        return -1;
    const char *end = strstr(p, "\"radius\"");
    int n = 0;
    while (n < max && (p = strstr(p, "\"float32_hex\"")) && p < end) {
        p = strchr(p + 13, '"');
        taps[n++] = strtof(p + 1, NULL);
        p++;
    }
    return n;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json, "cannot read %s", json_path);
    if (!json)
        return;
    const struct {
        const char *name;
        const float *taps;
        int n;
    } filters[] = {
        { "FILTER_5", ls_float_motion_filter5, 5 },
        { "FILTER_3", ls_float_motion_filter3, 3 },
        { "FILTER_5_NO_OP", ls_float_motion_filter_identity, 5 },
    };
    for (unsigned f = 0; f < 3; f++) {
        float taps[8];
        const int n = json_taps(json, filters[f].name, taps, 8);
        CHECK(n == filters[f].n, "%s: %d taps in the JSON", filters[f].name, n);
        for (int k = 0; k < n && k < filters[f].n; k++)
            CHECK(float_bits(taps[k]) == float_bits(filters[f].taps[k]), "%s tap %d: %a != JSON %a",
                  filters[f].name, k, filters[f].taps[k], taps[k]);
    }
    const char *p = strstr(json, "\"integer_motion\"");
    p = p ? strstr(p, "\"taps\"") : NULL;
    p = p ? strchr(p, '[') : NULL;
    int32_t sum = 0;
    for (int k = 0; k < 5 && p; k++) {
        const long v = strtol(p + 1, (char **)&p, 10);
        CHECK(v == ls_int_motion_filter[k], "integer tap %d: %d != JSON %ld", k,
              ls_int_motion_filter[k], v);
        sum += ls_int_motion_filter[k];
    }
    CHECK(p && sum == 65536, "integer taps sum to %d", sum);
    free(json);
    printf("tables: taps equal the spec JSON\n");
}

/* ---- checkasm ---- */

enum Fill {
    FILL_RANDOM,
    FILL_ZERO,
    FILL_MAX,
    FILL_MAX_VS_ZERO,
    FILL_ZERO_VS_MAX,
    FILL_NEAR,
    FILL_N
};
static const char *const fill_names[FILL_N] = { "random",   "all 0",    "all max",
                                                "max vs 0", "0 vs max", "nearly equal" };

typedef struct Plane {
    unsigned w, h;
    ptrdiff_t stride;
    void *a, *b;
} Plane;

/* Exact-size buffers (stride = row bytes, nothing after the last sample), so that a variant
 * reading past the plane trips AddressSanitizer in sanitized builds. */
static Plane plane_alloc(unsigned w, unsigned h, unsigned bpc)
{
    Plane pl = { w, h, (ptrdiff_t)(w * (bpc > 8 ? 2 : 1)), NULL, NULL };
    pl.a = malloc((size_t)pl.stride * h);
    pl.b = malloc((size_t)pl.stride * h);
    return pl;
}

static void plane_free(Plane *pl)
{
    free(pl->a);
    free(pl->b);
}

static void put(void *buf, size_t i, unsigned bpc, unsigned v)
{
    if (bpc == 8)
        ((uint8_t *)buf)[i] = (uint8_t)v;
    else
        ((uint16_t *)buf)[i] = (uint16_t)v;
}

static void fill_plane(Plane *pl, unsigned bpc, enum Fill fill)
{
    const unsigned max = (1u << bpc) - 1;
    const size_t n = (size_t)pl->w * pl->h;
    for (size_t i = 0; i < n; i++) {
        unsigned a = 0, b = 0;
        switch (fill) {
        case FILL_RANDOM:
            a = rnd() & max, b = rnd() & max;
            break;
        case FILL_ZERO:
            break;
        case FILL_MAX:
            a = b = max;
            break;
        case FILL_MAX_VS_ZERO:
            a = max;
            break;
        case FILL_ZERO_VS_MAX:
            b = max;
            break;
        case FILL_NEAR:
            a = rnd() & max;
            b = a ^ (rnd() & 1);
            break;
        default:
            break;
        }
        put(pl->a, i, bpc, a);
        put(pl->b, i, bpc, b);
    }
}

static const unsigned sizes[][2] = { { 3, 3 },   { 7, 7 },   { 8, 8 },    { 9, 5 },   { 15, 15 },
                                     { 16, 16 }, { 17, 13 }, { 31, 4 },   { 33, 37 }, { 97, 61 },
                                     { 64, 9 },  { 71, 22 }, { 131, 77 }, { 200, 30 } };
static const unsigned depths[] = { 8, 9, 10, 11, 12, 15, 16 };
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))
#define N_DEPTHS (sizeof(depths) / sizeof(depths[0]))

static void test_checkasm(void)
{
    if (!(ls_cpu_detect() & LS_CPU_FLAG_AVX2)) {
        printf("checkasm: no AVX2 on this CPU, AVX2 variants not tested\n");
        return;
    }
    LsMotionDsp c, avx2;
    ls_motion_dsp_init(&c, 0);
    ls_motion_dsp_init(&avx2, LS_CPU_FLAG_AVX2);
    /* the integer SAD's wider variants, each checked against C on every case */
    const uint64_t cpu = ls_cpu_detect();
    struct {
        const char *name;
        uint64_t flags;
        LsMotionDsp dsp;
        bool have;
        unsigned n, bad;
    } wide[] = { { .name = "avx512", .flags = LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 },
                 { .name = "avx512vnni",
                   .flags = LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 | LS_CPU_FLAG_AVX512ICL } };
    const LsMotionDsp *below = &avx2;
    for (unsigned v = 0; v < 2; v++) {
        ls_motion_dsp_init(&wide[v].dsp, wide[v].flags);
        wide[v].have = (cpu & wide[v].flags) == wide[v].flags;
        if (!wide[v].have)
            printf("SKIP: %s int_sad (not on this CPU)\n", wide[v].name);
        else
            CHECK(wide[v].dsp.int_sad != below->int_sad, "%s int_sad not installed", wide[v].name);
        below = &wide[v].dsp;
    }
    CHECK(avx2.blur != c.blur && avx2.sad != c.sad && avx2.int_sad != c.int_sad,
          "AVX2 variants not installed");
    const struct {
        const char *name;
        const float *taps;
        unsigned n;
    } filters[] = { { "filter5", ls_float_motion_filter5, 5 },
                    { "filter3", ls_float_motion_filter3, 3 },
                    { "identity", ls_float_motion_filter_identity, 5 } };
    unsigned n_blur = 0, bad_blur = 0, n_sad = 0, bad_sad = 0, n_int = 0, bad_int = 0;
    for (unsigned si = 0; si < N_SIZES; si++) {
        for (unsigned di = 0; di < N_DEPTHS; di++) {
            for (int fill = 0; fill < FILL_N; fill++) {
                const unsigned w = sizes[si][0], h = sizes[si][1], bpc = depths[di];
                Plane pl = plane_alloc(w, h, bpc);
                fill_plane(&pl, bpc, (enum Fill)fill);

                void *tmp = malloc(ls_int_motion_tmp_size(w));
                const uint64_t sad_c = c.int_sad(pl.a, pl.stride, pl.b, pl.stride, w, h, bpc, tmp);
                const uint64_t sad_avx2 =
                    avx2.int_sad(pl.a, pl.stride, pl.b, pl.stride, w, h, bpc, tmp);
                for (unsigned v = 0; v < 2; v++) {
                    if (!wide[v].have)
                        continue;
                    const uint64_t sad =
                        wide[v].dsp.int_sad(pl.a, pl.stride, pl.b, pl.stride, w, h, bpc, tmp);
                    wide[v].n++;
                    if (sad_c != sad) {
                        wide[v].bad++;
                        CHECK(0, "checkasm int_sad %s: %ux%u bpc %u %s: C %" PRIu64 ", %" PRIu64,
                              wide[v].name, w, h, bpc, fill_names[fill], sad_c, sad);
                    }
                }
                free(tmp);
                n_int++;
                if (sad_c != sad_avx2) {
                    bad_int++;
                    CHECK(0, "checkasm int_sad avx2: %ux%u bpc %u %s: C %" PRIu64 ", AVX2 %" PRIu64,
                          w, h, bpc, fill_names[fill], sad_c, sad_avx2);
                }

                for (unsigned f = 0; f < 3; f++) {
                    if (w < filters[f].n / 2 + 1 || h < filters[f].n / 2 + 1)
                        continue;
                    const size_t n = (size_t)w * h;
                    float *out[2][2], tmpf[4096];
                    /* the C reference in one go, AVX2 in two row ranges */
                    const unsigned split = h / 3;
                    for (int v = 0; v < 2; v++) {
                        const LsMotionDsp *d = v ? &avx2 : &c;
                        out[v][0] = malloc(n * sizeof(float));
                        out[v][1] = malloc(n * sizeof(float));
                        for (int i = 0; i < 2; i++) {
                            const void *src = i ? pl.b : pl.a;
                            if (v) {
                                d->blur(src, pl.stride, bpc, out[v][i], w, w, h, 0, split,
                                        filters[f].taps, filters[f].n, tmpf);
                                d->blur(src, pl.stride, bpc, out[v][i], w, w, h, split, h,
                                        filters[f].taps, filters[f].n, tmpf);
                            } else {
                                d->blur(src, pl.stride, bpc, out[v][i], w, w, h, 0, h,
                                        filters[f].taps, filters[f].n, tmpf);
                            }
                        }
                    }
                    n_blur++;
                    if (memcmp(out[0][0], out[1][0], n * sizeof(float)) ||
                        memcmp(out[0][1], out[1][1], n * sizeof(float))) {
                        bad_blur++;
                        CHECK(0, "checkasm blur avx2: %ux%u bpc %u %s %s differs", w, h, bpc,
                              fill_names[fill], filters[f].name);
                    }
                    /* the SAD on the reference's blurred planes, both argument orders */
                    for (int order = 0; order < 2; order++) {
                        const float *x = out[0][order], *y = out[0][!order];
                        const float s_c = c.sad(x, y, w, w, h, 0.0f);
                        /* the chain continued across two row ranges */
                        const float s_avx2 =
                            avx2.sad(x + (size_t)split * w, y + (size_t)split * w, w, w, h - split,
                                     avx2.sad(x, y, w, w, split, 0.0f));
                        n_sad++;
                        if (float_bits(s_c) != float_bits(s_avx2)) {
                            bad_sad++;
                            CHECK(0, "checkasm sad avx2: %ux%u bpc %u %s %s: C %a, AVX2 %a", w, h,
                                  bpc, fill_names[fill], filters[f].name, s_c, s_avx2);
                        }
                    }
                    for (int v = 0; v < 2; v++) {
                        free(out[v][0]);
                        free(out[v][1]);
                    }
                }
                plane_free(&pl);
            }
        }
    }
    /* the float SAD on raw floats of wide dynamic range, where the order of additions shows */
    for (unsigned si = 0; si < N_SIZES; si++) {
        const unsigned w = sizes[si][0], h = sizes[si][1];
        float *a = malloc((size_t)w * h * sizeof(float)),
              *b = malloc((size_t)w * h * sizeof(float));
        for (size_t i = 0; i < (size_t)w * h; i++) {
            a[i] = ldexpf((float)(rnd() & 0xffffff), (int)(rnd() % 40) - 30);
            b[i] = ldexpf((float)(rnd() & 0xffffff), (int)(rnd() % 40) - 30);
        }
        const float s_c = c.sad(a, b, w, w, h, 0.0f), s_avx2 = avx2.sad(a, b, w, w, h, 0.0f);
        n_sad++;
        if (float_bits(s_c) != float_bits(s_avx2)) {
            bad_sad++;
            CHECK(0, "checkasm sad avx2: %ux%u wide-range floats: C %a, AVX2 %a", w, h, s_c,
                  s_avx2);
        }
        free(a);
        free(b);
    }
    printf("checkasm: blur avx2 vs c: %u cases, %u differ; sad: %u cases, %u differ; "
           "int_sad: %u cases, %u differ\n",
           n_blur, bad_blur, n_sad, bad_sad, n_int, bad_int);
    for (unsigned v = 0; v < 2; v++)
        if (wide[v].have)
            printf("checkasm: int_sad %s vs c: %u cases, %u differ\n", wide[v].name, wide[v].n,
                   wide[v].bad);
}

/* ---- running an extractor on synthetic frames ---- */

typedef struct Opt {
    const char *key, *value;
} Opt;

/* A smooth pattern moving by a few samples per frame, plus noise. */
static void make_picture(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                         unsigned h, unsigned frame)
{
    const unsigned max = (1u << bpc) - 1;
    /* reference-counted, as the context hands them in: motion keeps the last two (frames_held) */
    CHECK(!vmaf_picture_alloc(pic, fmt, bpc, w, h), "picture %ux%u", w, h);
    for (unsigned p = 0; p < (fmt == VMAF_PIX_FMT_YUV400P ? 1u : 3u); p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const double v = 0.5 + 0.4 * sin((x + 3.0 * frame * (frame % 3 + 1)) * 0.21 + p) *
                                           cos((y + 2.0 * frame) * 0.13);
                const unsigned s = (unsigned)(v * max) ^ (rnd() & 3);
                put((uint8_t *)pic->data[p] + y * pic->stride[p], x, bpc, s > max ? max : s);
            }
        }
    }
}

static void free_picture(VmafPicture *pic) { vmaf_picture_unref(pic); }

/* Runs `ex` with the options on `frames` synthetic frames into fc; returns init's error. */
static int run_extractor(const LsExtractor *ex, const Opt *opts, unsigned n_opts, LsCollector *fc,
                         enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                         unsigned frames, uint64_t cpu_flags)
{
    LsFex fex = { .ex = ex, .cpu_flags = cpu_flags };
    fex.priv = calloc(1, ex->priv_size);
    LsOptionValue values[16] = { { 0 } };
    for (unsigned i = 0; i < n_opts; i++)
        values[i] = (LsOptionValue){ opts[i].key, opts[i].value };
    char err[256];
    int ret = ls_options_apply(ex->name, ex->options, fex.priv, values, n_opts, err, sizeof(err));
    CHECK(!ret, "%s: options rejected: %s", ex->name, err);
    if (!ret)
        ret = ex->init(&fex, fmt, bpc, w, h);
    if (!ret) {
        rng_state = 0x9e3779b97f4a7c15ull;
        for (unsigned i = 0; i < frames && !ret; i++) {
            VmafPicture ref, dis;
            make_picture(&ref, fmt, bpc, w, h, i);
            make_picture(&dis, fmt, bpc, w, h, i + 100);
            ret = ex->extract(&fex, &ref, &dis, i, fc);
            CHECK(!ret, "%s: extract failed at %u: %d", ex->name, i, ret);
            free_picture(&ref);
            free_picture(&dis);
        }
        if (!ret && ex->flush) {
            ret = ex->flush(&fex, fc);
            CHECK(!ret, "%s: flush failed: %d", ex->name, ret);
        }
    }
    if (ex->close)
        ex->close(&fex);
    free(fex.priv);
    return ret;
}

static bool has_name(LsCollector *fc, const char *name)
{
    for (unsigned i = 0; i < ls_collector_count(fc); i++)
        if (!strcmp(ls_collector_name(fc, i), name))
            return true;
    return false;
}

static double get(LsCollector *fc, const char *name, unsigned index)
{
    double v = NAN;
    const int err = ls_collector_get(fc, name, index, &v);
    CHECK(!err, "%s[%u] missing", name, index);
    return v;
}

/* ---- names (options.md §5, §8) ---- */

static void expect_names(const LsExtractor *ex, const Opt *opts, unsigned n_opts,
                         enum VmafPixelFormat fmt, const char *const *names)
{
    LsCollector *fc;
    ls_collector_create(&fc);
    run_extractor(ex, opts, n_opts, fc, fmt, 8, 24, 16, 3, 0);
    unsigned n = 0;
    for (; names[n]; n++)
        CHECK(has_name(fc, names[n]), "%s: name %s not written (option %s=%s)", ex->name, names[n],
              n_opts ? opts[0].key : "-", n_opts ? opts[0].value : "-");
    CHECK(ls_collector_count(fc) == n, "%s: %u names written, expected %u (first: %s)", ex->name,
          ls_collector_count(fc), n, ls_collector_count(fc) ? ls_collector_name(fc, 0) : "-");
    ls_collector_destroy(fc);
}

static void test_names(void)
{
    const enum VmafPixelFormat f420 = VMAF_PIX_FMT_YUV420P;
    expect_names(&ls_fex_float_motion, NULL, 0, f420,
                 (const char *[]){ "VMAF_feature_motion2_score", "VMAF_feature_motion_score",
                                   "VMAF_feature_motion3_score", NULL });
    expect_names(&ls_fex_float_motion, (Opt[]){ { "motion_fps_weight", "1" } }, 1, f420,
                 (const char *[]){ "VMAF_feature_motion2_score", "VMAF_feature_motion_score",
                                   "VMAF_feature_motion3_score", NULL });
    expect_names(&ls_fex_float_motion,
                 (Opt[]){ { "motion_fps_weight", "2.5" }, { "motion_max_val", "40" } }, 2, f420,
                 (const char *[]){ "motion2_mfw_2.5_mmxv_40", "motion_mfw_2.5_mmxv_40",
                                   "motion3_mfw_2.5_mmxv_40", NULL });
    expect_names(&ls_fex_float_motion, (Opt[]){ { "motion_force_zero", "true" } }, 1, f420,
                 (const char *[]){ "motion2_force_0", "motion3_force_0", "motion_force_0", NULL });
    expect_names(&ls_fex_float_motion, (Opt[]){ { "motion_max_val", "2" } }, 1, f420,
                 (const char *[]){ "motion2_mmxv_2", "motion_mmxv_2", "motion3_mmxv_2", NULL });
    expect_names(&ls_fex_float_motion,
                 (Opt[]){ { "motion_fps_weight", "0.5" }, { "debug", "false" } }, 2, f420,
                 (const char *[]){ "motion2_mfw_0.5", "motion3_mfw_0.5", NULL });
    expect_names(&ls_fex_float_motion,
                 (Opt[]){ { "motion_blend_offset", "3" }, { "motion_blend_factor", "0.5" } }, 2,
                 f420,
                 (const char *[]){ "motion2_mbf_0.5_mbo_3", "motion_mbf_0.5_mbo_3",
                                   "motion3_mbf_0.5_mbo_3", NULL });
    expect_names(&ls_fex_float_motion,
                 (Opt[]){ { "motion_filter_size", "3" },
                          { "motion_add_uv", "true" },
                          { "motion_add_scale1", "true" } },
                 3, VMAF_PIX_FMT_YUV444P,
                 (const char *[]){ "motion2_mdc_mau_mfs_3", "motion_mdc_mau_mfs_3",
                                   "motion3_mdc_mau_mfs_3", NULL });
    expect_names(
        &ls_fex_float_motion, (Opt[]){ { "motion_max_val", "1e-05" } }, 1, f420,
        (const char *[]){ "motion2_mmxv_1e-05", "motion_mmxv_1e-05", "motion3_mmxv_1e-05", NULL });
    expect_names(&ls_fex_motion, NULL, 0, f420,
                 (const char *[]){ "VMAF_integer_feature_motion_sad_score",
                                   "VMAF_integer_feature_motion2_score",
                                   "VMAF_integer_feature_motion3_score", NULL });
    expect_names(&ls_fex_motion, (Opt[]){ { "debug", "true" } }, 1, f420,
                 (const char *[]){ "VMAF_integer_feature_motion_sad_score",
                                   "VMAF_integer_feature_motion_score",
                                   "VMAF_integer_feature_motion2_score",
                                   "VMAF_integer_feature_motion3_score", NULL });
    expect_names(
        &ls_fex_motion, (Opt[]){ { "motion_force_zero", "true" }, { "debug", "true" } }, 2, f420,
        (const char *[]){ "VMAF_integer_feature_motion_sad_score_force_0", "integer_motion_force_0",
                          "integer_motion2_force_0", "integer_motion3_force_0", NULL });
    expect_names(&ls_fex_motion,
                 (Opt[]){ { "motion_fps_weight", "2.5" }, { "motion_max_val", "40" } }, 2, f420,
                 (const char *[]){ "VMAF_integer_feature_motion_sad_score_mfw_2.5_mmxv_40",
                                   "integer_motion2_mfw_2.5_mmxv_40",
                                   "integer_motion3_mfw_2.5_mmxv_40", NULL });
    expect_names(
        &ls_fex_motion,
        (Opt[]){ { "motion_moving_average", "true" }, { "motion_five_frame_window", "true" } }, 2,
        f420,
        (const char *[]){ "VMAF_integer_feature_motion_sad_score_mffw_mma",
                          "integer_motion2_mffw_mma", "integer_motion3_mffw_mma", NULL });
    printf("names: done\n");
}

/* ---- write schedule and post-processing ---- */

static void test_float_schedule(void)
{
    const unsigned n = 7;
    LsCollector *fc;
    ls_collector_create(&fc);
    run_extractor(&ls_fex_float_motion, NULL, 0, fc, VMAF_PIX_FMT_YUV420P, 10, 40, 30, n, 0);
    run_extractor(&ls_fex_float_motion,
                  (Opt[]){ { "motion_fps_weight", "2.5" }, { "motion_max_val", "40" } }, 2, fc,
                  VMAF_PIX_FMT_YUV420P, 10, 40, 30, n, 0);
    run_extractor(&ls_fex_float_motion,
                  (Opt[]){ { "motion_fps_weight", "5" },
                           { "motion_max_val", "7.25" },
                           { "motion_blend_factor", "0.5" },
                           { "motion_blend_offset", "3" } },
                  4, fc, VMAF_PIX_FMT_YUV420P, 10, 40, 30, n, 0);
    /* motion[i] = s_i (the default weight 1 and cap 10000 change nothing) */
    double s[16];
    for (unsigned i = 0; i < n; i++)
        s[i] = get(fc, "VMAF_feature_motion_score", i);
    CHECK(s[0] == 0.0, "motion[0] = %.17g", s[0]);
    CHECK(get(fc, "VMAF_feature_motion2_score", 0) == 0.0, "motion2[0] not 0");
    CHECK(get(fc, "VMAF_feature_motion3_score", 0) == s[1], "motion3[0] != s_1");
    CHECK(get(fc, "VMAF_feature_motion2_score", n - 1) == s[n - 1], "motion2[N-1] != s_N-1");
    for (unsigned i = 1; i + 1 < n; i++) {
        const double m = s[i] < s[i + 1] ? s[i] : s[i + 1];
        CHECK(double_bits(get(fc, "VMAF_feature_motion2_score", i)) == double_bits(m),
              "motion2[%u] != min(s_i, s_i+1)", i);
        CHECK(double_bits(get(fc, "VMAF_feature_motion3_score", i)) == double_bits(m),
              "motion3[%u] != motion2 with the default blend", i);
    }
    /* weight then cap, for every output; the capped values appear */
    unsigned capped = 0;
    for (unsigned i = 0; i < n; i++) {
        const double m2 = get(fc, "VMAF_feature_motion2_score", i);
        const double m3 = get(fc, "VMAF_feature_motion3_score", i);
        const double w1 = s[i] * 2.5 < 40 ? s[i] * 2.5 : 40;
        const double w2 = m2 * 2.5 < 40 ? m2 * 2.5 : 40;
        const double w3 = m3 * 2.5 < 40 ? m3 * 2.5 : 40;
        capped += w1 == 40;
        CHECK(double_bits(get(fc, "motion_mfw_2.5_mmxv_40", i)) == double_bits(w1),
              "motion_mfw_2.5_mmxv_40[%u] %.17g != %.17g", i, get(fc, "motion_mfw_2.5_mmxv_40", i),
              w1);
        CHECK(double_bits(get(fc, "motion2_mfw_2.5_mmxv_40", i)) == double_bits(w2),
              "motion2_mfw_2.5_mmxv_40[%u]", i);
        CHECK(double_bits(get(fc, "motion3_mfw_2.5_mmxv_40", i)) == double_bits(w3),
              "motion3_mfw_2.5_mmxv_40[%u]", i);
        /* blend sits between the weight and the cap */
        const double x = m3 * 5.0;
        const double blended = x * 0.5 + (1 - 0.5) * (3 < x ? 3 : x);
        const double e3 = blended < 7.25 ? blended : 7.25;
        const char *b3 = "motion3_mbf_0.5_mbo_3_mfw_5_mmxv_7.25";
        CHECK(double_bits(get(fc, b3, i)) == double_bits(e3), "%s[%u] %.17g != %.17g", b3, i,
              get(fc, b3, i), e3);
    }
    CHECK(capped > 0 && capped < n, "fixture should cap some frames (capped %u of %u)", capped, n);
    ls_collector_destroy(fc);

    /* one frame: zeros, motion3 from the flush */
    ls_collector_create(&fc);
    run_extractor(&ls_fex_float_motion, NULL, 0, fc, VMAF_PIX_FMT_YUV420P, 8, 16, 16, 1, 0);
    CHECK(get(fc, "VMAF_feature_motion_score", 0) == 0.0 &&
              get(fc, "VMAF_feature_motion2_score", 0) == 0.0 &&
              get(fc, "VMAF_feature_motion3_score", 0) == 0.0,
          "one-frame clip not all 0");
    ls_collector_destroy(fc);

    /* force_zero: zeros at every frame, nothing else */
    ls_collector_create(&fc);
    run_extractor(&ls_fex_float_motion, (Opt[]){ { "motion_force_zero", "true" } }, 1, fc,
                  VMAF_PIX_FMT_YUV420P, 8, 16, 16, 4, 0);
    for (unsigned i = 0; i < 4; i++)
        CHECK(get(fc, "motion_force_0", i) == 0.0 && get(fc, "motion2_force_0", i) == 0.0 &&
                  get(fc, "motion3_force_0", i) == 0.0,
              "force_zero frame %u not 0", i);
    CHECK(ls_collector_capacity(fc) == 4, "force_zero wrote past the last frame");
    ls_collector_destroy(fc);

    /* every filter size, uv and scale1: AVX2 and C give the same bits through the extractor */
    static const Opt variants[][3] = {
        { { "motion_filter_size", "1" } },
        { { "motion_filter_size", "3" } },
        { { "motion_filter_size", "7" } },
        { { "motion_add_uv", "true" } },
        { { "motion_add_scale1", "true" } },
        { { "motion_add_scale1", "true" }, { "motion_add_uv", "true" } },
    };
    static const unsigned variant_n[] = { 1, 1, 1, 1, 1, 2 };
    for (unsigned v = 0; v < sizeof(variant_n) / sizeof(variant_n[0]); v++) {
        LsCollector *a, *b;
        ls_collector_create(&a);
        ls_collector_create(&b);
        const enum VmafPixelFormat fmt = v == 5 ? VMAF_PIX_FMT_YUV444P : VMAF_PIX_FMT_YUV420P;
        run_extractor(&ls_fex_float_motion, variants[v], variant_n[v], a, fmt, 12, 97, 61, 4, 0);
        run_extractor(&ls_fex_float_motion, variants[v], variant_n[v], b, fmt, 12, 97, 61, 4,
                      ls_cpu_detect());
        CHECK(ls_collector_count(a) == 3 && ls_collector_count(b) == 3, "variant %u: names", v);
        for (unsigned k = 0; k < ls_collector_count(a); k++) {
            const char *name = ls_collector_name(a, k);
            for (unsigned i = 0; i < 4; i++)
                CHECK(double_bits(get(a, name, i)) == double_bits(get(b, name, i)),
                      "variant %u %s[%u]: C %.17g, dispatched %.17g", v, name, i, get(a, name, i),
                      get(b, name, i));
        }
        ls_collector_destroy(a);
        ls_collector_destroy(b);
    }
    printf("float_motion schedule: done\n");
}

/* motion.md §3.4, written from the sad scores */
static void expected_flush(const double *S, unsigned n, unsigned min_idx, bool moving_average,
                           double *m2, double *m3)
{
    double stamp = n > min_idx ? S[min_idx] : 0.0, prev = 0.0;
    for (unsigned i = 0; i < n; i++) {
        if (i < min_idx)
            m2[i] = 0.0;
        else if (i + 1 == n)
            m2[i] = S[i];
        else if (i + 1 - min_idx >= min_idx)
            m2[i] = S[i + 1 - min_idx] < S[i + 1] ? S[i + 1 - min_idx] : S[i + 1];
        else
            m2[i] = S[i + 1];
        if (i < min_idx) {
            m3[i] = prev = stamp;
        } else {
            m3[i] = moving_average ? (m2[i] + prev) / 2.0 : m2[i];
            prev = m2[i];
        }
    }
}

static void test_integer_schedule(void)
{
    const unsigned n = 8;
    static const struct {
        Opt opts[2];
        unsigned n_opts, min_idx;
        bool moving_average;
        const char *suffix;
    } cases[] = {
        { { { "debug", "true" } }, 1, 1, false, "" },
        { { { "motion_five_frame_window", "true" } }, 1, 2, false, "_mffw" },
        { { { "motion_moving_average", "true" } }, 1, 1, true, "_mma" },
        { { { "motion_moving_average", "true" }, { "motion_five_frame_window", "true" } },
          2,
          2,
          true,
          "_mffw_mma" },
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        LsCollector *fc;
        ls_collector_create(&fc);
        run_extractor(&ls_fex_motion, cases[c].opts, cases[c].n_opts, fc, VMAF_PIX_FMT_YUV420P, 10,
                      37, 29, n, ls_cpu_detect());
        char sad_name[128], m2_name[128], m3_name[128];
        const bool plain = !cases[c].suffix[0];
        snprintf(sad_name, sizeof(sad_name), "VMAF_integer_feature_motion_sad_score%s",
                 cases[c].suffix);
        snprintf(m2_name, sizeof(m2_name), "%s%s",
                 plain ? "VMAF_integer_feature_motion2_score" : "integer_motion2", cases[c].suffix);
        snprintf(m3_name, sizeof(m3_name), "%s%s",
                 plain ? "VMAF_integer_feature_motion3_score" : "integer_motion3", cases[c].suffix);
        double S[16], m2[16], m3[16];
        for (unsigned i = 0; i < n; i++) {
            S[i] = get(fc, sad_name, i);
            CHECK((i < cases[c].min_idx) == (S[i] == 0.0), "case %u: S[%u] = %.17g", c, i, S[i]);
        }
        if (plain)
            for (unsigned i = 0; i < n; i++)
                CHECK(double_bits(get(fc, "VMAF_integer_feature_motion_score", i)) ==
                          double_bits(S[i]),
                      "debug motion[%u] != sad score", i);
        expected_flush(S, n, cases[c].min_idx, cases[c].moving_average, m2, m3);
        for (unsigned i = 0; i < n; i++) {
            CHECK(double_bits(get(fc, m2_name, i)) == double_bits(m2[i]),
                  "case %u %s[%u]: %.17g != %.17g", c, m2_name, i, get(fc, m2_name, i), m2[i]);
            CHECK(double_bits(get(fc, m3_name, i)) == double_bits(m3[i]),
                  "case %u %s[%u]: %.17g != %.17g", c, m3_name, i, get(fc, m3_name, i), m3[i]);
        }
        ls_collector_destroy(fc);
    }

    /* the score: sad / 256 / (w*h) * weight, then the cap; C and AVX2 agree at every depth */
    for (unsigned d = 0; d < N_DEPTHS; d++) {
        LsCollector *a, *b;
        ls_collector_create(&a);
        ls_collector_create(&b);
        const Opt opts[2] = { { "motion_fps_weight", "2.5" }, { "motion_max_val", "40" } };
        run_extractor(&ls_fex_motion, NULL, 0, a, VMAF_PIX_FMT_YUV420P, depths[d], 45, 23, 4, 0);
        run_extractor(&ls_fex_motion, opts, 2, b, VMAF_PIX_FMT_YUV420P, depths[d], 45, 23, 4,
                      ls_cpu_detect());
        for (unsigned i = 0; i < 4; i++) {
            const double s = get(a, "VMAF_integer_feature_motion_sad_score", i);
            const double w = s * 2.5 < 40 ? s * 2.5 : 40;
            CHECK(double_bits(get(b, "VMAF_integer_feature_motion_sad_score_mfw_2.5_mmxv_40", i)) ==
                      double_bits(w),
                  "bpc %u: weighted sad score [%u]", depths[d], i);
            CHECK(i == 0 || s > 0, "bpc %u: no motion at frame %u", depths[d], i);
        }
        ls_collector_destroy(a);
        ls_collector_destroy(b);
    }

    /* one frame: everything 0; force_zero: everything 0 */
    LsCollector *fc;
    ls_collector_create(&fc);
    run_extractor(&ls_fex_motion, NULL, 0, fc, VMAF_PIX_FMT_YUV420P, 8, 16, 16, 1, 0);
    CHECK(ls_collector_capacity(fc) == 1 &&
              get(fc, "VMAF_integer_feature_motion_sad_score", 0) == 0 &&
              get(fc, "VMAF_integer_feature_motion2_score", 0) == 0 &&
              get(fc, "VMAF_integer_feature_motion3_score", 0) == 0,
          "one-frame clip not all 0");
    ls_collector_destroy(fc);
    ls_collector_create(&fc);
    run_extractor(&ls_fex_motion, (Opt[]){ { "motion_force_zero", "true" } }, 1, fc,
                  VMAF_PIX_FMT_YUV420P, 8, 16, 16, 5, 0);
    for (unsigned i = 0; i < 5; i++)
        CHECK(get(fc, "integer_motion2_force_0", i) == 0 &&
                  get(fc, "integer_motion3_force_0", i) == 0 &&
                  get(fc, "VMAF_integer_feature_motion_sad_score_force_0", i) == 0,
              "force_zero frame %u", i);
    ls_collector_destroy(fc);
    printf("motion schedule: done\n");
}

/* ---- refusals ---- */

static void test_refusals(void)
{
    LsCollector *fc;
    ls_collector_create(&fc);
    const enum VmafPixelFormat f420 = VMAF_PIX_FMT_YUV420P;
    CHECK(run_extractor(&ls_fex_float_motion, NULL, 0, fc, f420, 8, 2, 16, 2, 0) == -EINVAL,
          "float_motion accepted 2x16");
    CHECK(run_extractor(&ls_fex_float_motion, NULL, 0, fc, f420, 8, 16, 2, 2, 0) == -EINVAL,
          "float_motion accepted 16x2");
    CHECK(run_extractor(&ls_fex_float_motion, (Opt[]){ { "motion_filter_size", "1" } }, 1, fc, f420,
                        8, 2, 2, 2, 0) == -EINVAL,
          "float_motion (identity) accepted 2x2");
    CHECK(run_extractor(&ls_fex_float_motion, (Opt[]){ { "motion_filter_size", "3" } }, 1, fc,
                        VMAF_PIX_FMT_YUV444P, 8, 2, 2, 2, 0) == 0,
          "float_motion (3 taps) refused 2x2");
    CHECK(run_extractor(&ls_fex_float_motion, (Opt[]){ { "motion_add_uv", "true" } }, 1, fc, f420,
                        8, 4, 4, 2, 0) == -EINVAL,
          "float_motion accepted 2x2 chroma planes");
    CHECK(run_extractor(&ls_fex_float_motion, (Opt[]){ { "motion_add_uv", "true" } }, 1, fc,
                        VMAF_PIX_FMT_YUV400P, 8, 16, 16, 2, 0) == -EINVAL,
          "float_motion accepted motion_add_uv on 4:0:0");
    CHECK(run_extractor(&ls_fex_float_motion,
                        (Opt[]){ { "motion_add_uv", "true" }, { "motion_add_scale1", "true" } }, 2,
                        fc, f420, 8, 16, 16, 2, 0) == -EINVAL,
          "float_motion accepted motion_add_uv + motion_add_scale1 on 4:2:0");
    CHECK(run_extractor(&ls_fex_motion, NULL, 0, fc, f420, 8, 2, 16, 2, 0) == -EINVAL,
          "motion accepted 2x16");
    CHECK(run_extractor(&ls_fex_motion, NULL, 0, fc, f420, 8, 3, 3, 2, 0) == 0,
          "motion refused 3x3");
    ls_collector_destroy(fc);
    printf("refusals: done\n");
}

/* ---- bench ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: steady on a busy machine */
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void bench(void)
{
    const unsigned w = 1920, h = 1080, reps = 20;
    Plane pl = plane_alloc(w, h, 8);
    fill_plane(&pl, 8, FILL_RANDOM);
    float *a = malloc((size_t)w * h * sizeof(float)), *b = malloc((size_t)w * h * sizeof(float));
    float *tmpf = malloc(ls_float_motion_tmp_size(w) * sizeof(float));
    void *tmp = malloc(ls_int_motion_tmp_size(w));
    for (int v = 0; v < 2; v++) {
        LsMotionDsp d;
        ls_motion_dsp_init(&d, v ? ls_cpu_detect() : 0);
        double t0 = now();
        for (unsigned r = 0; r < reps; r++)
            d.blur(pl.a, pl.stride, 8, a, w, w, h, 0, h, ls_float_motion_filter5, 5, tmpf);
        double t1 = now();
        d.blur(pl.b, pl.stride, 8, b, w, w, h, 0, h, ls_float_motion_filter5, 5, tmpf);
        double t2 = now();
        float s = 0;
        for (unsigned r = 0; r < reps; r++)
            s = s + d.sad(a, b, w, w, h, 0.0f);
        double t3 = now();
        uint64_t si = 0;
        for (unsigned r = 0; r < reps; r++)
            si += d.int_sad(pl.a, pl.stride, pl.b, pl.stride, w, h, 8, tmp);
        double t4 = now();
        printf("bench %s 1920x1080 8-bit, per frame: blur %.3f ms, sad %.3f ms, int_sad %.3f ms "
               "(%g %" PRIu64 ")\n",
               v ? "dispatched" : "c", (t1 - t0) * 1e3 / reps, (t3 - t2) * 1e3 / reps,
               (t4 - t3) * 1e3 / reps, s, si);
    }
    free(a);
    free(b);
    free(tmpf);
    free(tmp);
    plane_free(&pl);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_motion MOTION_FILTER_JSON [--bench]\n");
        return 2;
    }
    if (argc > 2 && !strcmp(argv[2], "--bench")) {
        bench();
        return 0;
    }
    test_tables(argv[1]);
    test_checkasm();
    test_names();
    test_float_schedule();
    test_integer_schedule();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_motion: %d failures\n", failures);
    else
        printf("test_motion: all passed\n");
    return failures ? 1 : 0;
}
