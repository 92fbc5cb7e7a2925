/* Device side of the ordered sum (ordered_sum.h; exact primitives: core/ordered_sum.h): three
 * kernels per frame, whatever produced the terms.
 *   ls_os_chunk_totals     one block per chunk: the chunk's double total (prediction only)
 *   ls_os_chunk_summaries  one block per chunk: predicted binade e from the double prefix, then
 *                          (Q_even, Q_odd) for e - 1, e, e + 1 per segment (one warp each) and
 *                          for the chunk, composed in order across the block
 *   ls_os_walk             one warp per sequence: applies summaries in chunk order; a chunk whose
 *                          summary does not fit goes segment by segment, and a segment whose
 *                          summary does not fit is walked in sub-segments by the whole warp
 * Every float value that reaches the result is produced by an exact integer step or by the same
 * single float additions, in the same order, as the sequential loop. Include this file from a
 * kernel file (.cu) only. */
#ifndef LOCKSTEP_CUDA_ORDERED_SUM_CUH
#define LOCKSTEP_CUDA_ORDERED_SUM_CUH

#include "cuda/ordered_sum.h"

#define LS_OS_THREADS 256u
#define LS_OS_PER_THREAD (LS_OS_CHUNK / LS_OS_THREADS)
#define LS_OS_FULL_MASK 0xffffffffu
#define LS_OS_SUB_MAX 32u /* terms per lane in one fallback pass */

/* The sequence of a global chunk index, and the chunk's term range. */
static __device__ __forceinline__ unsigned ls_os_locate(const LsOsSequences &g, unsigned c,
                                                        unsigned *start, unsigned *end)
{
    unsigned p = 0;
    while (p + 1 < g.n_seq && c >= g.chunk_off[p + 1])
        p++;
    *start = g.term_off[p] + (c - g.chunk_off[p]) * LS_OS_CHUNK;
    const unsigned lim = g.term_off[p + 1];
    *end = *start + LS_OS_CHUNK < lim ? *start + LS_OS_CHUNK : lim;
    return p;
}

/* Sum of v over the block (LS_OS_THREADS threads); the order is fixed but irrelevant: the doubles
 * only predict binades. Every thread gets the result. */
static __device__ __forceinline__ double ls_os_block_sum(double v, double *shared)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (unsigned d = 16; d; d >>= 1)
        v += __shfl_down_sync(LS_OS_FULL_MASK, v, d);
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    double total = 0.0;
    for (unsigned w = 0; w < LS_OS_THREADS / 32; w++)
        total += shared[w];
    __syncthreads();
    return total;
}

extern "C" __global__ void __launch_bounds__(LS_OS_THREADS)
ls_os_chunk_totals(const __grid_constant__ LsOsSequences g)
{
    __shared__ double partial[LS_OS_THREADS / 32];
    const float *t = (const float *)g.terms;
    unsigned start, end;
    ls_os_locate(g, blockIdx.x, &start, &end);
    double acc = 0.0;
    for (unsigned i = start + threadIdx.x; i < end; i += LS_OS_THREADS)
        acc += (double)t[i];
    const double total = ls_os_block_sum(acc, partial);
    if (threadIdx.x == 0)
        ((double *)g.totals)[blockIdx.x] = total;
}

/* Six running increments over a run of terms: binades e - 1, e, e + 1 (index b), even and odd
 * start: q[2 * b + parity]. Binades outside the normal range saturate. */
static __device__ __forceinline__ void ls_os_summarize6(const float *t, unsigned n, int e,
                                                        uint32_t q[6])
{
#pragma unroll
    for (int b = 0; b < 3; b++)
        q[2 * b] = q[2 * b + 1] = ls_os_start(e + b - 1);
    for (unsigned i = 0; i < n; i++) {
        const uint32_t tb = ls_os_bits(t[i]);
#pragma unroll
        for (int b = 0; b < 3; b++) {
            q[2 * b] = ls_os_step(q[2 * b], 0, tb, e + b - 1);
            q[2 * b + 1] = ls_os_step(q[2 * b + 1], 1, tb, e + b - 1);
        }
    }
}

/* Composes per-lane summaries over the warp in lane order; lane 0 ends with the warp's. */
static __device__ __forceinline__ void ls_os_warp_compose(uint32_t q[6])
{
    const unsigned lane = threadIdx.x & 31u;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        uint32_t o[6];
#pragma unroll
        for (int k = 0; k < 6; k++)
            o[k] = __shfl_down_sync(LS_OS_FULL_MASK, q[k], d);
        if ((lane & (2 * d - 1)) == 0) {
#pragma unroll
            for (int b = 0; b < 3; b++) {
                const uint32_t even = ls_os_compose(q[2 * b], q[2 * b + 1], o[2 * b],
                                                    o[2 * b + 1], 0);
                const uint32_t odd = ls_os_compose(q[2 * b], q[2 * b + 1], o[2 * b],
                                                   o[2 * b + 1], 1);
                q[2 * b] = even;
                q[2 * b + 1] = odd;
            }
        }
    }
}

