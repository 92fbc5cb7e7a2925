/* Ordered sum in binary64 with terms of either sign: `s = +0; for k: s = s + t[k]`, each add
 * correctly rounded (the chains of ssim and float_ssim), replayed bit for bit with parallel work.
 * The scheme of ordered_sum.h (shared/design/ordered-sum.md) for a double accumulator:
 *
 * Within one binade a normal s is (sign) m * u, m an integer in [2^52, 2^53), u = 2^(e-52), and
 * while the result stays in that binade fl(s + t) = (sign) (m + q) * u, where q is t / u rounded
 * to an integer (ties to the even m + q): |q| = a or a + 1 from the integer and fractional parts
 * of |t| / u, its sign + when t has the sign of s, - otherwise. q depends on t, the binade, the
 * sign of s and the parity of m only. A run of terms therefore has, for a binade and a sign, a
 * summary per start parity: the total increment of m and the lowest and highest running
 * increment. A walk that meets the run at m, in that binade and sign, ends at m + q[m & 1] --
 * exactly the sequential result -- when every running value stayed strictly inside the binade:
 * 2^52 < m + lo and m + hi < 2^53 (at m = 2^52 the value below is rounded on the finer grid of
 * the binade under it, so the bottom itself is refused). Otherwise the run is replayed.
 *
 * Summaries compose (A then B)[p] = A[p] + B[(p + A[p]) & 1], lo/hi likewise, so runs nest: the
 * OpenCL pipeline (src/opencl/ordered_sum_f64.clh) summarises chunks of LS_OS64_BASE terms for
 * three binades around a predicted one (the binade of an approximate prefix sum), composes them
 * into chunks of LS_OS64_FAN and LS_OS64_FAN^2 base chunks, and one work-item walks the top level,
 * descending into a chunk whose summary does not apply, down to replaying LS_OS64_BASE terms with
 * ls_sd_add. Prediction only decides speed: any summary that applies gives the sequential bits.
 * Compiles as C (the test drives the same functions on the host), CUDA and OpenCL C. */
#ifndef LOCKSTEP_CORE_ORDERED_SUM_F64_H
#define LOCKSTEP_CORE_ORDERED_SUM_F64_H

#include "core/portable.h"
#include "core/soft_f64.h"

#define LS_OS64_BASE 64u           /* terms of a base chunk */
#define LS_OS64_FAN 32u            /* chunks of one level in a chunk of the next */
#define LS_OS64_BINADES 3          /* summaries per chunk: predicted binade - 1, itself, + 1 */
#define LS_OS64_NONE (-5000)       /* no summary (no prediction, or a binade out of range) */
#define LS_OS64_BAD ((ls_i64)1 << 62) /* an increment that leaves the binade whatever m is */
#define LS_OS64_LIMIT ((ls_i64)1 << 53)

typedef struct LsOs64Summary {
    ls_i64 q[2], lo[2], hi[2];     /* per start parity; q[p] = LS_OS64_BAD: never applies */
    ls_i32 e;                      /* binade of |s|, or LS_OS64_NONE */
    ls_i32 neg;                    /* for a negative running value */
} LsOs64Summary;

/* The signed increment of m for term bits tb added in binade e, sign neg, parity of m; BAD when
 * |t| >= u * 2^52 (the sum cannot stay in the binade) or t is not finite. */
LS_HD static inline ls_i64 ls_os64_increment(ls_u64 tb, int e, int neg, ls_u64 parity)
{
    const int bexp = (int)((tb >> 52) & 0x7ff);
    const ls_u64 man = tb & LS_SD_FRAC_MASK;
    if (bexp == 0 && man == 0)
        return 0;
    if (bexp == 0x7ff)
        return LS_OS64_BAD;
    const ls_u64 mt = bexp ? (man | LS_SD_HIDDEN) : man;
    const int et = bexp ? bexp - 1075 : -1074; /* |t| = mt * 2^et */
    const int sh = (e - 52) - et;              /* |t| / u = mt * 2^-sh */
    if (sh <= 0)
        return LS_OS64_BAD;
    if (sh >= 54)
        return 0; /* |t| < u / 2 */
    const ls_u64 a = mt >> sh, r = mt & (((ls_u64)1 << sh) - 1);
    const ls_u64 halfway = (ls_u64)1 << (sh - 1);
    /* ties to the even m + q (or m - q): both have the parity of m + a, then + 1 */
    const ls_u64 mag = a + (ls_u64)(r > halfway || (r == halfway && ((parity + a) & 1)));
    return ((int)(tb >> 63) == neg) ? (ls_i64)mag : -(ls_i64)mag;
}

