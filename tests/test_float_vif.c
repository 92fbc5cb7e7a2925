/* float_vif: constants against the spec's table, every SIMD unit against its C reference
 * (checkasm-style: random and extreme inputs, every window, odd sizes, every input depth, exact
 * comparison, failing parameters printed), the extractor against an independent model written
 * from float_vif.md (every option, the prescale methods, bit depths), mutation checks (a model
 * with one detail changed must disagree), output names and the refusals with their texts.
 * usage: test_float_vif FLOAT_VIF_JSON [--bench] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/collector.h"
#include "core/cpu.h"
#include "core/extractor.h"
#include "feature/float_vif.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* uniform in [lo, hi) */
static float rnd_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f;
}

/* ---- tables against tables/float_vif.json ---- */

/* the next quoted or bare number after the next occurrence of "key" at or after *pos */
static const char *json_value(const char **pos, const char *key)
{
    char quoted[64];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    const char *at = strstr(*pos, quoted);
    if (!at)
        return NULL;
    at = strchr(at + strlen(quoted), ':') + 1;
    while (*at == ' ' || *at == '\n' || *at == '[' || *at == '"')
        at++;
    *pos = at;
    return at;
}

/* the numbers of the list that follows "key" (quoted hex or bare), up to max */
static int json_list(const char **pos, const char *key, double *out, int max)
{
    if (!json_value(pos, key))
        return -1;
    const char *p = *pos;
    const char *end = strchr(p, ']');
    int n = 0;
    while (p && p < end && n < max) {
        while (*p == ' ' || *p == '\n' || *p == '"' || *p == ',')
            p++;
        if (p >= end)
            break;
        char *next;
        out[n++] = strtod(p, &next);
        p = next;
    }
    *pos = end;
    return n;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    unsigned n_taps = 0;
    const char *windows = strstr(json, "\"windows\"");
    for (int n = 3; windows && n <= LS_FLOAT_VIF_MAX_TAPS; n += 2) {
        char key[16];
        snprintf(key, sizeof(key), "\"%d\": {", n);
        const char *pos = strstr(windows, key);
        double taps[LS_FLOAT_VIF_MAX_TAPS];
        const int got = pos ? json_list(&pos, "taps_hex", taps, LS_FLOAT_VIF_MAX_TAPS) : -1;
        CHECK(got == n, "window %d: %d taps in the JSON", n, got);
        const float *ours = ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(n);
        for (int k = 0; k < got && k < n; k++, n_taps++)
            CHECK(float_bits(ours[k]) == float_bits((float)taps[k]), "window %d tap %d: %a != %a",
                  n, k, ours[k], taps[k]);
    }
    CHECK(n_taps == 1224, "%u taps compared", n_taps);

    const char *pos = strstr(json, "\"log2_poly\"");
    double poly[9];
    CHECK(pos && json_list(&pos, "float32_hex", poly, 9) == 9, "log2_poly: 9 coefficients");
    for (int i = 0; i < 9; i++)
        CHECK(float_bits(ls_float_vif_log2_poly[i]) == float_bits((float)poly[i]),
              "log2 coefficient %d: %a != %a", i, ls_float_vif_log2_poly[i], poly[i]);

    /* window widths of every valid kernel scale, from the exact table value */
    pos = strstr(json, "\"valid_kernelscales\"");
    unsigned n_scales = 0;
    const char *ks_text;
    while (pos && (ks_text = json_value(&pos, "value_hex"))) {
        const float ks = strtof(ks_text, NULL);
        double sizes[4];
        CHECK(json_list(&pos, "window_sizes_scale0_to_3", sizes, 4) == 4, "ks %a: sizes", ks);
        for (int s = 0; s < 4; s++)
            CHECK(ls_float_vif_window(s, ks) == (int)sizes[s], "ks %a scale %d: window %d != %g",
                  ks, s, ls_float_vif_window(s, ks), sizes[s]);
        n_scales++;
    }
    CHECK(n_scales == 21, "%u kernel scales in the JSON", n_scales);

    pos = strstr(json, "\"statistic_constants\"");
    const char *eps = pos ? json_value(&pos, "float32_hex") : NULL;
    CHECK(eps && float_bits(strtof(eps, NULL)) == float_bits(LS_FLOAT_VIF_EPS), "eps");
    const char *smi = pos ? json_value(&pos, "float32_hex") : NULL;
    const float smi_default = (float)(powf(2.0f, 2.0f) / (255.0 * 255.0));
    CHECK(smi && float_bits(strtof(smi, NULL)) == float_bits(smi_default), "sigma_max_inv");
    free(json);
    printf("tables: %u taps, 9 log2 coefficients, %u kernel scales equal the spec JSON\n", n_taps,
           n_scales);
}

/* ---- checkasm: each SIMD unit against the C reference ---- */

typedef struct Variant {
    const char *name;
    uint64_t flags;
} Variant;

static unsigned variants(Variant *v)
{
    const uint64_t cpu = ls_cpu_detect();
    unsigned n = 0;
    if (cpu & LS_CPU_FLAG_AVX2)
        v[n++] = (Variant){ "avx2", LS_CPU_FLAG_AVX2 };
    else
        printf("checkasm: no AVX2 on this CPU, AVX2 variants not tested\n");
    if ((cpu & LS_CPU_FLAG_AVX512) && (cpu & LS_CPU_FLAG_AVX2))
        v[n++] = (Variant){ "avx512", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 };
    else
        printf("checkasm: SKIP avx512 (the CPU lacks AVX-512)\n");
    return n;
}

static bool same_floats(const float *a, const float *b, size_t n)
{
    return !memcmp(a, b, n * sizeof(float));
}

/* values filtered pictures produce: means in [-128, 128), squares and products up to 2^14 */
static float rnd_moment(unsigned q)
{
    return q < 2    ? rnd_float(-128.0f, 128.0f)
           : q == 4 ? rnd_float(-16384.0f, 16384.0f)
                    : rnd_float(0.0f, 16384.0f);
}

static void fill_input(void *buf, size_t n, unsigned bpc, unsigned mode)
{
    const unsigned max = bpc ? (1u << bpc) - 1 : 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned v = mode == 0 ? rnd() & max : mode == 1 ? 0 : max;
        if (bpc == 0)
            ((float *)buf)[i] = mode == 0   ? rnd_float(-128.0f, 128.0f)
                                : mode == 1 ? -128.0f
                                            : 127.75f;
        else if (bpc == 8)
            ((uint8_t *)buf)[i] = (uint8_t)v;
        else
            ((uint16_t *)buf)[i] = (uint16_t)v;
    }
}

