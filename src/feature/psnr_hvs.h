/* PSNR-HVS (`psnr_hvs`): what the CPU extractor and its GPU twins share.
 * The option struct is the first member of every psnr_hvs extractor's private state, so a twin
 * takes the CPU's option table itself. Per-block arithmetic: psnr_hvs_block.h; tables:
 * psnr_hvs_tables.h; the host math below turns the three plane sums into scores for everyone.
 * Spec: shared/spec/features/psnr_hvs.md. */
#ifndef LOCKSTEP_FEATURE_PSNR_HVS_H
#define LOCKSTEP_FEATURE_PSNR_HVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/extractor.h"

typedef struct LsPsnrHvsOptions {
    bool enable_chroma;
} LsPsnrHvsOptions;

extern const LsOption ls_psnr_hvs_options[];
extern const LsExtractor ls_fex_psnr_hvs;

/* Per-run constants from the first picture. */
typedef struct LsPsnrHvsState {
    LsPsnrHvsOptions opt; /* enable_chroma forced off for 4:0:0 */
    unsigned bpc;
    unsigned n_planes;    /* planes scored: 1 or 3 */
    unsigned w[3], h[3];
    int n_terms[3];       /* 64 per block (the reference's int counter) */
} LsPsnrHvsState;

/* Blocks along one axis of N samples: 8x8 blocks at a step of 7 (§5). */
static inline unsigned ls_psnr_hvs_blocks(unsigned n)
{
    return n < 8 ? 0 : (n - 8) / 7 + 1;
}

/* Validates bpc (≤ 12) and the plane sizes, fills s. Refuses, naming the plane and its size, any
 * scored plane smaller than 8x8 (the reference would report NaN there); when only the chroma
 * planes are too small the message suggests enable_chroma=false. -EINVAL via ls_fex_error. */
int ls_psnr_hvs_state_init(LsFex *fex, LsPsnrHvsState *s, const LsPsnrHvsOptions *opt,
                           enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h);
/* The size check alone, on the plane sizes of s (part of ls_psnr_hvs_state_init). */
int ls_psnr_hvs_check_planes(const LsFex *fex, const LsPsnrHvsState *s);

/* A plane's linear score from its float sum and term count (§9): (sum / n) / (M * M) in float. */
double ls_psnr_hvs_plane_score(float sum, int n_terms, unsigned bpc);
/* The combined linear score of the planes scored (§9): 0.8 luma + 0.1 (cb + cr), or luma alone. */
double ls_psnr_hvs_combine(const double score[3], unsigned n_planes);
/* 10 * -log10(score), as the reference writes it: +inf for a zero score. */
double ls_psnr_hvs_db(double score);
/* Writes psnr_hvs_y (, psnr_hvs_cb, psnr_hvs_cr), psnr_hvs for one frame from the plane sums. */
int ls_psnr_hvs_write_scores(const LsPsnrHvsState *s, const float sum[3], unsigned index,
                             LsCollector *fc);

/* The plane sum S of §8: one float chain over the terms of every block, block raster order,
 * row-major inside each block. plane selects the tables (0 luma, 1 cb, 2 cr). A DSP unit: C
 * reference in psnr_hvs_dsp.c, AVX2 in x86/psnr_hvs_avx2.c, bit-identical. */
typedef float (*LsPsnrHvsPlaneSumFn)(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                     ptrdiff_t dis_stride, unsigned w, unsigned h, int plane);
typedef struct LsPsnrHvsDsp {
    LsPsnrHvsPlaneSumFn plane_sum[2]; /* [0]: 8-bit samples, [1]: 16-bit words */
} LsPsnrHvsDsp;
void ls_psnr_hvs_dsp_init(LsPsnrHvsDsp *dsp, uint64_t cpu_flags);
void ls_psnr_hvs_dsp_init_x86(LsPsnrHvsDsp *dsp, uint64_t cpu_flags);

#endif
