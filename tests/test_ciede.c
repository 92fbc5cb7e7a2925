/* ciede: the constants against tables/ciede.json; the SIMD variants' approximations of glibc's
 * functions against glibc on dense samples of the arguments that occur (the measured distance must
 * stay below a quarter of the bound the variants certify with); the AVX2 and AVX-512 units against
 * the C reference pixel for pixel (checkasm-style: 8-bit sample sweeps, every bit depth with
 * extremes, near and identical colours, zero chroma, hue wrap-around, signed zeros, odd widths);
 * identical colours give exactly +0; and through the public API: 4:2:2 and odd 4:2:0 equal their
 * 4:4:4 up-sampled copies (the independent check of the chroma layout; the references read 4:2:2
 * differently, see src/feature/ciede.c), bit depths equal shifted 8 bits, identical frames give
 * +inf, 4:0:0 and other depths are refused, on the C, AVX2 and AVX-512 paths and two threads.
 * Built a second time with LS_CIEDE_MUTANT (a SIMD copy whose exp and cos are inaccurate): that
 * binary passes only if the bound checks and the pixel comparisons all catch it.
 * usage: test_ciede CIEDE_JSON [--exhaustive] | --bench */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/ciede.h"

static uint64_t rng_state = 0x636965646532303ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* uniform in [lo, hi) */
static double urand(double lo, double hi)
{
    const double u = ((double)(rnd() >> 5) * 0x1p-27 + (double)(rnd() >> 6)) * 0x1p-26;
    return lo + (hi - lo) * u;
}

typedef struct Variant {
    const char *name;
    LsCiedeLabRowFn lab_row;
    LsCiedeDeltaERowFn delta_e_row;
    void (*approx)(enum LsCiedeApprox, const double *, const double *, double *, unsigned);
} Variant;

/* ---- constants ---- */

