// feature/speed.h builds as CUDA device code: the 25x25 statistics a future speed_chroma twin
// runs per residual (eigenvalues, the Householder QR solve, variances). Compile-only.
#include "feature/speed.h"

extern "C" __global__ void ls_speed_header_check(const float *K0, const float *Y, float *out)
{
    LsSpeedMatrix A, K, Z, H;
    for (int a = 0; a < LS_SPEED_NP; a++)
        for (int c = 0; c < LS_SPEED_NP; c++)
            A[a][c] = K[a][c] = Z[a][c] = K0[a * LS_SPEED_NP + c];
    float lambda[LS_SPEED_NP];
    const bool converged = ls_speed_eigenvalues(A, lambda);
    ls_speed_reflector(Z, K, (int)threadIdx.x % 24, H);
    float acc = 0.0f;
    for (int k = 0; k < LS_SPEED_NP; k++)
        acc = ls_speed_mul_step(acc, H[0][k], Z[k][1]);
    out[0] = acc + (converged && ls_speed_eigen_regular(lambda) && ls_speed_pivots_regular(H));
    out[1] = ls_speed_back_substitute(H, 3, Y[0], Y + 1, 1) + ls_speed_variance_term(Y[2], Y[3]);
    out[2] = (float)ls_speed_cov_step(0.0, ls_speed_deviation(Y[0], Y[1]), Y[2]) +
             ls_speed_antialias_taps[LS_SPEED_ANTIALIAS_OFFSET(ls_speed_antialias_width(1.0f))] +
             (float)ls_speed_mean_width(2.0f);
}
