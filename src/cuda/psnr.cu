/* psnr on CUDA: the integer SSE of each plane. Integer sums are exact in any order, so the grid
 * splits and atomically adds freely (psnr.md §3.3). gridDim.y = plane. */
#include <stdint.h>

#include "cuda/psnr_cuda.h"

static __device__ __forceinline__ void add_sse(unsigned long long acc, unsigned long long *sse)
{
    for (unsigned d = 16; d; d >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, d);
    if ((threadIdx.x & 31u) == 0 && acc)
        atomicAdd(sse, acc);
}

extern "C" __global__ void __launch_bounds__(LS_PSNR_THREADS)
ls_psnr_sse_8(const __grid_constant__ LsPsnrFrame f)
{
    const unsigned p = blockIdx.y;
    const uint32_t *r = (const uint32_t *)f.ref[p], *d = (const uint32_t *)f.dis[p];
    unsigned long long acc = 0;
    for (unsigned i = blockIdx.x * LS_PSNR_THREADS + threadIdx.x; i < f.words[p];
         i += gridDim.x * LS_PSNR_THREADS) {
        const uint32_t a = r[i], b = d[i];
        uint32_t word = 0; /* four squares of at most 255^2: below 2^18 */
        for (int k = 0; k < 32; k += 8) {
            const int e = (int)((a >> k) & 0xffu) - (int)((b >> k) & 0xffu);
            word += (uint32_t)(e * e);
        }
        acc += word;
    }
    if (blockIdx.x == 0 && threadIdx.x < f.tail[p]) {
        const uint8_t *r8 = (const uint8_t *)(r + f.words[p]);
        const uint8_t *d8 = (const uint8_t *)(d + f.words[p]);
        const int e = (int)r8[threadIdx.x] - (int)d8[threadIdx.x];
        acc += (uint32_t)(e * e);
    }
    add_sse(acc, (unsigned long long *)f.sse + p);
}

extern "C" __global__ void __launch_bounds__(LS_PSNR_THREADS)
ls_psnr_sse_16(const __grid_constant__ LsPsnrFrame f)
{
    const unsigned p = blockIdx.y;
    const uint32_t *r = (const uint32_t *)f.ref[p], *d = (const uint32_t *)f.dis[p];
    unsigned long long acc = 0;
    for (unsigned i = blockIdx.x * LS_PSNR_THREADS + threadIdx.x; i < f.words[p];
         i += gridDim.x * LS_PSNR_THREADS) {
        const uint32_t a = r[i], b = d[i];
        const long long e0 = (long long)(a & 0xffffu) - (long long)(b & 0xffffu);
        const long long e1 = (long long)(a >> 16) - (long long)(b >> 16);
        acc += (unsigned long long)(e0 * e0) + (unsigned long long)(e1 * e1);
    }
    if (blockIdx.x == 0 && threadIdx.x < f.tail[p]) {
        const uint16_t *r16 = (const uint16_t *)(r + f.words[p]);
        const uint16_t *d16 = (const uint16_t *)(d + f.words[p]);
        const long long e = (long long)r16[threadIdx.x] - (long long)d16[threadIdx.x];
        acc += (unsigned long long)(e * e);
    }
    add_sse(acc, (unsigned long long *)f.sse + p);
}
