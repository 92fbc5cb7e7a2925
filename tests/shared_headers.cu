// The headers a future GPU twin of float_ms_ssim and ciede will include: they must compile under
// nvcc with the project's CUDA flags (LS_HD functions, LS_CONSTANT tables). Compile-only.
#include "feature/ciede.h"
#include "feature/ms_ssim.h"

extern "C" __global__ void ls_shared_headers_check(const float *rows0, float *out, LsLab *lab)
{
    const float *rows[LS_MS_SSIM_DECIMATE_TAPS];
    for (int v = 0; v < LS_MS_SSIM_DECIMATE_TAPS; v++)
        rows[v] = rows0 + 4 + 32 * v;
    out[0] = ls_ms_ssim_decimate_sample(rows, 2);
    out[1] = (float)ls_ms_ssim_next_size(threadIdx.x);
    lab[0] = ls_ciede_lab(100u, 120u, 130u, 4.0);
    out[2] = ls_ciede_delta_e(lab[0], lab[1]);
    out[3] = ls_ciede_t(out[2]) + ls_ciede_rotation(out[1], out[0]);
}
