/* The vif twin's kernels: one scale's statistics and the subsampling to the next scale, with the
 * integer widths of the CPU's C reference (feature/vif_dsp.c) and its per-pixel functions
 * (feature/vif.h: ls_vif_sigmas, ls_vif_pixel). Every accumulation is integer, so blocks add
 * their partial sums in any order. */
#include <stdint.h>

#include "cuda/vif_cuda.h"
#include "feature/vif.h"

template <bool BYTES>
static __device__ __forceinline__ uint32_t sample(const void *plane, uint32_t w, int x, int y)
{
    const size_t i = (size_t)y * w + (unsigned)x;
    return BYTES ? ((const uint8_t *)plane)[i] : ((const uint16_t *)plane)[i];
}

static __device__ __forceinline__ long long warp_sum(long long v)
{
    for (unsigned d = 16; d; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

template <bool BYTES>
static __device__ __forceinline__ void stats(const LsVifStatsArgs &a)
{
    enum { COLS = LS_VIF_TILE_W + 2 * 8 };
    __shared__ uint32_t v_mu1[LS_VIF_TILE_H][COLS], v_mu2[LS_VIF_TILE_H][COLS];
    __shared__ uint32_t v_xx[LS_VIF_TILE_H][COLS], v_yy[LS_VIF_TILE_H][COLS],
        v_xy[LS_VIF_TILE_H][COLS];
    __shared__ long long part[LS_VIF_THREADS / 32][4];
    const int w = (int)a.w, h = (int)a.h;
    const int r = (int)ls_vif_radius(a.scale), width = 2 * r + 1;
    const uint16_t *f = ls_vif_taps[a.scale];
    const int x0 = (int)(blockIdx.x * LS_VIF_TILE_W), y0 = (int)(blockIdx.y * LS_VIF_TILE_H);
    const int n_out = w - x0 < (int)LS_VIF_TILE_W ? w - x0 : (int)LS_VIF_TILE_W;
    const int cols = n_out + 2 * r;
    /* vertical pass (vif.md 5.1) at the reflected columns the tile's outputs read */
    for (int i = (int)threadIdx.x; i < (int)LS_VIF_TILE_H * cols; i += LS_VIF_THREADS) {
        const int row = i / cols, c = i % cols;
        const int y = y0 + row;
        if (y >= h)
            continue;
        const int xc = ls_vif_reflect(x0 - r + c, w);
        uint32_t ax = 0, ay = 0;
        uint64_t axx = 0, ayy = 0, axy = 0;
        for (int k = 0; k < width; k++) {
            const int yy = ls_vif_reflect(y - r + k, h);
            const uint32_t x = sample<BYTES>((const void *)a.ref, a.w, xc, yy);
            const uint32_t d = sample<BYTES>((const void *)a.dis, a.w, xc, yy);
            const uint32_t fx = f[k] * x, fy = f[k] * d;
            ax += fx;
            ay += fy;
            if (BYTES) {
                /* 65536 * 255^2 < 2^32: the 8-bit level's moments stay 32-bit, unshifted */
                axx = (uint32_t)(axx + fx * x);
                ayy = (uint32_t)(ayy + fy * d);
                axy = (uint32_t)(axy + fx * d);
            } else {
                axx += (uint64_t)fx * x;
                ayy += (uint64_t)fy * d;
                axy += (uint64_t)fx * d;
            }
        }
        v_mu1[row][c] = (ax + a.mu_round) >> a.mu_shift;
        v_mu2[row][c] = (ay + a.mu_round) >> a.mu_shift;
        v_xx[row][c] = (uint32_t)((axx + a.sq_round) >> a.sq_shift);
        v_yy[row][c] = (uint32_t)((ayy + a.sq_round) >> a.sq_shift);
        v_xy[row][c] = (uint32_t)((axy + a.sq_round) >> a.sq_shift);
    }
    __syncthreads();
    LsVifAccum acc = { 0, 0, 0, 0 };
    const uint16_t *table = (const uint16_t *)a.table;
    for (int i = (int)threadIdx.x; i < (int)(LS_VIF_TILE_H * LS_VIF_TILE_W); i += LS_VIF_THREADS) {
        const int row = i / (int)LS_VIF_TILE_W, c = i % (int)LS_VIF_TILE_W;
        if (y0 + row >= h || c >= n_out)
            continue;
        uint32_t mx = 0, my = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
        for (int k = 0; k < width; k++) {
            mx += f[k] * v_mu1[row][c + k];
            my += f[k] * v_mu2[row][c + k];
            sxx += (uint64_t)f[k] * v_xx[row][c + k];
            syy += (uint64_t)f[k] * v_yy[row][c + k];
            sxy += (uint64_t)f[k] * v_xy[row][c + k];
        }
        const LsVifSigmas s = ls_vif_sigmas(mx, my, sxx, syy, sxy);
        ls_vif_pixel(table, s.sigma1_sq, s.sigma2_sq, s.sigma12, a.gain_limit, &acc);
    }
    long long v[4] = { acc.num_log, acc.den_log, acc.num_nonlog, acc.den_nonlog };
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (unsigned q = 0; q < 4; q++) {
        v[q] = warp_sum(v[q]);
        if (lane == 0)
            part[warp][q] = v[q];
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        long long total = 0;
        for (unsigned wi = 0; wi < LS_VIF_THREADS / 32; wi++)
            total += part[wi][threadIdx.x];
        if (total)
            atomicAdd((unsigned long long *)a.acc + threadIdx.x, (unsigned long long)total);
    }
}

extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)
ls_vif_stats_8(const __grid_constant__ LsVifStatsArgs a)
{
    stats<true>(a);
}

extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)
ls_vif_stats_16(const __grid_constant__ LsVifStatsArgs a)
{
    stats<false>(a);
}

