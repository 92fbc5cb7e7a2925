/* float_ms_ssim: the constants against tables/ms_ssim.json (kernel, exponents, size rules,
 * clip_db ceilings), the AVX2 and AVX-512 decimation against the C reference (checkasm-style:
 * random, extreme, negative and order-revealing inputs, every width parity, exact comparison),
 * and the whole extractor through the public API against an independent model written here
 * straight from ms_ssim.md §3-§8 (whole-picture arrays, the mirror applied per tap, no sharing
 * with the library's code): odd sizes, 4:0:0, every bit depth, every option, the NaN case and the
 * size refusals, on the C, AVX2 and AVX-512 paths.
 * Built a second time with LS_MUTATE_MODEL (the model sums the decimation in float): that binary
 * passes only if the comparison with the model catches the difference (a test that can fail).
 * usage: test_ms_ssim MS_SSIM_JSON | --bench */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/ms_ssim.h"
#include "feature/ssim.h"

static uint64_t rng_state = 0x6d735f7373696d31ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* ---- tables ---- */

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    const char *pos = json_after(json_after(json, "decimation_lowpass_2d"), "float32_hex");
    for (int v = 0; pos && v < 9; v++)
        for (int u = 0; u < 9; u++) {
            const float t = (float)next_number(&pos);
            CHECK(t == ls_ms_ssim_lowpass[v][u], "kernel [%d][%d] %a, table %a", v, u,
                  (double)ls_ms_ssim_lowpass[v][u], (double)t);
        }
    double sum = 0.0;
    for (int v = 0; v < 9; v++)
        for (int u = 0; u < 9; u++)
            sum += (double)ls_ms_ssim_lowpass[v][u];
    pos = json_after(json, "sum_of_float32_entries_in_double");
    CHECK(pos && sum == next_number(&pos), "kernel sum %.17g", sum);

    static const float alpha[5] = LS_MS_SSIM_ALPHA_INIT, beta[5] = LS_MS_SSIM_BETA_INIT;
    const char *const keys[3] = { "alpha_float32_hex", "beta_float32_hex", "gamma_float32_hex" };
    for (int k = 0; k < 3; k++) {
        pos = json_after(json, keys[k]);
        for (int s = 0; pos && s < 5; s++) {
            const float t = (float)next_number(&pos);
            CHECK(t == (k ? beta[s] : alpha[s]), "%s[%d]", keys[k], s);
        }
    }

    /* pyramid examples: WxH then five [w, h] pairs */
    static const char *const examples[] = { "576x324", "1920x1080", "1283x721", "176x176" };
    for (unsigned e = 0; e < 4; e++) {
        pos = json_after(json_after(json, "pyramid_size_examples"), examples[e]);
        unsigned w = (unsigned)atoi(examples[e]), h = (unsigned)atoi(strchr(examples[e], 'x') + 1);
        CHECK(ls_ms_ssim_size_ok(w, h), "%s refused", examples[e]);
        for (int s = 0; pos && s < 5; s++) {
            const unsigned tw = (unsigned)next_number(&pos), th = (unsigned)next_number(&pos);
            CHECK(tw == w && th == h, "%s scale %d: %ux%u, table %ux%u", examples[e], s, w, h,
                  tw, th);
            w = ls_ms_ssim_next_size(w);
            h = ls_ms_ssim_next_size(h);
        }
    }
    /* the size check halves down: 175 wide is refused although its pyramid would end at 11 */
    CHECK(ls_ms_ssim_size_ok(176, 176) && !ls_ms_ssim_size_ok(175, 176) &&
          !ls_ms_ssim_size_ok(176, 175) && ls_ms_ssim_size_ok(177, 4000),
          "minimum size is not 176x176");

    static const struct { const char *key; unsigned bpc, w, h; } ceilings[] = {
        { "8bit_576x324", 8, 576, 324 },     { "8bit_1920x1080", 8, 1920, 1080 },
        { "10bit_1920x1080", 10, 1920, 1080 }, { "10bit_576x324", 10, 576, 324 },
        { "12bit_576x324", 12, 576, 324 },   { "16bit_3840x2160", 16, 3840, 2160 },
    };
    for (unsigned i = 0; i < sizeof(ceilings) / sizeof(ceilings[0]); i++) {
        pos = json_after(json_after(json, "clip_db_ceiling_examples"), ceilings[i].key);
        const double want = pos ? next_number(&pos) : -1;
        const double got = ls_ssim_db_ceiling(true, ceilings[i].bpc, ceilings[i].w, ceilings[i].h);
        CHECK(got == want, "clip_db ceiling %s: %g, table %g", ceilings[i].key, got, want);
    }
    free(json);
}

