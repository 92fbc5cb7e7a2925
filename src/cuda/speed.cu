/* The SpEED twins' kernels (speed_chroma, speed_temporal): the anti-alias filter where the 16x
 * decimation keeps a sample, the local-mean removal, the 25x25 covariance (one thread per entry,
 * each a double chain over the positions in the CPU's row-major order), the eigenvalues (the
 * tridiagonal reduction by one warp, entry by entry, then the QR iteration on one thread), the
 * explicit Householder QR solve (one thread per matrix entry, each product entry the CPU's
 * k-ascending chain) and the block variances. Every step is a function of feature/speed.h or
 * feature/float_vif.h; the entropies and the score, which call glibc's log2, are the host's. */
#include <stdint.h>

#include "cuda/speed_cuda.h"
#include "feature/speed.h"

/* ---- pixel stages ---- */

static __device__ __forceinline__ float source(const LsSpeedPixelArgs &a, int job, int y, int x)
{
    const size_t i = (size_t)y * (unsigned)a.stride + (unsigned)x;
    const unsigned bpc = (unsigned)a.bpc;
    float v;
    if (bpc == 8)
        v = ls_float_vif_sample(((const uint8_t *)a.a[job])[i], 8);
    else
        v = ls_float_vif_sample(((const uint16_t *)a.a[job])[i], bpc);
    if (!a.b[job])
        return v;
    /* speed_temporal: previous minus current, each converted (§8) */
    const float c = bpc == 8 ? ls_float_vif_sample(((const uint8_t *)a.b[job])[i], 8)
                             : ls_float_vif_sample(((const uint16_t *)a.b[job])[i], bpc);
    return v - c;
}

/* Working sample (y, x): the plane's, or bilinearly resampled (float_vif's resampler). */
static __device__ __forceinline__ float working(const LsSpeedPixelArgs &a, int job, int y, int x)
{
    if (!a.resample)
        return source(a, job, y, x);
    const int32_t *iy = (const int32_t *)a.ay_idx + 2 * y;
    const float dy = ((const float *)a.ay_w)[2 * y];
    const int x1 = ((const int32_t *)a.bl_x1)[x], x2 = ((const int32_t *)a.bl_x2)[x];
    const float dx = ((const float *)a.bl_dx)[x];
    return ls_motion_bilinear_sample(source(a, job, iy[0], x1), source(a, job, iy[0], x2),
                                     source(a, job, iy[1], x1), source(a, job, iy[1], x2), dx, dy);
}

/* V[i][x]: the vertical anti-alias pass at working row 16 i, every column. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_THREADS)
ls_speed_vertical(const __grid_constant__ LsSpeedPixelArgs a)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int job = (int)blockIdx.z;
    if (x >= a.ws)
        return;
    const int r1 = a.n1 / 2, centre = LS_SPEED_DECIMATION * i;
    const float *taps = ls_speed_antialias_taps + a.aa_off;
    float acc = 0.0f;
    for (int k = 0; k < a.n1; k++)
        acc = ls_float_vif_mac(acc, taps[k],
                               working(a, job, ls_float_vif_reflect(centre - r1 + k, a.hs), x));
    ((float *)a.V[job])[(size_t)i * (unsigned)a.ws + (unsigned)x] = acc;
}

/* D[i][j]: the horizontal pass at working column 16 j. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_THREADS)
ls_speed_horizontal(const __grid_constant__ LsSpeedPixelArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int job = (int)blockIdx.z;
    if (j >= a.wd)
        return;
    const int r1 = a.n1 / 2, cj = LS_SPEED_DECIMATION * j;
    const float *taps = ls_speed_antialias_taps + a.aa_off;
    const float *t = (const float *)a.V[job] + (size_t)i * (unsigned)a.ws;
    float acc = 0.0f;
    for (int k = 0; k < a.n1; k++)
        acc = ls_float_vif_mac(acc, taps[k], t[ls_float_vif_reflect(cj - r1 + k, a.ws)]);
    ((float *)a.D[job])[(size_t)i * (unsigned)a.wd + (unsigned)j] = acc;
}

/* M = the vertical local-mean pass of D. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_THREADS)
ls_speed_mean_vertical(const __grid_constant__ LsSpeedPixelArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int job = (int)blockIdx.z;
    if (j >= a.wd)
        return;
    const int r = a.nm / 2;
    const float *taps = ls_float_vif_taps + a.mean_off, *D = (const float *)a.D[job];
    float acc = 0.0f;
    for (int k = 0; k < a.nm; k++)
        acc = ls_float_vif_mac(acc, taps[k], D[ls_float_vif_reflect(i - r + k, a.hd) * a.wd + j]);
    ((float *)a.M[job])[i * a.wd + j] = acc;
}

/* R = D - the horizontal local-mean pass of M. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_THREADS)
ls_speed_residual(const __grid_constant__ LsSpeedPixelArgs a)
{
    const int j = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = (int)blockIdx.y;
    const int job = (int)blockIdx.z;
    if (j >= a.wd)
        return;
    const int r = a.nm / 2;
    const float *taps = ls_float_vif_taps + a.mean_off, *M = (const float *)a.M[job];
    float acc = 0.0f;
    for (int k = 0; k < a.nm; k++)
        acc = ls_float_vif_mac(acc, taps[k], M[i * a.wd + ls_float_vif_reflect(j - r + k, a.wd)]);
    ((float *)a.R[job])[i * a.wd + j] = ((const float *)a.D[job])[i * a.wd + j] - acc;
}

/* ---- statistics ---- */

