/* Integer VIF (`vif`): what the CPU extractor and a GPU twin share. The options (first member of
 * every vif extractor's private state, so a twin takes the CPU's table itself), the pyramid and
 * filter rules, the fixed-point log2 and its table, the per-pixel contribution and the per-scale
 * numerator and denominator: LS_HD functions that compile as C11 and under nvcc; the C reference
 * (vif_dsp.c) calls them. Then the DSP units of the CPU path.
 * Spec: shared/spec/features/vif.md, tables/vif_filters.json. */
#ifndef LOCKSTEP_FEATURE_VIF_H
#define LOCKSTEP_FEATURE_VIF_H

#include "core/portable.h"
#include "core/soft_f64.h"

#if !defined(LS_OPENCL_C)
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/vif_log2_table.h" /* host only */
#endif

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)
#include "core/extractor.h" /* host only */
#endif

#if !defined(LS_OPENCL_C) /* host: options (kernels get the gain limit as binary64 bits) */
typedef struct LsVifOptions {
    bool debug;
    double vif_enhn_gain_limit;
    bool vif_skip_scale0;
} LsVifOptions;
#endif

#define LS_VIF_SCALES 4
#define LS_VIF_MAX_TAPS 17

/* Taps per scale (vif.md §3), symmetric, each set sums to 65536. */
#define LS_VIF_TAPS_SCALE0_INIT                                                                  \
    { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640,    \
      935, 489 }
#define LS_VIF_TAPS_SCALE1_INIT { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 }
#define LS_VIF_TAPS_SCALE2_INIT { 3571, 16004, 26386, 16004, 3571 }
#define LS_VIF_TAPS_SCALE3_INIT { 10904, 43728, 10904 }

/* The noise variance 2.0 in Q16 and log2 of it in Q11 (vif.md §5.3). */
#define LS_VIF_SIGMA_NSQ 131072
#define LS_VIF_LOG_DEN_OFFSET (2048 * 17)
/* 65536 * 1.0e-10 as the reference evaluates it (double product), and its bits */
#define LS_VIF_EPS LS_F64_C(0x3edb7cdfd9d7bdbbull, 0x1.b7cdfd9d7bdbbp-18)

/* Taps of every scale, zero-padded to 17: row s holds the 2*R_s+1 taps of scale s. */
LS_CONSTANT uint16_t ls_vif_taps[LS_VIF_SCALES][LS_VIF_MAX_TAPS] = {
    LS_VIF_TAPS_SCALE0_INIT, LS_VIF_TAPS_SCALE1_INIT, LS_VIF_TAPS_SCALE2_INIT,
    LS_VIF_TAPS_SCALE3_INIT,
};

LS_HD static inline unsigned ls_vif_radius(unsigned scale) { return 8u >> scale; }
LS_HD static inline unsigned ls_vif_width(unsigned scale) { return 2 * ls_vif_radius(scale) + 1; }

/* ---- pyramid (vif.md §3, §4) ---- */

/* Reflect-101 about the edges: -m reads m, n-1+m reads n-1-m. Valid for m <= n-1, which the
 * size rule below guarantees. */
LS_HD static inline int ls_vif_reflect(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
}

/* Scale s is w >> s by h >> s (floor halving per step). */
static inline unsigned ls_vif_scale_size(unsigned size, unsigned scale) { return size >> scale; }

/* The smallest frame side where the math is defined: reflect-101 with radius R_s needs a side of
 * more than R_s at every scale s (8, 4, 2, 1 at sides n, n/2, n/4, n/8); the subsampling filters
 * (radius R_{s+1} on side n_s) need less. n/8 >= 2 is the binding one: n >= 16. */
static inline unsigned ls_vif_min_side(void)
{
    unsigned n = 1;
    for (;;) {
        bool ok = true;
        for (unsigned s = 0; s < LS_VIF_SCALES; s++)
            ok = ok && ls_vif_scale_size(n, s) > ls_vif_radius(s);
        if (ok)
            return n;
        n++;
    }
}

/* The fixed-point rules of one level (vif.md §4, §5.1): the vertical pass of the statistics gives
 * mu = (a + mu_round) >> mu_shift and xx = (axx + sq_round) >> sq_shift; the subsampling vertical
 * pass gives (a + mu_round) >> mu_shift with the same rounding. Level 0 of an 8-bit picture reads
 * bytes; every other level reads uint16. */
