/* AVX2 variants of the motion DSP units (motion_dsp.c holds the references).
 * Float blur: eight outputs per vector, each lane doing the reference's tap sequence.
 * Float SAD: the row sums are sequential chains, so an 8x8 block of |a - b| is transposed and
 * each lane carries one row's chain. Integer SAD: exact, so any split is fine; the 17-bit row
 * values are split into a high and a low byte so that every product fits _mm256_madd_epi16. */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#include "feature/motion.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE __m256 load8_samples(const void *row, unsigned x, unsigned bpc, __m256 scale,
                                          __m256 offset)
{
    if (bpc == 8) {
        const __m128i v = _mm_loadl_epi64((const __m128i *)((const uint8_t *)row + x));
        return _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)), offset);
    }
    const __m128i v = _mm_loadu_si128((const __m128i *)((const uint16_t *)row + x));
    /* multiplying by the exact reciprocal of a power of two rounds like the reference's division */
    return _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(v)), scale),
                         offset);
}

static ALWAYS_INLINE void blur_tmpl(const void *src, ptrdiff_t src_stride, unsigned bpc, float *dst,
                                    ptrdiff_t dst_stride, unsigned w, unsigned h, unsigned y0,
                                    unsigned y1, const float *taps, const int n_taps, float *tmp)
{
    const int radius = n_taps / 2;
    const float divisor = ls_float_motion_divisor(bpc);
    const __m256 scale = _mm256_set1_ps(1.0f / divisor);
    const __m256 offset = _mm256_set1_ps((float)(-128));
    __m256 tap[LS_MOTION_MAX_TAPS];
    for (int k = 0; k < n_taps; k++)
        tap[k] = _mm256_set1_ps(taps[k]);
    float *t = tmp + radius;
    for (int y = (int)y0; y < (int)y1; y++) {
        const void *rows[LS_MOTION_MAX_TAPS];
        for (int k = 0; k < n_taps; k++)
            rows[k] = (const uint8_t *)src + ls_motion_mirror(y - radius + k, (int)h) * src_stride;
        unsigned x = 0;
        for (; x + 8 <= w; x += 8) {
            __m256 acc = _mm256_setzero_ps();
            for (int k = 0; k < n_taps; k++)
                acc = _mm256_add_ps(
                    acc, _mm256_mul_ps(tap[k], load8_samples(rows[k], x, bpc, scale, offset)));
            _mm256_storeu_ps(t + x, acc);
        }
        for (; x < w; x++) {
            float acc = 0.0f;
            for (int k = 0; k < n_taps; k++) {
                const unsigned v =
                    bpc == 8 ? ((const uint8_t *)rows[k])[x] : ((const uint16_t *)rows[k])[x];
                acc = acc + taps[k] * ls_float_motion_sample(v, bpc, divisor);
            }
            t[x] = acc;
        }
        for (int j = 1; j <= radius; j++) {
            t[-j] = t[j];
            t[(int)w - 1 + j] = t[(int)w - 1 - j];
        }
        float *out = dst + y * dst_stride;
        x = 0;
        for (; x + 8 <= w; x += 8) {
            __m256 acc = _mm256_setzero_ps();
            for (int k = 0; k < n_taps; k++)
                acc =
                    _mm256_add_ps(acc, _mm256_mul_ps(tap[k], _mm256_loadu_ps(t + x - radius + k)));
            _mm256_storeu_ps(out + x, acc);
        }
        for (; x < w; x++) {
            float acc = 0.0f;
            for (int k = 0; k < n_taps; k++)
                acc = acc + taps[k] * t[(int)x - radius + k];
            out[x] = acc;
        }
    }
}

void ls_float_motion_blur_avx2(const void *src, ptrdiff_t src_stride, unsigned bpc, float *dst,
                               ptrdiff_t dst_stride, unsigned w, unsigned h, unsigned y0,
                               unsigned y1, const float *taps, unsigned n_taps, float *tmp)
{
    if (n_taps == 5)
        blur_tmpl(src, src_stride, bpc, dst, dst_stride, w, h, y0, y1, taps, 5, tmp);
    else
        blur_tmpl(src, src_stride, bpc, dst, dst_stride, w, h, y0, y1, taps, 3, tmp);
}

static ALWAYS_INLINE void transpose8(__m256 r[8])
{
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
    const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]);
    const __m256 t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]);
    const __m256 t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

