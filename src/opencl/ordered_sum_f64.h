/* Host side of the binary64 ordered sum on OpenCL (opencl/ordered_sum_f64.clh, the arithmetic in
 * core/ordered_sum_f64.h): the sequential chains `s = 0; s += t[k]` of the ssim twins computed in
 * parallel, bit for bit. A twin lists LS_CL_OS64_KERNELS among its kernels (from index `first`),
 * allocates per-slot scratch at setup and enqueues the sums of a frame's chains with one call. */
#ifndef LOCKSTEP_OPENCL_ORDERED_SUM_F64_H
#define LOCKSTEP_OPENCL_ORDERED_SUM_F64_H

#include "opencl/twin.h"

#define LS_CL_OS64_KERNELS "ls_os64_totals", "ls_os64_prefix", "ls_os64_base", "ls_os64_parent", \
                           "ls_os64_walk"
#define LS_CL_OS64_N_KERNELS 5
/* the kernels among them written for work-groups of LS_WG (a twin's wg_kernels bits) */
#define LS_CL_OS64_WG_KERNELS(first) (1u << ((first) + 1))

typedef struct LsClOs64 {
    unsigned first;              /* index of ls_os64_totals in the twin's kernels */
    cl_ulong n, n0, n1, n2;      /* terms of a sequence, chunks of each level */
    cl_uint n_seq;
    cl_mem tot[LS_CL_SLOTS], pred[LS_CL_SLOTS], s0[LS_CL_SLOTS], s1[LS_CL_SLOTS],
        s2[LS_CL_SLOTS];
} LsClOs64;

/* Scratch for n_seq sequences of n terms per frame slot, freed with the twin. */
int ls_cl_os64_setup(LsClTwin *t, LsClOs64 *os, unsigned first, cl_ulong n, unsigned n_seq);
/* Enqueues on f's queue the sums of the sequences terms + i * stride (i < n_seq, stride in terms)
 * into out[i] (binary64 bits). */
int ls_cl_os64_enqueue(LsClTwin *t, const LsClFrame *f, const LsClOs64 *os, cl_mem terms,
                       cl_ulong stride, cl_mem out);

#endif
