/* The motion twins' kernels (the OpenCL counterparts of src/cuda/motion.cu) with the CPU's
 * per-sample functions (feature/motion_filter.h): integer motion's SAD of the blurred frame
 * difference (integer, exact in any order: each work-group writes its partial sum,
 * ls_reduce_partials adds them); float_motion's blur (each output's taps in order, float), its
 * bilinear half-size copy and its SAD (row sums left to right, then one chain over the rows). */
#include "opencl/fp32_exact.h"
#if defined(LS_EMULATE_DIV_SQRT)
#define LS_FDIV(a, b) ls_div_rn(a, b) /* no correctly rounded division on this device */
#endif
#include "feature/motion_filter.h"
#include "opencl/reduce.clh"

#define MOTION_TILE_W 128
#define MOTION_TILE_H 8
#define MOTION_COLS (MOTION_TILE_W + 2 * LS_INT_MOTION_RADIUS)

static inline int motion_sample(__global const uchar *plane, uint w, uint bpc, int x, int y)
{
    const ulong i = (ulong)y * w + (uint)x;
    return bpc == 8 ? (int)plane[i] : (int)((__global const ushort *)plane)[i];
}

__kernel void ls_int_motion_sad(__global const uchar *prev, __global const uchar *frame,
                                ulong cur_off, uint w_, uint h_, uint bpc,
                                __global long *partial)
{
    __local int v[MOTION_TILE_H][MOTION_COLS];
    __local long scratch[LS_WG];
    const int R = LS_INT_MOTION_RADIUS;
    const int w = (int)w_, h = (int)h_, lid = (int)get_local_id(0);
    const int x0 = (int)get_group_id(0) * MOTION_TILE_W, y0 = (int)get_group_id(1) * MOTION_TILE_H;
    __global const uchar *cur = frame + cur_off;
    /* vertical pass at the mirrored columns the horizontal pass reads: only those of the tile's
     * outputs (a mirror reaches at most one plane width beyond the edge) */
    const int need = min(w - x0, MOTION_TILE_W) + 2 * R, rows = min(h - y0, MOTION_TILE_H);
    for (int i = lid; i < need * rows; i += LS_WG) {
        const int c = i % need, r = i / need;
        const int xc = ls_motion_mirror(x0 - R + c, w), y = y0 + r;
        long acc = 0;
        for (int k = 0; k < 5; k++) {
            const int yy = ls_motion_mirror(y - R + k, h);
            const int d =
                motion_sample(prev, w_, bpc, xc, yy) - motion_sample(cur, w_, bpc, xc, yy);
            acc += (long)ls_int_motion_filter[k] * d;
        }
        v[r][c] = ls_int_motion_vertical_round(acc, bpc);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int n_out = min(w - x0, MOTION_TILE_W);
    ulong sum = 0;
    for (int i = lid; i < n_out * rows; i += LS_WG) {
        const int c = i % n_out, r = i / n_out;
        const int val = ls_int_motion_horizontal(v[r][c], v[r][c + 1], v[r][c + 2], v[r][c + 3],
                                                 v[r][c + 4]);
        sum += (uint)(val < 0 ? -val : val);
    }
    const long total = ls_group_sum((long)sum, scratch);
    if (!lid)
        partial[get_group_id(0) + (ulong)get_num_groups(0) * get_group_id(1)] = total;
}

/* ---- float_motion ---- */

#define BLUR_RMAX (LS_MOTION_MAX_TAPS / 2)
#define BLUR_COLS (MOTION_TILE_W + 2 * BLUR_RMAX)

/* The blur of one plane (samples at src + src_off, rows of w) into dst (w x h floats). */
__kernel void ls_float_motion_blur(__global const uchar *frame, ulong src_off,
                                   __global float *dst, uint w_, uint h_, uint bpc, uint n_taps,
                                   float8 tap_vec, float divisor)
{
    __local float v[MOTION_TILE_H][BLUR_COLS];
    const float taps[5] = { tap_vec.s0, tap_vec.s1, tap_vec.s2, tap_vec.s3, tap_vec.s4 };
    const int w = (int)w_, h = (int)h_, n = (int)n_taps, R = n / 2, lid = (int)get_local_id(0);
    const int x0 = (int)get_group_id(0) * MOTION_TILE_W, y0 = (int)get_group_id(1) * MOTION_TILE_H;
    __global const uchar *src = frame + src_off;
    const int need = min(w - x0, MOTION_TILE_W) + 2 * R, rows = min(h - y0, MOTION_TILE_H);
    for (int i = lid; i < need * rows; i += LS_WG) {
        const int c = i % need, r = i / need;
        const int xc = ls_motion_mirror(x0 - R + c, w), y = y0 + r;
        float acc = 0.0f;
        for (int k = 0; k < n; k++) {
            const int yy = ls_motion_mirror(y - R + k, h);
            acc = acc + taps[k] * ls_float_motion_sample((uint)motion_sample(src, w_, bpc, xc, yy),
                                                         bpc, divisor);
        }
        v[r][c] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int n_out = min(w - x0, MOTION_TILE_W);
    for (int i = lid; i < n_out * rows; i += LS_WG) {
        const int c = i % n_out, r = i / n_out;
        float acc = 0.0f;
        for (int k = 0; k < n; k++)
            acc = acc + taps[k] * v[r][c + k];
        dst[(ulong)(y0 + r) * w_ + x0 + c] = acc;
    }
}

/* The half-size bilinear copy of a blurred plane (motion_add_scale1). */
__kernel void ls_float_motion_downscale(__global const float *src, __global float *dst, uint sw,
                                        uint sh, uint dw, uint dh, float rx, float ry)
{
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= dw || y >= dh)
        return;
    int y1, y2, x1, x2;
    float dy, dx;
    ls_motion_bilinear_coord((int)y, ry, (int)sh, &y1, &y2, &dy);
    ls_motion_bilinear_coord((int)x, rx, (int)sw, &x1, &x2, &dx);
    __global const float *r1 = src + (ulong)y1 * sw, *r2 = src + (ulong)y2 * sw;
    dst[(ulong)y * dw + x] = ls_motion_bilinear_sample(r1[x1], r1[x2], r2[x1], r2[x2], dx, dy);
}

/* Row sums of |a - b|, each a float chain left to right (the CPU's order), one work-item per
 * row. */
__kernel void ls_float_motion_sad_rows(__global const float *a, __global const float *b,
                                       __global float *rows, uint w, uint h)
{
    const uint y = get_global_id(0);
    if (y >= h)
        return;
    __global const float *pa = a + (ulong)y * w, *pb = b + (ulong)y * w;
    float sum = 0.0f;
    for (uint x = 0; x < w; x++)
        sum = sum + fabs(pa[x] - pb[x]);
    rows[y] = sum;
}

/* The chain over the rows, top to bottom, from 0, into total[index]. */
__kernel void ls_float_motion_sad_total(__global const float *rows, uint h, __global float *total,
                                        uint index)
{
    if (get_global_id(0))
        return;
    float sum = 0.0f;
    for (uint y = 0; y < h; y++)
        sum = sum + rows[y];
    total[index] = sum;
}
