/* The cambi twin's kernels: the working picture, the spatial mask, and per scale the decimation
 * with the mode filter and the c-values. Every per-pixel step is a function of
 * feature/cambi_math.h. The window counts of a c-value are those of the CPU's histograms: one
 * warp per strip of 32 columns, each thread keeping the histogram of its column's window in
 * shared memory (value-major, so a warp's updates fall in distinct banks) as rows enter and
 * leave, run by run; the counts are integers, exact in any order. The pooling sums are integers
 * too (ls_cambi_sum_units); the selection, where it is needed, is the host's. */
#include <stdint.h>

#include "cuda/cambi_cuda.h"

/* ---- working picture and mask ---- */

static __device__ __forceinline__ int converted(const LsCambiPreArgs &a, int i, int j)
{
    const int y = a.pos_y ? ((const int32_t *)a.pos_y)[i] : i;
    const int x = a.pos_x ? ((const int32_t *)a.pos_x)[j] : j;
    const size_t o = (size_t)y * (unsigned)a.in_w + (unsigned)x;
    const unsigned v = a.bpc == 8 ? ((const uint8_t *)a.src)[o] : ((const uint16_t *)a.src)[o];
    return ls_cambi_to_10bit(v, (unsigned)a.bpc);
}

extern "C" __global__ void __launch_bounds__(LS_CAMBI_THREADS)
ls_cambi_preprocess(const __grid_constant__ LsCambiPreArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    if (j >= a.w)
        return;
    int v = converted(a, i, j);
    if (a.antidither) {
        const int r = j + 1 < a.w ? j + 1 : j, b = i + 1 < a.h ? i + 1 : i;
        v = ls_cambi_avg4(v, converted(a, i, r), converted(a, b, j), converted(a, b, r));
    }
    ((uint16_t *)a.img)[(size_t)i * (unsigned)a.w + (unsigned)j] = (uint16_t)v;
}

/* The largest luma sample (depths other than 8 and 16 must not exceed theirs). */
extern "C" __global__ void __launch_bounds__(LS_CAMBI_THREADS)
ls_cambi_top(const __grid_constant__ LsCambiPreArgs a)
{
    const size_t n = (size_t)(unsigned)a.in_w * (unsigned)a.in_h;
    unsigned top = 0;
    for (size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x; o < n;
         o += (size_t)gridDim.x * blockDim.x) {
        const unsigned v = ((const uint16_t *)a.src)[o];
        top = v > top ? v : top;
    }
    for (unsigned d = 16; d; d >>= 1) {
        const unsigned o = __shfl_down_sync(0xffffffffu, top, d);
        top = o > top ? o : top;
    }
    if ((threadIdx.x & 31u) == 0)
        atomicMax(&((LsCambiResult *)a.result)->top, top);
}

extern "C" __global__ void __launch_bounds__(LS_CAMBI_THREADS)
ls_cambi_zero_derivatives(const __grid_constant__ LsCambiPreArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    if (j >= a.w)
        return;
    const uint16_t *row = (const uint16_t *)a.img + (size_t)i * (unsigned)a.w;
    const uint16_t *below = i + 1 < a.h ? row + a.w : row;
    ((uint8_t *)a.z)[(size_t)i * (unsigned)a.w + (unsigned)j] =
        (uint8_t)ls_cambi_zero_derivative(row, below, j, a.w);
}

/* The 7x7 count of zero derivatives (rows and columns outside the picture count 0), where a
 * scale reads it. */
