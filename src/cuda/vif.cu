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

/* One scale's statistics. SCALE is a template parameter so that the tap loops unroll with the
 * taps in registers; the loops walk rows and columns without divisions. */
template <bool BYTES, int SCALE>
static __device__ __forceinline__ void stats(const LsVifStatsArgs &a)
{
    enum { R = 8 >> SCALE, WIDTH = 2 * R + 1, COLS = LS_VIF_TILE_W + 2 * 8 };
    __shared__ uint32_t v_mu1[LS_VIF_TILE_H][COLS], v_mu2[LS_VIF_TILE_H][COLS];
    __shared__ uint32_t v_xx[LS_VIF_TILE_H][COLS], v_yy[LS_VIF_TILE_H][COLS],
        v_xy[LS_VIF_TILE_H][COLS];
    __shared__ long long part[LS_VIF_THREADS / 32][4];
    const int w = (int)a.w, h = (int)a.h;
    uint32_t f[WIDTH];
#pragma unroll
    for (int k = 0; k < WIDTH; k++)
        f[k] = ls_vif_taps[SCALE][k];
    const int x0 = (int)(blockIdx.x * LS_VIF_TILE_W), y0 = (int)(blockIdx.y * LS_VIF_TILE_H);
    const int n_out = w - x0 < (int)LS_VIF_TILE_W ? w - x0 : (int)LS_VIF_TILE_W;
    const int cols = n_out + 2 * R;
    const int rows = h - y0 < (int)LS_VIF_TILE_H ? h - y0 : (int)LS_VIF_TILE_H;
    /* vertical pass (vif.md 5.1) at the reflected columns the tile's outputs read */
    for (int c = (int)threadIdx.x; c < cols; c += LS_VIF_THREADS) {
        const int xc = ls_vif_reflect(x0 - R + c, w);
        for (int row = 0; row < rows; row++) {
            const int y = y0 + row;
            uint32_t ax = 0, ay = 0;
            uint64_t axx = 0, ayy = 0, axy = 0;
#pragma unroll
            for (int k = 0; k < WIDTH; k++) {
                const int yy = ls_vif_reflect(y - R + k, h);
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
    }
    __syncthreads();
    LsVifAccum acc = { 0, 0, 0, 0 };
    const uint16_t *table = (const uint16_t *)a.table;
    for (int c = (int)threadIdx.x; c < (int)LS_VIF_TILE_W; c += LS_VIF_THREADS) {
        if (c >= n_out)
            continue;
        for (int row = 0; row < rows; row++) {
            uint32_t mx = 0, my = 0;
            uint64_t sxx = 0, syy = 0, sxy = 0;
#pragma unroll
            for (int k = 0; k < WIDTH; k++) {
                mx += f[k] * v_mu1[row][c + k];
                my += f[k] * v_mu2[row][c + k];
                sxx += (uint64_t)f[k] * v_xx[row][c + k];
                syy += (uint64_t)f[k] * v_yy[row][c + k];
                sxy += (uint64_t)f[k] * v_xy[row][c + k];
            }
            const LsVifSigmas s = ls_vif_sigmas(mx, my, sxx, syy, sxy);
            ls_vif_pixel(table, s.sigma1_sq, s.sigma2_sq, s.sigma12, a.gain_limit, &acc);
        }
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
    stats<true, 0>(a);
}

#define LS_VIF_STATS_16(scale)                                                                     \
    extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)                                   \
    ls_vif_stats_16_##scale(const __grid_constant__ LsVifStatsArgs a)                              \
    {                                                                                              \
        stats<false, scale>(a);                                                                    \
    }
LS_VIF_STATS_16(0)
LS_VIF_STATS_16(1)
LS_VIF_STATS_16(2)
LS_VIF_STATS_16(3)

/* The next scale (NEXT = 1..3) of both pictures. */
template <bool BYTES, int NEXT>
static __device__ __forceinline__ void decimate(const LsVifDecimateArgs &a)
{
    enum { R = 8 >> NEXT, WIDTH = 2 * R + 1, COLS = 2 * LS_VIF_DEC_TILE_W + 2 * 4 + 8 };
    __shared__ uint16_t t[LS_VIF_DEC_TILE_H][COLS];
    const int w = (int)a.w, h = (int)a.h, ow = w / 2, oh = h / 2;
    uint32_t f[WIDTH];
#pragma unroll
    for (int k = 0; k < WIDTH; k++)
        f[k] = ls_vif_taps[NEXT][k];
    const void *src = (const void *)a.src[blockIdx.z];
    uint16_t *dst = (uint16_t *)a.dst[blockIdx.z];
    const int x0 = (int)(blockIdx.x * LS_VIF_DEC_TILE_W), y0 = (int)(blockIdx.y * LS_VIF_DEC_TILE_H);
    const int n_out = ow - x0 < (int)LS_VIF_DEC_TILE_W ? ow - x0 : (int)LS_VIF_DEC_TILE_W;
    const int rows = oh - y0 < (int)LS_VIF_DEC_TILE_H ? oh - y0 : (int)LS_VIF_DEC_TILE_H;
    const int cols = 2 * (n_out - 1) + 2 * R + 1;
    /* the vertical low-pass at source row 2i, rounded to the level's precision (vif.md 4) */
    for (int c = (int)threadIdx.x; c < cols; c += LS_VIF_THREADS) {
        const int xs = ls_vif_reflect(2 * x0 - R + c, w);
        for (int row = 0; row < rows; row++) {
            const int y = 2 * (y0 + row);
            uint32_t acc = 0;
#pragma unroll
            for (int k = 0; k < WIDTH; k++)
                acc += f[k] * sample<BYTES>(src, a.w, xs, ls_vif_reflect(y - R + k, h));
            t[row][c] = (uint16_t)((acc + a.mu_round) >> a.mu_shift);
        }
    }
    __syncthreads();
    for (int c = (int)threadIdx.x; c < n_out; c += LS_VIF_THREADS) {
        for (int row = 0; row < rows; row++) {
            uint32_t acc = 0;
#pragma unroll
            for (int k = 0; k < WIDTH; k++)
                acc += f[k] * (uint32_t)t[row][2 * c + k];
            dst[(size_t)(y0 + row) * ow + x0 + c] = (uint16_t)((acc + 32768) >> 16);
        }
    }
}

extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)
ls_vif_decimate_8(const __grid_constant__ LsVifDecimateArgs a)
{
    decimate<true, 1>(a);
}

#define LS_VIF_DECIMATE_16(next)                                                                   \
    extern "C" __global__ void __launch_bounds__(LS_VIF_THREADS)                                   \
    ls_vif_decimate_16_##next(const __grid_constant__ LsVifDecimateArgs a)                         \
    {                                                                                              \
        decimate<false, next>(a);                                                                  \
    }
LS_VIF_DECIMATE_16(1)
LS_VIF_DECIMATE_16(2)
LS_VIF_DECIMATE_16(3)
