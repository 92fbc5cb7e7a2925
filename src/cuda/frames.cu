/* The frame pipeline's own kernel: a 10-bit frame pair sent packed (core/pack10.h, 20 bytes per
 * 16 samples) back to the 16-bit planes every twin reads. One thread per group. */
#include <stdint.h>

#include "core/pack10.h"
#include "cuda/frames_cuda.h"

extern "C" __global__ void __launch_bounds__(LS_UNPACK10_THREADS)
ls_frames_unpack10(const __grid_constant__ LsUnpack10Args a)
{
    const unsigned g = blockIdx.x * LS_UNPACK10_THREADS + threadIdx.x;
    if (g >= a.groups_end[a.n_planes - 1])
        return;
    unsigned p = 0;
    while (g >= a.groups_end[p])
        p++;
    const unsigned k = g - (p ? a.groups_end[p - 1] : 0u);
    const unsigned *src = (const unsigned *)(a.src + a.src_off[p]) + LS_PACK10_GROUP_WORDS * k;
    unsigned w[LS_PACK10_GROUP_WORDS];
    for (unsigned i = 0; i < LS_PACK10_GROUP_WORDS; i++)
        w[i] = src[i];
    unsigned out[LS_PACK10_GROUP / 2];
    for (unsigned i = 0; i < LS_PACK10_GROUP / 2; i++)
        out[i] = ls_unpack10_sample(w, 2 * i) | ls_unpack10_sample(w, 2 * i + 1) << 16;
    uint4 *dst = (uint4 *)(a.dst + a.dst_off[p]) + 2 * k;
    dst[0] = make_uint4(out[0], out[1], out[2], out[3]);
    dst[1] = make_uint4(out[4], out[5], out[6], out[7]);
}