static void checkasm_fill(const LsFloatVifDsp *c, const LsFloatVifDsp *v, const char *name,
                          unsigned *n_cases, unsigned *n_bad)
{
    static const unsigned widths[] = { 1, 7, 8, 9, 15, 16, 17, 31, 33, 100, 131 };
    static const unsigned depths[] = { 0, 8, 10, 12, 16 };
    for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
        for (unsigned di = 0; di < 5; di++) {
            for (unsigned mode = 0; mode < 3; mode++) {
                for (int products = 0; products < 2; products++) {
                    const unsigned w = widths[wi], bpc = depths[di];
                    const size_t bytes = (size_t)w * (bpc == 0 ? 4 : bpc == 8 ? 1 : 2);
                    void *a = malloc(bytes), *b = malloc(bytes);
                    fill_input(a, w, bpc, mode);
                    fill_input(b, w, bpc, mode == 0 ? 0 : 3 - mode);
                    float *o[2][LS_FLOAT_VIF_NQ];
                    for (int s = 0; s < 2; s++)
                        for (int q = 0; q < LS_FLOAT_VIF_NQ; q++)
                            o[s][q] = calloc(w, sizeof(float));
                    c->fill(a, b, bpc, w, products, o[0]);
                    v->fill(a, b, bpc, w, products, o[1]);
                    bool ok = true;
                    for (int q = 0; q < LS_FLOAT_VIF_NQ; q++)
                        ok = ok && same_floats(o[0][q], o[1][q], w);
                    (*n_cases)++;
                    if (!ok) {
                        if ((*n_bad)++ < 5)
                            CHECK(0, "checkasm fill %s: w %u bpc %u mode %u products %d", name, w,
                                  bpc, mode, products);
                    }
                    for (int s = 0; s < 2; s++)
                        for (int q = 0; q < LS_FLOAT_VIF_NQ; q++)
                            free(o[s][q]);
                    free(a);
                    free(b);
                }
            }
        }
    }
}

static void checkasm_filters(const LsFloatVifDsp *c, const LsFloatVifDsp *v, const char *name,
                             unsigned *n_cases, unsigned *n_bad)
{
    static const unsigned widths[] = { 1, 5, 8, 13, 16, 24, 33, 67, 130 };
    for (unsigned n_taps = 3; n_taps <= LS_FLOAT_VIF_MAX_TAPS; n_taps += 2) {
        const float *taps = ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(n_taps);
        for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
            const unsigned w = widths[wi];
            for (unsigned q = 0; q < 5; q += 2) { /* means, squares, products */
                /* vertical: n_out rows from an exact-size window of rows */
                for (unsigned step = 1; step <= 2; step++) {
                    for (unsigned n_out = 1; n_out <= LS_FLOAT_VIF_STRIP; n_out++) {
                        const unsigned n_rows = (n_out - 1) * step + n_taps;
                        float *src = malloc((size_t)n_rows * w * sizeof(float));
                        for (size_t i = 0; i < (size_t)n_rows * w; i++)
                            src[i] = rnd_moment(q);
                        float *o0 = malloc((size_t)n_out * w * sizeof(float));
                        float *o1 = malloc((size_t)n_out * w * sizeof(float));
                        c->filter_v(src, w, step, n_out, taps, n_taps, w, o0, w);
                        v->filter_v(src, w, step, n_out, taps, n_taps, w, o1, w);
                        (*n_cases)++;
                        if (!same_floats(o0, o1, (size_t)n_out * w)) {
                            if ((*n_bad)++ < 5)
                                CHECK(0, "checkasm filter_v %s: taps %u w %u step %u rows %u", name,
                                      n_taps, w, step, n_out);
                        }
                        free(src);
                        free(o0);
                        free(o1);
                    }
                }
                /* horizontal: step 1 over the whole row, step 2 over its even positions */
                for (unsigned step = 1; step <= 2; step++) {
                    const unsigned n_out = step == 1 ? w : (w + 1) / 2;
                    const unsigned n_in = (n_out - 1) * step + n_taps;
                    float *in = malloc((size_t)n_in * sizeof(float));
                    for (unsigned i = 0; i < n_in; i++)
                        in[i] = rnd_moment(q);
                    float *o0 = malloc(n_out * sizeof(float)), *o1 = malloc(n_out * sizeof(float));
                    float *tmp = malloc(ls_float_vif_tmp_floats(n_in) * sizeof(float));
                    c->filter_h(in, step, taps, n_taps, n_out, o0, tmp);
                    v->filter_h(in, step, taps, n_taps, n_out, o1, tmp);
                    (*n_cases)++;
                    if (!same_floats(o0, o1, n_out)) {
                        if ((*n_bad)++ < 5)
                            CHECK(0, "checkasm filter_h %s: taps %u outputs %u step %u", name,
                                  n_taps, n_out, step);
                    }
                    free(in);
                    free(o0);
                    free(o1);
                    free(tmp);
                }
            }
        }
    }
}

/* Five filtered rows of w pixels in one of the situations the statistic branches on. */
static void stat_inputs(unsigned kind, unsigned w, float *q[LS_FLOAT_VIF_NQ])
{
    for (unsigned x = 0; x < w; x++) {
        const float mu1 = rnd_float(-128.0f, 128.0f), mu2 = rnd_float(-128.0f, 128.0f);
        float v1 = rnd_float(0.0f, 3000.0f), v2 = rnd_float(0.0f, 3000.0f);
        float c12 = rnd_float(-1.0f, 1.0f) * sqrtf(v1 * v2);
        switch (kind) {
        case 0: /* random */ break;
        case 1: /* identical pictures */ v2 = v1, c12 = v1; break;
        case 2: /* flat: variances around nsq and eps, and float residues */
            v1 = (rnd() & 1) ? rnd_float(0.0f, 4.0f) : ldexpf(rnd_float(0.5f, 2.0f), -34);
            v2 = (rnd() & 1) ? rnd_float(0.0f, 4.0f) : 0.0f;
            c12 = rnd_float(-1.0f, 1.0f);
            break;
        case 3: /* gains above any limit, negative covariance */
            v2 = v1 * rnd_float(0.5f, 20.0f);
            c12 = (rnd() & 1 ? 1.0f : -1.0f) * sqrtf(v1 * v2) * rnd_float(0.9f, 1.0f);
            break;
        default: /* a mixture, with every sixteenth pixel repeated exactly */
            if (x % 16 == 15) {
                for (unsigned k = 0; k < LS_FLOAT_VIF_NQ; k++)
                    q[k][x] = q[k][x - 1];
                continue;
            }
            break;
        }
        q[LS_FLOAT_VIF_X][x] = mu1;
        q[LS_FLOAT_VIF_Y][x] = mu2;
        q[LS_FLOAT_VIF_XX][x] = v1 + mu1 * mu1;
        q[LS_FLOAT_VIF_YY][x] = v2 + mu2 * mu2;
        q[LS_FLOAT_VIF_XY][x] = c12 + mu1 * mu2;
    }
}

static void checkasm_stat(const LsFloatVifDsp *c, const LsFloatVifDsp *v, const char *name,
                          unsigned *n_cases, unsigned *n_bad)
{
    static const double nsqs[] = { 2.0, 0.5, 4.0, 0.0, 1e-11, 5.0, 0.1 };
    static const float limits[] = { 100.0f, 1.0f, 1.5f };
    static const unsigned widths[] = { 1, 7, 8, 15, 16, 17, 64, 129 };
    for (unsigned ni = 0; ni < sizeof(nsqs) / sizeof(nsqs[0]); ni++) {
        for (unsigned li = 0; li < 3; li++) {
            const LsFloatVifStatParams p = {
                nsqs[ni], limits[li], (float)(powf((float)nsqs[ni], 2.0f) / (255.0 * 255.0))
            };
            for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
                for (unsigned kind = 0; kind < 5; kind++) {
                    const unsigned w = widths[wi];
                    float *q[LS_FLOAT_VIF_NQ];
                    for (int k = 0; k < LS_FLOAT_VIF_NQ; k++)
                        q[k] = malloc(w * sizeof(float));
                    stat_inputs(kind, w, q);
                    float *n0 = malloc(w * 4), *d0 = malloc(w * 4), *n1 = malloc(w * 4),
                          *d1 = malloc(w * 4);
                    const float *const cq[LS_FLOAT_VIF_NQ] = { q[0], q[1], q[2], q[3], q[4] };
                    c->stat(cq, w, &p, n0, d0);
                    v->stat(cq, w, &p, n1, d1);
                    (*n_cases)++;
                    if (!same_floats(n0, n1, w) || !same_floats(d0, d1, w)) {
                        unsigned x = 0;
                        while (float_bits(n0[x]) == float_bits(n1[x]) &&
                               float_bits(d0[x]) == float_bits(d1[x]))
                            x++;
                        if ((*n_bad)++ < 5)
                            CHECK(0,
                                  "checkasm stat %s: nsq %g limit %g w %u kind %u x %u: num %a/%a "
                                  "den %a/%a",
                                  name, p.sigma_nsq, p.gain_limit, w, kind, x, n0[x], n1[x], d0[x],
                                  d1[x]);
                    }
                    for (int k = 0; k < LS_FLOAT_VIF_NQ; k++)
                        free(q[k]);
                    free(n0);
                    free(d0);
                    free(n1);
                    free(d1);
                }
            }
        }
    }
}

