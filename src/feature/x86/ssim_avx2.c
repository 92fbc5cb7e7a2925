/* AVX2 variants of the SSIM DSP units. Each lane runs one output's sum with the scalar
 * reference's operations in the same order (float product, widen, double add per tap; double
 * quotients with float denominators per position), so the vector code is the reference evaluated
 * for several outputs at once. The per-position chains stay sequential. Integer ssim moments are
 * exact integers in any form (int32, double). No FMA: this file is built with -mavx2 only. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/x86/gather_avx2.h"
#include "feature/ssim.h"

static const float gaussian[LS_FLOAT_SSIM_TAPS] = LS_FLOAT_SSIM_GAUSSIAN_INIT;

static inline __m256d widen_lo(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
static inline __m256d widen_hi(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

static inline void store_narrowed(float *out, __m256d lo, __m256d hi)
{
    _mm256_storeu_ps(out, _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo)));
}

/* The lanes' order after taps_contiguous for factor f: the permutevar8x32 index that puts
 * them back in output order. */
static inline __m256i contiguous_lane_order(unsigned f)
{
    return f == 2   ? _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
           : f == 4 ? _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)
                    : _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
}

/* The taps u = 0 .. f-1 (f = 2, 4 or 8) of eight outputs whose columns are contiguous (output k
 * reads row[f k + u]) as f vectors p[u], from 8 f contiguous floats: a transpose, lanes in
 * contiguous_lane_order. */
