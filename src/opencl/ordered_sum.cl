/* Kernels of the ordered float sum (ordered_sum.h, design/ordered-sum.md). A chunk's summary for a
 * binade is a map (q.x, q.y): the significand increment for an even (x) and an odd (y) start. */
#include "opencl/ordered_sum.h"

#define LS_OS_PER (LS_OS_CHUNK / LS_WG)
/* increments are capped here: anything >= 2^24 leaves the binade, so the cap only has to be larger
 * and to keep sums of two capped values within 64 bits */
#define LS_OS_SAT ((ulong)1 << 40)

/* One term's map for the binade whose exponent field is `field` (unit in the last place
 * u = 2^(field - 150)): t/u = a + f; q = a, a + 1 (f > 1/2), or the one that makes the new
 * significand even (f == 1/2). */
static inline ulong2 ls_os_term_map(uint t, int field)
{
    const int tf = (int)((t >> 23) & 0xff);
    if (tf == 255)
        return (ulong2)(LS_OS_SAT, LS_OS_SAT); /* inf or NaN: replayed */
    uint mant = t & 0x7fffffu;
    int et = -149;
    if (tf) {
        mant |= 0x800000u;
        et = tf - 150;
    }
    if (!mant)
        return (ulong2)(0, 0);
    const int sh = et - (field - 150);
    if (sh >= 0) {
        const ulong a = sh > 17 ? LS_OS_SAT : min((ulong)mant << sh, LS_OS_SAT);
        return (ulong2)(a, a);
    }
    const int d = -sh;
    if (d >= 25)
        return (ulong2)(0, 0); /* t < u/2 */
    const uint a = mant >> d, rest = mant & ((1u << d) - 1), halfway = 1u << (d - 1);
    if (rest != halfway) {
        const ulong q = a + (rest > halfway);
        return (ulong2)(q, q);
    }
#if defined(LS_MUTATE_NO_TIES)
    /* mutation check: ties resolved without the running parity */
    return (ulong2)((ulong)a, (ulong)a);
#endif
    return (ulong2)((ulong)(a + (a & 1)), (ulong)(a + ((a + 1) & 1)));
}

/* A then B */
static inline ulong2 ls_os_compose(ulong2 a, ulong2 b)
{
    const ulong q0 = a.x + ((a.x & 1) ? b.y : b.x);
    const ulong q1 = a.y + ((a.y & 1) ? b.x : b.y);
    return (ulong2)(min(q0, LS_OS_SAT), min(q1, LS_OS_SAT));
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
                              __global const float *pred, __global ulong4 *summary,
                              __global int *fields)
{
    terms += off;
    __local float t[LS_OS_CHUNK];
    __local ulong2 hi[LS_WG], lo[LS_WG];
    const uint lid = get_local_id(0), chunk = get_group_id(0);
    ls_os_load_chunk(t, terms, n, chunk);
    const int field = clamp((int)((as_uint(pred[chunk]) >> 23) & 0xff), 2, 254);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong2 mh = (ulong2)(0, 0), ml = (ulong2)(0, 0);
    for (uint k = 0; k < LS_OS_PER; k++) {
        const uint bits = as_uint(t[lid * LS_OS_PER + k]);
        mh = ls_os_compose(mh, ls_os_term_map(bits, field));
        ml = ls_os_compose(ml, ls_os_term_map(bits, field - 1));
    }
    hi[lid] = mh;
    lo[lid] = ml;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 1; step < LS_WG; step <<= 1) {
        if (!(lid & (2 * step - 1))) {
            hi[lid] = ls_os_compose(hi[lid], hi[lid + step]);
            lo[lid] = ls_os_compose(lo[lid], lo[lid + step]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!lid) {
        summary[chunk] = (ulong4)(hi[0].x, hi[0].y, lo[0].x, lo[0].y);
        fields[chunk] = field;
    }
}

/* The walk, one work-group: work-item 0 carries the running float sum through the chunks; the
 * group only helps to stage summaries and the terms of chunks that are added one by one. */
__kernel void ls_os_walk(__global const float *terms, ulong off, ulong n, uint n_chunks,
                         __global const float *totals, __global const ulong4 *summary,
                         __global const int *fields, __global float *result,
                         __global uint *replayed, uint slot)
{
    terms += off;
    __local float t[LS_OS_CHUNK];
    __local ulong4 tile_summary[LS_WG];
    __local int tile_field[LS_WG];
    __local float tile_total[LS_WG];
    __local int replay;
    __local uint pos;
    const uint lid = get_local_id(0);
    float s = 0.0f; /* meaningful in work-item 0 only */
    uint n_replayed = 0;
    for (uint tile = 0; tile < n_chunks; tile += LS_WG) {
        if (tile + lid < n_chunks) {
            tile_summary[lid] = summary[tile + lid];
            tile_field[lid] = fields[tile + lid];
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
                    const uint sb = as_uint(s);
                    const int f = (int)((sb >> 23) & 0xff);
                    ulong q;
                    const ulong m = (sb & 0x7fffffu) | 0x800000u;
                    if (f == 0 || f == 255) {
                        rep = (int)c; /* zero, subnormal, inf or NaN running sum */
                        break;
                    }
                    if (f == tile_field[j])
                        q = (m & 1) ? tile_summary[j].y : tile_summary[j].x;
                    else if (f == tile_field[j] - 1)
                        q = (m & 1) ? tile_summary[j].w : tile_summary[j].z;
                    else {
                        rep = (int)c; /* binade not predicted */
                        break;
                    }
                    if (m + q >= 0x1000000u) {
                        rep = (int)c; /* leaves the binade inside the chunk */
                        break;
                    }
                    s = as_float(((uint)f << 23) | (uint)((m + q) & 0x7fffffu));
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
                for (uint k = 0; k < len; k++)
                    s = s + t[k];
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
