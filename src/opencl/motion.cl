/* Integer motion's kernel (the OpenCL counterpart of ls_int_motion_sad in src/cuda/motion.cu): the
 * SAD of the blurred frame difference prev - cur with the CPU's per-sample functions
 * (feature/motion_filter.h). Integer, exact in any order: each work-group writes its partial sum,
 * ls_reduce_partials adds them. */
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
            const int d = motion_sample(prev, w_, bpc, xc, yy) - motion_sample(cur, w_, bpc, xc, yy);
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
