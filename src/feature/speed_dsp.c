/* C references of the SpEED DSP units: each output formed with the shared arithmetic of speed.h
 * in the reference's order. The loops run the independent sums side by side (every pair of
 * displacements of one row of K, every column of a product), which leaves each sum's own order
 * as it is; SIMD variants do the same with vectors and must match these bit for bit. */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/speed.h"

/* Row i of the patch positions as a table: dev[j][q] = (double)R[i + r_q][j + c_q] - mu[q]. */
static void deviations(const float *R, ptrdiff_t stride, unsigned i, unsigned sw, const float *mu,
                       double *dev)
{
    for (int q = 0; q < LS_SPEED_NP; q++) {
        const float *src = R + (ptrdiff_t)(i + (unsigned)(q / LS_SPEED_BLOCK)) * stride +
                           q % LS_SPEED_BLOCK;
        for (unsigned j = 0; j < sw; j++)
            dev[(size_t)j * LS_SPEED_LD + (unsigned)q] = ls_speed_deviation(src[j], mu[q]);
    }
}

static void covariance_c(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                         LsSpeedMatrix K, void *tmp)
{
    enum { N = LS_SPEED_NP, LD = LS_SPEED_LD };
    const unsigned n = sw * sh;
    float mu[N];
    for (int p = 0; p < N; p++) {
        const float *base = R + (p / LS_SPEED_BLOCK) * stride + p % LS_SPEED_BLOCK;
        float s = 0.0f;
        for (unsigned i = 0; i < sh; i++)
            for (unsigned j = 0; j < sw; j++)
                s = s + base[(ptrdiff_t)i * stride + j];
        mu[p] = s / (float)n;
    }
    /* the pairs' sums side by side, each over the positions in row-major order */
    double *dev = (double *)(((uintptr_t)tmp + 63) & ~(uintptr_t)63);
    double t[N][N] = { { 0 } };
    for (unsigned i = 0; i < sh; i++) {
        deviations(R, stride, i, sw, mu, dev);
        for (unsigned j = 0; j < sw; j++) {
            const double *d = dev + (size_t)j * LD;
            for (int p = 0; p < N; p++) {
                const double dp = d[p];
                for (int q = 0; q <= p; q++)
                    t[p][q] = ls_speed_cov_step(t[p][q], dp, d[q]);
            }
        }
    }
    for (int p = 0; p < N; p++)
        for (int q = 0; q <= p; q++)
            K[p][q] = K[q][p] = (float)(t[p][q] / (double)n);
}

static void mul_c(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride, unsigned m, float *out,
                  ptrdiff_t out_stride)
{
    for (int a = 0; a < LS_SPEED_NP; a++) {
        float *restrict o = out + a * out_stride;
        for (unsigned c = 0; c < m; c++)
            o[c] = 0.0f;
        for (int k = 0; k < LS_SPEED_NP; k++) {
            const float p = P[a][k];
            const float *restrict q = Q + k * q_stride;
            for (unsigned c = 0; c < m; c++)
                o[c] = ls_speed_mul_step(o[c], p, q[c]);
        }
    }
}

static void bilinear_row_c(const int32_t *x1, const int32_t *x2, const float *dx, unsigned n,
                           const float *r1, const float *r2, float dy, float *out)
{
    for (unsigned x = 0; x < n; x++)
        out[x] = ls_motion_bilinear_sample(r1[x1[x]], r1[x2[x]], r2[x1[x]], r2[x2[x]], dx[x], dy);
}

void ls_speed_dsp_init(LsSpeedDsp *dsp, uint64_t cpu_flags)
{
    dsp->covariance = covariance_c;
    dsp->mul = mul_c;
    dsp->bilinear_row = bilinear_row_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->covariance = ls_speed_covariance_avx2;
    dsp->mul = ls_speed_mul_avx2;
    dsp->bilinear_row = ls_speed_bilinear_row_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->covariance = ls_speed_covariance_avx512;
    dsp->mul = ls_speed_mul_avx512;
    dsp->bilinear_row = ls_speed_bilinear_row_avx512;
#else
    (void)cpu_flags;
#endif
}
