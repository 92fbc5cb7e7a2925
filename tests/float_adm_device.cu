/* float_adm.h and core/rcp.h under nvcc: the shared per-pixel math as a GPU twin will use it,
 * with the host's reciprocal table in constant memory. Compiled by the test float_adm_nvcc. */
#include "core/portable.h"
#include "core/rcp.h"
__constant__ ls_u32 rcp_table[1 << LS_RCP_INTEL_BITS]; /* 2^ls_rcp_table_bits() on the host */
#define LS_FLOAT_ADM_RCP_APPROX(x) ls_rcp_from_table(x, rcp_table, LS_RCP_INTEL_BITS)
#include "feature/float_adm.h"

extern "C" __global__ void float_adm_header_check(const float *o, const float *t, float *r,
                                                  float *a, int n, double gain_limit)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float ov[3] = { o[3 * i], o[3 * i + 1], o[3 * i + 2] };
    const float tv[3] = { t[3 * i], t[3 * i + 1], t[3 * i + 2] };
    ls_float_adm_decouple_px(ov, tv, gain_limit, r + 3 * i, a + 3 * i);
    LsFloatAdmCmRows rows;
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 3; k++)
            rows.f_a[b][k] = rows.f_r[b][k] = o;
        rows.c_a[b] = rows.c_r[b] = t;
    }
    float e[6];
    ls_float_adm_cm_excess(&rows, n, i, 0, e);
    const LsFloatAdmRegion reg = ls_float_adm_region(n, n);
    r[0] += ls_float_adm_taps(ls_float_adm_hi, ov[0], ov[1], ov[2], tv[0]) +
            ls_float_adm_csf_filter(ov[0]) + ls_float_adm_cube(e[0]) + e[5] +
            (float)(ls_float_adm_dwt_index(i, n) + ls_float_adm_cm_index(i, n) + reg.L) +
            ls_rcp_intel(ov[2]);
}
