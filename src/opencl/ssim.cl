/* The ssim twins' kernels (the OpenCL counterparts of src/cuda/ssim.cu) with the CPU's functions
 * (feature/ssim.h), whose binary64 steps run on core/soft_f64.h's exact integer emulation here.
 * Integer ssim: one work-item per position forms the integer moments (exact in any order) and the
 * term of ls_ssim_position, stored as binary64 bits in row-major order. float_ssim: conversion and
 * decimation, the 11-tap passes (each output's products added in binary64 in tap order), the
 * per-position terms as four binary64 planes. Then one work-item per chain adds its terms in that
 * order from +0, each add correctly rounded, as the CPU's chain does. The weights of integer ssim
 * are integers, added in any order. */
#include "opencl/fp32_exact.h"
#if defined(LS_EMULATE_DIV_SQRT)
#define LS_FDIV(a, b) ls_div_rn(a, b) /* no correctly rounded division on this device */
#define LS_FSQRT_F64(x) ls_sqrt_prod_rn(x, 1.0f)
#else
#define LS_FSQRT_F64(x) sqrt(x) /* correctly rounded (-cl-fp32-correctly-rounded-divide-sqrt) */
#endif
#include "feature/ssim.h"
#include "opencl/reduce.clh"

static inline long ssim_sample(__global const uchar *plane, uint w, uint bpc, int x, int y)
{
    const ulong i = (ulong)y * w + (uint)x;
    return bpc == 8 ? (long)plane[i] : (long)((__global const ushort *)plane)[i];
}

