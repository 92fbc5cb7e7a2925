/* OpenCL twins against their CPU extractors, bit for bit, in one binary (exactness.md §1, §8):
 *  1. the ordered float sum (src/opencl/ordered_sum.h) against the sequential loop, on the inputs
 *     of the host reference's test (ordered_sum_cases.h): long sequences, ties, zero runs, wide
 *     magnitudes, overflow and tiny sizes;
 *  2. psnr and psnr_hvs through the public API, one VmafContext on the CPU and one on OpenCL,
 *     over synthetic frames (odd sizes, 8/10/12(/16) bit, 4:2:0/4:2:2/4:4:4/4:0:0, every psnr
 *     option, psnr_hvs with enable_chroma true/false, identical planes, 3840x2160; float_vif and
 *     float_adm at every bit depth and odd or refused sizes) and over every
 *     public fixture in the folder given as argv[1]. Every score and aggregate is compared as a
 *     double, by its bits. Refusals must agree too (same error on both contexts).
 *  3. mutation checks: a tree sum, ties without parity, a float threshold, a reciprocal division
 *     and FP_CONTRACT ON must each change some result.
 * No OpenCL device: "SKIP: no OpenCL device: <reason>", exit 77.
 * LOCKSTEP_GPU=<n> picks the device index, LOCKSTEP_OPENCL_DEVICE=<text> filters devices by name.
 * `test_opencl --synthetic-only` runs part 2 on synthetic frames only (used with
 * LOCKSTEP_OPENCL_EMULATE_DIV_SQRT=1 to test the integer division path on any device). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "core/registry.h"
#include "input/input.h"
#include "lockstep/lockstep.h"
#include "opencl/opencl.h"
#include "opencl/ordered_sum.h"
#include "ordered_sum_cases.h"

static int device_index;
static unsigned n_failures, n_values, n_sessions, n_refusals;
/* mutation checks: mismatches are what is expected, counted here instead of failing */
static int expect_mismatch;
static unsigned n_mutation_hits;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint64_t bits64(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof(u));
    return u;
}

/* ---- 1. ordered sum ---- */

static int check_ordered_sum(const char *label, const float *t, size_t n)
{
    char err[4096];
    float got = -1.0f;
    unsigned replayed = 0;
    const float want = os_sequential(t, n);
    if (ls_opencl_ordered_sum_selftest(device_index, t, n, &got, &replayed, err, sizeof(err)) <
        0) {
        printf("FAIL ordered sum %s: %s\n", label, err);
        n_failures++;
        return 1;
    }
    n_values++;
    const uint32_t gb = os_bits(got), wb = os_bits(want);
    if (expect_mismatch) {
        n_mutation_hits += gb != wb;
        return 0;
    }
    if (gb != wb) {
        printf("FAIL ordered sum %s (%zu terms): device %a, sequential %a\n", label, n, got, want);
        n_failures++;
        return 1;
    }
    const size_t chunks = (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    printf("ok   ordered sum %-30s %9zu terms = %-16a (%u of %zu chunks added one by one)\n", label,
           n, want, replayed, chunks);
    if (chunks >= 100 && replayed * 4 > chunks && strcmp(label, "zero runs and subnormals")) {
        printf("FAIL ordered sum %s: the chunk summaries are hardly used\n", label);
        n_failures++;
    }
    return 0;
}

static void test_ordered_sum(void)
{
    const size_t big = 3840 * 2160 / 49 * 64 * 3 / 2; /* the terms of a 4K 4:2:0 frame, about */
    float *t = malloc(big * sizeof(float));
    if (!t) {
        printf("FAIL out of memory\n");
        n_failures++;
        return;
    }
    os_fill(t, big, OS_MIXED, rnd);
    check_ordered_sum("4K-sized, mixed magnitudes", t, big);
    const float tree = os_pairwise(t, big), seq = os_sequential(t, big);
    printf("     (a pairwise tree sum gives %a: %s)\n", tree,
           tree != seq ? "differs, as it must for the test to mean anything" : "same");
    if (tree == seq) {
        printf("FAIL the 4K-sized sequence does not distinguish a tree sum\n");
        n_failures++;
    }
    os_fill(t, big, OS_QUARTERS, rnd);
    check_ordered_sum("ties (multiples of 1/4)", t, big);
    os_fill(t, (size_t)1 << 22, OS_WIDE_INT, rnd);
    check_ordered_sum("wide magnitudes", t, (size_t)1 << 22);
    os_fill(t, (size_t)1 << 20, OS_ZERO_RUNS, rnd);
    check_ordered_sum("zero runs and subnormals", t, (size_t)1 << 20);
    os_fill(t, 100000, OS_OVERFLOW, rnd);
    check_ordered_sum("overflow to inf", t, 100000);
    const size_t sizes[] = { 0, 1, 63, 64, 4095, 4096, 4097, 8192 + 17 };
    for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        os_fill(t, sizes[k], OS_EIGHTHS, rnd);
        char label[64];
        snprintf(label, sizeof(label), "size %zu", sizes[k]);
        check_ordered_sum(label, t, sizes[k]);
    }
    /* the remaining kinds of the host reference's test, at a few chunks each, on a generator
     * state that is restored after them: the later parts keep their inputs */
    static const enum OsKind more[] = { OS_UNIFORM, OS_SQUARES, OS_HALVES, OS_QUARTERS_BIG,
                                        OS_SPARSE,  OS_WIDE,    OS_TINY,   OS_ZEROS };
    const uint64_t saved_state = rng_state;
    for (unsigned k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
        os_fill(t, 100003, more[k], rnd);
        check_ordered_sum(os_kind_names[more[k]], t, 100003);
    }
    rng_state = saved_state;
    free(t);
}