static inline __attribute__((always_inline)) void taps_contiguous(const float *row, unsigned f,
                                                                  __m256 p[8])
{
    if (f == 2) { /* lanes x0 x1 x4 x5 | x2 x3 x6 x7 */
        const __m256 a0 = _mm256_loadu_ps(row), a1 = _mm256_loadu_ps(row + 8);
        p[0] = _mm256_shuffle_ps(a0, a1, 0x88);
        p[1] = _mm256_shuffle_ps(a0, a1, 0xDD);
        return;
    }
    if (f == 4) { /* lanes x0 x2 x4 x6 | x1 x3 x5 x7 */
        const __m256 a0 = _mm256_loadu_ps(row), a1 = _mm256_loadu_ps(row + 8);
        const __m256 a2 = _mm256_loadu_ps(row + 16), a3 = _mm256_loadu_ps(row + 24);
        const __m256 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpackhi_ps(a0, a1);
        const __m256 t2 = _mm256_unpacklo_ps(a2, a3), t3 = _mm256_unpackhi_ps(a2, a3);
        p[0] = _mm256_shuffle_ps(t0, t2, 0x44);
        p[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        p[2] = _mm256_shuffle_ps(t1, t3, 0x44);
        p[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
        return;
    }
    { /* f = 8: an 8 x 8 transpose, lanes in order */
        __m256 a[8], t[8], q[8];
        for (unsigned k = 0; k < 8; k++)
            a[k] = _mm256_loadu_ps(row + 8 * k);
        for (unsigned k = 0; k < 8; k += 2) {
            t[k] = _mm256_unpacklo_ps(a[k], a[k + 1]);
            t[k + 1] = _mm256_unpackhi_ps(a[k], a[k + 1]);
        }
        for (unsigned k = 0; k < 8; k += 4) {
            q[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
            q[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
            q[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
            q[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
        }
        for (unsigned k = 0; k < 4; k++) {
            p[k] = _mm256_permute2f128_ps(q[k], q[k + 4], 0x20);
            p[k + 4] = _mm256_permute2f128_ps(q[k], q[k + 4], 0x31);
        }
    }
}

/* whether the columns of outputs x .. x+7 are cols[x] + f k + u for every tap u (no mirroring):
 * then they are contiguous in the row, and loads replace the gathers. f_lanes: f k in lane k. */
static inline bool columns_contiguous(const int32_t *cols, unsigned f, __m256i f_lanes,
                                      unsigned n_out, unsigned x)
{
    const __m256i base = _mm256_add_epi32(_mm256_set1_epi32(cols[x]), f_lanes);
    __m256i diff = _mm256_setzero_si256();
    for (unsigned u = 0; u < f; u++) {
        const __m256i c = _mm256_loadu_si256((const __m256i *)(cols + u * n_out + x));
        diff = _mm256_or_si256(
            diff, _mm256_xor_si256(c, _mm256_add_epi32(base, _mm256_set1_epi32((int32_t)u))));
    }
    return _mm256_testz_si256(diff, diff);
}

/* Eight outputs per step, the taps of each row in the same order: loaded and transposed where
 * the columns are contiguous (all but the mirrored edges, for f = 2, 4, 8), else gathered through
 * the mirrored column table. */
void ls_float_ssim_decimate_avx2(const float *src, size_t stride, const int32_t *cols,
                                 unsigned f, unsigned n_out, float *out)
{
    const bool transposable = f == 2 || f == 4 || f == 8;
    const __m256i f_lanes = _mm256_setr_epi32(0, (int)f, 2 * (int)f, 3 * (int)f, 4 * (int)f,
                                              5 * (int)f, 6 * (int)f, 7 * (int)f);
    unsigned x = 0;
    for (; x + 8 <= n_out; x += 8) {
        __m256d lo = _mm256_setzero_pd(), hi = lo;
        if (transposable && columns_contiguous(cols, f, f_lanes, n_out, x)) {
            __m256 p[8];
            for (unsigned v = 0; v < f; v++) {
                taps_contiguous(src + v * stride + cols[x], f, p);
                for (unsigned u = 0; u < f; u++) {
                    lo = _mm256_add_pd(lo, widen_lo(p[u]));
                    hi = _mm256_add_pd(hi, widen_hi(p[u]));
                }
            }
            const __m256 sum = _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
            _mm256_storeu_ps(out + x, _mm256_permutevar8x32_ps(sum, contiguous_lane_order(f)));
            continue;
        }
        for (unsigned v = 0; v < f; v++) {
            const float *row = src + v * stride;
            for (unsigned u = 0; u < f; u++) {
                const __m256i idx = _mm256_loadu_si256((const __m256i *)(cols + u * n_out + x));
                const __m256 g = ls_gather_ps_avx2(row, idx);
                lo = _mm256_add_pd(lo, widen_lo(g));
                hi = _mm256_add_pd(hi, widen_hi(g));
            }
        }
        store_narrowed(out + x, lo, hi);
    }
    for (; x < n_out; x++) {
        double acc = 0.0;
        for (unsigned v = 0; v < f; v++)
            for (unsigned u = 0; u < f; u++)
                acc += (double)src[v * stride + (size_t)cols[u * n_out + x]];
        out[x] = (float)acc;
    }
}

void ls_float_ssim_conv_h_avx2(const float *ref, const float *dis, unsigned w_out, float *mu_r,
                               float *mu_d, float *e_rr, float *e_dd, float *e_rd)
{
    unsigned x = 0;
    for (; x + 8 <= w_out; x += 8) {
        __m256d r_lo = _mm256_setzero_pd(), r_hi = r_lo, d_lo = r_lo, d_hi = r_lo;
        __m256d rr_lo = r_lo, rr_hi = r_lo, dd_lo = r_lo, dd_hi = r_lo, rd_lo = r_lo, rd_hi = r_lo;
#pragma GCC unroll 1
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++) {
            const __m256 g = _mm256_set1_ps(gaussian[k]);
            const __m256 r = _mm256_loadu_ps(ref + x + k);
            const __m256 d = _mm256_loadu_ps(dis + x + k);
            const __m256 pr = _mm256_mul_ps(r, g);
            const __m256 pd = _mm256_mul_ps(d, g);
            const __m256 prr = _mm256_mul_ps(_mm256_mul_ps(r, r), g);
            const __m256 pdd = _mm256_mul_ps(_mm256_mul_ps(d, d), g);
            const __m256 prd = _mm256_mul_ps(_mm256_mul_ps(r, d), g);
            r_lo = _mm256_add_pd(r_lo, widen_lo(pr));
            r_hi = _mm256_add_pd(r_hi, widen_hi(pr));
            d_lo = _mm256_add_pd(d_lo, widen_lo(pd));
            d_hi = _mm256_add_pd(d_hi, widen_hi(pd));
            rr_lo = _mm256_add_pd(rr_lo, widen_lo(prr));
            rr_hi = _mm256_add_pd(rr_hi, widen_hi(prr));
            dd_lo = _mm256_add_pd(dd_lo, widen_lo(pdd));
            dd_hi = _mm256_add_pd(dd_hi, widen_hi(pdd));
            rd_lo = _mm256_add_pd(rd_lo, widen_lo(prd));
            rd_hi = _mm256_add_pd(rd_hi, widen_hi(prd));
        }
        store_narrowed(mu_r + x, r_lo, r_hi);
        store_narrowed(mu_d + x, d_lo, d_hi);
        store_narrowed(e_rr + x, rr_lo, rr_hi);
        store_narrowed(e_dd + x, dd_lo, dd_hi);
        store_narrowed(e_rd + x, rd_lo, rd_hi);
    }
    for (; x < w_out; x++) {
        mu_r[x] = ls_float_ssim_filter11(ref + x, 1);
        mu_d[x] = ls_float_ssim_filter11(dis + x, 1);
        e_rr[x] = ls_float_ssim_filter11_products(ref + x, ref + x, 1);
        e_dd[x] = ls_float_ssim_filter11_products(dis + x, dis + x, 1);
        e_rd[x] = ls_float_ssim_filter11_products(ref + x, dis + x, 1);
    }
}

/* Products formed four at a time in 128-bit registers: widening them needs no lane extraction.
 * The tap loops stay rolled: unrolled, the eleven broadcast taps no longer fit the registers. */
void ls_float_ssim_conv_v_avx2(const float *const rows[LS_FLOAT_SSIM_TAPS], float *out,
                               unsigned w)
{
    unsigned x = 0;
    for (; x + 16 <= w; x += 16) {
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
#pragma GCC unroll 1
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++) {
            const __m128 g = _mm_set1_ps(gaussian[k]);
            a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm_mul_ps(_mm_loadu_ps(rows[k] + x), g)));
            a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm_mul_ps(_mm_loadu_ps(rows[k] + x + 4), g)));
            a2 = _mm256_add_pd(a2, _mm256_cvtps_pd(_mm_mul_ps(_mm_loadu_ps(rows[k] + x + 8), g)));
            a3 = _mm256_add_pd(a3, _mm256_cvtps_pd(_mm_mul_ps(_mm_loadu_ps(rows[k] + x + 12), g)));
        }
        _mm_storeu_ps(out + x, _mm256_cvtpd_ps(a0));
        _mm_storeu_ps(out + x + 4, _mm256_cvtpd_ps(a1));
        _mm_storeu_ps(out + x + 8, _mm256_cvtpd_ps(a2));
        _mm_storeu_ps(out + x + 12, _mm256_cvtpd_ps(a3));
    }
    for (; x + 4 <= w; x += 4) {
        __m256d a0 = _mm256_setzero_pd();
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++)
            a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm_mul_ps(_mm_loadu_ps(rows[k] + x),
                                                              _mm_set1_ps(gaussian[k]))));
        _mm_storeu_ps(out + x, _mm256_cvtpd_ps(a0));
    }
    for (; x < w; x++) {
        float column[LS_FLOAT_SSIM_TAPS];
        for (unsigned k = 0; k < LS_FLOAT_SSIM_TAPS; k++)
            column[k] = rows[k][x];
        out[x] = ls_float_ssim_filter11(column, 1);
    }
}

