/* SSIM (float_ssim, integer ssim): scale selection and decimated sizes, the dB transform and its
 * ceiling, every AVX2 unit against its C reference (checkasm-style: random and extreme inputs,
 * 8..16-bit ranges, exact comparison, failing parameters printed), and through the public API:
 * identical frames give exactly 1 (+inf / the ceiling in dB), frames too small for the window
 * are refused; the constants against the spec's table.
 * usage: test_ssim SSIM_GAUSSIAN_JSON | --bench */
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
#include "core/cpu.h"
#include "feature/ssim.h"


static uint64_t rng_state = 0x5eed5eed12345678ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* ---- tables against tables/ssim_gaussian.json ---- */

/* The number in the string value or bare value after the next occurrence of "key" from *pos. */
static const char *json_next(const char **pos, const char *key)
{
    char quoted[64];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    const char *at = strstr(*pos, quoted);
    if (!at)
        return NULL;
    at = strchr(at + strlen(quoted), ':');
    if (!at)
        return NULL;
    at++;
    while (*at == ' ' || *at == '"')
        at++;
    *pos = at;
    return at;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    static const float taps[LS_FLOAT_SSIM_TAPS] = LS_FLOAT_SSIM_GAUSSIAN_INIT;
    const char *pos = strstr(json, "gaussian_1d_taps");
    for (unsigned k = 0; pos && k < LS_FLOAT_SSIM_TAPS; k++) {
        const char *v = json_next(&pos, "float32_hex");
        CHECK(v && strtof(v, NULL) == taps[k], "float_ssim tap %u differs from the table", k);
    }
    static const struct { const char *name; float value; } consts[] = {
        { "C1", LS_FLOAT_SSIM_C1 }, { "C2", LS_FLOAT_SSIM_C2 }, { "C3", LS_FLOAT_SSIM_C3 },
    };
    for (unsigned i = 0; i < 3; i++) {
        char key[16];
        snprintf(key, sizeof(key), "\"%s\"", consts[i].name);
        pos = strstr(json, key);
        const char *v = pos ? json_next(&pos, "float32_hex") : NULL;
        CHECK(v && strtof(v, NULL) == consts[i].value, "%s differs from the table", consts[i].name);
    }
    /* the same constants derived as the reference does, in float */
    const float k1l = 0x1.47ae14p-7f * 255.0f, k2l = 0x1.eb851ep-6f * 255.0f;
    CHECK(k1l * k1l == LS_FLOAT_SSIM_C1 && k2l * k2l == LS_FLOAT_SSIM_C2 &&
          LS_FLOAT_SSIM_C2 / 2.0f == LS_FLOAT_SSIM_C3, "C1..C3 do not follow from K1, K2, L");
    static const int kernel[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;
    pos = strstr(json, "integer_ssim");
    const char *v = pos ? json_next(&pos, "taps") : NULL;
    for (unsigned t = 0; v && t < LS_SSIM_TAPS; t++) {
        while (*v && (*v < '0' || *v > '9'))
            v++;
        char *end;
        CHECK(strtol(v, &end, 10) == kernel[t], "integer ssim tap %u differs from the table", t);
        v = end;
    }
    pos = strstr(json, "SSIM_K1");
    v = pos ? json_next(&pos, "double_hex") : NULL;
    CHECK(v && strtod(v, NULL) == LS_SSIM_K1 && LS_SSIM_K1 == 0.01 * 0.01, "SSIM_K1 differs");
    pos = strstr(json, "SSIM_K2");
    v = pos ? json_next(&pos, "double_hex") : NULL;
    CHECK(v && strtod(v, NULL) == LS_SSIM_K2 && LS_SSIM_K2 == 0.03 * 0.03, "SSIM_K2 differs");
    free(json);
}

/* ---- scale selection, decimated sizes ---- */

static void test_scale(void)
{
    static const struct { unsigned min_side; int f; } autos[] = {
        { 324, 1 }, { 383, 1 }, { 384, 2 }, { 400, 2 }, { 640, 3 },
        { 701, 3 }, { 720, 3 }, { 1080, 4 }, { 2160, 8 }, { 7, 1 },
    };
    for (unsigned i = 0; i < sizeof(autos) / sizeof(autos[0]); i++) {
        const int f = ls_float_ssim_scale(0, autos[i].min_side + 100, autos[i].min_side);
        CHECK(f == autos[i].f, "auto scale, min side %u: %d, expected %d", autos[i].min_side, f,
              autos[i].f);
    }
    CHECK(ls_float_ssim_scale(3, 1920, 1080) == 3, "explicit scale 3 not taken");
    CHECK(ls_float_ssim_scale(1, 3840, 2160) == 1, "explicit scale 1 not taken");
    /* the +1 follows the parity of the full size */
    CHECK(ls_float_ssim_decimated_size(1920, 4) == 480 && ls_float_ssim_decimated_size(1080, 4) == 270,
          "1920x1080 / 4 is not 480x270");
    CHECK(ls_float_ssim_decimated_size(771, 3) == 258 && ls_float_ssim_decimated_size(701, 3) == 234,
          "771x701 / 3 is not 258x234");
    CHECK(ls_float_ssim_decimated_size(99, 3) == 34, "99 / 3 is not 34");
    CHECK(ls_float_ssim_decimated_size(97, 1) == 97, "scale 1 changed the size");
}

/* ---- dB transform ---- */

static void test_db(void)
{
    static const struct { unsigned bpc, w, h; double ceiling; } ceilings[] = {
        { 8, 96, 80, 90.0 },       { 8, 576, 324, 104.0 },    { 8, 1920, 1080, 115.0 },
        { 10, 1920, 1080, 127.0 }, { 10, 3840, 2160, 133.0 },
    };
    for (unsigned i = 0; i < sizeof(ceilings) / sizeof(ceilings[0]); i++) {
        const double c = ls_ssim_db_ceiling(true, ceilings[i].bpc, ceilings[i].w, ceilings[i].h);
        CHECK(c == ceilings[i].ceiling, "ceiling %u-bit %ux%u: %.17g, expected %g", ceilings[i].bpc,
              ceilings[i].w, ceilings[i].h, c, ceilings[i].ceiling);
    }
    CHECK(isinf(ls_ssim_db_ceiling(false, 8, 1920, 1080)), "no clip_db: ceiling is not +inf");
    const double c16 = ls_ssim_db_ceiling(true, 16, 3840, 2160);
    CHECK(isfinite(c16) && c16 > 133.0, "16-bit ceiling %.17g (peak*peak must not overflow)", c16);

    const double inf = INFINITY;
    CHECK(isinf(ls_ssim_to_db(1.0, inf)) && ls_ssim_to_db(1.0, inf) > 0, "perfect score is not +inf");
    CHECK(ls_ssim_to_db(1.0, 115.0) == 115.0, "perfect score is not the ceiling");
    CHECK(isinf(ls_ssim_to_db(1.5, inf)), "score > 1 without clip_db is not max_db (+inf)");
    CHECK(ls_ssim_to_db(1.5, 115.0) == 115.0, "score > 1 is not the ceiling");
    /* goldens: p01 frame 0 float_ssim and its dB value; p08 (negative SSIM) */
    CHECK(double_bits(ls_ssim_to_db(0.9337219595909119, inf)) == double_bits(11.786303405076904),
          "p01 dB value %.17g", ls_ssim_to_db(0.9337219595909119, inf));
    CHECK(double_bits(ls_ssim_to_db(-0.9934238791465759, inf)) == double_bits(-2.9959965635267234),
          "p08 dB value %.17g", ls_ssim_to_db(-0.9934238791465759, inf));
    CHECK(ls_ssim_to_db(0.0, 115.0) == 0.0, "zero score is not 0 dB");
}

/* ---- per-position terms ---- */

static void test_position(void)
{
    /* a flat window scored against itself: variances 0, cov clamp gives s = 1 */
    for (unsigned v = 0; v <= 255; v += 15) {
        const float g = (float)v;
        double l, c;
        float s;
        ls_float_ssim_position(g, g, g * g, g * g, g * g, &l, &c, &s);
        /* l is 1 only to the float rounding of its denominator; the frame mean absorbs that */
        CHECK(c == 1.0 && s == 1.0f, "flat %u: c %.17g s %.9g", v, c, (double)s);
    }
    /* negative variances are clamped to +0 (a -0 would stay) */
    double l, c;
    float s;
    ls_float_ssim_position(10.0f, 10.0f, 99.0f, 99.0f, 99.0f, &l, &c, &s);
    CHECK(c == 1.0 && s == 1.0f, "clamped variances: c %.17g s %.9g", c, (double)s);
    /* integer term (weighted by the kept weight sum) of identical moments */
    const double mx = 65536.0 * 100, xx = 65536.0 * (100 * 100 + 7);
    const double t = ls_ssim_position(mx, mx, xx, xx, xx, 65536.0, 255.0);
    CHECK(t == 65536.0, "integer ssim of identical moments: %.17g", t);
}

/* ---- checkasm: AVX2 against C ---- */

/* FILL_WIDE: signed floats of very different magnitudes, where sample i + 10 is minus sample i in
 * every other run of ten: far outside what the pipeline produces, but the first and last tap then
 * cancel, and only such cancellation makes a wrong summation order visible through the final
 * rounding of a double sum of 11 float products to float */
enum Fill { FILL_RANDOM, FILL_ZERO, FILL_MAX, FILL_NEAR, FILL_FLAT, FILL_WIDE };
static const char *const fill_names[] = { "random", "zero", "max", "near", "flat", "wide" };

static float wide_value(void)
{
    const float mantissa = (float)(rnd() & 0xffffff) * (rnd() & 1 ? 1.0f : -1.0f);
    return rnd() & 1 ? ldexpf(mantissa, 20 + (int)(rnd() % 20)) : ldexpf(mantissa, -16);
}

/* samples in the 8-bit range as float_ssim makes them: v / 2^(bpc-8) */
static void fill_samples(float *ref, float *dis, unsigned n, unsigned bpc, enum Fill fill)
{
    const unsigned max = (1u << bpc) - 1;
    const float div = (float)(1u << (bpc - 8));
    const unsigned flat = rnd() & max;
    for (unsigned i = 0; i < n; i++) {
        unsigned r = rnd() & max, d = rnd() & max;
        switch (fill) {
        case FILL_ZERO: r = d = 0; break;
        case FILL_MAX: r = d = max; break;
        case FILL_NEAR: d = (r + (rnd() % 9)) & max; break;
        case FILL_FLAT: r = d = flat; break;
        default: break;
        }
        ref[i] = (float)r / div;
        dis[i] = (float)d / div;
        if (fill == FILL_WIDE) {
            ref[i] = (i / 10) & 1 ? -ref[i - 10] : wide_value();
            dis[i] = (i / 10) & 1 ? -dis[i - 10] : wide_value();
        }
    }
}

static int same_floats(const float *a, const float *b, unsigned n, unsigned *at)
{
    for (unsigned i = 0; i < n; i++) {
        if (memcmp(&a[i], &b[i], sizeof(float))) {
            *at = i;
            return 0;
        }
    }
    return 1;
}

static void check_decimate(const LsSsimDsp *c, const LsSsimDsp *v)
{
    enum { MAXW = 700 };
    static float src[10 * MAXW], out_c[MAXW], out_v[MAXW], dummy[10 * MAXW];
    static int32_t cols[10 * MAXW];
    for (unsigned iter = 0; iter < 400; iter++) {
        const unsigned f = 2 + iter % 9, bpc = 8 + (iter / 9) % 5;
        const enum Fill fill = (enum Fill)((iter / 45) % 6);
        const unsigned w = f + 1 + rnd() % (MAXW - f - 1);
        const unsigned n_out = ls_float_ssim_decimated_size(w, (int)f);
        const float kb = 1.0f / (float)(f * f);
        fill_samples(src, dummy, f * w, bpc, fill);
        for (unsigned i = 0; i < f * w; i++)
            src[i] = src[i] * kb;
        const int r = (int)f / 2;
        for (unsigned u = 0; u < f; u++) {
            for (unsigned x = 0; x < n_out; x++) {
                int col = (int)(x * f + u) - r;
                col = col < 0 ? -1 - col : col >= (int)w ? 2 * (int)w - 1 - col : col;
                cols[u * n_out + x] = col;
            }
        }
        if (fill == FILL_WIDE) { /* small samples between a huge first and last tap */
            for (unsigned i = 0; i < f * w; i++)
                src[i] = ldexpf(src[i], -40);
            for (unsigned x = 0; x < n_out; x++) {
                const float huge = ldexpf((float)(rnd() & 0xffffff), 20);
                src[cols[x]] = huge;
                src[(f - 1) * w + (unsigned)cols[(f - 1) * n_out + x]] = -huge;
            }
        }
        c->float_decimate(src, w, cols, f, n_out, out_c);
        v->float_decimate(src, w, cols, f, n_out, out_v);
        unsigned at;
        CHECK(same_floats(out_c, out_v, n_out, &at),
              "decimate f=%u w=%u bpc=%u fill=%s: output %u: C %a AVX2 %a", f, w, bpc,
              fill_names[fill], at, (double)out_c[at], (double)out_v[at]);
    }
}

static void check_conv(const LsSsimDsp *c, const LsSsimDsp *v)
{
    enum { MAXW = 1930 };
    static float ref[MAXW], dis[MAXW], out_c[5][MAXW], out_v[5][MAXW];
    static float col_data[LS_FLOAT_SSIM_TAPS][MAXW];
    for (unsigned iter = 0; iter < 600; iter++) {
        const unsigned bpc = iter % 5 == 4 ? 16 : 8 + iter % 5;
        const enum Fill fill = (enum Fill)((iter / 5) % 6);
        const unsigned w_out = iter < 100 ? 1 + iter % 40 : 1 + rnd() % (MAXW - LS_FLOAT_SSIM_TAPS);
        fill_samples(ref, dis, w_out + LS_FLOAT_SSIM_TAPS - 1, bpc, fill);
        c->float_conv_h(ref, dis, w_out, out_c[0], out_c[1], out_c[2], out_c[3], out_c[4]);
        v->float_conv_h(ref, dis, w_out, out_v[0], out_v[1], out_v[2], out_v[3], out_v[4]);
        for (unsigned m = 0; m < 5; m++) {
            unsigned at;
            CHECK(same_floats(out_c[m], out_v[m], w_out, &at),
                  "conv_h moment %u w=%u bpc=%u fill=%s: output %u: C %a AVX2 %a", m, w_out, bpc,
                  fill_names[fill], at, (double)out_c[m][at], (double)out_v[m][at]);
        }
        /* vertical pass on squared samples too: the range of e_rr */
        const float *rows[LS_FLOAT_SSIM_TAPS];
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++) {
            fill_samples(col_data[k], ref, w_out, bpc, fill);
            if (k & 1)
                for (unsigned x = 0; x < w_out; x++)
                    col_data[k][x] = col_data[k][x] * col_data[k][x];
            for (unsigned x = 0; fill == FILL_WIDE && x < w_out; x++) /* huge first and last */
                col_data[k][x] = k == LS_FLOAT_SSIM_TAPS - 1 ? -col_data[0][x]
                                 : k ? ldexpf(col_data[k][x], -30) : col_data[k][x];
            rows[k] = col_data[k];
        }
        c->float_conv_v(rows, out_c[0], w_out);
        v->float_conv_v(rows, out_v[0], w_out);
        unsigned at;
        CHECK(same_floats(out_c[0], out_v[0], w_out, &at),
              "conv_v w=%u bpc=%u fill=%s: output %u: C %a AVX2 %a", w_out, bpc, fill_names[fill],
              at, (double)out_c[0][at], (double)out_v[0][at]);
    }
}

