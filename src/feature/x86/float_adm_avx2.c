/* float_adm AVX2 variants: the C reference's operations lane by lane (8 columns a step; the double
 * steps on 4 + 4 lanes), bit for bit. Float chains stay sequential: a row's terms are formed in
 * vectors and added to the row sums one column after the other. Border columns and tails use the
 * shared per-pixel functions of float_adm.h. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rcp.h"
#include "feature/float_adm.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE __m256 taps4(const __m256 tap[4], __m256 x0, __m256 x1, __m256 x2, __m256 x3)
{
    __m256 acc = _mm256_setzero_ps();
    acc = _mm256_add_ps(acc, _mm256_mul_ps(tap[0], x0));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(tap[1], x1));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(tap[2], x2));
    acc = _mm256_add_ps(acc, _mm256_mul_ps(tap[3], x3));
    return acc;
}

/* columns x..x+7 in a, x+8..x+15 in b -> the 8 even columns, the 8 odd columns */
static ALWAYS_INLINE void split_store(__m256 a, __m256 b, float *e, float *o)
{
    const __m256 ev = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 od = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    _mm256_storeu_ps(e, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(ev),
                                                               _MM_SHUFFLE(3, 1, 2, 0))));
    _mm256_storeu_ps(o, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(od),
                                                               _MM_SHUFFLE(3, 1, 2, 0))));
}

static void dwt_v_avx2(const float *const rows[4], unsigned w, float *lo_e, float *lo_o,
                       float *hi_e, float *hi_o)
{
    __m256 lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        lo[k] = _mm256_set1_ps(ls_float_adm_lo[k]);
        hi[k] = _mm256_set1_ps(ls_float_adm_hi[k]);
    }
    unsigned x = 0;
    for (; x + 16 <= w; x += 16) {
        __m256 s[2][4];
        for (int half = 0; half < 2; half++)
            for (int k = 0; k < 4; k++)
                s[half][k] = _mm256_loadu_ps(rows[k] + x + 8 * (unsigned)half);
        split_store(taps4(lo, s[0][0], s[0][1], s[0][2], s[0][3]),
                    taps4(lo, s[1][0], s[1][1], s[1][2], s[1][3]), lo_e + x / 2, lo_o + x / 2);
        if (hi_e)
            split_store(taps4(hi, s[0][0], s[0][1], s[0][2], s[0][3]),
                        taps4(hi, s[1][0], s[1][1], s[1][2], s[1][3]), hi_e + x / 2, hi_o + x / 2);
    }
    if (x < w) {
        /* the tail through the reference: x is even, so the split offsets carry over */
        const float *const tail[4] = { rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x };
        ls_float_adm_dwt_v_c(tail, w - x, lo_e + x / 2, lo_o + x / 2, hi_e ? hi_e + x / 2 : NULL,
                             hi_o + x / 2);
    }
}

static void dwt_h_avx2(const float *lo_e, const float *lo_o, const float *hi_e, const float *hi_o,
                       unsigned bw, float *a, unsigned x0, unsigned x1, float *h, float *v,
                       float *d)
{
    __m256 lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        lo[k] = _mm256_set1_ps(ls_float_adm_lo[k]);
        hi[k] = _mm256_set1_ps(ls_float_adm_hi[k]);
    }
    unsigned j = 0;
    for (; a && j + 8 <= bw; j += 8)
        _mm256_storeu_ps(a + j, taps4(lo, _mm256_loadu_ps(lo_o + j - 1), _mm256_loadu_ps(lo_e + j),
                                      _mm256_loadu_ps(lo_o + j), _mm256_loadu_ps(lo_e + j + 1)));
    for (; a && j < bw; j++)
        a[j] = ls_float_adm_taps(ls_float_adm_lo, lo_o[(int)j - 1], lo_e[j], lo_o[j], lo_e[j + 1]);
    if (!h)
        return;
    for (j = x0; j + 8 <= x1; j += 8) {
        const __m256 l0 = _mm256_loadu_ps(lo_o + j - 1), l1 = _mm256_loadu_ps(lo_e + j),
                     l2 = _mm256_loadu_ps(lo_o + j), l3 = _mm256_loadu_ps(lo_e + j + 1);
        const __m256 h0 = _mm256_loadu_ps(hi_o + j - 1), h1 = _mm256_loadu_ps(hi_e + j),
                     h2 = _mm256_loadu_ps(hi_o + j), h3 = _mm256_loadu_ps(hi_e + j + 1);
        _mm256_storeu_ps(v + j, taps4(hi, l0, l1, l2, l3));
        _mm256_storeu_ps(h + j, taps4(lo, h0, h1, h2, h3));
        _mm256_storeu_ps(d + j, taps4(hi, h0, h1, h2, h3));
    }
    if (j < x1)
        ls_float_adm_dwt_h_c(lo_e, lo_o, hi_e, hi_o, bw, NULL, j, x1, h, v, d);
}

