/* AVX2 variant of the psnr_hvs plane-sum unit. Each of the 8 lanes carries one block of 8
 * neighbouring blocks of a block row, so every per-block step (float statistics, DCT, masking
 * energy, threshold, terms) runs lane-wise in exactly the reference's order and arithmetic; only
 * the plane sum stays a scalar chain, fed in block raster order. Compiled with -mavx2 and no
 * -mfma: the multiply-adds below are separate roundings, as in the reference. */
#include <immintrin.h>
#include <stdint.h>

#include "core/cpu.h"
#include "feature/psnr_hvs.h"
#include "feature/psnr_hvs_block.h"

#define LANES 8

/* Row i of the lanes' blocks, transposed so that b[8 * i + j] holds sample j of every lane: the
 * 8 samples of each block row are loaded whole (they lie inside the plane) and transposed. */
static inline void load_blocks(__m256i b[64], const uint8_t *plane, ptrdiff_t stride, int y,
                               const int x[LANES], int bytes_per_sample)
{
    for (int i = 0; i < 8; i++) {
        const uint8_t *row = plane + (ptrdiff_t)(y + i) * stride;
        __m128i q[LANES];
        if (bytes_per_sample == 1) {
            for (int l = 0; l < LANES; l++)
                q[l] = _mm_loadl_epi64((const __m128i *)(row + x[l]));
            /* 8x8 bytes: after three unpack levels t[j / 2] holds sample j of lanes 0..7 in its
             * low (j even) or high (j odd) 8 bytes */
            const __m128i a0 = _mm_unpacklo_epi8(q[0], q[1]), a1 = _mm_unpacklo_epi8(q[2], q[3]);
            const __m128i a2 = _mm_unpacklo_epi8(q[4], q[5]), a3 = _mm_unpacklo_epi8(q[6], q[7]);
            const __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
            const __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
            const __m128i t[4] = { _mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2),
                                   _mm_unpacklo_epi32(b1, b3), _mm_unpackhi_epi32(b1, b3) };
            for (int k = 0; k < 4; k++) {
                b[8 * i + 2 * k] = _mm256_cvtepu8_epi32(t[k]);
                b[8 * i + 2 * k + 1] = _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(t[k], t[k]));
            }
        } else {
            for (int l = 0; l < LANES; l++)
                q[l] = _mm_loadu_si128((const __m128i *)(row + 2 * x[l]));
            const __m128i a0 = _mm_unpacklo_epi16(q[0], q[1]), a1 = _mm_unpackhi_epi16(q[0], q[1]);
            const __m128i a2 = _mm_unpacklo_epi16(q[2], q[3]), a3 = _mm_unpackhi_epi16(q[2], q[3]);
            const __m128i a4 = _mm_unpacklo_epi16(q[4], q[5]), a5 = _mm_unpackhi_epi16(q[4], q[5]);
            const __m128i a6 = _mm_unpacklo_epi16(q[6], q[7]), a7 = _mm_unpackhi_epi16(q[6], q[7]);
            /* a0: samples 0-3 of lanes 0,1 interleaved; a1: samples 4-7 of lanes 0,1; ... */
            const __m128i c0 = _mm_unpacklo_epi32(a0, a2), c1 = _mm_unpackhi_epi32(a0, a2);
            const __m128i c2 = _mm_unpacklo_epi32(a4, a6), c3 = _mm_unpackhi_epi32(a4, a6);
            const __m128i c4 = _mm_unpacklo_epi32(a1, a3), c5 = _mm_unpackhi_epi32(a1, a3);
            const __m128i c6 = _mm_unpacklo_epi32(a5, a7), c7 = _mm_unpackhi_epi32(a5, a7);
            /* c0: samples 0,1 of lanes 0-3; c2: samples 0,1 of lanes 4-7; c1/c3: samples 2,3 */
            const __m128i t[8] = { _mm_unpacklo_epi64(c0, c2), _mm_unpackhi_epi64(c0, c2),
                                   _mm_unpacklo_epi64(c1, c3), _mm_unpackhi_epi64(c1, c3),
                                   _mm_unpacklo_epi64(c4, c6), _mm_unpackhi_epi64(c4, c6),
                                   _mm_unpacklo_epi64(c5, c7), _mm_unpackhi_epi64(c5, c7) };
            for (int j = 0; j < 8; j++)
                b[8 * i + j] = _mm256_cvtepu16_epi32(t[j]);
        }
    }
}

