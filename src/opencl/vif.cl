/* The vif twin's kernels (the OpenCL counterpart of src/cuda/vif.cu): one scale's statistics and
 * the subsampling to the next scale, with the integer widths of the CPU's C reference
 * (feature/vif_dsp.c) and its per-pixel functions (feature/vif.h: ls_vif_reflect, ls_vif_sigmas,
 * ls_vif_pixel, whose binary64 steps run on core/soft_f64.h's exact integer emulation here).
 * Every accumulation is integer: work-groups write partial sums that ls_reduce_partials adds. */
#include "feature/vif.h"
#include "opencl/reduce.clh"

/* statistics: outputs per work-group, and the columns of its vertical pass (tile and halo) */
#define VIF_TILE_W 112
#define VIF_TILE_H 8
#define VIF_COLS (VIF_TILE_W + 16)
/* The vertical pass gives each work-item a column and VIF_VROWS rows of the tile: it reads the
 * column's VIF_VROWS + 2R samples once into registers, with their products, instead of 2R + 1
 * samples from global memory (reflected, addressed) per output, the 64-bit sums of a 16-bit level
 * kept. The loops over samples and taps run to their largest count and stop early, so that they
 * unroll to constant indices (the arrays stay in registers) also where the compiler does not
 * inline a kernel's constant scale. */
#define VIF_VROWS 4
#define VIF_VSAMPLES (VIF_VROWS + 16)
/* subsampling: outputs of the next scale per work-group (2 x 56 - 1 + 2 x 4 source columns) */
#define VIF_DEC_TILE_W 56
#define VIF_DEC_TILE_H 8
#define VIF_DEC_COLS (2 * VIF_DEC_TILE_W + 16)
#define VIF_DEC_VSAMPLES (2 * (VIF_VROWS - 1) + 9) /* 9 taps at most: next >= 1 */

/* x, y >= 0 (reflected): the row offset is one 32 x 32 -> 64-bit multiply */
static inline uint vif_sample(__global const uchar *plane, uint w, int x, int y, int bytes)
{
    const ulong i = (ulong)(uint)y * w + (uint)x;
    return bytes ? plane[i] : ((__global const ushort *)plane)[i];
}