static void checkasm_accumulate(const LsFloatVifDsp *c, const LsFloatVifDsp *v, const char *name,
                                unsigned *n_cases, unsigned *n_bad)
{
    static const unsigned widths[] = { 1, 3, 8, 9, 16, 23, 64, 70 };
    for (unsigned h = 1; h <= 17; h++) {
        for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
            const unsigned w = widths[wi];
            const size_t stride = w + 3;
            float *num = malloc(stride * h * sizeof(float)), *den = malloc(stride * h * 4);
            for (size_t i = 0; i < stride * h; i++) {
                /* wide dynamic range, where any other order of additions shows */
                num[i] = ldexpf(rnd_float(-1.0f, 1.0f), (int)(rnd() % 40) - 20);
                den[i] = ldexpf(rnd_float(0.0f, 1.0f), (int)(rnd() % 40) - 20);
            }
            float a0[2] = { 0.5f, 1.0f }, a1[2] = { 0.5f, 1.0f };
            c->accumulate(num, den, stride, w, h, a0);
            v->accumulate(num, den, stride, w, h, a1);
            (*n_cases)++;
            if (float_bits(a0[0]) != float_bits(a1[0]) || float_bits(a0[1]) != float_bits(a1[1])) {
                if ((*n_bad)++ < 5)
                    CHECK(0, "checkasm accumulate %s: %ux%u: %a %a != %a %a", name, w, h, a0[0],
                          a0[1], a1[0], a1[1]);
            }
            free(num);
            free(den);
        }
    }
}

static void test_checkasm(void)
{
    Variant vs[2];
    const unsigned n_variants = variants(vs);
    LsFloatVifDsp c;
    ls_float_vif_dsp_init(&c, 0);
    for (unsigned i = 0; i < n_variants; i++) {
        LsFloatVifDsp v;
        ls_float_vif_dsp_init(&v, vs[i].flags);
        CHECK(v.filter_v != c.filter_v && v.filter_h != c.filter_h && v.stat != c.stat &&
                  v.accumulate != c.accumulate && v.fill != c.fill,
              "%s variants not installed", vs[i].name);
        unsigned n[4] = { 0 }, bad[4] = { 0 };
        checkasm_fill(&c, &v, vs[i].name, &n[0], &bad[0]);
        checkasm_filters(&c, &v, vs[i].name, &n[1], &bad[1]);
        checkasm_stat(&c, &v, vs[i].name, &n[2], &bad[2]);
        checkasm_accumulate(&c, &v, vs[i].name, &n[3], &bad[3]);
        printf("checkasm %s vs c: fill %u cases, %u differ; filters %u cases, %u differ; stat %u "
               "cases, %u differ; accumulate %u cases, %u differ\n",
               vs[i].name, n[0], bad[0], n[1], bad[1], n[2], bad[2], n[3], bad[3]);
    }
}

/* ---- an independent model of float_vif.md ---- */

typedef struct Mutation {
    bool fma;          /* fused multiply-add in the filters */
    bool reverse_taps; /* taps added last to first */
    bool double_sums;  /* row sums and totals in double */
    bool libm_log2;    /* log2f instead of the approximation */
    bool old_border;   /* right/bottom border repeats the edge sample */
    bool horizontal_first;
} Mutation;

typedef struct ModelOpts {
    double egl, ks, ps, nsq, min_val[4];
    const char *method;
    bool skip0;
} ModelOpts;

static const ModelOpts model_defaults = { 100.0, 1.0, 1.0, 2.0, { 0, 0, 0, 0 }, "nearest", false };

static int m_refl(int i, int n, bool old)
{
    if (i < 0)
        return -i;
    if (i > n - 1)
        return old ? 2 * n - 1 - i : 2 * (n - 1) - i;
    return i;
}

static float m_tap_sum(const float *f, int n, const float *v, const Mutation *mu)
{
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        const int k = mu->reverse_taps ? n - 1 - i : i;
        acc = mu->fma ? fmaf(f[k], v[k], acc) : acc + f[k] * v[k];
    }
    return acc;
}

/* one filtered plane: mode 0 X, 1 X*X, 2 X*Y; vertical pass then horizontal, reflect-101 */
static void m_filter(const float *x, const float *y, int mode, int w, int h, const float *f, int n,
                     float *out, const Mutation *mu)
{
    const int r = n / 2;
    float *t = malloc((size_t)w * h * sizeof(float)), v[LS_FLOAT_VIF_MAX_TAPS];
    const bool hfirst = mu->horizontal_first;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            for (int k = 0; k < n; k++) {
                const size_t at = hfirst ? (size_t)i * w + m_refl(j - r + k, w, mu->old_border)
                                         : (size_t)m_refl(i - r + k, h, mu->old_border) * w + j;
                v[k] = mode == 0 ? x[at] : mode == 1 ? x[at] * x[at] : x[at] * y[at];
            }
            t[(size_t)i * w + j] = m_tap_sum(f, n, v, mu);
        }
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            for (int k = 0; k < n; k++)
                v[k] = hfirst ? t[(size_t)m_refl(i - r + k, h, mu->old_border) * w + j]
                              : t[(size_t)i * w + m_refl(j - r + k, w, mu->old_border)];
            out[(size_t)i * w + j] = m_tap_sum(f, n, v, mu);
        }
    free(t);
}

static float m_log2(float x, const Mutation *mu)
{
    static const float poly[9] = { -0x1.9f3962p-7f, 0x1.0996e8p-4f,  -0x1.41a2d2p-3f,
                                   0x1.0756fap-2f,  -0x1.6a4ab2p-2f, 0x1.eba792p-2f,
                                   -0x1.71501cp-1f, 0x1.715472p+0f,  0.0f };
    if (mu->libm_log2)
        return log2f(x);
    uint32_t bits;
    memcpy(&bits, &x, 4);
    const int e = (int)((bits >> 23) & 0xff);
    const uint32_t mb = (bits & 0x7fffff) | 0x3f800000;
    float m;
    memcpy(&m, &mb, 4);
    const float t = m - 1.0f;
    float p = 0.0f;
    for (int i = 0; i < 9; i++)
        p = p * t + poly[i];
    return (float)(e - 127) + p;
}

