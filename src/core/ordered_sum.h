/* Ordered sum: the float sum `s = 0; for k: s = s + t[k]` of non-negative terms, replayed bit for
 * bit with parallel work (shared/design/ordered-sum.md). These are the exact primitives, the one
 * implementation that the CUDA kernels (src/cuda/ordered_sum.cuh), the OpenCL kernels
 * (src/opencl/ordered_sum.cl) and the host reference (src/cuda/ordered_sum.c) run; how the terms
 * are cut into chunks and walked is each backend's. Compiles as C, as CUDA (LS_HD; nvcc with
 * --fmad=false) and as OpenCL C (no double, no libc).
 *
 * Within one binade [2^e, 2^(e+1)) a float s is m * 2^(e-23) with an integer m in [2^23, 2^24),
 * and fl(s + t) = (m + q) * 2^(e-23) while the result stays in the binade, where q depends only on
 * t, e and the parity of m (ties to even). A run of terms therefore has, per binade, a summary
 * (Q_even, Q_odd): the total increment of m for an even or odd starting m. Summaries compose:
 * (A then B)[p] = A[p] + B[(p + A[p]) & 1]. A walk that starts a run at m in binade e ends at
 * m + Q[m & 1], exactly the sequential result, provided that value is below 2^24 (increments are
 * non-negative, so then every intermediate value stayed in the binade). */
#ifndef LOCKSTEP_CORE_ORDERED_SUM_H
#define LOCKSTEP_CORE_ORDERED_SUM_H

#include "core/portable.h"

/* Increments saturate here: any increment >= 2^24 leaves the binade, so its exact value is moot;
 * a sum of two saturated values still fits in 32 bits. */
#define LS_OS_SAT (1u << 25)
/* Summary binade of a chunk with nothing before it (the walk starts at 0: no binade). */
#define LS_OS_NO_BINADE (-1000)
#define LS_OS_M_LIMIT (1u << 24)

LS_HD static inline ls_u32 ls_os_bits(float f) { return ls_float_bits(f); }

LS_HD static inline float ls_os_float(ls_u32 u) { return ls_bits_float(u); }

/* The unbiased exponent of a positive normal float. */
LS_HD static inline int ls_os_exponent(float s) { return (int)(ls_os_bits(s) >> 23) - 127; }

/* s >= 2^-126 and finite: the walk and the summaries need a normal running value. */
LS_HD static inline int ls_os_is_normal(float s)
{
    const ls_u32 b = ls_os_bits(s);
    return b >= 0x00800000u && b < 0x7f800000u;
}

/* The start of a running increment for binade e: 0, or saturated for a binade outside the normal
 * range (-126..127), whose summaries must never be applied. */
LS_HD static inline ls_u32 ls_os_start(int e) { return e >= -126 && e <= 127 ? 0u : LS_OS_SAT; }

/* q for term bits tb (t >= 0) added to m of parity `parity` in binade e (-126..127).
 * t / u with u = 2^(e-23) is Mt * 2^-sh; a = floor, the remainder decides, ties to even m + q.
 * An infinite or NaN term has sh <= -1 in every normal binade, so its q is >= 2^24: never
 * applied, its chunk is replayed. */
LS_HD static inline ls_u32 ls_os_increment(ls_u32 tb, int e, ls_u32 parity)
{
    const ls_u32 bexp = tb >> 23;
    const ls_u32 man = tb & 0x7fffffu;
    if (bexp == 0 && man == 0)
        return 0;
    const ls_u32 mt = bexp ? (man | 0x800000u) : man;
    const int et = bexp ? (int)bexp - 150 : -149; /* t = mt * 2^et */
    const int sh = (e - 23) - et;
    if (sh <= 0) {
        if (sh < -1)
            return LS_OS_SAT; /* t >= 2^(e+1): leaves the binade */
        const ls_u32 v = mt << -sh;
        return v < LS_OS_SAT ? v : LS_OS_SAT;
    }
    if (sh >= 25)
        return 0; /* t < u / 2 */
    const ls_u32 a = mt >> sh;
    const ls_u32 r = mt & ((1u << sh) - 1u);
    const ls_u32 halfway = 1u << (sh - 1);
#if defined(LS_MUTATE_NO_TIES)
    /* mutation check (tests): ties resolved without the running parity */
    (void)parity;
    return a + (ls_u32)(r > halfway);
#else
    return a + (ls_u32)(r > halfway || (r == halfway && ((parity + a) & 1u)));
#endif
}

/* One term into a running increment q that started at parity p0. */
LS_HD static inline ls_u32 ls_os_step(ls_u32 q, ls_u32 p0, ls_u32 tb, int e)
{
    if (q >= LS_OS_SAT)
        return LS_OS_SAT;
    const ls_u32 v = q + ls_os_increment(tb, e, (p0 + q) & 1u);
    return v < LS_OS_SAT ? v : LS_OS_SAT;
}

/* Summary of A followed by B, for start parity p. */
LS_HD static inline ls_u32 ls_os_compose(ls_u32 a_even, ls_u32 a_odd, ls_u32 b_even, ls_u32 b_odd,
                                         ls_u32 p)
{
    const ls_u32 a = p ? a_odd : a_even;
    if (a >= LS_OS_SAT)
        return LS_OS_SAT;
    const ls_u32 b = ((p + a) & 1u) ? b_odd : b_even;
    const ls_u32 v = a + b;
    return v < LS_OS_SAT ? v : LS_OS_SAT;
}

/* Applies a summary (q_even, q_odd) of binade e to s, which must be normal with exponent e.
 * Returns 1 and updates s when the result stays in the binade, else 0 (s unchanged). */
LS_HD static inline int ls_os_apply(float *s, int e, ls_u32 q_even, ls_u32 q_odd)
{
    const ls_u32 b = ls_os_bits(*s);
    const ls_u32 m = (b & 0x7fffffu) | 0x800000u;
    const ls_u32 q = (m & 1u) ? q_odd : q_even;
    if (q >= LS_OS_SAT || m + q >= LS_OS_M_LIMIT)
        return 0;
    *s = ls_os_float(((ls_u32)(e + 127) << 23) | ((m + q) & 0x7fffffu));
    return 1;
}

/* Applies the one of three summaries (binades e - 1, e, e + 1; each even, odd start) that matches
 * the binade of s, when s is normal and the result stays in its binade: 1, else 0 (s unchanged).
 * A binade without a summary passes (LS_OS_SAT, LS_OS_SAT). */
LS_HD static inline int ls_os_apply3(float *s, int e, ls_u32 lo_even, ls_u32 lo_odd,
                                     ls_u32 mid_even, ls_u32 mid_odd, ls_u32 hi_even,
                                     ls_u32 hi_odd)
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

/* The sequential fallback: t[0..n) added to s one by one, the loop the whole scheme reproduces.
 * (In OpenCL C the terms are the chunk staged in local memory.) */
LS_HD static inline float ls_os_replay(float s, LS_LOCAL const float *t, ls_u32 n)
{
    for (ls_u32 i = 0; i < n; i++)
        s = s + t[i];
    return s;
}

#endif
