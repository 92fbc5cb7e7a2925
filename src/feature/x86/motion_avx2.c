/* AVX2 variants of the motion DSP units (motion_dsp.c holds the references).
 * Float blur: eight outputs per vector, each lane doing the reference's tap sequence.
 * Float SAD: the row sums are sequential chains, so an 8x8 block of |a - b| is transposed and
 * each lane carries one row's chain. Integer SAD: x86/motion_int_simd.h. */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#include "feature/x86/transpose_avx2.h"
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
            ls_transpose8x8_ps(d);
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

/* the integer SAD: the template motion_int_simd.h on 256-bit vectors */
#define VI __m256i
#define N16 16
#define MI_FN(name) name##_avx2
#define VSET32 _mm256_set1_epi32
#define VZERO _mm256_setzero_si256
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define VLOAD_BYTES(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define VSUB16 _mm256_sub_epi16
#define VADD16 _mm256_add_epi16
#define VSET16 _mm256_set1_epi16
#define VUNPLO16 _mm256_unpacklo_epi16
#define VUNPHI16 _mm256_unpackhi_epi16
#define VMADD _mm256_madd_epi16
#define VADD32 _mm256_add_epi32
#define VSRA32 _mm256_sra_epi32
#define VSRAI32 _mm256_srai_epi32
#define VPACKS32 _mm256_packs_epi32
#define VAND _mm256_and_si256
#define VOR _mm256_or_si256
#define VABS32 _mm256_abs_epi32
#define VANY(v) (!_mm256_testz_si256(v, v))

static inline uint32_t hsum32_avx2(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(s);
}
#define VHSUM32 hsum32_avx2

#include "feature/x86/motion_int_simd.h"
