/* SpEED (speed_chroma, speed_temporal): the constants against tables/speed.json, the AVX2 and
 * AVX-512 units against the C reference (checkasm-style: random, extreme, constant and odd
 * sizes, exact comparison), and both extractors through the public API against an independent
 * model written here from speed.md §3-§8: whole-picture arrays, the resampler and the two
 * Gaussian filters applied to the whole working picture before the decimation, the covariance
 * pair by pair, the solve, the entropies, weights and pooling written out again (only the
 * eigenvalue routine, checked value for value by the goldens, is the library's). Cases: every
 * pixel format and bit depth, odd and minimum sizes, every option, weight mode and prescale
 * method, speed_use_ref_diff, one singular side; on the C, AVX2 and default paths and with two
 * threads. Then output names, the bit-depth identity and the refusals on both sides of each
 * limit, with their texts.
 * Built a second time with LS_MUTATE_MODEL (the model's anti-alias filter takes the local-mean
 * Gaussian's standard deviation N/5, a mistake the spec names): that binary passes only if the
 * comparison with the model catches it.
 * usage: test_speed SPEED_JSON | --bench */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/speed.h"

/* M_PI and M_E as glibc's math.h spells them (not in strict C11) */
#define PI 3.14159265358979323846
#define EULER_E 2.7182818284590452354

static uint64_t rng_state = 0x7370656564763130ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* ---- tables ---- */

static void test_tables(const char *path)
{
    char *json = read_file(path);
    CHECK(json != NULL, "cannot read %s", path);
    if (!json)
        return;
    unsigned n_taps = 0;
    const char *aa = json_after(json, "antialias_taps_by_width");
    const char *s4 = json_after(json, "scale4_taps_by_width");
    for (int w = 3; w <= LS_SPEED_MAX_ANTIALIAS_TAPS; w += 2) {
        char key[8];
        snprintf(key, sizeof(key), "%d", w);
        const char *pos = json_after(json_after(json_after(aa, "widths"), key), "taps_hex");
        for (int k = 0; pos && k < w; k++, n_taps++) {
            const float t = (float)next_number(&pos);
            const float have = ls_speed_antialias_taps[LS_SPEED_ANTIALIAS_OFFSET(w) + k];
            CHECK(float_bits(t) == float_bits(have), "anti-alias width %d tap %d: %a, table %a",
                  w, k, (double)have, (double)t);
        }
        CHECK(pos != NULL, "anti-alias width %d missing", w);
    }
    for (int w = 3; w <= 11; w += 2) {
        char key[8];
        snprintf(key, sizeof(key), "%d", w);
        const char *pos = json_after(json_after(json_after(s4, "widths"), key), "taps_hex");
        for (int k = 0; pos && k < w; k++, n_taps++) {
            const float t = (float)next_number(&pos);
            const float have = ls_float_vif_taps[LS_FLOAT_VIF_TAPS_OFFSET(w) + k];
            CHECK(float_bits(t) == float_bits(have), "local-mean width %d tap %d", w, k);
        }
        CHECK(pos != NULL, "local-mean width %d missing", w);
    }
    /* every valid kernel scale: accepted, and the widths of the table */
    const char *pos = json_after(json_after(json, "valid_kernelscales"), "values");
    unsigned n_scales = 0;
    while ((pos = json_after(pos, "value_hex")) != NULL) {
        const float v = (float)next_number(&pos);
        const char *wpos = json_after(pos, "antialias_width");
        const int aw = (int)next_number(&wpos);
        wpos = json_after(pos, "scale4_width");
        const int mw = (int)next_number(&wpos);
        CHECK(ls_float_vif_kernelscale_valid(v), "kernel scale %a refused", (double)v);
        CHECK(ls_speed_antialias_width(v) == aw && ls_speed_mean_width(v) == mw,
              "kernel scale %a: widths %d/%d, table %d/%d", (double)v,
              ls_speed_antialias_width(v), ls_speed_mean_width(v), aw, mw);
        n_scales++;
    }
    CHECK(n_scales == 21, "%u kernel scales in the table", n_scales);
    CHECK(!ls_float_vif_kernelscale_valid(0.9f) && !ls_float_vif_kernelscale_valid(1.002f) &&
              ls_float_vif_kernelscale_valid(1.0009f),
          "kernel scale tolerance");
    pos = json_after(json_after(json, "log2_2pie"), "float64_hex");
    const double c = next_number(&pos);
    CHECK(double_bits(c) == double_bits(LS_SPEED_LOG2_2PIE), "log2(2 pi e) %a", c);
    CHECK(double_bits(log2(2.0 * PI * EULER_E)) == double_bits(LS_SPEED_LOG2_2PIE),
          "log2(2 pi e) from glibc");
    pos = json_after(json_after(json_after(json, "thresholds"), "eigenvalue_eps"), "float64_hex");
    CHECK(next_number(&pos) == LS_SPEED_EPS, "eigenvalue threshold");
    pos = json_after(json_after(json, "thresholds"), "max_qr_iterations");
    CHECK(next_number(&pos) == LS_SPEED_MAX_QR_STEPS, "QR step limit");
    printf("tables: %u taps, %u kernel scales\n", n_taps, n_scales);
    free(json);
}

/* ---- checkasm: SIMD units vs C ---- */

static const struct { const char *name; uint64_t flags; } levels[] = {
    { "AVX2", LS_CPU_FLAG_AVX2 },
    { "AVX-512", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 },
};

static bool same_float(float a, float b)
{
    return float_bits(a) == float_bits(b) || (isnan(a) && isnan(b));
}

static void fill_residual(float *R, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: R[i] = (float)((int)(rnd() % 2001) - 1000) / 64.0f; break;            /* random */
        case 1: R[i] = (float)(int32_t)rnd() * 0x1p-8f * (rnd() & 1 ? 1.0f : -1.0f); break;
        case 2: R[i] = 3.25f; break;                                                    /* flat */
        case 3: R[i] = (rnd() & 1) ? 255.0f : -255.0f; break;                         /* extreme */
        default: R[i] = ldexpf((float)(rnd() % 1000) + 1.0f, (int)(rnd() % 40) - 30); break;
        }
    }
}

static unsigned checkasm_cases;