static void check_terms(const LsSsimDsp *c, const LsSsimDsp *v)
{
    enum { MAXW = 1000 };
    static float ref[LS_FLOAT_SSIM_TAPS][MAXW + 10], dis[LS_FLOAT_SSIM_TAPS][MAXW + 10];
    static float h[5][LS_FLOAT_SSIM_TAPS][MAXW], m[5][MAXW];
    for (unsigned iter = 0; iter < 300; iter++) {
        const unsigned bpc = iter % 5 == 4 ? 16 : 8 + iter % 5;
        const enum Fill fill = (enum Fill)((iter / 5) % 5);
        const unsigned w = iter < 50 ? 1 + iter % 13 : 1 + rnd() % MAXW;
        const int identical = iter % 3 == 0;
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++) {
            fill_samples(ref[k], dis[k], w + 10, bpc, fill);
            if (identical)
                memcpy(dis[k], ref[k], (w + 10) * sizeof(float));
            c->float_conv_h(ref[k], dis[k], w, h[0][k], h[1][k], h[2][k], h[3][k], h[4][k]);
        }
        for (unsigned i = 0; i < 5; i++) {
            const float *rows[LS_FLOAT_SSIM_TAPS];
            for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++)
                rows[k] = h[i][k];
            c->float_conv_v(rows, m[i], w);
        }
        if (iter % 7 == 6) /* unrelated moments: negative variances and covariances, clamps */
            for (unsigned x = 0; x < w; x++)
                m[2][x] = m[0][x] * m[0][x] * (float)(rnd() % 3) * 0.5f;
        double acc_c[4] = { 0.5, 1.5, 2.5, 3.5 }, acc_v[4] = { 0.5, 1.5, 2.5, 3.5 };
        c->float_terms(m[0], m[1], m[2], m[3], m[4], w, acc_c);
        v->float_terms(m[0], m[1], m[2], m[3], m[4], w, acc_v);
        for (unsigned i = 0; i < 4; i++)
            CHECK(double_bits(acc_c[i]) == double_bits(acc_v[i]),
                  "terms w=%u bpc=%u fill=%s identical=%d: chain %u: C %a AVX2 %a", w, bpc,
                  fill_names[fill], identical, i, acc_c[i], acc_v[i]);
    }
}

