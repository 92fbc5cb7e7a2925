/* Motion (`float_motion` and integer `motion`): what the CPU extractors and their GPU twins
 * share. Each option struct is the first member of its extractors' private state, so a twin takes
 * the CPU's option table itself. The score post-processing (fps weight, cap, blend), the
 * one-frame delay of float_motion and the flush of integer motion are host functions used by all
 * of them; a twin computes only the per-frame sums on its device.
 * Spec: shared/spec/features/motion.md. */
#ifndef LOCKSTEP_FEATURE_MOTION_H
#define LOCKSTEP_FEATURE_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"
#include "feature/motion_filter.h"

typedef struct LsFloatMotionOptions {
    bool debug;
    bool motion_force_zero;
    double motion_fps_weight;
    double motion_blend_factor;
    double motion_blend_offset;
    bool motion_add_scale1;
    int motion_filter_size;
    bool motion_add_uv;
    double motion_max_val;
} LsFloatMotionOptions;

typedef struct LsMotionOptions {
    bool debug;
    bool motion_force_zero;
    double motion_blend_factor;
    double motion_blend_offset;
    double motion_fps_weight;
    double motion_max_val;
    bool motion_five_frame_window;
    bool motion_moving_average;
} LsMotionOptions;

extern const LsOption ls_float_motion_options[];
extern const LsOption ls_motion_options[];
extern const LsExtractor ls_fex_float_motion;
extern const LsExtractor ls_fex_motion;

/* ---- score post-processing (motion.md §1.1): weight first, the cap always last ---- */

static inline double ls_motion_weight(double x, double fps_weight) { return x * fps_weight; }

static inline double ls_motion_cap(double x, double max_val) { return x < max_val ? x : max_val; }

static inline double ls_motion_blend(double x, double factor, double offset)
{
    const double a = x * factor;
    const double b = 1.0 - factor;
    const double m = offset < x ? offset : x;
    return a + b * m;
}

/* ---- float_motion ---- */

typedef struct LsFloatMotionState {
    LsFloatMotionOptions opt;
    unsigned bpc;
    unsigned n_planes;     /* 1, or 3 with motion_add_uv */
    unsigned w[3], h[3];   /* plane sizes */
    unsigned w1[3], h1[3]; /* half-size planes of motion_add_scale1 */
    const float *taps;     /* blur filter of motion_filter_size */
    unsigned n_taps;
    char name_motion[256], name_motion2[256], name_motion3[256];
    double prev_score; /* s_{i-1} */
    unsigned n_frames; /* frames seen, for the flush */
} LsFloatMotionState;

/* Validates the input (motion.md §2.2, §2.9), picks the filter and the output names. */
int ls_float_motion_state_init(LsFloatMotionState *s, const LsFloatMotionOptions *opt,
                               const LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                               unsigned h);
/* One plane's SAD from its float total of row sums (motion.md §2.5). */
static inline float ls_float_motion_plane_sad(float total, unsigned w, unsigned h)
{
    return total / (float)(w * h);
}
/* The frame score from each plane's sad (sad0, plus sad1 with motion_add_scale1). */
double ls_float_motion_frame_score(const LsFloatMotionState *s, const float sad0[3],
                                   const float sad1[3]);
/* Writes what frame `index` writes (motion.md §2.7); score = s_index, unused at index 0 and
 * with motion_force_zero. */
int ls_float_motion_write(LsFloatMotionState *s, unsigned index, double score, LsCollector *fc);
int ls_float_motion_flush(LsFloatMotionState *s, LsCollector *fc);
/* What a GPU twin's frame writes from its plane totals: totals[0..2] the planes' float totals of
 * row sums, totals[3..5] scale 1's (motion_add_scale1). */
int ls_float_motion_write_totals(LsFloatMotionState *s, const float totals[6], unsigned index,
                                 LsCollector *fc);

/* ---- integer motion (pipelined) ---- */

