/* AVX-512 variant of the MS-SSIM decimation: the AVX2 scheme (x86/ms_ssim_avx2.c) sixteen
 * outputs per vector. Each lane runs one output's 81-term sum in the C reference's order. */
#include <immintrin.h>
#include <stdint.h>

#include "feature/ms_ssim.h"

enum { NTAPS = LS_MS_SSIM_DECIMATE_TAPS, GROUPS = 4, CHUNK = 16 * GROUPS };

/* even[k] = row[2k], odd[k] = row[2k + 1] for k < n (n a multiple of 16). */
static inline void split_columns(const float *row, unsigned n, float *even, float *odd)
{
    const __m512i idx_even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6,
                                              4, 2, 0);
    const __m512i idx_odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7,
                                             5, 3, 1);
    for (unsigned k = 0; k < n; k += 16) {
        const __m512 a = _mm512_loadu_ps(row + 2 * k), b = _mm512_loadu_ps(row + 2 * k + 16);
        _mm512_storeu_ps(even + k, _mm512_permutex2var_ps(a, idx_even, b));
        _mm512_storeu_ps(odd + k, _mm512_permutex2var_ps(a, idx_odd, b));
    }
}

/* 16 * groups outputs from x0 on; the column split as in the AVX2 variant. */
static inline void decimate_chunk(const float *const rows[NTAPS], unsigned x0, unsigned groups,
                                  float *out)
{
    float even[NTAPS][CHUNK + 16], odd[NTAPS][CHUNK + 16];
    const unsigned n = 16 * groups + 16; /* columns 2*x0-4 .. 2*x0+32*groups+27 */
    for (int v = 0; v < NTAPS; v++)
        split_columns(rows[v] + 2 * (int)x0 - 4, n, even[v], odd[v]);
    __m512d acc[GROUPS][2];
    for (unsigned g = 0; g < groups; g++)
        acc[g][0] = acc[g][1] = _mm512_setzero_pd();
    for (int v = 0; v < NTAPS; v++) {
        for (int t = 0; t < NTAPS; t++) {
            const __m512 k = _mm512_set1_ps(ls_ms_ssim_lowpass[v][t]);
            const float *src = (t & 1 ? odd[v] : even[v]) + t / 2;
            for (unsigned g = 0; g < groups; g++) {
                const __m512 prod = _mm512_mul_ps(_mm512_loadu_ps(src + 16 * g), k);
                acc[g][0] = _mm512_add_pd(acc[g][0], _mm512_cvtps_pd(_mm512_castps512_ps256(prod)));
                acc[g][1] = _mm512_add_pd(
                    acc[g][1], _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(
                                   _mm512_castps_pd(prod), 1))));
            }
        }
    }
    for (unsigned g = 0; g < groups; g++) {
        _mm256_storeu_ps(out + x0 + 16 * g, _mm512_cvtpd_ps(acc[g][0]));
        _mm256_storeu_ps(out + x0 + 16 * g + 8, _mm512_cvtpd_ps(acc[g][1]));
    }
}

void ls_ms_ssim_decimate_avx512(const float *const rows[LS_MS_SSIM_DECIMATE_TAPS],
                                unsigned w_out, float *out)
{
    /* a chunk of m outputs from x0 reads input columns up to 2*x0 + 2*m + 27; the contract
     * allows 2*w_out + 3, so a chunk ends at least twelve outputs before the row does */
    unsigned x = 0;
    for (; x + CHUNK + 12 <= w_out; x += CHUNK)
        decimate_chunk(rows, x, GROUPS, out);
    for (; x + 16 + 12 <= w_out; x += 16)
        decimate_chunk(rows, x, 1, out);
    if (x < w_out) { /* the rest eight at a time */
        const float *tail[NTAPS];
        for (int v = 0; v < NTAPS; v++)
            tail[v] = rows[v] + 2 * x;
        ls_ms_ssim_decimate_avx2(tail, w_out - x, out + x);
    }
}
