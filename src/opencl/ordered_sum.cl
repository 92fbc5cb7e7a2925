/* Kernels of the ordered float sum (ordered_sum.h, design/ordered-sum.md) on the exact primitives
 * of core/ordered_sum.h. A chunk's summary for a binade is (x, y): the significand increment for
 * an even (x) and an odd (y) start. One launch handles up to LS_OS_MAX_SEQ independent sequences
 * (a frame's planes): sequence i has n.si terms from terms + off.si, its chunks are the global
 * chunks cbase.si .. cbase.s(i+1) - 1. */
#include "opencl/ordered_sum.h"
#include "core/ordered_sum.h"

#define LS_OS_PER (LS_OS_CHUNK / LS_WG)

static inline ulong ls_os_pick(ulong4 v, uint i)
{
    return i == 0 ? v.s0 : i == 1 ? v.s1 : i == 2 ? v.s2 : v.s3;
}
static inline uint ls_os_pick_u(uint4 v, uint i)
{
    return i == 0 ? v.s0 : i == 1 ? v.s1 : i == 2 ? v.s2 : v.s3;
}
/* The sequence of global chunk c. */
static inline uint ls_os_seq_of(uint4 cbase, uint n_seq, uint c)
{
    uint i = 0;
    while (i + 1 < n_seq && c >= ls_os_pick_u(cbase, i + 1))
        i++;
    return i;
}

/* A then B */
static inline uint2 ls_os_compose2(uint2 a, uint2 b)
{
    return (uint2)(ls_os_compose(a.x, a.y, b.x, b.y, 0), ls_os_compose(a.x, a.y, b.x, b.y, 1));
}

static inline void ls_os_load_chunk(__local float *t, __global const float *terms, ulong n,
                                    ulong chunk)
{
    const ulong base = chunk * LS_OS_CHUNK;
    for (uint k = get_local_id(0); k < LS_OS_CHUNK; k += LS_WG)
        t[k] = base + k < n ? terms[base + k] : 0.0f;
}

/* Float total of each chunk (any order: only a prediction, and the zero test of a chunk). */
__kernel void ls_os_totals(__global const float *terms, ulong4 offs, ulong4 counts, uint4 cbase,
                           uint n_seq, __global float *totals)
{
    const uint seq = ls_os_seq_of(cbase, n_seq, get_group_id(0));
    terms += ls_os_pick(offs, seq);
    const ulong n = ls_os_pick(counts, seq);
    __local float red[LS_WG];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)(get_group_id(0) - ls_os_pick_u(cbase, seq)) * LS_OS_CHUNK;
    float s = 0.0f;
    for (uint k = lid; k < LS_OS_CHUNK; k += LS_WG)
        s += base + k < n ? terms[base + k] : 0.0f;
    red[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = LS_WG / 2; step; step >>= 1) {
        if (lid < step)
            red[lid] += red[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!lid)
        totals[get_group_id(0)] = red[0];
}

/* Predicted running sum at the start of each chunk: exclusive float scan of the totals. One
 * work-group per sequence. */