/* ---- checkasm: decimation ---- */

enum Fill { FILL_RANDOM, FILL_ZERO, FILL_MAX, FILL_SIGNED, FILL_WIDE, FILL_COUNT };
static const char *const fill_names[] = { "random", "zero", "max", "signed", "wide" };

static float fill_value(enum Fill fill, unsigned i)
{
    switch (fill) {
    case FILL_ZERO: return 0.0f;
    case FILL_MAX: return 255.0f;
    /* decimated levels overshoot the 8-bit range both ways (the kernel has negative taps) */
    case FILL_SIGNED: return (float)((int)(rnd() % 2000) - 700) / 7.0f;
    case FILL_WIDE: /* huge and tiny neighbours: only the exact tap order gives the same sum */
        return (i % 3 == 0) ? ldexpf((float)(rnd() & 0xffffff), (int)(rnd() % 30))
                            : ldexpf((float)(rnd() & 0xffffff), -30) * (rnd() & 1 ? 1.0f : -1.0f);
    default: return (float)(rnd() % 256) + (float)(rnd() % 4) * 0.25f;
    }
}

static void check_decimate(const char *name, LsMsSsimDecimateFn ref_fn, LsMsSsimDecimateFn simd_fn)
{
    enum { MAXW = 2000, PAD = 8 };
    static float data[9][MAXW + 2 * PAD], out_c[MAXW], out_v[MAXW];
    unsigned cases = 0, diffs = 0;
    for (unsigned iter = 0; iter < 500; iter++) {
        const enum Fill fill = (enum Fill)(iter % FILL_COUNT);
        const unsigned w_in = iter < 120 ? 5 + iter : 5 + rnd() % (MAXW - 5);
        const unsigned w_out = ls_ms_ssim_next_size(w_in);
        const float *rows[9];
        for (int r = 0; r < 9; r++) {
            float *row = data[r] + PAD;
            for (unsigned x = 0; x < w_in; x++)
                row[x] = fill_value(fill, x);
            for (int c = -4; c < 0; c++) /* the padding the contract asks for: 4 left, 5 right */
                row[c] = row[ls_float_ssim_mirror(c, (int)w_in)];
            for (int c = (int)w_in; c < (int)w_in + 5; c++)
                row[c] = row[ls_float_ssim_mirror(c, (int)w_in)];
            for (int c = (int)w_in + 5; c < (int)w_in + PAD; c++) /* beyond it: must not be read */
                row[c] = NAN;
            rows[r] = row;
        }
        ref_fn(rows, w_out, out_c);
        simd_fn(rows, w_out, out_v);
        cases++;
        for (unsigned x = 0; x < w_out; x++) {
            if (float_bits(out_c[x]) != float_bits(out_v[x])) {
                if (diffs++ < 5)
                    CHECK(0, "decimate %s w_in=%u fill=%s: output %u: C %a, SIMD %a", name, w_in,
                          fill_names[fill], x, (double)out_c[x], (double)out_v[x]);
                break;
            }
        }
    }
    CHECK(diffs == 0, "decimate %s: %u of %u rows differ", name, diffs, cases);
    printf("checkasm: decimate %s: %u rows, %s\n", name, cases,
           diffs ? "DIFFER" : "bit-identical with C");
}