float ls_float_motion_sad_avx2(const float *a, const float *b, ptrdiff_t stride, unsigned w,
                               unsigned h, float total)
{
    const __m256 sign = _mm256_set1_ps(-0.0f);
    unsigned y = 0;
    for (; y + 8 <= h; y += 8) {
        const float *ra = a + y * stride, *rb = b + y * stride;
        __m256 acc = _mm256_setzero_ps(); /* lane j: the chain of row y + j */
        unsigned x = 0;
        for (; x + 8 <= w; x += 8) {
            __m256 d[8];
            for (int j = 0; j < 8; j++)
                d[j] = _mm256_andnot_ps(sign, _mm256_sub_ps(_mm256_loadu_ps(ra + j * stride + x),
                                                            _mm256_loadu_ps(rb + j * stride + x)));
            transpose8(d);
            for (int k = 0; k < 8; k++)
                acc = _mm256_add_ps(acc, d[k]);
        }
        for (; x < w; x++) {
            float col[8];
            for (int j = 0; j < 8; j++)
                col[j] = fabsf(ra[j * stride + x] - rb[j * stride + x]);
            acc = _mm256_add_ps(acc, _mm256_loadu_ps(col));
        }
        float rows[8];
        _mm256_storeu_ps(rows, acc);
        for (int j = 0; j < 8; j++)
            total = total + rows[j];
    }
    for (; y < h; y++) {
        float row = 0.0f;
        for (unsigned x = 0; x < w; x++)
            row = row + fabsf(a[y * stride + x] - b[y * stride + x]);
        total = total + row;
    }
    return total;
}

/* Pair (F[k], F[k+1]) in every 32-bit element, for _mm256_madd_epi16. */
static ALWAYS_INLINE __m256i tap_pair(int32_t lo, int32_t hi)
{
    return _mm256_set1_epi32((int32_t)(((uint32_t)hi << 16) | ((uint32_t)lo & 0xffff)));
}