/* The hex value after the next "hex" (or float32_hex) following `key`. */
static double table_hex(const char *json, const char *section, const char *key, unsigned skip)
{
    const char *at = strstr(json, section);
    char quoted[64];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    at = at ? strstr(at, quoted) : NULL;
    for (unsigned i = 0; at && i <= skip; i++) {
        at = strstr(at + 1, "hex\": \"");
        if (at && i == skip)
            return strtod(at + 7, NULL);
    }
    return NAN;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    static const struct { const char *section, *key; unsigned skip; double value; } c[] = {
        { "yuv_to_rgb", "r_v", 0, LS_CIEDE_R_V },
        { "yuv_to_rgb", "g_u", 0, LS_CIEDE_G_U },
        { "yuv_to_rgb", "g_v", 0, LS_CIEDE_G_V },
        { "yuv_to_rgb", "b_u", 0, LS_CIEDE_B_U },
        { "transfer", "threshold", 0, LS_CIEDE_LIN_THRESHOLD },
        { "transfer", "A", 0, LS_CIEDE_LIN_A },
        { "transfer", "D_high", 0, LS_CIEDE_LIN_D_HIGH },
        { "transfer", "exponent", 0, LS_CIEDE_LIN_EXPONENT },
        { "transfer", "D_low", 0, LS_CIEDE_LIN_D_LOW },
        { "rgb_to_xyz", "X", 0, LS_CIEDE_XYZ_XR },
        { "rgb_to_xyz", "X", 1, LS_CIEDE_XYZ_XG },
        { "rgb_to_xyz", "X", 2, LS_CIEDE_XYZ_XB },
        { "rgb_to_xyz", "Y", 0, LS_CIEDE_XYZ_YR },
        { "rgb_to_xyz", "Y", 1, LS_CIEDE_XYZ_YG },
        { "rgb_to_xyz", "Y", 2, LS_CIEDE_XYZ_YB },
        { "rgb_to_xyz", "Z", 0, LS_CIEDE_XYZ_ZR },
        { "rgb_to_xyz", "Z", 1, LS_CIEDE_XYZ_ZG },
        { "rgb_to_xyz", "Z", 2, LS_CIEDE_XYZ_ZB },
        { "white_point", "x", 0, LS_CIEDE_WHITE_X },
        { "white_point", "z", 0, LS_CIEDE_WHITE_Z },
        { "lab_map", "KAPPA", 0, LS_CIEDE_KAPPA },
        { "lab_map", "EPSILON", 0, LS_CIEDE_EPSILON },
        { "lab_map", "cube_root_exponent", 0, LS_CIEDE_ONE_THIRD },
        { "lab_map", "inv116", 0, LS_CIEDE_INV_116 },
        { "ciede2000", "kL_float", 0, (double)LS_CIEDE_KL },
        { "ciede2000", "powf25_7_float32", 0, (double)LS_CIEDE_POWF25_7 },
        { "ciede2000", "M_PI", 0, LS_CIEDE_PI },
        { "ciede2000", "two_pi", 0, LS_CIEDE_TWO_PI },
        { "ciede2000", "pi_over_6", 0, LS_CIEDE_PI_OVER_6 },
        { "ciede2000", "pi_over_30", 0, LS_CIEDE_PI_OVER_30 },
        { "ciede2000", "seven_pi_over_20", 0, LS_CIEDE_7PI_OVER_20 },
        { "ciede2000", "rad_to_deg", 0, LS_CIEDE_RAD_TO_DEG },
        { "ciede2000", "deg_to_rad", 0, LS_CIEDE_DEG_TO_RAD },
        { "ciede2000", "one_over_25", 0, LS_CIEDE_ONE_OVER_25 },
    };
    for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        const double t = table_hex(json, c[i].section, c[i].key, c[i].skip);
        CHECK(double_bits(t) == double_bits(c[i].value), "%s %s[%u]: %a, table %a", c[i].section,
              c[i].key, c[i].skip, c[i].value, t);
    }
    /* the expressions the reference writes, evaluated here at run time */
    volatile double one = 1.0, pi = 3.14159265358979323846; /* glibc M_PI */
    CHECK(10.0 * one / 255.0 == LS_CIEDE_LIN_THRESHOLD && one / 1.055 == LS_CIEDE_LIN_D_HIGH &&
          one / 12.92 == LS_CIEDE_LIN_D_LOW && 24389.0 * one / 27.0 == LS_CIEDE_KAPPA &&
          216.0 * one / 24389.0 == LS_CIEDE_EPSILON && one / 3.0 == LS_CIEDE_ONE_THIRD &&
          one / 116.0 == LS_CIEDE_INV_116 && one / 0.95047 == LS_CIEDE_WHITE_X &&
          one / 1.08883 == LS_CIEDE_WHITE_Z, "a colour constant is not its expression");
    CHECK(pi == LS_CIEDE_PI && 2. * pi == LS_CIEDE_TWO_PI && pi / 6.0 == LS_CIEDE_PI_OVER_6 &&
          pi / 30.0 == LS_CIEDE_PI_OVER_30 && 7.0 * pi / 20.0 == LS_CIEDE_7PI_OVER_20 &&
          180.0 / pi == LS_CIEDE_RAD_TO_DEG && pi / 180.0 == LS_CIEDE_DEG_TO_RAD &&
          one / 25.0 == LS_CIEDE_ONE_OVER_25 && powf(25.0f, 7.0f) == LS_CIEDE_POWF25_7 &&
          pow(25.0, 7.0) == LS_CIEDE_POW25_7, "an angle constant is not its expression");
    free(json);
}

/* ---- the approximations against glibc ---- */

enum { NSAMPLES = 1 << 18 };

typedef struct ApproxCase {
    enum LsCiedeApprox fn;
    const char *name;
    double lo, hi;      /* x range; atan2: the range of both arguments */
    double bound;
    int relative;
} ApproxCase;

/* largest |approximation - glibc| (relative to glibc where asked) over dense and random samples;
 * returns 1 when it is below a quarter of the bound */