typedef struct LsVifLevel {
    unsigned scale;
    bool bytes;         /* samples are uint8_t */
    unsigned mu_shift;  /* 8 (8-bit), bpc (scale 0 > 8-bit), 16 (scales 1..3) */
    uint32_t mu_round;
    unsigned sq_shift;  /* 0 (8-bit), 2*(bpc-8) (scale 0 > 8-bit), 16 */
    uint64_t sq_round;
} LsVifLevel;

static inline LsVifLevel ls_vif_level(unsigned scale, unsigned bpc)
{
    LsVifLevel l;
    l.scale = scale;
    l.bytes = scale == 0 && bpc == 8;
    if (scale > 0) {
        l.mu_shift = 16;
        l.sq_shift = 16;
    } else {
        l.mu_shift = bpc;
        l.sq_shift = 2 * (bpc - 8);
    }
    l.mu_round = 1u << (l.mu_shift - 1);
    l.sq_round = l.sq_shift ? (uint64_t)1 << (l.sq_shift - 1) : 0;
    return l;
}

/* ---- statistics of one pixel from the horizontal sums (vif.md §5.2) ---- */

typedef struct LsVifSigmas {
    int32_t sigma1_sq, sigma2_sq, sigma12;
} LsVifSigmas;

LS_HD static inline LsVifSigmas ls_vif_sigmas(uint32_t mx, uint32_t my, uint64_t sxx, uint64_t syy,
                                              uint64_t sxy)
{
    const uint32_t mx2 = (uint32_t)(((uint64_t)mx * mx + 2147483648u) >> 32);
    const uint32_t my2 = (uint32_t)(((uint64_t)my * my + 2147483648u) >> 32);
    const uint32_t mxy = (uint32_t)(((uint64_t)mx * my + 2147483648u) >> 32);
    const uint32_t vxx = (uint32_t)((sxx + 32768) >> 16);
    const uint32_t vyy = (uint32_t)((syy + 32768) >> 16);
    const uint32_t vxy = (uint32_t)((sxy + 32768) >> 16);
    LsVifSigmas s;
    s.sigma1_sq = (int32_t)(vxx - mx2);
    s.sigma2_sq = (int32_t)(vyy - my2);
    s.sigma12 = (int32_t)(vxy - mxy);
    return s;
}

#if !defined(LS_OPENCL_C) /* the OpenCL kernels have their own tiles (src/opencl/vif.cl) */
/* The vertical pass of the statistics at column j (vif.md §5.1): rows[k] is the k-th of the
 * 2R+1 reflected source rows. Outputs the five per-column values. */
LS_HD static inline void ls_vif_vert_column(const void *const *ref_rows,
                                            const void *const *dis_rows, unsigned j,
                                            const LsVifLevel *level, uint32_t out[5])
{
    const unsigned width = ls_vif_width(level->scale);
    const LS_GLOBAL uint16_t *f = ls_vif_taps[level->scale];
    uint32_t ax = 0, ay = 0;
    uint64_t axx = 0, ayy = 0, axy = 0;
    for (unsigned k = 0; k < width; k++) {
        const uint32_t x = level->bytes ? ((const uint8_t *)ref_rows[k])[j]
                                        : ((const uint16_t *)ref_rows[k])[j];
        const uint32_t y = level->bytes ? ((const uint8_t *)dis_rows[k])[j]
                                        : ((const uint16_t *)dis_rows[k])[j];
        const uint32_t fx = f[k] * x, fy = f[k] * y;
        ax += fx;
        ay += fy;
        /* 8-bit: the reference sums in uint32 (65536 * 255^2 < 2^32), the same values */
        axx += (uint64_t)fx * x;
        ayy += (uint64_t)fy * y;
        axy += (uint64_t)fx * y;
    }
    out[0] = (ax + level->mu_round) >> level->mu_shift;
    out[1] = (ay + level->mu_round) >> level->mu_shift;
    out[2] = (uint32_t)((axx + level->sq_round) >> level->sq_shift);
    out[3] = (uint32_t)((ayy + level->sq_round) >> level->sq_shift);
    out[4] = (uint32_t)((axy + level->sq_round) >> level->sq_shift);
}

/* The horizontal pass at one pixel (vif.md §5.2): v[f] points at the column-j-R entry of field f
 * (mu1, mu2, xx, yy, xy) of the reflect-padded vertical results. */