/* ---- 2. twins through the public API ---- */

typedef struct Session {
    const char *label;
    VmafContext *ctx[2];   /* [0] CPU, [1] OpenCL */
    int err[2];
    int stopped;
    unsigned n_frames;
} Session;

static int session_open(Session *s, const char *label, const char *feature,
                        const char *const *opts)
{
    memset(s, 0, sizeof(*s));
    s->label = label;
    const VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING };
    for (int b = 0; b < 2; b++) {
        if (vmaf_init(&s->ctx[b], cfg) ||
            (b && lockstep_use_backend(s->ctx[b], LOCKSTEP_BACKEND_OPENCL, device_index))) {
            printf("FAIL %s: cannot set up the %s context: %s\n", label, b ? "OpenCL" : "CPU",
                   lockstep_last_error());
            n_failures++;
            return -1;
        }
        VmafFeatureDictionary *d = NULL;
        for (unsigned i = 0; opts && opts[i]; i += 2)
            vmaf_feature_dictionary_set(&d, opts[i], opts[i + 1]);
        if (vmaf_use_feature(s->ctx[b], feature, d)) {
            printf("FAIL %s: vmaf_use_feature(%s): %s\n", label, feature, lockstep_last_error());
            n_failures++;
            return -1;
        }
    }
    n_sessions += !expect_mismatch;
    return 0;
}

static int copy_picture(VmafPicture *dst, const VmafPicture *src)
{
    if (vmaf_picture_alloc(dst, src->pix_fmt, src->bpc, src->w[0], src->h[0]))
        return -1;
    const size_t bps = src->bpc > 8 ? 2 : 1;
    for (int c = 0; c < 3; c++)
        for (unsigned y = 0; src->data[c] && y < src->h[c]; y++)
            memcpy((uint8_t *)dst->data[c] + y * dst->stride[c],
                   (const uint8_t *)src->data[c] + y * src->stride[c], src->w[c] * bps);
    return 0;
}

/* Feeds one frame to both contexts (copies: each context takes its pictures). */
static void session_frame(Session *s, const VmafPicture *ref, const VmafPicture *dis,
                          unsigned index)
{
    if (s->stopped)
        return;
    for (int b = 0; b < 2; b++) {
        VmafPicture r, d;
        if (copy_picture(&r, ref) || copy_picture(&d, dis)) {
            printf("FAIL %s: out of memory\n", s->label);
            n_failures++;
            s->stopped = 1;
            return;
        }
        s->err[b] = vmaf_read_pictures(s->ctx[b], &r, &d, index);
        if (s->err[b]) {
            if (r.ref)
                vmaf_picture_unref(&r);
            if (d.ref)
                vmaf_picture_unref(&d);
            if (b == 0)
                printf("     %s: CPU refuses frame %u: %s\n", s->label, index,
                       lockstep_last_error());
            else
                printf("     %s: OpenCL refuses frame %u: %s\n", s->label, index,
                       lockstep_last_error());
        }
    }
    if (s->err[0] || s->err[1]) {
        s->stopped = 1;
        if (s->err[0] != s->err[1] && expect_mismatch) {
            n_mutation_hits++;
        } else if (s->err[0] != s->err[1]) {
            printf("FAIL %s: frame %u: CPU returns %d, OpenCL %d\n", s->label, index, s->err[0],
                   s->err[1]);
            n_failures++;
        } else {
            n_refusals++;
        }
        return;
    }
    s->n_frames++;
}

