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

#if !defined(__OPENCL_VERSION__)
#include "opencl/opencl.h"

typedef struct LsClOrderedSum {
    cl_program prog;
    cl_kernel totals, predict, summaries, walk;
    cl_mem chunk_totals, predicted, summary, binades, result, replayed;
    size_t max_chunks;
    unsigned n_slots;
} LsClOrderedSum;

/* Scratch for sums of up to max_terms terms, results in n_slots floats. */
int ls_cl_ordered_sum_init(LsClOrderedSum *os, LsClDevice *d, size_t max_terms, unsigned n_slots,
                           char *err, size_t err_len);
/* Enqueues the sum of terms[offset .. offset + n) (floats >= 0, in order) into result slot. */
int ls_cl_ordered_sum_enqueue(LsClOrderedSum *os, LsClDevice *d, cl_mem terms, size_t offset,
                              size_t n, unsigned slot, char *err, size_t err_len);
/* Waits and reads the first n result slots; replayed (may be NULL) receives, per slot, how many
 * chunks were added term by term instead of through their summary. */
int ls_cl_ordered_sum_read(LsClOrderedSum *os, LsClDevice *d, float *out, unsigned *replayed,
                           unsigned n, char *err, size_t err_len);
void ls_cl_ordered_sum_close(LsClOrderedSum *os, LsClDevice *d);

/* Test hook: *out = the ordered sum of terms[0..n) computed on device `index`; *replayed chunks
 * of the (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK were added term by term. */
int ls_opencl_ordered_sum_selftest(int index, const float *terms, size_t n, float *out,
                                   unsigned *replayed, char *err, size_t err_len);
#endif

#endif