static ALWAYS_INLINE __m256 cvt_pd_ps(__m256d lo, __m256d hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi),
                                1);
}

/* rst limited towards t by the gain limit (ls_float_adm_restore): above 0 the smaller of
 * rst * G and t in double, below 0 the larger. When G is a float the double product is exact
 * (24 + 24 bits), and rounding is monotone with t a float, so F(min(p, t)) = min(F(p), t) and
 * likewise for max, ties included: the float product gives the same bits (gain_f). */
static ALWAYS_INLINE __m256 limit_gain(__m256 rst, __m256 t, __m256d gain, __m256 gain_f,
                                       int gain_is_float, int above)
{
    if (gain_is_float) {
        const __m256 g = _mm256_mul_ps(rst, gain_f);
        return _mm256_blendv_ps(t, g, above ? _mm256_cmp_ps(g, t, _CMP_LT_OQ)
                                            : _mm256_cmp_ps(g, t, _CMP_GT_OQ));
    }
    const __m256d t_lo = _mm256_cvtps_pd(_mm256_castps256_ps128(t));
    const __m256d t_hi = _mm256_cvtps_pd(_mm256_extractf128_ps(t, 1));
    const __m256d g_lo = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(rst)), gain);
    const __m256d g_hi = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(rst, 1)), gain);
    __m256d m_lo, m_hi;
    if (above) {
        m_lo = _mm256_blendv_pd(t_lo, g_lo, _mm256_cmp_pd(g_lo, t_lo, _CMP_LT_OQ));
        m_hi = _mm256_blendv_pd(t_hi, g_hi, _mm256_cmp_pd(g_hi, t_hi, _CMP_LT_OQ));
    } else {
        m_lo = _mm256_blendv_pd(t_lo, g_lo, _mm256_cmp_pd(g_lo, t_lo, _CMP_GT_OQ));
        m_hi = _mm256_blendv_pd(t_hi, g_hi, _mm256_cmp_pd(g_hi, t_hi, _CMP_GT_OQ));
    }
    return cvt_pd_ps(m_lo, m_hi);
}

static ALWAYS_INLINE __m256 restore8(__m256 o, __m256 t, __m256 flag, __m256d gain,
                                     __m256 gain_f, int gain_is_float)
{
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 d = _mm256_add_ps(o, _mm256_set1_ps(LS_FLOAT_ADM_EPS));
#if LS_RCP_MODE == LS_RCP_DIVIDE
    __m256 k = _mm256_div_ps(t, d);
#else
    const __m256 r0 = ls_rcp_approx_m256(d);
    const __m256 e = _mm256_sub_ps(one, _mm256_mul_ps(d, r0));
    __m256 k = _mm256_mul_ps(t, _mm256_add_ps(r0, _mm256_mul_ps(r0, e)));
#endif
    k = _mm256_blendv_ps(k, zero, _mm256_cmp_ps(k, zero, _CMP_LT_OQ));
    k = _mm256_blendv_ps(k, one, _mm256_cmp_ps(k, one, _CMP_GT_OQ));
    __m256 rst = _mm256_mul_ps(k, o);
    __m256 sel = _mm256_and_ps(flag, _mm256_cmp_ps(rst, zero, _CMP_GT_OQ));
    if (!_mm256_testz_ps(sel, sel))
        rst = _mm256_blendv_ps(rst, limit_gain(rst, t, gain, gain_f, gain_is_float, 1), sel);
    sel = _mm256_and_ps(flag, _mm256_cmp_ps(rst, zero, _CMP_LT_OQ));
    if (!_mm256_testz_ps(sel, sel))
        rst = _mm256_blendv_ps(rst, limit_gain(rst, t, gain, gain_f, gain_is_float, 0), sel);
    return rst;
}