static int check_approx(const Variant *v, const ApproxCase *k, int report)
{
    static double x[NSAMPLES], y[NSAMPLES], out[NSAMPLES];
    for (unsigned i = 0; i < NSAMPLES; i++) {
        x[i] = i & 1 ? urand(k->lo, k->hi) : k->lo + (k->hi - k->lo) * (double)i / NSAMPLES;
        y[i] = urand(k->lo, k->hi);
        if (k->fn == LS_CIEDE_APPROX_FN_ATAN2 && i % 7 == 0) /* flat and steep angles too */
            y[i] = x[i] * ldexp(1.0, (int)(rnd() % 40) - 20);
    }
    v->approx(k->fn, x, y, out, NSAMPLES);
    double worst = 0.0, at = 0.0;
    for (unsigned i = 0; i < NSAMPLES; i++) {
        double g, e;
        switch (k->fn) {
        case LS_CIEDE_APPROX_FN_LOG: g = log(x[i]); break;
        case LS_CIEDE_APPROX_FN_EXP: g = exp(x[i]); break;
        case LS_CIEDE_APPROX_FN_POW_LIN: g = pow(x[i], LS_CIEDE_LIN_EXPONENT); break;
        case LS_CIEDE_APPROX_FN_POW_THIRD: g = pow(x[i], LS_CIEDE_ONE_THIRD); break;
        case LS_CIEDE_APPROX_FN_POW7: g = pow(x[i], 7.0); break;
        case LS_CIEDE_APPROX_FN_COS: g = cos(x[i]); break;
        case LS_CIEDE_APPROX_FN_SIN: g = sin(x[i]); break;
        default: g = atan2(x[i], y[i]); break;
        }
        e = fabs(out[i] - g);
        /* sin without a reduction (|x| < pi/4) is certified relative to its value */
        const int rel = k->relative || (k->fn == LS_CIEDE_APPROX_FN_SIN && fabs(x[i]) < 0.78);
        if (rel && g != 0.0)
            e /= fabs(g);
        const int sin_abs = k->fn == LS_CIEDE_APPROX_FN_SIN && !rel;
        const double b = sin_abs ? LS_CIEDE_APPROX_SIN_ABS : k->bound;
        if (e / b > worst) {
            worst = e / b;
            at = x[i];
        }
    }
    if (report)
        printf("approx %s %s: worst %.3g of the bound (at %.17g)\n", v->name, k->name, worst, at);
    return worst < 0.25;
}

static const ApproxCase approx_cases[] = {
    /* arguments that occur: transfer bases (c + 0.055) / 1.055 of c in [-0.8, 2.31], the Lab map's
     * c in (EPSILON, 8), exp(-z^2) of |z| < 11.1, the cosines of T (h in [0, 3 pi)), the sines
     * of dh'/2 and of the rotation angle, atan2 of a' and b, G's C^7 */
    { LS_CIEDE_APPROX_FN_LOG, "log", 0.008, 8.0, 4e-15, 0 }, /* enters pow's bound */
    { LS_CIEDE_APPROX_FN_EXP, "exp", -125.0, 2.5, LS_CIEDE_APPROX_EXP, 1 },
    { LS_CIEDE_APPROX_FN_POW_LIN, "pow(x, 2.4)", 0.0894, 2.3, LS_CIEDE_APPROX_POW, 1 },
    { LS_CIEDE_APPROX_FN_POW_THIRD, "pow(x, 1/3)", 0.0088, 8.0, LS_CIEDE_APPROX_POW, 1 },
    { LS_CIEDE_APPROX_FN_POW7, "pow(x, 7)", 0.0, 200.0, 7e-16 * 4, 1 },
    { LS_CIEDE_APPROX_FN_COS, "cos", -1.2, 38.0, LS_CIEDE_APPROX_COS, 0 },
    { LS_CIEDE_APPROX_FN_SIN, "sin", -3.2, 3.2, LS_CIEDE_APPROX_SIN_REL, 0 },
    { LS_CIEDE_APPROX_FN_ATAN2, "atan2", -160.0, 160.0, LS_CIEDE_APPROX_ATAN2, 0 },
};

static void test_approx(const Variant *v)
{
    for (unsigned i = 0; i < sizeof(approx_cases) / sizeof(approx_cases[0]); i++)
        CHECK(check_approx(v, &approx_cases[i], 1), "%s %s: closer than a quarter of its bound "
              "to glibc's value? no", v->name, approx_cases[i].name);
}

/* ---- checkasm: Lab rows ---- */

static unsigned lab_pixels, lab_diffs;
static int expect_differences; /* the mutant: count differences, do not report them as failures */

static void compare_lab(const Variant *v, const void *y, const void *u, const void *vv, unsigned w,
                        unsigned ss_x, unsigned bpc, const char *what)
{
    static float c_out[3][4096], v_out[3][4096];
    float *const c3[3] = { c_out[0], c_out[1], c_out[2] };
    float *const v3[3] = { v_out[0], v_out[1], v_out[2] };
    ls_ciede_lab_row_c(y, u, vv, w, ss_x, bpc, c3);
    v->lab_row(y, u, vv, w, ss_x, bpc, v3);
    for (unsigned x = 0; x < w; x++) {
        lab_pixels++;
        for (int k = 0; k < 3; k++) {
            if (float_bits(c_out[k][x]) == float_bits(v_out[k][x]))
                continue;
            if (lab_diffs++ < 5 && !expect_differences)
                CHECK(0, "lab %s %s %u-bit ss_x=%u w=%u: pixel %u component %d: C %a, SIMD %a",
                      v->name, what, bpc, ss_x, w, x, k, (double)c_out[k][x], (double)v_out[k][x]);
            break;
        }
    }
}

