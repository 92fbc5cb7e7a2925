/* Device side of the fp32_exact.h contract test (tests/test_opencl_fp32.c). */
#include "opencl/fp32_exact.h"

__kernel void ls_fp32_sqrt_prod(__global const float *a, __global const float *b,
                                __global float *out, uint n)
{
    const uint i = get_global_id(0);
    if (i < n)
        out[i] = ls_sqrt_prod_rn(a[i], b[i]);
}

__kernel void ls_fp32_div(__global const float *a, __global const float *b, __global float *out,
                          uint n)
{
    const uint i = get_global_id(0);
    if (i < n)
        out[i] = ls_div_rn(a[i], b[i]);
}
