/* CIEDE2000 (`ciede`): the per-pixel arithmetic of the reference, which the CPU extractor and a
 * future GPU twin share, and the DSP unit of the CPU path. Everything above the host section
 * compiles as C11 and under nvcc (LS_HD functions, no libc but what CUDA has).
 *
 * The reference mixes float and double at almost every step; each step below is written with
 * explicit casts in the spec's order (ciede.md §4-§5), and every double constant is the exact
 * binary64 value of tables/ciede.json (hex literals, so that no compiler folds an expression
 * differently). The transcendental calls must be glibc's to reproduce the reference's bits: a
 * device (or a SIMD path) that evaluates them differently must prove, per value, that it rounds
 * to the same float, and fall back to these functions on the host where it cannot (see
 * ls_ciede_same_float and x86/ciede_avx2.c). Spec: shared/spec/features/ciede.md. */
#ifndef LOCKSTEP_FEATURE_CIEDE_H
#define LOCKSTEP_FEATURE_CIEDE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/portable.h"

typedef struct LsLab {
    float l, a, b;
} LsLab;

/* ---- constants (tables/ciede.json) ---- */

#define LS_CIEDE_PI 0x1.921fb54442d18p+1            /* M_PI */
#define LS_CIEDE_TWO_PI 0x1.921fb54442d18p+2        /* 2. * M_PI */
#define LS_CIEDE_PI_OVER_6 0x1.0c152382d7365p-1     /* M_PI / 6.0 */
#define LS_CIEDE_PI_OVER_30 0x1.acee9f37bebd5p-4    /* M_PI / 30.0 */
#define LS_CIEDE_7PI_OVER_20 0x1.197c987c952c4p+0   /* 7.0 * M_PI / 20.0, product first */
#define LS_CIEDE_RAD_TO_DEG 0x1.ca5dc1a63c1f8p+5    /* 180.0 / M_PI */
#define LS_CIEDE_DEG_TO_RAD 0x1.1df46a2529d39p-6    /* M_PI / 180.0 */
#define LS_CIEDE_ONE_OVER_25 0x1.47ae147ae147bp-5   /* 1.0 / 25.0 */
#define LS_CIEDE_POW25_7 6103515625.0               /* 25^7, exact */
#define LS_CIEDE_POWF25_7 0x1.6bcc42p+32f           /* powf(25, 7) = 6103515648 */
#define LS_CIEDE_KL 0x1.4cccccp-1f                  /* 0.65f */
#define LS_CIEDE_KC 1.0f
#define LS_CIEDE_KH 4.0f

#define LS_CIEDE_R_V 0x1.47c3b4f616723p+0           /* 1.28033 */
#define LS_CIEDE_G_U 0x1.b7f38c5436b9p-3            /* 0.21482 */
#define LS_CIEDE_G_V 0x1.85b9628cbd124p-2           /* 0.38059 */
#define LS_CIEDE_B_U 0x1.1061a60d4562ep+1           /* 2.12798 */
#define LS_CIEDE_LIN_THRESHOLD 0x1.4141414141414p-5 /* 10. / 255. (not sRGB's 0.04045) */
#define LS_CIEDE_LIN_A 0x1.c28f5c28f5c29p-5         /* 0.055 */
#define LS_CIEDE_LIN_D_HIGH 0x1.e54edcd0aeb6p-1     /* 1.0 / 1.055 */
#define LS_CIEDE_LIN_EXPONENT 0x1.3333333333333p+1  /* 2.4 */
#define LS_CIEDE_LIN_D_LOW 0x1.3d0722149b58p-4      /* 1.0 / 12.92 */
#define LS_CIEDE_XYZ_XR 0x1.a65afb13a8cccp-2        /* 0.4124564390896921 */
#define LS_CIEDE_XYZ_XG 0x1.6e286c5d400cp-2         /* 0.357576077643909 */
#define LS_CIEDE_XYZ_XB 0x1.7189350cd0583p-3        /* 0.18043748326639894 */
#define LS_CIEDE_XYZ_YR 0x1.b38dd2ec46132p-3        /* 0.21267285140562248 */
#define LS_CIEDE_XYZ_YG 0x1.6e286c5d400cp-1         /* 0.715152155287818 */
#define LS_CIEDE_XYZ_YB 0x1.27a0f73d7379cp-4        /* 0.07217499330655958 */
#define LS_CIEDE_XYZ_ZR 0x1.3cc43c4ebe999p-6        /* 0.019333895582329317 */
#define LS_CIEDE_XYZ_ZG 0x1.e835e5d1aababp-4        /* 0.119192025881303 */
#define LS_CIEDE_XYZ_ZB 0x1.e68e41952363p-1         /* 0.9503040785363677 */
#define LS_CIEDE_WHITE_X 0x1.0d5726861543p+0        /* 1.0 / 0.95047 */
#define LS_CIEDE_WHITE_Z 0x1.d63ac153514f5p-1       /* 1.0 / 1.08883 */
#define LS_CIEDE_KAPPA 0x1.c3a5ed097b426p+9         /* 24389.0 / 27.0 */
#define LS_CIEDE_EPSILON 0x1.22354d28f7cd6p-7       /* 216.0 / 24389.0 */
#define LS_CIEDE_ONE_THIRD 0x1.5555555555555p-2     /* 1.0 / 3.0 */
#define LS_CIEDE_INV_116 0x1.1a7b9611a7b96p-7       /* 1.0 / 116.0 */

