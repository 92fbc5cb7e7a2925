/* Float row chains in the CPU's order (float_cuda.h, LsRowChainArgs): row sums, one warp per 32
 * rows through coalesced 32x32 tiles in shared memory, each lane adding its row's terms left to
 * right; then the row sums added top to bottom by one thread per sequence. Include from a kernel
 * file (.cu) only. */
#ifndef LOCKSTEP_CUDA_ROW_CHAIN_CUH
#define LOCKSTEP_CUDA_ROW_CHAIN_CUH

#include "cuda/float_cuda.h"

extern "C" __global__ void __launch_bounds__(32 * LS_ROW_CHAIN_WARPS)
ls_row_chain_rows(const __grid_constant__ LsRowChainArgs a)
{
    __shared__ float tile[LS_ROW_CHAIN_WARPS][32][33];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, seq = blockIdx.y;
    const unsigned y0 = a.r0 + (blockIdx.x * LS_ROW_CHAIN_WARPS + warp) * 32u;
    if (y0 >= a.r1)
        return;
    const unsigned rows = a.r1 - y0 < 32u ? a.r1 - y0 : 32u;
    const float *p = (const float *)a.plane[seq];
    float (*t)[33] = tile[warp];
    float sum = 0.0f;
    for (unsigned x0 = a.c0; x0 < a.c1; x0 += 32) {
        const unsigned x = x0 + lane;
        for (unsigned r = 0; r < rows; r++)
            t[r][lane] = x < a.c1 ? p[(size_t)(y0 + r) * a.stride + x] : 0.0f;
        __syncwarp();
        const unsigned n = a.c1 - x0 < 32u ? a.c1 - x0 : 32u;
        if (lane < rows)
            for (unsigned k = 0; k < n; k++)
                sum = sum + t[lane][k];
        __syncwarp();
    }
    if (lane < rows)
        ((float *)a.rows)[(size_t)seq * a.stride_rows + (y0 - a.r0) + lane] = sum;
}

extern "C" __global__ void ls_row_chain_total(const __grid_constant__ LsRowChainArgs a)
{
    const unsigned seq = threadIdx.x;
    if (seq >= a.n_seq)
        return;
    const float *rows = (const float *)a.rows + (size_t)seq * a.stride_rows;
    float total = 0.0f;
    for (unsigned r = 0; r < a.r1 - a.r0; r++)
        total = total + rows[r];
    ((float *)a.out)[seq] = total;
}

#endif