__kernel void ls_ssim_terms(__global const uchar *frame, ulong ref_off, ulong dis_off, uint w_,
                            uint h_, uint bpc, ulong sample_max, __global ulong *terms,
                            __global long *partial)
{
    __local long scratch[LS_WG];
    const int taps[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    const int w = (int)w_, h = (int)h_, half_taps = LS_SSIM_TAPS / 2;
    __global const uchar *ref = frame + ref_off, *dis = frame + dis_off;
    long weight = 0;
    if (x < w && y < h) {
        long m[5] = { 0, 0, 0, 0, 0 };
        long wv = 0, wh = 0;
        for (int t = 0; t < LS_SSIM_TAPS; t++) {
            const int yy = y + t - half_taps, xx = x + t - half_taps;
            if (yy >= 0 && yy < h)
                wv += taps[t];
            if (xx >= 0 && xx < w)
                wh += taps[t];
        }
        for (int tv = 0; tv < LS_SSIM_TAPS; tv++) {
            const int yy = y + tv - half_taps;
            if (yy < 0 || yy >= h)
                continue;
            for (int th = 0; th < LS_SSIM_TAPS; th++) {
                const int xx = x + th - half_taps;
                if (xx < 0 || xx >= w)
                    continue;
                const long q = (long)taps[tv] * taps[th];
                const long s = ssim_sample(ref, w_, bpc, xx, yy);
                const long d = ssim_sample(dis, w_, bpc, xx, yy);
                m[0] += q * s;
                m[1] += q * d;
                m[2] += q * s * s;
                m[3] += q * s * d;
                m[4] += q * d * d;
            }
        }
        /* (double)wv * (double)wh: exact, both small integers */
        const ls_f64 wt = ls_f64_mul(ls_f64_from_i64(wv), ls_f64_from_i64(wh));
        terms[(ulong)y * w_ + x] =
            ls_ssim_position(ls_f64_from_i64(m[0]), ls_f64_from_i64(m[1]), ls_f64_from_i64(m[2]),
                             ls_f64_from_i64(m[3]), ls_f64_from_i64(m[4]), wt, sample_max);
        weight = wv * wh;
    }
    const long total = ls_group_sum(weight, scratch);
    if (!get_local_id(0) && !get_local_id(1))
        partial[get_group_id(0) + (ulong)get_num_groups(0) * get_group_id(1)] = total;
}

/* The chains: out[c] = ((0 + t[0]) + t[1]) + ... in binary64 over terms + c * n, one
 * work-item per chain c. */
__kernel void ls_ssim_chain(__global const ulong *terms, ulong n, uint n_chains,
                            __global ulong *out)
{
    const uint c = get_global_id(0);
    if (c >= n_chains)
        return;
    __global const ulong *t = terms + (ulong)c * n;
    ulong acc = 0;
    for (ulong i = 0; i < n; i++)
        acc = ls_sd_add(acc, t[i]);
    out[c] = acc;
}

/* ---- float_ssim ---- */

/* The CPU's conversion to the 8-bit range: v, or v / 2^(bpc-8) (exact). */
static inline float float_ssim_convert(uint v, uint bpc)
{
    if (bpc == 8)
        return (float)v;
    const float div = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    return LS_FDIV((float)v, div);
}

/* The luma of both pictures (group z: 0 reference, 1 distorted) as floats in the 8-bit range,
 * decimated by f (f = 1: converted only), into dst (dw x dh). */
__kernel void ls_float_ssim_prep(__global const uchar *frame, ulong ref_off, ulong dis_off,
                                 __global float *ref_dst, __global float *dis_dst, uint w, uint h,
                                 uint bpc, uint f, uint dw, uint dh, float box_weight)
{
    const uint x = get_global_id(0), y = get_global_id(1), img = get_global_id(2);
    if (x >= dw || y >= dh)
        return;
    __global const uchar *src = frame + (img ? dis_off : ref_off);
    __global float *dst = img ? dis_dst : ref_dst;
    if (f == 1) {
        dst[(ulong)y * dw + x] = float_ssim_convert((uint)ssim_sample(src, w, bpc, (int)x, (int)y),
                                                    bpc);
        return;
    }
    const int fi = (int)f, r = fi / 2;
    ls_f64 acc = 0;
    for (int v = 0; v < fi; v++) {
        const int yy = ls_float_ssim_mirror((int)y * fi + v - r, (int)h);
        for (int u = 0; u < fi; u++) {
            const int xx = ls_float_ssim_mirror((int)x * fi + u - r, (int)w);
            acc = ls_f64_add(acc, ls_f64_from_f32(
                float_ssim_convert((uint)ssim_sample(src, w, bpc, xx, yy), bpc) * box_weight));
        }
    }
    dst[(ulong)y * dw + x] = ls_f64_to_f32(acc);
}

/* The five horizontal 11-tap moments of every grid row into mom [5][dh][dw - 10]. */
__kernel void ls_float_ssim_horizontal(__global const float *ref, __global const float *dis,
                                       __global float *mom, uint dw, uint dh)
{
    const uint x = get_global_id(0), y = get_global_id(1), w_out = dw - 10;
    if (x >= w_out || y >= dh)
        return;
    __global const float *r = ref + (ulong)y * dw + x, *d = dis + (ulong)y * dw + x;
    const ulong plane = (ulong)dh * w_out, o = (ulong)y * w_out + x;
    mom[o] = ls_float_ssim_filter11(r, 1);
    mom[plane + o] = ls_float_ssim_filter11(d, 1);
    mom[2 * plane + o] = ls_float_ssim_filter11_products(r, r, 1);
    mom[3 * plane + o] = ls_float_ssim_filter11_products(d, d, 1);
    mom[4 * plane + o] = ls_float_ssim_filter11_products(r, d, 1);
}

/* The vertical pass and the terms of every position of the valid grid, as four binary64 planes
 * { l*c*s, l, c, s } in row-major order (the order of the CPU's chains). */
__kernel void ls_float_ssim_terms(__global const float *mom, __global ulong *terms, uint w_out,
                                  uint h_out, uint dh)
{
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= w_out || y >= h_out)
        return;
    const ulong plane = (ulong)dh * w_out, col = (ulong)y * w_out + x;
    float v[5];
    for (int k = 0; k < 5; k++)
        v[k] = ls_float_ssim_filter11(mom + k * plane + col, (ptrdiff_t)w_out);
    ls_f64 l, c;
    float s;
    ls_float_ssim_position(v[0], v[1], v[2], v[3], v[4], &l, &c, &s);
    const ulong n = (ulong)h_out * w_out, o = (ulong)y * w_out + x;
    const ls_f64 sd = ls_f64_from_f32(s);
    terms[o] = ls_f64_mul(ls_f64_mul(l, c), sd);
    terms[n + o] = l;
    terms[2 * n + o] = c;
    terms[3 * n + o] = sd;
}