/* ---- colour conversion (§4) ---- */

/* Y, U, V normalised (the first lines of §4): `scale` = 2^(bpc-8); each reciprocal is its own
 * correctly rounded division. Exact for any evaluation that follows these operations. */
LS_HD static inline void ls_ciede_normalise(unsigned y, unsigned u, unsigned v, double scale,
                                            double *yn, double *un, double *vn)
{
    *yn = ((double)(float)y - 16.0 * scale) * (1.0 / (219.0 * scale));
    *un = ((double)(float)u - 128.0 * scale) * (1.0 / (224.0 * scale));
    *vn = ((double)(float)v - 128.0 * scale) * (1.0 / (224.0 * scale));
}

/* Limited-range "BT.709" matrix; the inputs of the transfer function. */
LS_HD static inline void ls_ciede_rgb(double y, double u, double v, double *r, double *g,
                                      double *b)
{
    *r = y + LS_CIEDE_R_V * v;
    *g = (y - LS_CIEDE_G_U * u) - LS_CIEDE_G_V * v;
    *b = y + LS_CIEDE_B_U * u;
}

/* Negative values (saturated colours) take the linear branch. */
LS_HD static inline double ls_ciede_linearise(double c)
{
    return c > LS_CIEDE_LIN_THRESHOLD
               ? pow((c + LS_CIEDE_LIN_A) * LS_CIEDE_LIN_D_HIGH, LS_CIEDE_LIN_EXPONENT)
               : c * LS_CIEDE_LIN_D_LOW;
}

LS_HD static inline void ls_ciede_xyz(double r, double g, double b, double *x, double *y,
                                      double *z)
{
    *x = (r * LS_CIEDE_XYZ_XR + g * LS_CIEDE_XYZ_XG) + b * LS_CIEDE_XYZ_XB;
    *y = (r * LS_CIEDE_XYZ_YR + g * LS_CIEDE_XYZ_YG) + b * LS_CIEDE_XYZ_YB;
    *z = (r * LS_CIEDE_XYZ_ZR + g * LS_CIEDE_XYZ_ZG) + b * LS_CIEDE_XYZ_ZB;
}

/* The Lab map, rounded to float; the cube root is pow(c, 1.0/3.0), not cbrt. */
LS_HD static inline float ls_ciede_lab_f(double c)
{
    return c > LS_CIEDE_EPSILON ? (float)pow(c, LS_CIEDE_ONE_THIRD)
                                : (float)((LS_CIEDE_KAPPA * c + 16.0) * LS_CIEDE_INV_116);
}

/* L, a, b from the rounded fx, fy, fz. */
LS_HD static inline LsLab ls_ciede_lab_from_f(float fx, float fy, float fz)
{
    LsLab lab;
    lab.l = (float)(116.0 * (double)fy - 16.0);
    lab.a = (float)(500.0 * ((double)fx - (double)fy));
    lab.b = (float)(200.0 * ((double)fy - (double)fz));
    return lab;
}

