/* AVX2 variant of the MS-SSIM decimation. Each lane runs one output's 81-term sum with the C
 * reference's operations in its order (float product, widen, double add; rows outer, columns
 * inner), so the vector code is the reference evaluated for eight outputs at once. The stride-2
 * input columns are first split into even and odd columns of each row, so that every tap of
 * eight neighbouring outputs is one contiguous load. No FMA: built with -mavx2 only. */
#include <immintrin.h>
#include <stdint.h>

#include "feature/ms_ssim.h"

enum { NTAPS = LS_MS_SSIM_DECIMATE_TAPS, GROUPS = 4, CHUNK = 8 * GROUPS };

/* even[k] = row[2k], odd[k] = row[2k + 1] for k < n (n a multiple of 8). */
static inline void split_columns(const float *row, unsigned n, float *even, float *odd)
{
    for (unsigned k = 0; k < n; k += 8) {
        const __m256 a = _mm256_loadu_ps(row + 2 * k), b = _mm256_loadu_ps(row + 2 * k + 8);
        const __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 o = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        _mm256_storeu_ps(even + k, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e),
                                                                          0xd8)));
        _mm256_storeu_ps(odd + k, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o),
                                                                         0xd8)));
    }
}

/* 8 * groups outputs from X = x0 on: tap t of output x0 + j reads input column 2(x0 + j) + t - 4,
 * i.e. even[j + t/2] (t even) or odd[j + t/2] (t odd) of the columns split from 2*x0 - 4 on. */
static inline void decimate_chunk(const float *const rows[NTAPS], unsigned x0, unsigned groups,
                                  float *out)
{
    float even[NTAPS][CHUNK + 8], odd[NTAPS][CHUNK + 8];
    const unsigned n = 8 * groups + 8; /* columns 2*x0-4 .. 2*x0+16*groups+11 */
    for (int v = 0; v < NTAPS; v++)
        split_columns(rows[v] + 2 * (int)x0 - 4, n, even[v], odd[v]);
    __m256d acc[GROUPS][2];
    for (unsigned g = 0; g < groups; g++)
        acc[g][0] = acc[g][1] = _mm256_setzero_pd();
    for (int v = 0; v < NTAPS; v++) {
        for (int t = 0; t < NTAPS; t++) {
            const __m256 k = _mm256_set1_ps(ls_ms_ssim_lowpass[v][t]);
            const float *src = (t & 1 ? odd[v] : even[v]) + t / 2;
            for (unsigned g = 0; g < groups; g++) {
                const __m256 prod = _mm256_mul_ps(_mm256_loadu_ps(src + 8 * g), k);
                const __m128 lo = _mm256_castps256_ps128(prod), hi = _mm256_extractf128_ps(prod, 1);
                acc[g][0] = _mm256_add_pd(acc[g][0], _mm256_cvtps_pd(lo));
                acc[g][1] = _mm256_add_pd(acc[g][1], _mm256_cvtps_pd(hi));
            }
        }
    }
    for (unsigned g = 0; g < groups; g++)
        _mm256_storeu_ps(out + x0 + 8 * g, _mm256_set_m128(_mm256_cvtpd_ps(acc[g][1]),
                                                           _mm256_cvtpd_ps(acc[g][0])));
}

void ls_ms_ssim_decimate_avx2(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS], unsigned w_out,
                              float *out)
{
    /* a chunk of m outputs from x0 reads input columns up to 2*x0 + 2*m + 11; the contract
     * allows 2*w_out + 3, so a chunk ends at least four outputs before the row does */
    unsigned x = 0;
    for (; x + CHUNK + 4 <= w_out; x += CHUNK)
        decimate_chunk(rows, x, GROUPS, out);
    for (; x + 8 + 4 <= w_out; x += 8)
        decimate_chunk(rows, x, 1, out);
    for (; x < w_out; x++)
        out[x] = ls_ms_ssim_decimate_sample(rows, 2 * (int)x);
}
