/* Ordered sum: the float sum `s = 0; for k: s = s + t[k]` of non-negative finite terms, replayed
 * bit for bit with parallel work (shared/design/ordered-sum.md). This header holds the exact
 * primitives shared by the device kernels (ordered_sum.cuh) and the host C reference
 * (ordered_sum.c); both compile it (LS_HD = __host__ __device__ under nvcc).
 *
 * Within one binade [2^e, 2^(e+1)) a float s is m * 2^(e-23) with an integer m in [2^23, 2^24),
 * and fl(s + t) = (m + q) * 2^(e-23) while the result stays in the binade, where q depends only on
 * t, e and the parity of m (ties to even). A run of terms therefore has, per binade, a summary
 * (Q_even, Q_odd): the total increment of m for an even or odd starting m. Summaries compose:
 * (A then B)[p] = A[p] + B[(p + A[p]) & 1]. A walk that starts a run at m in binade e ends at
 * m + Q[m & 1], exactly the sequential result, provided that value is below 2^24 (increments are
 * non-negative, so then every intermediate value stayed in the binade). */
#ifndef LOCKSTEP_CUDA_ORDERED_SUM_H
#define LOCKSTEP_CUDA_ORDERED_SUM_H

#ifndef LS_HD
#if defined(__CUDACC__)
#define LS_HD __host__ __device__
#else
#define LS_HD
#endif
#endif

#include <stdint.h>
#include <string.h>

/* Terms per chunk: the unit of the parallel summaries (a power of two). */
#define LS_OS_CHUNK 8192u
/* Summaries saturate here: any increment >= 2^24 leaves the binade, so its exact value is moot. */
#define LS_OS_SAT (1u << 25)
/* Summary binade of a chunk with nothing before it (the walk starts at 0: no binade). */
#define LS_OS_NO_BINADE (-1000)
#define LS_OS_M_LIMIT (1u << 24)

/* Terms per segment: one warp of the summary kernel (32 lanes x 32 terms). A chunk whose summary
 * does not fit is walked segment by segment, so a chunk that crosses a binade costs one warp pass
 * over one segment instead of over the whole chunk. */
#define LS_OS_SEGMENT 1024u
#define LS_OS_SEGMENTS (LS_OS_CHUNK / LS_OS_SEGMENT)

/* A chunk's summaries around its predicted binade e, for the binades e - 1, e, e + 1 (index
 * b = binade - e + 1) and the two start parities: the walk sits one binade below the prediction
 * when rounding drift carries the double prefix across a power of two, one above when the float
 * sum runs ahead of it. q: the whole chunk; seg: each segment. */
typedef struct LsOsSummary {
    int32_t e;
    uint32_t q[3][2];
    uint32_t seg[LS_OS_SEGMENTS][3][2];
} LsOsSummary;

LS_HD static inline uint32_t ls_os_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

LS_HD static inline float ls_os_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* The unbiased exponent of a positive normal float. */
LS_HD static inline int ls_os_exponent(float s)
{
    return (int)(ls_os_bits(s) >> 23) - 127;
}

/* s >= 2^-126: the walk and the summaries need a normal running value. */
LS_HD static inline int ls_os_is_normal(float s)
{
    const uint32_t b = ls_os_bits(s);
    return b >= 0x00800000u && b < 0x7f800000u;
}

/* q for term bits tb (t >= 0, finite) added to m of parity `parity` in binade e (-126..127).
 * t / u with u = 2^(e-23) is Mt * 2^-sh; a = floor, the remainder decides, ties to even m + q. */
LS_HD static inline uint32_t ls_os_increment(uint32_t tb, int e, uint32_t parity)
{
    const uint32_t bexp = tb >> 23;
    const uint32_t man = tb & 0x7fffffu;
    if (bexp == 0 && man == 0)
        return 0;
    const uint32_t mt = bexp ? (man | 0x800000u) : man;
    const int et = bexp ? (int)bexp - 150 : -149; /* t = mt * 2^et */
    const int sh = (e - 23) - et;
    if (sh <= 0) {
        if (sh < -1)
            return LS_OS_SAT; /* t >= 2^(e+1): leaves the binade */
        const uint32_t v = mt << -sh;
        return v < LS_OS_SAT ? v : LS_OS_SAT;
    }
    if (sh >= 25)
        return 0; /* t < u / 2 */
    const uint32_t a = mt >> sh;
    const uint32_t r = mt & ((1u << sh) - 1u);
    const uint32_t half = 1u << (sh - 1);
    return a + (uint32_t)(r > half || (r == half && ((parity + a) & 1u)));
}