static void test_checkasm(void)
{
    LsSpeedDsp c, v[2];
    ls_speed_dsp_init(&c, 0);
    const uint64_t have = ls_cpu_detect();
    for (int l = 0; l < 2; l++) {
        if ((have & levels[l].flags) != levels[l].flags) {
            printf("SKIP: %s units (not on this CPU)\n", levels[l].name);
            continue;
        }
        ls_speed_dsp_init(&v[l], levels[l].flags);
        /* covariance: sizes from one patch position to 4K-like, odd and even */
        static const unsigned sizes[][2] = { { 1, 1 }, { 1, 7 }, { 6, 1 }, { 11, 6 }, { 13, 9 },
                                             { 56, 26 }, { 31, 17 }, { 116, 61 } };
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int kind = 0; kind < 5; kind++) {
                const unsigned sw = sizes[s][0], sh = sizes[s][1];
                const unsigned w = sw + 4 + rnd() % 3, h = sh + 4;
                float *R = malloc(sizeof(float) * (w * h + LS_SPEED_R_SLACK));
                fill_residual(R, (size_t)w * h + LS_SPEED_R_SLACK, kind);
                void *tmp = malloc(ls_speed_cov_tmp_size(sw, sh));
                LsSpeedMatrix K0, K1;
                memset(K0, 0, sizeof(K0));
                memset(K1, 0, sizeof(K1));
                c.covariance(R, (ptrdiff_t)w, sw, sh, K0, tmp);
                v[l].covariance(R, (ptrdiff_t)w, sw, sh, K1, tmp);
                int bad = 0;
                for (int p = 0; p < LS_SPEED_NP; p++)
                    for (int q = 0; q < LS_SPEED_NP; q++)
                        bad += !same_float(K0[p][q], K1[p][q]);
                CHECK(!bad, "%s covariance %ux%u kind %d: %d entries differ", levels[l].name, sw,
                      sh, kind, bad);
                checkasm_cases++;
                free(tmp);
                free(R);
            }
        /* products: square (the solve) and 25 x m (the blocks), every width class */
        static const unsigned widths[] = { 1, 6, 16, 25, 31, 33, 47, 72, 100, 312, 1296 };
        for (unsigned s = 0; s < sizeof(widths) / sizeof(widths[0]); s++)
            for (int kind = 0; kind < 5; kind++) {
                const unsigned m = widths[s], stride = ls_speed_pad16(m) + (s & 1 ? 16 : 0);
                LsSpeedMatrix P;
                fill_residual(&P[0][0], sizeof(P) / sizeof(float), kind == 2 ? 0 : kind);
                float *Q = malloc(sizeof(float) * LS_SPEED_NP * stride);
                float *o0 = malloc(sizeof(float) * LS_SPEED_NP * stride);
                float *o1 = malloc(sizeof(float) * LS_SPEED_NP * stride);
                fill_residual(Q, (size_t)LS_SPEED_NP * stride, kind);
                c.mul(P, Q, stride, m, o0, stride);
                v[l].mul(P, Q, stride, m, o1, stride);
                int bad = 0;
                for (int a = 0; a < LS_SPEED_NP; a++)
                    for (unsigned x = 0; x < m; x++)
                        bad += !same_float(o0[a * stride + x], o1[a * stride + x]);
                CHECK(!bad, "%s mul 25x%u kind %d: %d entries differ", levels[l].name, m, kind,
                      bad);
                checkasm_cases++;
                free(Q);
                free(o0);
                free(o1);
            }
    }
    /* bilinear rows vs float_vif's resampler (the reference's scaler), down and up */
    static const unsigned scales[][2] = { { 960, 480 }, { 288, 173 }, { 175, 350 }, { 100, 137 },
                                          { 37, 80 }, { 333, 111 } };
    for (int l = 0; l < 2; l++) {
        if ((have & levels[l].flags) != levels[l].flags)
            continue;
        for (unsigned s = 0; s < sizeof(scales) / sizeof(scales[0]); s++) {
            const unsigned n_in = scales[s][0], n_out = scales[s][1];
            LsFloatVifAxis ax = { 0 }, ay = { 0 };
            CHECK(ls_float_vif_axis_init(&ax, LS_FLOAT_VIF_BILINEAR, n_in, n_out) &&
                      ls_float_vif_axis_init(&ay, LS_FLOAT_VIF_BILINEAR, n_in, n_out),
                  "axis %u -> %u", n_in, n_out);
            int32_t *x1 = malloc(n_out * sizeof(int32_t)), *x2 = malloc(n_out * sizeof(int32_t));
            float *dx = malloc(n_out * sizeof(float)), *in = malloc(2 * n_in * sizeof(float));
            float *o0 = malloc(n_out * sizeof(float)), *o1 = malloc(n_out * sizeof(float));
            for (unsigned x = 0; x < n_out; x++)
                x1[x] = ax.idx[2 * x], x2[x] = ax.idx[2 * x + 1], dx[x] = ax.weight[2 * x];
            for (int kind = 0; kind < 5; kind++) {
                fill_residual(in, 2 * (size_t)n_in, kind);
                for (unsigned y = 0; y < n_out; y += 7) {
                    const int32_t rows[2] = { 0, 1 };
                    ls_float_vif_resample_row(LS_FLOAT_VIF_BILINEAR, &ax, in, (ptrdiff_t)n_in,
                                              rows, ay.weight + 2 * y, o0);
                    v[l].bilinear_row(x1, x2, dx, n_out, in, in + n_in, ay.weight[2 * y], o1);
                    int bad = 0;
                    for (unsigned x = 0; x < n_out; x++)
                        bad += !same_float(o0[x], o1[x]);
                    CHECK(!bad, "%s bilinear %u -> %u row %u kind %d: %d differ", levels[l].name,
                          n_in, n_out, y, kind, bad);
                    checkasm_cases++;
                }
            }
            free(x1), free(x2), free(dx), free(in), free(o0), free(o1);
            ls_float_vif_axis_free(&ax);
            ls_float_vif_axis_free(&ay);
        }
    }
    printf("checkasm: %u cases\n", checkasm_cases);
}

/* ---- the model (speed.md, written independently of the library) ---- */

typedef struct Opts {
    const char *text[16]; /* key, value pairs for the dictionary, NULL-terminated */
    double ks, ps, snn, nnf, mxv;
    int wvm;
    bool urd;
    const char *psm;
} Opts;

/* options.md §3.3: a number reaches the extractor as strtod("%g" of strtof(text)) */
static double normalised(const char *text)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%g", (double)strtof(text, NULL));
    return strtod(buf, NULL);
}

static Opts parse_opts(const char *const *kv)
{
    Opts o = { .ks = 1.0, .ps = 1.0, .snn = 0.29, .nnf = 0.0, .mxv = 1000.0, .psm = "nearest" };
    for (int i = 0; kv && kv[i]; i += 2) {
        o.text[i] = kv[i];
        o.text[i + 1] = kv[i + 1];
        const char *k = kv[i], *v = kv[i + 1];
        if (!strcmp(k, "speed_kernelscale")) o.ks = normalised(v);
        else if (!strcmp(k, "speed_prescale")) o.ps = normalised(v);
        else if (!strcmp(k, "speed_sigma_nn")) o.snn = normalised(v);
        else if (!strcmp(k, "speed_nn_floor")) o.nnf = normalised(v);
        else if (!strcmp(k, "speed_max_val")) o.mxv = normalised(v);
        else if (!strcmp(k, "speed_weight_var_mode")) o.wvm = atoi(v);
        else if (!strcmp(k, "speed_use_ref_diff")) o.urd = !strcmp(v, "true");
        else if (!strcmp(k, "speed_prescale_method")) o.psm = v;
    }
    return o;
}

typedef struct Plane {
    int w, h;
    float *v;
} Plane;

static float *at(const Plane *p, int y, int x) { return p->v + (size_t)y * p->w + x; }

static Plane plane_new(int w, int h)
{
    return (Plane){ w, h, calloc((size_t)w * h, sizeof(float)) };
}

static int refl(int m, int n) { return m < 0 ? -m : (m >= n ? 2 * n - m - 2 : m); }

static float fmirror(float t, int n)
{
    if (t < 0.0f)
        return -t;
    if (t > (float)(n - 1))
        return 2.0f * (float)(n - 1) - t;
    return t;
}

static float cubic(float t)
{
    const float a = -0.75f;
    t = fabsf(t);
    if (t < 1.0f)
        return (((1.25f * t) - 2.25f) * t) * t + 1.0f;
    if (t < 2.0f)
        return ((((t - 5.0f) * t) + 8.0f) * t - 4.0f) * a;
    return 0.0f;
}

static float lanczos(float t)
{
    if (t == 0.0f)
        return 1.0f;
    if (t > -4.0f && t < 4.0f) {
        const double d = t;
        return (float)(((4.0 * sin(PI * d)) * sin((PI * d) / 4.0)) / ((PI * PI * d) * d));
    }
    return 0.0f;
}

