/* The float_vif twin's kernels (the OpenCL counterparts of src/cuda/float_vif.cu): shells around
 * the outputs of feature/float_vif.h (vertical and horizontal passes, statistic, subsampling),
 * which the CUDA twin runs too, the statistic's binary64 steps on core/soft_f64.h's integer
 * emulation; the scale sums are row_chain.clh's. Planes of several quantities lie `plane` floats
 * apart in one buffer. */
#include "opencl/fp32_exact.h"
#if defined(LS_EMULATE_DIV_SQRT)
#define LS_FDIV(a, b) ls_div_rn(a, b) /* no correctly rounded division on this device */
#endif
#include "feature/float_vif.h"
#include "opencl/row_chain.clh"

/* v: 5 planes (x, y, x*x, y*y, x*y; 2 without products) of the level w x h */
__kernel void ls_float_vif_vertical(__global const uchar *ref, ulong ref_off,
                                    __global const uchar *dis, ulong dis_off, __global float *v,
                                    ulong plane, uint w, uint h, uint bpc, uint n_taps,
                                    uint products)
{
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float acc[5];
    ls_float_vif_vertical_at(ref + ref_off, dis + dis_off, w, h, bpc, (int)n_taps, (int)products,
                             (int)x, (int)y, acc);
    const ulong o = (ulong)y * w + x;
    for (uint q = 0; q < (products ? 5u : 2u); q++)
        v[q * plane + o] = acc[q];
}

/* numden: num plane, then den plane */
__kernel void ls_float_vif_stat(__global const float *v, ulong plane, __global float *numden,
                                uint w, uint h, uint n_taps, ulong sigma_nsq, float gain_limit,
                                float sigma_max_inv)
{
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float f[5];
    for (uint q = 0; q < 5; q++)
        f[q] = ls_float_vif_horizontal_at(v + q * plane + (ulong)y * w, (int)w, (int)n_taps,
                                          (int)x);
    LsFloatVifStatParams p;
    p.sigma_nsq = sigma_nsq;
    p.gain_limit = gain_limit;
    p.sigma_max_inv = sigma_max_inv;
    float num, den;
    ls_float_vif_statistic(f[0], f[1], f[2], f[3], f[4], &p, &num, &den);
    const ulong o = (ulong)y * w + x;
    numden[o] = num;
    numden[plane + o] = den;
}

/* The next scale of both pictures (dimension 2: 0 reference, 1 distorted), (w / 2) x (h / 2). */
__kernel void ls_float_vif_decimate(__global const uchar *ref, ulong ref_off,
                                    __global const uchar *dis, ulong dis_off,
                                    __global float *ref_dst, __global float *dis_dst, uint w,
                                    uint h, uint bpc, uint n_taps)
{
    const uint j = get_global_id(0), i = get_global_id(1), img = get_global_id(2);
    const uint ow = w / 2;
    if (j >= ow || i >= h / 2)
        return;
    __global const uchar *src = img ? dis + dis_off : ref + ref_off;
    __global float *dst = img ? dis_dst : ref_dst;
    dst[(ulong)i * ow + j] = ls_float_vif_decimate_at(src, w, h, bpc, (int)n_taps, (int)i, (int)j);
}