/* get_lab: one position's samples (y, u, v) at bit depth 2^(bpc-8) = scale. */
LS_HD static inline LsLab ls_ciede_lab(unsigned y, unsigned u, unsigned v, double scale)
{
    double yn, un, vn, r, g, b, x, yl, z;
    ls_ciede_normalise(y, u, v, scale, &yn, &un, &vn);
    ls_ciede_rgb(yn, un, vn, &r, &g, &b);
    ls_ciede_xyz(ls_ciede_linearise(r), ls_ciede_linearise(g), ls_ciede_linearise(b), &x, &yl,
                 &z);
    return ls_ciede_lab_from_f(ls_ciede_lab_f(x * LS_CIEDE_WHITE_X), ls_ciede_lab_f(yl),
                               ls_ciede_lab_f(z * LS_CIEDE_WHITE_Z));
}

/* ---- CIEDE2000 of one pixel pair (§5) ---- */

/* (double)x * (double)x: what glibc pow(x, 2) of a float returns (gcc folds it to this) */
LS_HD static inline double ls_ciede_sq(float x)
{
    return (double)x * (double)x;
}

/* hue angle in [0, 2pi) of (a', b): atan2(b, a'), float */
LS_HD static inline float ls_ciede_hue(float x, float y)
{
    if (x == 0.0f && y == 0.0f)
        return 0.0f;
    float h = (float)atan2((double)x, (double)y);
    if (h < 0.0f)
        h = (float)((double)h + LS_CIEDE_TWO_PI);
    return h;
}

/* Unlike the textbook formula: tested on the unprimed chromas c1, c2. */
LS_HD static inline float ls_ciede_delta_h(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0f || c2 == 0.0f)
        return 0.0f;
    const float d = h2 - h1;
    if ((double)fabsf(h1 - h2) <= LS_CIEDE_PI)
        return d;
    if (h2 <= h1)
        return (float)((double)d + LS_CIEDE_TWO_PI);
    return (float)((double)d - LS_CIEDE_TWO_PI);
}

/* Unlike the textbook formula: no special case for a zero chroma product. */
LS_HD static inline float ls_ciede_mean_hue(float h1, float h2)
{
    const float s = h1 + h2;
    if (fabs((double)(h1 - h2)) > LS_CIEDE_PI)
        return (float)(((double)s + LS_CIEDE_TWO_PI) / 2.0);
    return (float)((double)s / 2.0);
}

/* T of S_H: four cosines of the float mean hue in double, rounded to float once at the end. */
LS_HD static inline float ls_ciede_t(float hbarp)
{
    const double h = (double)hbarp;
    const double t1 = 1.0 - 0.17 * cos(h - LS_CIEDE_PI_OVER_6);
    const double t2 = t1 + 0.24 * cos(2.0 * h);
    const double t3 = t2 + 0.32 * cos(3.0 * h + LS_CIEDE_PI_OVER_30);
    return (float)(t3 - 0.20 * cos(4.0 * h - LS_CIEDE_7PI_OVER_20));
}

/* The angle of the rotation term, sin(rad) in double: depends on the mean hue alone. */
LS_HD static inline double ls_ciede_rotation_sin(float hbarp)
{
    const float deg = (float)((double)hbarp * LS_CIEDE_RAD_TO_DEG);
    const float z = (float)(((double)deg - 275.0) * LS_CIEDE_ONE_OVER_25);
    const double e = exp(-(double)(z * z)); /* powf(z, 2) = F(z * z) */
    const float ang = (float)(60.0 * e);
    const float rad = (float)((double)ang * LS_CIEDE_DEG_TO_RAD);
    return sin((double)rad);
}

/* sqrt(C'^7 / (C'^7 + 25^7)) of R_T: glibc powf (float; not always correctly rounded), a float
 * quotient, a double root. */
LS_HD static inline double ls_ciede_rotation_root(float cbarp)
{
    const float p7 = powf(cbarp, 7.0f);
    const float q = p7 + LS_CIEDE_POWF25_7;
    return sqrt((double)(p7 / q));
}

LS_HD static inline float ls_ciede_rotation(float cbarp, float hbarp)
{
    return (float)((-2.0 * ls_ciede_rotation_root(cbarp)) * ls_ciede_rotation_sin(hbarp));
}

/* G of the a' correction, from the float mean chroma: glibc pow (double). */
LS_HD static inline double ls_ciede_g(float cbar)
{
    const double p7 = pow((double)cbar, 7.0);
    return sqrt(p7 / (p7 + LS_CIEDE_POW25_7));
}

/* a' = a + (a / 2) * (1 - G): a / 2 in float, the rest in double. */
LS_HD static inline float ls_ciede_a_prime(float a, double g)
{
    return (float)((double)a + (double)(a / 2.0f) * (1.0 - g));
}

