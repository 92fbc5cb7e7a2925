/* The motion twins' kernels: integer motion's SAD of the blurred frame difference (integer, exact
 * in any order), float_motion's blur (each output's taps in order, float), its bilinear half-size
 * copy, and its SAD (row sums left to right, then one chain over the rows), all with the CPU's
 * per-sample functions (feature/motion_filter.h). */
#include <stdint.h>

#include "cuda/motion_cuda.h"
#include "feature/motion_filter.h"

static __device__ __forceinline__ unsigned load_sample(const uint8_t *plane, unsigned w,
                                                        unsigned bpc, int x, int y)
{
    const size_t i = (size_t)y * w + (unsigned)x;
    return bpc == 8 ? plane[i] : ((const uint16_t *)plane)[i];
}

static __device__ __forceinline__ void add_u64(unsigned long long v, unsigned long long *dst)
{
    for (unsigned d = 16; d; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31u) == 0 && v)
        atomicAdd(dst, v);
}

extern "C" __global__ void __launch_bounds__(LS_MOTION_THREADS)
ls_int_motion_sad(const __grid_constant__ LsIntMotionSadArgs a)
{
    enum { R = LS_INT_MOTION_RADIUS, COLS = LS_MOTION_TILE_W + 2 * R };
    __shared__ int32_t v[LS_MOTION_TILE_H][COLS];
    const int w = (int)a.w, h = (int)a.h;
    const int x0 = (int)(blockIdx.x * LS_MOTION_TILE_W), y0 = (int)(blockIdx.y * LS_MOTION_TILE_H);
    const uint8_t *prev = (const uint8_t *)a.prev, *cur = (const uint8_t *)a.cur;
    /* vertical pass at the mirrored columns the horizontal pass reads: only those of the tile's
     * outputs (a mirror reaches at most one plane width beyond the edge) */
    const int need = (w - x0 < (int)LS_MOTION_TILE_W ? w - x0 : (int)LS_MOTION_TILE_W) + 2 * R;
    for (unsigned i = threadIdx.x; i < LS_MOTION_TILE_H * COLS; i += LS_MOTION_THREADS) {
        const int r = (int)(i / COLS), c = (int)(i % COLS);
        const int y = y0 + r;
        if (y >= h || c >= need)
            continue;
        const int xc = ls_motion_mirror(x0 - R + c, w);
        int64_t acc = 0;
        for (int k = 0; k < 5; k++) {
            const int yy = ls_motion_mirror(y - R + k, h);
            const int d = (int)load_sample(prev, a.w, a.bpc, xc, yy) -
                          (int)load_sample(cur, a.w, a.bpc, xc, yy);
            acc += (int64_t)ls_int_motion_filter[k] * d;
        }
        v[r][c] = ls_int_motion_vertical_round(acc, a.bpc);
    }
    __syncthreads();
    unsigned long long sum = 0;
    for (unsigned i = threadIdx.x; i < LS_MOTION_TILE_H * LS_MOTION_TILE_W; i += LS_MOTION_THREADS) {
        const int r = (int)(i / LS_MOTION_TILE_W), c = (int)(i % LS_MOTION_TILE_W);
        if (y0 + r >= h || x0 + c >= w)
            continue;
        const int32_t val = ls_int_motion_horizontal(v[r][c], v[r][c + 1], v[r][c + 2],
                                                     v[r][c + 3], v[r][c + 4]);
        sum += (unsigned)(val < 0 ? -val : val);
    }
    add_u64(sum, (unsigned long long *)a.sad);
}