static void test_checkasm(void)
{
    const uint64_t cpu = ls_cpu_detect();
    LsMsSsimDsp c, v;
    ls_ms_ssim_dsp_init(&c, 0);
    if (!(cpu & LS_CPU_FLAG_AVX2)) {
        printf("checkasm: SKIP AVX2 (not on this CPU)\n");
        return;
    }
    ls_ms_ssim_dsp_init(&v, LS_CPU_FLAG_AVX2);
    CHECK(v.decimate != c.decimate, "AVX2 decimation not installed");
    check_decimate("AVX2", c.decimate, v.decimate);
    if (!(cpu & LS_CPU_FLAG_AVX512)) {
        printf("checkasm: SKIP AVX-512 (not on this CPU)\n");
        return;
    }
    ls_ms_ssim_dsp_init(&v, LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512);
    CHECK(v.decimate != c.decimate, "AVX-512 decimation not installed");
    check_decimate("AVX-512", c.decimate, v.decimate);
}

/* ---- the independent model (ms_ssim.md §3-§8) ---- */

static int mirror(int c, int n)
{
    if (c < 0)
        return -1 - c;
    if (c >= n)
        return 2 * n - 1 - c;
    return c;
}

/* §4.3, the 2-D 9x9 kernel, float products, a double sum, rows outer (mutant: a float sum) */
static float *model_decimate(const float *in, int w, int h, int *w_out, int *h_out)
{
    const int ow = w / 2 + (w & 1), oh = h / 2 + (h & 1);
    float *out = malloc(sizeof(float) * (size_t)ow * (size_t)oh);
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
#ifdef LS_MUTATE_MODEL
            float acc = 0.0f;
#else
            double acc = 0.0;
#endif
            for (int v = -4; v <= 4; v++)
                for (int u = -4; u <= 4; u++)
                    acc += in[mirror(2 * y + v, h) * w + mirror(2 * x + u, w)] *
                           ls_ms_ssim_lowpass[v + 4][u + 4];
            out[y * ow + x] = (float)acc;
        }
    *w_out = ow;
    *h_out = oh;
    return out;
}

/* 11-tap "valid" filter of a w x h array, separable: rows then columns (§5.1) */
static float *model_filter(const float *in, int w, int h)
{
    static const float g[11] = LS_FLOAT_SSIM_GAUSSIAN_INIT;
    const int wo = w - 10, ho = h - 10;
    float *tmp = malloc(sizeof(float) * (size_t)wo * (size_t)h);
    float *out = malloc(sizeof(float) * (size_t)wo * (size_t)ho);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < wo; x++) {
            double acc = 0.0;
            for (int k = 0; k < 11; k++)
                acc += (double)(in[y * w + x + k] * g[k]);
            tmp[y * wo + x] = (float)acc;
        }
    for (int y = 0; y < ho; y++)
        for (int x = 0; x < wo; x++) {
            double acc = 0.0;
            for (int k = 0; k < 11; k++)
                acc += (double)(tmp[(y + k) * wo + x] * g[k]);
            out[y * wo + x] = (float)acc;
        }
    free(tmp);
    return out;
}

/* §5: the binary32 means l, c, s of one scale */
static void model_scale(const float *r, const float *d, int w, int h, float lcs[3])
{
    const float c1 = 0x1.a028f4p+2f, c2 = 0x1.d42e12p+5f, c3 = c2 / 2.0f;
    const size_t n_in = (size_t)w * (size_t)h;
    float *rr = malloc(sizeof(float) * n_in), *dd = malloc(sizeof(float) * n_in);
    float *rd = malloc(sizeof(float) * n_in);
    for (size_t i = 0; i < n_in; i++) {
        rr[i] = r[i] * r[i];
        dd[i] = d[i] * d[i];
        rd[i] = r[i] * d[i];
    }
    float *mr = model_filter(r, w, h), *md = model_filter(d, w, h);
    float *err = model_filter(rr, w, h), *edd = model_filter(dd, w, h);
    float *erd = model_filter(rd, w, h);
    double sl = 0.0, sc = 0.0, ss = 0.0;
    const int n = (w - 10) * (h - 10);
    for (int i = 0; i < n; i++) {
        float vr = err[i] - mr[i] * mr[i], vd = edd[i] - md[i] * md[i];
        const float cov = erd[i] - mr[i] * md[i];
        if (0.0 > vr)
            vr = 0.0f;
        if (0.0 > vd)
            vd = 0.0f;
        const float sig = (float)sqrt((double)(vr * vd));
        const float l_den = mr[i] * mr[i] + md[i] * md[i] + c1;
        const float c_den = vr + vd + c2;
        sl += (2.0 * mr[i] * md[i] + (double)c1) / (double)l_den;
        sc += (2.0 * sig + (double)c2) / (double)c_den;
        const float cv = (cov < 0.0f && sig <= 0.0f) ? 0.0f : cov;
        ss += (double)((cv + c3) / (sig + c3));
    }
    lcs[0] = (float)(sl / (double)n);
    lcs[1] = (float)(sc / (double)n);
    lcs[2] = (float)(ss / (double)n);
    free(rr), free(dd), free(rd), free(mr), free(md), free(err), free(edd), free(erd);
}

