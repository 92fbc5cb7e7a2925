/* The float_adm twin's kernels, one scale at a time: the DWT of both pictures, the decoupling and
 * CSF of the analysed coefficients, the pixel terms of the denominator and the masked energies;
 * the nine float chains per scale are row_chain.cuh's. Every value is formed by the CPU's
 * per-pixel functions (feature/float_adm.h); the approximate reciprocal is the host's, sampled
 * into ls_fadm_rcp_table at init (core/rcp.h), so the gains carry the host CPU's bits. */
#include <stdint.h>

#include "core/rcp.h"

#define LS_FADM_RCP_MAX_BITS 16
__device__ ls_u32 ls_fadm_rcp_table[1u << LS_FADM_RCP_MAX_BITS];
__device__ unsigned ls_fadm_rcp_bits;
#define LS_FLOAT_ADM_RCP_APPROX(x) ls_rcp_from_table((x), ls_fadm_rcp_table, ls_fadm_rcp_bits)

#include "cuda/float_cuda.h"
#include "cuda/row_chain.cuh"
#include "feature/float_adm.h"

template <typename T>
static __device__ __forceinline__ T *at(uint64_t p)
{
    return (T *)p;
}

/* Input sample of scale 0 (converted) or of an approximation plane. */
static __device__ __forceinline__ float input(const LsFloatAdmDwtArgs &a, const void *src, int x,
                                              int y)
{
    const size_t i = (size_t)y * a.w + x;
    if (a.bpc == 0)
        return ((const float *)src)[i];
    if (a.bpc == 8)
        return ls_float_adm_sample(((const uint8_t *)src)[i], 8);
    return ls_float_adm_sample(((const uint16_t *)src)[i], (unsigned)a.bpc);
}

/* Output (i, j) of the band: the horizontal taps over input columns 2j - 1 .. 2j + 2 (DWT border
 * rule) of the vertical low- and high-pass at rows 2i - 1 .. 2i + 2, each as the CPU forms it. */
extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_dwt(const __grid_constant__ LsFloatAdmDwtArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    if (j >= a.bw)
        return;
    const int img = (int)blockIdx.z;
    const void *src = (const void *)a.src[img];
    int rows[4];
    for (int k = 0; k < 4; k++)
        rows[k] = ls_float_adm_dwt_index(2 * i - 1 + k, a.h);
    const int details = a.band[img][0] && i >= a.top && i < a.bottom && j >= a.left && j < a.right;
    float lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_float_adm_dwt_index(2 * j - 1 + k, a.w);
        const float s0 = input(a, src, c, rows[0]), s1 = input(a, src, c, rows[1]);
        const float s2 = input(a, src, c, rows[2]), s3 = input(a, src, c, rows[3]);
        lo[k] = ls_float_adm_taps(ls_float_adm_lo, s0, s1, s2, s3);
        hi[k] = details ? ls_float_adm_taps(ls_float_adm_hi, s0, s1, s2, s3) : 0.0f;
    }
    const size_t o = (size_t)i * a.bw + j;
    if (a.approx[img])
        at<float>(a.approx[img])[o] = ls_float_adm_taps(ls_float_adm_lo, lo[0], lo[1], lo[2], lo[3]);
    if (details) {
        at<float>(a.band[img][1])[o] = ls_float_adm_taps(ls_float_adm_hi, lo[0], lo[1], lo[2], lo[3]);
        at<float>(a.band[img][0])[o] = ls_float_adm_taps(ls_float_adm_lo, hi[0], hi[1], hi[2], hi[3]);
        at<float>(a.band[img][2])[o] = ls_float_adm_taps(ls_float_adm_hi, hi[0], hi[1], hi[2], hi[3]);
    }
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_analyse(const __grid_constant__ LsFloatAdmAnalyseArgs a)
{
    const int j = a.left + (int)(blockIdx.x * blockDim.x + threadIdx.x), i = a.top + (int)blockIdx.y;
    if (j >= a.right || i >= a.bottom)
        return;
    const size_t p = (size_t)i * a.bw + j;
    float o[3], t[3], r[3], d[3];
    for (int b = 0; b < 3; b++) {
        o[b] = at<const float>(a.o[b])[p];
        t[b] = at<const float>(a.t[b])[p];
    }
    ls_float_adm_decouple_px(o, t, a.gain_limit, r, d);
    for (int b = 0; b < 3; b++) {
        const float ca = a.factor[b] * d[b], cr = a.factor[b] * r[b];
        at<float>(a.c_a[b])[p] = ca;
        at<float>(a.f_a[b])[p] = ls_float_adm_csf_filter(ca);
        at<float>(a.c_r[b])[p] = cr;
        at<float>(a.f_r[b])[p] = ls_float_adm_csf_filter(cr);
    }
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_terms(const __grid_constant__ LsFloatAdmTermsArgs a)
{
    const int j = a.L + (int)(blockIdx.x * blockDim.x + threadIdx.x), i = a.T + (int)blockIdx.y;
    if (j >= a.Rt || i >= a.B)
        return;
    const size_t p = (size_t)i * a.bw + j;
    for (int b = 0; b < 3; b++)
        at<float>(a.terms[b])[p] = ls_float_adm_cube(fabsf(a.factor[b] * at<const float>(a.o[b])[p]));
    const int rows[3] = { ls_float_adm_cm_index(i - 1, a.bh), i, ls_float_adm_cm_index(i + 1, a.bh) };
    LsFloatAdmCmRows cr;
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 3; k++) {
            cr.f_a[b][k] = at<const float>(a.f_a[b]) + (size_t)rows[k] * a.bw;
            cr.f_r[b][k] = at<const float>(a.f_r[b]) + (size_t)rows[k] * a.bw;
        }
        cr.c_a[b] = at<const float>(a.c_a[b]) + (size_t)i * a.bw;
        cr.c_r[b] = at<const float>(a.c_r[b]) + (size_t)i * a.bw;
    }
    float e[6];
    ls_float_adm_cm_excess(&cr, a.bw, j, a.bypass, e);
    for (int b = 0; b < 6; b++)
        at<float>(a.terms[3 + b])[p] = ls_float_adm_cube(e[b]);
}