void ls_float_ssim_terms_avx2(const float *mu_r, const float *mu_d, const float *e_rr,
                              const float *e_dd, const float *e_rd, unsigned w, double acc[4])
{
    const __m128 c1 = _mm_set1_ps(LS_FLOAT_SSIM_C1), c2 = _mm_set1_ps(LS_FLOAT_SSIM_C2);
    const __m128 c3 = _mm_set1_ps(LS_FLOAT_SSIM_C3), zero = _mm_setzero_ps();
    const __m256d c1d = _mm256_set1_pd((double)LS_FLOAT_SSIM_C1);
    const __m256d c2d = _mm256_set1_pd((double)LS_FLOAT_SSIM_C2);
    const __m256d two = _mm256_set1_pd(2.0);
    double sum_lcs = acc[0], sum_l = acc[1], sum_c = acc[2], sum_s = acc[3];
    unsigned x = 0;
    for (; x + 4 <= w; x += 4) {
        const __m128 mr = _mm_loadu_ps(mu_r + x), md = _mm_loadu_ps(mu_d + x);
        const __m128 mr2 = _mm_mul_ps(mr, mr), md2 = _mm_mul_ps(md, md);
        /* max(0, v) is (0 > v) ? 0 : v, which keeps -0.0 as the reference does */
        const __m128 v_r = _mm_max_ps(zero, _mm_sub_ps(_mm_loadu_ps(e_rr + x), mr2));
        const __m128 v_d = _mm_max_ps(zero, _mm_sub_ps(_mm_loadu_ps(e_dd + x), md2));
        const __m128 cov = _mm_sub_ps(_mm_loadu_ps(e_rd + x), _mm_mul_ps(mr, md));
        const __m128 sig = _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_cvtps_pd(_mm_mul_ps(v_r, v_d))));
        const __m256d l_num =
            _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(two, _mm256_cvtps_pd(mr)),
                                        _mm256_cvtps_pd(md)), c1d);
        const __m256d l_den = _mm256_cvtps_pd(_mm_add_ps(_mm_add_ps(mr2, md2), c1));
        const __m256d l = _mm256_div_pd(l_num, l_den);
        const __m256d c_num = _mm256_add_pd(_mm256_mul_pd(two, _mm256_cvtps_pd(sig)), c2d);
        const __m256d c_den = _mm256_cvtps_pd(_mm_add_ps(_mm_add_ps(v_r, v_d), c2));
        const __m256d c = _mm256_div_pd(c_num, c_den);
        const __m128 flat = _mm_and_ps(_mm_cmplt_ps(cov, zero), _mm_cmple_ps(sig, zero));
        const __m128 cov_clamped = _mm_andnot_ps(flat, cov);
        const __m256d s = _mm256_cvtps_pd(_mm_div_ps(_mm_add_ps(cov_clamped, c3),
                                                     _mm_add_ps(sig, c3)));
        const __m256d lcs = _mm256_mul_pd(_mm256_mul_pd(l, c), s);
        double t_lcs[4], t_l[4], t_c[4], t_s[4];
        _mm256_storeu_pd(t_lcs, lcs);
        _mm256_storeu_pd(t_l, l);
        _mm256_storeu_pd(t_c, c);
        _mm256_storeu_pd(t_s, s);
        for (unsigned i = 0; i < 4; i++) {
            sum_lcs += t_lcs[i];
            sum_l += t_l[i];
            sum_c += t_c[i];
            sum_s += t_s[i];
        }
    }
    for (; x < w; x++) {
        double l, c;
        float s;
        ls_float_ssim_position(mu_r[x], mu_d[x], e_rr[x], e_dd[x], e_rd[x], &l, &c, &s);
        sum_lcs += l * c * (double)s;
        sum_l += l;
        sum_c += c;
        sum_s += (double)s;
    }
    acc[0] = sum_lcs;
    acc[1] = sum_l;
    acc[2] = sum_c;
    acc[3] = sum_s;
}