/* F(sqrt(sq(x) + sq(y))): double sum, double root, to float */
LS_HD static inline float ls_ciede_chroma(float x, float y)
{
    return (float)sqrt(ls_ciede_sq(x) + ls_ciede_sq(y));
}

/* S_L from the float mean lightness */
LS_HD static inline float ls_ciede_sl(float lbar)
{
    const float t = lbar - 50.0f;
    return (float)(1.0 + (0.015 * ls_ciede_sq(t)) / sqrt(20.0 + ls_ciede_sq(t)));
}

/* The pieces of one pair that the transcendental calls split: everything before the hues. */
typedef struct LsCiedePair {
    float dl, sl;         /* L2 - L1; S_L */
    float c1, c2;         /* unprimed chromas (delta_h tests them) */
    float a1p, a2p;       /* a' */
    float c1p, c2p, cbarp, dcp, sc;
} LsCiedePair;

LS_HD static inline void ls_ciede_pair_start(LsLab r, LsLab d, double g, LsCiedePair *p)
{
    p->a1p = ls_ciede_a_prime(r.a, g);
    p->a2p = ls_ciede_a_prime(d.a, g);
    p->c1p = ls_ciede_chroma(p->a1p, r.b);
    p->c2p = ls_ciede_chroma(p->a2p, d.b);
    p->cbarp = (p->c1p + p->c2p) / 2.0f;
    p->dcp = p->c2p - p->c1p;
    p->sc = (float)(1.0 + 0.045 * (double)p->cbarp);
}

/* dE from the hues and the hue-dependent terms: T, sin of the rotation angle, root of R_T. */
LS_HD static inline float ls_ciede_pair_finish(const LsCiedePair *p, float h1p, float h2p,
                                               float t, double rot_sin, double rot_root)
{
    const float dhp = ls_ciede_delta_h(p->c1, p->c2, h1p, h2p);
    const float dhp_big =
        (float)((2.0 * sqrt((double)(p->c1p * p->c2p))) * sin((double)dhp / 2.0));
    const float sh = (float)(1.0 + (0.015 * (double)p->cbarp) * (double)t);
    const float rt = (float)((-2.0 * rot_root) * rot_sin);
    const float lt = p->dl / (LS_CIEDE_KL * p->sl);
    const float ch = p->dcp / (LS_CIEDE_KC * p->sc);
    const float hu = dhp_big / (LS_CIEDE_KH * sh);
    return (float)sqrt(((ls_ciede_sq(lt) + ls_ciede_sq(ch)) + ls_ciede_sq(hu)) +
                       (double)((rt * ch) * hu));
}

/* CIEDE2000 of the reference colour r and the distorted colour d (§5). */
LS_HD static inline float ls_ciede_delta_e(LsLab r, LsLab d)
{
    LsCiedePair p;
    p.dl = d.l - r.l;
    p.sl = ls_ciede_sl((r.l + d.l) / 2.0f);
    p.c1 = ls_ciede_chroma(r.a, r.b);
    p.c2 = ls_ciede_chroma(d.a, d.b);
    ls_ciede_pair_start(r, d, ls_ciede_g((p.c1 + p.c2) / 2.0f), &p);
    const float h1p = ls_ciede_hue(r.b, p.a1p);
    const float h2p = ls_ciede_hue(d.b, p.a2p);
    const float hbarp = ls_ciede_mean_hue(h1p, h2p);
    return ls_ciede_pair_finish(&p, h1p, h2p, ls_ciede_t(hbarp), ls_ciede_rotation_sin(hbarp),
                                ls_ciede_rotation_root(p.cbarp));
}

#ifndef __CUDACC__

#include "core/extractor.h"

extern const LsExtractor ls_fex_ciede;

/* ---- DSP units of the CPU path (C references in ciede_dsp.c, AVX2 in x86/ciede_avx2.c) ---- */

/* Lab of one row: samples y[x], u[x >> ss_x], v[x >> ss_x] (bytes for bpc 8, else uint16 words)
 * to lab[0][x] = L, lab[1][x] = a, lab[2][x] = b, for x < w. */
typedef void (*LsCiedeLabRowFn)(const void *y, const void *u, const void *v, unsigned w,
                                unsigned ss_x, unsigned bpc, float *const lab[3]);
