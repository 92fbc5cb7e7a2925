/* C reference of the MS-SSIM DSP unit. The decimation's double sums are order-sensitive: a SIMD
 * variant vectorises across outputs, never across the 81 taps of one sum, and must match this bit
 * for bit (tests/test_ms_ssim.c). */
#include <stdint.h>

#include "core/cpu.h"
#include "feature/ms_ssim.h"

static void decimate_c(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS], unsigned w_out,
                       float *out)
{
    for (unsigned x = 0; x < w_out; x++)
        out[x] = ls_ms_ssim_decimate_sample(rows, 2 * (int)x);
}

void ls_ms_ssim_dsp_init(LsMsSsimDsp *dsp, uint64_t cpu_flags)
{
    dsp->decimate = decimate_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->decimate = ls_ms_ssim_decimate_avx2;
    if (!(cpu_flags & LS_CPU_FLAG_AVX512))
        return;
    dsp->decimate = ls_ms_ssim_decimate_avx512;
#else
    (void)cpu_flags;
#endif
}