/* The 25 means, then K[p][q] = K[q][p] for p >= q (§5.1): block (x, job) computes entries
 * LS_SPEED_COV_THREADS x .. of the job's 325 (each block its own copy of the means). The
 * positions are walked row by row in segments of LS_SPEED_COV_THREADS: the block stages the
 * segment's 25 raw samples (for the means) or 25 double deviations (for the entries) in shared
 * memory, one position per thread, then each thread continues its chain over the segment in
 * position order. A deviation is one double subtraction of two floats wherever it is computed,
 * so each chain adds the CPU's terms in the CPU's order. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_COV_THREADS)
ls_speed_covariance(const __grid_constant__ LsSpeedStatsArgs a)
{
    __shared__ float mu[LS_SPEED_NP];
    __shared__ double dev[LS_SPEED_NP][LS_SPEED_COV_THREADS + 1];
    float(*raw)[LS_SPEED_COV_THREADS + 1] = (float(*)[LS_SPEED_COV_THREADS + 1])dev;
    const int job = (int)blockIdx.y, t = (int)threadIdx.x;
    const int seg = (int)LS_SPEED_COV_THREADS;
    const float *R = (const float *)a.R[job];
    const unsigned n = (unsigned)a.sw * (unsigned)a.sh;
    float s = 0.0f;
    for (int i = 0; i < a.sh; i++)
        for (int j0 = 0; j0 < a.sw; j0 += seg) {
            const int m = a.sw - j0 < seg ? a.sw - j0 : seg;
            if (t < m)
                for (int p = 0; p < LS_SPEED_NP; p++)
                    raw[p][t] = R[(i + p / LS_SPEED_BLOCK) * a.wd + j0 + t + p % LS_SPEED_BLOCK];
            __syncthreads();
            if (t < LS_SPEED_NP)
                for (int c = 0; c < m; c++)
                    s = s + raw[t][c];
            __syncthreads();
        }
    if (t < LS_SPEED_NP)
        mu[t] = s / (float)n;
    __syncthreads();
    const int e = (int)(blockIdx.x * LS_SPEED_COV_THREADS) + t;
    const bool entry = e < LS_SPEED_COV_ENTRIES;
    int p = 0;
    while ((p + 1) * (p + 2) / 2 <= e)
        p++;
    const int q = e - p * (p + 1) / 2;
    double acc = 0.0;
    for (int i = 0; i < a.sh; i++)
        for (int j0 = 0; j0 < a.sw; j0 += seg) {
            const int m = a.sw - j0 < seg ? a.sw - j0 : seg;
            if (t < m)
                for (int r = 0; r < LS_SPEED_NP; r++)
                    dev[r][t] = ls_speed_deviation(
                        R[(i + r / LS_SPEED_BLOCK) * a.wd + j0 + t + r % LS_SPEED_BLOCK], mu[r]);
            __syncthreads();
            if (entry)
                for (int c = 0; c < m; c++)
                    acc = ls_speed_cov_step(acc, dev[p][c], dev[q][c]);
            __syncthreads();
        }
    if (!entry)
        return;
    float(*K)[LS_SPEED_LD] = (float(*)[LS_SPEED_LD])a.K[job];
    const float k = (float)(acc / (double)n);
    K[p][q] = k;
    K[q][p] = k;
}

/* One entry of P Q for 25x25 matrices: the CPU's chain, k ascending from 0. */
static __device__ __forceinline__ float mul_entry(const float (*P)[LS_SPEED_LD],
                                                  const float (*Q)[LS_SPEED_LD], int r, int c)
{
    float o = 0.0f;
    for (int k = 0; k < LS_SPEED_NP; k++)
        o = ls_speed_mul_step(o, P[r][k], Q[k][c]);
    return o;
}

