/* The adm twin's kernels (the OpenCL counterpart of src/cuda/adm.cu), one scale at a time: the DWT
 * of both pictures, the decoupling and both CSFs of every analysed coefficient, and the row sums
 * of the numerators and the denominator. Every step is the CPU's per-coefficient function
 * (feature/adm.h; its binary64 steps on core/soft_f64.h's exact integer emulation here) and every
 * sum is integer, so the order of the additions is free; each row's sum is formed whole (one
 * work-group per row) before the row shift, as the reference's row grouping requires.
 * prm: the scale's LS_ADM_CL_NP parameters, offs: its LS_ADM_CL_NO plane offsets in `block`. */
#include "feature/adm.h"
#include "opencl/adm_params.h"
#include "opencl/reduce.clh"

#define P(name) prm[LS_ADM_P_##name]
#define PLANE(type, o) ((__global type *)(block + offs[o]))

static inline uint adm_pixel(__global const uchar *src, int wi, int bpc, int x, int y)
{
    const ulong i = (ulong)y * (uint)wi + (uint)x;
    return bpc == 8 ? src[i] : ((__global const ushort *)src)[i];
}

__kernel void ls_adm_dwt0(__global const uchar *frame, ulong ref_off, ulong dis_off,
                          __global uchar *block, __global const ulong *offs,
                          __global const int *prm, int bpc)
{
    const int j = (int)get_global_id(0), i = (int)get_global_id(1), img = (int)get_global_id(2);
    const int w = P(W), wi = P(WI), hi = P(HI);
    if (j >= w || i >= P(H))
        return;
    __global const uchar *src = frame + (img ? dis_off : ref_off);
    const int32_t lo[4] = { ls_adm_dwt_lo[0], ls_adm_dwt_lo[1], ls_adm_dwt_lo[2],
                            ls_adm_dwt_lo[3] };
    const int32_t hf[4] = { ls_adm_dwt_hi[0], ls_adm_dwt_hi[1], ls_adm_dwt_hi[2],
                            ls_adm_dwt_hi[3] };
    int16_t xl[4], xh[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_adm_dwt_index(j, k, wi);
        uint32_t u[4];
        for (int q = 0; q < 4; q++)
            u[q] = adm_pixel(src, wi, bpc, c, ls_adm_dwt_index(i, q, hi));
        ls_adm_dwt0_vertical(u, bpc, &xl[k], &xh[k]);
    }
    const ulong o = (ulong)i * w + j;
    if (P(APPROX))
        PLANE(int, LS_ADM_O_APPROX + img)[o] = ls_adm_dwt0_horizontal(lo, xl);
    if (P(DETAILS) && i >= P(R0) && i < P(R1) && j >= P(C0) && j < P(C1)) {
        PLANE(short, LS_ADM_O_BAND + 3 * img + 1)[o] = ls_adm_dwt0_horizontal(hf, xl);
        PLANE(short, LS_ADM_O_BAND + 3 * img + 0)[o] = ls_adm_dwt0_horizontal(lo, xh);
        PLANE(short, LS_ADM_O_BAND + 3 * img + 2)[o] = ls_adm_dwt0_horizontal(hf, xh);
    }
}