/* §3-§6: l, c, s of the five scales and the combined score */
static double model_ms_ssim(const float *ref, const float *dis, int w, int h, float lcs[5][3])
{
    static const float alpha[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.1333f };
    static const float beta[5] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
    float *r = malloc(sizeof(float) * (size_t)w * (size_t)h);
    float *d = malloc(sizeof(float) * (size_t)w * (size_t)h);
    memcpy(r, ref, sizeof(float) * (size_t)w * (size_t)h);
    memcpy(d, dis, sizeof(float) * (size_t)w * (size_t)h);
    double ms = 1.0;
    for (int s = 0; s < 5; s++) {
        model_scale(r, d, w, h, lcs[s]);
        const double l = pow((double)lcs[s][0], (double)alpha[s]);
        const double c = pow((double)lcs[s][1], (double)beta[s]);
        ms = ms * ((l * c) * pow((double)lcs[s][2], (double)beta[s]));
        if (s < 4) {
            int w2, h2;
            float *r2 = model_decimate(r, w, h, &w2, &h2), *d2 = model_decimate(d, w, h, &w2, &h2);
            free(r), free(d);
            r = r2, d = d2, w = w2, h = h2;
        }
    }
    free(r), free(d);
    return ms;
}

/* ---- through the public API ---- */

typedef struct Pair {
    unsigned w, h, bpc;
    enum VmafPixelFormat fmt;
    uint16_t *ref, *dis; /* samples at bpc */
} Pair;

/* textured content with a distortion; `kind` 1: the distorted picture is the inverse */
static Pair make_pair(unsigned w, unsigned h, unsigned bpc, enum VmafPixelFormat fmt, int kind)
{
    Pair p = { w, h, bpc, fmt, malloc(2 * (size_t)w * h), malloc(2 * (size_t)w * h) };
    const unsigned max = (1u << bpc) - 1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const unsigned base = ((x / 9) * 29 + (y / 7) * 13 + ((x * y) >> 6)) % 200 + 20;
            const unsigned r8 = (base + rnd() % 9) & 255;
            const unsigned r = (r8 << (bpc - 8)) | (rnd() & ((1u << (bpc - 8)) - 1));
            unsigned d = kind == 1 ? max - r : (r + (rnd() % (7u << (bpc - 8)))) % (max + 1);
            p.ref[y * w + x] = (uint16_t)r;
            p.dis[y * w + x] = (uint16_t)d;
        }
    return p;
}

static void free_pair(Pair *p)
{
    free(p->ref);
    free(p->dis);
}

static void to_float(const uint16_t *s, size_t n, unsigned bpc, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (float)s[i] / (float)(1u << (bpc - 8));
}

static int fill_picture(VmafPicture *pic, const Pair *p, const uint16_t *s)
{
    int err = vmaf_picture_alloc(pic, p->fmt, p->bpc, p->w, p->h);
    if (err)
        return err;
    for (unsigned y = 0; y < p->h; y++)
        for (unsigned x = 0; x < p->w; x++) {
            uint8_t *row = (uint8_t *)pic->data[0] + y * pic->stride[0];
            if (p->bpc > 8)
                ((uint16_t *)row)[x] = s[y * p->w + x];
            else
                row[x] = (uint8_t)s[y * p->w + x];
        }
    return 0;
}

