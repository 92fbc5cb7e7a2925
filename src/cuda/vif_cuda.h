/* What the vif twin's host file (vif.c) and vif.cu share: launch parameters (by value, fixed-size
 * types only) and tiles. */
#ifndef LOCKSTEP_CUDA_VIF_CUDA_H
#define LOCKSTEP_CUDA_VIF_CUDA_H

#include <stdint.h>

#define LS_VIF_THREADS 256u
/* statistics: outputs per block; a thread per column of the tile and its halo (240 + 2 x 8) */
#define LS_VIF_TILE_W 240u
#define LS_VIF_TILE_H 8u
/* subsampling: outputs of the next scale per block (their 2 x 120 - 1 + 2 x 4 source columns) */
#define LS_VIF_DEC_TILE_W 120u
#define LS_VIF_DEC_TILE_H 8u

/* One scale's statistics over a w x h pair: the four integer accumulators of every pixel
 * (LsVifAccum) added into acc (long long[4], zeroed before). */
typedef struct LsVifStatsArgs {
    uint64_t ref, dis;   /* samples: bytes when `bytes`, else uint16; rows of w, no padding */
    uint64_t table;      /* const uint16_t[32768]: the log2 table */
    uint64_t acc;        /* long long[4] */
    uint64_t sq_round;
    double gain_limit;
    uint32_t w, h, scale, bytes, mu_shift, mu_round, sq_shift;
} LsVifStatsArgs;

/* The next scale of both pictures (blockIdx.z: 0 reference, 1 distorted) from a w x h level. */
typedef struct LsVifDecimateArgs {
    uint64_t src[2];     /* the level's samples (bytes when `bytes`, else uint16), rows of w */
    uint64_t dst[2];     /* uint16, (w / 2) x (h / 2) */
    uint32_t w, h, scale, bytes, mu_shift, mu_round; /* of the source level */
} LsVifDecimateArgs;

#endif
