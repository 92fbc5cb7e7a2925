/* The float_vif twin's kernels: the vertical and horizontal passes (taps in order, float
 * accumulator, reflect-101), the statistic, the subsampling, with the CPU's per-pixel functions
 * (feature/float_vif.h); the row chains of the scale sums are row_chain.cuh's. */
#include <stdint.h>

#include "cuda/float_cuda.h"
#include "cuda/row_chain.cuh"
#include "feature/float_vif.h"

/* A filter input of the level: converted samples at scale 0, floats after. */
static __device__ __forceinline__ float input(const void *src, uint32_t w, uint32_t bpc, int x,
                                              int y)
{
    const size_t i = (size_t)y * w + (unsigned)x;
    if (bpc == 0)
        return ((const float *)src)[i];
    if (bpc == 8)
        return ls_float_vif_sample(((const uint8_t *)src)[i], 8);
    return ls_float_vif_sample(((const uint16_t *)src)[i], bpc);
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_vif_vertical(const __grid_constant__ LsFloatVifVerticalArgs a)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    if (x >= (int)a.w)
        return;
    const int r = (int)a.n_taps / 2, h = (int)a.h;
    float acc[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    for (int k = 0; k < (int)a.n_taps; k++) {
        const int yy = ls_float_vif_reflect(y - r + k, h);
        const float p = input((const void *)a.src[0], a.w, a.bpc, x, yy);
        const float q = input((const void *)a.src[1], a.w, a.bpc, x, yy);
        const float t = a.taps[k];
        acc[0] = ls_float_vif_mac(acc[0], t, p);
        acc[1] = ls_float_vif_mac(acc[1], t, q);
        if (a.products) {
            acc[2] = ls_float_vif_mac(acc[2], t, p * p);
            acc[3] = ls_float_vif_mac(acc[3], t, q * q);
            acc[4] = ls_float_vif_mac(acc[4], t, p * q);
        }
    }
    const size_t o = (size_t)y * a.w + (unsigned)x;
    for (int q = 0; q < (a.products ? 5 : 2); q++)
        ((float *)a.v[q])[o] = acc[q];
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_vif_stat(const __grid_constant__ LsFloatVifStatArgs a)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    if (x >= (int)a.w)
        return;
    const int r = (int)a.n_taps / 2, w = (int)a.w;
    float f[5];
    for (int q = 0; q < 5; q++) {
        const float *row = (const float *)a.v[q] + (size_t)y * a.w;
        float acc = 0.0f;
        for (int k = 0; k < (int)a.n_taps; k++)
            acc = ls_float_vif_mac(acc, a.taps[k], row[ls_float_vif_reflect(x - r + k, w)]);
        f[q] = acc;
    }
    const LsFloatVifStatParams p = { a.sigma_nsq, a.gain_limit, a.sigma_max_inv };
    float num, den;
    ls_float_vif_statistic(f[0], f[1], f[2], f[3], f[4], &p, &num, &den);
    const size_t o = (size_t)y * a.w + (unsigned)x;
    ((float *)a.num)[o] = num;
    ((float *)a.den)[o] = den;
}

/* Output (i, j) of the next scale: the horizontal taps at source columns 2j - r + k (reflected)
 * of the vertical low-pass at source row 2i, each formed as the CPU forms it. */
extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_vif_decimate(const __grid_constant__ LsFloatVifDecimateArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int w = (int)a.w, h = (int)a.h, ow = w / 2;
    if (j >= ow)
        return;
    const void *src = (const void *)a.src[blockIdx.z];
    const int r = (int)a.n_taps / 2;
    float acc = 0.0f;
    for (int k2 = 0; k2 < (int)a.n_taps; k2++) {
        const int c = ls_float_vif_reflect(2 * j - r + k2, w);
        float v = 0.0f;
        for (int k = 0; k < (int)a.n_taps; k++)
            v = ls_float_vif_mac(v, a.taps[k],
                                 input(src, a.w, a.bpc, c, ls_float_vif_reflect(2 * i - r + k, h)));
        acc = ls_float_vif_mac(acc, a.taps[k2], v);
    }
    ((float *)a.dst[blockIdx.z])[(size_t)i * ow + j] = acc;
}