/* ---- integer ssim ---- */

static const int ssim_kernel[LS_SSIM_TAPS] = LS_SSIM_KERNEL_INIT;

static inline void store_epi32_as_pd(double *out, __m256i v)
{
    _mm256_storeu_pd(out, _mm256_cvtepi32_pd(_mm256_castsi256_si128(v)));
    _mm256_storeu_pd(out + 4, _mm256_cvtepi32_pd(_mm256_extracti128_si256(v, 1)));
}


/* 8-bit samples: every product and sum fits int32 (256 * 255^2 < 2^31). */
void ls_ssim_sums_v_8bit_avx2(const void *const ref_rows[LS_SSIM_TAPS],
                              const void *const dis_rows[LS_SSIM_TAPS],
                              const int32_t kernel_v[LS_SSIM_TAPS], unsigned w,
                              double *const v[5])
{
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        __m256i a_x = _mm256_setzero_si256(), a_y = a_x, a_xx = a_x, a_xy = a_x, a_yy = a_x;
        for (unsigned t = 0; t < LS_SSIM_TAPS; t++) {
            const __m256i q = _mm256_set1_epi32(kernel_v[t]);
            const __m256i s = _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint8_t *)ref_rows[t] + x)));
            const __m256i d = _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint8_t *)dis_rows[t] + x)));
            const __m256i qs = _mm256_mullo_epi32(q, s), qd = _mm256_mullo_epi32(q, d);
            a_x = _mm256_add_epi32(a_x, qs);
            a_y = _mm256_add_epi32(a_y, qd);
            a_xx = _mm256_add_epi32(a_xx, _mm256_mullo_epi32(qs, s));
            a_xy = _mm256_add_epi32(a_xy, _mm256_mullo_epi32(qs, d));
            a_yy = _mm256_add_epi32(a_yy, _mm256_mullo_epi32(qd, d));
        }
        store_epi32_as_pd(v[0] + x, a_x);
        store_epi32_as_pd(v[1] + x, a_y);
        store_epi32_as_pd(v[2] + x, a_xx);
        store_epi32_as_pd(v[3] + x, a_xy);
        store_epi32_as_pd(v[4] + x, a_yy);
    }
    for (; x < w; x++)
        ls_ssim_sums_v_column_8bit(ref_rows, dis_rows, kernel_v, x, v);
}

