/* psnr_hvs on CUDA: the CPU's per-block arithmetic (feature/psnr_hvs_block.h, compiled here with
 * --fmad=false --prec-div=true --prec-sqrt=true -ftz=false) writes every block's 64 terms in the
 * CPU's order; the ordered-sum kernels then replay each plane's float sum exactly. */
#include <stddef.h>
#include <stdint.h>

#include "cuda/ordered_sum.cuh"
#include "cuda/psnr_hvs_cuda.h"
#include "feature/psnr_hvs_block.h"

template <int bytes_per_sample>
static __device__ __forceinline__ void hvs_terms(const LsHvsFrame &f)
{
    const unsigned g = blockIdx.x * LS_HVS_THREADS + threadIdx.x;
    if (g >= f.block_off[f.n_planes])
        return;
    unsigned p = 0;
    while (p + 1 < f.n_planes && g >= f.block_off[p + 1])
        p++;
    const unsigned b = g - f.block_off[p];
    const unsigned by = b / f.blocks_x[p], bx = b - by * f.blocks_x[p];
    int s[64], d[64];
    float terms[64];
    ls_psnr_hvs_load_block(s, (const unsigned char *)f.ref[p], f.stride[p], (int)(7 * bx),
                           (int)(7 * by), bytes_per_sample);
    ls_psnr_hvs_load_block(d, (const unsigned char *)f.dis[p], f.stride[p], (int)(7 * bx),
                           (int)(7 * by), bytes_per_sample);
    ls_psnr_hvs_block(terms, s, d, (int)p);
    float4 *out = (float4 *)((float *)f.terms + (size_t)g * 64);
#pragma unroll
    for (int k = 0; k < 16; k++)
        out[k] = make_float4(terms[4 * k], terms[4 * k + 1], terms[4 * k + 2], terms[4 * k + 3]);
}

extern "C" __global__ void __launch_bounds__(LS_HVS_THREADS)
ls_hvs_terms_8(const __grid_constant__ LsHvsFrame f)
{
    hvs_terms<1>(f);
}

extern "C" __global__ void __launch_bounds__(LS_HVS_THREADS)
ls_hvs_terms_16(const __grid_constant__ LsHvsFrame f)
{
    hvs_terms<2>(f);
}