/* de[x] = ls_ciede_delta_e(reference colour x, distorted colour x) for x < w. */
typedef void (*LsCiedeDeltaERowFn)(const float *const ref[3], const float *const dis[3],
                                   unsigned w, float *de);

typedef struct LsCiedeDsp {
    LsCiedeLabRowFn lab_row;
    LsCiedeDeltaERowFn delta_e_row;
} LsCiedeDsp;

void ls_ciede_dsp_init(LsCiedeDsp *dsp, uint64_t cpu_flags);

/* The C references, which the SIMD variants finish rows with and fall back to. */
void ls_ciede_lab_row_c(const void *y, const void *u, const void *v, unsigned w, unsigned ss_x,
                        unsigned bpc, float *const lab[3]);
void ls_ciede_delta_e_row_c(const float *const ref[3], const float *const dis[3], unsigned w,
                            float *de);

/* 8 bits: the linearised r and b of every (Y, V) and (Y, U), as the C reference computes them
 * (glibc pow): [Y * 256 + V], then [65536 + Y * 256 + U]. Built on the first call (thread-safe),
 * kept for the process; NULL if it could not be allocated. Used by the SIMD variants. */
const double *ls_ciede_lin_table_8bit(void);

/* The SIMD variants' approximations of glibc's functions (x86/ciede_tmpl.c) and the bounds on
 * their distance from glibc's results that the variants rely on: several times the error
 * analysis of each approximation plus glibc's own error (under one ulp). tests/test_ciede.c
 * measures the distance on dense samples of the arguments that occur and requires it to stay
 * below a quarter of the bound. POW*, EXP, SIN_REL: relative; COS, SIN_ABS, ATAN2: absolute;
 * G: a' relative to |a| + |a / 2|. */
#define LS_CIEDE_APPROX_POW 1e-14
#define LS_CIEDE_APPROX_EXP 4e-15
#define LS_CIEDE_APPROX_COS 4e-15
#define LS_CIEDE_APPROX_SIN_ABS 4e-15
#define LS_CIEDE_APPROX_SIN_REL 4e-15
#define LS_CIEDE_APPROX_ATAN2 6e-15
#define LS_CIEDE_APPROX_G 4e-15

enum LsCiedeApprox {
    LS_CIEDE_APPROX_FN_LOG,
    LS_CIEDE_APPROX_FN_EXP,
    LS_CIEDE_APPROX_FN_POW_LIN,   /* x^2.4 */
    LS_CIEDE_APPROX_FN_POW_THIRD, /* x^(1/3) */
    LS_CIEDE_APPROX_FN_POW7,
    LS_CIEDE_APPROX_FN_COS,
    LS_CIEDE_APPROX_FN_SIN,
    LS_CIEDE_APPROX_FN_ATAN2,     /* atan2(x, y) */
};
/* out[i] = the approximation of fn at x[i] (and y[i]), for tests; n a multiple of 8. */
void ls_ciede_approx_avx2(enum LsCiedeApprox fn, const double *x, const double *y, double *out,
                          unsigned n);
void ls_ciede_approx_avx512(enum LsCiedeApprox fn, const double *x, const double *y,
                            double *out, unsigned n);

#ifdef LS_CIEDE_MUTANT /* tests/ciede.cmake: the deliberately inaccurate copy */
void ls_ciede_approx_mutant(enum LsCiedeApprox fn, const double *x, const double *y, double *out,
                            unsigned n);
void ls_ciede_lab_row_mutant(const void *y, const void *u, const void *v, unsigned w,
                             unsigned ss_x, unsigned bpc, float *const lab[3]);
void ls_ciede_delta_e_row_mutant(const float *const ref[3], const float *const dis[3],
                                 unsigned w, float *de);
#endif

void ls_ciede_lab_row_avx2(const void *y, const void *u, const void *v, unsigned w,
                           unsigned ss_x, unsigned bpc, float *const lab[3]);
void ls_ciede_delta_e_row_avx2(const float *const ref[3], const float *const dis[3], unsigned w,
                               float *de);
void ls_ciede_lab_row_avx512(const void *y, const void *u, const void *v, unsigned w,
                             unsigned ss_x, unsigned bpc, float *const lab[3]);
void ls_ciede_delta_e_row_avx512(const float *const ref[3], const float *const dis[3],
                                 unsigned w, float *de);

#endif /* !__CUDACC__ */

#endif