static void store_sample(void *row, unsigned x, unsigned bpc, unsigned s)
{
    if (bpc == 8)
        ((uint8_t *)row)[x] = (uint8_t)s;
    else
        ((uint16_t *)row)[x] = (uint16_t)s;
}

static void check_lab(const Variant *v, int exhaustive)
{
    static uint16_t y[4096], u[4096], vv[4096];
    lab_pixels = lab_diffs = 0;
    /* 8 bits: every luma value against a grid of chroma pairs (all pairs with --exhaustive) */
    const unsigned step = exhaustive ? 1 : 5;
    for (unsigned cu = 0; cu < 256; cu += step) {
        for (unsigned cv = 0; cv < 256; cv += step) {
            for (unsigned x = 0; x < 256; x++) {
                store_sample(y, x, 8, x);
                store_sample(u, x, 8, cu);
                store_sample(vv, x, 8, cv);
            }
            compare_lab(v, y, u, vv, 256, 0, 8, "sweep");
        }
    }
    /* every depth: random samples, extremes, sub-sampled chroma, odd widths */
    static const unsigned depths[4] = { 8, 10, 12, 16 };
    for (unsigned iter = 0; iter < 400; iter++) {
        const unsigned bpc = depths[iter % 4], max = (1u << bpc) - 1, ss_x = (iter / 4) & 1;
        const unsigned w = iter < 80 ? 1 + iter / 2 : 1 + rnd() % 4000;
        for (unsigned x = 0; x < w; x++) {
            const unsigned mode = (iter / 8) % 4;
            const unsigned low_bits = (1u << (bpc - 8)) - 1, grey = 128u << (bpc - 8);
            unsigned s[3];
            for (int k = 0; k < 3; k++)
                s[k] = mode == 0   ? rnd() & max
                       : mode == 1 ? (rnd() & 1) * max /* extremes */
                       : mode == 2 ? ((16u + rnd() % 220u) << (bpc - 8)) | (rnd() & low_bits)
                                   : grey + rnd() % 3 - 1; /* near grey */
            store_sample(y, x, bpc, s[0]);
            store_sample(u, x >> ss_x, bpc, s[1]);
            store_sample(vv, x >> ss_x, bpc, s[2]);
        }
        compare_lab(v, y, u, vv, w, ss_x, bpc, "random");
    }
    CHECK(lab_diffs == 0 || expect_differences, "lab %s: %u of %u pixels differ", v->name,
          lab_diffs, lab_pixels);
    printf("checkasm: lab %s: %u pixels, %u differ\n", v->name, lab_pixels, lab_diffs);
}

/* ---- checkasm: dE rows ---- */

static unsigned de_pixels, de_diffs;

static LsLab lab_of(unsigned y, unsigned u, unsigned v, unsigned bpc)
{
    return ls_ciede_lab(y, u, v, (double)(1u << (bpc - 8)));
}