/* §4.3 */
static Plane model_resample(const Plane *in, int ws, int hs, const char *method)
{
    Plane out = plane_new(ws, hs);
    float *wcol = malloc(sizeof(float) * 9 * (size_t)ws);
    float *wrow = malloc(sizeof(float) * 9 * (size_t)hs);
    const float rx = (float)in->w / (float)ws, ry = (float)in->h / (float)hs;
    for (int y = 0; y < hs; y++)
        for (int x = 0; x < ws; x++) {
            float v;
            const float xx = (float)(((double)x + 0.5) * (double)rx - 0.5);
            const float yy = (float)(((double)y + 0.5) * (double)ry - 0.5);
            if (!strcmp(method, "nearest")) {
                v = *at(in, (int)((float)y * ry), (int)((float)x * rx));
            } else if (!strcmp(method, "bilinear")) {
                const int x1 = (int)fmirror((float)floor(xx), in->w);
                const int x2 = (int)fmirror((float)ceil(xx), in->w);
                const int y1 = (int)fmirror((float)floor(yy), in->h);
                const int y2 = (int)fmirror((float)ceil(yy), in->h);
                const float dx = xx - (float)x1, dy = yy - (float)y1;
                const float a = (1.0f - dy) * (1.0f - dx), b = (1.0f - dy) * dx;
                const float c = dy * (1.0f - dx), d = dy * dx;
                v = a * *at(in, y1, x1) + b * *at(in, y1, x2) + c * *at(in, y2, x1) +
                    d * *at(in, y2, x2);
            } else {
                const int lanc = !strcmp(method, "lanczos4");
                const int lo = lanc ? -4 : -1, hi = lanc ? 4 : 2;
                const int x0 = (int)floor(xx), y0 = (int)floor(yy);
                const float dx = xx - (float)x0, dy = yy - (float)y0;
                /* the weights depend on the column (row) only: formed once per column (row) */
                float *wx = wcol + (size_t)x * 9, *wy = wrow + (size_t)y * 9;
                if (y == 0)
                    for (int i = lo; i <= hi; i++)
                        wx[i - lo] = lanc ? lanczos((float)i - dx) : cubic((float)i - dx);
                if (x == 0)
                    for (int j = lo; j <= hi; j++)
                        wy[j - lo] = lanc ? lanczos((float)j - dy) : cubic((float)j - dy);
                float acc = 0.0f, wsum = 0.0f;
                for (int j = lo; j <= hi; j++)
                    for (int i = lo; i <= hi; i++) {
                        const float w = wx[i - lo] * wy[j - lo];
                        wsum = wsum + w;
                        acc = acc + *at(in, (int)fmirror((float)(y0 + j), in->h),
                                        (int)fmirror((float)(x0 + i), in->w)) * w;
                    }
                v = lanc ? acc / wsum : acc;
            }
            *at(&out, y, x) = v;
        }
    free(wcol);
    free(wrow);
    return out;
}

/* §4.4: the whole picture, vertical pass first, reflect-101 */
static Plane model_gauss(const Plane *X, const float *f, int n)
{
    Plane t = plane_new(X->w, X->h), out = plane_new(X->w, X->h);
    const int r = n / 2;
    for (int i = 0; i < X->h; i++)
        for (int j = 0; j < X->w; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = acc + f[k] * *at(X, refl(i - r + k, X->h), j);
            *at(&t, i, j) = acc;
        }
    for (int i = 0; i < X->h; i++)
        for (int j = 0; j < X->w; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = acc + f[k] * *at(&t, i, refl(j - r + k, X->w));
            *at(&out, i, j) = acc;
        }
    free(t.v);
    return out;
}

typedef struct ModelStats {
    float lambda[25], var[4096], ent[4096];
    bool err;
} ModelStats;

static int odd_up(float f)
{
    const int c = (int)ceil((double)f);
    const int o = c % 2 ? c : c + 1;
    return o < 3 ? 3 : o;
}

/* §4.2 taps of width n and standard deviation sd, as the tables' derivation states */
static const float *antialias_taps(int n)
{
#ifdef LS_MUTATE_MODEL
    return ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(n); /* sigma N/5: wrong on purpose */
#else
    return ls_speed_antialias_taps + LS_SPEED_ANTIALIAS_OFFSET(n);
#endif
}

static void mat_mul(const float A[25][25], const float *B, int m, float *out)
{
    for (int a = 0; a < 25; a++)
        for (int c = 0; c < m; c++) {
            float acc = 0.0f;
            for (int k = 0; k < 25; k++)
                acc = acc + A[a][k] * B[k * m + c];
            out[a * m + c] = acc;
        }
}

static float model_norm(const float *u)
{
    float s = 0.0f;
    for (int a = 0; a < 25; a++)
        s = s + u[a] * u[a];
    return sqrtf(s);
}

/* §5: the statistics of a residual of tw x th used samples */
static void model_stats(const Plane *R, int tw, int th, float sn, ModelStats *st)
{
    const int sw = tw - 4, sh = th - 4, nbh = tw / 5, nb = nbh * (th / 5);
    const unsigned n = (unsigned)(sw * sh);
    float mu[25], K[25][25];
    for (int p = 0; p < 25; p++) {
        float s = 0.0f;
        for (int i = 0; i < sh; i++)
            for (int j = 0; j < sw; j++)
                s = s + *at(R, p / 5 + i, p % 5 + j);
        mu[p] = s / (float)n;
    }
    for (int p = 0; p < 25; p++)
        for (int q = 0; q <= p; q++) {
            double t = 0.0;
            for (int i = 0; i < sh; i++)
                for (int j = 0; j < sw; j++)
                    t = t + ((double)*at(R, p / 5 + i, p % 5 + j) - (double)mu[p]) *
                                ((double)*at(R, q / 5 + i, q % 5 + j) - (double)mu[q]);
            K[p][q] = K[q][p] = (float)(t / (double)n);
        }
    LsSpeedMatrix A;
    for (int p = 0; p < 25; p++)
        for (int q = 0; q < 25; q++)
            A[p][q] = K[p][q];
    ls_speed_eigenvalues(A, st->lambda);
    float *Y = calloc((size_t)25 * nb, sizeof(float)), *X = calloc((size_t)25 * nb, sizeof(float));
    for (int p = 0; p < 25; p++)
        for (int b = 0; b < nb; b++)
            Y[p * nb + b] = *at(R, 5 * (b / nbh) + p / 5, 5 * (b % nbh) + p % 5);
    bool singular = false;
    for (int i = 0; i < 25; i++)
        singular = singular || (double)st->lambda[i] < 1e-6;
    if (!singular) {
        float Z[25][25], Q[25][25], H[25][25], T[25][25], Rm[25][25], u[25];
        memcpy(Z, K, sizeof(Z));
        for (int a = 0; a < 25; a++)
            for (int c = 0; c < 25; c++)
                Q[a][c] = a == c ? 1.0f : 0.0f;
        for (int k = 0; k < 24; k++) {
            for (int a = 0; a < 25; a++)
                for (int c = 0; c < 25; c++)
                    if (a < k || c < k)
                        Z[a][c] = a == c ? 1.0f : 0.0f;
            for (int a = 0; a < 25; a++)
                u[a] = Z[a][k];
            const float nrm = model_norm(u);
            u[k] = u[k] + (K[k][k] >= 0.0f ? nrm : -nrm);
            const float nrm2 = model_norm(u);
            for (int a = 0; a < 25; a++)
                u[a] = u[a] / nrm2;
            for (int a = 0; a < 25; a++)
                for (int c = 0; c < 25; c++)
                    H[a][c] = (-2.0f * u[a]) * u[c] + (a == c ? 1.0f : 0.0f);
            mat_mul(H, &Z[0][0], 25, &T[0][0]);
            memcpy(Z, T, sizeof(Z));
            mat_mul(H, &Q[0][0], 25, &T[0][0]);
            memcpy(Q, T, sizeof(Q));
        }
        mat_mul(Q, &K[0][0], 25, &Rm[0][0]);
        float *TY = malloc(sizeof(float) * 25 * (size_t)nb);
        mat_mul(Q, Y, nb, TY);
        for (int i = 24; i >= 0 && !singular; i--) {
            const float piv = Rm[i][i];
            if ((double)fabsf(piv) < 1e-6) {
                singular = true;
                break;
            }
            for (int b = 0; b < nb; b++) {
                float t = TY[i * nb + b];
                for (int k = i + 1; k < 25; k++)
                    t = t - X[k * nb + b] * Rm[i][k];
                X[i * nb + b] = t / piv;
            }
        }
        free(TY);
        if (singular)
            memset(X, 0, sizeof(float) * 25 * (size_t)nb);
    }
    st->err = singular;
    for (int b = 0; b < nb; b++) {
        float v = (X[b] * Y[b]) / 25.0f;
        for (int p = 1; p < 25; p++)
            v = v + (X[p * nb + b] * Y[p * nb + b]) / 25.0f;
        st->var[b] = v;
        float e = 0.0f;
        for (int k = 0; k < 25; k++) {
            const float l = st->lambda[k] < 0.0f ? 0.0f : st->lambda[k];
            e = (float)((double)e + (log2((double)(l * v + sn)) + 0x1.06073a671183dp+2));
        }
        st->ent[b] = e;
    }
    free(X);
    free(Y);
}