/* Nine random sample rows (some dropped through a zero weight), 8-bit bytes or 16-bit words. */
typedef struct SampleRows {
    uint8_t ref8[LS_SSIM_TAPS][700], dis8[LS_SSIM_TAPS][700];
    uint16_t ref16[LS_SSIM_TAPS][700], dis16[LS_SSIM_TAPS][700];
    const void *ref[LS_SSIM_TAPS], *dis[LS_SSIM_TAPS];
    int32_t kernel_v[LS_SSIM_TAPS];
    double weight_v;
} SampleRows;

static void fill_sample_rows(SampleRows *sr, unsigned w, unsigned bpc, enum Fill fill,
                             int identical, unsigned dropped, int at_top)
{
    static const int kernel[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;
    const unsigned max = (1u << bpc) - 1, flat = rnd() & max;
    sr->weight_v = 0.0;
    for (unsigned t = 0; t < LS_SSIM_TAPS; t++) {
        for (unsigned i = 0; i < w; i++) {
            unsigned r = rnd() & max, d = rnd() & max;
            if (fill == FILL_ZERO)
                r = d = 0;
            else if (fill == FILL_MAX)
                r = d = max;
            else if (fill == FILL_NEAR)
                d = (r + rnd() % 9) & max;
            else if (fill == FILL_FLAT)
                r = d = flat;
            if (identical)
                d = r;
            sr->ref16[t][i] = (uint16_t)r;
            sr->dis16[t][i] = (uint16_t)d;
            sr->ref8[t][i] = (uint8_t)r;
            sr->dis8[t][i] = (uint8_t)d;
        }
        sr->ref[t] = bpc > 8 ? (const void *)sr->ref16[t] : (const void *)sr->ref8[t];
        sr->dis[t] = bpc > 8 ? (const void *)sr->dis16[t] : (const void *)sr->dis8[t];
        const int out = at_top ? t < dropped : t >= LS_SSIM_TAPS - dropped;
        sr->kernel_v[t] = out ? 0 : kernel[t];
        sr->weight_v += sr->kernel_v[t];
    }
}

static void check_sums_v(const LsSsimDsp *c, const LsSsimDsp *v)
{
    static SampleRows sr;
    static double out_c[5][700], out_v[5][700];
    double *const mc[5] = { out_c[0], out_c[1], out_c[2], out_c[3], out_c[4] };
    double *const mv[5] = { out_v[0], out_v[1], out_v[2], out_v[3], out_v[4] };
    for (unsigned iter = 0; iter < 400; iter++) {
        const unsigned bpc = iter % 6 == 5 ? 16 : 8 + iter % 5;
        const enum Fill fill = (enum Fill)((iter / 6) % 5);
        const unsigned w = iter < 60 ? 1 + iter % 20 : 1 + rnd() % 700;
        fill_sample_rows(&sr, w, bpc, fill, iter % 4 == 0, iter % 5, iter & 1);
        const unsigned hbd = bpc > 8;
        c->sums_v[hbd](sr.ref, sr.dis, sr.kernel_v, w, mc);
        v->sums_v[hbd](sr.ref, sr.dis, sr.kernel_v, w, mv);
        for (unsigned m = 0; m < 5; m++)
            CHECK(!memcmp(out_c[m], out_v[m], w * sizeof(double)),
                  "sums_v field %u w=%u bpc=%u fill=%s differ", m, w, bpc, fill_names[fill]);
    }
}

/* Whole output rows: vertical sums of random rows, then C and AVX2 on the same sums, chains
 * started from non-zero values. */
static void check_row(const LsSsimDsp *c, const LsSsimDsp *v)
{
    static SampleRows sr;
    static double sums[5][700];
    const double *const rows[5] = { sums[0], sums[1], sums[2], sums[3], sums[4] };
    double *const out[5] = { sums[0], sums[1], sums[2], sums[3], sums[4] };
    for (unsigned iter = 0; iter < 400; iter++) {
        const unsigned bpc = iter % 6 == 5 ? 16 : 8 + iter % 5;
        const enum Fill fill = (enum Fill)((iter / 6) % 5);
        const unsigned w = iter < 60 ? 1 + iter % 20 : 1 + rnd() % 700;
        const int identical = iter % 4 == 0;
        fill_sample_rows(&sr, w, bpc, fill, identical, iter % 5, iter & 1);
        c->sums_v[bpc > 8](sr.ref, sr.dis, sr.kernel_v, w, out);
        const double sample_max = (double)((1u << bpc) - 1);
        double acc_c[2] = { 0.25, 7.0 }, acc_v[2] = { 0.25, 7.0 };
        c->row(rows, sr.weight_v, w, sample_max, acc_c);
        v->row(rows, sr.weight_v, w, sample_max, acc_v);
        for (unsigned i = 0; i < 2; i++)
            CHECK(double_bits(acc_c[i]) == double_bits(acc_v[i]),
                  "ssim row w=%u bpc=%u fill=%s identical=%d: chain %u: C %a AVX2 %a", w, bpc,
                  fill_names[fill], identical, i, acc_c[i], acc_v[i]);
    }
}

static void test_checkasm(void)
{
    if (!(ls_cpu_detect() & LS_CPU_FLAG_AVX2)) {
        printf("checkasm: no AVX2 on this CPU, variants not tested\n");
        return;
    }
    LsSsimDsp c, v;
    ls_ssim_dsp_init(&c, 0);
    ls_ssim_dsp_init(&v, LS_CPU_FLAG_AVX2);
    CHECK(c.float_conv_h != v.float_conv_h, "AVX2 not installed");
    const int before = failures;
    check_decimate(&c, &v);
    check_conv(&c, &v);
    check_terms(&c, &v);
    check_sums_v(&c, &v);
    check_row(&c, &v);
    printf("checkasm: AVX2 %s\n", failures == before ? "bit-identical with C" : "DIFFERS");
}

/* ---- public API ---- */

typedef struct Case {
    const char *feature;
    const char *options[4]; /* key, value, key, value */
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
    int identical;
} Case;

/* Scores `frames` pictures; the values of up to four output names at the last index. */
static int score(const Case *k, unsigned frames, const char *const names[4], double values[4])
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = 0 };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    VmafFeatureDictionary *opts = NULL;
    for (unsigned i = 0; i < 4 && k->options[i]; i += 2)
        vmaf_feature_dictionary_set(&opts, k->options[i], k->options[i + 1]);
    err = vmaf_use_feature(vmaf, k->feature, opts);
    const unsigned max = (1u << k->bpc) - 1;
    for (unsigned f = 0; !err && f < frames; f++) {
        VmafPicture ref, dis;
        err = vmaf_picture_alloc(&ref, k->fmt, k->bpc, k->w, k->h);
        if (err)
            break;
        err = vmaf_picture_alloc(&dis, k->fmt, k->bpc, k->w, k->h);
        if (err) {
            vmaf_picture_unref(&ref);
            break;
        }
        for (unsigned y = 0; y < k->h; y++) {
            for (unsigned x = 0; x < k->w; x++) {
                const unsigned r = ((x / 7) * 37 + (y / 5) * 11 + rnd() % 5 + f) & max;
                const unsigned d = k->identical ? r : (r + rnd() % 13) & max;
                if (k->bpc > 8) {
                    ((uint16_t *)((uint8_t *)ref.data[0] + y * ref.stride[0]))[x] = (uint16_t)r;
                    ((uint16_t *)((uint8_t *)dis.data[0] + y * dis.stride[0]))[x] = (uint16_t)d;
                } else {
                    ((uint8_t *)ref.data[0] + y * ref.stride[0])[x] = (uint8_t)r;
                    ((uint8_t *)dis.data[0] + y * dis.stride[0])[x] = (uint8_t)d;
                }
            }
        }
        err = vmaf_read_pictures(vmaf, &ref, &dis, f);
        if (err) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    for (unsigned i = 0; !err && i < 4 && names[i]; i++)
        err = vmaf_feature_score_at_index(vmaf, names[i], &values[i], frames - 1);
    vmaf_close(vmaf);
    return err;
}