/* src_offs: the previous scale's plane offsets (its approximations are this scale's input) */
__kernel void ls_adm_dwt123(__global uchar *block, __global const ulong *offs,
                            __global const ulong *src_offs, __global const int *prm, int scale)
{
    const int j = (int)get_global_id(0), i = (int)get_global_id(1), img = (int)get_global_id(2);
    const int w = P(W), wi = P(WI), hi = P(HI);
    if (j >= w || i >= P(H))
        return;
    const int t = scale - 1;
    __global const int *src = (__global const int *)(block + src_offs[LS_ADM_O_APPROX + img]);
    const int32_t lo[4] = { ls_adm_dwt_lo[0], ls_adm_dwt_lo[1], ls_adm_dwt_lo[2],
                            ls_adm_dwt_lo[3] };
    const int32_t hf[4] = { ls_adm_dwt_hi[0], ls_adm_dwt_hi[1], ls_adm_dwt_hi[2],
                            ls_adm_dwt_hi[3] };
    int32_t xl[4], xh[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_adm_dwt_index(j, k, wi);
        int32_t x[4];
        for (int q = 0; q < 4; q++)
            x[q] = src[(ulong)ls_adm_dwt_index(i, q, hi) * (uint)wi + c];
        xl[k] = ls_adm_dwt123_tap(lo, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
        xh[k] = ls_adm_dwt123_tap(hf, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
    }
    const int32_t hr = ls_adm_dwt_h_round[t], hs = ls_adm_dwt_h_shift[t];
    const ulong o = (ulong)i * w + j;
    if (P(APPROX))
        PLANE(int, LS_ADM_O_APPROX + img)[o] = ls_adm_dwt123_tap(lo, xl, hr, hs);
    if (P(DETAILS) && i >= P(R0) && i < P(R1) && j >= P(C0) && j < P(C1)) {
        PLANE(int, LS_ADM_O_BAND + 3 * img + 1)[o] = ls_adm_dwt123_tap(hf, xl, hr, hs);
        PLANE(int, LS_ADM_O_BAND + 3 * img + 0)[o] = ls_adm_dwt123_tap(lo, xh, hr, hs);
        PLANE(int, LS_ADM_O_BAND + 3 * img + 2)[o] = ls_adm_dwt123_tap(hf, xh, hr, hs);
    }
}

/* Decoupling and both CSFs over rows [r0, r1) x columns [c0, c1); egl: the binary64's bits. */
__kernel void ls_adm_analyse(__global uchar *block, __global const ulong *offs,
                             __global const int *prm, int scale, int do_aim, ulong egl)
{
    const int j = P(C0) + (int)get_global_id(0), i = P(R0) + (int)get_global_id(1);
    if (j >= P(C1) || i >= P(R1))
        return;
    const ulong p = (ulong)i * P(W) + j;
    uint32_t fd = 0, md = 0, fa = 0, ma = 0;
    if (scale == 0) {
        int16_t o[3], t[3], r[3], d[3];
        for (int b = 0; b < 3; b++) {
            o[b] = PLANE(short, LS_ADM_O_BAND + b)[p];
            t[b] = PLANE(short, LS_ADM_O_BAND + 3 + b)[p];
        }
        ls_adm_decouple0(o, t, egl, r, d);
        for (int b = 0; b < 3; b++) {
            PLANE(short, LS_ADM_O_R + b)[p] = r[b];
            PLANE(short, LS_ADM_O_A + b)[p] = d[b];
            const uint16_t factor = (uint16_t)P(I16 + b);
            const int16_t c = ls_adm_csf0(d[b], factor, b);
            fd += (uint32_t)(int32_t)ls_adm_flt0(c);
            md += (uint32_t)(int32_t)ls_adm_center0(c);
            if (do_aim) {
                const int16_t q = ls_adm_csf0(r[b], factor, b);
                fa += (uint32_t)(int32_t)ls_adm_flt0(q);
                ma += (uint32_t)(int32_t)ls_adm_center0(q);
            }
        }
    } else {
        int32_t o[3], t[3], r[3], d[3];
        for (int b = 0; b < 3; b++) {
            o[b] = PLANE(int, LS_ADM_O_BAND + b)[p];
            t[b] = PLANE(int, LS_ADM_O_BAND + 3 + b)[p];
        }
        ls_adm_decouple123(o, t, egl, r, d);
        for (int b = 0; b < 3; b++) {
            PLANE(int, LS_ADM_O_R + b)[p] = r[b];
            PLANE(int, LS_ADM_O_A + b)[p] = d[b];
            const uint32_t factor = (uint32_t)P(I32 + b);
            const int32_t c = ls_adm_csf123(d[b], factor);
            fd += (uint32_t)ls_adm_flt123(c);
            md += (uint32_t)ls_adm_center123(c);
            if (do_aim) {
                const int32_t q = ls_adm_csf123(r[b], factor);
                fa += (uint32_t)ls_adm_flt123(q);
                ma += (uint32_t)ls_adm_center123(q);
            }
        }
    }
    PLANE(int, LS_ADM_O_F_DLM)[p] = (int32_t)fd;
    PLANE(int, LS_ADM_O_M_DLM)[p] = (int32_t)md;
    if (do_aim) {
        PLANE(int, LS_ADM_O_F_AIM)[p] = (int32_t)fa;
        PLANE(int, LS_ADM_O_M_AIM)[p] = (int32_t)ma;
    }
}

/* Row index of a neighbour, mapped: -1 is row 1, h is row h - 1 (adm.md §8.1). */
static inline int adm_map_row(int i, int h) { return i < 0 ? -i : (i >= h ? 2 * h - 1 - i : i); }

/* The threshold at (i, j) from the F plane with mapped neighbour columns (-1 is 1, w is w - 1)
 * and the M plane: ls_adm_threshold on three 3-wide windows. */
static inline int32_t adm_threshold(__global const int *f, __global const int *m, int w, int up,
                                    int mid, int down, int j)
{
    const int jl = j - 1 < 0 ? 1 : j - 1, jr = j + 1 >= w ? w - 1 : j + 1;
    const int32_t fu[3] = { f[(ulong)up * w + jl], f[(ulong)up * w + j], f[(ulong)up * w + jr] };
    const int32_t fm[3] = { f[(ulong)mid * w + jl], f[(ulong)mid * w + j],
                            f[(ulong)mid * w + jr] };
    const int32_t fdn[3] = { f[(ulong)down * w + jl], f[(ulong)down * w + j],
                             f[(ulong)down * w + jr] };
    const int32_t mm[3] = { 0, m[(ulong)mid * w + j], 0 };
    return ls_adm_threshold(fu + 1, fm + 1, fdn + 1, mm + 1, 0);
}

/* The row sums of one scale, one work-group per band row T + group: numerator (DLM, AIM) and
 * denominator terms over columns [L, R), each row's sum shifted as the reference does, into
 * partial[group * 9 + (num[3], aim[3], den[3])]. */
__kernel void ls_adm_rows(__global const uchar *block, __global const ulong *offs,
                          __global const int *prm, int scale, int do_aim, __global long *partial,
                          ulong part_off)
{
    __local long scratch[LS_WG];
    const int i = P(T) + (int)get_group_id(0), w = P(W), lid = (int)get_local_id(0);
    const int up = adm_map_row(i - 1, P(H)), down = adm_map_row(i + 1, P(H));
    ulong num[3] = { 0, 0, 0 }, aim[3] = { 0, 0, 0 }, den[3] = { 0, 0, 0 };
    __global const int *f_dlm = PLANE(const int, LS_ADM_O_F_DLM);
    __global const int *m_dlm = PLANE(const int, LS_ADM_O_M_DLM);
    __global const int *f_aim = PLANE(const int, LS_ADM_O_F_AIM);
    __global const int *m_aim = PLANE(const int, LS_ADM_O_M_AIM);
    const uint32_t cs0 = (uint32_t)P(CM_CS), cr0 = (uint32_t)P(CM_CR);
    for (int j = P(L) + lid; j < P(R); j += LS_WG) {
        const ulong p = (ulong)i * w + j;
        const int32_t thr_d = adm_threshold(f_dlm, m_dlm, w, up, i, down, j);
        const int32_t thr_a = do_aim ? adm_threshold(f_aim, m_aim, w, up, i, down, j) : 0;
        for (int b = 0; b < 3; b++) {
            if (scale == 0) {
                const uint16_t factor = (uint16_t)P(I16 + b);
                const uint32_t cs = (uint32_t)P(CM_CS + b), cr = (uint32_t)P(CM_CR + b);
                num[b] += (ulong)ls_adm_cm0_term(PLANE(const short, LS_ADM_O_R + b)[p], factor,
                                                 thr_d, b, cs, cr);
                if (do_aim)
                    aim[b] += (ulong)ls_adm_cm0_term(PLANE(const short, LS_ADM_O_A + b)[p],
                                                     factor, thr_a, b, cs, cr);
                den[b] += ls_adm_den0_term(PLANE(const short, LS_ADM_O_BAND + b)[p]);
            } else {
                const uint32_t factor = (uint32_t)P(I32 + b);
                num[b] += (ulong)ls_adm_cm123_term(PLANE(const int, LS_ADM_O_R + b)[p], factor,
                                                   thr_d, cs0, cr0);
                if (do_aim)
                    aim[b] += (ulong)ls_adm_cm123_term(PLANE(const int, LS_ADM_O_A + b)[p],
                                                       factor, thr_a, cs0, cr0);
                den[b] += ls_adm_den123_term(PLANE(const int, LS_ADM_O_BAND + b)[p], P(DEN_SQ),
                                             (uint32_t)P(DEN_CS), (uint32_t)P(DEN_CR));
            }
        }
    }
    __global long *out = partial + part_off + (ulong)get_group_id(0) * 9;
    const long cm_rr = (long)(uint32_t)P(CM_RR), cm_rs = P(CM_RS);
    const ulong den_rr = (uint32_t)P(DEN_RR);
    const uint den_rs = (uint32_t)P(DEN_RS);
    for (int b = 0; b < 3; b++) {
        /* each row whole, then its shift (adm.md §7, §8.2): signed for the numerators */
        const long n = ls_group_sum((long)num[b], scratch);
        const ulong d = (ulong)ls_group_sum((long)den[b], scratch);
        const long q = do_aim ? ls_group_sum((long)aim[b], scratch) : 0;
        if (!lid) {
            out[b] = (n + cm_rr) >> cm_rs;
            out[3 + b] = do_aim ? (q + cm_rr) >> cm_rs : 0;
            out[6 + b] = (long)((d + den_rr) >> den_rs);
        }
    }
}
