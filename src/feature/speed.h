/* SpEED (`speed_chroma`, `speed_temporal`): what the CPU extractors and their future GPU twins
 * share. Spec: shared/spec/features/speed.md, tables/speed.json.
 *
 * The arithmetic a twin must reproduce is here as LS_HD functions (C11 and CUDA): the 25x25
 * statistics of one decimated residual (covariance term, eigenvalues by Householder
 * tridiagonalisation and implicit QR, the explicit Householder QR solve, the variances). The
 * per-sample parts are float_vif's (float_vif.h: sample conversion, window widths, reflect-101,
 * the filter step, the local-mean taps, the resampler), as in the reference, which builds SpEED
 * on vif_tools.c. Host-only parts (options, sizes, names, and everything that calls glibc's
 * log2: entropies, weights, the plane score) follow under !__CUDACC__.
 *
 * Order of every reduction (a twin replays these, design/ordered-sum.md):
 *   filters:    acc = 0; for k = 0..N-1: acc = acc + tap[k] * x[k]     (float; vertical pass first)
 *   means:      s = 0; positions (i, j) row-major: s = s + R[r+i][c+j]   (float), mu = s / N
 *   covariance: t = 0; positions row-major: t = t + (R_p - mu_p) * (R_q - mu_q)  (double),
 *               K = t / N
 *   products:   out[a][c] = 0; for k = 0..24: out = out + P[a][k] * Q[k][c]  (float)
 *   norms:      s = 0; for a = 0..24: s = s + u[a] * u[a]                   (float), sqrtf
 *   back subst: t = T[i][b]; for k = i+1..24: t = t - X[k][b] * Rm[i][k]   (float), t / pivot
 *   variance:   V = Zp[0]; for p = 1..24: V = V + Zp[p]                     (float)
 *   entropy:    E = 0; for k = 0..24: E = E + (log2(L_k V + sn) + C)       (double sum, float E)
 *   pooling:    acc = 0; blocks in order: acc = acc + |sr - sd|            (float), acc / nb
 * Matrices are 25x25 floats, row-major, rows LS_SPEED_LD floats apart. */
#ifndef LOCKSTEP_FEATURE_SPEED_H
#define LOCKSTEP_FEATURE_SPEED_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/portable.h"
#include "feature/float_vif.h"
#include "feature/speed_taps.h"

#define LS_SPEED_BLOCK 5         /* blocks of 5x5 decimated samples */
#define LS_SPEED_NP 25           /* positions in a block: the matrices are 25x25 */
#define LS_SPEED_LD 32           /* row stride of a matrix (floats), room for whole vectors */
#define LS_SPEED_DECIMATION 16   /* one sample of 16 per axis after the anti-alias filter */
/* one block after decimation and truncation: 5 * 16 samples per axis at the working size */
#define LS_SPEED_MIN_WORKING (LS_SPEED_BLOCK * LS_SPEED_DECIMATION)
#define LS_SPEED_EPS 1e-6        /* eigenvalue, pivot and QR thresholds (double) */
#define LS_SPEED_MAX_QR_STEPS 500
#define LS_SPEED_LOG2_2PIE 0x1.06073a671183dp+2 /* log2(2 pi e), tables/speed.json */

typedef float LsSpeedMatrix[LS_SPEED_NP][LS_SPEED_LD];

/* ---- filter widths and taps (§4.2); ks = (float)speed_kernelscale ---- */

/* anti-alias width: the VIF "scale 1" window, odd_up(F(9 ks)), at least 3 */
LS_HD static inline int ls_speed_antialias_width(float ks) { return ls_float_vif_window(1, ks); }
/* local-mean width: the VIF "scale 4" window, odd_up(F(2 ks)), at least 3 */
LS_HD static inline int ls_speed_mean_width(float ks) { return ls_float_vif_window(4, ks); }

/* ---- covariance (§5.1) ---- */

/* A sample's deviation from its displacement's float mean, in double. */
LS_HD static inline double ls_speed_deviation(float r, float mu) { return (double)r - (double)mu; }