/* A warp covers 32 x LS_OS_PER_THREAD terms: one segment. */
#if LS_OS_THREADS / 32 != LS_OS_SEGMENTS || 32 * LS_OS_PER_THREAD != LS_OS_SEGMENT
#error "the summary kernel's warps must be the chunk's segments"
#endif

extern "C" __global__ void __launch_bounds__(LS_OS_THREADS)
ls_os_chunk_summaries(const __grid_constant__ LsOsSequences g)
{
    __shared__ double partial[LS_OS_THREADS / 32];
    __shared__ uint32_t warp_q[LS_OS_THREADS / 32][6];
    const float *t = (const float *)g.terms;
    const double *totals = (const double *)g.totals;
    const unsigned c = blockIdx.x;
    unsigned start, end;
    const unsigned p = ls_os_locate(g, c, &start, &end);

    double acc = 0.0;
    for (unsigned j = g.chunk_off[p] + threadIdx.x; j < c; j += LS_OS_THREADS)
        acc += totals[j];
    const double prefix = ls_os_block_sum(acc, partial);

    LsOsSummary *out = (LsOsSummary *)g.summaries + c;
    const float predicted = (float)prefix;
    if (!(prefix > 0.0) || !ls_os_is_normal(predicted)) {
        /* nothing before this chunk (or too little): the walk starts it from 0 */
        if (threadIdx.x == 0)
            out->e = LS_OS_NO_BINADE;
        return;
    }
    const int e = ls_os_exponent(predicted);

    uint32_t q[6];
    const unsigned a = start + threadIdx.x * LS_OS_PER_THREAD;
    const unsigned n = a < end ? min(LS_OS_PER_THREAD, end - a) : 0u;
    ls_os_summarize6(t + a, n, e, q);
    ls_os_warp_compose(q);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) {
        for (int k = 0; k < 6; k++) {
            out->seg[warp][k >> 1][k & 1] = q[k];
            warp_q[warp][k] = q[k];
        }
    }
    __syncthreads();
    if (warp == 0) {
        for (int k = 0; k < 6; k++)
            q[k] = lane < LS_OS_THREADS / 32 ? warp_q[lane][k] : 0u; /* (0, 0) is the identity */
        ls_os_warp_compose(q);
        if (lane == 0) {
            out->e = e;
            for (int k = 0; k < 6; k++)
                out->q[k >> 1][k & 1] = q[k];
        }
    }
}

/* The warp's walk over a run of terms without a usable summary, s uniform across the warp: per
 * pass, 32 sub-segments of up to LS_OS_SUB_MAX terms (held in registers, one sub-segment per
 * lane) summarised for the current binade and the next; a sub-segment that does not fit is
 * replayed term by term; a walk that outgrows both binades starts a new pass. */
static __device__ float ls_os_warp_walk(float s, const float *t, unsigned len)
{
    const unsigned lane = threadIdx.x & 31u;
    unsigned pos = 0;
    while (pos < len) {
        if (ls_os_bits(s) == 0) {
            int found = -1;
            for (unsigned w = pos; w < len; w += 32) {
                const unsigned i = w + lane;
                const unsigned nz =
                    __ballot_sync(LS_OS_FULL_MASK, i < len && ls_os_bits(t[i]) != 0);
                if (nz) {
                    found = (int)(w + (unsigned)__ffs((int)nz) - 1);
                    break;
                }
            }
            if (found < 0)
                break;
            s = t[found]; /* 0 + t = t */
            pos = (unsigned)found + 1;
            continue;
        }
        if (!ls_os_is_normal(s)) {
            s = s + t[pos];
            pos++;
            continue;
        }
        const int e = ls_os_exponent(s);
        unsigned k = (len - pos + 31) / 32;
        k = k < LS_OS_SUB_MAX ? k : LS_OS_SUB_MAX;
        const unsigned mine = pos + lane * k;
        const unsigned n = mine < len ? min(k, len - mine) : 0u;
        float v[LS_OS_SUB_MAX];
#pragma unroll
        for (unsigned i = 0; i < LS_OS_SUB_MAX; i++)
            v[i] = i < n ? t[mine + i] : 0.0f; /* a zero term adds nothing */
        uint32_t qa0 = 0, qa1 = 0, qb0 = ls_os_start(e + 1), qb1 = qb0;
#pragma unroll
        for (unsigned i = 0; i < LS_OS_SUB_MAX; i++) {
            const uint32_t tb = ls_os_bits(v[i]);
            qa0 = ls_os_step(qa0, 0, tb, e);
            qa1 = ls_os_step(qa1, 1, tb, e);
            qb0 = ls_os_step(qb0, 0, tb, e + 1);
            qb1 = ls_os_step(qb1, 1, tb, e + 1);
        }
        unsigned next = pos;
        for (unsigned j = 0; j < 32; j++) {
            const unsigned a = pos + j * k;
            if (a >= len)
                break;
            const unsigned b = min(a + k, len);
            const uint32_t a0 = __shfl_sync(LS_OS_FULL_MASK, qa0, j);
            const uint32_t a1 = __shfl_sync(LS_OS_FULL_MASK, qa1, j);
            const uint32_t b0 = __shfl_sync(LS_OS_FULL_MASK, qb0, j);
            const uint32_t b1 = __shfl_sync(LS_OS_FULL_MASK, qb1, j);
            const int es = ls_os_exponent(s);
            int ok;
            if (es == e)
                ok = ls_os_apply(&s, es, a0, a1);
            else if (es == e + 1)
                ok = ls_os_apply(&s, es, b0, b1);
            else
                break;
            if (!ok) {
                const unsigned nj = b - a;
#pragma unroll
                for (unsigned i = 0; i < LS_OS_SUB_MAX; i++) {
                    const float x = __shfl_sync(LS_OS_FULL_MASK, v[i], j);
                    if (i < nj)
                        s = s + x;
                }
            }
            next = b;
        }
        pos = next;
    }
    return s;
}