uint64_t ls_int_motion_sad_avx2(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                void *tmp)
{
    /* 16-bit differences leave the int16 range of madd (and the vertical sum int32) */
    if (bpc > 15)
        return ls_int_motion_sad_c(prev, prev_stride, cur, cur_stride, w, h, bpc, tmp);

    const __m256i f01 = tap_pair(LS_INT_MOTION_F0, LS_INT_MOTION_F1);
    const __m256i f23 = tap_pair(LS_INT_MOTION_F2, LS_INT_MOTION_F1);
    const __m256i f4z = tap_pair(LS_INT_MOTION_F0, 0);
    const unsigned shift = bpc;
    const int32_t round = bpc == 8 ? 128 : 1 << (bpc - 1);
    const __m256i vround = _mm256_set1_epi32(round);
    const __m128i vshift = _mm_cvtsi32_si128((int)shift);
    const __m256i low_byte = _mm256_set1_epi32(0xff);
    const __m256i hround = _mm256_set1_epi32(32768);
    const __m256i zero = _mm256_setzero_si256();
    /* row value r = 256 * hi + lo, hi in [-256, 255], lo in [0, 255]; padded by 8 on the left
     * for the mirrored samples and the unaligned loads */
    int16_t *rh = (int16_t *)tmp + 8;
    int16_t *rl = rh + w + 32;
    const int iw = (int)w;
    uint64_t sad = 0;

    for (int i = 0; i < (int)h; i++) {
        const uint8_t *p[5], *c[5];
        for (int k = 0; k < 5; k++) {
            const int yy = ls_motion_mirror(i - LS_INT_MOTION_RADIUS + k, (int)h);
            p[k] = (const uint8_t *)prev + yy * prev_stride;
            c[k] = (const uint8_t *)cur + yy * cur_stride;
        }
        __m256i any = zero;
        int x = 0;
        for (; x + 16 <= iw; x += 16) {
            __m256i d[5];
            for (int k = 0; k < 5; k++) {
                if (bpc == 8)
                    d[k] = _mm256_sub_epi16(
                        _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p[k] + x))),
                        _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(c[k] + x))));
                else
                    d[k] = _mm256_sub_epi16(
                        _mm256_loadu_si256((const __m256i *)((const uint16_t *)p[k] + x)),
                        _mm256_loadu_si256((const __m256i *)((const uint16_t *)c[k] + x)));
            }
            /* lanes: acc_a holds pixels 0-3 | 8-11, acc_b 4-7 | 12-15; packs restores the order */
            __m256i acc_a = _mm256_madd_epi16(_mm256_unpacklo_epi16(d[0], d[1]), f01);
            __m256i acc_b = _mm256_madd_epi16(_mm256_unpackhi_epi16(d[0], d[1]), f01);
            acc_a =
                _mm256_add_epi32(acc_a, _mm256_madd_epi16(_mm256_unpacklo_epi16(d[2], d[3]), f23));
            acc_b =
                _mm256_add_epi32(acc_b, _mm256_madd_epi16(_mm256_unpackhi_epi16(d[2], d[3]), f23));
            acc_a =
                _mm256_add_epi32(acc_a, _mm256_madd_epi16(_mm256_unpacklo_epi16(d[4], zero), f4z));
            acc_b =
                _mm256_add_epi32(acc_b, _mm256_madd_epi16(_mm256_unpackhi_epi16(d[4], zero), f4z));
            const __m256i row_a = _mm256_sra_epi32(_mm256_add_epi32(acc_a, vround), vshift);
            const __m256i row_b = _mm256_sra_epi32(_mm256_add_epi32(acc_b, vround), vshift);
            const __m256i hi =
                _mm256_packs_epi32(_mm256_srai_epi32(row_a, 8), _mm256_srai_epi32(row_b, 8));
            const __m256i lo = _mm256_packs_epi32(_mm256_and_si256(row_a, low_byte),
                                                  _mm256_and_si256(row_b, low_byte));
            _mm256_storeu_si256((__m256i *)(rh + x), hi);
            _mm256_storeu_si256((__m256i *)(rl + x), lo);
            any = _mm256_or_si256(any, _mm256_or_si256(hi, lo));
        }
        int tail_nonzero = 0;
        for (; x < iw; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) {
                const int dv =
                    bpc == 8 ? (int)p[k][x] - (int)c[k][x]
                             : (int)((const uint16_t *)p[k])[x] - (int)((const uint16_t *)c[k])[x];
                acc += (int64_t)ls_int_motion_filter[k] * dv;
            }
            const int32_t r = ls_int_motion_vertical_round(acc, bpc);
            rh[x] = (int16_t)(r >> 8);
            rl[x] = (int16_t)(r & 0xff);
            tail_nonzero |= r;
        }
        /* an all-zero row of vertical results adds nothing */
        if (_mm256_testz_si256(any, any) && !tail_nonzero)
            continue;
        rh[-1] = rh[1], rh[-2] = rh[2], rh[iw] = rh[iw - 2], rh[iw + 1] = rh[iw - 3],
        rh[iw + 2] = 0;
        rl[-1] = rl[1], rl[-2] = rl[2], rl[iw] = rl[iw - 2], rl[iw + 1] = rl[iw - 3],
        rl[iw + 2] = 0;

        __m256i row_sum = zero;
        x = 0;
        for (; x + 16 <= iw; x += 16) {
            for (int odd = 0; odd < 2; odd++) {
                const int b = x - 2 + odd;
                __m256i hs = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rh + b)), f01);
                __m256i ls = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rl + b)), f01);
                hs = _mm256_add_epi32(
                    hs, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rh + b + 2)), f23));
                ls = _mm256_add_epi32(
                    ls, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rl + b + 2)), f23));
                hs = _mm256_add_epi32(
                    hs, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rh + b + 4)), f4z));
                ls = _mm256_add_epi32(
                    ls, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(rl + b + 4)), f4z));
                /* (256 H + L + 32768) >> 16 == (H + ((L + 32768) >> 8)) >> 8 */
                const __m256i val = _mm256_srai_epi32(
                    _mm256_add_epi32(hs, _mm256_srai_epi32(_mm256_add_epi32(ls, hround), 8)), 8);
                row_sum = _mm256_add_epi32(row_sum, _mm256_abs_epi32(val));
            }
        }
        uint32_t row_sad = 0;
        for (; x < iw; x++) {
            int32_t r[5];
            for (int k = 0; k < 5; k++)
                r[k] = rh[x - 2 + k] * 256 + rl[x - 2 + k];
            const int32_t val = ls_int_motion_horizontal(r[0], r[1], r[2], r[3], r[4]);
            row_sad += (uint32_t)(val < 0 ? -val : val);
        }
        __m128i s =
            _mm_add_epi32(_mm256_castsi256_si128(row_sum), _mm256_extracti128_si256(row_sum, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
        row_sad += (uint32_t)_mm_cvtsi128_si32(s);
        sad += row_sad;
    }
    return sad;
}