extern "C" __global__ void __launch_bounds__(LS_MOTION_THREADS)
ls_float_motion_blur(const __grid_constant__ LsFloatMotionBlurArgs a)
{
    enum { RMAX = LS_MOTION_MAX_TAPS / 2, COLS = LS_MOTION_TILE_W + 2 * RMAX };
    __shared__ float v[LS_MOTION_TILE_H][COLS];
    const int w = (int)a.w, h = (int)a.h, n = (int)a.n_taps, R = n / 2;
    const int x0 = (int)(blockIdx.x * LS_MOTION_TILE_W), y0 = (int)(blockIdx.y * LS_MOTION_TILE_H);
    const uint8_t *src = (const uint8_t *)a.src;
    const int cols = (int)LS_MOTION_TILE_W + 2 * R;
    const int need = (w - x0 < (int)LS_MOTION_TILE_W ? w - x0 : (int)LS_MOTION_TILE_W) + 2 * R;
    for (int i = (int)threadIdx.x; i < (int)LS_MOTION_TILE_H * cols; i += LS_MOTION_THREADS) {
        const int r = i / cols, c = i % cols;
        const int y = y0 + r;
        if (y >= h || c >= need)
            continue;
        const int xc = ls_motion_mirror(x0 - R + c, w);
        float acc = 0.0f;
        for (int k = 0; k < n; k++) {
            const int yy = ls_motion_mirror(y - R + k, h);
            acc = acc + a.taps[k] * ls_float_motion_sample(load_sample(src, a.w, a.bpc, xc, yy),
                                                           a.bpc, a.divisor);
        }
        v[r][c] = acc;
    }
    __syncthreads();
    float *dst = (float *)a.dst;
    for (unsigned i = threadIdx.x; i < LS_MOTION_TILE_H * LS_MOTION_TILE_W; i += LS_MOTION_THREADS) {
        const int r = (int)(i / LS_MOTION_TILE_W), c = (int)(i % LS_MOTION_TILE_W);
        const int x = x0 + c, y = y0 + r;
        if (y >= h || x >= w)
            continue;
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc = acc + a.taps[k] * v[r][c + k];
        dst[(size_t)y * a.w + x] = acc;
    }
}

extern "C" __global__ void ls_float_motion_downscale(const __grid_constant__ LsFloatMotionDownscaleArgs a)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= a.dw)
        return;
    const float *src = (const float *)a.src;
    int y1, y2, x1, x2;
    float dy, dx;
    ls_motion_bilinear_coord((int)y, a.ry, (int)a.sh, &y1, &y2, &dy);
    ls_motion_bilinear_coord((int)x, a.rx, (int)a.sw, &x1, &x2, &dx);
    const float *r1 = src + (size_t)y1 * a.sw, *r2 = src + (size_t)y2 * a.sw;
    ((float *)a.dst)[(size_t)y * a.dw + x] =
        ls_motion_bilinear_sample(r1[x1], r1[x2], r2[x1], r2[x2], dx, dy);
}

/* Row sums of |a - b|, each a float chain left to right (the CPU's order): a warp takes 32 rows;
 * it loads 32x32 tiles coalesced into shared memory, then each lane adds its row's 32 values in
 * order. LS_MOTION_SAD_WARPS warps per block. */
extern "C" __global__ void __launch_bounds__(32 * LS_MOTION_SAD_WARPS)
ls_float_motion_sad_rows(const __grid_constant__ LsFloatMotionSadArgs a)
{
    __shared__ float tile[LS_MOTION_SAD_WARPS][32][33];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned y0 = (blockIdx.x * LS_MOTION_SAD_WARPS + warp) * 32u;
    if (y0 >= a.h)
        return;
    const unsigned rows = a.h - y0 < 32u ? a.h - y0 : 32u;
    const float *pa = (const float *)a.a, *pb = (const float *)a.b;
    float (*t)[33] = tile[warp];
    float sum = 0.0f;
    for (unsigned x0 = 0; x0 < a.w; x0 += 32) {
        const unsigned x = x0 + lane;
        for (unsigned r = 0; r < rows; r++) {
            const size_t i = (size_t)(y0 + r) * a.w + x;
            t[r][lane] = x < a.w ? fabsf(pa[i] - pb[i]) : 0.0f;
        }
        __syncwarp();
        const unsigned n = a.w - x0 < 32u ? a.w - x0 : 32u;
        if (lane < rows)
            for (unsigned k = 0; k < n; k++)
                sum = sum + t[lane][k];
        __syncwarp();
    }
    if (lane < rows)
        ((float *)a.rows)[y0 + lane] = sum;
}

/* The chain over the rows, top to bottom, from 0. */
extern "C" __global__ void ls_float_motion_sad_total(const __grid_constant__ LsFloatMotionSadArgs a)
{
    if (threadIdx.x || blockIdx.x)
        return;
    const float *rows = (const float *)a.rows;
    float total = 0.0f;
    for (unsigned y = 0; y < a.h; y++)
        total = total + rows[y];
    *(float *)a.total = total;
}