static void check_delta_e(const Variant *v)
{
    enum { W = 1024 };
    static float r[3][W], d[3][W], out_c[W], out_v[W];
    const float *const r3[3] = { r[0], r[1], r[2] }, *const d3[3] = { d[0], d[1], d[2] };
    de_pixels = de_diffs = 0;
    for (unsigned iter = 0; iter < 240; iter++) {
        const unsigned mode = iter % 8, bpc = 8 + 2 * ((iter / 8) % 3);
        const unsigned max = (1u << bpc) - 1, w = iter < 40 ? 1 + iter : W - (rnd() % 7);
        for (unsigned x = 0; x < w; x++) {
            const unsigned ys = rnd() & max, us = rnd() & max, vs = rnd() & max;
            const unsigned grey = 128u << (bpc - 8);
            LsLab a = lab_of(ys, us, vs, bpc), b;
            switch (mode) {
            case 0: /* unrelated colours */
                b = lab_of(rnd() & max, rnd() & max, rnd() & max, bpc);
                break;
            case 1: /* a codec's small changes: the common case */
                b = lab_of((ys + rnd() % 5) & max, (us + rnd() % 3) & max, (vs + rnd() % 3) & max,
                           bpc);
                break;
            case 2: /* identical, with some near ones between */
                b = x % 3 ? a : lab_of(ys, us, (vs + 1) & max, bpc);
                break;
            case 3: /* near grey: tiny a, b, hues anywhere */
                a = lab_of(ys, grey + rnd() % 5 - 2, grey + rnd() % 5 - 2, bpc);
                b = lab_of(ys, grey + rnd() % 5 - 2, grey + rnd() % 5 - 2, bpc);
                break;
            case 4: { /* zero and signed-zero chroma components */
                const float zeros[4] = { 0.0f, -0.0f, 1e-30f, -3.5f };
                b = a;
                a.a = zeros[rnd() % 4];
                b.b = zeros[rnd() % 4];
                if (rnd() & 1)
                    a.b = zeros[rnd() % 4];
                break;
            }
            case 5: { /* hues on both sides of 0 / 2 pi: the wrap-around branches */
                const double h1 = urand(-0.3, 0.3);
                const double h2 = h1 + urand(-0.6, 0.6) + (rnd() & 1 ? 3.14159 : 0.0);
                const double c1 = urand(0.0, 80.0), c2 = urand(0.0, 80.0);
                a.a = (float)(c1 * cos(h1)), a.b = (float)(c1 * sin(h1));
                b.a = (float)(c2 * cos(h2)), b.b = (float)(c2 * sin(h2));
                a.l = (float)urand(0.0, 100.0), b.l = (float)urand(0.0, 100.0);
                break;
            }
            case 6: /* large chroma (beyond the nominal range) and lightness */
                a.a = (float)urand(-200, 200), a.b = (float)urand(-200, 200);
                b.a = (float)urand(-200, 200), b.b = (float)urand(-200, 200);
                a.l = (float)urand(-20, 120), b.l = (float)urand(-20, 120);
                break;
            default: /* exactly opposite hues, equal chroma */
                b = a;
                b.a = -a.a;
                b.b = -a.b;
                break;
            }
            r[0][x] = a.l, r[1][x] = a.a, r[2][x] = a.b;
            d[0][x] = b.l, d[1][x] = b.a, d[2][x] = b.b;
        }
        ls_ciede_delta_e_row_c(r3, d3, w, out_c);
        v->delta_e_row(r3, d3, w, out_v);
        for (unsigned x = 0; x < w; x++) {
            de_pixels++;
            if (float_bits(out_c[x]) != float_bits(out_v[x]) && de_diffs++ < 5 &&
                !expect_differences)
                CHECK(0, "dE %s mode %u w=%u pixel %u: (%a %a %a) (%a %a %a): C %a, SIMD %a",
                      v->name, mode, w, x, (double)r[0][x], (double)r[1][x], (double)r[2][x],
                      (double)d[0][x], (double)d[1][x], (double)d[2][x], (double)out_c[x],
                      (double)out_v[x]);
        }
    }
    CHECK(de_diffs == 0 || expect_differences, "dE %s: %u of %u pixels differ", v->name,
          de_diffs, de_pixels);
    printf("checkasm: dE %s: %u pixels, %u differ\n", v->name, de_pixels, de_diffs);
}

/* identical colours: exactly +0 (the SIMD variants skip them on this ground) */
static void test_identical_colours(void)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < 20000; i++) {
        const unsigned bpc = 8 + 2 * (i % 3), max = (1u << bpc) - 1;
        LsLab a = lab_of(rnd() & max, rnd() & max, rnd() & max, bpc);
        if (i % 5 == 0)
            a.a = i % 10 ? 0.0f : -0.0f;
        bad += float_bits(ls_ciede_delta_e(a, a)) != 0;
    }
    CHECK(bad == 0, "identical colours: %u of 20000 dE are not +0", bad);
}

/* ---- through the public API ---- */

typedef struct Frame {
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h;
    uint16_t *plane[2][3]; /* [ref/dis][plane], samples at bpc, rows of the plane's width */
    unsigned pw[3], ph[3];
} Frame;