extern "C" __global__ void __launch_bounds__(LS_CAMBI_THREADS)
ls_cambi_mask(const __grid_constant__ LsCambiPreArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x) * a.mask_step;
    const int i = (int)blockIdx.y * a.mask_step;
    if (j >= a.w)
        return;
    const int R = LS_CAMBI_MASK_RADIUS;
    const int r0 = i - R < 0 ? 0 : i - R, r1 = i + R > a.h - 1 ? a.h - 1 : i + R;
    const int c0 = j - R < 0 ? 0 : j - R, c1 = j + R > a.w - 1 ? a.w - 1 : j + R;
    int sum = 0;
    for (int r = r0; r <= r1; r++)
        for (int c = c0; c <= c1; c++)
            sum += ((const uint8_t *)a.z)[(size_t)r * (unsigned)a.w + (unsigned)c];
    ((uint8_t *)a.mask)[(size_t)i * (unsigned)a.w + (unsigned)j] = sum > a.mask_index;
}

/* ---- one scale ---- */

static __device__ __forceinline__ int decimated(const LsCambiScaleArgs &a, int i, int j)
{
    return ((const uint16_t *)a.src)[(size_t)(i * a.step) * (unsigned)a.src_w +
                                     (unsigned)(j * a.step)];
}

/* The horizontal mode of row i at column j (the first and last columns as they are). */
static __device__ __forceinline__ int mode_h(const LsCambiScaleArgs &a, int i, int j)
{
    if (j == 0 || j == a.w - 1)
        return decimated(a, i, j);
    return ls_cambi_mode3(decimated(a, i, j - 1), decimated(a, i, j), decimated(a, i, j + 1));
}

extern "C" __global__ void __launch_bounds__(LS_CAMBI_THREADS)
ls_cambi_mode_filter(const __grid_constant__ LsCambiScaleArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    if (j >= a.w)
        return;
    /* the first and last rows are never filtered, nor any row of a picture below 3 rows */
    const int v = a.h < 3 || i == 0 || i == a.h - 1
                      ? decimated(a, i, j)
                      : ls_cambi_mode3(mode_h(a, i - 1, j), mode_h(a, i, j), mode_h(a, i + 1, j));
    const size_t o = (size_t)i * (unsigned)a.w + (unsigned)j;
    ((uint16_t *)a.filtered)[o] = (uint16_t)v;
    const int m = ((const uint8_t *)a.mask0)[(size_t)(i * a.mask_step) * (unsigned)a.mask_w +
                                             (unsigned)(j * a.mask_step)];
    ((uint16_t *)a.mv)[o] =
        (uint16_t)(m && v >= a.thr.lo && v <= a.thr.hi ? v : (int)LS_CAMBI_UNMASKED);
}

/* Row r's masked values in columns [j - pad, j + pad] enter (sign 1) or leave (-1) the
 * histogram column of this thread, one update per run of equal values. The samples are loaded
 * ROW_CHUNK at a time, so that their loads are in flight together. */
#define ROW_CHUNK 16
static __device__ __forceinline__ void window_row(const LsCambiCArgs &a, const uint16_t *mv,
                                                  int w, uint16_t *hist, int r, int j, int sign)
{
    const uint16_t *row = mv + (size_t)r * (unsigned)w;
    const int c0 = j - a.pad < 0 ? 0 : j - a.pad, c1 = j + a.pad > w - 1 ? w - 1 : j + a.pad;
    const int base = a.thr.lo - a.thr.n_diffs;
    int prev = (int)LS_CAMBI_UNMASKED, run = 0;
    for (int c = c0; c <= c1; c += ROW_CHUNK) {
        int v[ROW_CHUNK];
#pragma unroll
        for (int q = 0; q < ROW_CHUNK; q++)
            v[q] = c + q <= c1 ? (int)row[c + q] : -1; /* -1: past the window */
#pragma unroll
        for (int q = 0; q < ROW_CHUNK; q++) {
            const int u = v[q];
            if (u < 0)
                break;
            if (u != prev) {
                if (prev != (int)LS_CAMBI_UNMASKED) {
                    uint16_t *h = hist + (prev - base) * LS_CAMBI_COLS;
                    *h = (uint16_t)(*h + sign * run);
                }
                prev = u;
                run = 0;
            }
            run++;
        }
    }
    if (prev != (int)LS_CAMBI_UNMASKED) {
        uint16_t *h = hist + (prev - base) * LS_CAMBI_COLS;
        *h = (uint16_t)(*h + sign * run);
    }
}

