/* The SpEED SIMD units written once for every vector width: speed_avx2.c and speed_avx512.c
 * define the vector operations below and include this file. Every output is formed by the
 * reference's operations in the reference's order (speed_dsp.c); vectors only hold different
 * outputs side by side:
 *   covariance: the 25 means with one lane per displacement p (float sums over the positions in
 *               row-major order); K with one lane per q of a row p, the row's DLANES-wide groups
 *               of q and up to four rows in separate accumulators (double sums over the
 *               positions in order, a product and a sum per step, no FMA);
 *   mul:        VLANES columns of the product per vector, two rows at a time (each entry adds
 *               its 25 products in order from 0).
 * Products read and write whole vectors: callers pad rows to a multiple of 16 floats.
 *
 *   bilinear:   VLANES outputs of a resampled row per vector, the four samples gathered, the
 *               weights and sums formed as in ls_motion_bilinear_sample.
 *
 * The includer defines VEC (VLANES floats), VECD (DLANES doubles), VECI (VLANES int32),
 * FN(name) (suffixed name), V_ZERO(), V_SET1(f), V_LOADU(p), V_STOREU(p, v), V_ADD, V_SUB,
 * V_MUL, V_GATHER(base, VECI) (floats base[i]), I_LOADU(p), H8_LOADU(p), H8_STOREU(p, v)
 * (8 floats); D_SET1(d), D_LOADU(p),
 * D_STOREU(p, v), D_ADD, D_SUB, D_MUL, D_FROM_F(p) (DLANES floats from p, widened). */
#include <stddef.h>
#include <stdint.h>

#include "feature/speed.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

enum { N = LS_SPEED_NP, LD = LS_SPEED_LD };
/* groups of DLANES q per row of K: 7 (AVX2), 4 (AVX-512); accumulators kept in registers */
#define MAX_GROUPS ((LS_SPEED_NP + DLANES - 1) / DLANES)
#define MAX_ACC (DLANES == 4 ? 12 : 16)

static inline char *align_up(void *p)
{
    return (char *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* The 25 values of each patch position j of row i: G[j][5r + c] = R[i + r][j + c]. For each r
 * the five values are consecutive in R: one 8-float load and store per r, in ascending r, each
 * store's spill past 5r + 4 overwritten by the next (the last one lands in lanes 25..27 of the
 * padding, whose lanes are never used). Reads up to 3 floats past the last used sample of a
 * row (LS_SPEED_R_SLACK). */
static ALWAYS_INLINE void gather_row(const float *R, ptrdiff_t stride, unsigned i, unsigned sw,
                                     float *G)
{
    for (unsigned j = 0; j < sw; j++) {
        float *g = G + (size_t)j * LD;
        for (int r = 0; r < LS_SPEED_BLOCK; r++)
            H8_STOREU(g + LS_SPEED_BLOCK * r,
                      H8_LOADU(R + (ptrdiff_t)(i + (unsigned)r) * stride + j));
    }
}

/* Rows p0 .. p0 + PB - 1 of K over one row of positions: lanes q = DLANES g + l of the G
 * groups, PB * G independent sums (lanes with q > p are not used). */
static ALWAYS_INLINE void cov_block(const double *dev, unsigned sw, int p0, double *acc_mem,
                                    const int PB, const int G)
{
    VECD acc[4][MAX_GROUPS];
    for (int i = 0; i < PB; i++)
        for (int g = 0; g < G; g++)
            acc[i][g] = D_LOADU(acc_mem + (size_t)(p0 + i) * LD + g * DLANES);
    for (unsigned j = 0; j < sw; j++) {
        const double *d = dev + (size_t)j * LD;
        VECD col[MAX_GROUPS];
        for (int g = 0; g < G; g++)
            col[g] = D_LOADU(d + g * DLANES);
        for (int i = 0; i < PB; i++) {
            const VECD b = D_SET1(d[p0 + i]);
            for (int g = 0; g < G; g++)
                acc[i][g] = D_ADD(acc[i][g], D_MUL(b, col[g]));
        }
    }
    for (int i = 0; i < PB; i++)
        for (int g = 0; g < G; g++)
            D_STOREU(acc_mem + (size_t)(p0 + i) * LD + g * DLANES, acc[i][g]);
}

/* Blocks of rows of K: up to four rows while their accumulators fit the registers. */
static void cov_rows(const double *dev, unsigned sw, double *acc)
{
    int p0 = 0;
    while (p0 < N) {
        int pb = 4;
        while (pb > 1 && (p0 + pb > N || pb * ((p0 + pb - 1) / DLANES + 1) > MAX_ACC))
            pb /= 2;
        const int g = (p0 + pb - 1) / DLANES + 1;
#define CASE(PB, GG)                                                                               \
    if (pb == PB && g == GG) {                                                                     \
        cov_block(dev, sw, p0, acc, PB, GG);                                                       \
        p0 += PB;                                                                                  \
        continue;                                                                                  \
    }
        CASE(4, 1) CASE(4, 2) CASE(4, 3) CASE(2, 1) CASE(2, 2) CASE(2, 3) CASE(2, 4)
        CASE(1, 1) CASE(1, 2) CASE(1, 3) CASE(1, 4)
#if MAX_GROUPS > 4
        CASE(2, 5) CASE(2, 6) CASE(1, 5) CASE(1, 6) CASE(1, 7)
#endif
#undef CASE
        p0 += pb; /* not reached: every (pb, g) of this width is a case above */
    }
}

void FN(ls_speed_covariance)(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                             LsSpeedMatrix K, void *tmp)
{
    float *G = (float *)align_up(tmp);
    double *dev = (double *)align_up(G + (size_t)sw * LD);
    double *acc = (double *)align_up(dev + (size_t)sw * LD);
    const unsigned n = sw * sh;
    for (size_t k = 0; k < (size_t)sw * LD; k++)
        G[k] = 0.0f; /* lanes 28..31 are never written by gather_row */

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
        cov_rows(dev, sw, acc);
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

void FN(ls_speed_bilinear_row)(const int32_t *x1, const int32_t *x2, const float *dx, unsigned n,
                               const float *r1, const float *r2, float dy, float *out)
{
    const VEC one = V_SET1(1.0f), vdy = V_SET1(dy), ndy = V_SET1(1.0f - dy);
    unsigned x = 0;
    for (; x + VLANES <= n; x += VLANES) {
        const VECI i1 = I_LOADU(x1 + x), i2 = I_LOADU(x2 + x);
        const VEC d = V_LOADU(dx + x), nd = V_SUB(one, d);
        /* ((1 - dy)(1 - dx)) p11 + ((1 - dy) dx) p12 + (dy (1 - dx)) p21 + (dy dx) p22 */
        VEC acc = V_MUL(V_MUL(ndy, nd), V_GATHER(r1, i1));
        acc = V_ADD(acc, V_MUL(V_MUL(ndy, d), V_GATHER(r1, i2)));
        acc = V_ADD(acc, V_MUL(V_MUL(vdy, nd), V_GATHER(r2, i1)));
        acc = V_ADD(acc, V_MUL(V_MUL(vdy, d), V_GATHER(r2, i2)));
        V_STOREU(out + x, acc);
    }
    for (; x < n; x++)
        out[x] = ls_motion_bilinear_sample(r1[x1[x]], r1[x2[x]], r2[x1[x]], r2[x2[x]], dx[x], dy);
}