/* Scores one frame with the given options; values of the names (NULL-terminated) at index 0. */
static int score(const Pair *p, const char *const *opts, uint64_t cpumask, unsigned threads,
                 const char *const *names, double *values)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = threads,
                              .cpumask = cpumask };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    VmafFeatureDictionary *d = NULL;
    for (unsigned i = 0; opts && opts[i]; i += 2)
        vmaf_feature_dictionary_set(&d, opts[i], opts[i + 1]);
    err = vmaf_use_feature(vmaf, "float_ms_ssim", d);
    VmafPicture ref, dis;
    if (!err && !(err = fill_picture(&ref, p, p->ref))) {
        if ((err = fill_picture(&dis, p, p->dis))) {
            vmaf_picture_unref(&ref);
        } else if ((err = vmaf_read_pictures(vmaf, &ref, &dis, 0))) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    for (unsigned i = 0; !err && names[i]; i++)
        err = vmaf_feature_score_at_index(vmaf, names[i], &values[i], 0);
    vmaf_close(vmaf);
    return err;
}

static const char *const lcs_names[17] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
    NULL,
};

static const struct { const char *name; uint64_t cpumask; } paths[] = {
    { "C", 255 }, { "AVX2", LS_CPU_FLAG_AVX512 }, { "default", 0 },
};

static unsigned model_values, model_diffs;

/* The extractor on every path (and two threads) against the model, all 16 values. */
static void check_against_model(const Pair *p, const char *what)
{
    const size_t n = (size_t)p->w * p->h;
    float *r = malloc(sizeof(float) * n), *d = malloc(sizeof(float) * n);
    to_float(p->ref, n, p->bpc, r);
    to_float(p->dis, n, p->bpc, d);
    float lcs[5][3];
    const double ms = model_ms_ssim(r, d, (int)p->w, (int)p->h, lcs);
    free(r);
    free(d);
    double want[16];
    want[0] = ms;
    for (int s = 0; s < 5; s++)
        for (int t = 0; t < 3; t++)
            want[1 + t * 5 + s] = (double)lcs[s][t];
    static const char *const lcs_opt[] = { "enable_lcs", "true", NULL };
    for (unsigned k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
        for (unsigned threads = 0; threads <= (k == 2 ? 2u : 0u); threads += 2) {
            double got[16];
            const int err = score(p, lcs_opt, paths[k].cpumask, threads, lcs_names, got);
            CHECK(!err, "%s %s: error %d (%s)", what, paths[k].name, err, lockstep_last_error());
            for (int i = 0; !err && i < 16; i++) {
                model_values++;
                const int same = double_bits(got[i]) == double_bits(want[i]) ||
                                 (isnan(got[i]) && isnan(want[i]));
                if (!same) {
                    model_diffs++;
#ifndef LS_MUTATE_MODEL
                    CHECK(0, "%s %s%s: %s = %.17g, model %.17g", what, paths[k].name,
                          threads ? " 2 threads" : "", lcs_names[i], got[i], want[i]);
#endif
                }
            }
        }
    }
}

static void test_model(void)
{
    static const struct { unsigned w, h, bpc; enum VmafPixelFormat fmt; int kind; } cases[] = {
        { 176, 176, 8, VMAF_PIX_FMT_YUV420P, 0 },  /* smallest: the last scale is 11x11 */
        { 177, 183, 8, VMAF_PIX_FMT_YUV444P, 0 },  /* odd: ceiling halving, mirrored last column */
        { 1283, 721, 8, VMAF_PIX_FMT_YUV420P, 0 }, /* the spec's odd example (fixture p11a) */
        { 250, 190, 10, VMAF_PIX_FMT_YUV422P, 0 },
        { 211, 179, 12, VMAF_PIX_FMT_YUV400P, 0 }, /* 4:0:0: luma only */
        { 192, 200, 16, VMAF_PIX_FMT_YUV400P, 0 },
        { 180, 180, 8, VMAF_PIX_FMT_YUV420P, 1 },  /* inverted: negative structure, NaN */
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Pair p = make_pair(cases[i].w, cases[i].h, cases[i].bpc, cases[i].fmt, cases[i].kind);
        char what[64];
        snprintf(what, sizeof(what), "%ux%u %u-bit%s", p.w, p.h, p.bpc,
                 cases[i].kind ? " inverted" : "");
        check_against_model(&p, what);
        free_pair(&p);
    }
    printf("model: %u values compared, %u differ\n", model_values, model_diffs);
}

