/* The SpEED SIMD units written once for every vector width: speed_avx2.c and speed_avx512.c
 * define the vector operations below and include this file. Every output is formed by the
 * reference's operations in the reference's order (speed_dsp.c); vectors only hold different
 * outputs side by side:
 *   covariance: the 25 means with one lane per displacement p (float sums over the positions in
 *               row-major order); K with one lane per q of a row p, the row's DLANES-wide groups
 *               of q in separate accumulators (double sums over the positions in order, a
 *               product and a sum per step, no FMA);
 *   mul:        VLANES columns of the product per vector, two rows at a time (each entry adds
 *               its 25 products in order from 0).
 * Products read and write whole vectors: callers pad rows to a multiple of 16 floats.
 *
 * The includer defines VEC (VLANES floats), VECD (DLANES doubles), FN(name) (suffixed name),
 * V_ZERO(), V_SET1(f), V_LOADU(p), V_STOREU(p, v), V_ADD, V_MUL; D_ZERO(), D_SET1(d),
 * D_LOADU(p), D_STOREU(p, v), D_ADD, D_SUB, D_MUL, D_FROM_F(p) (DLANES floats from p, widened). */
#include <stddef.h>
#include <stdint.h>

#include "feature/speed.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

enum { N = LS_SPEED_NP, LD = LS_SPEED_LD };
/* groups of DLANES q per row of K: 7 (AVX2), 4 (AVX-512) */
#define MAX_GROUPS ((LS_SPEED_NP + DLANES - 1) / DLANES)

