/* The SpEED twins' kernels (speed_chroma, speed_temporal): the anti-alias filter where the 16x
 * decimation keeps a sample, the local-mean removal, the 25x25 covariance (one thread per entry,
 * each a double chain over the positions in the CPU's row-major order), the eigenvalues (one
 * thread: ls_speed_eigenvalues itself), the explicit Householder QR solve (one thread per matrix
 * entry, each product entry the CPU's k-ascending chain) and the block variances. Every step is
 * a function of feature/speed.h or feature/float_vif.h; the entropies and the score, which call
 * glibc's log2, are the host's. */
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

/* The 25 means, then K[p][q] = K[q][p] for p >= q (§5.1), one block per job. */
extern "C" __global__ void __launch_bounds__(LS_SPEED_COV_THREADS)
ls_speed_covariance(const __grid_constant__ LsSpeedStatsArgs a)
{
    __shared__ float mu[LS_SPEED_NP];
    const int job = (int)blockIdx.x, t = (int)threadIdx.x;
    const float *R = (const float *)a.R[job];
    const unsigned n = (unsigned)a.sw * (unsigned)a.sh;
    if (t < LS_SPEED_NP) {
        const float *base = R + (t / LS_SPEED_BLOCK) * a.wd + t % LS_SPEED_BLOCK;
        float s = 0.0f;
        for (int i = 0; i < a.sh; i++)
            for (int j = 0; j < a.sw; j++)
                s = s + base[i * a.wd + j];
        mu[t] = s / (float)n;
    }
    __syncthreads();
    if (t >= LS_SPEED_NP * (LS_SPEED_NP + 1) / 2)
        return;
    int p = 0;
    while ((p + 1) * (p + 2) / 2 <= t)
        p++;
    const int q = t - p * (p + 1) / 2;
    const float *bp = R + (p / LS_SPEED_BLOCK) * a.wd + p % LS_SPEED_BLOCK;
    const float *bq = R + (q / LS_SPEED_BLOCK) * a.wd + q % LS_SPEED_BLOCK;
    const float mp = mu[p], mq = mu[q];
    double acc = 0.0;
    for (int i = 0; i < a.sh; i++)
        for (int j = 0; j < a.sw; j++) {
            const int o = i * a.wd + j;
            acc = ls_speed_cov_step(acc, ls_speed_deviation(bp[o], mp),
                                    ls_speed_deviation(bq[o], mq));
        }
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
        if (t)
            return;
        for (int r = 0; r < LS_SPEED_NP; r++)
            for (int c = 0; c < LS_SPEED_NP; c++)
                Km[r][c] = Kg[r][c];
        float lambda[LS_SPEED_NP];
        ls_speed_eigenvalues(Km, lambda);
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