static void session_close(Session *s)
{
    if (!s->stopped) {
        const int f0 = vmaf_read_pictures(s->ctx[0], NULL, NULL, 0);
        const int f1 = vmaf_read_pictures(s->ctx[1], NULL, NULL, 0);
        if (f0 || f1) {
            printf("FAIL %s: flush returns CPU %d, OpenCL %d: %s\n", s->label, f0, f1,
                   lockstep_last_error());
            n_failures++;
        }
        const unsigned count = lockstep_feature_count(s->ctx[0]);
        unsigned bad = 0, compared = 0;
        if (count != lockstep_feature_count(s->ctx[1]) || !count) {
            printf("FAIL %s: %u features on the CPU, %u on OpenCL\n", s->label, count,
                   lockstep_feature_count(s->ctx[1]));
            bad++;
        }
        for (unsigned i = 0; i < count && !bad; i++) {
            const char *name = lockstep_feature_name(s->ctx[0], i);
            if (strcmp(name, lockstep_feature_name(s->ctx[1], i))) {
                printf("FAIL %s: feature %u is %s on the CPU, %s on OpenCL\n", s->label, i, name,
                       lockstep_feature_name(s->ctx[1], i));
                bad++;
                break;
            }
            for (unsigned k = 0; k < s->n_frames; k++) {
                double v[2];
                const int e0 = vmaf_feature_score_at_index(s->ctx[0], name, &v[0], k);
                const int e1 = vmaf_feature_score_at_index(s->ctx[1], name, &v[1], k);
                compared++;
                if (e0 != e1 || (!e0 && bits64(v[0]) != bits64(v[1]))) {
                    if (bad++ < 8 && !expect_mismatch)
                        printf("FAIL %s: %s[%u]: CPU %.17g (%d), OpenCL %.17g (%d)\n", s->label,
                               name, k, e0 ? NAN : v[0], e0, e1 ? NAN : v[1], e1);
                }
            }
        }
        static const char *const aggregates[] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
        for (unsigned i = 0; i < 3; i++) {
            double v[2];
            const int e0 = lockstep_aggregate_score(s->ctx[0], aggregates[i], &v[0]);
            const int e1 = lockstep_aggregate_score(s->ctx[1], aggregates[i], &v[1]);
            if (e0 && e1)
                continue;
            compared++;
            if (e0 != e1 || bits64(v[0]) != bits64(v[1])) {
                printf("FAIL %s: %s: CPU %.17g (%d), OpenCL %.17g (%d)\n", s->label,
                       aggregates[i], e0 ? NAN : v[0], e0, e1 ? NAN : v[1], e1);
                bad++;
            }
        }
        if (expect_mismatch) {
            n_mutation_hits += bad;
        } else if (bad) {
            n_values += compared;
            n_failures++;
        } else {
            n_values += compared;
            double y = NAN;
            const char *first = count ? lockstep_feature_name(s->ctx[0], 0) : "";
            vmaf_feature_score_at_index(s->ctx[0], first, &y, 0);
            if (!expect_mismatch)
                printf("ok   %-58s %3u frames %5u values (%s[0] = %.17g)\n", s->label,
                       s->n_frames, compared, first, y);
        }
    } else if (s->err[0] == s->err[1]) {
        printf("ok   %-58s both refuse (%d)\n", s->label, s->err[0]);
    }
    for (int b = 0; b < 2; b++)
        if (s->ctx[b])
            vmaf_close(s->ctx[b]);
    memset(s->ctx, 0, sizeof(s->ctx));
}