/* ls_psnr_hvs_variance_ratio(), lane-wise. The sums of samples are integers below 2^24, so the
 * integer sums equal the reference's float sums; the variance sums keep the row-major order. */
static inline __m256 variance_ratio(const __m256i b[64])
{
    __m256i gsum = _mm256_setzero_si256();
    __m256i qsum[4] = { gsum, gsum, gsum, gsum };
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
            qsum[q] = _mm256_add_epi32(qsum[q], b[8 * i + j]);
        }
    }
    gsum = _mm256_add_epi32(_mm256_add_epi32(qsum[0], qsum[1]), _mm256_add_epi32(qsum[2], qsum[3]));
    const __m256 gmean = _mm256_div_ps(_mm256_cvtepi32_ps(gsum), _mm256_set1_ps(64.0f));
    __m256 mean[4], var[4];
    for (int q = 0; q < 4; q++) {
        mean[q] = _mm256_div_ps(_mm256_cvtepi32_ps(qsum[q]), _mm256_set1_ps(16.0f));
        var[q] = _mm256_setzero_ps();
    }
    __m256 gvar = _mm256_setzero_ps();
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0);
            const __m256 f = _mm256_cvtepi32_ps(b[8 * i + j]);
            const __m256 a = _mm256_sub_ps(f, gmean);
            const __m256 c = _mm256_sub_ps(f, mean[q]);
            gvar = _mm256_add_ps(gvar, _mm256_mul_ps(a, a));
            var[q] = _mm256_add_ps(var[q], _mm256_mul_ps(c, c));
        }
    }
    gvar = _mm256_mul_ps(gvar, _mm256_set1_ps(LS_PSNR_HVS_F63));
    for (int q = 0; q < 4; q++)
        var[q] = _mm256_mul_ps(var[q], _mm256_set1_ps(LS_PSNR_HVS_F15));
    const __m256 num = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(var[0], var[1]), var[2]), var[3]);
    const __m256 positive = _mm256_cmp_ps(gvar, _mm256_setzero_ps(), _CMP_GT_OQ);
    return _mm256_blendv_ps(gvar, _mm256_div_ps(num, gvar), positive);
}

static inline __m256i half(__m256i v)
{
    return _mm256_srai_epi32(_mm256_add_epi32(v, _mm256_srli_epi32(v, 31)), 1);
}

#define ROUND_MUL(v, c, s)                                                                         \
    _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32((v), _mm256_set1_epi32(c)),              \
                                       _mm256_set1_epi32(1 << ((s) - 1))),                         \
                      (s))