LS_HD static inline LsVifSigmas ls_vif_horiz_pixel(const uint32_t *const v[5], unsigned scale)
{
    const unsigned width = ls_vif_width(scale);
    const LS_GLOBAL uint16_t *f = ls_vif_taps[scale];
    uint32_t mx = 0, my = 0;
    uint64_t sxx = 0, syy = 0, sxy = 0;
    for (unsigned k = 0; k < width; k++) {
        mx += f[k] * v[0][k];
        my += f[k] * v[1][k];
        sxx += (uint64_t)f[k] * v[2][k];
        syy += (uint64_t)f[k] * v[3][k];
        sxy += (uint64_t)f[k] * v[4][k];
    }
    return ls_vif_sigmas(mx, my, sxx, syy, sxy);
}
#endif

/* ---- fixed-point log2 (vif.md §5.4) ---- */

/* floor(log2(x)) for x > 0 */
LS_HD static inline int ls_vif_floor_log2(uint64_t x)
{
#if defined(LS_OPENCL_C)
    return 63 - (int)clz(x);
#elif defined(__CUDA_ARCH__)
    return 63 - __clzll((long long)x);
#else
    return 63 - __builtin_clzll(x);
#endif
}

/* LOG2_32 and LOG2_64 of the spec are one function: both keep the 16 leading bits of x
 * (k = 16 - clz32 = 48 - clz64 = floor(log2 x) - 15) and look them up. x >= 2^17.
 * table: the 32768 entries for 32768..65535 (LS_VIF_LOG2_TABLE_INIT). */
LS_HD static inline int32_t ls_vif_log2(const LS_GLOBAL uint16_t *table, uint64_t x)
{
    const int k = ls_vif_floor_log2(x) - 15;
    return (int32_t)table[(x >> k) - 32768] + 2048 * k;
}

/* ---- per-pixel contribution (vif.md §5.3) ---- */

typedef struct LsVifAccum {
    int64_t num_log, den_log, num_nonlog, den_nonlog;
} LsVifAccum;

/* C's double -> int32 conversion where it is defined; elsewhere what x86 gives (INT32_MIN). The
 * statistics never leave the range (|sv_sq| stays below 2^31), so this only avoids UB. */
LS_HD static inline int32_t ls_vif_trunc_i32(ls_f64 d)
{
    const ls_f64 lo = LS_F64_C(0xc1e0000000200000ull, -2147483649.0);
    const ls_f64 hi = LS_F64_C(0x41e0000000000000ull, 2147483648.0);
    return (ls_f64_lt(lo, d) && ls_f64_lt(d, hi)) ? (int32_t)ls_f64_to_i64(d) : INT32_MIN;
}

/* The binary64 steps go through ls_f64 (core/soft_f64.h): double in C and CUDA, its exact
 * integer emulation in OpenCL C. */
LS_HD static inline void ls_vif_pixel(const LS_GLOBAL uint16_t *table, int32_t sigma1_sq,
                                      int32_t sigma2_sq, int32_t sigma12, ls_f64 gain_limit,
                                      LsVifAccum *acc)
{
    const int32_t sigma_nsq = LS_VIF_SIGMA_NSQ;
    sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
    if (sigma1_sq >= sigma_nsq) {
        /* uint32 sum as the reference's (it wraps only for sigma1_sq near INT32_MAX) */
        acc->den_log += ls_vif_log2(table, (uint32_t)sigma_nsq + (uint32_t)sigma1_sq) -
                        LS_VIF_LOG_DEN_OFFSET;
        if (sigma12 > 0 && sigma2_sq > 0) {
            const ls_f64 s1 = ls_f64_from_i32(sigma1_sq), s12 = ls_f64_from_i32(sigma12);
            ls_f64 g = ls_f64_div(s12, ls_f64_add(s1, LS_VIF_EPS));
            int32_t sv_sq =
                ls_vif_trunc_i32(ls_f64_sub(ls_f64_from_i32(sigma2_sq), ls_f64_mul(g, s12)));
            sv_sq = sv_sq > 0 ? sv_sq : 0;
            g = ls_f64_lt(g, gain_limit) ? g : gain_limit;
            /* uint32 as in the reference: above 2^31 when sv_sq is near INT32_MAX */
            const uint32_t n1 = (uint32_t)sv_sq + (uint32_t)sigma_nsq;
            const int64_t n2 = ls_f64_to_i64(ls_f64_mul(ls_f64_mul(g, g), s1)) + n1;
            acc->num_log += ls_vif_log2(table, (uint64_t)n2) - ls_vif_log2(table, n1);
        }
    } else {
        acc->num_nonlog += sigma2_sq;
        acc->den_nonlog += 1;
    }
}

