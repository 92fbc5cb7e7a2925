/* The CUDA side of the ordered sum (shared/design/ordered-sum.md): how the kernels of
 * ordered_sum.cuh cut the terms into chunks and segments, what they store, and the host C
 * reference of their algorithm (ordered_sum.c). The exact arithmetic is core/ordered_sum.h. */
#ifndef LOCKSTEP_CUDA_ORDERED_SUM_H
#define LOCKSTEP_CUDA_ORDERED_SUM_H

#include <stdint.h>

#include "core/ordered_sum.h"

/* Terms per chunk: the unit of the parallel summaries (a power of two). */
#define LS_OS_CHUNK 8192u

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