template <bool BYTES>
static __device__ __forceinline__ void decimate(const LsVifDecimateArgs &a)
{
    enum { COLS = 2 * LS_VIF_DEC_TILE_W + 2 * 4 };
    __shared__ uint16_t t[LS_VIF_DEC_TILE_H][COLS];
    const int w = (int)a.w, h = (int)a.h, ow = w / 2, oh = h / 2;
    const unsigned next = a.scale + 1;
    const int r = (int)ls_vif_radius(next), width = 2 * r + 1;
    const uint16_t *f = ls_vif_taps[next];
    const void *src = (const void *)a.src[blockIdx.z];
    uint16_t *dst = (uint16_t *)a.dst[blockIdx.z];
    const int x0 = (int)(blockIdx.x * LS_VIF_DEC_TILE_W), y0 = (int)(blockIdx.y * LS_VIF_DEC_TILE_H);
    const int n_out = ow - x0 < (int)LS_VIF_DEC_TILE_W ? ow - x0 : (int)LS_VIF_DEC_TILE_W;
    const int cols = 2 * (n_out - 1) + 2 * r + 1;
    /* the vertical low-pass at source row 2i, rounded to the level's precision (vif.md 4) */
    for (int i = (int)threadIdx.x; i < (int)LS_VIF_DEC_TILE_H * cols; i += LS_VIF_THREADS) {
        const int row = i / cols, c = i % cols;
        const int y = 2 * (y0 + row);
        if (y0 + row >= oh)
            continue;
        const int xs = ls_vif_reflect(2 * x0 - r + c, w);
        uint32_t acc = 0;
        for (int k = 0; k < width; k++)
            acc += f[k] * sample<BYTES>(src, a.w, xs, ls_vif_reflect(y - r + k, h));
        t[row][c] = (uint16_t)((acc + a.mu_round) >> a.mu_shift);
    }
    __syncthreads();
    for (int i = (int)threadIdx.x; i < (int)(LS_VIF_DEC_TILE_H * LS_VIF_DEC_TILE_W);
         i += LS_VIF_THREADS) {
        const int row = i / (int)LS_VIF_DEC_TILE_W, c = i % (int)LS_VIF_DEC_TILE_W;
        if (y0 + row >= oh || c >= n_out)
            continue;
        uint32_t acc = 0;
        for (int k = 0; k < width; k++)
            acc += f[k] * (uint32_t)t[row][2 * c + k];
        dst[(size_t)(y0 + row) * ow + x0 + c] = (uint16_t)((acc + 32768) >> 16);
    }
}

extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)
ls_vif_decimate_8(const __grid_constant__ LsVifDecimateArgs a)
{
    decimate<true>(a);
}

extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)
ls_vif_decimate_16(const __grid_constant__ LsVifDecimateArgs a)
{
    decimate<false>(a);
}
