/* C references of the motion DSP units. The float units fix the order of every rounding
 * (blur: taps in order per output; SAD: row sums left to right, then rows top to bottom), so SIMD
 * variants vectorise across outputs or rows only and must match these bit for bit. The integer
 * SAD is exact in any order. */
#include <math.h>
#include <stdint.h>

#include "core/cpu.h"
#include "feature/motion.h"

static inline unsigned load_sample(const void *row, unsigned x, unsigned bpc)
{
    return bpc == 8 ? ((const uint8_t *)row)[x] : ((const uint16_t *)row)[x];
}

static void float_blur_c(const void *src, ptrdiff_t src_stride, unsigned bpc, float *dst,
                         ptrdiff_t dst_stride, unsigned w, unsigned h, unsigned y0, unsigned y1,
                         const float *taps, unsigned n_taps, float *tmp)
{
    const int radius = (int)n_taps / 2;
    const float divisor = ls_float_motion_divisor(bpc);
    for (int y = (int)y0; y < (int)y1; y++) {
        for (unsigned x = 0; x < w; x++) {
            float acc = 0.0f;
            for (int k = 0; k < (int)n_taps; k++) {
                const int yy = ls_motion_mirror(y - radius + k, (int)h);
                const void *row = (const uint8_t *)src + yy * src_stride;
                acc =
                    acc + taps[k] * ls_float_motion_sample(load_sample(row, x, bpc), bpc, divisor);
            }
            tmp[x] = acc;
        }
        float *out = dst + y * dst_stride;
        for (int x = 0; x < (int)w; x++) {
            float acc = 0.0f;
            for (int k = 0; k < (int)n_taps; k++)
                acc = acc + taps[k] * tmp[ls_motion_mirror(x - radius + k, (int)w)];
            out[x] = acc;
        }
    }
}

static float float_sad_c(const float *a, const float *b, ptrdiff_t stride, unsigned w, unsigned h,
                         float total)
{
    for (unsigned y = 0; y < h; y++) {
        float row = 0.0f;
        for (unsigned x = 0; x < w; x++)
            row = row + fabsf(a[y * stride + x] - b[y * stride + x]);
        total = total + row;
    }
    return total;
}

uint64_t ls_int_motion_sad_c(const void *prev, ptrdiff_t prev_stride, const void *cur,
                             ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc, void *tmp)
{
    int32_t *row = tmp;
    uint64_t sad = 0;
    for (int i = 0; i < (int)h; i++) {
        for (unsigned x = 0; x < w; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) {
                const int yy = ls_motion_mirror(i - LS_INT_MOTION_RADIUS + k, (int)h);
                const int d = (int)load_sample((const uint8_t *)prev + yy * prev_stride, x, bpc) -
                              (int)load_sample((const uint8_t *)cur + yy * cur_stride, x, bpc);
                acc += (int64_t)ls_int_motion_filter[k] * d;
            }
            row[x] = ls_int_motion_vertical_round(acc, bpc);
        }
        uint32_t row_sad = 0;
        for (int x = 0; x < (int)w; x++) {
            const int32_t val = ls_int_motion_horizontal(
                row[ls_motion_mirror(x - 2, (int)w)], row[ls_motion_mirror(x - 1, (int)w)], row[x],
                row[ls_motion_mirror(x + 1, (int)w)], row[ls_motion_mirror(x + 2, (int)w)]);
            row_sad += (uint32_t)(val < 0 ? -val : val);
        }
        sad += row_sad;
    }
    return sad;
}

void ls_motion_dsp_init(LsMotionDsp *dsp, uint64_t cpu_flags)
{
    dsp->blur = float_blur_c;
    dsp->sad = float_sad_c;
    dsp->int_sad = ls_int_motion_sad_c;
#if defined(__x86_64__) || defined(__i386__)
    if (!(cpu_flags & LS_CPU_FLAG_AVX2))
        return;
    dsp->blur = ls_float_motion_blur_avx2;
    dsp->sad = ls_float_motion_sad_avx2;
    dsp->int_sad = ls_int_motion_sad_avx2;
    if (cpu_flags & LS_CPU_FLAG_AVX512)
        dsp->int_sad = ls_int_motion_sad_avx512;
    if ((cpu_flags & LS_CPU_FLAG_AVX512) && (cpu_flags & LS_CPU_FLAG_AVX512ICL))
        dsp->int_sad = ls_int_motion_sad_avx512vnni;
#else
    (void)cpu_flags;
#endif
}