static void test_options(void)
{
    static const char *const one[2] = { "float_ms_ssim", NULL };
    static const char *const db[] = { "enable_db", "true", NULL };
    static const char *const db_clip[] = { "enable_db", "true", "clip_db", "true", NULL };
    static const char *const clip_only[] = { "clip_db", "true", NULL };
    static const char *const lcs_db[] = { "enable_lcs", "true", "enable_db", "true", NULL };
    double v[17], lin[17];
    Pair p = make_pair(200, 180, 10, VMAF_PIX_FMT_YUV420P, 0);
    int err = score(&p, (const char *const[]){ "enable_lcs", "true", NULL }, 0, 0, lcs_names, lin);
    CHECK(!err, "enable_lcs: error %d", err);
    err = score(&p, db, 0, 0, one, v);
    CHECK(!err && double_bits(v[0]) == double_bits(-10.0 * log10(1.0 - lin[0])),
          "enable_db: %.17g, from the linear score %.17g", v[0], -10.0 * log10(1.0 - lin[0]));
    err = score(&p, clip_only, 0, 0, one, v);
    CHECK(!err && double_bits(v[0]) == double_bits(lin[0]), "clip_db alone changed the score");
    err = score(&p, lcs_db, 0, 0, lcs_names, v);
    for (int i = 1; !err && i < 16; i++) /* the intermediate values stay linear */
        CHECK(double_bits(v[i]) == double_bits(lin[i]), "enable_db changed %s", lcs_names[i]);

    /* identical frames: exactly 1, +inf in dB, the ceiling with clip_db */
    memcpy(p.dis, p.ref, 2 * (size_t)p.w * p.h);
    err = score(&p, NULL, 0, 0, one, v);
    CHECK(!err && v[0] == 1.0, "identical: %.17g", v[0]);
    err = score(&p, db, 0, 0, one, v);
    CHECK(!err && isinf(v[0]) && v[0] > 0, "identical, enable_db: %.17g", v[0]);
    err = score(&p, db_clip, 0, 0, one, v);
    CHECK(!err && v[0] == ls_ssim_db_ceiling(true, 10, 200, 180),
          "identical, clip_db: %.17g", v[0]);
    free_pair(&p);

    /* NaN (inverted pattern, golden p08) becomes the ceiling in dB, not NaN */
    p = make_pair(180, 180, 8, VMAF_PIX_FMT_YUV420P, 1);
    err = score(&p, NULL, 0, 0, one, v);
    CHECK(!err && isnan(v[0]), "inverted: %.17g, not NaN", v[0]);
    err = score(&p, db, 0, 0, one, v);
    CHECK(!err && isinf(v[0]) && v[0] > 0, "inverted, enable_db: %.17g, not +inf", v[0]);
    err = score(&p, db_clip, 0, 0, one, v);
    CHECK(!err && v[0] == ls_ssim_db_ceiling(true, 8, 180, 180), "inverted, clip_db: %.17g", v[0]);
    free_pair(&p);

    /* 10, 12, 16 bits equal to 8 bits shifted: identical outputs (§9) */
    Pair p8 = make_pair(190, 177, 8, VMAF_PIX_FMT_YUV420P, 0);
    double v8[17];
    err = score(&p8, (const char *const[]){ "enable_lcs", "true", NULL }, 0, 0, lcs_names, v8);
    CHECK(!err, "8-bit: error %d", err);
    for (unsigned bpc = 10; bpc <= 16; bpc += bpc == 12 ? 4 : 2) {
        Pair ph = p8;
        ph.bpc = bpc;
        ph.ref = malloc(2 * (size_t)p8.w * p8.h);
        ph.dis = malloc(2 * (size_t)p8.w * p8.h);
        for (size_t i = 0; i < (size_t)p8.w * p8.h; i++) {
            ph.ref[i] = (uint16_t)(p8.ref[i] << (bpc - 8));
            ph.dis[i] = (uint16_t)(p8.dis[i] << (bpc - 8));
        }
        err = score(&ph, (const char *const[]){ "enable_lcs", "true", NULL }, 0, 0, lcs_names, v);
        for (int i = 0; !err && i < 16; i++)
            CHECK(double_bits(v[i]) == double_bits(v8[i]), "%u-bit shifted: %s differs", bpc,
                  lcs_names[i]);
        free_pair(&ph);
    }
    free_pair(&p8);
}