typedef struct LsMotionState {
    LsMotionOptions opt;
    unsigned w, h;
    unsigned min_idx; /* first frame with a score: 1, or 2 with the five-frame window */
    char name_sad[256], name_motion[256], name_motion2[256], name_motion3[256];
    double *sad_score; /* S[i], weighted and capped */
    bool *have_score;
    unsigned n_alloc;
} LsMotionState;

int ls_motion_state_init(LsMotionState *s, const LsMotionOptions *opt, const LsFex *fex, unsigned w,
                         unsigned h);
void ls_motion_state_close(LsMotionState *s);
/* True when frame `index` needs the SAD against the reference min_idx frames back. */
static inline bool ls_motion_needs_sad(const LsMotionState *s, unsigned index)
{
    return !s->opt.motion_force_zero && index >= s->min_idx;
}
/* Records S[index] from the frame's SAD (ignored where ls_motion_needs_sad is false) and writes
 * the SAD score (and the debug score). */
int ls_motion_write(LsMotionState *s, unsigned index, uint64_t sad, LsCollector *fc);
/* Writes motion2 and motion3 of every frame (motion.md §3.4). */
int ls_motion_flush(LsMotionState *s, LsCollector *fc);

/* ---- DSP units ---- */

/* Blurs rows [y0, y1) of a w x h plane (vertical pass, then horizontal, motion.md §2.4) into
 * dst, the blurred plane's origin (floats, dst_stride in floats). Row ranges let the caller take
 * the SAD of a strip while it is in cache. tmp: ls_float_motion_tmp_size(w) floats.
 * Needs w, h > radius. */
typedef void (*LsFloatMotionBlurFn)(const void *src, ptrdiff_t src_stride, unsigned bpc, float *dst,
                                    ptrdiff_t dst_stride, unsigned w, unsigned h, unsigned y0,
                                    unsigned y1, const float *taps, unsigned n_taps, float *tmp);
/* Continues the float chain `total` with the h rows of |a - b| (each row summed left to right),
 * top to bottom; a plane's SAD total is the chain from 0 over all its rows, in any strips. */
typedef float (*LsFloatMotionSadFn)(const float *a, const float *b, ptrdiff_t stride, unsigned w,
                                    unsigned h, float total);
/* SAD of the blurred difference prev - cur (motion.md §3.2). Samples are bytes for bpc 8, else
 * uint16. tmp: ls_int_motion_tmp_size(w) bytes. Needs w, h >= 3. */
typedef uint64_t (*LsIntMotionSadFn)(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                     ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                     void *tmp);

static inline size_t ls_float_motion_tmp_size(unsigned w)
{
    return (size_t)w + 2 * LS_MOTION_MAX_TAPS;
}

/* the vertical rows (two int32 a column) and, for the SIMD variants, five int16 rows of
 * prev - cur */
static inline size_t ls_int_motion_tmp_size(unsigned w)
{
    return (size_t)(w + 64) * 2 * sizeof(int32_t) + (size_t)5 * (w + 64) * sizeof(int16_t);
}

typedef struct LsMotionDsp {
    LsFloatMotionBlurFn blur;
    LsFloatMotionSadFn sad;
    LsIntMotionSadFn int_sad;
} LsMotionDsp;

void ls_motion_dsp_init(LsMotionDsp *dsp, uint64_t cpu_flags);

/* the reference is also the SIMD variants' fallback for 16-bit samples */
uint64_t ls_int_motion_sad_c(const void *prev, ptrdiff_t prev_stride, const void *cur,
                             ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc, void *tmp);
void ls_float_motion_blur_avx2(const void *src, ptrdiff_t src_stride, unsigned bpc, float *dst,
                               ptrdiff_t dst_stride, unsigned w, unsigned h, unsigned y0,
                               unsigned y1, const float *taps, unsigned n_taps, float *tmp);
float ls_float_motion_sad_avx2(const float *a, const float *b, ptrdiff_t stride, unsigned w,
                               unsigned h, float total);
uint64_t ls_int_motion_sad_avx2(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                void *tmp);
uint64_t ls_int_motion_sad_avx512(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                  ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                  void *tmp);
uint64_t ls_int_motion_sad_avx512vnni(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                      ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                      void *tmp);

#endif
