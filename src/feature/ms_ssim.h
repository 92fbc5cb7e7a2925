/* MS-SSIM (`float_ms_ssim`): what the CPU extractor and a future GPU twin share. The pyramid's
 * 9x9 decimation (LS_HD, valid C and CUDA), the size rules, the host-side combination of the
 * five scales and the DSP unit of the CPU path. The per-scale statistics are float_ssim's
 * (feature/ssim.h, decimation factor 1). Spec: shared/spec/features/ms_ssim.md,
 * tables/ms_ssim.json. */
#ifndef LOCKSTEP_FEATURE_MS_SSIM_H
#define LOCKSTEP_FEATURE_MS_SSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/portable.h"
#include "feature/ssim.h" /* the per-scale statistics, ls_float_ssim_mirror */

#define LS_MS_SSIM_SCALES 5
#define LS_MS_SSIM_DECIMATE_TAPS 9
/* 176x176: the smallest frame whose five floor-halved sizes all hold the 11x11 window (§4.1) */
#define LS_MS_SSIM_MIN_SIZE 176

typedef struct LsMsSsimOptions {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
} LsMsSsimOptions;

/* The 9x9 low-pass kernel of the pyramid as binary32 (tables/ms_ssim.json
 * decimation_lowpass_2d.float32_hex): given entries, not an outer product, used as a full 2-D
 * kernel; it sums to 1.00000504 and is not normalised. [v + 4][u + 4], v = row offset. */
#define LS_MS_SSIM_K_ROW0                                                                         \
    { 0x1.765776p-11f, -0x1.d7dbf4p-12f, -0x1.11f0c4p-9f, 0x1.d3671ap-8f, 0x1.080304p-6f,         \
      0x1.d3671ap-8f, -0x1.11f0c4p-9f, -0x1.d7dbf4p-12f, 0x1.765776p-11f }
#define LS_MS_SSIM_K_ROW1                                                                         \
    { -0x1.d7dbf4p-12f, 0x1.28bf3cp-12f, 0x1.58fb44p-10f, -0x1.2641b4p-8f, -0x1.4c76d2p-7f,       \
      -0x1.2641b4p-8f, 0x1.58fb44p-10f, 0x1.28bf3cp-12f, -0x1.d7dbf4p-12f }
#define LS_MS_SSIM_K_ROW2                                                                         \
    { -0x1.11f0c4p-9f, 0x1.58fb44p-10f, 0x1.90c0aep-8f, -0x1.55e28ap-6f, -0x1.823e9ep-5f,         \
      -0x1.55e28ap-6f, 0x1.90c0aep-8f, 0x1.58fb44p-10f, -0x1.11f0c4p-9f }
#define LS_MS_SSIM_K_ROW3                                                                         \
    { 0x1.d3671ap-8f, -0x1.2641b4p-8f, -0x1.55e28ap-6f, 0x1.23a9f4p-4f, 0x1.497e14p-3f,           \
      0x1.23a9f4p-4f, -0x1.55e28ap-6f, -0x1.2641b4p-8f, 0x1.d3671ap-8f }
#define LS_MS_SSIM_K_ROW4                                                                         \
    { 0x1.080304p-6f, -0x1.4c76d2p-7f, -0x1.823e9ep-5f, 0x1.497e14p-3f, 0x1.743aa8p-2f,           \
      0x1.497e14p-3f, -0x1.823e9ep-5f, -0x1.4c76d2p-7f, 0x1.080304p-6f }

LS_CONSTANT float ls_ms_ssim_lowpass[LS_MS_SSIM_DECIMATE_TAPS][LS_MS_SSIM_DECIMATE_TAPS] = {
    LS_MS_SSIM_K_ROW0, LS_MS_SSIM_K_ROW1, LS_MS_SSIM_K_ROW2, LS_MS_SSIM_K_ROW3, LS_MS_SSIM_K_ROW4,
    LS_MS_SSIM_K_ROW3, LS_MS_SSIM_K_ROW2, LS_MS_SSIM_K_ROW1, LS_MS_SSIM_K_ROW0,
};