static void decouple_avx2(const float *const o[3], const float *const t[3], unsigned x0,
                          unsigned x1, double gain_limit, float *const r[3], float *const a[3])
{
    const __m256d gain = _mm256_set1_pd(gain_limit);
    const __m256 gain_f = _mm256_set1_ps((float)gain_limit);
    const int gain_is_float = (double)(float)gain_limit == gain_limit;
    const __m256 cos_sq = _mm256_set1_ps(LS_FLOAT_ADM_COS1_SQ), zero = _mm256_setzero_ps();
    unsigned j = x0;
    for (; j + 8 <= x1; j += 8) {
        __m256 ov[3], tv[3];
        for (int b = 0; b < 3; b++) {
            ov[b] = _mm256_loadu_ps(o[b] + j);
            tv[b] = _mm256_loadu_ps(t[b] + j);
        }
        const __m256 dp = _mm256_add_ps(_mm256_mul_ps(ov[0], tv[0]), _mm256_mul_ps(ov[1], tv[1]));
        const __m256 mo = _mm256_add_ps(_mm256_mul_ps(ov[0], ov[0]), _mm256_mul_ps(ov[1], ov[1]));
        const __m256 mt = _mm256_add_ps(_mm256_mul_ps(tv[0], tv[0]), _mm256_mul_ps(tv[1], tv[1]));
        const __m256 rhs = _mm256_mul_ps(_mm256_mul_ps(cos_sq, mo), mt);
        const __m256 flag = _mm256_and_ps(_mm256_cmp_ps(dp, zero, _CMP_GE_OQ),
                                          _mm256_cmp_ps(_mm256_mul_ps(dp, dp), rhs, _CMP_GE_OQ));
        for (int b = 0; b < 3; b++) {
            const __m256 rst = restore8(ov[b], tv[b], flag, gain, gain_f, gain_is_float);
            _mm256_storeu_ps(r[b] + j, rst);
            _mm256_storeu_ps(a[b] + j, _mm256_sub_ps(tv[b], rst));
        }
    }
    if (j < x1)
        ls_float_adm_decouple_c(o, t, j, x1, gain_limit, r, a);
}

static ALWAYS_INLINE __m256 abs8(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }

/* (float)(k * (double)|c|) on 8 lanes */
static ALWAYS_INLINE __m256 scaled_abs(__m256 c, __m256d k)
{
    const __m256 m = abs8(c);
    return cvt_pd_ps(_mm256_mul_pd(k, _mm256_cvtps_pd(_mm256_castps256_ps128(m))),
                     _mm256_mul_pd(k, _mm256_cvtps_pd(_mm256_extractf128_ps(m, 1))));
}

static void csf_avx2(const float *x, float factor, unsigned x0, unsigned x1, float *c, float *f)
{
    const __m256 fv = _mm256_set1_ps(factor);
    const __m256d k = _mm256_set1_pd(LS_FLOAT_ADM_ONE_BY_30);
    unsigned j = x0;
    for (; j + 8 <= x1; j += 8) {
        const __m256 cv = _mm256_mul_ps(fv, _mm256_loadu_ps(x + j));
        _mm256_storeu_ps(c + j, cv);
        _mm256_storeu_ps(f + j, scaled_abs(cv, k));
    }
    for (; j < x1; j++) {
        c[j] = factor * x[j];
        f[j] = ls_float_adm_csf_filter(c[j]);
    }
}

static ALWAYS_INLINE __m256 cube8(__m256 x) { return _mm256_mul_ps(_mm256_mul_ps(x, x), x); }

static void den_row_avx2(const float *const o[3], const float factor[3], unsigned x0, unsigned x1,
                         int cube, float p, float acc[3])
{
    if (!cube) {
        ls_float_adm_den_row_c(o, factor, x0, x1, cube, p, acc);
        return;
    }
    float inner[3] = { 0.0f, 0.0f, 0.0f };
    __m256 fv[3];
    for (int b = 0; b < 3; b++)
        fv[b] = _mm256_set1_ps(factor[b]);
    unsigned j = x0;
    for (; j + 8 <= x1; j += 8) {
        float t[3][8];
        for (int b = 0; b < 3; b++)
            _mm256_storeu_ps(t[b], cube8(abs8(_mm256_mul_ps(fv[b], _mm256_loadu_ps(o[b] + j)))));
        for (int l = 0; l < 8; l++)
            for (int b = 0; b < 3; b++)
                inner[b] = inner[b] + t[b][l];
    }
    for (; j < x1; j++)
        for (int b = 0; b < 3; b++)
            inner[b] = inner[b] + ls_float_adm_cube(fabsf(factor[b] * o[b][j]));
    for (int b = 0; b < 3; b++)
        acc[b] = acc[b] + inner[b];
}

