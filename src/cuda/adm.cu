/* The adm twin's kernels, one scale at a time: the DWT of both pictures, the decoupling and both
 * CSFs of every analysed coefficient, and the row sums of the numerators and the denominator.
 * Every step is the CPU's per-coefficient function (feature/adm.h) and every sum is integer, so
 * the order of the additions is free; each row's sum is formed whole (one block per row) before
 * the row shift, as the reference's row grouping requires. */
#include <stdint.h>

#include "cuda/adm_cuda.h"
#include "feature/adm.h"

template <typename B>
static __device__ __forceinline__ B *plane(uint64_t p)
{
    return (B *)p;
}

/* ---- DWT ---- */

static __device__ __forceinline__ uint32_t pixel(const LsAdmDwtArgs &a, const void *src, int x,
                                                 int y)
{
    const size_t i = (size_t)y * a.wi + x;
    return a.bpc == 8 ? ((const uint8_t *)src)[i] : ((const uint16_t *)src)[i];
}

extern "C" __global__ void __launch_bounds__(LS_ADM_THREADS)
ls_adm_dwt0(const __grid_constant__ LsAdmDwtArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int img = (int)blockIdx.z;
    if (j >= a.w)
        return;
    const void *src = (const void *)a.src[img];
    int16_t xl[4], xh[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_adm_dwt_index(j, k, a.wi);
        uint32_t u[4];
        for (int q = 0; q < 4; q++)
            u[q] = pixel(a, src, c, ls_adm_dwt_index(i, q, a.hi));
        ls_adm_dwt0_vertical(u, a.bpc, &xl[k], &xh[k]);
    }
    const size_t o = (size_t)i * a.w + j;
    if (a.approx[img])
        plane<int32_t>(a.approx[img])[o] = ls_adm_dwt0_horizontal(ls_adm_dwt_lo, xl);
    if (a.band[img][0] && i >= a.r0 && i < a.r1 && j >= a.c0 && j < a.c1) {
        plane<int16_t>(a.band[img][1])[o] = ls_adm_dwt0_horizontal(ls_adm_dwt_hi, xl);
        plane<int16_t>(a.band[img][0])[o] = ls_adm_dwt0_horizontal(ls_adm_dwt_lo, xh);
        plane<int16_t>(a.band[img][2])[o] = ls_adm_dwt0_horizontal(ls_adm_dwt_hi, xh);
    }
}

