/* The ssim twins' kernels with the CPU's per-position functions (feature/ssim.h). float_ssim:
 * conversion and decimation (double sums in (row, column) order), the 11-tap passes (each output's
 * products added in double in tap order), the per-position terms; integer ssim: the integer
 * moments (exact in any order) and the per-position terms. The long double chains are added in
 * the CPU's order by ls_chain_sum, one warp per chain. */
#include <stdint.h>

#include "cuda/ssim_cuda.h"
#include "feature/ssim.h"

static __device__ __forceinline__ unsigned sample(const void *plane, unsigned w, unsigned bpc,
                                                  int x, int y)
{
    const size_t i = (size_t)y * w + (unsigned)x;
    return bpc == 8 ? ((const uint8_t *)plane)[i] : ((const uint16_t *)plane)[i];
}

/* The CPU's conversion to the 8-bit range: v, or v / 2^(bpc-8) (exact). */
static __device__ __forceinline__ float convert(unsigned v, unsigned bpc)
{
    if (bpc == 8)
        return (float)v;
    const float div = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    return (float)v / div;
}

extern "C" __global__ void __launch_bounds__(LS_SSIM_THREADS)
ls_float_ssim_prep(const __grid_constant__ LsFloatSsimPrepArgs a)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, img = blockIdx.z;
    if (x >= a.dw)
        return;
    const void *src = (const void *)a.src[img];
    float *dst = (float *)a.dst[img];
    if (a.f == 1) {
        dst[(size_t)y * a.dw + x] = convert(sample(src, a.w, a.bpc, (int)x, (int)y), a.bpc);
        return;
    }
    const int f = (int)a.f, r = f / 2;
    double acc = 0.0;
    for (int v = 0; v < f; v++) {
        const int yy = ls_float_ssim_mirror((int)y * f + v - r, (int)a.h);
        for (int u = 0; u < f; u++) {
            const int xx = ls_float_ssim_mirror((int)x * f + u - r, (int)a.w);
            acc += (double)(convert(sample(src, a.w, a.bpc, xx, yy), a.bpc) * a.box_weight);
        }
    }
    dst[(size_t)y * a.dw + x] = (float)acc;
}

extern "C" __global__ void __launch_bounds__(LS_SSIM_THREADS)
ls_float_ssim_horizontal(const __grid_constant__ LsFloatSsimHorizontalArgs a)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    const unsigned w_out = a.dw - 10;
    if (x >= w_out)
        return;
    const float *r = (const float *)a.ref + (size_t)y * a.dw + x;
    const float *d = (const float *)a.dis + (size_t)y * a.dw + x;
    float *m = (float *)a.mom;
    const size_t plane = (size_t)a.dh * w_out, o = (size_t)y * w_out + x;
    m[o] = ls_float_ssim_filter11(r, 1);
    m[plane + o] = ls_float_ssim_filter11(d, 1);
    m[2 * plane + o] = ls_float_ssim_filter11_products(r, r, 1);
    m[3 * plane + o] = ls_float_ssim_filter11_products(d, d, 1);
    m[4 * plane + o] = ls_float_ssim_filter11_products(r, d, 1);
}

extern "C" __global__ void __launch_bounds__(LS_SSIM_THREADS)
ls_float_ssim_terms(const __grid_constant__ LsFloatSsimTermsArgs a)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= a.w_out)
        return;
    const float *m = (const float *)a.mom;
    const size_t plane = (size_t)a.dh * a.w_out, col = (size_t)y * a.w_out + x;
    float v[5];
    for (int k = 0; k < 5; k++)
        v[k] = ls_float_ssim_filter11(m + k * plane + col, (ptrdiff_t)a.w_out);
    double l, c;
    float s;
    ls_float_ssim_position(v[0], v[1], v[2], v[3], v[4], &l, &c, &s);
    double *t = (double *)a.terms;
    const size_t n = (size_t)a.h_out * a.w_out, o = (size_t)y * a.w_out + x;
    t[o] = l * c * (double)s;
    t[n + o] = l;
    t[2 * n + o] = c;
    t[3 * n + o] = (double)s;
}

