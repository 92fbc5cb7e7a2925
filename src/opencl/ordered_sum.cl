/* Kernels of the ordered float sum (ordered_sum.h, design/ordered-sum.md) on the exact primitives
 * of core/ordered_sum.h. A chunk's summary for a binade is (x, y): the significand increment for
 * an even (x) and an odd (y) start. */
#include "opencl/ordered_sum.h"
#include "core/ordered_sum.h"

#define LS_OS_PER (LS_OS_CHUNK / LS_WG)

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
__kernel void ls_os_totals(__global const float *terms, ulong off, ulong n,
                           __global float *totals)
{
    terms += off;
    __local float red[LS_WG];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * LS_OS_CHUNK;
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
 * work-group. */
__kernel void ls_os_predict(__global const float *totals, uint n_chunks, __global float *pred)
{
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
__kernel void ls_os_summaries(__global const float *terms, ulong off, ulong n,
                              __global const float *pred, __global uint4 *summary,
                              __global int *binades)
{
    terms += off;
    __local float t[LS_OS_CHUNK];
    __local uint2 hi[LS_WG], lo[LS_WG];
    const uint lid = get_local_id(0), chunk = get_group_id(0);
    ls_os_load_chunk(t, terms, n, chunk);
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

/* The walk, one work-group: work-item 0 carries the running float sum through the chunks; the
 * group only helps to stage summaries and the terms of chunks that are added one by one. */
__kernel void ls_os_walk(__global const float *terms, ulong off, ulong n, uint n_chunks,
                         __global const float *totals, __global const uint4 *summary,
                         __global const int *binades, __global float *result,
                         __global uint *replayed, uint slot)
{
    terms += off;
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