extern "C" __global__ void __launch_bounds__(LS_ADM_THREADS)
ls_adm_dwt123(const __grid_constant__ LsAdmDwtArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int img = (int)blockIdx.z;
    if (j >= a.w)
        return;
    const int t = a.scale - 1;
    const int32_t *src = (const int32_t *)a.src[img];
    int32_t xl[4], xh[4];
    for (int k = 0; k < 4; k++) {
        const int c = ls_adm_dwt_index(j, k, a.wi);
        int32_t x[4];
        for (int q = 0; q < 4; q++)
            x[q] = src[(size_t)ls_adm_dwt_index(i, q, a.hi) * a.wi + c];
        xl[k] = ls_adm_dwt123_tap(ls_adm_dwt_lo, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
        xh[k] = ls_adm_dwt123_tap(ls_adm_dwt_hi, x, ls_adm_dwt_v_round[t], ls_adm_dwt_v_shift[t]);
    }
    const int32_t hr = ls_adm_dwt_h_round[t], hs = ls_adm_dwt_h_shift[t];
    const size_t o = (size_t)i * a.w + j;
    if (a.approx[img])
        plane<int32_t>(a.approx[img])[o] = ls_adm_dwt123_tap(ls_adm_dwt_lo, xl, hr, hs);
    if (a.band[img][0] && i >= a.r0 && i < a.r1 && j >= a.c0 && j < a.c1) {
        plane<int32_t>(a.band[img][1])[o] = ls_adm_dwt123_tap(ls_adm_dwt_hi, xl, hr, hs);
        plane<int32_t>(a.band[img][0])[o] = ls_adm_dwt123_tap(ls_adm_dwt_lo, xh, hr, hs);
        plane<int32_t>(a.band[img][2])[o] = ls_adm_dwt123_tap(ls_adm_dwt_hi, xh, hr, hs);
    }
}

/* ---- decoupling and CSF ---- */

extern "C" __global__ void __launch_bounds__(LS_ADM_THREADS)
ls_adm_analyse(const __grid_constant__ LsAdmAnalyseArgs a)
{
    const int j = a.c0 + (int)(blockIdx.x * blockDim.x + threadIdx.x), i = a.r0 + (int)blockIdx.y;
    if (j >= a.c1 || i >= a.r1)
        return;
    const size_t p = (size_t)i * a.w + j;
    uint32_t fd = 0, md = 0, fa = 0, ma = 0;
    if (a.scale == 0) {
        int16_t o[3], t[3], r[3], d[3];
        for (int b = 0; b < 3; b++) {
            o[b] = plane<int16_t>(a.o[b])[p];
            t[b] = plane<int16_t>(a.t[b])[p];
        }
        ls_adm_decouple0(o, t, a.egl, r, d);
        for (int b = 0; b < 3; b++) {
            plane<int16_t>(a.r[b])[p] = r[b];
            plane<int16_t>(a.a[b])[p] = d[b];
            const int16_t c = ls_adm_csf0(d[b], a.i16[b], b);
            fd += (uint32_t)(int32_t)ls_adm_flt0(c);
            md += (uint32_t)(int32_t)ls_adm_center0(c);
            if (a.do_aim) {
                const int16_t q = ls_adm_csf0(r[b], a.i16[b], b);
                fa += (uint32_t)(int32_t)ls_adm_flt0(q);
                ma += (uint32_t)(int32_t)ls_adm_center0(q);
            }
        }
    } else {
        int32_t o[3], t[3], r[3], d[3];
        for (int b = 0; b < 3; b++) {
            o[b] = plane<int32_t>(a.o[b])[p];
            t[b] = plane<int32_t>(a.t[b])[p];
        }
        ls_adm_decouple123(o, t, a.egl, r, d);
        for (int b = 0; b < 3; b++) {
            plane<int32_t>(a.r[b])[p] = r[b];
            plane<int32_t>(a.a[b])[p] = d[b];
            const int32_t c = ls_adm_csf123(d[b], a.i32[b]);
            fd += (uint32_t)ls_adm_flt123(c);
            md += (uint32_t)ls_adm_center123(c);
            if (a.do_aim) {
                const int32_t q = ls_adm_csf123(r[b], a.i32[b]);
                fa += (uint32_t)ls_adm_flt123(q);
                ma += (uint32_t)ls_adm_center123(q);
            }
        }
    }
    plane<int32_t>(a.f_dlm)[p] = (int32_t)fd;
    plane<int32_t>(a.m_dlm)[p] = (int32_t)md;
    if (a.do_aim) {
        plane<int32_t>(a.f_aim)[p] = (int32_t)fa;
        plane<int32_t>(a.m_aim)[p] = (int32_t)ma;
    }
}

/* ---- row sums ---- */

/* Row index of a neighbour, mapped: -1 is row 1, h is row h - 1 (adm.md §8.1). */
static __device__ __forceinline__ int map_row(int i, int h)
{
    return i < 0 ? -i : (i >= h ? 2 * h - 1 - i : i);
}

/* The threshold at (i, j) from the F plane with mapped neighbour columns (-1 is 1, w is w - 1)
 * and the M plane: ls_adm_threshold on three 3-wide windows. */
static __device__ __forceinline__ int32_t threshold(const int32_t *f, const int32_t *m, int w,
                                                    int up, int mid, int down, int j)
{
    const int jl = j - 1 < 0 ? 1 : j - 1, jr = j + 1 >= w ? w - 1 : j + 1;
    const int32_t fu[3] = { f[(size_t)up * w + jl], f[(size_t)up * w + j], f[(size_t)up * w + jr] };
    const int32_t fm[3] = { f[(size_t)mid * w + jl], f[(size_t)mid * w + j],
                            f[(size_t)mid * w + jr] };
    const int32_t fd[3] = { f[(size_t)down * w + jl], f[(size_t)down * w + j],
                            f[(size_t)down * w + jr] };
    const int32_t mm[3] = { 0, m[(size_t)mid * w + j], 0 };
    return ls_adm_threshold(fu + 1, fm + 1, fd + 1, mm + 1, 0);
}

static __device__ __forceinline__ unsigned long long block_sum(unsigned long long v,
                                                               unsigned long long *shared)
{
    for (unsigned d = 16; d; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    unsigned long long total = 0;
    if (threadIdx.x == 0)
        for (unsigned w = 0; w < LS_ADM_ROW_THREADS / 32; w++)
            total += shared[w];
    __syncthreads();
    return total;
}

extern "C" __global__ void __launch_bounds__(LS_ADM_ROW_THREADS)
ls_adm_rows(const __grid_constant__ LsAdmRowsArgs a)
{
    __shared__ unsigned long long part[LS_ADM_ROW_THREADS / 32];
    const int i = a.T + (int)blockIdx.x, w = a.w;
    const int up = map_row(i - 1, a.h), down = map_row(i + 1, a.h);
    unsigned long long num[3] = { 0, 0, 0 }, aim[3] = { 0, 0, 0 }, den[3] = { 0, 0, 0 };
    const int32_t *f_dlm = plane<const int32_t>(a.f_dlm), *m_dlm = plane<const int32_t>(a.m_dlm);
    const int32_t *f_aim = plane<const int32_t>(a.f_aim), *m_aim = plane<const int32_t>(a.m_aim);
    for (int j = a.L + (int)threadIdx.x; j < a.R; j += LS_ADM_ROW_THREADS) {
        const size_t p = (size_t)i * w + j;
        const int32_t thr_d = threshold(f_dlm, m_dlm, w, up, i, down, j);
        const int32_t thr_a = a.do_aim ? threshold(f_aim, m_aim, w, up, i, down, j) : 0;
        for (int b = 0; b < 3; b++) {
            if (a.scale == 0) {
                num[b] += (unsigned long long)ls_adm_cm0_term(plane<const int16_t>(a.r[b])[p],
                                                             a.i16[b], thr_d, b, a.cm_cs[b],
                                                             a.cm_cr[b]);
                if (a.do_aim)
                    aim[b] += (unsigned long long)ls_adm_cm0_term(plane<const int16_t>(a.a[b])[p],
                                                                 a.i16[b], thr_a, b, a.cm_cs[b],
                                                                 a.cm_cr[b]);
                den[b] += ls_adm_den0_term(plane<const int16_t>(a.o[b])[p]);
            } else {
                num[b] += (unsigned long long)ls_adm_cm123_term(plane<const int32_t>(a.r[b])[p],
                                                               a.i32[b], thr_d, a.cm_cs[0],
                                                               a.cm_cr[0]);
                if (a.do_aim)
                    aim[b] += (unsigned long long)ls_adm_cm123_term(
                        plane<const int32_t>(a.a[b])[p], a.i32[b], thr_a, a.cm_cs[0], a.cm_cr[0]);
                den[b] += ls_adm_den123_term(plane<const int32_t>(a.o[b])[p], a.den_sq, a.den_cs,
                                             a.den_cr);
            }
        }
    }
    unsigned long long *sums = (unsigned long long *)a.sums;
    for (int b = 0; b < 3; b++) {
        /* each row whole, then its shift (adm.md §7, §8.2): signed for the numerators */
        const long long n = (long long)block_sum(num[b], part);
        const unsigned long long d = block_sum(den[b], part);
        const long long q = a.do_aim ? (long long)block_sum(aim[b], part) : 0;
        if (threadIdx.x == 0) {
            atomicAdd(sums + b, (unsigned long long)((n + (long long)a.cm_rr) >> a.cm_rs));
            if (a.do_aim)
                atomicAdd(sums + 3 + b, (unsigned long long)((q + (long long)a.cm_rr) >> a.cm_rs));
            atomicAdd(sums + 6 + b, (d + a.den_rr) >> a.den_rs);
        }
    }
}
