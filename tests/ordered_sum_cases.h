/* Inputs of the ordered-sum tests, one set for every implementation of the scheme: the host
 * reference (test_cuda_ordered_sum.c, the CUDA algorithm) and the OpenCL kernels
 * (test_opencl.c). Each kind stresses a path of core/ordered_sum.h: ties, subnormal starts, zero
 * runs, binade crossings, overflow. The caller passes its random generator (32 random bits a
 * call), so that a test's other inputs keep their sequence. */
#ifndef LOCKSTEP_TESTS_ORDERED_SUM_CASES_H
#define LOCKSTEP_TESTS_ORDERED_SUM_CASES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* the result every implementation must reproduce bit for bit */
static inline float os_sequential(const float *t, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++)
        s = s + t[i];
    return s;
}

/* what a reordered (tree) sum gives: the inputs must tell it apart from the sequential one */
static inline float os_pairwise(const float *t, size_t n)
{
    if (n == 1)
        return t[0];
    if (n == 0)
        return 0.0f;
    return os_pairwise(t, n / 2) + os_pairwise(t + n / 2, n - n / 2);
}

static inline uint32_t os_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

enum OsKind {
    OS_UNIFORM,      /* [0, 1) */
    OS_SQUARES,      /* w*w, w in [0, 64), one in eight zero: psnr_hvs-like */
    OS_MIXED,        /* mostly small fractions, some large integers: a 4K psnr_hvs plane, about */
    OS_HALVES,       /* k/2, k small integers: ties everywhere once the sum passes 2^23 */
    OS_QUARTERS,     /* multiples of 1/4 with extra halves: ties on a large sum */
    OS_QUARTERS_BIG, /* large start, then quarters: ties at coarse ulps */
    OS_EIGHTHS,      /* multiples of 1/8 below 125 */
    OS_SPARSE,       /* mostly zero, long zero prefix */
    OS_ZERO_RUNS,    /* zero runs, a late start, subnormal terms among large ones */
    OS_WIDE,         /* terms over 40 binades */
    OS_WIDE_INT,     /* odd integers scaled over 2^-84 .. 2^15 */
    OS_TINY,         /* subnormal and tiny normal terms */
    OS_OVERFLOW,     /* huge terms: the sum reaches inf */
    OS_ZEROS,        /* all zero */
    OS_N_KINDS
};

static const char *const os_kind_names[OS_N_KINDS] = {
    "uniform", "squares", "mixed",     "halves",   "quarters", "quarters_big", "eighths",
    "sparse",  "zero_runs", "wide",    "wide_int", "tiny",     "overflow",     "zeros"
};

static inline void os_fill(float *t, size_t n, enum OsKind kind, uint32_t (*rnd)(void))
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case OS_UNIFORM: t[i] = (float)(rnd() >> 8) * 0x1p-24f; break;
        case OS_SQUARES: {
            const float w = (float)(rnd() >> 8) * 0x1p-24f * 64.0f;
            t[i] = (rnd() & 7) ? w * w : 0.0f;
            break;
        }
        case OS_MIXED:
            t[i] = rnd() % 8 ? (float)(rnd() >> 8) * 0x1p-20f : (float)(rnd() >> 12);
            break;
        case OS_HALVES: t[i] = (float)(rnd() % 8) * 0.5f; break;
        case OS_QUARTERS: {
            const float q = (float)(rnd() % 64) * 0.25f;
            t[i] = q + (rnd() % 3 ? 0.0f : 0.5f);
            break;
        }
        case OS_QUARTERS_BIG:
            t[i] = i == 0 ? 0x1p24f : (float)(rnd() % 16) * 0.25f + 1.0f;
            break;
        case OS_EIGHTHS: t[i] = (float)(rnd() % 1000) * 0.125f; break;
        case OS_SPARSE:
            t[i] = (i < n / 3 || (rnd() & 63)) ? 0.0f : (float)(rnd() >> 8) * 0x1p-24f * 1000.0f;
            break;
        case OS_ZERO_RUNS:
            t[i] = i < 300000 || (i / 5000) % 3 == 0
                       ? 0.0f
                       : (i % 7 ? 0x1p-140f * (float)(rnd() % 100) : (float)(rnd() % 1000));
            break;
        case OS_WIDE: {
            const float u = (float)(rnd() >> 8) * 0x1p-24f;
            t[i] = ldexpf(u, (int)(rnd() % 40) - 20);
            break;
        }
        case OS_WIDE_INT: {
            const int exponent = (int)(rnd() % 100) - 84;
            t[i] = ldexpf((float)(rnd() | 1), exponent);
            break;
        }
        case OS_TINY:
            if (rnd() & 1) {
                const uint32_t sub = rnd() % 0x800000u;
                memcpy(&t[i], &sub, sizeof(sub));
            } else {
                t[i] = ldexpf((float)(rnd() >> 8) * 0x1p-24f, -120);
            }
            break;
        case OS_OVERFLOW: t[i] = 0x1.fffffep+120f * (float)(1 + rnd() % 1000); break;
        default: t[i] = 0.0f; break;
        }
    }
}

#endif