/* ---- synthetic frames ---- */

static void put(VmafPicture *p, int c, unsigned x, unsigned y, int v)
{
    const int max = (1 << p->bpc) - 1;
    v = v < 0 ? 0 : v > max ? max : v;
    if (p->bpc > 8)
        ((uint16_t *)((uint8_t *)p->data[c] + y * p->stride[c]))[x] = (uint16_t)v;
    else
        ((uint8_t *)p->data[c] + y * p->stride[c])[x] = (uint8_t)v;
}

static int get(const VmafPicture *p, int c, unsigned x, unsigned y)
{
    if (p->bpc > 8)
        return ((const uint16_t *)((const uint8_t *)p->data[c] + y * p->stride[c]))[x];
    return ((const uint8_t *)p->data[c] + y * p->stride[c])[x];
}

enum Distortion { DIST_NOISE, DIST_IDENTICAL, DIST_LUMA_IDENTICAL, DIST_EXTREME };

/* Reference: gradients, texture, flat areas and full-range extremes; distorted: noise of a few
 * strengths, untouched blocks, and inverted patches. */
static void make_frame(VmafPicture *ref, VmafPicture *dis, unsigned seed, enum Distortion kind)
{
    const int max = (1 << ref->bpc) - 1;
    for (int c = 0; c < 3 && ref->data[c]; c++) {
        for (unsigned y = 0; y < ref->h[c]; y++) {
            for (unsigned x = 0; x < ref->w[c]; x++) {
                int v;
                const unsigned region = ((x / 24) + (y / 20) * 3 + seed) % 5;
                switch (region) {
                case 0: v = (int)((x * 37 + y * 11 + seed * 101) % (unsigned)(max + 1)); break;
                case 1: v = max / 3; break; /* flat */
                case 2: v = (int)(rnd() % (unsigned)(max + 1)); break;
                case 3: v = ((x ^ y) & 1) ? max : 0; break;
                default: v = (int)(((x * x + y * 3) * (seed + 1)) % (unsigned)(max + 1)); break;
                }
                put(ref, c, x, y, v);
                int d = v;
                if (kind == DIST_NOISE || (kind == DIST_LUMA_IDENTICAL && c > 0)) {
                    const int amp = 1 + (int)((x / 16 + y / 16 + seed) % 4) * (max / 40 + 1);
                    if (((x / 8) * 7 + (y / 8) * 3 + seed) % 6) /* some blocks untouched */
                        d = v + (int)(rnd() % (unsigned)(2 * amp + 1)) - amp;
                } else if (kind == DIST_EXTREME) {
                    d = (x / 8 + y / 8) % 2 ? max - v : v;
                }
                put(dis, c, x, y, d);
            }
        }
    }
    (void)get;
}

static const char *fmt_name(enum VmafPixelFormat f)
{
    switch (f) {
    case VMAF_PIX_FMT_YUV420P: return "420";
    case VMAF_PIX_FMT_YUV422P: return "422";
    case VMAF_PIX_FMT_YUV444P: return "444";
    case VMAF_PIX_FMT_YUV400P: return "400";
    default: return "?";
    }
}

