/* What the frame pipeline (twin.c) and frames.cu share: the launch parameters of the kernel that
 * unpacks a 10-bit frame pair sent in the packed form of core/pack10.h. */
#ifndef LOCKSTEP_CUDA_FRAMES_CUDA_H
#define LOCKSTEP_CUDA_FRAMES_CUDA_H

#include <stdint.h>

#define LS_UNPACK10_THREADS 256u
#define LS_UNPACK10_MAX_PLANES 6u /* three per side */

/* Plane k (reference planes, then distorted) is groups [groups_end[k-1], groups_end[k]) of the
 * frame: packed at src + src_off[k], unpacked to 16-bit samples at dst + dst_off[k]. A plane's
 * rows follow each other without padding on both sides, so a plane is one run of groups. */
typedef struct LsUnpack10Args {
    uint64_t src, dst;
    uint64_t src_off[LS_UNPACK10_MAX_PLANES], dst_off[LS_UNPACK10_MAX_PLANES];
    uint32_t groups_end[LS_UNPACK10_MAX_PLANES];
    uint32_t n_planes;
} LsUnpack10Args;

#endif
