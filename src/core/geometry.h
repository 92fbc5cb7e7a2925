/* Plane sizes of the picture model: subsampled chroma is the ceil of half (what Y4M and raw files
 * store for odd sizes; equal to libvmaf's floor for even sizes), 4:0:0 has one plane. The one
 * place this rule is written: pictures, readers' checks and extractors all ask here. */
#ifndef LOCKSTEP_CORE_GEOMETRY_H
#define LOCKSTEP_CORE_GEOMETRY_H

#include "lockstep/picture.h"

/* Fills w[3], h[3] (0 for absent planes) and returns the number of planes. */
static inline unsigned ls_plane_sizes(enum VmafPixelFormat fmt, unsigned width, unsigned height,
                                      unsigned w[3], unsigned h[3])
{
    const unsigned ss_x = fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P;
    const unsigned ss_y = fmt == VMAF_PIX_FMT_YUV420P;
    const unsigned n = fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    w[0] = width;
    h[0] = height;
    for (unsigned p = 1; p < 3; p++) {
        w[p] = n > 1 ? (width + ss_x) >> ss_x : 0;
        h[p] = n > 1 ? (height + ss_y) >> ss_y : 0;
    }
    return n;
}

#endif
