/* The float_vif twin's kernels: shells around the outputs of feature/float_vif.h (the vertical
 * and horizontal passes, the statistic, the subsampling), which the OpenCL twin runs too; the row
 * chains of the scale sums are row_chain.cuh's. */
#include <stdint.h>

#include "cuda/float_cuda.h"
#include "cuda/row_chain.cuh"
#include "feature/float_vif.h"

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_vif_vertical(const __grid_constant__ LsFloatVifVerticalArgs a)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    if (x >= (int)a.w)
        return;
    float acc[5];
    ls_float_vif_vertical_at((const uint8_t *)a.src[0], (const uint8_t *)a.src[1], a.w, a.h, a.bpc,
                             (int)a.n_taps, (int)a.products, x, y, acc);
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
    float f[5];
    for (int q = 0; q < 5; q++)
        f[q] = ls_float_vif_horizontal_at((const float *)a.v[q] + (size_t)y * a.w, (int)a.w,
                                          (int)a.n_taps, x);
    const LsFloatVifStatParams p = { a.sigma_nsq, a.gain_limit, a.sigma_max_inv };
    float num, den;
    ls_float_vif_statistic(f[0], f[1], f[2], f[3], f[4], &p, &num, &den);
    const size_t o = (size_t)y * a.w + (unsigned)x;
    ((float *)a.num)[o] = num;
    ((float *)a.den)[o] = den;
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_vif_decimate(const __grid_constant__ LsFloatVifDecimateArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int ow = (int)a.w / 2;
    if (j >= ow)
        return;
    ((float *)a.dst[blockIdx.z])[(size_t)i * ow + j] = ls_float_vif_decimate_at(
        (const uint8_t *)a.src[blockIdx.z], a.w, a.h, a.bpc, (int)a.n_taps, i, j);
}