/* the statistic of §5.2, transcribed on its own */
static void m_stat(float mu1, float mu2, float xx, float yy, float xy, const ModelOpts *o,
                   const Mutation *mu, float *num, float *den)
{
    const float eps = 1.0e-10f, limit = (float)o->egl;
    const float smi = (float)(powf((float)o->nsq, 2.0f) / 65025.0);
    float s1 = xx - mu1 * mu1, s2 = yy - mu2 * mu2;
    const float s12 = xy - mu1 * mu2;
    if (!(s1 > 0.0f))
        s1 = 0.0f;
    if (!(s2 > 0.0f))
        s2 = 0.0f;
    float g = s12 / (s1 + eps);
    float sv = s2 - g * s12;
    if (s1 < eps)
        g = 0.0f, sv = s2, s1 = 0.0f;
    if (s2 < eps)
        g = 0.0f, sv = 0.0f;
    if (g < 0.0f)
        sv = s2, g = 0.0f;
    if (!(sv > eps))
        sv = eps;
    if (!(g < limit))
        g = limit;
    const float gg = g * g;
    const float a = gg * s1;
    *num = m_log2((float)(1.0 + (double)a / ((double)sv + o->nsq)), mu);
    *den = m_log2((float)(1.0 + (double)s1 / o->nsq), mu);
    if (s12 < 0.0f)
        *num = 0.0f;
    if ((double)s1 < o->nsq) {
        *num = 1.0f - s2 * smi;
        *den = 1.0f;
    }
}

static float m_mirror(float t, int n)
{
    return t < 0.0f ? -t : t > (float)(n - 1) ? 2.0f * (float)(n - 1) - t : t;
}

static float m_cubic(float t)
{
    const float a = -0.75f;
    t = fabsf(t);
    if (t < 1.0f)
        return ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
    if (t < 2.0f)
        return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
    return 0.0f;
}

static float m_lanczos(float t)
{
    const double pi = 3.14159265358979323846;
    if (t == 0.0f)
        return 1.0f;
    if (-4.0f < t && t < 4.0f) {
        const double d = (double)t;
        return (float)(((4.0 * sin(pi * d)) * sin(pi * d / 4.0)) / ((pi * pi * d) * d));
    }
    return 0.0f;
}

/* §3.3, from W x H to Ws x Hs */
static void m_resample(const float *in, int W, int H, float *out, int Ws, int Hs,
                       const char *method)
{
    const float rx = (float)W / (float)Ws, ry = (float)H / (float)Hs;
    for (int y = 0; y < Hs; y++) {
        for (int x = 0; x < Ws; x++) {
            float v = 0.0f;
            const float xx = (float)((x + 0.5) * (double)rx - 0.5);
            const float yy = (float)((y + 0.5) * (double)ry - 0.5);
            if (!strcmp(method, "nearest")) {
                v = in[(int)((float)y * ry) * W + (int)((float)x * rx)];
            } else if (!strcmp(method, "bilinear")) {
                const int x1 = (int)m_mirror((float)floor(xx), W),
                          x2 = (int)m_mirror((float)ceil(xx), W);
                const int y1 = (int)m_mirror((float)floor(yy), H),
                          y2 = (int)m_mirror((float)ceil(yy), H);
                const float dx = xx - (float)x1, dy = yy - (float)y1;
                const float w11 = (1.0f - dy) * (1.0f - dx), w12 = (1.0f - dy) * dx;
                const float w21 = dy * (1.0f - dx), w22 = dy * dx;
                v = w11 * in[y1 * W + x1] + w12 * in[y1 * W + x2] + w21 * in[y2 * W + x1] +
                    w22 * in[y2 * W + x2];
            } else {
                const bool cubic = !strcmp(method, "bicubic");
                const int a = cubic ? 2 : 4, lo = cubic ? -1 : -4;
                const int x0 = (int)floor(xx), y0 = (int)floor(yy);
                const float dx = xx - (float)x0, dy = yy - (float)y0;
                float wx[9], wy[9];
                for (int i = lo; i <= a; i++) {
                    wx[i - lo] = cubic ? m_cubic((float)i - dx) : m_lanczos((float)i - dx);
                    wy[i - lo] = cubic ? m_cubic((float)i - dy) : m_lanczos((float)i - dy);
                }
                float acc = 0.0f, wsum = 0.0f;
                for (int j = lo; j <= a; j++)
                    for (int i = lo; i <= a; i++) {
                        const int sy = (int)m_mirror((float)(y0 + j), H);
                        const int sx = (int)m_mirror((float)(x0 + i), W);
                        const float w = wx[i - lo] * wy[j - lo];
                        wsum = wsum + w;
                        acc = acc + in[sy * W + sx] * w;
                    }
                v = cubic ? acc : acc / wsum;
            }
            out[y * Ws + x] = v;
        }
    }
}

static float m_sample(const VmafPicture *pic, int x, int y)
{
    const uint8_t *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
    const unsigned v = pic->bpc == 8 ? row[x] : ((const uint16_t *)row)[x];
    return pic->bpc == 8 ? (float)v - 128.0f : (float)v / (float)(1u << (pic->bpc - 8)) - 128.0f;
}

/* every score of §1 and §6, in the order of the extractor's names */
static void model_scores(const VmafPicture *ref, const VmafPicture *dis, const ModelOpts *o,
                         const Mutation *mu, double out[LS_FLOAT_VIF_N_NAMES])
{
    int W = (int)ref->w[0], H = (int)ref->h[0];
    float *r = malloc((size_t)W * H * 4), *d = malloc((size_t)W * H * 4);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            r[y * W + x] = m_sample(ref, x, y);
            d[y * W + x] = m_sample(dis, x, y);
        }
    const int Ws = (int)(W * o->ps + 0.5), Hs = (int)(H * o->ps + 0.5);
    if (Ws != W || Hs != H) {
        float *rs = malloc((size_t)Ws * Hs * 4), *ds = malloc((size_t)Ws * Hs * 4);
        m_resample(r, W, H, rs, Ws, Hs, o->method);
        m_resample(d, W, H, ds, Ws, Hs, o->method);
        free(r);
        free(d);
        r = rs, d = ds, W = Ws, H = Hs;
    }
    float num[4] = { 0 }, den[4] = { 0 };
    const float ks = (float)o->ks;
    float *q[5];
    for (int s = o->skip0 ? 1 : 0; s < 4; s++) {
        int n = (int)ceil((double)((float)((1 << (4 - s)) + 1) * ks));
        n = n % 2 ? n : n + 1;
        n = n < 3 ? 3 : n;
        const float *f = ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(n);
        if (s > 0) {
            float *m1 = malloc((size_t)W * H * 4), *m2 = malloc((size_t)W * H * 4);
            m_filter(r, NULL, 0, W, H, f, n, m1, mu);
            m_filter(d, NULL, 0, W, H, f, n, m2, mu);
            const int w2 = W / 2, h2 = H / 2;
            for (int i = 0; i < h2; i++)
                for (int j = 0; j < w2; j++) {
                    r[i * w2 + j] = m1[(2 * i) * W + 2 * j];
                    d[i * w2 + j] = m2[(2 * i) * W + 2 * j];
                }
            free(m1);
            free(m2);
            W = w2, H = h2;
        }
        for (int k = 0; k < 5; k++)
            q[k] = malloc((size_t)W * H * 4);
        m_filter(r, NULL, 0, W, H, f, n, q[0], mu);
        m_filter(d, NULL, 0, W, H, f, n, q[1], mu);
        m_filter(r, NULL, 1, W, H, f, n, q[2], mu);
        m_filter(d, NULL, 1, W, H, f, n, q[3], mu);
        m_filter(r, d, 2, W, H, f, n, q[4], mu);
        float tn = 0.0f, td = 0.0f;
        double dn = 0.0, dd = 0.0;
        for (int i = 0; i < H; i++) {
            float rn = 0.0f, rd = 0.0f;
            double rdn = 0.0, rdd = 0.0;
            for (int j = 0; j < W; j++) {
                float vn, vd;
                const size_t at = (size_t)i * W + j;
                m_stat(q[0][at], q[1][at], q[2][at], q[3][at], q[4][at], o, mu, &vn, &vd);
                rn = rn + vn, rd = rd + vd;
                rdn += vn, rdd += vd;
            }
            tn = tn + rn, td = td + rd;
            dn += rdn, dd += rdd;
        }
        num[s] = mu->double_sums ? (float)dn : tn;
        den[s] = mu->double_sums ? (float)dd : td;
        for (int k = 0; k < 5; k++)
            free(q[k]);
    }
    free(r);
    free(d);
    double sn = 0.0, sd = 0.0;
    for (int s = 0; s < 4; s++) {
        const bool skipped = o->skip0 && s == 0;
        double v = skipped ? 0.0 : (double)num[s] / (double)den[s];
        if (s > 0)
            v = v > o->min_val[s] ? v : o->min_val[s];
        out[s] = v;
        if (!skipped)
            sn += num[s], sd += den[s];
        out[7 + 2 * s] = skipped ? 0.0 : num[s];
        out[8 + 2 * s] = skipped ? -1.0 : den[s];
    }
    out[4] = sd == 0.0 ? 1.0 : sn / sd;
    out[5] = sn;
    out[6] = sd;
}