static void test_identical(void)
{
    static const char *const lcs[4] = { "float_ssim", "float_ssim_l", "float_ssim_c",
                                        "float_ssim_s" };
    static const struct { unsigned bpc, w, h; const char *scale; } sizes[] = {
        { 8, 97, 61, "3" }, { 10, 400, 384, "0" }, { 12, 130, 90, "1" },
        { 16, 200, 120, "2" }, { 8, 17, 13, "0" },
    };
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const Case k = { "float_ssim", { "enable_lcs", "true", "scale", sizes[i].scale },
                         VMAF_PIX_FMT_YUV420P, sizes[i].bpc, sizes[i].w, sizes[i].h, 1 };
        double v[4] = { 0 };
        const int err = score(&k, 2, lcs, v);
        CHECK(!err, "identical %u-bit %ux%u scale %s: error %d (%s)", sizes[i].bpc, sizes[i].w,
              sizes[i].h, sizes[i].scale, err, lockstep_last_error());
        for (unsigned j = 0; !err && j < 4; j++)
            CHECK(v[j] == 1.0, "identical %u-bit %ux%u scale %s: %s = %.17g", sizes[i].bpc,
                  sizes[i].w, sizes[i].h, sizes[i].scale, lcs[j], v[j]);
        const Case ki = { "ssim", { NULL }, VMAF_PIX_FMT_YUV400P, sizes[i].bpc, sizes[i].w,
                          sizes[i].h, 1 };
        static const char *const ssim_name[4] = { "ssim" };
        const int erri = score(&ki, 1, ssim_name, v);
        CHECK(!erri && v[0] == 1.0, "identical %u-bit %ux%u: integer ssim %.17g (error %d)",
              sizes[i].bpc, sizes[i].w, sizes[i].h, v[0], erri);
    }
    static const char *const one[4] = { "float_ssim" };
    static const char *const ssim_name[4] = { "ssim" };
    double v[4] = { 0 };
    const Case db = { "float_ssim", { "enable_db", "true" }, VMAF_PIX_FMT_YUV420P, 8, 64, 48, 1 };
    int err = score(&db, 1, one, v);
    CHECK(!err && isinf(v[0]) && v[0] > 0, "identical, enable_db: %.17g (error %d)", v[0], err);
    const Case clip = { "float_ssim", { "enable_db", "true", "clip_db", "true" },
                        VMAF_PIX_FMT_YUV420P, 8, 1920, 1080, 1 };
    err = score(&clip, 1, one, v);
    CHECK(!err && v[0] == 115.0, "identical 1920x1080, clip_db: %.17g (error %d)", v[0], err);
    const Case iclip = { "ssim", { "enable_db", "true", "clip_db", "true" }, VMAF_PIX_FMT_YUV444P,
                         10, 96, 80, 1 };
    err = score(&iclip, 1, ssim_name, v);
    CHECK(!err && v[0] == ls_ssim_db_ceiling(true, 10, 96, 80),
          "identical integer ssim, clip_db: %.17g (error %d)", v[0], err);
    const Case idb = { "ssim", { "enable_db", "true" }, VMAF_PIX_FMT_YUV444P, 8, 9, 9, 1 };
    err = score(&idb, 1, ssim_name, v);
    CHECK(!err && isinf(v[0]) && v[0] > 0, "identical integer ssim, enable_db: %.17g", v[0]);
}

