/* The float_adm twin's kernels (the OpenCL counterparts of src/cuda/float_adm.cu), one scale at a
 * time: shells around the outputs of feature/float_adm.h (the DWT of both pictures, decoupling
 * and CSF, the nine pixel terms), which the CUDA twin runs too, every binary64 step on
 * core/soft_f64.h's integer emulation; the nine float chains per scale are row_chain.clh's.
 * All planes of a frame lie in one buffer (mem), at the float offsets the host gives, `plane`
 * floats apart within a group.
 *
 * The approximate reciprocal is the host CPU's: the host prepends this program with its table
 * (src/opencl/float_adm.c), as
 *     #define LS_FADM_RCP_BITS <bits>
 *     __constant uint ls_fadm_rcp_table[1 << LS_FADM_RCP_BITS] = { ... };
 * or, where the host's float_adm divides (LOCKSTEP_RCP=divide), with #define LS_FADM_DIVIDE 1. */
#include "opencl/fp32_exact.h"
#if defined(LS_EMULATE_DIV_SQRT)
#define LS_FDIV(a, b) ls_div_rn(a, b) /* no correctly rounded division on this device */
#endif
#if defined(LS_FADM_DIVIDE)
#define LS_RCP_MODE 2 /* LS_RCP_DIVIDE */
#else
#define LS_RCP_MODE 0 /* LS_RCP_HOST: the host's instruction, through its table */
#define LS_RCP_TABLE_SPACE __constant
#define LS_FLOAT_ADM_RCP_APPROX(x) ls_rcp_from_table((x), ls_fadm_rcp_table, LS_FADM_RCP_BITS)
#endif
#include "feature/float_adm.h"
#include "opencl/row_chain.clh"

#define LS_FADM_NONE (~(ulong)0)

/* The DWT of both pictures (dimension 2) of an input w x h into bands bw x bh: the approximation
 * at approx_off + img * plane (none: LS_FADM_NONE), the h, v, d bands at
 * band_off + (3 * img + b) * plane over [left, right) x [top, bottom) (none: LS_FADM_NONE). */
__kernel void ls_float_adm_dwt(__global const uchar *ref, ulong ref_off, __global const uchar *dis,
                               ulong dis_off, int w, int h, int bpc, __global float *mem,
                               ulong approx_off, ulong band_off, ulong plane, int bw, int bh,
                               int left, int top, int right, int bottom)
{
    const int j = (int)get_global_id(0), i = (int)get_global_id(1), img = (int)get_global_id(2);
    if (j >= bw || i >= bh)
        return;
    __global const uchar *src = img ? dis + dis_off : ref + ref_off;
    const int details = band_off != LS_FADM_NONE && i >= top && i < bottom && j >= left &&
                        j < right;
    float a, hvd[3];
    ls_float_adm_dwt_at(src, w, h, bpc, i, j, details, &a, hvd);
    const ulong o = (ulong)i * (uint)bw + (uint)j;
    if (approx_off != LS_FADM_NONE)
        mem[approx_off + img * plane + o] = a;
    if (details)
        for (int b = 0; b < 3; b++)
            mem[band_off + (3 * img + b) * plane + o] = hvd[b];
}

/* Decoupling and CSF over [left, right) x [top, bottom): the planes c_a, f_a, c_r, f_r of each
 * orientation b at csf_off + (3 * kind + b) * plane. */
__kernel void ls_float_adm_analyse(__global float *mem, ulong band_off, ulong csf_off, ulong plane,
                                   int bw, int left, int top, int right, int bottom,
                                   ulong gain_limit, float4 factor)
{
    const int j = left + (int)get_global_id(0), i = top + (int)get_global_id(1);
    if (j >= right || i >= bottom)
        return;
    const ulong p = (ulong)i * (uint)bw + (uint)j;
    float o[3], t[3], c[4][3];
    for (int b = 0; b < 3; b++) {
        o[b] = mem[band_off + b * plane + p];
        t[b] = mem[band_off + (3 + b) * plane + p];
    }
    const float fac[3] = { factor.x, factor.y, factor.z };
    ls_float_adm_analyse_px(o, t, gain_limit, fac, c[0], c[1], c[2], c[3]);
    for (int kind = 0; kind < 4; kind++)
        for (int b = 0; b < 3; b++)
            mem[csf_off + (3 * kind + b) * plane + p] = c[kind][b];
}

/* The nine pixel terms over [L, Rt) x [T, B) at terms_off + b * plane. */
__kernel void ls_float_adm_terms(__global float *mem, ulong band_off, ulong csf_off,
                                 ulong terms_off, ulong plane, int bw, int bh, int L, int T,
                                 int Rt, int B, int bypass, float4 factor)
{
    const int j = L + (int)get_global_id(0), i = T + (int)get_global_id(1);
    if (j >= Rt || i >= B)
        return;
    const ulong p = (ulong)i * (uint)bw + (uint)j;
    const __global float *csf[4][3];
    float o[3];
    for (int b = 0; b < 3; b++) {
        for (int kind = 0; kind < 4; kind++)
            csf[kind][b] = mem + csf_off + (3 * kind + b) * plane;
        o[b] = mem[band_off + b * plane + p];
    }
    LsFloatAdmCmRows cr;
    ls_float_adm_cm_rows_at(csf[0], csf[1], csf[2], csf[3], bw, bh, i, &cr);
    const float fac[3] = { factor.x, factor.y, factor.z };
    float terms[9];
    ls_float_adm_terms_px(o, fac, &cr, bw, j, bypass, terms);
    for (int b = 0; b < 9; b++)
        mem[terms_off + b * plane + p] = terms[b];
}