/* pow's exponents per scale (tables/ms_ssim.json "exponents"), binary32, widened to double;
 * beta and gamma are equal. alpha is 0 for scales 0..3: pow(x, 0) = 1 even for NaN. */
#define LS_MS_SSIM_ALPHA_INIT { 0.0f, 0.0f, 0.0f, 0.0f, 0x1.10ff98p-3f }
#define LS_MS_SSIM_BETA_INIT                                                                      \
    { 0x1.6f0068p-5f, 0x1.247454p-2f, 0x1.334d6ap-2f, 0x1.e3f142p-3f, 0x1.10ff98p-3f }

/* Pyramid sizes halve with rounding up (§4.2); the size check halves with rounding down. */
LS_HD static inline unsigned ls_ms_ssim_next_size(unsigned size)
{
    return size / 2 + (size & 1);
}

/* §4.1: every floor-halved size of the five levels is at least 11, i.e. both sides >= 176. */
static inline bool ls_ms_ssim_size_ok(unsigned w, unsigned h)
{
    for (int s = 0; s < LS_MS_SSIM_SCALES; s++, w /= 2, h /= 2)
        if (w < 11 || h < 11)
            return false;
    return true;
}

/* One decimated sample (§4.3) centred on input column x: rows[v] is the input row
 * ls_float_ssim_mirror(y + v - 4, h), readable at columns x-4 .. x+4 (the row ends padded with
 * ls_float_ssim_mirror: half-sample symmetric, only the outer four taps leave the level). 81 float
 * products added in double, rows outer, columns inner, the sum rounded to float. */
LS_HD static inline float
ls_ms_ssim_decimate_sample(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS], int x)
{
    double acc = 0.0;
    for (int v = 0; v < LS_MS_SSIM_DECIMATE_TAPS; v++)
        for (int u = 0; u < LS_MS_SSIM_DECIMATE_TAPS; u++)
            acc += (double)(rows[v][x + u - 4] * ls_ms_ssim_lowpass[v][u]);
    return (float)acc;
}

#ifndef __CUDACC__

#include "core/extractor.h"

extern const LsOption ls_ms_ssim_options[];
extern const LsExtractor ls_fex_float_ms_ssim;

/* ---- host scalars shared by the CPU extractor and its twins ---- */

/* §6: the product over the five scales of l^alpha * c^beta * s^gamma (glibc pow on the binary32
 * means widened to double). NaN where a mean is negative; returns false where the product
 * reaches +inf (the reference fails the frame there). */
bool ls_ms_ssim_combine(const float l[LS_MS_SSIM_SCALES], const float c[LS_MS_SSIM_SCALES],
                        const float s[LS_MS_SSIM_SCALES], double *ms);

/* ---- DSP unit of the CPU path (C reference in ms_ssim_dsp.c, SIMD in x86/) ---- */

/* One output row of the decimation: out[X] = ls_ms_ssim_decimate_sample(rows, 2X) for
 * X < w_out. rows[v][-4 .. 2*w_out+3] must be readable: an input row of w_in samples (w_out =
 * ceil(w_in / 2)) padded with 4 mirrored samples on the left and 5 on the right. */
typedef void (*LsMsSsimDecimateFn)(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS],
                                   unsigned w_out, float *out);

typedef struct LsMsSsimDsp {
    LsMsSsimDecimateFn decimate;
} LsMsSsimDsp;

void ls_ms_ssim_dsp_init(LsMsSsimDsp *dsp, uint64_t cpu_flags);

void ls_ms_ssim_decimate_avx2(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS], unsigned w_out,
                              float *out);
void ls_ms_ssim_decimate_avx512(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS],
                                unsigned w_out, float *out);

#endif /* !__CUDACC__ */

#endif