/* One step of K[p][q]'s double sum over the positions: t + dev_p * dev_q. */
LS_HD static inline double ls_speed_cov_step(double t, double dp, double dq) { return t + dp * dq; }

/* ---- eigenvalues (§5.2): GSL's symmtd and symm, adapted to float ---- */

LS_HD static inline float ls_speed_hyp(float x, float y) { return sqrtf(x * x + y * y); }

/* +1 for x >= 0 (-0 included), else -1 (NaN too) */
LS_HD static inline float ls_speed_sgn(float x) { return x >= 0.0f ? 1.0f : -1.0f; }

/* Householder vector of column col, rows start..24, stored in place (A[start][col] = beta);
 * returns tau. */
LS_HD static inline float ls_speed_householder(LsSpeedMatrix A, int col, int start)
{
    if (LS_SPEED_NP - start == 1)
        return 0.0f;
    float q = 0.0f;
    for (int a = start + 1; a < LS_SPEED_NP; a++)
        q = q + A[a][col] * A[a][col];
    const float xnorm = sqrtf(q);
    if (xnorm == 0.0f)
        return 0.0f;
    const float al = A[start][col];
    const float beta = -ls_speed_sgn(al) * ls_speed_hyp(al, xnorm);
    const float tau = (beta - al) / beta;
    const float s = al - beta;
    if (s != 0.0f) {
        for (int a = start; a < LS_SPEED_NP; a++)
            A[a][col] = A[a][col] / s;
        A[start][col] = beta;
    }
    return tau;
}

/* Step i of the reduction (below), entry by entry (a GPU twin runs the entries side by side):
 * x[a] = (tau A v)[a] over the trailing block, a > i. */
LS_HD static inline float ls_speed_tridiag_x(const LsSpeedMatrix A, const float *v, float tau,
                                             int i, int a)
{
    float xa = 0.0f;
    for (int c = i + 1; c < LS_SPEED_NP; c++)
        xa = xa + (tau * A[a][c]) * v[c];
    return xa;
}

/* alpha = -tau/2 x'v: a product of two floats (one halved) is exact in double, one rounding. */
LS_HD static inline float ls_speed_tridiag_alpha(const float *x, const float *v, float tau, int i)
{
    float xv = 0.0f;
    for (int a = i + 1; a < LS_SPEED_NP; a++)
        xv = xv + x[a] * v[a];
    return (float)((-0.5 * (double)tau) * (double)xv);
}

/* A[a][c] after step i (a, c > i), x updated by alpha. */
LS_HD static inline float ls_speed_tridiag_entry(float A_ac, const float *x, const float *v, int a,
                                                 int c)
{
    return A_ac - (x[a] * v[c] + v[a] * x[c]);
}

/* The diagonal d and subdiagonal e of the reduced A. */
LS_HD static inline void ls_speed_tridiag_result(const LsSpeedMatrix A, float d[LS_SPEED_NP],
                                                 float e[LS_SPEED_NP - 1])
{
    for (int i = 0; i < LS_SPEED_NP; i++)
        d[i] = A[i][i];
    for (int i = 0; i < LS_SPEED_NP - 1; i++)
        e[i] = A[i + 1][i];
}

/* Reduces A (symmetric, destroyed) to tridiagonal form: diagonal d, subdiagonal e. Step i
 * touches column i and the trailing block, which stays bitwise symmetric. */
LS_HD static inline void ls_speed_tridiagonalize(LsSpeedMatrix A, float d[LS_SPEED_NP],
                                                 float e[LS_SPEED_NP - 1])
{
    const int n = LS_SPEED_NP;
    float v[LS_SPEED_NP], x[LS_SPEED_NP];
    for (int i = 0; i < n - 2; i++) {
        const float tau = ls_speed_householder(A, i, i + 1);
        for (int j = i + 1; j < n; j++)
            v[j] = A[j][i];
        if (tau == 0.0f)
            continue;
        v[i + 1] = 1.0f;
        for (int a = i + 1; a < n; a++)
            x[a] = ls_speed_tridiag_x(A, v, tau, i, a);
        const float alpha = ls_speed_tridiag_alpha(x, v, tau, i);
        for (int a = i + 1; a < n; a++)
            x[a] = x[a] + alpha * v[a];
        for (int a = i + 1; a < n; a++)
            for (int c = i + 1; c < n; c++)
                A[a][c] = ls_speed_tridiag_entry(A[a][c], x, v, a, c);
    }
    ls_speed_tridiag_result(A, d, e);
}