/* ---- running the extractor ---- */

typedef struct Opt {
    const char *key, *value;
} Opt;

static void put(VmafPicture *pic, unsigned x, unsigned y, unsigned v)
{
    uint8_t *row = (uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
    if (pic->bpc == 8)
        row[x] = (uint8_t)v;
    else
        ((uint16_t *)row)[x] = (uint16_t)v;
}

/* 8-bit content (shifted to bpc): a smooth pattern with noise; the distorted picture has a
 * gain above 1 in one band, an inverted band (negative covariance), a flat block and noise */
static void make_pair(VmafPicture *ref, VmafPicture *dis, unsigned bpc, unsigned w, unsigned h,
                      unsigned frame)
{
    VmafPicture *pics[2] = { ref, dis };
    for (int p = 0; p < 2; p++) {
        memset(pics[p], 0, sizeof(VmafPicture));
        pics[p]->pix_fmt = VMAF_PIX_FMT_YUV400P;
        pics[p]->bpc = bpc;
        pics[p]->w[0] = w;
        pics[p]->h[0] = h;
        pics[p]->stride[0] = (ptrdiff_t)(w * (bpc > 8 ? 2 : 1) + 6); /* not a multiple of 8 */
        pics[p]->data[0] = malloc((size_t)pics[p]->stride[0] * h);
    }
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const double s = 128 + 70 * sin((x + 2.0 * frame) * 0.31) * cos(y * 0.17 + frame);
            const int a = (int)s + (int)(rnd() % 9) - 4;
            int b;
            if (x < w / 4)
                b = (int)(128 + 1.6 * (a - 128));
            else if (x < w / 2)
                b = 255 - a;
            else if (y < h / 3 && x > 3 * w / 4)
                b = 77;
            else
                b = a + (int)(rnd() % 21) - 10;
            const unsigned va = (unsigned)(a < 0 ? 0 : a > 255 ? 255 : a);
            const unsigned vb = (unsigned)(b < 0 ? 0 : b > 255 ? 255 : b);
            put(ref, x, y, va << (bpc - 8));
            put(dis, x, y, vb << (bpc - 8));
        }
    }
}

static void free_pair(VmafPicture *ref, VmafPicture *dis)
{
    free(ref->data[0]);
    free(dis->data[0]);
}

/* init + one extract; the outputs (in the extractor's name order) into out when given.
 * Returns init's error. */
static int run_fex(const Opt *opts, unsigned n_opts, const VmafPicture *ref, const VmafPicture *dis,
                   uint64_t cpu_flags, double out[LS_FLOAT_VIF_N_NAMES],
                   char names[LS_FLOAT_VIF_N_NAMES][256], unsigned *n_out)
{
    const LsExtractor *ex = &ls_fex_float_vif;
    LsFex fex = { .ex = ex, .cpu_flags = cpu_flags };
    fex.priv = calloc(1, ex->priv_size);
    LsOptionValue values[16] = { { 0 } };
    for (unsigned i = 0; i < n_opts; i++)
        values[i] = (LsOptionValue){ opts[i].key, opts[i].value };
    char err[256];
    int ret = ls_options_apply(ex->name, ex->options, fex.priv, values, n_opts, err, sizeof(err));
    CHECK(!ret, "options rejected: %s", err);
    if (!ret)
        ret = ex->init(&fex, VMAF_PIX_FMT_YUV400P, ref->bpc, ref->w[0], ref->h[0]);
    if (!ret) {
        LsCollector *fc;
        ls_collector_create(&fc);
        const int e = ex->extract(&fex, ref, dis, 0, fc);
        CHECK(!e, "extract failed: %d", e);
        const unsigned n = ls_collector_count(fc);
        for (unsigned i = 0; i < n && i < LS_FLOAT_VIF_N_NAMES; i++) {
            if (names)
                snprintf(names[i], 256, "%s", ls_collector_name(fc, i));
            if (out)
                ls_collector_get(fc, ls_collector_name(fc, i), 0, &out[i]);
        }
        if (n_out)
            *n_out = n;
        ls_collector_destroy(fc);
    }
    if (ex->close)
        ex->close(&fex);
    free(fex.priv);
    return ret;
}

static bool outputs_equal(const double *a, const double *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (double_bits(a[i]) != double_bits(b[i]))
            return false;
    return true;
}

/* ---- every option against the model ---- */

typedef struct Case {
    const char *label;
    Opt opts[4];
    unsigned n_opts;
    ModelOpts model;
    unsigned w, h, bpc;
} Case;