static inline char *align_up(void *p)
{
    return (char *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* The 25 values of one patch position per row j: G[j][p] = R[row i + r_p][j + c_p]. */
static void gather_row(const float *R, ptrdiff_t stride, unsigned i, unsigned sw, float *G)
{
    for (int p = 0; p < N; p++) {
        const float *src = R + (ptrdiff_t)(i + (unsigned)(p / LS_SPEED_BLOCK)) * stride +
                           p % LS_SPEED_BLOCK;
        for (unsigned j = 0; j < sw; j++)
            G[(size_t)j * LD + (unsigned)p] = src[j];
    }
}

/* Row p of K over one row of positions: lanes q = DLANES g + l for the G groups g. */
static ALWAYS_INLINE void cov_row(const double *dev, unsigned sw, int p, double *acc_mem,
                                  const int G)
{
    VECD acc[MAX_GROUPS];
    for (int g = 0; g < G; g++)
        acc[g] = D_LOADU(acc_mem + g * DLANES);
    for (unsigned j = 0; j < sw; j++) {
        const double *d = dev + (size_t)j * LD;
        const VECD b = D_SET1(d[p]);
        for (int g = 0; g < G; g++)
            acc[g] = D_ADD(acc[g], D_MUL(b, D_LOADU(d + g * DLANES)));
    }
    for (int g = 0; g < G; g++)
        D_STOREU(acc_mem + g * DLANES, acc[g]);
}

void FN(ls_speed_covariance)(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                             LsSpeedMatrix K, void *tmp)
{
    float *G = (float *)align_up(tmp);
    double *dev = (double *)align_up(G + (size_t)sw * LD);
    double *acc = (double *)align_up(dev + (size_t)sw * LD);
    const unsigned n = sw * sh;
    for (unsigned j = 0; j < sw; j++)
        for (int p = N; p < LD; p++)
            G[(size_t)j * LD + (unsigned)p] = 0.0f;

    VEC s[LD / VLANES];
    for (int v = 0; v < LD / VLANES; v++)
        s[v] = V_ZERO();
    for (unsigned i = 0; i < sh; i++) {
        gather_row(R, stride, i, sw, G);
        for (unsigned j = 0; j < sw; j++)
            for (int v = 0; v < LD / VLANES; v++)
                s[v] = V_ADD(s[v], V_LOADU(G + (size_t)j * LD + VLANES * v));
    }
    float sums[LD], mu[LD];
    for (int v = 0; v < LD / VLANES; v++)
        V_STOREU(sums + VLANES * v, s[v]);
    for (int p = 0; p < LD; p++)
        mu[p] = p < N ? sums[p] / (float)n : 0.0f;

    for (size_t k = 0; k < (size_t)N * LD; k++)
        acc[k] = 0.0;
    for (unsigned i = 0; i < sh; i++) {
        gather_row(R, stride, i, sw, G);
        for (unsigned j = 0; j < sw; j++)
            for (int q = 0; q < LD; q += DLANES)
                D_STOREU(dev + (size_t)j * LD + q,
                         D_SUB(D_FROM_F(G + (size_t)j * LD + q), D_FROM_F(mu + q)));
        for (int p = 0; p < N; p++) {
            double *row = acc + (size_t)p * LD;
            switch (p / DLANES + 1) {
            case 1: cov_row(dev, sw, p, row, 1); break;
            case 2: cov_row(dev, sw, p, row, 2); break;
            case 3: cov_row(dev, sw, p, row, 3); break;
#if MAX_GROUPS > 3
            case 4: cov_row(dev, sw, p, row, 4); break;
#endif
#if MAX_GROUPS > 4
            case 5: cov_row(dev, sw, p, row, 5); break;
            case 6: cov_row(dev, sw, p, row, 6); break;
            case 7: cov_row(dev, sw, p, row, 7); break;
#endif
            default: break;
            }
        }
    }
    for (int p = 0; p < N; p++)
        for (int q = 0; q <= p; q++)
            K[p][q] = K[q][p] = (float)(acc[(size_t)p * LD + (unsigned)q] / (double)n);
}

/* NR rows from a, NV vectors from column c (NR * NV <= 8 independent sums in flight). */
static ALWAYS_INLINE void mul_block(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride,
                                    float *out, ptrdiff_t out_stride, int a, unsigned c,
                                    const int NR, const int NV)
{
    VEC acc[8][4];
    for (int r = 0; r < NR; r++)
        for (int v = 0; v < NV; v++)
            acc[r][v] = V_ZERO();
    for (int k = 0; k < N; k++) {
        const float *q = Q + k * q_stride + c;
        VEC qv[4];
        for (int v = 0; v < NV; v++)
            qv[v] = V_LOADU(q + VLANES * v);
        for (int r = 0; r < NR; r++) {
            const VEC p = V_SET1(P[a + r][k]);
            for (int v = 0; v < NV; v++)
                acc[r][v] = V_ADD(acc[r][v], V_MUL(p, qv[v]));
        }
    }
    for (int r = 0; r < NR; r++)
        for (int v = 0; v < NV; v++)
            V_STOREU(out + (a + r) * out_stride + c + VLANES * v, acc[r][v]);
}

/* Every row for the NV vectors from column c. */
static ALWAYS_INLINE void mul_columns(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride,
                                      float *out, ptrdiff_t out_stride, unsigned c, const int NV)
{
    const int NR = 8 / NV;
    int a = 0;
    for (; a + NR <= N; a += NR)
        mul_block(P, Q, q_stride, out, out_stride, a, c, NR, NV);
    for (; a < N; a++)
        mul_block(P, Q, q_stride, out, out_stride, a, c, 1, NV);
}

void FN(ls_speed_mul)(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride, unsigned m,
                      float *out, ptrdiff_t out_stride)
{
    const unsigned width = ls_speed_pad16(m);
    unsigned c = 0;
    for (; c + 4 * VLANES <= width; c += 4 * VLANES)
        mul_columns(P, Q, q_stride, out, out_stride, c, 4);
    switch ((width - c) / VLANES) {
    case 3: mul_columns(P, Q, q_stride, out, out_stride, c, 3); break;
    case 2: mul_columns(P, Q, q_stride, out, out_stride, c, 2); break;
    case 1: mul_columns(P, Q, q_stride, out, out_stride, c, 1); break;
    default: break;
    }
}