/* §6 */
static float model_score(const ModelStats *r, const ModelStats *d, int nb, int mode, float sn,
                         float nf)
{
    if (r->err != d->err)
        return 0.0f;
    const float base = (float)(25.0 * (log2((double)((1.0f + nf) * sn)) + 0x1.06073a671183dp+2));
    float acc = 0.0f;
    for (int b = 0; b < nb; b++) {
        if (r->ent[b] < base && d->ent[b] < base)
            continue;
        const float vr = r->var[b], vd = d->var[b];
        const double lr = log2((double)(1.0f + vr)), ld = log2((double)(1.0f + vd));
        const double m3 = log2(1.0 + (double)(vr + vd) / 2.0);
        const double wr[7] = { lr, lr, ld, m3, lr, lr, lr };
        const double wd[7] = { ld, lr, ld, m3, m3,
                               log2(1.0 + (0.75 * (double)vr + 0.25 * (double)vd)),
                               log2(1.0 + (0.25 * (double)vr + 0.75 * (double)vd)) };
        const float sr = (float)((double)r->ent[b] * wr[mode]);
        const float sd = (float)((double)d->ent[b] * wd[mode]);
        acc = acc + fabsf(sr - sd);
    }
    return acc / (float)nb;
}

/* §4 and §5-§6 for one plane pair given as float planes at the plane size */
static float model_plane_score(const Plane *ref, const Plane *dis, const Opts *o, int mode,
                               bool *err)
{
    const float ks = (float)o->ks;
    const int n1 = odd_up(9.0f * ks), n4 = odd_up(2.0f * ks);
    const int ws = (int)(ref->w * o->ps + 0.5), hs = (int)(ref->h * o->ps + 0.5);
    const bool resample = fabs(o->ps - 1.0) >= 1e-3 && (ws != ref->w || hs != ref->h);
    const int wd = ws >> 4, hd = hs >> 4, tw = wd / 5 * 5, th = hd / 5 * 5;
    ModelStats *st = malloc(2 * sizeof(ModelStats));
    const Plane *in[2] = { ref, dis };
    for (int side = 0; side < 2; side++) {
        Plane P = resample ? model_resample(in[side], ws, hs, o->psm) : *in[side];
        Plane A = model_gauss(&P, antialias_taps(n1), n1);
        Plane D = plane_new(wd, hd);
        for (int i = 0; i < hd; i++)
            for (int j = 0; j < wd; j++)
                *at(&D, i, j) = *at(&A, 16 * i, 16 * j);
        Plane M = model_gauss(&D, ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(n4), n4);
        Plane R = plane_new(wd, hd);
        for (int i = 0; i < wd * hd; i++)
            R.v[i] = D.v[i] - M.v[i];
        model_stats(&R, tw, th, (float)o->snn, &st[side]);
        if (resample)
            free(P.v);
        free(A.v), free(D.v), free(M.v), free(R.v);
    }
    const float s = model_score(&st[0], &st[1], (tw / 5) * (th / 5), mode, (float)o->snn,
                                (float)o->nnf);
    *err = st[0].err || st[1].err;
    free(st);
    return s;
}

/* ---- pictures and the public API ---- */

typedef struct Clip {
    unsigned w, h, bpc, frames;
    enum VmafPixelFormat fmt;
    uint16_t *ref[3][3], *dis[3][3]; /* [frame][plane] samples */
    unsigned pw[3], ph[3];           /* stored plane sizes */
} Clip;

static unsigned sub_x(enum VmafPixelFormat f) { return f == VMAF_PIX_FMT_YUV444P ? 0 : 1; }
static unsigned sub_y(enum VmafPixelFormat f) { return f == VMAF_PIX_FMT_YUV420P ? 1 : 0; }

/* textured planes with motion between frames; kind 1: the reference's U plane is flat (one
 * singular side), kind 2: the distorted clip is the reference itself */
static Clip make_clip(unsigned w, unsigned h, unsigned bpc, enum VmafPixelFormat fmt,
                      unsigned frames, int kind)
{
    Clip c = { .w = w, .h = h, .bpc = bpc, .frames = frames, .fmt = fmt };
    const unsigned np = fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3, max = (1u << bpc) - 1;
    for (unsigned pl = 0; pl < 3; pl++) {
        c.pw[pl] = pl ? (w + sub_x(fmt)) >> sub_x(fmt) : w;
        c.ph[pl] = pl ? (h + sub_y(fmt)) >> sub_y(fmt) : h;
    }
    for (unsigned f = 0; f < frames; f++)
        for (unsigned pl = 0; pl < np; pl++) {
            const size_t n = (size_t)c.pw[pl] * c.ph[pl];
            c.ref[f][pl] = malloc(2 * n);
            c.dis[f][pl] = malloc(2 * n);
            for (unsigned y = 0; y < c.ph[pl]; y++)
                for (unsigned x = 0; x < c.pw[pl]; x++) {
                    const unsigned xs = x + 3 * f, ys = y + f;
                    const unsigned base =
                        ((xs / 11) * 37 + (ys / 9) * 17 + ((xs * ys) >> 7) + 50 * pl) % 180 + 30;
                    unsigned r8 = (base + rnd() % 23) & 255;
                    if (kind == 1 && pl == 1)
                        r8 = 128;
                    const unsigned r = (r8 << (bpc - 8)) | (rnd() & ((1u << (bpc - 8)) - 1));
                    const unsigned noise = rnd() % (9u << (bpc - 8));
                    unsigned d = kind == 2 ? r : (r + noise) % (max + 1);
                    if (kind == 1 && pl == 1)
                        d = (128u << (bpc - 8)) + rnd() % (40u << (bpc - 8));
                    c.ref[f][pl][y * c.pw[pl] + x] = (uint16_t)r;
                    c.dis[f][pl][y * c.pw[pl] + x] = (uint16_t)(d > max ? max : d);
                }
        }
    return c;
}

static void free_clip(Clip *c)
{
    for (unsigned f = 0; f < 3; f++)
        for (unsigned pl = 0; pl < 3; pl++) {
            free(c->ref[f][pl]);
            free(c->dis[f][pl]);
        }
}