static void run_synthetic(const char *feature, const char *const *opts, const char *opts_label,
                          enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                          unsigned frames)
{
    char label[200];
    snprintf(label, sizeof(label), "%s %s %ux%u %s %ubit", feature, opts_label, w, h,
             fmt_name(fmt), bpc);
    Session s;
    if (session_open(&s, label, feature, opts) == 0) {
        for (unsigned i = 0; i < frames && !s.stopped; i++) {
            VmafPicture ref, dis;
            if (vmaf_picture_alloc(&ref, fmt, bpc, w, h) ||
                vmaf_picture_alloc(&dis, fmt, bpc, w, h)) {
                printf("FAIL %s: vmaf_picture_alloc\n", label);
                n_failures++;
                break;
            }
            const enum Distortion kind = i == 1 ? DIST_IDENTICAL : i == 2 ? DIST_LUMA_IDENTICAL
                                       : i == 3 ? DIST_EXTREME : DIST_NOISE;
            make_frame(&ref, &dis, i * 7 + w, kind);
            session_frame(&s, &ref, &dis, i);
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    session_close(&s);
}

static void test_synthetic(void)
{
    static const enum VmafPixelFormat fmts[] = { VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                                 VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P };
    static const unsigned sizes[][2] = { { 33, 17 }, { 97, 61 }, { 15, 15 }, { 8, 8 },
                                         { 16, 9 }, { 130, 71 } };
    static const char *const psnr_opts[][13] = {
        { NULL },
        { "enable_mse", "true", "enable_apsnr", "true", NULL },
        { "enable_chroma", "false", "enable_apsnr", "true", NULL },
        { "reduced_hbd_peak", "true", "enable_mse", "true", NULL },
        { "min_sse", "0.5", NULL },
        { "uncapped", "true", "enable_apsnr", "true", NULL },
        { "min_sse", "100", "uncapped", "true", "enable_mse", "true", "reduced_hbd_peak", "true",
          "enable_apsnr", "true", NULL },
    };
    static const char *const psnr_labels[] = { "default", "mse+apsnr", "luma+apsnr",
                                               "reduced_hbd_peak+mse", "min_sse=0.5",
                                               "uncapped+apsnr", "all" };
    static const char *const hvs_opts[][3] = { { NULL }, { "enable_chroma", "false", NULL } };
    static const char *const hvs_labels[] = { "default", "enable_chroma=false" };
    static const unsigned depths[] = { 8, 10, 12, 16 };

    for (unsigned f = 0; f < 4; f++)
        for (unsigned b = 0; b < 4; b++)
            for (unsigned o = 0; o < 7; o++) {
                const unsigned *sz = sizes[(f + b + o) % 6];
                run_synthetic("psnr", psnr_opts[o], psnr_labels[o], fmts[f], depths[b], sz[0],
                              sz[1], 5);
            }
    for (unsigned f = 0; f < 4; f++)
        for (unsigned b = 0; b < 4; b++) /* 16 bit: both must refuse */
            for (unsigned o = 0; o < 2; o++)
                for (unsigned z = 0; z < 6; z++) {
                    if (b == 3 && z)
                        continue;
                    run_synthetic("psnr_hvs", hvs_opts[o], hvs_labels[o], fmts[f], depths[b],
                                  sizes[z][0], sizes[z][1], z % 2 ? 5 : 3);
                }
    /* float_vif and float_adm: every bit depth (16 bit only here), odd sizes, the sizes the CPU
     * refuses, identical and inverted frames, some options (their binary64 steps are emulated,
     * their divisions too with LOCKSTEP_OPENCL_EMULATE_DIV_SQRT=1) */
    static const char *const fvif_opts[][9] = {
        { "debug", "true", NULL },
        { "vif_kernelscale", "0.5", "vif_enhn_gain_limit", "1.3", "vif_sigma_nsq", "0.25", "debug",
          "true", NULL },
    };
    static const char *const fvif_labels[] = { "debug", "ks=0.5+egl=1.3+snsq=0.25" };
    static const char *const fadm_opts[][7] = {
        { "debug", "true", NULL },
        { "adm_enhn_gain_limit", "1.2", "adm_bypass_cm", "1", "debug", "true", NULL },
    };
    static const char *const fadm_labels[] = { "debug", "egl=1.2+bypass_cm" };
    for (unsigned b = 0; b < 4; b++)
        for (unsigned z = 0; z < 6; z++) {
            const unsigned o = (b + z) % 2;
            run_synthetic("float_vif", fvif_opts[o], fvif_labels[o], fmts[(b + z) % 4], depths[b],
                          sizes[z][0], sizes[z][1], 4);
            run_synthetic("float_adm", fadm_opts[o], fadm_labels[o], fmts[(b + z + 1) % 4],
                          depths[b], sizes[z][0], sizes[z][1], 4);
        }
    /* long float chains: every frame of 4K has 16 million terms per plane sum */
    run_synthetic("psnr_hvs", hvs_opts[0], hvs_labels[0], VMAF_PIX_FMT_YUV420P, 8, 3840, 2160, 2);
    run_synthetic("psnr_hvs", hvs_opts[0], hvs_labels[0], VMAF_PIX_FMT_YUV444P, 12, 1920, 1080, 1);
    run_synthetic("psnr", psnr_opts[1], psnr_labels[1], VMAF_PIX_FMT_YUV420P, 10, 3840, 2160, 2);
}

/* ---- fixtures ---- */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void run_fixture(const char *dir, const char *id, const char *feature,
                        const char *const *opts, const char *opts_label)
{
    char ref_path[1024], dis_path[1024], err[512], label[200];
    snprintf(ref_path, sizeof(ref_path), "%s/%s_ref.y4m", dir, id);
    snprintf(dis_path, sizeof(dis_path), "%s/%s_dis.y4m", dir, id);
    LsInput *in[2] = { NULL, NULL };
    if (ls_input_open(&in[0], ref_path, NULL, err, sizeof(err)) ||
        ls_input_open(&in[1], dis_path, NULL, err, sizeof(err))) {
        printf("FAIL fixture %s: %s\n", id, err);
        n_failures++;
        if (in[0])
            ls_input_close(in[0]);
        return;
    }
    const LsVideoInfo *info = ls_input_info(in[0]);
    snprintf(label, sizeof(label), "fixture %s %s %s (%ux%u %s %ubit)", id, feature, opts_label,
             info->w, info->h, fmt_name(info->fmt), info->bpc);
    Session s;
    if (session_open(&s, label, feature, opts) == 0) {
        for (unsigned i = 0; !s.stopped; i++) {
            VmafPicture pic[2];
            if (vmaf_picture_alloc(&pic[0], info->fmt, info->bpc, info->w, info->h) ||
                vmaf_picture_alloc(&pic[1], info->fmt, info->bpc, info->w, info->h)) {
                printf("FAIL %s: vmaf_picture_alloc\n", label);
                n_failures++;
                break;
            }
            const int r0 = ls_input_read(in[0], &pic[0], err, sizeof(err));
            const int r1 = r0 == 1 ? ls_input_read(in[1], &pic[1], err, sizeof(err)) : r0;
            if (r0 == 1 && r1 == 1)
                session_frame(&s, &pic[0], &pic[1], i);
            vmaf_picture_unref(&pic[0]);
            vmaf_picture_unref(&pic[1]);
            if (r0 < 0 || r1 < 0) {
                printf("FAIL %s: %s\n", label, err);
                n_failures++;
            }
            if (r0 != 1 || r1 != 1)
                break;
        }
    }
    session_close(&s);
    ls_input_close(in[0]);
    ls_input_close(in[1]);
}

static void test_fixtures(const char *dir)
{
    DIR *d = opendir(dir);
    char *ids[256];
    unsigned n = 0;
    if (d) {
        const struct dirent *e;
        while ((e = readdir(d)) && n < 256) {
            const size_t len = strlen(e->d_name);
            if (len > 8 && !strcmp(e->d_name + len - 8, "_ref.y4m")) {
                ids[n] = strdup(e->d_name);
                if (ids[n])
                    ids[n++][len - 8] = 0;
            }
        }
        closedir(d);
    }
    if (!n) {
        printf("FAIL no fixtures (*_ref.y4m) in %s\n", dir);
        n_failures++;
        return;
    }
    qsort(ids, n, sizeof(ids[0]), cmp_names);
    static const char *const psnr_opts[] = { "enable_mse", "true", "enable_apsnr", "true", NULL };
    static const char *const luma_only[] = { "enable_chroma", "false", NULL };
    for (unsigned i = 0; i < n; i++) {
        run_fixture(dir, ids[i], "psnr", psnr_opts, "mse+apsnr");
        run_fixture(dir, ids[i], "psnr_hvs", NULL, "default");
        if (!strcmp(ids[i], "p01") || !strcmp(ids[i], "p11b"))
            run_fixture(dir, ids[i], "psnr_hvs", luma_only, "enable_chroma=false");
        free(ids[i]);
    }
}

/* ---- mutation checks (exactness.md §8.4): each wrong detail must change some result ---- */

static void test_mutations(const char *fixture_dir)
{
    static const struct {
        const char *define, *what;
        int required; /* 0: whether the compiler fuses at all depends on the device */
    } mutations[] = {
        { "-DLS_MUTATE_TREE_SUM", "tree-reduced plane sum", 1 },
        { "-DLS_MUTATE_NO_TIES", "ordered sum ignoring the running parity at ties", 1 },
        { "-DLS_MUTATE_FLOAT_THRESHOLD", "threshold product and root in float", 1 },
        { "-DLS_MUTATE_RECIPROCAL_DIV", "a * (1 / b) for the block divisions", 1 },
        { "-DLS_MUTATE_FP_CONTRACT", "FP_CONTRACT ON", 0 },
    };
    static const char *const luma_only[] = { "enable_chroma", "false", NULL };
    float *t = malloc(((size_t)1 << 22) * sizeof(float));
    if (!t) {
        printf("FAIL out of memory\n");
        n_failures++;
        return;
    }
    expect_mismatch = 1;
    for (unsigned m = 0; m < sizeof(mutations) / sizeof(mutations[0]); m++) {
        setenv("LOCKSTEP_OPENCL_BUILD_OPTIONS", mutations[m].define, 1);
        n_mutation_hits = 0;
        os_fill(t, (size_t)1 << 22, OS_QUARTERS, rnd);
        check_ordered_sum("mutation", t, (size_t)1 << 22);
        run_synthetic("psnr_hvs", NULL, "mutation", VMAF_PIX_FMT_YUV420P, 8, 1920, 1080, 2);
        run_synthetic("psnr_hvs", luma_only, "mutation", VMAF_PIX_FMT_YUV444P, 12, 640, 360, 4);
        if (fixture_dir && (!strcmp(mutations[m].define, "-DLS_MUTATE_FLOAT_THRESHOLD") ||
                            !strcmp(mutations[m].define, "-DLS_MUTATE_FP_CONTRACT")))
            run_fixture(fixture_dir, "p01", "psnr_hvs", luma_only, "mutation");
        printf("%s mutation %-28s (%s): %u results differ\n",
               n_mutation_hits ? "ok  " : mutations[m].required ? "FAIL" : "note",
               mutations[m].define + 2, mutations[m].what, n_mutation_hits);
        if (!n_mutation_hits && mutations[m].required)
            n_failures++;
    }
    expect_mismatch = 0;
    unsetenv("LOCKSTEP_OPENCL_BUILD_OPTIONS");
    free(t);
}

int main(int argc, char **argv)
{
    const char *env = getenv("LOCKSTEP_GPU");
    device_index = env ? atoi(env) : 0;
    char why[512], name[512];
    if (ls_opencl_probe(device_index, why, sizeof(why)) < 0) {
        printf("SKIP: no OpenCL device: %s\n", why);
        return 77;
    }
    ls_opencl_device_description(device_index, name, sizeof(name));
    LsClDevice dev;
    if (ls_opencl_open(&dev, device_index, why, sizeof(why)) < 0) {
        printf("FAIL OpenCL device %d: %s: %s\n", device_index, name, why);
        return 1;
    }
    printf("OpenCL device %d: %s; fp32 division and square root: %s; work-groups of %u\n",
           device_index, name,
           dev.emulate_div_sqrt ? "integer emulation" : "correctly rounded by the device", dev.wg);
    ls_opencl_close(&dev);
    if (!ls_extractor_find("psnr", LOCKSTEP_BACKEND_OPENCL) ||
        !ls_extractor_find("psnr_hvs", LOCKSTEP_BACKEND_OPENCL)) {
        printf("FAIL the OpenCL twins are not registered\n");
        return 1;
    }
    /* --synthetic-only: the twins on synthetic frames alone (the division-emulation run) */
    const int synthetic_only = argc > 1 && !strcmp(argv[1], "--synthetic-only");
    const char *fixture_dir = argc > 1 && !synthetic_only ? argv[1] : NULL;
    const double t0 = now();
    if (!synthetic_only)
        test_ordered_sum();
    const double t1 = now();
    test_synthetic();
    const double t2 = now();
    if (fixture_dir)
        test_fixtures(fixture_dir);
    const double t3 = now();
    if (!synthetic_only)
        test_mutations(fixture_dir);
    const double t4 = now();
    printf("%u values compared bit for bit in %u sessions (%u refused on both sides); "
           "%u failures; ordered sum %.1f s, synthetic %.1f s, fixtures %.1f s, mutations %.1f s\n",
           n_values, n_sessions, n_refusals, n_failures, t1 - t0, t2 - t1, t3 - t2, t4 - t3);
    return n_failures ? 1 : 0;
}