/* ls_psnr_hvs_fdct8(), lane-wise */
static inline void fdct8(__m256i y[8], const __m256i *x, int xstride)
{
    __m256i t0 = x[0 * xstride], t4 = x[1 * xstride], t2 = x[2 * xstride], t6 = x[3 * xstride];
    __m256i t7 = x[4 * xstride], t3 = x[5 * xstride], t5 = x[6 * xstride], t1 = x[7 * xstride];
    __m256i h1, h4, h6;
    t1 = _mm256_sub_epi32(t0, t1);
    h1 = half(t1);
    t0 = _mm256_sub_epi32(t0, h1);
    t4 = _mm256_add_epi32(t4, t5);
    h4 = half(t4);
    t5 = _mm256_sub_epi32(t5, h4);
    t3 = _mm256_sub_epi32(t2, t3);
    t2 = _mm256_sub_epi32(t2, half(t3));
    t6 = _mm256_add_epi32(t6, t7);
    h6 = half(t6);
    t7 = _mm256_sub_epi32(h6, t7);
    t0 = _mm256_add_epi32(t0, h6);
    t6 = _mm256_sub_epi32(t0, t6);
    t2 = _mm256_sub_epi32(h4, t2);
    t4 = _mm256_sub_epi32(t2, t4);
    t0 = _mm256_sub_epi32(t0, ROUND_MUL(t4, 13573, 15));
    t4 = _mm256_add_epi32(t4, ROUND_MUL(t0, 11585, 14));
    t0 = _mm256_sub_epi32(t0, ROUND_MUL(t4, 13573, 15));
    t6 = _mm256_sub_epi32(t6, ROUND_MUL(t2, 21895, 15));
    t2 = _mm256_add_epi32(t2, ROUND_MUL(t6, 15137, 14));
    t6 = _mm256_sub_epi32(t6, ROUND_MUL(t2, 21895, 15));
    t3 = _mm256_add_epi32(t3, ROUND_MUL(t5, 19195, 15));
    t5 = _mm256_add_epi32(t5, ROUND_MUL(t3, 11585, 14));
    t3 = _mm256_sub_epi32(t3, ROUND_MUL(t5, 7489, 13));
    t7 = _mm256_sub_epi32(half(t5), t7);
    t5 = _mm256_sub_epi32(t5, t7);
    t3 = _mm256_sub_epi32(h1, t3);
    t1 = _mm256_sub_epi32(t1, t3);
    t7 = _mm256_add_epi32(t7, ROUND_MUL(t1, 3227, 15));
    t1 = _mm256_sub_epi32(t1, ROUND_MUL(t7, 6393, 15));
    t7 = _mm256_add_epi32(t7, ROUND_MUL(t1, 3227, 15));
    t5 = _mm256_add_epi32(t5, ROUND_MUL(t3, 2485, 13));
    t3 = _mm256_sub_epi32(t3, ROUND_MUL(t5, 18205, 15));
    t5 = _mm256_add_epi32(t5, ROUND_MUL(t3, 2485, 13));
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

static inline void fdct8x8(__m256i c[64], const __m256i b[64])
{
    __m256i z[64];
    for (int k = 0; k < 8; k++)
        fdct8(z + 8 * k, b + k, 8);
    for (int k = 0; k < 8; k++)
        fdct8(c + 8 * k, z + k, 8);
}

static inline __m256 mask_energy(const __m256i c[64], int plane)
{
    __m256 e = _mm256_setzero_ps();
    for (int k = 1; k < 64; k++) {
        const __m256 p = _mm256_cvtepi32_ps(_mm256_mullo_epi32(c[k], c[k]));
        e = _mm256_add_ps(e, _mm256_mul_ps(p, _mm256_set1_ps(ls_psnr_hvs_mask[plane][k])));
    }
    return e;
}

/* ls_psnr_hvs_threshold_fp64(), lane-wise: exact double product, double sqrt, /32, to float */
static inline __m128 threshold_half(__m128 e, __m128 r)
{
    const __m256d p = _mm256_mul_pd(_mm256_cvtps_pd(e), _mm256_cvtps_pd(r));
    return _mm256_cvtpd_ps(_mm256_div_pd(_mm256_sqrt_pd(p), _mm256_set1_pd(32.0)));
}

static inline __m256 threshold(__m256 e, __m256 r)
{
    const __m128 lo = threshold_half(_mm256_castps256_ps128(e), _mm256_castps256_ps128(r));
    const __m128 hi = threshold_half(_mm256_extractf128_ps(e, 1), _mm256_extractf128_ps(r, 1));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

static inline float plane_sum_avx2(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                   ptrdiff_t dis_stride, unsigned w, unsigned h, int plane,
                                   int bytes_per_sample)
{
    const int nbx = (int)ls_psnr_hvs_blocks(w), nby = (int)ls_psnr_hvs_blocks(h);
    float sum = 0.0f;
    __m256i s[64], d[64], cs[64], cd[64];
    float terms[64][LANES];
    for (int by = 0; by < nby; by++) {
        const int y = 7 * by;
        for (int bx0 = 0; bx0 < nbx; bx0 += LANES) {
            /* lanes past the last block repeat it; their terms are not summed */
            const int valid = nbx - bx0 < LANES ? nbx - bx0 : LANES;
            int x[LANES];
            for (int l = 0; l < LANES; l++)
                x[l] = 7 * (l < valid ? bx0 + l : nbx - 1);
            load_blocks(s, ref, ref_stride, y, x, bytes_per_sample);
            load_blocks(d, dis, dis_stride, y, x, bytes_per_sample);
            const __m256 ratio_s = variance_ratio(s);
            const __m256 ratio_d = variance_ratio(d);
            fdct8x8(cs, s);
            fdct8x8(cd, d);
            const __m256 t_s = threshold(mask_energy(cs, plane), ratio_s);
            const __m256 t_d = threshold(mask_energy(cd, plane), ratio_d);
            const __m256 t = _mm256_max_ps(t_d, t_s); /* t_d > t_s ? t_d : t_s */
            uint8_t nonzero[64]; /* bit l of nonzero[k]: term k of lane l is not 0 */
            for (int k = 0; k < 64; k++) {
                __m256 err = _mm256_cvtepi32_ps(_mm256_abs_epi32(_mm256_sub_epi32(cs[k], cd[k])));
                if (k != 0) {
                    const __m256 thr = _mm256_div_ps(t, _mm256_set1_ps(ls_psnr_hvs_mask[plane][k]));
                    const __m256 below = _mm256_cmp_ps(err, thr, _CMP_LT_OQ);
                    err = _mm256_andnot_ps(below, _mm256_sub_ps(err, thr));
                }
                const __m256 wt = _mm256_mul_ps(err, _mm256_set1_ps(ls_psnr_hvs_csf[plane][k]));
                const __m256 term = _mm256_mul_ps(wt, wt);
                _mm256_storeu_ps(terms[k], term);
                nonzero[k] = (uint8_t)_mm256_movemask_ps(
                    _mm256_cmp_ps(term, _mm256_setzero_ps(), _CMP_NEQ_OQ));
            }
            /* The plane sum in the reference's order, leaving out the terms that are +0: adding
             * +0 to a sum of non-negative terms leaves it unchanged, and most terms of real
             * content are masked to 0, so this shortens the one serial chain of the unit. */
            const __m256i nz_lo = _mm256_loadu_si256((const __m256i *)nonzero);
            const __m256i nz_hi = _mm256_loadu_si256((const __m256i *)(nonzero + 32));
            for (int l = 0; l < valid; l++) {
                /* lane l's bit to the top of each byte, then one bit per k */
                const __m128i shift = _mm_cvtsi32_si128(7 - l);
                const uint32_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(nz_lo, shift));
                const uint32_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(nz_hi, shift));
                uint64_t ks = (uint64_t)hi << 32 | lo;
                while (ks) {
                    sum += terms[__builtin_ctzll(ks)][l];
                    ks &= ks - 1;
                }
            }
        }
    }
    return sum;
}

static float plane_sum_8bit_avx2(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                 ptrdiff_t dis_stride, unsigned w, unsigned h, int plane)
{
    return plane_sum_avx2(ref, ref_stride, dis, dis_stride, w, h, plane, 1);
}

static float plane_sum_16bit_avx2(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                  ptrdiff_t dis_stride, unsigned w, unsigned h, int plane)
{
    return plane_sum_avx2(ref, ref_stride, dis, dis_stride, w, h, plane, 2);
}

void ls_psnr_hvs_dsp_init_x86(LsPsnrHvsDsp *dsp, uint64_t cpu_flags)
{
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->plane_sum[0] = plane_sum_8bit_avx2;
    dsp->plane_sum[1] = plane_sum_16bit_avx2;
}
