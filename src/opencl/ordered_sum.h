/* A sequential float sum of non-negative terms, replayed on the device bit for bit
 * (design/ordered-sum.md): the result equals
 *     float s = 0; for (k = 0; k < n; k++) s = s + t[k];
 * Terms are split into chunks of LS_OS_CHUNK. Inside one binade a float add is an integer add of
 * the significand whose only dependence on the running sum is its parity (ties), so each chunk is
 * summarised, in parallel, by its increments for an even and an odd start, for the binade a float
 * prefix sum of the chunk totals predicts and the one below. One work-group then walks the chunks
 * in order, applying a summary when the running sum is in its binade and stays there, and adding
 * the chunk's terms one by one otherwise (binade crossings, mispredictions, a zero start). The
 * exact arithmetic is core/ordered_sum.h, shared with the CUDA backend. */
#ifndef LOCKSTEP_OPENCL_ORDERED_SUM_H
#define LOCKSTEP_OPENCL_ORDERED_SUM_H

/* terms per chunk; a multiple of every work-group size used (LS_CL_WG_MAX and its halves) */
#define LS_OS_CHUNK 4096
/* independent sequences (a frame's planes) summed by one set of launches */
#define LS_OS_MAX_SEQ 3

#if !defined(__OPENCL_VERSION__)
#include "opencl/opencl.h"

/* The four kernels of ordered_sum.cl, from any program that includes it (a twin's program
 * includes ordered_sum.cl, so one build holds both). */
#define LS_CL_ORDERED_SUM_KERNELS "ls_os_totals", "ls_os_predict", "ls_os_summaries", "ls_os_walk"
typedef struct LsClOrderedSumKernels {
    cl_kernel totals, predict, summaries, walk;
} LsClOrderedSumKernels;

/* Scratch of one sum in flight (one per frame slot). */
typedef struct LsClOrderedSum {
    cl_mem chunk_totals, predicted, summary, binades, replayed;
    size_t max_chunks;
    unsigned n_slots;
} LsClOrderedSum;

/* Scratch for sums of up to max_chunks chunks in all (each sequence of n terms takes
 * ceil(n / LS_OS_CHUNK)) into result slots 0 .. n_slots-1. */
int ls_cl_ordered_sum_init(LsClOrderedSum *os, LsClDevice *d, size_t max_chunks, unsigned n_slots,
                           char *err, size_t err_len);
/* Enqueues on `queue`, for each sequence i < n_seq (at most LS_OS_MAX_SEQ), the sum of
 * terms[offset[i] .. offset[i] + count[i]) (floats >= 0, in order) into result[slot0 + i] (a float
 * buffer); the scratch's replayed[slot0 + i] counts the chunks added term by term instead of
 * through their summary. Four launches whatever n_seq. */
int ls_cl_ordered_sum_enqueue(const LsClOrderedSum *os, const LsClOrderedSumKernels *k,
                              LsClDevice *d, cl_command_queue queue, cl_mem terms,
                              const size_t *offset, const size_t *count, unsigned n_seq,
                              cl_mem result, unsigned slot0, char *err, size_t err_len);
void ls_cl_ordered_sum_close(LsClOrderedSum *os, LsClDevice *d);

/* Test hook: *out = the ordered sum of terms[0..n) computed on device `index`; *replayed chunks
 * of the (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK were added term by term. */
int ls_opencl_ordered_sum_selftest(int index, const float *terms, size_t n, float *out,
                                   unsigned *replayed, char *err, size_t err_len);
#endif

#endif
