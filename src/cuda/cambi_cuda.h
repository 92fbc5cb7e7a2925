/* What the cambi twin's host file (cambi.c) and cambi.cu share: launch parameters (by value,
 * fixed-size types only) and the per-frame result. */
#ifndef LOCKSTEP_CUDA_CAMBI_CUDA_H
#define LOCKSTEP_CUDA_CAMBI_CUDA_H

#include <stdint.h>

#include "feature/cambi_math.h"

#define LS_CAMBI_THREADS 256u
#define LS_CAMBI_COLS 32u       /* c-values: one warp per block, one column per thread */
#define LS_CAMBI_STRIP 64u      /* c-values: output rows per block */
#define LS_CAMBI_UNMASKED 0xffffu /* a masked value plane's entry that no c-value counts */

/* Per frame, back to the host: each scale's LsCambiSums and the largest luma sample. */
typedef struct LsCambiResult {
    uint64_t total[LS_CAMBI_NUM_SCALES], bits[LS_CAMBI_NUM_SCALES];
    uint32_t nonzero[LS_CAMBI_NUM_SCALES], odd[LS_CAMBI_NUM_SCALES];
    uint32_t top;
    uint32_t pad;
} LsCambiResult;

/* The 10-bit working picture (§5), the zero derivatives and the mask (§6.1). */
typedef struct LsCambiPreArgs {
    uint64_t src;          /* luma, in_w x in_h (bytes when bpc 8, else uint16) */
    uint64_t pos_x, pos_y; /* int32 input columns/rows of the working samples, 0: the same */
    uint64_t img, z, mask; /* w x h: uint16, uint8, uint8 */
    uint64_t result;       /* LsCambiResult: top */
    int32_t in_w, in_h, w, h, bpc, antidither, mask_index;
    int32_t mask_step;     /* the mask is computed where the scales read it: every mask_step-th
                            * sample of every mask_step-th row (2 with the speed-up) */
} LsCambiPreArgs;

/* One scale's mode filter: the decimated picture (from src, every `step`-th sample of every
 * `step`-th row), its mode filter (§6.2), and the masked values (mask0 sampled every
 * mask_step). */
typedef struct LsCambiScaleArgs {
    uint64_t src, mask0;   /* src: uint16, rows of src_w; mask0: uint8, rows of mask_w */
    uint64_t filtered, mv; /* w x h uint16 */
    LsCambiThresholds thr;
    int32_t src_w, step, mask_w, mask_step;
    int32_t w, h;
} LsCambiScaleArgs;

/* The c-values of every scale in one launch: scale k's strips are blocks block0[k] ..
 * block0[k + 1] - 1, gx[k] strips of LS_CAMBI_COLS columns side by side. */
typedef struct LsCambiCArgs {
    uint64_t mv[LS_CAMBI_NUM_SCALES]; /* w x h uint16 */
    uint64_t c[LS_CAMBI_NUM_SCALES];  /* w x h float */
    uint64_t result;                  /* LsCambiResult */
    LsCambiThresholds thr;
    int32_t w[LS_CAMBI_NUM_SCALES], h[LS_CAMBI_NUM_SCALES], gx[LS_CAMBI_NUM_SCALES];
    int32_t block0[LS_CAMBI_NUM_SCALES + 1];
    int32_t pad, n_values; /* n_values: histogram rows, values lo - n_diffs .. */
} LsCambiCArgs;

#endif