/* 16-bit words: products up to 68 * 65535^2 and sums up to 256 * 65535^2, exact in double. */
void ls_ssim_sums_v_16bit_avx2(const void *const ref_rows[LS_SSIM_TAPS],
                               const void *const dis_rows[LS_SSIM_TAPS],
                               const int32_t kernel_v[LS_SSIM_TAPS], unsigned w,
                               double *const v[5])
{
    unsigned x = 0;
    for (; x + 4 <= w; x += 4) {
        __m256d a_x = _mm256_setzero_pd(), a_y = a_x, a_xx = a_x, a_xy = a_x, a_yy = a_x;
        for (unsigned t = 0; t < LS_SSIM_TAPS; t++) {
            const __m256d q = _mm256_set1_pd((double)kernel_v[t]);
            const __m256d s = _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint16_t *)ref_rows[t] + x))));
            const __m256d d = _mm256_cvtepi32_pd(_mm_cvtepu16_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint16_t *)dis_rows[t] + x))));
            const __m256d qs = _mm256_mul_pd(q, s), qd = _mm256_mul_pd(q, d);
            a_x = _mm256_add_pd(a_x, qs);
            a_y = _mm256_add_pd(a_y, qd);
            a_xx = _mm256_add_pd(a_xx, _mm256_mul_pd(qs, s));
            a_xy = _mm256_add_pd(a_xy, _mm256_mul_pd(qs, d));
            a_yy = _mm256_add_pd(a_yy, _mm256_mul_pd(qd, d));
        }
        _mm256_storeu_pd(v[0] + x, a_x);
        _mm256_storeu_pd(v[1] + x, a_y);
        _mm256_storeu_pd(v[2] + x, a_xx);
        _mm256_storeu_pd(v[3] + x, a_xy);
        _mm256_storeu_pd(v[4] + x, a_yy);
    }
    for (; x < w; x++)
        ls_ssim_sums_v_column_16bit(ref_rows, dis_rows, kernel_v, x, v);
}

