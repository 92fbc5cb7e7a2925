/* Compile-only check (ctest adm_header_nvcc): the shared ADM arithmetic of feature/adm.h builds
 * as CUDA device code, every per-coefficient function called once from a kernel. */
#include "feature/adm.h"

__global__ void adm_check(const int16_t *o16, const int16_t *t16, const int32_t *o32,
                          const int32_t *t32, int64_t *out, double egl)
{
    const int i = threadIdx.x;
    int16_t r16[3], a16[3];
    int32_t r32[3], a32[3];
    ls_adm_decouple0(o16 + 3 * i, t16 + 3 * i, egl, r16, a16);
    ls_adm_decouple123(o32 + 3 * i, t32 + 3 * i, egl, r32, a32);
    const uint32_t u[4] = { 1, 2, 3, 4 };
    int16_t lo, hi;
    ls_adm_dwt0_vertical(u, 10, &lo, &hi);
    const int16_t x[4] = { lo, hi, r16[0], a16[1] };
    const int32_t y[4] = { r32[0], a32[1], r32[2], a32[2] };
    int64_t s =
        ls_adm_dwt0_horizontal(ls_adm_dwt_lo, x) + ls_adm_dwt123_tap(ls_adm_dwt_hi, y, 32768, 16);
    s += ls_adm_dwt_index(i, 3, 100);
    const int16_t c0 = ls_adm_csf0(r16[2], 36453, 2);
    const int32_t c1 = ls_adm_csf123(a32[0], 137373792u);
    const int32_t f[3] = { ls_adm_flt0(c0), ls_adm_flt123(c1), ls_adm_center123(c1) };
    const int32_t m[3] = { ls_adm_center0(c0), 0, 0 };
    const int32_t thr = ls_adm_threshold(f + 1, f + 1, f + 1, m + 1, 0);
    s += ls_adm_cm0_term(r16[0], 36453, thr, 1, 5, 16) +
         ls_adm_cm123_term(r32[1], 137373792u, thr, 8, 128);
    s += (int64_t)ls_adm_den0_term(a16[2]) + (int64_t)ls_adm_den123_term(a32[2], 31, 7, 64);
    out[i] = s;
}