/* Zeroes the subdiagonal entries that are negligible next to their diagonal neighbours. */
LS_HD static inline void ls_speed_chop(float *d, float *e, int m)
{
    for (int i = 0; i < m - 1; i++)
        if ((double)fabsf(e[i]) < LS_SPEED_EPS * (double)(fabsf(d[i]) + fabsf(d[i + 1])))
            e[i] = 0.0f;
}

/* Rotation (c, s) that zeroes b against a. */
LS_HD static inline void ls_speed_givens(float a, float b, float *c, float *s)
{
    if (b == 0.0f) {
        *c = 1.0f;
        *s = 0.0f;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float u = (float)(1.0 / sqrt((double)(1.0f + t * t)));
        *s = u;
        *c = u * t;
    } else {
        const float t = -b / a;
        const float u = (float)(1.0 / sqrt((double)(1.0f + t * t)));
        *c = u;
        *s = u * t;
    }
}

/* Wilkinson shift: the eigenvalue of the trailing 2x2 block closer to its last entry. */
LS_HD static inline float ls_speed_shift(const float *d, const float *e, int m)
{
    const float ta = d[m - 2], tb = d[m - 1], tab = e[m - 2];
    const float dt = (float)((double)(ta - tb) / 2.0);
    if (dt > 0.0f)
        return tb - tab * (tab / (dt + ls_speed_hyp(dt, tab)));
    if (dt == 0.0f)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + ls_speed_hyp(dt, tab)));
}

/* G' T G of the rotation (c, s) on the 2x2 block (ap, bp; bp, aq): new ap, bp, aq. */
#define LS_SPEED_ROT1(c, s, ap, bp, aq)                                                            \
    ((c) * ((c) * (ap) - (s) * (bp)) + (s) * ((s) * (aq) - (c) * (bp)))
#define LS_SPEED_ROT2(c, s, ap, bp, aq)                                                            \
    ((c) * ((s) * (ap) + (c) * (bp)) - (s) * ((s) * (bp) + (c) * (aq)))
#define LS_SPEED_ROT3(c, s, ap, bp, aq)                                                            \
    ((s) * ((s) * (ap) + (c) * (bp)) + (c) * ((s) * (bp) + (c) * (aq)))