/* One term into a running increment q that started at parity p0. */
LS_HD static inline uint32_t ls_os_step(uint32_t q, uint32_t p0, uint32_t tb, int e)
{
    if (q >= LS_OS_SAT)
        return LS_OS_SAT;
    const uint32_t v = q + ls_os_increment(tb, e, (p0 + q) & 1u);
    return v < LS_OS_SAT ? v : LS_OS_SAT;
}

/* Summary of A followed by B, for start parity p. */
LS_HD static inline uint32_t ls_os_compose(uint32_t a_even, uint32_t a_odd, uint32_t b_even,
                                           uint32_t b_odd, uint32_t p)
{
    const uint32_t a = p ? a_odd : a_even;
    if (a >= LS_OS_SAT)
        return LS_OS_SAT;
    const uint32_t b = ((p + a) & 1u) ? b_odd : b_even;
    const uint32_t v = a + b;
    return v < LS_OS_SAT ? v : LS_OS_SAT;
}

/* Applies a summary (q_even, q_odd) of binade e to s, which must be normal with exponent e.
 * Returns 1 and updates s when the result stays in the binade, else 0 (s unchanged). */
LS_HD static inline int ls_os_apply(float *s, int e, uint32_t q_even, uint32_t q_odd)
{
    const uint32_t b = ls_os_bits(*s);
    const uint32_t m = (b & 0x7fffffu) | 0x800000u;
    const uint32_t q = (m & 1u) ? q_odd : q_even;
    if (q >= LS_OS_SAT || m + q >= LS_OS_M_LIMIT)
        return 0;
    *s = ls_os_float(((uint32_t)(e + 127) << 23) | ((m + q) & 0x7fffffu));
    return 1;
}

/* Applies the one of three summaries (binades e - 1, e, e + 1; each even, odd start) that matches
 * the binade of s, when s is normal and the result stays in its binade: 1, else 0 (s unchanged). */
LS_HD static inline int ls_os_apply3(float *s, int e, uint32_t lo_even, uint32_t lo_odd,
                                     uint32_t mid_even, uint32_t mid_odd, uint32_t hi_even,
                                     uint32_t hi_odd)
{
    if (e == LS_OS_NO_BINADE || !ls_os_is_normal(*s))
        return 0;
    const int es = ls_os_exponent(*s);
    if (es == e - 1)
        return ls_os_apply(s, es, lo_even, lo_odd);
    if (es == e)
        return ls_os_apply(s, es, mid_even, mid_odd);
    if (es == e + 1)
        return ls_os_apply(s, es, hi_even, hi_odd);
    return 0;
}

/* Up to three float sequences (a frame's planes) laid end to end in one device buffer, each summed
 * on its own: the launch parameters of the ordered-sum kernels (ordered_sum.cuh), passed by value,
 * so only fixed-size types. Sequence p is terms[term_off[p] .. term_off[p + 1]); its chunks are
 * chunk_off[p] .. chunk_off[p + 1] in totals and summaries. */
#define LS_OS_MAX_SEQ 3
typedef struct LsOsSequences {
    uint64_t terms;     /* const float * */
    uint64_t totals;    /* double *, one per chunk */
    uint64_t summaries; /* LsOsSummary *, one per chunk */
    uint64_t out;       /* float *, one per sequence */
    uint32_t n_seq;
    uint32_t term_off[LS_OS_MAX_SEQ + 1];
    uint32_t chunk_off[LS_OS_MAX_SEQ + 1];
} LsOsSequences;

/* ---- host reference (ordered_sum.c) ---- */
#if !defined(__CUDACC__)
#include <stddef.h>

typedef struct LsOsStats {
    uint64_t chunks;          /* chunks walked */
    uint64_t chunks_applied;  /* applied from a precomputed summary */
    uint64_t chunks_zero;     /* skipped: all terms zero */
    uint64_t chunks_fallback; /* walked segment by segment */
    uint64_t segments_walked; /* segments without a usable summary: warp passes */
    uint64_t passes;          /* warp passes (32 sub-segment summaries each) */
    uint64_t terms_replayed;  /* terms added one by one */
} LsOsStats;

/* The sequential float sum of t[0..n) computed the way the device computes it: chunk totals,
 * predicted binades, chunk summaries, a walker that applies them or falls back to sub-segment
 * summaries and replays. predict_bias shifts every predicted binade (0 in production; tests use
 * other values to force the fallbacks). stats may be NULL. */
float ls_ordered_sum_ref(const float *t, size_t n, int predict_bias, LsOsStats *stats);
#endif

#endif