LS_HD static inline void ls_os64_start(LsOs64Summary *s, int e, int neg)
{
    const int usable = e >= -1021 && e <= 1023; /* the bottom binade's value below is subnormal */
    for (int p = 0; p < 2; p++) {
        s->q[p] = usable ? 0 : LS_OS64_BAD;
        s->lo[p] = 0;
        s->hi[p] = 0;
    }
    s->e = usable ? e : LS_OS64_NONE;
    s->neg = neg;
}

/* Bounds the running values: beyond +-2^53 the run has left the binade for any start. */
LS_HD static inline void ls_os64_check(LsOs64Summary *s, int p)
{
    if (s->lo[p] <= -LS_OS64_LIMIT || s->hi[p] >= LS_OS64_LIMIT)
        s->q[p] = LS_OS64_BAD;
}

LS_HD static inline void ls_os64_step(LsOs64Summary *s, ls_u64 tb)
{
    for (int p = 0; p < 2; p++) {
        if (s->q[p] == LS_OS64_BAD)
            continue;
        const ls_i64 inc = ls_os64_increment(tb, s->e, s->neg, (ls_u64)p + (ls_u64)s->q[p]);
        if (inc == LS_OS64_BAD) {
            s->q[p] = LS_OS64_BAD;
            continue;
        }
        s->q[p] += inc;
        s->lo[p] = s->q[p] < s->lo[p] ? s->q[p] : s->lo[p];
        s->hi[p] = s->q[p] > s->hi[p] ? s->q[p] : s->hi[p];
        ls_os64_check(s, p);
    }
}

/* a = a then b (same binade and sign) */
LS_HD static inline void ls_os64_compose(LsOs64Summary *a, const LsOs64Summary *b)
{
    for (int p = 0; p < 2; p++) {
        if (a->q[p] == LS_OS64_BAD)
            continue;
        const int pb = (int)(((ls_u64)p + (ls_u64)a->q[p]) & 1);
        if (b->q[pb] == LS_OS64_BAD) {
            a->q[p] = LS_OS64_BAD;
            continue;
        }
        const ls_i64 lo = a->q[p] + b->lo[pb], hi = a->q[p] + b->hi[pb];
        a->lo[p] = lo < a->lo[p] ? lo : a->lo[p];
        a->hi[p] = hi > a->hi[p] ? hi : a->hi[p];
        a->q[p] += b->q[pb];
        ls_os64_check(a, p);
    }
}

/* The binade of s (normal) or LS_OS64_NONE. */
LS_HD static inline int ls_os64_binade(ls_u64 s)
{
    const int bexp = (int)((s >> 52) & 0x7ff);
    return bexp == 0 || bexp == 0x7ff ? LS_OS64_NONE : bexp - 1023;
}

/* Applies the one of a chunk's LS_OS64_BINADES summaries that matches s: 1 and s updated when the
 * result stays strictly inside the binade, else 0. */
LS_HD static inline int ls_os64_apply(ls_u64 *s, LS_GLOBAL const LsOs64Summary *sum)
{
    const int e = ls_os64_binade(*s), neg = (int)(*s >> 63);
    if (e == LS_OS64_NONE)
        return 0;
    for (int j = 0; j < LS_OS64_BINADES; j++) {
        if (sum[j].e != e || sum[j].neg != neg)
            continue;
        const ls_i64 m = (ls_i64)ls_sd_sig(*s);
        const int p = (int)(m & 1);
        if (sum[j].q[p] == LS_OS64_BAD || m + sum[j].lo[p] <= (LS_OS64_LIMIT >> 1) ||
            m + sum[j].hi[p] >= LS_OS64_LIMIT)
            return 0;
        const ls_u64 m2 = (ls_u64)(m + sum[j].q[p]);
        *s = (*s & (LS_SD_SIGN | ((ls_u64)0x7ff << 52))) | (m2 & LS_SD_FRAC_MASK);
        return 1;
    }
    return 0;
}

/* An approximation of a term, only for predicting binades: 0 below binary32's normal range. */
LS_HD static inline float ls_os64_approx(ls_u64 tb)
{
    const int bexp = (int)((tb >> 52) & 0x7ff);
    if (bexp < 1023 - 126)
        return 0.0f;
    const ls_u32 e = bexp > 1023 + 127 ? 254u : (ls_u32)(bexp - 1023 + 127);
    return ls_bits_float((ls_u32)(tb >> 32 & 0x80000000u) | (e << 23) |
                         (ls_u32)((tb & LS_SD_FRAC_MASK) >> 29));
}

/* The binade and sign that a chunk starting after prefix sum `pred` is summarised around. */
LS_HD static inline void ls_os64_predicted(float pred, int *e, int *neg)
{
    const ls_u32 b = ls_float_bits(pred);
    const int fe = (int)((b >> 23) & 0xff);
    *e = fe == 0 || fe == 0xff ? LS_OS64_NONE : fe - 127;
    *neg = (int)(b >> 31);
}