/* One scale's statistics of a tile; the group's four sums go to partial[group * 4 + q]. */
static inline void vif_stats(__global const uchar *ref, __global const uchar *dis,
                             __global const ushort *table, __global long *partial, uint w_,
                             uint h_, ulong sq_round, ulong gain_limit, uint mu_shift,
                             uint mu_round, uint sq_shift, const int bytes, const int scale,
                             __local uint (*v)[VIF_TILE_H][VIF_COLS], __local long *scratch)
{
    const int R = 8 >> scale, WIDTH = 2 * R + 1, SAMPLES = VIF_VROWS + 2 * R;
    const int w = (int)w_, h = (int)h_, lid = (int)get_local_id(0);
    const int x0 = (int)get_group_id(0) * VIF_TILE_W, y0 = (int)get_group_id(1) * VIF_TILE_H;
    const int n_out = min(w - x0, VIF_TILE_W), rows = min(h - y0, VIF_TILE_H);
    const int cols = n_out + 2 * R;
    /* vertical pass (vif.md 5.1) at the reflected columns the tile's outputs read */
    for (int i = lid; i < VIF_COLS * (VIF_TILE_H / VIF_VROWS); i += LS_WG) {
        const int c = i % VIF_COLS, r0 = i / VIF_COLS * VIF_VROWS;
        if (c >= cols || r0 >= rows)
            continue;
        const int xc = ls_vif_reflect(x0 - R + c, w);
        uint px[VIF_VSAMPLES], pd[VIF_VSAMPLES], pxx[VIF_VSAMPLES], pdd[VIF_VSAMPLES],
            pxd[VIF_VSAMPLES];
#pragma unroll
        for (int k = 0; k < VIF_VSAMPLES; k++) {
            uint x = 0, d = 0;
            if (k < SAMPLES) {
                /* a row past the last output row's window feeds only outputs that are not
                 * written: read the last row that exists instead */
                const int yy = ls_vif_reflect(min(y0 + r0 - R + k, h - 1 + R), h);
                x = vif_sample(ref, w_, xc, yy, bytes);
                d = vif_sample(dis, w_, xc, yy, bytes);
            }
            px[k] = x;
            pd[k] = d;
            /* below 2^32 for 16-bit samples too */
            pxx[k] = x * x;
            pdd[k] = d * d;
            pxd[k] = x * d;
        }
#pragma unroll
        for (int j = 0; j < VIF_VROWS; j++) {
            if (r0 + j < rows) {
                /* 8-bit: the reference sums the products in uint32 (65536 * 255^2 < 2^32), the
                 * same values */
                uint ax = 0, ay = 0, bxx = 0, byy = 0, bxy = 0;
                ulong axx = 0, ayy = 0, axy = 0;
#pragma unroll
                for (int k = 0; k < LS_VIF_MAX_TAPS; k++) {
                    if (k < WIDTH) {
                        const uint f = ls_vif_taps[scale][k];
                        ax += f * px[j + k];
                        ay += f * pd[j + k];
                        if (bytes) {
                            bxx += f * pxx[j + k];
                            byy += f * pdd[j + k];
                            bxy += f * pxd[j + k];
                        } else {
                            axx += (ulong)f * pxx[j + k];
                            ayy += (ulong)f * pdd[j + k];
                            axy += (ulong)f * pxd[j + k];
                        }
                    }
                }
                if (bytes) {
                    axx = bxx;
                    ayy = byy;
                    axy = bxy;
                }
                v[0][r0 + j][c] = (ax + mu_round) >> mu_shift;
                v[1][r0 + j][c] = (ay + mu_round) >> mu_shift;
                v[2][r0 + j][c] = (uint)((axx + sq_round) >> sq_shift);
                v[3][r0 + j][c] = (uint)((ayy + sq_round) >> sq_shift);
                v[4][r0 + j][c] = (uint)((axy + sq_round) >> sq_shift);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    LsVifAccum acc = { 0, 0, 0, 0 };
    for (int i = lid; i < VIF_TILE_W * VIF_TILE_H; i += LS_WG) {
        const int c = i % VIF_TILE_W, row = i / VIF_TILE_W;
        if (c >= n_out || row >= rows)
            continue;
        uint mx = 0, my = 0;
        ulong sxx = 0, syy = 0, sxy = 0;
#pragma unroll
        for (int k = 0; k < WIDTH; k++) {
            const uint f = ls_vif_taps[scale][k];
            mx += f * v[0][row][c + k];
            my += f * v[1][row][c + k];
            sxx += (ulong)f * v[2][row][c + k];
            syy += (ulong)f * v[3][row][c + k];
            sxy += (ulong)f * v[4][row][c + k];
        }
        const LsVifSigmas s = ls_vif_sigmas(mx, my, sxx, syy, sxy);
        ls_vif_pixel(table, s.sigma1_sq, s.sigma2_sq, s.sigma12, gain_limit, &acc);
    }
    const long sums[4] = { acc.num_log, acc.den_log, acc.num_nonlog, acc.den_nonlog };
    const ulong group = get_group_id(0) + (ulong)get_num_groups(0) * get_group_id(1);
    for (int q = 0; q < 4; q++) {
        const long total = ls_group_sum(sums[q], scratch);
        if (!lid)
            partial[group * 4 + q] = total;
    }
}

#define LS_VIF_STATS(name, bytes, scale)                                                          \
    __kernel void name(__global const uchar *ref_base, ulong ref_off,                             \
                       __global const uchar *dis_base, ulong dis_off,                             \
                       __global const ushort *table, __global long *partial, ulong part_off,      \
                       uint w, uint h, ulong sq_round, ulong gain_limit, uint mu_shift,           \
                       uint mu_round, uint sq_shift)                                              \
    {                                                                                             \
        __local uint v[5][VIF_TILE_H][VIF_COLS];                                                  \
        __local long scratch[LS_WG];                                                              \
        vif_stats(ref_base + ref_off, dis_base + dis_off, table, partial + part_off, w, h,        \
                  sq_round, gain_limit, mu_shift, mu_round, sq_shift, bytes, scale, v, scratch);  \
    }
LS_VIF_STATS(ls_vif_stats_8, 1, 0)
LS_VIF_STATS(ls_vif_stats_16_0, 0, 0)
LS_VIF_STATS(ls_vif_stats_16_1, 0, 1)
LS_VIF_STATS(ls_vif_stats_16_2, 0, 2)
LS_VIF_STATS(ls_vif_stats_16_3, 0, 3)

/* The next scale (next = 1..3) of one picture (group z: 0 reference, 1 distorted) from a w x h
 * level: the vertical low-pass at source row 2i rounded to the level's precision (vif.md 4), then
 * the horizontal one at column 2j. */
static inline void vif_decimate(__global const uchar *src, __global ushort *dst, uint w_, uint h_,
                                uint mu_shift, uint mu_round, const int bytes, const int next,
                                __local ushort (*t)[VIF_DEC_COLS])
{
    const int R = 8 >> next, WIDTH = 2 * R + 1;
    const int w = (int)w_, h = (int)h_, ow = w / 2, oh = h / 2, lid = (int)get_local_id(0);
    const int x0 = (int)get_group_id(0) * VIF_DEC_TILE_W;
    const int y0 = (int)get_group_id(1) * VIF_DEC_TILE_H;
    const int n_out = min(ow - x0, VIF_DEC_TILE_W), rows = min(oh - y0, VIF_DEC_TILE_H);
    const int cols = 2 * (n_out - 1) + 2 * R + 1;
    /* a work-item per column and VIF_VROWS output rows, the samples in registers as in vif_stats */
    for (int i = lid; i < VIF_DEC_COLS * (VIF_DEC_TILE_H / VIF_VROWS); i += LS_WG) {
        const int c = i % VIF_DEC_COLS, r0 = i / VIF_DEC_COLS * VIF_VROWS;
        if (c >= cols || r0 >= rows)
            continue;
        const int xs = ls_vif_reflect(2 * x0 - R + c, w), y = 2 * (y0 + r0) - R;
        uint p[VIF_DEC_VSAMPLES];
#pragma unroll
        for (int k = 0; k < VIF_DEC_VSAMPLES; k++)
            p[k] = k < 2 * (VIF_VROWS - 1) + WIDTH
                       ? vif_sample(src, w_, xs, ls_vif_reflect(min(y + k, h - 1 + R), h), bytes)
                       : 0;
#pragma unroll
        for (int j = 0; j < VIF_VROWS; j++) {
            if (r0 + j < rows) {
                uint acc = 0;
#pragma unroll
                for (int k = 0; k < 9; k++)
                    if (k < WIDTH)
                        acc += (uint)ls_vif_taps[next][k] * p[2 * j + k];
                t[r0 + j][c] = (ushort)((acc + mu_round) >> mu_shift);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < VIF_DEC_TILE_W * VIF_DEC_TILE_H; i += LS_WG) {
        const int c = i % VIF_DEC_TILE_W, row = i / VIF_DEC_TILE_W;
        if (c >= n_out || row >= rows)
            continue;
        uint acc = 0;
#pragma unroll
        for (int k = 0; k < WIDTH; k++)
            acc += (uint)ls_vif_taps[next][k] * (uint)t[row][2 * c + k];
        dst[(ulong)(y0 + row) * ow + x0 + c] = (ushort)((acc + 32768) >> 16);
    }
}

#define LS_VIF_DECIMATE(name, bytes, next)                                                        \
    __kernel void name(__global const uchar *ref_base, ulong ref_off,                             \
                       __global const uchar *dis_base, ulong dis_off, __global ushort *ref_dst,   \
                       __global ushort *dis_dst, uint w, uint h, uint mu_shift, uint mu_round)    \
    {                                                                                             \
        __local ushort t[VIF_DEC_TILE_H][VIF_DEC_COLS];                                           \
        const int z = (int)get_group_id(2);                                                       \
        vif_decimate(z ? dis_base + dis_off : ref_base + ref_off, z ? dis_dst : ref_dst, w, h,    \
                     mu_shift, mu_round, bytes, next, t);                                         \
    }
LS_VIF_DECIMATE(ls_vif_decimate_8, 1, 1)
LS_VIF_DECIMATE(ls_vif_decimate_16_1, 0, 1)
LS_VIF_DECIMATE(ls_vif_decimate_16_2, 0, 2)
LS_VIF_DECIMATE(ls_vif_decimate_16_3, 0, 3)