/* One warp per sequence (blockDim 32, gridDim n_seq). */
extern "C" __global__ void __launch_bounds__(32)
ls_os_walk(const __grid_constant__ LsOsSequences g)
{
    const unsigned p = blockIdx.x, lane = threadIdx.x;
    const float *t = (const float *)g.terms;
    const double *totals = (const double *)g.totals;
    const LsOsSummary *summ = (const LsOsSummary *)g.summaries;
    const unsigned c0 = g.chunk_off[p], c1 = g.chunk_off[p + 1];
    const unsigned t_end = g.term_off[p + 1];
    float s = 0.0f;
    for (unsigned base = c0; base < c1; base += 32) {
        /* the next 32 chunks' summaries in registers, one per lane, ahead of the serial walk */
        int my_e = LS_OS_NO_BINADE, my_zero = 1;
        uint32_t my_q[6] = { 0, 0, 0, 0, 0, 0 };
        if (base + lane < c1) {
            const LsOsSummary *sm = summ + base + lane;
            my_e = sm->e;
            if (my_e != LS_OS_NO_BINADE)
                for (int k = 0; k < 6; k++)
                    my_q[k] = sm->q[k >> 1][k & 1];
            my_zero = totals[base + lane] == 0.0;
        }
        const unsigned cnt = min(32u, c1 - base);
        for (unsigned j = 0; j < cnt; j++) {
            const int e = __shfl_sync(LS_OS_FULL_MASK, my_e, j);
            uint32_t q[6];
#pragma unroll
            for (int k = 0; k < 6; k++)
                q[k] = __shfl_sync(LS_OS_FULL_MASK, my_q[k], j);
            const int zero = __shfl_sync(LS_OS_FULL_MASK, my_zero, j);
            if (zero)
                continue; /* s + 0 = s */
            if (ls_os_apply3(&s, e, q[0], q[1], q[2], q[3], q[4], q[5]))
                continue;
            const unsigned start = g.term_off[p] + (base + j - c0) * LS_OS_CHUNK;
            const unsigned end = min(start + LS_OS_CHUNK, t_end);
            if (e == LS_OS_NO_BINADE) {
                s = ls_os_warp_walk(s, t + start, end - start);
                continue;
            }
            /* segment by segment: one warp pass only where a segment's summaries do not fit */
            uint32_t my_seg[6] = { 0, 0, 0, 0, 0, 0 };
            if (lane < LS_OS_SEGMENTS)
                for (int k = 0; k < 6; k++)
                    my_seg[k] = summ[base + j].seg[lane][k >> 1][k & 1];
            for (unsigned sg = 0; sg < LS_OS_SEGMENTS; sg++) {
                const unsigned a = start + sg * LS_OS_SEGMENT;
                if (a >= end)
                    break;
                uint32_t r[6];
#pragma unroll
                for (int k = 0; k < 6; k++)
                    r[k] = __shfl_sync(LS_OS_FULL_MASK, my_seg[k], sg);
                if (ls_os_apply3(&s, e, r[0], r[1], r[2], r[3], r[4], r[5]))
                    continue;
                s = ls_os_warp_walk(s, t + a, min(a + LS_OS_SEGMENT, end) - a);
            }
        }
    }
    if (lane == 0)
        ((float *)g.out)[p] = s;
}

#endif