/* A border column: taps outside the row dropped (their weight is missing from the sum). */
static double row_column(const double *const v[5], double weight_v, unsigned w, unsigned x,
                         double sample_max, double *weight)
{
    const unsigned t_min = x < 4 ? 4 - x : 0;
    const unsigned t_end = x + 4 >= w ? w + 4 - x : LS_SSIM_TAPS;
    double m[5] = { 0.0, 0.0, 0.0, 0.0, 0.0 };
    double weight_h = 0.0;
    for (unsigned t = t_min; t < t_end; t++) {
        for (unsigned i = 0; i < 5; i++)
            m[i] += (double)ssim_kernel[t] * v[i][x + t - 4];
        weight_h += (double)ssim_kernel[t];
    }
    *weight = weight_v * weight_h;
    return ls_ssim_position(m[0], m[1], m[2], m[3], m[4], *weight, sample_max);
}

/* Four positions per step: exact horizontal sums in double, then ls_ssim_position's operations
 * in its order; the two chains stay sequential. */
void ls_ssim_row_avx2(const double *const v[5], double weight_v, unsigned w, double sample_max,
                      double acc[2])
{
    const __m256d k1 = _mm256_set1_pd(sample_max * sample_max * LS_SSIM_K1);
    const __m256d k2 = _mm256_set1_pd(sample_max * sample_max * LS_SSIM_K2);
    const __m256d two = _mm256_set1_pd(2.0);
    const __m256d wt = _mm256_set1_pd(weight_v * 256.0); /* all nine horizontal taps kept */
    const __m256d c1 = _mm256_mul_pd(_mm256_mul_pd(k1, wt), wt);
    const __m256d c2 = _mm256_mul_pd(_mm256_mul_pd(k2, wt), wt);
    double ssim_acc = acc[0], weight_acc = acc[1], weight;
    unsigned x = 0;
    for (; x < 4 && x < w; x++) {
        ssim_acc += row_column(v, weight_v, w, x, sample_max, &weight);
        weight_acc += weight;
    }
    for (; x + 8 <= w; x += 4) {
        __m256d m[5];
        for (unsigned i = 0; i < 5; i++) {
            m[i] = _mm256_setzero_pd();
            for (unsigned t = 0; t < LS_SSIM_TAPS; t++)
                m[i] = _mm256_add_pd(m[i], _mm256_mul_pd(_mm256_set1_pd((double)ssim_kernel[t]),
                                                         _mm256_loadu_pd(v[i] + x + t - 4)));
        }
        const __m256d mx2 = _mm256_mul_pd(m[0], m[0]);
        const __m256d mxy = _mm256_mul_pd(m[0], m[1]);
        const __m256d my2 = _mm256_mul_pd(m[1], m[1]);
        const __m256d num = _mm256_mul_pd(
            _mm256_mul_pd(wt, _mm256_add_pd(_mm256_mul_pd(two, mxy), c1)),
            _mm256_add_pd(c2, _mm256_mul_pd(two, _mm256_sub_pd(_mm256_mul_pd(m[3], wt), mxy))));
        const __m256d den = _mm256_mul_pd(
            _mm256_add_pd(_mm256_add_pd(mx2, my2), c1),
            _mm256_add_pd(_mm256_sub_pd(_mm256_add_pd(_mm256_sub_pd(_mm256_mul_pd(m[2], wt), mx2),
                                                      _mm256_mul_pd(m[4], wt)),
                                        my2),
                          c2));
        double term[4];
        _mm256_storeu_pd(term, _mm256_div_pd(num, den));
        const double w_pos = weight_v * 256.0;
        for (unsigned i = 0; i < 4; i++) {
            ssim_acc += term[i];
            weight_acc += w_pos;
        }
    }
    for (; x < w; x++) {
        ssim_acc += row_column(v, weight_v, w, x, sample_max, &weight);
        weight_acc += weight;
    }
    acc[0] = ssim_acc;
    acc[1] = weight_acc;
}