static void test_refusals(void)
{
    static const struct { Case k; int ok; } cases[] = {
        { { "float_ssim", { NULL }, VMAF_PIX_FMT_YUV444P, 8, 8, 8, 0 }, 0 },
        { { "float_ssim", { NULL }, VMAF_PIX_FMT_YUV444P, 8, 7, 7, 0 }, 0 },
        { { "float_ssim", { NULL }, VMAF_PIX_FMT_YUV420P, 8, 11, 10, 0 }, 0 },
        { { "float_ssim", { NULL }, VMAF_PIX_FMT_YUV420P, 8, 11, 11, 0 }, 1 },
        { { "float_ssim", { "scale", "10" }, VMAF_PIX_FMT_YUV420P, 8, 100, 120, 0 }, 0 },
        { { "float_ssim", { "scale", "9" }, VMAF_PIX_FMT_YUV420P, 8, 100, 120, 0 }, 1 },
        { { "float_ssim", { NULL }, VMAF_PIX_FMT_YUV420P, 9, 64, 64, 0 }, 0 },
        { { "ssim", { NULL }, VMAF_PIX_FMT_YUV444P, 8, 8, 8, 0 }, 1 },
        { { "ssim", { NULL }, VMAF_PIX_FMT_YUV444P, 8, 7, 7, 0 }, 1 },
        { { "ssim", { NULL }, VMAF_PIX_FMT_YUV444P, 8, 1, 1, 0 }, 1 },
        { { "ssim", { NULL }, VMAF_PIX_FMT_YUV400P, 9, 33, 9, 0 }, 1 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const Case *k = &cases[i].k;
        const char *const names[4] = { k->feature };
        double v[4];
        const int err = score(k, 1, names, v);
        CHECK((err == 0) == cases[i].ok, "%s %ux%u %u-bit %s=%s: %s", k->feature, k->w, k->h,
              k->bpc, k->options[0] ? k->options[0] : "", k->options[1] ? k->options[1] : "",
              err ? lockstep_last_error() : "accepted");
        if (err && !cases[i].ok)
            printf("refused as expected: %s\n", lockstep_last_error());
        if (err && !cases[i].ok && k->bpc == 8)
            CHECK(strstr(lockstep_last_error(), "11x11") != NULL, "message does not name the window");
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
    static const struct { const char *feature; const char *scale; } runs[] = {
        { "float_ssim", "0" }, { "float_ssim", "1" }, { "ssim", NULL },
    };
    for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        const Case k = { runs[i].feature, { runs[i].scale ? "scale" : NULL, runs[i].scale },
                         VMAF_PIX_FMT_YUV420P, 8, 1920, 1080, 0 };
        const char *const names[4] = { runs[i].feature };
        double v[4];
        const double t0 = now();
        const int err = score(&k, 10, names, v);
        printf("%s%s%s 1920x1080 8-bit: %.1f ms/frame (incl. picture fill)%s\n", runs[i].feature,
               runs[i].scale ? " scale=" : "", runs[i].scale ? runs[i].scale : "",
               (now() - t0) * 100.0, err ? " ERROR" : "");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        bench();
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s SSIM_GAUSSIAN_JSON | --bench\n", argv[0]);
        return 2;
    }
    test_tables(argv[1]);
    test_scale();
    test_db();
    test_position();
    test_checkasm();
    test_identical();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_ssim: %d failures\n", failures);
    else
        printf("test_ssim: all passed\n");
    return failures ? 1 : 0;
}