/* ---- the stages, on one sequence; the OpenCL kernels call them per work-item ---- */

/* The approximate total of base chunk c of t[0, n). */
LS_HD static inline float ls_os64_chunk_total(LS_GLOBAL const ls_u64 *t, ls_u64 n, ls_u64 c)
{
    float sum = 0.0f;
    const ls_u64 end = (c + 1) * LS_OS64_BASE < n ? (c + 1) * LS_OS64_BASE : n;
    for (ls_u64 i = c * LS_OS64_BASE; i < end; i++)
        sum += ls_os64_approx(t[i]);
    return sum;
}

/* Summary j of base chunk c for the prediction pred (the approximate sum before it). */
LS_HD static inline void ls_os64_base_summary(LsOs64Summary *s, LS_GLOBAL const ls_u64 *t,
                                              ls_u64 n, ls_u64 c, float pred, int j)
{
    int e, neg;
    ls_os64_predicted(pred, &e, &neg);
    ls_os64_start(s, e == LS_OS64_NONE ? LS_OS64_NONE : e - 1 + j, neg);
    const ls_u64 end = (c + 1) * LS_OS64_BASE < n ? (c + 1) * LS_OS64_BASE : n;
    for (ls_u64 i = c * LS_OS64_BASE; i < end && s->e != LS_OS64_NONE; i++)
        ls_os64_step(s, t[i]);
}

/* Summary j of chunk k of the next level, from its children child[k * FAN ..] (n_child in all,
 * LS_OS64_BINADES each) and the prediction pred before it. */
LS_HD static inline void ls_os64_parent_summary(LsOs64Summary *s,
                                                LS_GLOBAL const LsOs64Summary *child,
                                                ls_u64 n_child, ls_u64 k, float pred, int j)
{
    int e, neg;
    ls_os64_predicted(pred, &e, &neg);
    ls_os64_start(s, e == LS_OS64_NONE ? LS_OS64_NONE : e - 1 + j, neg);
    const ls_u64 end = (k + 1) * LS_OS64_FAN < n_child ? (k + 1) * LS_OS64_FAN : n_child;
    for (ls_u64 c = k * LS_OS64_FAN; c < end && s->e != LS_OS64_NONE; c++) {
        LS_GLOBAL const LsOs64Summary *b = child + c * LS_OS64_BINADES;
        int i = 0;
        while (i < LS_OS64_BINADES && (b[i].e != s->e || b[i].neg != s->neg))
            i++;
        if (i == LS_OS64_BINADES) {
            ls_os64_start(s, LS_OS64_NONE, neg); /* a child without this binade */
            break;
        }
        LsOs64Summary bi = b[i];
        ls_os64_compose(s, &bi);
    }
}

/* The walk: the sequential sum of t[0, n) from the summaries of the three levels (n0 base chunks,
 * n1 and n2 above), replaying a base chunk where none applies (counted in *replayed). */
LS_HD static inline ls_u64 ls_os64_walk_sum(LS_GLOBAL const ls_u64 *t, ls_u64 n,
                                            LS_GLOBAL const LsOs64Summary *s0, ls_u64 n0,
                                            LS_GLOBAL const LsOs64Summary *s1, ls_u64 n1,
                                            LS_GLOBAL const LsOs64Summary *s2, ls_u64 n2,
                                            ls_u64 *replayed)
{
    *replayed = 0;
    ls_u64 s = 0;
    for (ls_u64 c2 = 0; c2 < n2; c2++) {
        if (ls_os64_apply(&s, s2 + c2 * LS_OS64_BINADES))
            continue;
        const ls_u64 e1 = (c2 + 1) * LS_OS64_FAN < n1 ? (c2 + 1) * LS_OS64_FAN : n1;
        for (ls_u64 c1 = c2 * LS_OS64_FAN; c1 < e1; c1++) {
            if (ls_os64_apply(&s, s1 + c1 * LS_OS64_BINADES))
                continue;
            const ls_u64 e0 = (c1 + 1) * LS_OS64_FAN < n0 ? (c1 + 1) * LS_OS64_FAN : n0;
            for (ls_u64 c0 = c1 * LS_OS64_FAN; c0 < e0; c0++) {
                if (ls_os64_apply(&s, s0 + c0 * LS_OS64_BINADES))
                    continue;
                const ls_u64 end = (c0 + 1) * LS_OS64_BASE < n ? (c0 + 1) * LS_OS64_BASE : n;
                for (ls_u64 i = c0 * LS_OS64_BASE; i < end; i++)
                    s = ls_sd_add(s, t[i]);
                ++*replayed;
            }
        }
    }
    return s;
}

/* Chunks of each level for n terms. */
LS_HD static inline ls_u64 ls_os64_chunks(ls_u64 n, ls_u64 per)
{
    return (n + per - 1) / per;
}

#endif
