/* What the motion twins' host files (float_motion.c, motion.c) and motion.cu share: the kernels'
 * launch parameters, passed by value (fixed-size types only), and their tiles. */
#ifndef LOCKSTEP_CUDA_MOTION_CUDA_H
#define LOCKSTEP_CUDA_MOTION_CUDA_H

#include <stdint.h>

/* Blur and SAD tiles: TILE_W output columns by TILE_H rows per block, one thread per column pair
 * of rows (LS_MOTION_THREADS threads). */
#define LS_MOTION_TILE_W 128u
#define LS_MOTION_TILE_H 8u
#define LS_MOTION_THREADS 256u
#define LS_MOTION_SAD_WARPS 4u /* warps per block of the row sums, 32 rows each */

/* Integer motion: SAD of the blurred difference prev - cur of one luma plane pair. */
typedef struct LsIntMotionSadArgs {
    uint64_t prev, cur;   /* luma planes, rows of w samples (bytes at 8 bit, else uint16) */
    uint64_t sad;         /* unsigned long long *: zeroed before the launch */
    uint32_t w, h, bpc;
} LsIntMotionSadArgs;

/* float_motion: blur of one plane into dst (w x h floats). */
typedef struct LsFloatMotionBlurArgs {
    uint64_t src;         /* samples, rows of w (bytes at 8 bit, else uint16) */
    uint64_t dst;         /* float * */
    uint32_t w, h, bpc, n_taps;
    float taps[5];
    float divisor;
} LsFloatMotionBlurArgs;

/* float_motion: half-size bilinear copy of a blurred plane (motion_add_scale1). */
typedef struct LsFloatMotionDownscaleArgs {
    uint64_t src, dst;    /* float * */
    uint32_t sw, sh, dw, dh;
    float rx, ry;         /* (float)sw / dw, (float)sh / dh */
} LsFloatMotionDownscaleArgs;

/* float_motion: per-row float sums of |a - b| (left to right), then one float chain over the
 * rows (top to bottom) into *total. */
typedef struct LsFloatMotionSadArgs {
    uint64_t a, b;        /* float *, w x h */
    uint64_t rows;        /* float *, h */
    uint64_t total;       /* float *, one */
    uint32_t w, h;
} LsFloatMotionSadArgs;

#endif
