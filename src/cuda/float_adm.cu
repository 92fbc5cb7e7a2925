/* The float_adm twin's kernels, one scale at a time: the DWT of both pictures, the decoupling and
 * CSF of the analysed coefficients, the pixel terms of the denominator and the masked energies;
 * the nine float chains per scale are row_chain.cuh's. The kernels are shells around the outputs
 * of feature/float_adm.h, which the OpenCL twin runs too; the approximate reciprocal is the
 * host's, sampled into ls_fadm_rcp_table at init (core/rcp.h), so the gains carry the host CPU's
 * bits. */
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

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_dwt(const __grid_constant__ LsFloatAdmDwtArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    if (j >= a.bw)
        return;
    const int img = (int)blockIdx.z;
    const int details = a.band[img][0] && i >= a.top && i < a.bottom && j >= a.left && j < a.right;
    float approx, hvd[3];
    ls_float_adm_dwt_at(at<const uint8_t>(a.src[img]), a.w, a.h, a.bpc, i, j, details, &approx,
                        hvd);
    const size_t o = (size_t)i * a.bw + j;
    if (a.approx[img])
        at<float>(a.approx[img])[o] = approx;
    if (details)
        for (int b = 0; b < 3; b++)
            at<float>(a.band[img][b])[o] = hvd[b];
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_analyse(const __grid_constant__ LsFloatAdmAnalyseArgs a)
{
    const int j = a.left + (int)(blockIdx.x * blockDim.x + threadIdx.x), i = a.top + (int)blockIdx.y;
    if (j >= a.right || i >= a.bottom)
        return;
    const size_t p = (size_t)i * a.bw + j;
    float o[3], t[3], c_a[3], f_a[3], c_r[3], f_r[3];
    for (int b = 0; b < 3; b++) {
        o[b] = at<const float>(a.o[b])[p];
        t[b] = at<const float>(a.t[b])[p];
    }
    ls_float_adm_analyse_px(o, t, a.gain_limit, a.factor, c_a, f_a, c_r, f_r);
    for (int b = 0; b < 3; b++) {
        at<float>(a.c_a[b])[p] = c_a[b];
        at<float>(a.f_a[b])[p] = f_a[b];
        at<float>(a.c_r[b])[p] = c_r[b];
        at<float>(a.f_r[b])[p] = f_r[b];
    }
}

extern "C" __global__ void __launch_bounds__(LS_FLOAT_THREADS)
ls_float_adm_terms(const __grid_constant__ LsFloatAdmTermsArgs a)
{
    const int j = a.L + (int)(blockIdx.x * blockDim.x + threadIdx.x), i = a.T + (int)blockIdx.y;
    if (j >= a.Rt || i >= a.B)
        return;
    const size_t p = (size_t)i * a.bw + j;
    const float *c_a[3], *f_a[3], *c_r[3], *f_r[3];
    float o[3];
    for (int b = 0; b < 3; b++) {
        c_a[b] = at<const float>(a.c_a[b]);
        f_a[b] = at<const float>(a.f_a[b]);
        c_r[b] = at<const float>(a.c_r[b]);
        f_r[b] = at<const float>(a.f_r[b]);
        o[b] = at<const float>(a.o[b])[p];
    }
    LsFloatAdmCmRows cr;
    ls_float_adm_cm_rows_at(c_a, f_a, c_r, f_r, a.bw, a.bh, i, &cr);
    float terms[9];
    ls_float_adm_terms_px(o, a.factor, &cr, a.bw, j, a.bypass, terms);
    for (int b = 0; b < 9; b++)
        at<float>(a.terms[b])[p] = terms[b];
}