/* The plane as the extractor sees it: floor(w/2) x floor(h/2) for subsampled chroma (§10.4). */
static Plane clip_plane(const Clip *c, uint16_t *const *s, unsigned pl)
{
    const int w = pl ? (int)(c->w >> sub_x(c->fmt)) : (int)c->w;
    const int h = pl ? (int)(c->h >> sub_y(c->fmt)) : (int)c->h;
    Plane p = plane_new(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            *at(&p, y, x) =
                (float)s[pl][(size_t)y * c->pw[pl] + (unsigned)x] / (float)(1u << (c->bpc - 8)) -
                128.0f;
    return p;
}

static int fill_picture(VmafPicture *pic, const Clip *c, uint16_t *const *s)
{
    int err = vmaf_picture_alloc(pic, c->fmt, c->bpc, c->w, c->h);
    if (err)
        return err;
    const unsigned np = c->fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    for (unsigned pl = 0; pl < np; pl++)
        for (unsigned y = 0; y < c->ph[pl]; y++) {
            uint8_t *row = (uint8_t *)pic->data[pl] + y * pic->stride[pl];
            for (unsigned x = 0; x < c->pw[pl]; x++) {
                if (c->bpc > 8)
                    ((uint16_t *)row)[x] = s[pl][y * c->pw[pl] + x];
                else
                    row[x] = (uint8_t)s[pl][y * c->pw[pl] + x];
            }
        }
    return 0;
}

/* Scores the clip with one extractor; values[f * n_names + i] of the names at frame f. */
static int score(const Clip *c, const char *extractor, const char *const *opts, uint64_t cpumask,
                 unsigned threads, const char *const *names, double *values)
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
    err = vmaf_use_feature(vmaf, extractor, d);
    for (unsigned f = 0; !err && f < c->frames; f++) {
        VmafPicture ref, dis;
        if ((err = fill_picture(&ref, c, c->ref[f])))
            break;
        if ((err = fill_picture(&dis, c, c->dis[f]))) {
            vmaf_picture_unref(&ref);
            break;
        }
        if ((err = vmaf_read_pictures(vmaf, &ref, &dis, f))) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    unsigned n = 0;
    while (names[n])
        n++;
    for (unsigned f = 0; !err && f < c->frames; f++)
        for (unsigned i = 0; !err && i < n; i++)
            err = vmaf_feature_score_at_index(vmaf, names[i], &values[f * n + i], f);
    vmaf_close(vmaf);
    return err;
}

/* options.md §5: the suffix of the FEATURE_PARAM options that differ from their defaults, sorted
 * by option name, "_alias_value" (%g, %d, the string, the bare alias for a bool) */
static void output_names(const Opts *o, bool temporal, char names[3][256])
{
    static const char *const alias_of[8] = { "ks", "mxv", "nnf", "ps", "psm", "snn", "urd",
                                             "wvm" }; /* by option name: ks < mxv < ... */
    struct { const char *alias; char value[64]; bool set; } s[8];
    for (int i = 0; i < 8; i++) {
        s[i].alias = alias_of[i];
        s[i].value[0] = 0;
    }
    const double dv[8] = { o->ks, o->mxv, o->nnf, o->ps, 0, o->snn, 0, 0 };
    const double dd[8] = { 1.0, 1000.0, 0.0, 1.0, 0, 0.29, 0, 0 };
    for (int i = 0; i < 8; i++) {
        if (i == 4) {
            s[i].set = strcmp(o->psm, "nearest") != 0;
            snprintf(s[i].value, sizeof(s[i].value), "_%s", o->psm);
        } else if (i == 6) {
            s[i].set = o->urd;
        } else if (i == 7) {
            s[i].set = o->wvm != 0;
            snprintf(s[i].value, sizeof(s[i].value), "_%d", o->wvm);
        } else {
            s[i].set = dv[i] != dd[i];
            snprintf(s[i].value, sizeof(s[i].value), "_%g", dv[i]);
        }
    }
    char suffix[200] = "";
    for (int i = 0; i < 8; i++)
        if (s[i].set) {
            strcat(suffix, "_");
            strcat(suffix, s[i].alias);
            strcat(suffix, s[i].value);
        }
    static const char *const alias[3] = { "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv" };
    static const char *const full[3] = { "Speed_chroma_feature_speed_chroma_u_score",
                                         "Speed_chroma_feature_speed_chroma_v_score",
                                         "Speed_chroma_feature_speed_chroma_uv_score" };
    for (int i = 0; i < 3; i++) {
        if (temporal && i)
            break;
        const char *a = temporal ? "speed_temporal" : alias[i];
        const char *f = temporal ? "Speed_temporal_feature_speed_temporal_score" : full[i];
        if (suffix[0])
            snprintf(names[i], 256, "%s%s", a, suffix);
        else
            snprintf(names[i], 256, "%s", f);
    }
}

static const struct { const char *name; uint64_t cpumask; } paths[] = {
    { "C", 255 }, { "AVX2", LS_CPU_FLAG_AVX512 }, { "default", 0 },
};

/* The mutant needs only to see the model differ: one path, every fourth case. */
#ifdef LS_MUTATE_MODEL
enum { FIRST_PATH = 2, CASE_STEP = 4 };
#else
enum { FIRST_PATH = 0, CASE_STEP = 1 };
#endif

static unsigned model_values, model_diffs;

static void compare(const char *what, const char *path, unsigned threads, const char *name,
                    unsigned frame, double got, double want)
{
    model_values++;
    if (double_bits(got) == double_bits(want) || (isnan(got) && isnan(want)))
        return;
    model_diffs++;
#ifndef LS_MUTATE_MODEL
    CHECK(0, "%s %s%s: frame %u %s = %.17g, model %.17g", what, path, threads ? " 2 threads" : "",
          frame, name, got, want);
#else
    (void)what, (void)path, (void)threads, (void)name, (void)frame;
#endif
}

/* speed_chroma on every path against the model, every frame, the three outputs. */
static void check_zero(const char *what, const double *want, unsigned n, bool zero)
{
    unsigned nonzero = 0;
    for (unsigned i = 0; i < n; i++)
        nonzero += want[i] != 0.0;
    /* a case whose model is all zeros compares nothing of the statistics */
    CHECK(zero ? nonzero == 0 : nonzero > 0, "%s: %u of %u model values are not 0", what,
          nonzero, n);
}

static void check_chroma(const Clip *c, const char *const *kv, const char *what, bool zero)
{
    const Opts o = parse_opts(kv);
    double want[3][3];
    for (unsigned f = 0; f < c->frames; f++) {
        float s[2];
        bool err[2];
        for (unsigned pl = 1; pl <= 2; pl++) {
            Plane r = clip_plane(c, c->ref[f], pl), d = clip_plane(c, c->dis[f], pl);
            s[pl - 1] = model_plane_score(&r, &d, &o, o.wvm, &err[pl - 1]);
            free(r.v), free(d.v);
        }
        const float uv = err[0] && !err[1]   ? s[1]
                         : err[1] && !err[0] ? s[0]
                                             : (float)((double)(s[0] + s[1]) / 2.0);
        const float out[3] = { s[0], s[1], uv };
        for (int i = 0; i < 3; i++)
            want[f][i] = (double)out[i] < o.mxv ? (double)out[i] : o.mxv;
    }
    check_zero(what, &want[0][0], 3 * c->frames, zero);
    char names[3][256];
    output_names(&o, false, names);
    const char *const list[4] = { names[0], names[1], names[2], NULL };
    for (unsigned k = FIRST_PATH; k < sizeof(paths) / sizeof(paths[0]); k++)
        for (unsigned threads = 0; threads <= (k == 2 ? 2u : 0u); threads += 2) {
            double got[9];
            const int e = score(c, "speed_chroma", kv, paths[k].cpumask, threads, list, got);
            CHECK(!e, "%s %s: error %d (%s)", what, paths[k].name, e, lockstep_last_error());
            for (unsigned f = 0; !e && f < c->frames; f++)
                for (int i = 0; i < 3; i++)
                    compare(what, paths[k].name, threads, names[i], f, got[f * 3 + i],
                            want[f][i]);
        }
}

/* speed_temporal: frame 0 is 0, then the score of the frame differences, never capped. */
static void check_temporal(const Clip *c, const char *const *kv, const char *what, bool zero)
{
    const Opts o = parse_opts(kv);
    double want[3] = { 0.0 };
    for (unsigned f = 1; f < c->frames; f++) {
        Plane pr = clip_plane(c, c->ref[f - 1], 0), pd = clip_plane(c, c->dis[f - 1], 0);
        Plane cr = clip_plane(c, c->ref[f], 0), cd = clip_plane(c, c->dis[f], 0);
        const Plane *cur_d = o.urd ? &cr : &cd;
        Plane dr = plane_new(pr.w, pr.h), dd = plane_new(pr.w, pr.h);
        for (int i = 0; i < pr.w * pr.h; i++) {
            dr.v[i] = pr.v[i] - cr.v[i];
            dd.v[i] = pd.v[i] - cur_d->v[i];
        }
        bool err;
        want[f] = (double)model_plane_score(&dr, &dd, &o, 0, &err);
        free(pr.v), free(pd.v), free(cr.v), free(cd.v), free(dr.v), free(dd.v);
    }
    check_zero(what, want, c->frames, zero);
    char names[3][256];
    output_names(&o, true, names);
    const char *const list[2] = { names[0], NULL };
    for (unsigned k = FIRST_PATH; k < sizeof(paths) / sizeof(paths[0]); k++)
        for (unsigned threads = 0; threads <= (k == 2 ? 2u : 0u); threads += 2) {
            double got[3];
            const int e = score(c, "speed_temporal", kv, paths[k].cpumask, threads, list, got);
            CHECK(!e, "%s %s: error %d (%s)", what, paths[k].name, e, lockstep_last_error());
            for (unsigned f = 0; !e && f < c->frames; f++)
                compare(what, paths[k].name, threads, names[0], f, got[f], want[f]);
        }
}

#define KV(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_model(void)
{
    static const char *const v1[] = { "speed_nn_floor", "0.1", "speed_sigma_nn", "0.19",
                                       "speed_weight_var_mode", "5", "speed_max_val", "45", NULL };
    /* zero: every value is 0 (one block, identical pictures with mode 0); else some are not */
    struct {
        unsigned w, h, bpc, frames;
        enum VmafPixelFormat fmt;
        int kind;
        const char *const *opts;
        bool zero;
    } cases[] = {
        { 576, 324, 8, 2, VMAF_PIX_FMT_YUV420P, 0, NULL, false },
        { 576, 324, 8, 2, VMAF_PIX_FMT_YUV420P, 0, v1, false },
        { 160, 160, 8, 1, VMAF_PIX_FMT_YUV420P, 0, NULL, true }, /* one block */
        { 80, 80, 10, 1, VMAF_PIX_FMT_YUV444P, 0, v1, true },    /* the 4:4:4 minimum */
        { 333, 251, 8, 1, VMAF_PIX_FMT_YUV444P, 0, NULL, false }, /* odd 4:4:4 */
        { 333, 251, 10, 1, VMAF_PIX_FMT_YUV444P, 0, v1, false },
        { 579, 331, 8, 1, VMAF_PIX_FMT_YUV420P, 0, NULL, false }, /* odd 4:2:0: top-left */
        { 577, 180, 10, 1, VMAF_PIX_FMT_YUV422P, 0, v1, false },  /* odd 4:2:2 */
        { 576, 324, 12, 1, VMAF_PIX_FMT_YUV420P, 0, v1, false },
        { 304, 176, 16, 1, VMAF_PIX_FMT_YUV444P, 0, NULL, false },
        { 300, 176, 8, 1, VMAF_PIX_FMT_YUV444P, 1, v1, false },  /* flat reference U */
        { 576, 324, 8, 1, VMAF_PIX_FMT_YUV420P, 2, v1, false },  /* identical, mode 5: not 0 */
        { 576, 324, 8, 1, VMAF_PIX_FMT_YUV420P, 2, NULL, true }, /* identical, mode 0: 0 */
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i += CASE_STEP) {
        Clip c = make_clip(cases[i].w, cases[i].h, cases[i].bpc, cases[i].fmt, cases[i].frames,
                           cases[i].kind);
        char what[96];
        snprintf(what, sizeof(what), "speed_chroma %ux%u %u-bit fmt %d kind %d%s", c.w, c.h, c.bpc,
                 (int)c.fmt, cases[i].kind, cases[i].opts ? " v1 options" : "");
        check_chroma(&c, cases[i].opts, what, cases[i].zero);
        free_clip(&c);
    }

    /* every option and mode, on one 4:4:4 clip (planes large enough for speed_prescale 0.5) */
    const char *const *const opt_sets[] = {
        KV("speed_weight_var_mode", "1"), KV("speed_weight_var_mode", "2"),
        KV("speed_weight_var_mode", "3"), KV("speed_weight_var_mode", "4"),
        KV("speed_weight_var_mode", "6", "speed_nn_floor", "1"),
        KV("speed_kernelscale", "0.5"), KV("speed_kernelscale", "1.5"),
        KV("speed_kernelscale", "2", "speed_sigma_nn", "2"),
        KV("speed_kernelscale", "3.7113", "speed_sigma_nn", "0.1"),
        KV("speed_kernelscale", "1.0005"),
        KV("speed_nn_floor", "0.5", "speed_max_val", "1"), KV("speed_max_val", "0"),
        KV("speed_prescale", "0.5", "speed_prescale_method", "bilinear", "speed_weight_var_mode",
           "5"),
        KV("speed_prescale", "0.6", "speed_prescale_method", "bilinear"),
        KV("speed_prescale", "0.75", "speed_prescale_method", "bicubic"),
        KV("speed_prescale", "0.75", "speed_prescale_method", "lanczos4"),
        KV("speed_prescale", "1.5", "speed_prescale_method", "bicubic"),
        KV("speed_prescale", "2"), KV("speed_prescale", "1.3", "speed_prescale_method", "lanczos4"),
        KV("speed_prescale", "1.5", "speed_prescale_method", "bilinear"),
        KV("speed_prescale", "1.0005"), KV("speed_prescale_method", "bicubic"),
    };
    Clip c = make_clip(576, 324, 8, VMAF_PIX_FMT_YUV444P, 1, 0);
    for (unsigned i = 0; i < sizeof(opt_sets) / sizeof(opt_sets[0]); i += CASE_STEP) {
        char what[160] = "speed_chroma options";
        for (int k = 0; opt_sets[i][k]; k++) {
            strcat(what, k % 2 ? "=" : " ");
            strcat(what, opt_sets[i][k]);
        }
        check_chroma(&c, opt_sets[i], what, !strcmp(opt_sets[i][1], "0") /* speed_max_val=0 */);
    }
    free_clip(&c);

    /* speed_temporal: formats (4:0:0 included), depths, options */
    struct {
        unsigned w, h, bpc;
        enum VmafPixelFormat fmt;
        const char *const *opts;
        bool zero;
    } tcases[] = {
        { 352, 288, 8, VMAF_PIX_FMT_YUV420P, NULL, false },
        { 80, 80, 8, VMAF_PIX_FMT_YUV400P, NULL, true }, /* the minimum: one block */
        { 355, 291, 10, VMAF_PIX_FMT_YUV400P, NULL, false },
        { 352, 288, 12, VMAF_PIX_FMT_YUV422P, KV("speed_use_ref_diff", "true"), false },
        { 352, 288, 16, VMAF_PIX_FMT_YUV444P, KV("speed_max_val", "1"), false },
        { 352, 288, 8, VMAF_PIX_FMT_YUV420P, KV("speed_kernelscale", "1.5", "speed_nn_floor", "1"),
          false },
        { 576, 324, 8, VMAF_PIX_FMT_YUV420P,
          KV("speed_prescale", "0.6", "speed_prescale_method", "bilinear"), false },
        { 352, 288, 8, VMAF_PIX_FMT_YUV420P,
          KV("speed_prescale", "1.5", "speed_prescale_method", "lanczos4"), false },
        { 352, 288, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale", "2", "speed_sigma_nn", "0.1"),
          false },
    };
    for (unsigned i = 0; i < sizeof(tcases) / sizeof(tcases[0]); i += CASE_STEP) {
        Clip t = make_clip(tcases[i].w, tcases[i].h, tcases[i].bpc, tcases[i].fmt, 3, 0);
        char what[160];
        snprintf(what, sizeof(what), "speed_temporal %ux%u %u-bit fmt %d%s%s", t.w, t.h, t.bpc,
                 (int)t.fmt, tcases[i].opts ? " " : "", tcases[i].opts ? tcases[i].opts[0] : "");
        check_temporal(&t, tcases[i].opts, what, tcases[i].zero);
        free_clip(&t);
    }
    printf("model: %u values compared, %u differ\n", model_values, model_diffs);
}

/* ---- outputs, identities and refusals ---- */

static void test_outputs(void)
{
    /* the clips below from a seed of their own: how many draws the SIMD units before took
     * depends on the host (AVX-512 or not) */
    rng_state = 0x6f7574707574730aull;
    /* one singular side (§7): U scores 0, uv is V's score */
    Clip c = make_clip(300, 176, 8, VMAF_PIX_FMT_YUV444P, 1, 1);
    const char *const names[] = { "Speed_chroma_feature_speed_chroma_u_score",
                                  "Speed_chroma_feature_speed_chroma_v_score",
                                  "Speed_chroma_feature_speed_chroma_uv_score", NULL };
    double v[3];
    int err = score(&c, "speed_chroma", NULL, 0, 0, names, v);
    CHECK(!err && v[0] == 0.0 && v[1] > 0.0 && double_bits(v[2]) == double_bits(v[1]),
          "flat reference U: u %.17g, v %.17g, uv %.17g", v[0], v[1], v[2]);
    free_clip(&c);

    /* the v1 names (speed.md §2.4) */
    c = make_clip(576, 324, 8, VMAF_PIX_FMT_YUV444P, 1, 0);
    const char *const v1_names[] = {
        "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5", NULL };
    err = score(&c, "speed_chroma",
                KV("speed_kernelscale", "1.0", "speed_nn_floor", "0.1", "speed_sigma_nn", "0.19",
                   "speed_weight_var_mode", "5", "speed_prescale", "0.5", "speed_prescale_method",
                   "bilinear", "speed_max_val", "45"),
                0, 0, v1_names, v);
    CHECK(!err, "v1 name: %s", lockstep_last_error());
    /* the cap with speed_max_val, and not on speed_temporal */
    const char *const capped[] = { "speed_chroma_u_mxv_0.5", NULL };
    double raw[3];
    err = score(&c, "speed_chroma", NULL, 0, 0, names, raw) ||
          score(&c, "speed_chroma", KV("speed_max_val", "0.5"), 0, 0, capped, v);
    CHECK(!err && raw[0] > 0.5 && v[0] == 0.5, "speed_max_val=0.5: %.17g (uncapped %.17g)", v[0],
          raw[0]);
    free_clip(&c);
    c = make_clip(352, 288, 8, VMAF_PIX_FMT_YUV420P, 2, 0);
    const char *const t_names[] = { "Speed_temporal_feature_speed_temporal_score", NULL };
    const char *const t_capped[] = { "speed_temporal_mxv_1", NULL };
    double t0[2], t1[2];
    err = score(&c, "speed_temporal", NULL, 0, 0, t_names, t0) ||
          score(&c, "speed_temporal", KV("speed_max_val", "1"), 0, 0, t_capped, t1);
    CHECK(!err && t0[0] == 0.0 && t0[1] > 1.0 && double_bits(t1[1]) == double_bits(t0[1]),
          "speed_temporal speed_max_val=1: %.17g, default %.17g", t1[1], t0[1]);
    const char *const urd[] = { "speed_temporal_urd", NULL };
    err = score(&c, "speed_temporal", KV("speed_use_ref_diff", "true"), 0, 0, urd, t1);
    CHECK(!err && double_bits(t1[1]) != double_bits(t0[1]), "speed_use_ref_diff: no change");
    free_clip(&c);

    /* 10, 12, 16 bits equal to 8 bits shifted: identical outputs (§9) */
    Clip c8 = make_clip(576, 324, 8, VMAF_PIX_FMT_YUV420P, 2, 0);
    double c8v[6], t8v[2], chv[6], thv[2];
    err = score(&c8, "speed_chroma", NULL, 0, 0, names, c8v) ||
          score(&c8, "speed_temporal", NULL, 0, 0, t_names, t8v);
    CHECK(!err, "8-bit: error");
    for (unsigned bpc = 10; bpc <= 16; bpc += bpc == 12 ? 4 : 2) {
        Clip ch = c8;
        ch.bpc = bpc;
        for (unsigned f = 0; f < 2; f++)
            for (unsigned pl = 0; pl < 3; pl++) {
                const size_t n = (size_t)c8.pw[pl] * c8.ph[pl];
                ch.ref[f][pl] = malloc(2 * n);
                ch.dis[f][pl] = malloc(2 * n);
                for (size_t i = 0; i < n; i++) {
                    ch.ref[f][pl][i] = (uint16_t)(c8.ref[f][pl][i] << (bpc - 8));
                    ch.dis[f][pl][i] = (uint16_t)(c8.dis[f][pl][i] << (bpc - 8));
                }
            }
        err = score(&ch, "speed_chroma", NULL, 0, 0, names, chv) ||
              score(&ch, "speed_temporal", NULL, 0, 0, t_names, thv);
        CHECK(!err, "%u-bit: error", bpc);
        for (int i = 0; !err && i < 6; i++)
            CHECK(double_bits(chv[i]) == double_bits(c8v[i]), "%u-bit shifted: chroma value %d "
                  "differs", bpc, i);
        CHECK(!err && double_bits(thv[1]) == double_bits(t8v[1]), "%u-bit shifted: temporal",
              bpc);
        free_clip(&ch);
    }
    free_clip(&c8);
}

static void test_refusals(void)
{
    const char *const u[] = { "Speed_chroma_feature_speed_chroma_u_score", NULL };
    const char *const t[] = { "Speed_temporal_feature_speed_temporal_score", NULL };
    const char *const *ps05 =
        KV("speed_prescale", "0.5", "speed_prescale_method", "bilinear");
    const char *const *ps06 =
        KV("speed_prescale", "0.6", "speed_prescale_method", "bilinear");
    struct {
        const char *ex;
        unsigned w, h, bpc;
        enum VmafPixelFormat fmt;
        const char *const *opts;
        const char *msg; /* NULL: accepted */
    } cases[] = {
        /* 4:2:0 needs a 160x160 frame; 4:2:2 160x80; 4:4:4 80x80 */
        { "speed_chroma", 160, 160, 8, VMAF_PIX_FMT_YUV420P, NULL, NULL },
        { "speed_chroma", 158, 160, 8, VMAF_PIX_FMT_YUV420P, NULL,
          "speed_chroma: chroma plane 79x80 is too small; SpEED needs at least 80x80, i.e. a "
          "4:2:0 frame of at least 160x160" },
        { "speed_chroma", 160, 159, 8, VMAF_PIX_FMT_YUV420P, NULL,
          "speed_chroma: chroma plane 80x79 is too small; SpEED needs at least 80x80, i.e. a "
          "4:2:0 frame of at least 160x160" },
        { "speed_chroma", 160, 80, 8, VMAF_PIX_FMT_YUV422P, NULL, NULL },
        { "speed_chroma", 159, 80, 8, VMAF_PIX_FMT_YUV422P, NULL,
          "speed_chroma: chroma plane 79x80 is too small; SpEED needs at least 80x80, i.e. a "
          "4:2:2 frame of at least 160x80" },
        { "speed_chroma", 80, 80, 8, VMAF_PIX_FMT_YUV444P, NULL, NULL },
        { "speed_chroma", 80, 79, 8, VMAF_PIX_FMT_YUV444P, NULL,
          "speed_chroma: chroma plane 80x79 is too small; SpEED needs at least 80x80" },
        /* the prescaled v1 models: 318x318 (ps 0.5) and 266x266 (ps 0.6) 4:2:0 frames */
        { "speed_chroma", 318, 318, 8, VMAF_PIX_FMT_YUV420P, ps05, NULL },
        { "speed_chroma", 318, 316, 8, VMAF_PIX_FMT_YUV420P, ps05,
          "speed_chroma: chroma plane 159x158 scaled to 80x79 (speed_prescale 0.5) is too small; "
          "SpEED needs at least 80x80 after scaling (a chroma plane of at least 159x159, i.e. a "
          "4:2:0 frame of at least 318x318)" },
        { "speed_chroma", 320, 180, 8, VMAF_PIX_FMT_YUV420P, ps05,
          "speed_chroma: chroma plane 160x90 scaled to 80x45 (speed_prescale 0.5) is too small; "
          "SpEED needs at least 80x80 after scaling (a chroma plane of at least 159x159, i.e. a "
          "4:2:0 frame of at least 318x318)" },
        { "speed_chroma", 266, 266, 8, VMAF_PIX_FMT_YUV420P, ps06, NULL },
        { "speed_chroma", 264, 266, 8, VMAF_PIX_FMT_YUV420P, ps06,
          "speed_chroma: chroma plane 132x133 scaled to 79x80 (speed_prescale 0.6) is too small; "
          "SpEED needs at least 80x80 after scaling (a chroma plane of at least 133x133, i.e. a "
          "4:2:0 frame of at least 266x266)" },
        { "speed_chroma", 320, 180, 8, VMAF_PIX_FMT_YUV420P, NULL, NULL }, /* ps 1 computes */
        { "speed_temporal", 80, 80, 8, VMAF_PIX_FMT_YUV400P, NULL, NULL },
        { "speed_temporal", 79, 80, 8, VMAF_PIX_FMT_YUV400P, NULL,
          "speed_temporal: luma 79x80 is too small; SpEED needs at least 80x80" },
        { "speed_temporal", 17, 13, 8, VMAF_PIX_FMT_YUV420P, NULL,
          "speed_temporal: luma 17x13 is too small; SpEED needs at least 80x80" },
        { "speed_temporal", 160, 160, 8, VMAF_PIX_FMT_YUV420P, ps05, NULL },
        { "speed_temporal", 160, 158, 8, VMAF_PIX_FMT_YUV420P, ps05,
          "speed_temporal: luma 160x158 scaled to 80x79 (speed_prescale 0.5) is too small; SpEED "
          "needs at least 80x80 after scaling (a luma of at least 159x159)" },
        { "speed_temporal", 80, 80, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale", "4"), NULL },
        { "speed_temporal", 80, 80, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale", "0.9"),
          "speed_temporal: luma 80x80 scaled to 72x72 (speed_prescale 0.9) is too small; SpEED "
          "needs at least 80x80 after scaling (a luma of at least 89x89)" },
        /* formats, depths, options */
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV400P, NULL,
          "speed_chroma: the input has no chroma (4:0:0); speed_chroma scores the U and V planes" },
        { "speed_chroma", 200, 200, 9, VMAF_PIX_FMT_YUV420P, NULL,
          "speed_chroma: bit depth 9 is not supported (8, 10, 12 or 16)" },
        { "speed_temporal", 200, 200, 14, VMAF_PIX_FMT_YUV420P, NULL,
          "speed_temporal: bit depth 14 is not supported (8, 10, 12 or 16)" },
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV420P, KV("speed_kernelscale", "0.9"),
          "speed_chroma: invalid speed_kernelscale 0.9 (valid: " LS_VALID_KERNELSCALES_TEXT ")" },
        { "speed_temporal", 200, 200, 8, VMAF_PIX_FMT_YUV420P, KV("speed_kernelscale", "1.0009"),
          NULL },
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale_method", "foo"),
          "speed_chroma: invalid speed_prescale_method \"foo\" (nearest, bilinear, bicubic or "
          "lanczos4)" },
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV420P,
          KV("speed_prescale_method", "Bilinear"),
          "speed_chroma: invalid speed_prescale_method \"Bilinear\" (nearest, bilinear, bicubic "
          "or lanczos4)" },
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV420P, KV("speed_weight_var_mode", "7"),
          "speed_chroma: option \"speed_weight_var_mode\" value \"7\" is out of range [0, 6]" },
        { "speed_chroma", 200, 200, 8, VMAF_PIX_FMT_YUV420P, KV("speed_sigma_nn", "0.05"),
          "speed_chroma: option \"speed_sigma_nn\" value \"0.05\" is out of range [0.1, 2]" },
        /* within 1e-3 of 1: no resampling, so only sizes it keeps (§4.3) */
        { "speed_chroma", 576, 324, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale", "1.0005"), NULL },
        { "speed_chroma", 1920, 324, 8, VMAF_PIX_FMT_YUV420P, KV("speed_prescale", "1.0009"),
          "speed_chroma: speed_prescale 1.0009 makes the 960x162 chroma plane 961x162, but values "
          "within 0.001 of 1 do not resample; use 1 or a value further from 1" },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Clip c = make_clip(cases[i].w, cases[i].h, cases[i].bpc < 10 ? 8 : 10, cases[i].fmt, 1, 0);
        c.bpc = cases[i].bpc;
        double v[1];
        const bool chroma = !strcmp(cases[i].ex, "speed_chroma");
        const char *const *names = chroma ? u : t;
        char custom[3][256];
        const char *custom_list[2] = { custom[0], NULL };
        if (cases[i].opts) {
            const Opts o = parse_opts(cases[i].opts);
            output_names(&o, !chroma, custom);
            names = custom_list;
        }
        const int err = score(&c, cases[i].ex, cases[i].opts, 0, 0, names, v);
        const char *msg = lockstep_last_error();
        if (!cases[i].msg) {
            CHECK(!err, "%s %ux%u: refused: %s", cases[i].ex, c.w, c.h, msg);
        } else {
            CHECK(err && !strcmp(msg, cases[i].msg), "%s %ux%u: %s\n  expected: %s", cases[i].ex,
                  c.w, c.h, err ? msg : "accepted", cases[i].msg);
        }
        free_clip(&c);
    }
    /* speed_prescale=1.0005 keeps 288x162 and computes the default's values */
    Clip c = make_clip(576, 324, 8, VMAF_PIX_FMT_YUV420P, 1, 0);
    const char *const ps_name[] = { "speed_chroma_u_ps_1.0005", NULL };
    double a[1], b[1];
    const int err = score(&c, "speed_chroma", NULL, 0, 0, u, a) ||
                    score(&c, "speed_chroma", KV("speed_prescale", "1.0005"), 0, 0, ps_name, b);
    CHECK(!err && double_bits(a[0]) == double_bits(b[0]), "speed_prescale=1.0005 differs");
    free_clip(&c);
}