/* Block b is a strip of LS_CAMBI_COLS columns and up to LS_CAMBI_STRIP rows of the scale whose
 * blocks include b (all scales in one launch: the small scales' strips run beside the large
 * ones' instead of one scale after another). */
extern "C" __global__ void __launch_bounds__(LS_CAMBI_COLS)
ls_cambi_c_values(const __grid_constant__ LsCambiCArgs a)
{
    extern __shared__ uint16_t hist_all[];
    int k = 0;
    while (k + 1 < LS_CAMBI_NUM_SCALES && (int)blockIdx.x >= a.block0[k + 1])
        k++;
    const int b = (int)blockIdx.x - a.block0[k], w = a.w[k], h = a.h[k];
    const uint16_t *mv = (const uint16_t *)a.mv[k];
    const int t = (int)threadIdx.x, j = (b % a.gx[k]) * (int)LS_CAMBI_COLS + t;
    const int i0 = (b / a.gx[k]) * (int)LS_CAMBI_STRIP;
    const int i1 = i0 + (int)LS_CAMBI_STRIP < h ? i0 + (int)LS_CAMBI_STRIP : h;
    uint16_t *hist = hist_all + t;
    unsigned long long total = 0, bits = 0;
    unsigned nonzero = 0, odd = 0;
    if (j < w) {
        for (int u = 0; u < a.n_values; u++)
            hist[u * LS_CAMBI_COLS] = 0;
        /* the window of row i is rows [i - pad, i + pad]: rows up to i0 + pad - 1 first */
        for (int r = i0 - a.pad < 0 ? 0 : i0 - a.pad; r < i0 + a.pad && r < h; r++)
            window_row(a, mv, w, hist, r, j, 1);
        const int nd = a.thr.n_diffs, base = a.thr.lo - nd;
        for (int i = i0; i < i1; i++) {
            if (i + a.pad < h)
                window_row(a, mv, w, hist, i + a.pad, j, 1);
            const size_t o = (size_t)i * (unsigned)w + (unsigned)j;
            const int v = mv[o];
            float c = 0.0f;
            if (v != (int)LS_CAMBI_UNMASKED) {
                int cnt[2 * LS_CAMBI_MAX_DIFFS + 1];
                const uint16_t *hv = hist + (v - base) * LS_CAMBI_COLS;
                for (int d = -nd; d <= nd; d++)
                    cnt[nd + d] = hv[d * (int)LS_CAMBI_COLS];
                c = ls_cambi_c_value(&a.thr, v, cnt + nd);
            }
            ((float *)a.c[k])[o] = c;
            ls_u64 f = 0;
            switch (ls_cambi_sum_units(c, &f)) {
            case 0: break;
            case 1:
                nonzero++;
                total += f;
                bits |= f;
                break;
            default: odd++; break;
            }
            if (i - a.pad >= 0)
                window_row(a, mv, w, hist, i - a.pad, j, -1);
        }
    }
    for (unsigned d = 16; d; d >>= 1) {
        total += __shfl_down_sync(0xffffffffu, total, d);
        bits |= __shfl_down_sync(0xffffffffu, bits, d);
        nonzero += __shfl_down_sync(0xffffffffu, nonzero, d);
        odd += __shfl_down_sync(0xffffffffu, odd, d);
    }
    if (t == 0) {
        LsCambiResult *r = (LsCambiResult *)a.result;
        atomicAdd((unsigned long long *)&r->total[k], total);
        atomicOr((unsigned long long *)&r->bits[k], bits);
        atomicAdd(&r->nonzero[k], nonzero);
        atomicAdd(&r->odd[k], odd);
    }
}