/* One warp per sequence: the warp stages LS_SSIM_CHAIN_CHUNK terms in shared memory (coalesced
 * loads), then lane 0 adds them in order; the next chunk's loads are issued before the adds. */
extern "C" __global__ void __launch_bounds__(32) ls_chain_sum(const __grid_constant__ LsChainArgs a)
{
    __shared__ double buf[2][LS_SSIM_CHAIN_CHUNK];
    const double *t = (const double *)a.terms + (size_t)blockIdx.x * a.stride;
    const unsigned lane = threadIdx.x;
    double acc = 0.0;
    const uint64_t n = a.n;
    unsigned cur = 0;
    for (uint64_t i = lane; i < LS_SSIM_CHAIN_CHUNK && i < n; i += 32)
        buf[0][i] = t[i];
    __syncwarp();
    for (uint64_t base = 0; base < n; base += LS_SSIM_CHAIN_CHUNK) {
        const uint64_t next = base + LS_SSIM_CHAIN_CHUNK;
        for (uint64_t i = lane; i < LS_SSIM_CHAIN_CHUNK && next + i < n; i += 32)
            buf[cur ^ 1][i] = t[next + i];
        if (lane == 0) {
            const uint64_t m = n - base < LS_SSIM_CHAIN_CHUNK ? n - base : LS_SSIM_CHAIN_CHUNK;
            for (uint64_t i = 0; i < m; i++)
                acc += buf[cur][i];
        }
        __syncwarp();
        cur ^= 1;
    }
    if (lane == 0)
        ((double *)a.out)[blockIdx.x] = acc;
}

/* Integer ssim: one thread per position. The vertical and horizontal 9-tap sums of the five
 * moments are integers (below 2^53), so computing them straight from the samples gives the CPU's
 * values, whatever its order of passes. */
extern "C" __global__ void __launch_bounds__(LS_SSIM_THREADS)
ls_ssim_terms(const __grid_constant__ LsSsimTermsArgs a)
{
    const int kernel[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), y = (int)blockIdx.y;
    const int w = (int)a.w, h = (int)a.h, half = LS_SSIM_TAPS / 2;
    unsigned long long weight = 0;
    if (x < w) {
        int64_t m[5] = { 0, 0, 0, 0, 0 };
        int64_t wv = 0, wh = 0;
        for (int t = 0; t < LS_SSIM_TAPS; t++) {
            const int yy = y + t - half;
            if (yy >= 0 && yy < h)
                wv += kernel[t];
            const int xx = x + t - half;
            if (xx >= 0 && xx < w)
                wh += kernel[t];
        }
        for (int tv = 0; tv < LS_SSIM_TAPS; tv++) {
            const int yy = y + tv - half;
            if (yy < 0 || yy >= h)
                continue;
            for (int th = 0; th < LS_SSIM_TAPS; th++) {
                const int xx = x + th - half;
                if (xx < 0 || xx >= w)
                    continue;
                const int64_t q = (int64_t)kernel[tv] * kernel[th];
                const int64_t s = sample((const void *)a.ref, a.w, a.bpc, xx, yy);
                const int64_t d = sample((const void *)a.dis, a.w, a.bpc, xx, yy);
                m[0] += q * s;
                m[1] += q * d;
                m[2] += q * s * s;
                m[3] += q * s * d;
                m[4] += q * d * d;
            }
        }
        const double wt = (double)wv * (double)wh;
        ((double *)a.terms)[(size_t)y * w + x] =
            ls_ssim_position((double)m[0], (double)m[1], (double)m[2], (double)m[3], (double)m[4],
                             wt, a.sample_max);
        weight = (unsigned long long)(wv * wh);
    }
    for (unsigned d = 16; d; d >>= 1)
        weight += __shfl_down_sync(0xffffffffu, weight, d);
    if ((threadIdx.x & 31u) == 0 && weight)
        atomicAdd((unsigned long long *)a.weights, weight);
}