static Frame make_frame(enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    Frame f = { fmt, bpc, w, h, { { 0 } }, { 0 }, { 0 } };
    const unsigned ssx = fmt != VMAF_PIX_FMT_YUV444P, ssy = fmt == VMAF_PIX_FMT_YUV420P;
    const unsigned max = (1u << bpc) - 1;
    for (int p = 0; p < 3; p++) {
        f.pw[p] = p ? (w + ssx) >> ssx : w;
        f.ph[p] = p ? (h + ssy) >> ssy : h;
        for (int i = 0; i < 2; i++) {
            f.plane[i][p] = malloc(2 * (size_t)f.pw[p] * f.ph[p]);
            for (unsigned k = 0; k < f.pw[p] * f.ph[p]; k++) {
                const unsigned x = k % f.pw[p], y = k / f.pw[p];
                const unsigned base = (x * 7 + y * 3 + (unsigned)p * 50) % 220 + 16;
                const unsigned s = ((base << (bpc - 8)) + rnd() % (5u << (bpc - 8))) & max;
                f.plane[i][p][k] = (uint16_t)(i ? (i == 1 && rnd() % 3 == 0 ? s : s ^ 1) : s);
            }
        }
    }
    for (unsigned k = 0; k < f.pw[0] * f.ph[0]; k++) /* distorted: ref with small changes */
        f.plane[1][0][k] = (uint16_t)((f.plane[0][0][k] + rnd() % 3) & max);
    return f;
}

/* The 4:4:4 copy: chroma sample (i, j) from (i >> ss_y, j >> ss_x) of the stored planes. */
static Frame up_sample(const Frame *s)
{
    Frame f = *s;
    f.fmt = VMAF_PIX_FMT_YUV444P;
    const unsigned ssx = s->fmt != VMAF_PIX_FMT_YUV444P, ssy = s->fmt == VMAF_PIX_FMT_YUV420P;
    for (int p = 1; p < 3; p++) {
        f.pw[p] = s->w;
        f.ph[p] = s->h;
        for (int i = 0; i < 2; i++) {
            f.plane[i][p] = malloc(2 * (size_t)s->w * s->h);
            for (unsigned y = 0; y < s->h; y++)
                for (unsigned x = 0; x < s->w; x++)
                    f.plane[i][p][y * s->w + x] =
                        s->plane[i][p][(y >> ssy) * s->pw[p] + (x >> ssx)];
        }
    }
    for (int i = 0; i < 2; i++) { /* luma shared with the source: copy it to own it */
        f.plane[i][0] = malloc(2 * (size_t)s->w * s->h);
        memcpy(f.plane[i][0], s->plane[i][0], 2 * (size_t)s->w * s->h);
    }
    return f;
}

static void free_frame(Frame *f)
{
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < 3; p++)
            free(f->plane[i][p]);
}

static int fill(VmafPicture *pic, const Frame *f, int i)
{
    const int err = vmaf_picture_alloc(pic, f->fmt, f->bpc, f->w, f->h);
    for (int p = 0; !err && p < (f->fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3); p++)
        for (unsigned y = 0; y < f->ph[p]; y++)
            for (unsigned x = 0; x < f->pw[p]; x++) {
                uint8_t *row = (uint8_t *)pic->data[p] + y * pic->stride[p];
                if (f->bpc > 8)
                    ((uint16_t *)row)[x] = f->plane[i][p][y * f->pw[p] + x];
                else
                    row[x] = (uint8_t)f->plane[i][p][y * f->pw[p] + x];
            }
    return err;
}

static int score(const Frame *f, uint64_t cpumask, unsigned threads, double *value)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = threads,
                              .cpumask = cpumask };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    err = vmaf_use_feature(vmaf, "ciede", NULL);
    VmafPicture ref, dis;
    if (!err && !(err = fill(&ref, f, 0))) {
        if ((err = fill(&dis, f, 1))) {
            vmaf_picture_unref(&ref);
        } else if ((err = vmaf_read_pictures(vmaf, &ref, &dis, 0))) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    if (!err)
        err = vmaf_feature_score_at_index(vmaf, "ciede2000", value, 0);
    vmaf_close(vmaf);
    return err;
}

static const struct { const char *name; uint64_t cpumask; unsigned threads; } paths[] = {
    { "C", 255, 0 }, { "AVX2", LS_CPU_FLAG_AVX512, 0 }, { "default", 0, 0 }, { "2 threads", 0, 2 },
};