__kernel void ls_os_predict(__global const float *all_totals, uint4 cbase,
                            __global float *all_pred)
{
    const uint seq = get_group_id(0), first = ls_os_pick_u(cbase, seq);
    const uint n_chunks = ls_os_pick_u(cbase, seq + 1) - first;
    __global const float *totals = all_totals + first;
    __global float *pred = all_pred + first;
    __local float buf[LS_WG];
    __local float carry;
    const uint lid = get_local_id(0);
    if (!lid)
        carry = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint base = 0; base < n_chunks; base += LS_WG) {
        buf[lid] = base + lid < n_chunks ? totals[base + lid] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint off = 1; off < LS_WG; off <<= 1) {
            const float left = lid >= off ? buf[lid - off] : 0.0f;
            barrier(CLK_LOCAL_MEM_FENCE);
            buf[lid] += left;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (base + lid < n_chunks)
            pred[base + lid] = carry + (lid ? buf[lid - 1] : 0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == LS_WG - 1)
            carry += buf[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Each chunk's maps for the predicted binade and the one below: every work-item composes its
 * contiguous slice in order, then the slices are composed in order. */
__kernel void ls_os_summaries(__global const float *terms, ulong4 offs, ulong4 counts,
                              uint4 cbase, uint n_seq, __global const float *pred,
                              __global uint4 *summary, __global int *binades)
{
    const uint chunk = get_group_id(0), seq = ls_os_seq_of(cbase, n_seq, chunk);
    terms += ls_os_pick(offs, seq);
    __local float t[LS_OS_CHUNK];
    __local uint2 hi[LS_WG], lo[LS_WG];
    const uint lid = get_local_id(0);
    ls_os_load_chunk(t, terms, ls_os_pick(counts, seq), chunk - ls_os_pick_u(cbase, seq));
    /* the predicted binade, kept in the normal range with the one below it */
    const int e = clamp((int)((as_uint(pred[chunk]) >> 23) & 0xff), 2, 254) - 127;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint2 mh = (uint2)(0, 0), ml = (uint2)(0, 0);
    for (uint k = 0; k < LS_OS_PER; k++) {
        const uint bits = ls_os_bits(t[lid * LS_OS_PER + k]);
        mh = (uint2)(ls_os_step(mh.x, 0, bits, e), ls_os_step(mh.y, 1, bits, e));
        ml = (uint2)(ls_os_step(ml.x, 0, bits, e - 1), ls_os_step(ml.y, 1, bits, e - 1));
    }
    hi[lid] = mh;
    lo[lid] = ml;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 1; step < LS_WG; step <<= 1) {
        if (!(lid & (2 * step - 1))) {
            hi[lid] = ls_os_compose2(hi[lid], hi[lid + step]);
            lo[lid] = ls_os_compose2(lo[lid], lo[lid + step]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!lid) {
        summary[chunk] = (uint4)(hi[0].x, hi[0].y, lo[0].x, lo[0].y);
        binades[chunk] = e;
    }
}

/* The walk, one work-group per sequence: work-item 0 carries the running float sum through the
 * chunks; the group only helps to stage summaries and the terms of chunks that are added one by
 * one. Sequence i's sum goes to result[slot + i]. */
__kernel void ls_os_walk(__global const float *all_terms, ulong4 offs, ulong4 counts, uint4 cbase,
                         __global const float *all_totals, __global const uint4 *all_summary,
                         __global const int *all_binades, __global float *result,
                         __global uint *replayed, uint slot0)
{
    const uint seq = get_group_id(0), first = ls_os_pick_u(cbase, seq), slot = slot0 + seq;
    const uint n_chunks = ls_os_pick_u(cbase, seq + 1) - first;
    __global const float *terms = all_terms + ls_os_pick(offs, seq);
    const ulong n = ls_os_pick(counts, seq);
    __global const float *totals = all_totals + first;
    __global const uint4 *summary = all_summary + first;
    __global const int *binades = all_binades + first;
    __local float t[LS_OS_CHUNK];
    __local uint4 tile_summary[LS_WG];
    __local int tile_binade[LS_WG];
    __local float tile_total[LS_WG];
    __local int replay;
    __local uint pos;
    const uint lid = get_local_id(0);
    float s = 0.0f; /* meaningful in work-item 0 only */
    uint n_replayed = 0;
    for (uint tile = 0; tile < n_chunks; tile += LS_WG) {
        if (tile + lid < n_chunks) {
            tile_summary[lid] = summary[tile + lid];
            tile_binade[lid] = binades[tile + lid];
            tile_total[lid] = totals[tile + lid];
        }
        if (!lid)
            pos = tile;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint end = min(tile + LS_WG, n_chunks);
        for (;;) {
            if (!lid) {
                int rep = -1;
                uint c = pos;
                for (; c < end; c++) {
                    const uint j = c - tile;
                    if (tile_total[j] == 0.0f)
                        continue; /* all terms +0: s + 0 == s */
                    const uint4 q = tile_summary[j];
                    /* no summary above the predicted binade */
                    if (!ls_os_apply3(&s, tile_binade[j], q.z, q.w, q.x, q.y, LS_OS_SAT,
                                      LS_OS_SAT)) {
                        /* zero, subnormal, inf or NaN running sum, binade not predicted, or
                         * leaving the binade inside the chunk */
                        rep = (int)c;
                        break;
                    }
                }
                replay = rep;
                pos = c;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const int rep = replay;
            if (rep < 0)
                break;
            ls_os_load_chunk(t, terms, n, (ulong)rep);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (!lid) {
                const ulong base = (ulong)rep * LS_OS_CHUNK;
                const uint len = (uint)min((ulong)LS_OS_CHUNK, n - base);
                s = ls_os_replay(s, t, len);
                pos = (uint)rep + 1;
                n_replayed++;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if defined(LS_MUTATE_TREE_SUM)
    s = 0.0f; /* mutation check: the chunks' tree-reduced totals instead of the ordered sum */
    for (uint c = 0; c < n_chunks; c++)
        s += totals[c];
#endif
    if (!lid) {
        result[slot] = s;
        replayed[slot] = n_replayed;
    }
}