/* blockIdx.y 0: the eigenvalues of job blockIdx.x (thread 0); 1: its QR solve (K X = Y), both
 * from K. The solve runs whether or not the eigenvalues turn out regular: the variances ignore
 * its X then, as the CPU, which skips it, has zeros. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_SOLVE_THREADS)
ls_speed_linalg(const __grid_constant__ LsSpeedStatsArgs a)
{
    __shared__ float Km[LS_SPEED_NP][LS_SPEED_LD];
    __shared__ float Zb[2][LS_SPEED_NP][LS_SPEED_LD], Qb[2][LS_SPEED_NP][LS_SPEED_LD];
    __shared__ float H[LS_SPEED_NP][LS_SPEED_LD];
    __shared__ float u[LS_SPEED_NP];
    __shared__ int pivots_ok;
    const int job = (int)blockIdx.x, t = (int)threadIdx.x;
    const float(*Kg)[LS_SPEED_LD] = (const float(*)[LS_SPEED_LD])a.K[job];
    float *res = (float *)a.res + job * LS_SPEED_HEADER_FLOATS;
    if (blockIdx.y == 0) {
        /* the eigenvalues: the reduction to tridiagonal form by one warp, lane a computing row
         * a of each step's products and updates (the CPU's loops, entry by entry), then the
         * implicit QR iteration on lane 0 */
        if (t >= 32)
            return;
        const int n = LS_SPEED_NP;
        for (int idx = t; idx < n * n; idx += 32)
            Km[idx / n][idx % n] = Kg[idx / n][idx % n];
        __syncwarp();
        float *v = Zb[0][0], *x = Zb[0][1], *tau_s = Zb[0][2];
        const bool row = t < n;
        for (int i = 0; i < n - 2; i++) {
            if (t == 0)
                *tau_s = ls_speed_householder(Km, i, i + 1);
            __syncwarp();
            const float tau = *tau_s;
            if (row && t > i)
                v[t] = Km[t][i];
            __syncwarp();
            if (tau == 0.0f)
                continue;
            if (t == 0)
                v[i + 1] = 1.0f;
            __syncwarp();
            const bool mine = row && t > i;
            if (mine)
                x[t] = ls_speed_tridiag_x(Km, v, tau, i, t);
            __syncwarp();
            const float alpha = ls_speed_tridiag_alpha(x, v, tau, i);
            __syncwarp();
            if (mine)
                x[t] = x[t] + alpha * v[t];
            __syncwarp();
            if (mine)
                for (int c = i + 1; c < n; c++)
                    Km[t][c] = ls_speed_tridiag_entry(Km[t][c], x, v, t, c);
            __syncwarp();
        }
        if (t)
            return;
        float d[LS_SPEED_NP], e[LS_SPEED_NP - 1], lambda[LS_SPEED_NP];
        ls_speed_tridiag_result(Km, d, e);
        ls_speed_tridiagonal_eigenvalues(d, e, lambda);
        for (int i = 0; i < LS_SPEED_NP; i++)
            res[i] = lambda[i];
        return;
    }
    const int r = t / LS_SPEED_NP, c = t % LS_SPEED_NP;
    const bool entry = t < LS_SPEED_NP * LS_SPEED_NP;
    if (entry) {
        Km[r][c] = Kg[r][c];
        Zb[0][r][c] = Kg[r][c];
        Qb[0][r][c] = r == c ? 1.0f : 0.0f;
    }
    __syncthreads();
    int cur = 0;
    for (int k = 0; k < LS_SPEED_NP - 1; k++) {
        float(*Z)[LS_SPEED_LD] = Zb[cur], (*Q)[LS_SPEED_LD] = Qb[cur];
        if (entry)
            Z[r][c] = ls_speed_truncated(Z[r][c], r, c, k);
        __syncthreads();
        if (t == 0)
            ls_speed_reflector_vector(Z, Km, k, u);
        __syncthreads();
        if (entry)
            H[r][c] = ls_speed_reflector_entry(u, r, c);
        __syncthreads();
        if (entry) {
            Zb[cur ^ 1][r][c] = mul_entry(H, Z, r, c);
            Qb[cur ^ 1][r][c] = mul_entry(H, Q, r, c);
        }
        __syncthreads();
        cur ^= 1;
    }
    const float(*Q)[LS_SPEED_LD] = Qb[cur];
    /* Rm = Q K, in H's place */
    if (entry)
        H[r][c] = mul_entry(Q, Km, r, c);
    __syncthreads();
    if (t == 0) {
        pivots_ok = ls_speed_pivots_regular(H);
        ((int32_t *)res)[LS_SPEED_PIVOTS_OK] = pivots_ok;
    }
    __syncthreads();
    if (!pivots_ok)
        return;
    const float *R = (const float *)a.R[job];
    float *Y = (float *)a.Y[job], *T = (float *)a.T[job], *X = (float *)a.X[job];
    const unsigned nb = (unsigned)a.nb, nbp = (unsigned)a.nbp, total = LS_SPEED_NP * nb;
    for (unsigned idx = (unsigned)t; idx < total; idx += blockDim.x) {
        const unsigned p = idx / nb, b = idx % nb;
        const unsigned bi = b / (unsigned)a.nbh, bj = b % (unsigned)a.nbh;
        Y[p * nbp + b] = R[(size_t)(LS_SPEED_BLOCK * bi + p / LS_SPEED_BLOCK) * (unsigned)a.wd +
                           LS_SPEED_BLOCK * bj + p % LS_SPEED_BLOCK];
    }
    __syncthreads();
    for (unsigned idx = (unsigned)t; idx < total; idx += blockDim.x) {
        const unsigned i = idx / nb, b = idx % nb;
        float o = 0.0f;
        for (int k = 0; k < LS_SPEED_NP; k++)
            o = ls_speed_mul_step(o, Q[i][k], Y[k * nbp + b]);
        T[i * nbp + b] = o;
    }
    __syncthreads();
    for (unsigned b = (unsigned)t; b < nb; b += blockDim.x)
        for (int i = LS_SPEED_NP - 1; i >= 0; i--)
            X[(size_t)i * nbp + b] =
                ls_speed_back_substitute(H, i, T[(size_t)i * nbp + b], X + b, (ptrdiff_t)nbp);
}