static void test_layouts(void)
{
    static const struct { enum VmafPixelFormat fmt; unsigned bpc, w, h; } cases[] = {
        { VMAF_PIX_FMT_YUV422P, 8, 64, 36 },  { VMAF_PIX_FMT_YUV422P, 10, 33, 20 },
        { VMAF_PIX_FMT_YUV422P, 12, 70, 9 },  { VMAF_PIX_FMT_YUV422P, 16, 45, 13 },
        { VMAF_PIX_FMT_YUV420P, 8, 35, 21 },  { VMAF_PIX_FMT_YUV420P, 10, 17, 13 },
        { VMAF_PIX_FMT_YUV420P, 8, 1283, 9 }, { VMAF_PIX_FMT_YUV420P, 16, 40, 40 },
    };
    unsigned compared = 0;
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Frame f = make_frame(cases[i].fmt, cases[i].bpc, cases[i].w, cases[i].h);
        Frame g = up_sample(&f);
        double want;
        int err = score(&g, 255, 0, &want);
        CHECK(!err, "4:4:4 copy: error %d (%s)", err, lockstep_last_error());
        for (unsigned k = 0; !err && k < sizeof(paths) / sizeof(paths[0]); k++) {
            double got;
            const int e = score(&f, paths[k].cpumask, paths[k].threads, &got);
            compared++;
            CHECK(!e && double_bits(got) == double_bits(want),
                  "%s %u-bit %ux%u %s: %.17g, its 4:4:4 copy %.17g (error %d)",
                  cases[i].fmt == VMAF_PIX_FMT_YUV422P ? "4:2:2" : "4:2:0", cases[i].bpc,
                  cases[i].w, cases[i].h, paths[k].name, got, want, e);
        }
        free_frame(&g);
        free_frame(&f);
    }
    printf("layouts: %u scores equal to their 4:4:4 copies' (4:2:2, odd 4:2:0)\n", compared);

    /* 10, 12, 16 bits equal to 8 bits shifted give the same score (§7) */
    Frame f8 = make_frame(VMAF_PIX_FMT_YUV420P, 8, 48, 30);
    double v8, v;
    CHECK(!score(&f8, 0, 0, &v8), "8-bit: error");
    for (unsigned bpc = 10; bpc <= 16; bpc += bpc == 12 ? 4 : 2) {
        Frame fh = f8;
        fh.bpc = bpc;
        for (int i = 0; i < 2; i++)
            for (int p = 0; p < 3; p++) {
                fh.plane[i][p] = malloc(2 * (size_t)f8.pw[p] * f8.ph[p]);
                for (unsigned k = 0; k < f8.pw[p] * f8.ph[p]; k++)
                    fh.plane[i][p][k] = (uint16_t)(f8.plane[i][p][k] << (bpc - 8));
            }
        for (unsigned k = 0; k < sizeof(paths) / sizeof(paths[0]); k++)
            CHECK(!score(&fh, paths[k].cpumask, paths[k].threads, &v) &&
                      double_bits(v) == double_bits(v8),
                  "%u-bit shifted %s: %.17g, 8-bit %.17g", bpc, paths[k].name, v, v8);
        free_frame(&fh);
    }
    /* identical frames: every dE is +0, the score +inf */
    for (int p = 0; p < 3; p++)
        memcpy(f8.plane[1][p], f8.plane[0][p], 2 * (size_t)f8.pw[p] * f8.ph[p]);
    for (unsigned k = 0; k < sizeof(paths) / sizeof(paths[0]); k++)
        CHECK(!score(&f8, paths[k].cpumask, paths[k].threads, &v) && isinf(v) && v > 0,
              "identical %s: %.17g", paths[k].name, v);
    free_frame(&f8);
}

static void test_refusals(void)
{
    static const struct { enum VmafPixelFormat fmt; unsigned bpc; const char *text; } cases[] = {
        { VMAF_PIX_FMT_YUV400P, 8, "no chroma" },  { VMAF_PIX_FMT_YUV400P, 10, "no chroma" },
        { VMAF_PIX_FMT_YUV420P, 9, "bit depth 9" }, { VMAF_PIX_FMT_YUV444P, 14, "bit depth 14" },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const int mono = cases[i].fmt == VMAF_PIX_FMT_YUV400P;
        Frame f = make_frame(mono ? VMAF_PIX_FMT_YUV444P : cases[i].fmt, 8, 16, 16);
        f.fmt = cases[i].fmt;
        f.bpc = cases[i].bpc;
        double v;
        const int err = score(&f, 0, 0, &v);
        const char *msg = err ? lockstep_last_error() : "";
        CHECK(err && strstr(msg, "ciede") && strstr(msg, cases[i].text),
              "%u-bit format %d: %s", cases[i].bpc, (int)cases[i].fmt, err ? msg : "accepted");
        if (err)
            printf("refused as expected: %s\n", msg);
        free_frame(&f);
    }
    /* tiny frames are scored (goldens p11c, p11d: 8x8, 7x7) */
    Frame f = make_frame(VMAF_PIX_FMT_YUV444P, 8, 1, 1);
    double v;
    CHECK(!score(&f, 0, 0, &v) && isfinite(v), "1x1 4:4:4 not scored");
    free_frame(&f);
}