/* ls_float_adm_mask_sum on 8 interior columns j..j+7 */
static ALWAYS_INLINE __m256 mask_sum8(const float *const f[3], const float *c, unsigned j,
                                      __m256d k)
{
    __m256 s = _mm256_setzero_ps();
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[0] + j - 1));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[0] + j));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[0] + j + 1));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[1] + j - 1));
    const __m256 m = abs8(_mm256_loadu_ps(c + j));
    const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(s)),
                                     _mm256_mul_pd(k, _mm256_cvtps_pd(_mm256_castps256_ps128(m))));
    const __m256d hi =
        _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(s, 1)),
                      _mm256_mul_pd(k, _mm256_cvtps_pd(_mm256_extractf128_ps(m, 1))));
    s = cvt_pd_ps(lo, hi);
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[1] + j + 1));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[2] + j - 1));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[2] + j));
    s = _mm256_add_ps(s, _mm256_loadu_ps(f[2] + j + 1));
    return s;
}

static ALWAYS_INLINE __m256 excess8(const float *c, unsigned j, __m256 thr)
{
    const __m256 x = _mm256_sub_ps(abs8(_mm256_loadu_ps(c + j)), thr);
    const __m256 zero = _mm256_setzero_ps();
    return _mm256_blendv_ps(x, zero, _mm256_cmp_ps(x, zero, _CMP_LT_OQ));
}

static void cm_row_avx2(const LsFloatAdmCmRows *rows, unsigned w, unsigned x0, unsigned x1,
                        int bypass, int cube, float p, float acc[6])
{
    if (!cube) {
        ls_float_adm_cm_row_c(rows, w, x0, x1, bypass, cube, p, acc);
        return;
    }
    const __m256d k = _mm256_set1_pd(LS_FLOAT_ADM_ONE_BY_15);
    float inner[6] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    /* vectors cover columns whose neighbours need no mapping: 1 <= j, j + 1 <= w - 1 */
    const unsigned vec_end = x1 < w - 1 ? x1 : w - 1;
    unsigned j = x0;
    for (; j < x1; j++) {
        if (j >= 1 && j + 8 <= vec_end) {
            float t[6][8];
            __m256 thr_dlm = _mm256_setzero_ps(), thr_aim = _mm256_setzero_ps();
            if (!bypass) {
                for (int b = 0; b < 3; b++)
                    thr_dlm = _mm256_add_ps(thr_dlm, mask_sum8(rows->f_a[b], rows->c_a[b], j, k));
                for (int b = 0; b < 3; b++)
                    thr_aim = _mm256_add_ps(thr_aim, mask_sum8(rows->f_r[b], rows->c_r[b], j, k));
            }
            for (int b = 0; b < 3; b++) {
                _mm256_storeu_ps(t[b], cube8(excess8(rows->c_r[b], j, thr_dlm)));
                _mm256_storeu_ps(t[3 + b], cube8(excess8(rows->c_a[b], j, thr_aim)));
            }
            for (int l = 0; l < 8; l++)
                for (int b = 0; b < 6; b++)
                    inner[b] = inner[b] + t[b][l];
            j += 7;
            continue;
        }
        float e[6];
        ls_float_adm_cm_excess(rows, (int)w, (int)j, bypass, e);
        for (int b = 0; b < 6; b++)
            inner[b] = inner[b] + ls_float_adm_cube(e[b]);
    }
    for (int b = 0; b < 6; b++)
        acc[b] = acc[b] + inner[b];
}

void ls_float_adm_rcp_approx_avx2(const float *x, float *r, size_t n)
{
    for (size_t i = 0; i + 8 <= n; i += 8)
        _mm256_storeu_ps(r + i, ls_rcp_approx_m256(_mm256_loadu_ps(x + i)));
}

void ls_float_adm_dsp_init_avx2(LsFloatAdmDsp *dsp)
{
    dsp->dwt_v = dwt_v_avx2;
    dsp->dwt_h = dwt_h_avx2;
    dsp->decouple = decouple_avx2;
    dsp->csf = csf_avx2;
    dsp->den_row = den_row_avx2;
    dsp->cm_row = cm_row_avx2;
}
