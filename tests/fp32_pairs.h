/* Operand pairs for the contract tests of src/opencl/fp32_exact.h, shared by the host and device
 * runs so both see the same kinds of pairs (exactness.md §4.3 "Validation"). */
#ifndef LOCKSTEP_TESTS_FP32_PAIRS_H
#define LOCKSTEP_TESTS_FP32_PAIRS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float fp32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline uint32_t fp32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static inline uint64_t fp32_rng(uint64_t *state) /* splitmix64 */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Values at the edges of the format and of the algorithm's cases. */
static const uint32_t fp32_boundary_bits[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x00000002u, 0x00000003u, 0x000fffffu, 0x00400000u,
    0x007fffffu, 0x00800000u, 0x00800001u, 0x00ffffffu, 0x01000000u, 0x0d800000u, 0x33800000u,
    0x34000000u, 0x3e800000u, 0x3effffffu, 0x3f000000u, 0x3f000001u, 0x3f7fffffu, 0x3f800000u,
    0x3f800001u, 0x3f800002u, 0x3fb504f3u, 0x3fb504f4u, 0x3fffffffu, 0x40000000u, 0x40000001u,
    0x40400000u, 0x4b000000u, 0x4b000001u, 0x4b7fffffu, 0x4b800000u, 0x4b800001u, 0x4c000000u,
    0x5f000000u, 0x5f800000u, 0x7effffffu, 0x7f000000u, 0x7f7ffffeu, 0x7f7fffffu, 0x7f800000u,
    0xff800000u, 0x7fc00000u, 0xbf800000u, 0x80000001u, 0xff7fffffu, 0x3c800000u, 0x3d800000u,
    0x3a800000u, 0x3b000000u, 0x46fffe00u, 0x4afffffeu, 0x4b7ffffeu,
};
#define FP32_N_BOUNDARY (sizeof(fp32_boundary_bits) / sizeof(fp32_boundary_bits[0]))

enum Fp32PairKind {
    FP32_PAIRS_BOUNDARY,   /* every ordered pair of the boundary values */
    FP32_PAIRS_RANDOM_BITS,/* any positive finite float, either operand subnormal included */
    FP32_PAIRS_RANDOM_WORK,/* the ranges psnr_hvs meets: energy 2^-10..2^40, ratio 2^-30..2^4 */
    FP32_PAIRS_K_K1,       /* a = k, b = k + 1: root 1/(8k) below the midpoint k + 1/2 */
    FP32_PAIRS_M1_M1,      /* a = m - 1, b = m + 1, m odd: root 1/(2m) below the midpoint m */
    FP32_PAIRS_NB,
};

/* Number of pairs of a kind when `scale` of the random kinds are asked for. The k(k+1) and
 * (m-1)(m+1) kinds take every k in [2^23, 2^24) (resp. every odd m in [2^24, 2^25)) at `reps`
 * scalings each. */
static inline uint64_t fp32_pairs_count(enum Fp32PairKind kind, uint64_t random_n, unsigned reps)
{
    switch (kind) {
    case FP32_PAIRS_BOUNDARY: return (uint64_t)FP32_N_BOUNDARY * FP32_N_BOUNDARY;
    case FP32_PAIRS_RANDOM_BITS: return random_n;
    case FP32_PAIRS_RANDOM_WORK: return random_n;
    case FP32_PAIRS_K_K1: return (uint64_t)reps << 23;
    case FP32_PAIRS_M1_M1: return (uint64_t)reps << 23;
    default: return 0;
    }
}

/* Power-of-two scalings applied to both operands (even total exponent keeps the root on the same
 * relative grid): unscaled, tiny, large, and results near the subnormal range. */
static const int fp32_scale_exp[] = { 0, -150, 50, -60, 30, -20, 10, -100 };

/* The i-th pair of a kind; random kinds draw from a generator seeded by i, so any split of the
 * index range (threads, device batches) gives the same pairs. */
static inline void fp32_pair(enum Fp32PairKind kind, uint64_t i, float *a, float *b)
{
    uint64_t st = i * 0x2545f4914f6cdd1dull + (uint64_t)kind * 0x9e3779b97f4a7c15ull;
    switch (kind) {
    case FP32_PAIRS_BOUNDARY:
        *a = fp32_from_bits(fp32_boundary_bits[i / FP32_N_BOUNDARY]);
        *b = fp32_from_bits(fp32_boundary_bits[i % FP32_N_BOUNDARY]);
        return;
    case FP32_PAIRS_RANDOM_BITS: {
        const uint64_t r = fp32_rng(&st);
        uint32_t ua = (uint32_t)r % 0x7f800000u, ub = (uint32_t)(r >> 32) % 0x7f800000u;
        *a = fp32_from_bits(ua);
        *b = fp32_from_bits(ub);
        return;
    }
    case FP32_PAIRS_RANDOM_WORK: {
        const uint64_t r = fp32_rng(&st);
        const uint32_t ma = (uint32_t)r & 0x7fffffu, mb = (uint32_t)(r >> 23) & 0x7fffffu;
        const int ea = (int)((r >> 46) % 51) - 10, eb = (int)((r >> 52) % 35) - 30;
        *a = fp32_from_bits(((uint32_t)(ea + 127) << 23) | ma);
        *b = fp32_from_bits(((uint32_t)(eb + 127) << 23) | mb);
        return;
    }
    case FP32_PAIRS_K_K1: {
        const uint32_t k = (1u << 23) + (uint32_t)(i & ((1u << 23) - 1));
        const int sc = fp32_scale_exp[(i >> 23) % (sizeof(fp32_scale_exp) / sizeof(int))];
        /* split the scaling unevenly between the operands: exercises the exponent parity */
        *a = ldexpf((float)k, sc + 3);
        *b = ldexpf((float)(k + 1), sc - 3);
        return;
    }
    case FP32_PAIRS_M1_M1: {
        const uint32_t m = (1u << 24) + 2 * (uint32_t)(i & ((1u << 23) - 1)) + 1;
        const int sc = fp32_scale_exp[(i >> 23) % (sizeof(fp32_scale_exp) / sizeof(int))];
        *a = ldexpf((float)(m - 1), sc + 1);
        *b = ldexpf((float)(m + 1), sc - 1);
        return;
    }
    default:
        *a = *b = 0.0f;
        return;
    }
}

/* The host's reference expressions, in the CPU extractor's arithmetic. */
static inline float fp32_ref_sqrt_prod(float a, float b)
{
    return (float)sqrt((double)a * (double)b);
}

static inline float fp32_ref_div(float a, float b)
{
    return a / b;
}

/* Equal bits, or both NaN (NaN payloads are not part of the contract). */
static inline int fp32_same(float x, float y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    return fp32_bits(x) == fp32_bits(y);
}

#endif