/* ---- bench ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench(const Variant *variants, unsigned n)
{
    enum { W = 1920 };
    static uint8_t y[2][W], u[2][W / 2], v[2][W / 2];
    static float lab[2][3][W], de[W];
    for (int i = 0; i < 2; i++)
        for (unsigned x = 0; x < W; x++) {
            y[i][x] = (uint8_t)(16 + (x * 7 + rnd() % 9 + (unsigned)i) % 220);
            u[i][x / 2] = (uint8_t)(90 + (x / 5 + rnd() % 4) % 80);
            v[i][x / 2] = (uint8_t)(100 + (x / 3 + rnd() % 4) % 60);
        }
    for (unsigned k = 0; k < n; k++) {
        float *const l0[3] = { lab[0][0], lab[0][1], lab[0][2] };
        float *const l1[3] = { lab[1][0], lab[1][1], lab[1][2] };
        const unsigned reps = k ? 200 : 20;
        double t0 = now();
        for (unsigned r = 0; r < reps; r++) {
            variants[k].lab_row(y[0], u[0], v[0], W, 1, 8, l0);
            variants[k].lab_row(y[1], u[1], v[1], W, 1, 8, l1);
        }
        const double t_lab = (now() - t0) * 1e9 / (reps * W);
        t0 = now();
        for (unsigned r = 0; r < reps; r++)
            variants[k].delta_e_row((const float *const *)l0, (const float *const *)l1, W, de);
        printf("%s: Lab of both pictures %.1f ns/pixel, dE %.1f ns/pixel\n", variants[k].name,
               t_lab, (now() - t0) * 1e9 / (reps * W));
    }
}

int main(int argc, char **argv)
{
    const uint64_t cpu = ls_cpu_detect();
#ifdef LS_CIEDE_MUTANT
    (void)argc, (void)argv, (void)test_tables, (void)test_identical_colours, (void)test_layouts;
    (void)test_refusals, (void)bench, (void)test_approx;
    if (!(cpu & LS_CPU_FLAG_AVX2)) {
        printf("SKIP: no AVX2 for the mutant\n");
        return 77;
    }
    const Variant mutant = { "mutant", ls_ciede_lab_row_mutant, ls_ciede_delta_e_row_mutant,
                             ls_ciede_approx_mutant };
    expect_differences = 1;
    const int bound_caught = !check_approx(&mutant, &approx_cases[1], 1) &&
                             !check_approx(&mutant, &approx_cases[5], 1);
    check_lab(&mutant, 0);
    check_delta_e(&mutant);
    printf("mutant (exp to r^4, cos to r^8): bound checks %s, %u Lab and %u dE pixels differ: %s\n",
           bound_caught ? "fail" : "PASS", lab_diffs, de_diffs,
           bound_caught && lab_diffs && de_diffs ? "detected" : "NOT DETECTED");
    return bound_caught && lab_diffs && de_diffs ? 0 : 1;
#else
    Variant variants[3] = { { "C", ls_ciede_lab_row_c, ls_ciede_delta_e_row_c, NULL } };
    unsigned n = 1;
    if (cpu & LS_CPU_FLAG_AVX2)
        variants[n++] = (Variant){ "AVX2", ls_ciede_lab_row_avx2, ls_ciede_delta_e_row_avx2,
                                   ls_ciede_approx_avx2 };
    else
        printf("SKIP AVX2 (not on this CPU)\n");
    if (cpu & LS_CPU_FLAG_AVX512)
        variants[n++] = (Variant){ "AVX-512", ls_ciede_lab_row_avx512,
                                   ls_ciede_delta_e_row_avx512, ls_ciede_approx_avx512 };
    else
        printf("SKIP AVX-512 (not on this CPU)\n");
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        bench(variants, n);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s CIEDE_JSON [--exhaustive] | --bench\n", argv[0]);
        return 2;
    }
    const int exhaustive = argc > 2 && !strcmp(argv[2], "--exhaustive");
    test_tables(argv[1]);
    test_identical_colours();
    for (unsigned k = 1; k < n; k++) {
        test_approx(&variants[k]);
        check_lab(&variants[k], exhaustive);
        check_delta_e(&variants[k]);
    }
    test_layouts();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_ciede: %d failures\n", failures);
    else
        printf("test_ciede: all passed\n");
    return failures ? 1 : 0;
#endif
}