static void test_model(void)
{
    const ModelOpts d = model_defaults;
    ModelOpts egl1 = d, ks05 = d, ks15 = d, ks371 = d, nsq05 = d, nsq4 = d, nsq0 = d, minv = d,
              skip = d, ps_near = d, ps_bil = d, ps_cub = d, ps_lan = d, ps_down = d;
    egl1.egl = 1.0;
    ks05.ks = 0.5;
    ks15.ks = 1.5;
    ks371.ks = (double)0x1.db0d32p+1f;
    nsq05.nsq = 0.5;
    nsq4.nsq = 4.0;
    nsq0.nsq = 0.0;
    minv.min_val[1] = 0.9, minv.min_val[2] = 0.95, minv.min_val[3] = 1.0;
    skip.skip0 = true;
    ps_near.ps = 2.0;
    ps_bil.ps = 1.5, ps_bil.method = "bilinear";
    ps_cub.ps = 1.25, ps_cub.method = "bicubic";
    ps_lan.ps = 1.5, ps_lan.method = "lanczos4";
    ps_down.ps = 0.5, ps_down.method = "bicubic";
    const Case cases[] = {
        { "default 8-bit", { { "debug", "true" } }, 1, d, 48, 40, 8 },
        { "default 16x16 (smallest)", { { "debug", "true" } }, 1, d, 16, 16, 8 },
        { "default 10-bit", { { "debug", "true" } }, 1, d, 37, 29, 10 },
        { "default 12-bit", { { "debug", "true" } }, 1, d, 33, 21, 12 },
        { "default 16-bit", { { "debug", "true" } }, 1, d, 35, 17, 16 },
        { "vif_enhn_gain_limit=1",
          { { "debug", "true" }, { "vif_enhn_gain_limit", "1" } },
          2,
          egl1,
          48,
          40,
          8 },
        { "vif_kernelscale=0.5",
          { { "debug", "true" }, { "vif_kernelscale", "0.5" } },
          2,
          ks05,
          48,
          40,
          8 },
        { "vif_kernelscale=1.5",
          { { "debug", "true" }, { "vif_kernelscale", "1.5" } },
          2,
          ks15,
          80,
          72,
          8 },
        { "vif_kernelscale=3.71134",
          { { "debug", "true" }, { "vif_kernelscale", "3.71134" } },
          2,
          ks371,
          70,
          57,
          8 },
        { "vif_sigma_nsq=0.5",
          { { "debug", "true" }, { "vif_sigma_nsq", "0.5" } },
          2,
          nsq05,
          48,
          40,
          8 },
        { "vif_sigma_nsq=4",
          { { "debug", "true" }, { "vif_sigma_nsq", "4" } },
          2,
          nsq4,
          48,
          40,
          8 },
        { "vif_sigma_nsq=0",
          { { "debug", "true" }, { "vif_sigma_nsq", "0" } },
          2,
          nsq0,
          48,
          40,
          8 },
        { "vif_scaleN_min_val",
          { { "debug", "true" },
            { "vif_scale1_min_val", "0.9" },
            { "vif_scale2_min_val", "0.95" },
            { "vif_scale3_min_val", "1" } },
          4,
          minv,
          48,
          40,
          8 },
        { "vif_skip_scale0",
          { { "debug", "true" }, { "vif_skip_scale0", "true" } },
          2,
          skip,
          48,
          40,
          8 },
        { "prescale nearest x2",
          { { "debug", "true" }, { "vif_prescale", "2" } },
          2,
          ps_near,
          21,
          17,
          8 },
        { "prescale bilinear x1.5",
          { { "debug", "true" }, { "vif_prescale", "1.5" }, { "vif_prescale_method", "bilinear" } },
          3,
          ps_bil,
          23,
          19,
          10 },
        { "prescale bicubic x1.25",
          { { "debug", "true" }, { "vif_prescale", "1.25" }, { "vif_prescale_method", "bicubic" } },
          3,
          ps_cub,
          27,
          21,
          8 },
        { "prescale lanczos4 x1.5",
          { { "debug", "true" }, { "vif_prescale", "1.5" }, { "vif_prescale_method", "lanczos4" } },
          3,
          ps_lan,
          23,
          19,
          8 },
        { "prescale bicubic x0.5",
          { { "debug", "true" }, { "vif_prescale", "0.5" }, { "vif_prescale_method", "bicubic" } },
          3,
          ps_down,
          67,
          45,
          12 },
    };
    const Mutation none = { 0 };
    Variant vs[2];
    const unsigned n_variants = variants(vs);
    unsigned n_values = 0;
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const Case *k = &cases[c];
        VmafPicture ref, dis;
        make_pair(&ref, &dis, k->bpc, k->w, k->h, c);
        double want[LS_FLOAT_VIF_N_NAMES], got[LS_FLOAT_VIF_N_NAMES];
        model_scores(&ref, &dis, &k->model, &none, want);
        unsigned n_out = 0;
        for (unsigned v = 0; v <= n_variants; v++) {
            const int err =
                run_fex(k->opts, k->n_opts, &ref, &dis, v ? vs[v - 1].flags : 0, got, NULL, &n_out);
            CHECK(!err, "%s: init failed: %s", k->label, lockstep_last_error());
            CHECK(n_out == LS_FLOAT_VIF_N_NAMES, "%s: %u outputs", k->label, n_out);
            for (unsigned i = 0; i < LS_FLOAT_VIF_N_NAMES && !err; i++)
                CHECK(double_bits(got[i]) == double_bits(want[i]),
                      "%s (%s): output %u = %.17g, model %.17g", k->label, v ? vs[v - 1].name : "c",
                      i, got[i], want[i]);
            n_values += LS_FLOAT_VIF_N_NAMES;
        }
        free_pair(&ref, &dis);
    }
    printf("model: %u option cases, %u values (C and every SIMD variant) equal the model of the "
           "spec\n",
           (unsigned)(sizeof(cases) / sizeof(cases[0])), n_values);
}

/* the same content at 8, 10, 12 and 16 bits gives the same bits (§7) */
static void test_depth_identity(void)
{
    const Opt dbg = { "debug", "true" };
    double out8[LS_FLOAT_VIF_N_NAMES] = { 0 };
    for (unsigned bpc = 8; bpc <= 16; bpc += bpc == 12 ? 4 : 2) {
        VmafPicture ref, dis;
        rng_state = 0x1234567ull;
        make_pair(&ref, &dis, bpc, 45, 33, 3);
        double out[LS_FLOAT_VIF_N_NAMES];
        run_fex(&dbg, 1, &ref, &dis, ls_cpu_detect(), out, NULL, NULL);
        if (bpc == 8)
            memcpy(out8, out, sizeof(out));
        CHECK(outputs_equal(out, out8, LS_FLOAT_VIF_N_NAMES), "%u-bit differs from 8-bit", bpc);
        free_pair(&ref, &dis);
    }
    printf("bit depths: 8/10/12/16-bit copies of one picture give identical outputs\n");
}

/* C and the dispatched units through the whole extractor at odd sizes, wider than the units' tests
 */