static void test_refusals(void)
{
    static const char *const one[2] = { "float_ms_ssim", NULL };
    static const struct { unsigned w, h, bpc; int ok; } cases[] = {
        { 176, 176, 8, 1 }, { 175, 176, 8, 0 }, { 176, 175, 8, 0 }, { 17, 13, 8, 0 },
        { 8, 8, 8, 0 },     { 4000, 100, 8, 0 }, { 200, 200, 9, 0 }, { 200, 200, 14, 0 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Pair p = make_pair(cases[i].w, cases[i].h, cases[i].bpc < 10 ? 8 : 10,
                           VMAF_PIX_FMT_YUV420P, 0);
        p.bpc = cases[i].bpc;
        double v[1];
        const int err = score(&p, NULL, 0, 0, one, v);
        CHECK((err == 0) == cases[i].ok, "%ux%u %u-bit: %s", p.w, p.h, p.bpc,
              err ? lockstep_last_error() : "accepted");
        if (err && !cases[i].ok) {
            const char *msg = lockstep_last_error();
            printf("refused as expected: %s\n", msg);
            CHECK(strstr(msg, "float_ms_ssim") != NULL, "message does not name the extractor");
            CHECK(strstr(msg, cases[i].bpc == 8 ? "176x176" : "bit depth") != NULL,
                  "message does not name the minimum size / the bit depth: %s", msg);
        }
        free_pair(&p);
    }
}

/* ---- bench ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench(void)
{
    LsMsSsimDsp d[3];
    ls_ms_ssim_dsp_init(&d[0], 0);
    ls_ms_ssim_dsp_init(&d[1], LS_CPU_FLAG_AVX2);
    ls_ms_ssim_dsp_init(&d[2], LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512);
    static const char *const names[3] = { "C", "AVX2", "AVX-512" };
    enum { W = 1920 };
    static float data[9][W + 16], out[W];
    const float *rows[9];
    for (int r = 0; r < 9; r++) {
        for (int x = 0; x < W + 16; x++)
            data[r][x] = (float)(rnd() % 256);
        rows[r] = data[r] + 8;
    }
    for (int k = 0; k < 3; k++) {
        if (k && !(ls_cpu_detect() & (k == 1 ? LS_CPU_FLAG_AVX2 : LS_CPU_FLAG_AVX512)))
            continue;
        const double t0 = now();
        for (int i = 0; i < 500; i++)
            d[k].decimate(rows, W / 2, out);
        printf("decimate %s: %.2f ns/output\n", names[k], (now() - t0) * 1e9 / (500.0 * W / 2));
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        bench();
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s MS_SSIM_JSON | --bench\n", argv[0]);
        return 2;
    }
#ifdef LS_MUTATE_MODEL
    (void)test_tables;
    (void)test_checkasm;
    (void)test_options;
    (void)test_refusals;
    test_model();
    printf("mutant model (float decimation sums): %u of %u values differ: %s\n", model_diffs,
           model_values, model_diffs ? "detected" : "NOT DETECTED");
    return model_diffs ? 0 : 1;
#else
    test_tables(argv[1]);
    test_checkasm();
    test_model();
    test_options();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_ms_ssim: %d failures\n", failures);
    else
        printf("test_ms_ssim: all passed\n");
    return failures ? 1 : 0;
#endif
}