#if !defined(LS_OPENCL_C) /* host math (the twins return the integer accumulators) */
/* ---- per-scale numerator and denominator (vif.md §5.5) ---- */

LS_HD static inline float ls_vif_num(const LsVifAccum *a)
{
    return (float)((double)a->num_log / 2048.0 +
                   ((double)a->den_nonlog - ((double)a->num_nonlog / 16384.0) / 65025.0));
}

LS_HD static inline float ls_vif_den(const LsVifAccum *a)
{
    return (float)((double)a->den_log / 2048.0 + (double)a->den_nonlog);
}
#endif

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)

/* The log2 table of the CPU path: entry k is T[32768 + k]; entry 32768 is T[65536] = 0, so that
 * a 32-bit gather of any entry (scale 2, high half masked) stays inside the table. */
extern const uint16_t ls_vif_log2_table[32769];

/* What the CPU extractor and its GPU twins share besides the math: options, size, names. */
typedef struct LsVifState {
    LsVifOptions opt;
    unsigned bpc, w, h;
    char name_score[LS_VIF_SCALES][256];
    char name_vif[256], name_num[256], name_den[256];
    char name_num_scale[LS_VIF_SCALES][256], name_den_scale[LS_VIF_SCALES][256];
} LsVifState;

/* The extractor's checks and refusals (one line through ls_fex_error) and its output names; it
 * reads luma only. */
int ls_vif_state_init(LsFex *fex, LsVifState *st, const LsVifOptions *opt, unsigned bpc,
                      unsigned w, unsigned h);
/* Every output of frame `index` from the four scales' integer accumulators (vif.md §5.5, §1). */
int ls_vif_write_scores(const LsVifState *st, const LsVifAccum acc[LS_VIF_SCALES], unsigned index,
                        LsCollector *fc);

extern const LsOption ls_vif_options[];
extern const LsExtractor ls_fex_vif;

/* ---- DSP units of the CPU path (C reference in vif_dsp.c, SIMD in x86/vif_avx2.c and
 * x86/vif_avx512.c) ---- */

/* A picture of the pyramid: samples of the level's kind (bytes or uint16), stride in bytes. */
typedef struct LsVifPlane {
    const void *data;
    ptrdiff_t stride;
    unsigned w, h;
} LsVifPlane;

/* Adds the contributions of every pixel of one scale (vif.md §5) of the pair to acc. Needs
 * w, h > R of the level's scale. tmp: ls_vif_tmp_size(w) bytes, 64-byte aligned. */
typedef void (*LsVifStatsFn)(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                             double gain_limit, LsVifAccum *acc, void *tmp);
/* Adds the contributions of n pixels (ls_vif_pixel) to acc; any order. */
typedef void (*LsVifPixelsFn)(const int32_t *sigma1_sq, const int32_t *sigma2_sq,
                              const int32_t *sigma12, unsigned n, double gain_limit,
                              LsVifAccum *acc);
/* The next scale of src (vif.md §4: the low-pass with the taps of scale level->scale + 1 and the
 * rounding of src's level, kept at even rows and columns) into dst, w/2 x h/2 packed rows. */
typedef void (*LsVifDecimateFn)(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst,
                                void *tmp);

/* The SIMD statistics run in vertical strips of at most LS_VIF_STRIP_COLS output columns (a
 * multiple of 64), so that the pair rows of a strip (LS_VIF_RING of them: every pair (m, m+1)
 * that a window of 2R+1 rows touches, and the next) stay in L2. Lanes that need the numerator
 * term wait in batches of LS_VIF_BATCH. */
#define LS_VIF_GROUP 4 /* output rows of one parity per vertical pass */
#define LS_VIF_RING (16 + 2 * LS_VIF_GROUP)
#define LS_VIF_STRIP_COLS 1024
#define LS_VIF_BATCH (LS_VIF_STRIP_COLS + 1024)
/* int16 per piece of a horizontal input row: a strip, its halo and margins */
#define LS_VIF_HBUF_LEN (LS_VIF_STRIP_COLS + 128)

