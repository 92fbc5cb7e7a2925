/* Integer ssim's kernels (the OpenCL counterparts of ls_ssim_terms and ls_chain_sum in
 * src/cuda/ssim.cu): one work-item per position forms the integer moments (exact in any order)
 * and the CPU's per-position term (feature/ssim.h: ls_ssim_position, its binary64 steps on
 * core/soft_f64.h's exact integer emulation), stored as binary64 bits in row-major order; one
 * work-item then adds the terms in that order from +0, each add correctly rounded, as the CPU's
 * chain does. The weights are integers, added in any order. */
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

/* The chain: out[0] = ((0 + t[0]) + t[1]) + ... in binary64, one work-item. */
__kernel void ls_ssim_chain(__global const ulong *terms, ulong n, __global ulong *out)
{
    if (get_global_id(0))
        return;
    ulong acc = 0;
    for (ulong i = 0; i < n; i++)
        acc = ls_sd_add(acc, terms[i]);
    out[0] = acc;
}