/* The block variances (§5.4) and the singular flag: eigenvalues below the threshold, or pivots. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_THREADS)
ls_speed_variance(const __grid_constant__ LsSpeedStatsArgs a)
{
    const int job = (int)blockIdx.y;
    const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    float *res = (float *)a.res + job * LS_SPEED_HEADER_FLOATS;
    const bool singular = !ls_speed_eigen_regular(res) || !((const int32_t *)res)[LS_SPEED_PIVOTS_OK];
    if (b == 0)
        ((int32_t *)res)[LS_SPEED_SINGULAR] = singular;
    if (b >= (unsigned)a.nb)
        return;
    /* a singular residual's Y was not gathered: its own R entries are read instead */
    float *var = (float *)a.res + LS_SPEED_MAX_JOBS * LS_SPEED_HEADER_FLOATS + (size_t)job * a.nb;
    if (!singular) {
        var[b] = ls_speed_block_variance((const float *)a.X[job], (const float *)a.Y[job],
                                         (size_t)a.nbp, b, false);
        return;
    }
    const float *R = (const float *)a.R[job];
    const unsigned bi = b / (unsigned)a.nbh, bj = b % (unsigned)a.nbh;
    float y[LS_SPEED_NP];
    for (int p = 0; p < LS_SPEED_NP; p++)
        y[p] = R[(size_t)(LS_SPEED_BLOCK * bi + p / LS_SPEED_BLOCK) * (unsigned)a.wd +
                 LS_SPEED_BLOCK * bj + p % LS_SPEED_BLOCK];
    var[b] = ls_speed_block_variance(y, y, 1, 0, true);
}