static inline unsigned ls_vif_strips(unsigned w)
{
    return (w + LS_VIF_STRIP_COLS - 1) / LS_VIF_STRIP_COLS;
}

/* Byte offsets in tmp of the SIMD statistics' buffers (the pair-row ring at 0) and the int16
 * length of each of the 8 horizontal input rows. Bounds: a strip has at most
 * LS_VIF_STRIP_COLS + 31 columns (a last strip narrower than a vector joins the one before),
 * its vertical blocks (32 columns at most, the halo of 8 on each side included) at most
 * LS_VIF_STRIP_COLS + 80; the horizontal pass reads up to a vector past the strip and halo. */
typedef struct LsVifSimdTmp {
    size_t hbuf, batch, total;
} LsVifSimdTmp;

static inline LsVifSimdTmp ls_vif_simd_tmp(unsigned w)
{
    const size_t cols = (size_t)(w < LS_VIF_STRIP_COLS ? w : LS_VIF_STRIP_COLS) + 128;
    LsVifSimdTmp t;
    t.hbuf = LS_VIF_RING * 16 * cols * sizeof(int16_t); /* 8 pieces of 2 rows */
    /* 2 GROUP rows of 8 pieces */
    t.batch = t.hbuf + 2 * LS_VIF_GROUP * 8 * LS_VIF_HBUF_LEN * sizeof(int16_t);
    t.total = t.batch + 3 * (LS_VIF_BATCH + 16) * sizeof(int32_t);
    return t;
}

static inline size_t ls_vif_tmp_size(unsigned w)
{
    const size_t simd = ls_vif_simd_tmp(w).total;
    const size_t c = (8 * (size_t)w + 5 * 2 * LS_VIF_MAX_TAPS) * sizeof(uint32_t); /* C, both */
    return (simd > c ? simd : c) + 4096;
}

typedef struct LsVifDsp {
    LsVifStatsFn stats;
    LsVifPixelsFn pixels;
    LsVifDecimateFn decimate;
} LsVifDsp;

void ls_vif_dsp_init(LsVifDsp *dsp, uint64_t cpu_flags);

/* the C references (also what the SIMD variants use for row and column tails) */
void ls_vif_stats_c(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                    double gain_limit, LsVifAccum *acc, void *tmp);
void ls_vif_pixels_c(const int32_t *sigma1_sq, const int32_t *sigma2_sq, const int32_t *sigma12,
                     unsigned n, double gain_limit, LsVifAccum *acc);
void ls_vif_decimate_c(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst, void *tmp);

/* Pointers to rows center - r .. center + r of the plane, reflected (vif.md §3). */
static inline void ls_vif_window(const LsVifPlane *pl, int center, unsigned r,
                                 const void *rows[LS_VIF_MAX_TAPS])
{
    for (unsigned k = 0; k < 2 * r + 1; k++)
        rows[k] = (const uint8_t *)pl->data +
                  ls_vif_reflect(center - (int)r + (int)k, (int)pl->h) * pl->stride;
}

void ls_vif_stats_avx2(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                       double gain_limit, LsVifAccum *acc, void *tmp);
void ls_vif_pixels_avx2(const int32_t *sigma1_sq, const int32_t *sigma2_sq,
                        const int32_t *sigma12, unsigned n, double gain_limit, LsVifAccum *acc);
void ls_vif_decimate_avx2(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst,
                          void *tmp);
void ls_vif_stats_avx512(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                         double gain_limit, LsVifAccum *acc, void *tmp);
void ls_vif_pixels_avx512(const int32_t *sigma1_sq, const int32_t *sigma2_sq,
                          const int32_t *sigma12, unsigned n, double gain_limit, LsVifAccum *acc);
void ls_vif_decimate_avx512(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst,
                            void *tmp);
void ls_vif_stats_avx512vnni(const LsVifPlane *ref, const LsVifPlane *dis,
                             const LsVifLevel *level, double gain_limit, LsVifAccum *acc,
                             void *tmp);
void ls_vif_pixels_avx512vnni(const int32_t *sigma1_sq, const int32_t *sigma2_sq,
                              const int32_t *sigma12, unsigned n, double gain_limit,
                              LsVifAccum *acc);
void ls_vif_decimate_avx512vnni(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst,
                                void *tmp);

#endif /* !__CUDACC__ && !LS_OPENCL_C */

#endif