static void test_extractor_parity(void)
{
    static const unsigned sizes[][2] = {
        { 16, 16 }, { 17, 19 }, { 97, 61 }, { 131, 77 }, { 250, 36 }
    };
    static const Opt option_sets[][2] = { { { "debug", "true" }, { "vif_enhn_gain_limit", "100" } },
                                          { { "debug", "true" }, { "vif_kernelscale", "1.5" } },
                                          { { "debug", "true" }, { "vif_skip_scale0", "true" } },
                                          { { "debug", "true" }, { "vif_sigma_nsq", "0.3" } } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    Variant vs[2];
    const unsigned n_variants = variants(vs);
    unsigned n = 0;
    for (unsigned si = 0; si < 5; si++)
        for (unsigned oi = 0; oi < 4; oi++)
            for (unsigned di = 0; di < 4; di++) {
                const unsigned w = sizes[si][0], h = sizes[si][1];
                if (oi == 1 && (w < 40 || h < 40))
                    continue; /* below the 27/15/9/5-tap pyramid */
                VmafPicture ref, dis;
                make_pair(&ref, &dis, depths[di], w, h, si + oi);
                /* random samples of the full range instead of 8-bit content */
                for (unsigned y = 0; y < h && di == 3; y++)
                    for (unsigned x = 0; x < w; x++)
                        put(&dis, x, y, rnd() & 0xffff);
                double a[LS_FLOAT_VIF_N_NAMES], b[LS_FLOAT_VIF_N_NAMES];
                run_fex(option_sets[oi], 2, &ref, &dis, 0, a, NULL, NULL);
                for (unsigned v = 0; v < n_variants; v++) {
                    run_fex(option_sets[oi], 2, &ref, &dis, vs[v].flags, b, NULL, NULL);
                    CHECK(outputs_equal(a, b, LS_FLOAT_VIF_N_NAMES),
                          "%ux%u bpc %u options %u: C != %s", w, h, depths[di], oi, vs[v].name);
                    n++;
                }
                free_pair(&ref, &dis);
            }
    printf("extractor: every SIMD variant equals C in %u runs\n", n);
}

/* ---- mutation checks: a model with one detail wrong must disagree with the extractor ---- */

static void test_mutations(void)
{
    const struct {
        const char *what;
        Mutation m;
    } mutations[] = {
        { "fused multiply-add in the filters", { .fma = true } },
        { "taps added in reverse order", { .reverse_taps = true } },
        { "double accumulation of the sums", { .double_sums = true } },
        { "edge-repeating right/bottom border", { .old_border = true } },
        { "horizontal pass first", { .horizontal_first = true } },
    };
    const Opt dbg = { "debug", "true" };
    VmafPicture ref, dis;
    make_pair(&ref, &dis, 8, 64, 48, 9);
    double got[LS_FLOAT_VIF_N_NAMES], want[LS_FLOAT_VIF_N_NAMES];
    run_fex(&dbg, 1, &ref, &dis, ls_cpu_detect(), got, NULL, NULL);
    const Mutation none = { 0 };
    model_scores(&ref, &dis, &model_defaults, &none, want);
    CHECK(outputs_equal(got, want, LS_FLOAT_VIF_N_NAMES), "unmutated model disagrees");
    for (unsigned i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++) {
        model_scores(&ref, &dis, &model_defaults, &mutations[i].m, want);
        unsigned differ = 0;
        for (unsigned k = 0; k < LS_FLOAT_VIF_N_NAMES; k++)
            differ += double_bits(got[k]) != double_bits(want[k]);
        CHECK(differ > 0, "mutation \"%s\" not detected", mutations[i].what);
        printf("mutation \"%s\": %u of %u outputs differ\n", mutations[i].what, differ,
               LS_FLOAT_VIF_N_NAMES);
    }
    free_pair(&ref, &dis);

    /* per pixel, where a one-ulp difference cannot be absorbed by the sums: the statistic of
     * both units equals the model's, and the model with libm's log2f differs */
    const unsigned w = 4096;
    float *q[LS_FLOAT_VIF_NQ], *num = malloc(w * 4), *den = malloc(w * 4);
    for (int k = 0; k < LS_FLOAT_VIF_NQ; k++)
        q[k] = malloc(w * sizeof(float));
    stat_inputs(0, w, q);
    const LsFloatVifStatParams p = { 2.0, 100.0f, 0x1.020304p-14f };
    const Mutation libm = { .libm_log2 = true };
    for (int v = 0; v < 2; v++) {
        LsFloatVifDsp dsp;
        ls_float_vif_dsp_init(&dsp, v ? ls_cpu_detect() : 0);
        dsp.stat((const float *const *)q, w, &p, num, den);
        unsigned same = 0, mutated = 0;
        for (unsigned x = 0; x < w; x++) {
            float n0, d0, n1, d1;
            m_stat(q[0][x], q[1][x], q[2][x], q[3][x], q[4][x], &model_defaults, &none, &n0, &d0);
            m_stat(q[0][x], q[1][x], q[2][x], q[3][x], q[4][x], &model_defaults, &libm, &n1, &d1);
            same += float_bits(n0) == float_bits(num[x]) && float_bits(d0) == float_bits(den[x]);
            mutated += float_bits(n1) != float_bits(num[x]) || float_bits(d1) != float_bits(den[x]);
        }
        CHECK(same == w, "statistic (%s): %u of %u pixels equal the model", v ? "dispatched" : "c",
              same, w);
        CHECK(mutated > 0, "mutation \"libm log2f\" not detected per pixel");
        if (v)
            printf("mutation \"libm log2f\", per pixel: %u of %u pixels differ\n", mutated, w);
    }
    for (int k = 0; k < LS_FLOAT_VIF_NQ; k++)
        free(q[k]);
    free(num);
    free(den);
}

/* ---- statistic semantics, by hand ---- */

static void test_statistic(void)
{
    const LsFloatVifStatParams p = { 2.0, 100.0f, 0x1.020304p-14f };
    float n, d;
    /* flat: (double)s1 < nsq overrides with 1 - s2 * smi and 1 */
    ls_float_vif_statistic(10.0f, 20.0f, 101.0f, 403.0f, 200.0f, &p, &n, &d);
    CHECK(float_bits(n) == float_bits(1.0f - 3.0f * p.sigma_max_inv) && d == 1.0f, "flat: %a %a", n,
          d);
    /* negative covariance: num = 0, den from s1 */
    ls_float_vif_statistic(0.0f, 0.0f, 50.0f, 50.0f, -40.0f, &p, &n, &d);
    CHECK(n == 0.0f && float_bits(d) == float_bits(ls_float_vif_log2(1.0f + 25.0f)),
          "negative covariance: %a %a", n, d);
    /* the gain limit applies after sv: egl = 1 with a gain of 2 */
    const LsFloatVifStatParams p1 = { 2.0, 1.0f, 0x1.020304p-14f };
    ls_float_vif_statistic(0.0f, 0.0f, 16.0f, 64.0f, 32.0f, &p1, &n, &d);
    const float g = 32.0f / (16.0f + LS_FLOAT_VIF_EPS), sv = 64.0f - g * 32.0f;
    const float sv_c = sv > LS_FLOAT_VIF_EPS ? sv : LS_FLOAT_VIF_EPS;
    const float want =
        ls_float_vif_log2((float)(1.0 + (double)(1.0f * 16.0f) / ((double)sv_c + 2.0)));
    CHECK(float_bits(n) == float_bits(want), "gain limit: %a != %a", n, want);
    /* LOG2 by the bit formula: powers of two exact, +inf gives 128 */
    CHECK(ls_float_vif_log2(1.0f) == 0.0f && ls_float_vif_log2(8.0f) == 3.0f &&
              ls_float_vif_log2(INFINITY) == 128.0f,
          "log2 of 1, 8, inf: %a %a %a", ls_float_vif_log2(1.0f), ls_float_vif_log2(8.0f),
          ls_float_vif_log2(INFINITY));
    CHECK(float_bits(ls_float_vif_log2(3.0f)) != float_bits(log2f(3.0f)),
          "log2(3) equals libm's: the approximation is not exercised");
    /* windows from the value given, not the table entry (§4.2) */
    CHECK(ls_float_vif_window(0, 1.0f) == 17 && ls_float_vif_window(3, 1.0f) == 3 &&
              ls_float_vif_window(0, 1.5f) == 27 && ls_float_vif_window(3, 1.5f) == 5 &&
              ls_float_vif_window(0, 1.0005f) == 19 && ls_float_vif_window(3, 0.5f) == 3,
          "window sizes");
    printf("statistic: flat, negative covariance, gain limit, log2 and windows by hand\n");
}

/* ---- names (options.md §5) ---- */

static void expect_names(const Opt *opts, unsigned n_opts, const char *const *want)
{
    VmafPicture ref, dis;
    make_pair(&ref, &dis, 8, 40, 40, 0);
    char names[LS_FLOAT_VIF_N_NAMES][256];
    unsigned n = 0, k = 0;
    run_fex(opts, n_opts, &ref, &dis, 0, NULL, names, &n);
    for (; want[k]; k++)
        CHECK(k < n && !strcmp(names[k], want[k]), "name %u: %s, expected %s", k,
              k < n ? names[k] : "-", want[k]);
    CHECK(n == k, "%u names written, expected %u", n, k);
    free_pair(&ref, &dis);
}

static void test_names(void)
{
    expect_names(NULL, 0,
                 (const char *[]){ "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
                                   "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
                                   NULL });
    expect_names(
        (Opt[]){ { "vif_enhn_gain_limit", "100" }, { "vif_prescale_method", "nearest" } }, 2,
        (const char *[]){ "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
                          "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score", NULL });
    expect_names((Opt[]){ { "vif_enhn_gain_limit", "1" } }, 1,
                 (const char *[]){ "vif_scale0_egl_1", "vif_scale1_egl_1", "vif_scale2_egl_1",
                                   "vif_scale3_egl_1", NULL });
    expect_names((Opt[]){ { "vif_prescale_method", "bicubic" },
                          { "vif_prescale", "2" },
                          { "vif_kernelscale", "0.5" } },
                 3,
                 (const char *[]){ "vif_scale0_ks_0.5_ps_2_pm_bicubic",
                                   "vif_scale1_ks_0.5_ps_2_pm_bicubic",
                                   "vif_scale2_ks_0.5_ps_2_pm_bicubic",
                                   "vif_scale3_ks_0.5_ps_2_pm_bicubic", NULL });
    expect_names((Opt[]){ { "vif_skip_scale0", "true" } }, 1,
                 (const char *[]){ "vif_scale0_ssclz", "vif_scale1_ssclz", "vif_scale2_ssclz",
                                   "vif_scale3_ssclz", NULL });
    expect_names((Opt[]){ { "vif_sigma_nsq", "1.5" }, { "vif_scale2_min_val", "0.25" } }, 2,
                 (const char *[]){
                     "vif_scale0_s2miv_0.25_snsq_1.5", "vif_scale1_s2miv_0.25_snsq_1.5",
                     "vif_scale2_s2miv_0.25_snsq_1.5", "vif_scale3_s2miv_0.25_snsq_1.5", NULL });
    expect_names((Opt[]){ { "debug", "true" }, { "vif_enhn_gain_limit", "1" } }, 2,
                 (const char *[]){ "vif_scale0_egl_1", "vif_scale1_egl_1", "vif_scale2_egl_1",
                                   "vif_scale3_egl_1", "vif_egl_1", "vif_num_egl_1",
                                   "vif_den_egl_1", "vif_num_scale0_egl_1", "vif_den_scale0_egl_1",
                                   "vif_num_scale1_egl_1", "vif_den_scale1_egl_1",
                                   "vif_num_scale2_egl_1", "vif_den_scale2_egl_1",
                                   "vif_num_scale3_egl_1", "vif_den_scale3_egl_1", NULL });
    printf("names: done\n");
}

/* ---- refusals, both sides of each limit ---- */

static void expect_init(const Opt *opts, unsigned n_opts, unsigned bpc, unsigned w, unsigned h,
                        const char *text)
{
    VmafPicture ref, dis;
    make_pair(&ref, &dis, bpc < 8 || bpc > 16 ? 8 : bpc, w, h, 0);
    ref.bpc = dis.bpc = bpc;
    const int err = run_fex(opts, n_opts, &ref, &dis, ls_cpu_detect(), NULL, NULL, NULL);
    if (text)
        CHECK(err == -EINVAL && strstr(lockstep_last_error(), text),
              "%ux%u bpc %u (%s): expected a refusal with \"%s\", got %d \"%s\"", w, h, bpc,
              n_opts ? opts[0].key : "-", text, err, err ? lockstep_last_error() : "");
    else
        CHECK(err == 0, "%ux%u bpc %u (%s): refused: %s", w, h, bpc, n_opts ? opts[0].key : "-",
              lockstep_last_error());
    if (text && err == -EINVAL)
        printf("refusal: %s\n", lockstep_last_error());
    free_pair(&ref, &dis);
}

static void test_refusals(void)
{
    /* default windows 17/9/5/3: scale 3 needs 2 samples, so 16 */
    expect_init(NULL, 0, 8, 15, 16, "needs at least 16x16");
    expect_init(NULL, 0, 8, 16, 15, "needs at least 16x16");
    expect_init(NULL, 0, 8, 7, 7, "7x7 luma is too small");
    expect_init(NULL, 0, 8, 16, 16, NULL);
    /* 65/35/19/13: scale 3 needs 7 samples, so 56 */
    const Opt ks[1] = { { "vif_kernelscale", "3.71134" } };
    expect_init(ks, 1, 8, 55, 56, "needs at least 56x56");
    expect_init(ks, 1, 8, 56, 56, NULL);
    /* 35/19/11/7: 32; scale 3 sets the limit, with or without scale 0 */
    const Opt ks2[2] = { { "vif_kernelscale", "2" }, { "vif_skip_scale0", "true" } };
    expect_init(ks2, 1, 8, 32, 31, "needs at least 32x32");
    expect_init(ks2, 2, 8, 31, 32, "needs at least 32x32");
    expect_init(ks2, 2, 8, 32, 32, NULL);
    /* prescaling: the working size counts, the message gives the input size too */
    const Opt half[1] = { { "vif_prescale", "0.5" } };
    expect_init(half, 1, 8, 30, 40, "(input 31x31)");
    expect_init(half, 1, 8, 31, 32, NULL);
    const Opt lanczos[2] = { { "vif_prescale", "4" }, { "vif_prescale_method", "lanczos4" } };
    expect_init(lanczos, 2, 8, 5, 8, "vif_prescale_method=lanczos4");
    expect_init(lanczos, 2, 8, 6, 6, NULL);
    const Opt bilinear[2] = { { "vif_prescale", "4" }, { "vif_prescale_method", "bilinear" } };
    expect_init(bilinear, 2, 8, 1921, 16, "up to 7680");
    expect_init(bilinear, 2, 8, 1920, 16, NULL);
    const Opt method[1] = { { "vif_prescale_method", "area" } };
    expect_init(method, 1, 8, 32, 32, "invalid vif_prescale_method \"area\"");
    const Opt badks[1] = { { "vif_kernelscale", "1.2" } };
    expect_init(badks, 1, 8, 32, 32, "invalid vif_kernelscale 1.2");
    const Opt nearks[1] = { { "vif_kernelscale", "1.0009" } };
    expect_init(nearks, 1, 8, 32, 32, NULL);
    expect_init(NULL, 0, 9, 32, 32, "bit depth 9 is not supported");
    expect_init(NULL, 0, 14, 32, 32, "bit depth 14 is not supported");
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
    const unsigned w = 1920, h = 1080, reps = 5;
    VmafPicture ref, dis;
    make_pair(&ref, &dis, 8, w, h, 0);
    const Opt none[1] = { { "debug", "false" } };
    Variant vs[2];
    const unsigned n = variants(vs);
    for (unsigned v = 0; v <= n; v++) {
        const uint64_t flags = v ? vs[v - 1].flags : 0;
        double out[LS_FLOAT_VIF_N_NAMES];
        const double t0 = now();
        for (unsigned r = 0; r < reps; r++)
            run_fex(none, 1, &ref, &dis, flags, out, NULL, NULL);
        printf("bench %s: 1920x1080 8-bit, %.2f ms per frame (vif_scale0 %.17g)\n",
               v ? vs[v - 1].name : "c", (now() - t0) * 1e3 / reps, out[0]);
    }
    free_pair(&ref, &dis);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_float_vif FLOAT_VIF_JSON [--bench]\n");
        return 2;
    }
    if (argc > 2 && !strcmp(argv[2], "--bench")) {
        bench();
        return 0;
    }
    test_tables(argv[1]);
    test_checkasm();
    test_statistic();
    test_model();
    test_depth_identity();
    test_extractor_parity();
    test_mutations();
    test_names();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_float_vif: %d failures\n", failures);
    else
        printf("test_float_vif: all passed\n");
    return failures ? 1 : 0;
}