/* ---- bench ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bench(void)
{
    static const char *const names[3] = { "C", "AVX2", "AVX-512" };
    const uint64_t flags[3] = { 0, LS_CPU_FLAG_AVX2, LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 };
    enum { SW = 56, SH = 26, W = SW + 4, H = SH + 4 };
    static float R[W * H + LS_SPEED_R_SLACK];
    fill_residual(R, W * H + LS_SPEED_R_SLACK, 0);
    void *tmp = malloc(ls_speed_cov_tmp_size(SW, SH));
    LsSpeedMatrix K, P, O;
    fill_residual(&P[0][0], sizeof(P) / sizeof(float), 0);
    for (int k = 0; k < 3; k++) {
        if ((ls_cpu_detect() & flags[k]) != flags[k])
            continue;
        LsSpeedDsp d;
        ls_speed_dsp_init(&d, flags[k]);
        /* the best of five rounds: the machine may be shared */
        double best_cov = 1e9, best_mul = 1e9;
        for (int round = 0; round < 5; round++) {
            double t0 = now();
            for (int i = 0; i < 50; i++)
                d.covariance(R, W, SW, SH, K, tmp);
            const double cov = (now() - t0) * 1e6 / 50;
            t0 = now();
            for (int i = 0; i < 5000; i++)
                d.mul(P, &K[0][0], LS_SPEED_LD, 25, &O[0][0], LS_SPEED_LD);
            const double mul = (now() - t0) * 1e6 / 5000;
            best_cov = cov < best_cov ? cov : best_cov;
            best_mul = mul < best_mul ? mul : best_mul;
        }
        printf("covariance %s (1080p chroma, %ux%u positions): %.1f us\n", names[k], SW, SH,
               best_cov);
        printf("mul 25x25x25 %s: %.2f us\n", names[k], best_mul);
    }
    free(tmp);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        bench();
        return 0;
    }
#ifdef LS_MUTATE_MODEL
    (void)argc, (void)argv;
    (void)test_tables;
    (void)test_checkasm;
    (void)test_outputs;
    (void)test_refusals;
    test_model();
    printf("mutant model (anti-alias sigma N/5): %u of %u values differ: %s\n", model_diffs,
           model_values, model_diffs ? "detected" : "NOT DETECTED");
    return model_diffs ? 0 : 1;
#else
    if (argc < 2) {
        fprintf(stderr, "usage: %s SPEED_JSON | --bench\n", argv[0]);
        return 2;
    }
    test_tables(argv[1]);
    test_checkasm();
    test_model();
    test_outputs();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_speed: %d failures\n", failures);
    else
        printf("test_speed: all passed\n");
    return failures ? 1 : 0;
#endif
}