/* One implicit symmetric QR step on the unreduced block d[0..m-1], e[0..m-2] (m >= 2). */
LS_HD static inline void ls_speed_qr_step(float *d, float *e, int m)
{
    float mu = ls_speed_shift(d, e, m);
    if (LS_SPEED_EPS * (double)fabsf(mu) > (double)(fabsf(d[0]) + fabsf(e[0])))
        mu = 0.0f;
    float x = d[0] - mu, z = e[0];
    float bk = 0.0f, zk = 0.0f, ap = d[0], bp = e[0], aq = d[1];
    if (m == 2) {
        float c, s;
        ls_speed_givens(x, z, &c, &s);
        const float ap1 = LS_SPEED_ROT1(c, s, ap, bp, aq);
        const float bp1 = LS_SPEED_ROT2(c, s, ap, bp, aq);
        const float aq1 = LS_SPEED_ROT3(c, s, ap, bp, aq);
        d[0] = ap1;
        e[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = e[1];
    for (int k = 0; k < m - 1; k++) {
        float c, s;
        ls_speed_givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = LS_SPEED_ROT1(c, s, ap, bp, aq);
        const float bp1 = LS_SPEED_ROT2(c, s, ap, bp, aq);
        const float zp1 = (-s) * bq;
        const float aq1 = LS_SPEED_ROT3(c, s, ap, bp, aq);
        const float bq1 = c * bq;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < m - 2)
            aq = d[k + 2];
        if (k < m - 3)
            bq = e[k + 2];
        d[k] = ap1;
        if (k > 0)
            e[k - 1] = bk1;
        if (k < m - 2)
            e[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[m - 1] = ap;
    e[m - 2] = bk;
}

/* The eigenvalues of the tridiagonal (d, e), both destroyed, by implicit QR, in the order they
 * end on the diagonal (never sorted). Returns false when LS_SPEED_MAX_QR_STEPS steps did not
 * converge (the reference warns and uses the diagonal as it is, as here). */
LS_HD static inline bool ls_speed_tridiagonal_eigenvalues(float d[LS_SPEED_NP],
                                                          float e[LS_SPEED_NP - 1],
                                                          float lambda[LS_SPEED_NP])
{
    ls_speed_chop(d, e, LS_SPEED_NP);
    int b = LS_SPEED_NP - 1, steps = 0;
    while (b > 0 && steps < LS_SPEED_MAX_QR_STEPS) {
        if (e[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && e[a - 1] != 0.0f)
            a--;
        ls_speed_qr_step(d + a, e + a, b - a + 1);
        ls_speed_chop(d + a, e + a, b - a + 1);
        steps++;
    }
    for (int i = 0; i < LS_SPEED_NP; i++)
        lambda[i] = d[i];
    return b == 0;
}

/* The eigenvalues of K (ls_speed_tridiagonal_eigenvalues); A is a copy of K and is destroyed. */
LS_HD static inline bool ls_speed_eigenvalues(LsSpeedMatrix A, float lambda[LS_SPEED_NP])
{
    float d[LS_SPEED_NP], e[LS_SPEED_NP - 1];
    ls_speed_tridiagonalize(A, d, e);
    return ls_speed_tridiagonal_eigenvalues(d, e, lambda);
}

/* Regular (§5.3): every eigenvalue at least LS_SPEED_EPS (NaN passes). */
LS_HD static inline bool ls_speed_eigen_regular(const float lambda[LS_SPEED_NP])
{
    for (int i = 0; i < LS_SPEED_NP; i++)
        if ((double)lambda[i] < LS_SPEED_EPS)
            return false;
    return true;
}

/* ---- the linear solve K X = Y (§5.3) ---- */

/* One step of a matrix product entry: out = out + p * q (float, k ascending from 0). */
LS_HD static inline float ls_speed_mul_step(float acc, float p, float q) { return acc + p * q; }

LS_HD static inline float ls_speed_norm(const float u[LS_SPEED_NP])
{
    float s = 0.0f;
    for (int a = 0; a < LS_SPEED_NP; a++)
        s = s + u[a] * u[a];
    return sqrtf(s);
}

/* Step k of the explicit Householder QR, entry by entry (a GPU twin runs the entries side by
 * side): Z is truncated to its trailing block (identity outside), u is the reflector's unit
 * vector from Z's column k (the sign from the original K's diagonal), H = I - 2 u u'. */
LS_HD static inline float ls_speed_truncated(float z, int a, int c, int k)
{
    return a < k || c < k ? (a == c ? 1.0f : 0.0f) : z;
}

/* u from the truncated Z. */
LS_HD static inline void ls_speed_reflector_vector(const LsSpeedMatrix Z, const LsSpeedMatrix K,
                                                   int k, float u[LS_SPEED_NP])
{
    for (int a = 0; a < LS_SPEED_NP; a++)
        u[a] = Z[a][k];
    const float nrm = ls_speed_norm(u);
    u[k] = u[k] + ls_speed_sgn(K[k][k]) * nrm;
    const float nrm2 = ls_speed_norm(u);
    for (int a = 0; a < LS_SPEED_NP; a++)
        u[a] = u[a] / nrm2;
}

LS_HD static inline float ls_speed_reflector_entry(const float u[LS_SPEED_NP], int a, int c)
{
    const float h = (-2.0f * u[a]) * u[c];
    return a == c ? h + 1.0f : h;
}

/* The whole step: truncates Z and forms H, which the caller applies as Z = H Z, Q = H Q. */
LS_HD static inline void ls_speed_reflector(LsSpeedMatrix Z, const LsSpeedMatrix K, int k,
                                            LsSpeedMatrix H)
{
    float u[LS_SPEED_NP];
    for (int a = 0; a < LS_SPEED_NP; a++)
        for (int c = 0; c < LS_SPEED_NP; c++)
            Z[a][c] = ls_speed_truncated(Z[a][c], a, c, k);
    ls_speed_reflector_vector(Z, K, k, u);
    for (int a = 0; a < LS_SPEED_NP; a++)
        for (int c = 0; c < LS_SPEED_NP; c++)
            H[a][c] = ls_speed_reflector_entry(u, a, c);
}

/* Regular for the back substitution: every pivot of Rm (its diagonal) at least LS_SPEED_EPS in
 * magnitude (NaN passes). */
LS_HD static inline bool ls_speed_pivots_regular(const LsSpeedMatrix Rm)
{
    for (int i = LS_SPEED_NP - 1; i >= 0; i--)
        if ((double)fabsf(Rm[i][i]) < LS_SPEED_EPS)
            return false;
    return true;
}

/* Row i of X for one block: x[k] (k > i) already solved, t = T[i] of that block. */
LS_HD static inline float ls_speed_back_substitute(const LsSpeedMatrix Rm, int i, float t,
                                                   const float *x, ptrdiff_t x_stride)
{
    for (int k = i + 1; k < LS_SPEED_NP; k++)
        t = t - x[k * x_stride] * Rm[i][k];
    return t / Rm[i][i];
}

/* One term of a block's variance: F(F(x y) / 25) (the block's V adds them p = 0..24 in order,
 * the first one being V's start value). */
LS_HD static inline float ls_speed_variance_term(float x, float y)
{
    return (x * y) / (float)LS_SPEED_NP;
}

/* Block b's variance from X and Y (25 rows `stride` floats apart); a singular residual's X is
 * all zero. */
LS_HD static inline float ls_speed_block_variance(const float *X, const float *Y, size_t stride,
                                                  unsigned b, bool singular)
{
    float v = ls_speed_variance_term(singular ? 0.0f : X[b], Y[b]);
    for (unsigned p = 1; p < LS_SPEED_NP; p++)
        v = v + ls_speed_variance_term(singular ? 0.0f : X[(size_t)p * stride + b],
                                       Y[(size_t)p * stride + b]);
    return v;
}

#ifndef __CUDACC__

#include "core/extractor.h"

/* ---- host: options, geometry, names ---- */

typedef struct LsSpeedChromaOptions {
    double speed_kernelscale;
    double speed_prescale;
    const char *speed_prescale_method;
    double speed_sigma_nn;
    double speed_nn_floor;
    double speed_max_val;
    int speed_weight_var_mode;
} LsSpeedChromaOptions;

typedef struct LsSpeedTemporalOptions {
    double speed_kernelscale;
    double speed_prescale;
    const char *speed_prescale_method;
    double speed_sigma_nn;
    double speed_nn_floor;
    double speed_max_val; /* renames only: the temporal score is never capped */
    bool speed_use_ref_diff;
} LsSpeedTemporalOptions;

extern const LsOption ls_speed_chroma_options[];
extern const LsOption ls_speed_temporal_options[];
extern const LsExtractor ls_fex_speed_chroma;
extern const LsExtractor ls_fex_speed_temporal;

/* What both extractors share once the options are checked (§2, §3, §4.2, §4.3). */
typedef struct LsSpeedParams {
    unsigned bpc;
    int n_antialias, n_mean;          /* filter widths */
    const float *antialias, *mean;    /* their taps */
    float sigma_nn, nn_floor;         /* (float) of the options */
    int mode;                         /* weight mode, 0..6 (speed_temporal: 0) */
    double prescale;
    enum LsFloatVifResampleMethod method;
} LsSpeedParams;

/* Sizes of one plane's pipeline (§3.1). */
typedef struct LsSpeedGeometry {
    unsigned w0, h0;   /* the plane */
    unsigned ws, hs;   /* working size (after prescaling) */
    unsigned wd, hd;   /* decimated */
    unsigned tw, th;   /* truncated to whole blocks */
    unsigned nbh, nbv, nb;
    unsigned sw, sh;   /* patch positions per axis */
    bool resample;
    LsFloatVifAxis axis_x, axis_y; /* resample only */
    /* bilinear resample: axis_x's indices and fractions as three arrays of ws (for vectors) */
    int32_t *bl_x1, *bl_x2;
    float *bl_dx;
} LsSpeedGeometry;

/* The working size of a plane for speed_prescale ps: (int)(n * ps + 0.5). */
static inline unsigned ls_speed_scaled(unsigned n, double ps)
{
    return (unsigned)(int)(n * ps + 0.5);
}

/* Checks bit depth and options (§2.3, §4.1) and fills the common parameters. `name` is the
 * extractor's, for the messages. */
int ls_speed_params_init(LsSpeedParams *p, const LsFex *fex, const char *name, unsigned bpc,
                         double kernelscale, double prescale, const char *method, double sigma_nn,
                         double nn_floor, int mode);
/* Plans one plane of w0 x h0 (§3, §4.3); refuses sizes SpEED is not defined for, naming the
 * size that works. `what` names the plane in messages ("chroma plane", "luma"); sub_x, sub_y:
 * the plane's subsampling shifts, for the frame size a chroma plane needs. */
int ls_speed_geometry_init(LsSpeedGeometry *g, const LsSpeedParams *p, const LsFex *fex,
                           const char *name, const char *what, unsigned w0, unsigned h0,
                           unsigned sub_x, unsigned sub_y);
void ls_speed_geometry_close(LsSpeedGeometry *g);

/* What each extractor and its GPU twin share once the options are checked: parameters, the
 * plane geometry and the output names (the refusals are the init functions'). */
typedef struct LsSpeedChromaState {
    LsSpeedParams params;
    LsSpeedGeometry geom; /* of one chroma plane */
    char names[3][256];   /* u, v, uv */
} LsSpeedChromaState;

typedef struct LsSpeedTemporalState {
    LsSpeedParams params;
    LsSpeedGeometry geom; /* of the luma plane */
    char name[256];
} LsSpeedTemporalState;

int ls_speed_chroma_state_init(LsSpeedChromaState *s, const LsSpeedChromaOptions *o,
                               const LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc,
                               unsigned w, unsigned h);
int ls_speed_temporal_state_init(LsSpeedTemporalState *s, const LsSpeedTemporalOptions *o,
                                 const LsFex *fex, unsigned bpc, unsigned w, unsigned h);
/* speed_chroma's three outputs of a frame from the U and V plane scores and error flags. */
int ls_speed_chroma_write(const LsSpeedChromaState *s, double max_val, const float score[2],
                          const bool err[2], unsigned index, LsCollector *fc);

/* ---- host: scores (§5.5, §6, §7); glibc's log2 ---- */

/* The statistics of one residual: eigenvalues, and per block the variance and entropy. */
typedef struct LsSpeedStats {
    float lambda[LS_SPEED_NP];
    bool singular;
    float *var, *ent; /* nb each */
} LsSpeedStats;

/* E[b] from the eigenvalues and the block's variance. */
static inline float ls_speed_entropy(const float lambda[LS_SPEED_NP], float v, float sn)
{
    float e = 0.0f;
    for (int k = 0; k < LS_SPEED_NP; k++) {
        const float l = lambda[k] < 0.0f ? 0.0f : lambda[k];
        e = (float)((double)e + (log2((double)(l * v + sn)) + LS_SPEED_LOG2_2PIE));
    }
    return e;
}

/* The plane score of a reference/distorted pair of statistics (§6). */
float ls_speed_plane_score(const LsSpeedStats *r, const LsSpeedStats *d, unsigned nb, int mode,
                           float sigma_nn, float nn_floor);

/* speed_chroma's U/V combination (§7). */
static inline float ls_speed_uv(float s_u, bool err_u, float s_v, bool err_v)
{
    if (err_u && !err_v)
        return s_v;
    if (err_v && !err_u)
        return s_u;
    return (float)((double)(s_u + s_v) / 2.0);
}

static inline double ls_speed_cap(float s, double max_val)
{
    return (double)s < max_val ? (double)s : max_val;
}

/* ---- DSP units: C references in speed_dsp.c; AVX2 and AVX-512 in x86/speed_avx2.c and
 * x86/speed_avx512.c. Each output is formed exactly as above; variants only choose which
 * outputs run side by side. ---- */

/* The 25 float means and the 25x25 covariance of the residual R (rows `stride` floats apart)
 * over sw x sh patch positions (§5.1). tmp: ls_speed_cov_tmp_size(sw, sh) bytes. R must be
 * readable LS_SPEED_R_SLACK floats past its last sample (the vectors read whole rows of 8). */
#define LS_SPEED_R_SLACK 8
typedef void (*LsSpeedCovarianceFn)(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                                    LsSpeedMatrix K, void *tmp);
/* out = P Q for the 25x25 P and the 25 x m Q (rows q_stride floats apart; out likewise, may not
 * alias Q). Rows of Q and out are read and written up to m rounded up to 16. */
typedef void (*LsSpeedMulFn)(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride, unsigned m,
                             float *out, ptrdiff_t out_stride);

static inline size_t ls_speed_cov_tmp_size(unsigned sw, unsigned sh)
{
    (void)sh;
    /* one row of positions at a time: its 25 samples (floats) and deviations (doubles) per
     * position, padded to LS_SPEED_LD, and the 25 rows of accumulators; 64-byte aligned */
    return (size_t)sw * LS_SPEED_LD * (sizeof(float) + sizeof(double)) +
           (size_t)LS_SPEED_NP * LS_SPEED_LD * sizeof(double) + 3 * 64;
}

static inline unsigned ls_speed_pad16(unsigned m) { return (m + 15) & ~15u; }

/* One bilinearly resampled row (float_vif's resampler, ls_motion_bilinear_sample per output):
 * out[x] from r1[x1[x]], r1[x2[x]], r2[x1[x]], r2[x2[x]] with the fractions dx[x] and dy. */
typedef void (*LsSpeedBilinearRowFn)(const int32_t *x1, const int32_t *x2, const float *dx,
                                     unsigned n, const float *r1, const float *r2, float dy,
                                     float *out);

typedef struct LsSpeedDsp {
    LsSpeedCovarianceFn covariance;
    LsSpeedMulFn mul;
    LsSpeedBilinearRowFn bilinear_row;
} LsSpeedDsp;

void ls_speed_dsp_init(LsSpeedDsp *dsp, uint64_t cpu_flags);

void ls_speed_covariance_avx2(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                              LsSpeedMatrix K, void *tmp);
void ls_speed_mul_avx2(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride, unsigned m,
                       float *out, ptrdiff_t out_stride);
void ls_speed_bilinear_row_avx2(const int32_t *x1, const int32_t *x2, const float *dx, unsigned n,
                                const float *r1, const float *r2, float dy, float *out);
void ls_speed_bilinear_row_avx512(const int32_t *x1, const int32_t *x2, const float *dx,
                                  unsigned n, const float *r1, const float *r2, float dy,
                                  float *out);
void ls_speed_covariance_avx512(const float *R, ptrdiff_t stride, unsigned sw, unsigned sh,
                                LsSpeedMatrix K, void *tmp);
void ls_speed_mul_avx512(const LsSpeedMatrix P, const float *Q, ptrdiff_t q_stride, unsigned m,
                         float *out, ptrdiff_t out_stride);

/* ---- one residual, start to end (speed.c) ---- */

/* Statistics of the decimated residual R (wd x hd, rows wd floats apart). `Y` gets the
 * geometry's block matrix. scratch: ls_speed_stats_scratch_size(g) bytes. */
void ls_speed_residual_stats(const LsSpeedDsp *dsp, const LsSpeedGeometry *g, const float *R,
                             float sn, LsSpeedStats *st, void *scratch);
size_t ls_speed_stats_scratch_size(const LsSpeedGeometry *g);

#endif /* !__CUDACC__ */

#endif
