/* psnr_hvs twin: the 64 terms w*w of every 8x8 block (one work-item per block), in the CPU's
 * arithmetic through psnr_hvs_block.h, stored in block raster order, row-major inside a block;
 * ordered_sum.cl then replays the plane's float sum. The threshold's binary64 product and root are
 * computed exactly with integers (fp32_exact.h, exactness.md §4.3); /32 is an exact scaling. */
#include "opencl/fp32_exact.h"
#include "opencl/ordered_sum.cl"

#if defined(LS_MUTATE_FLOAT_THRESHOLD)
/* mutation check: the product and the root in float, as upstream and naive ports do */
#define LS_PSNR_HVS_THRESHOLD(energy, ratio) (sqrt((energy) * (ratio)) * 0x1p-5f)
#else
#define LS_PSNR_HVS_THRESHOLD(energy, ratio) (ls_sqrt_prod_rn(energy, ratio) * 0x1p-5f)
#endif
#if defined(LS_MUTATE_RECIPROCAL_DIV)
#define LS_FDIV(a, b) ((a) * (1.0f / (b))) /* mutation check: a division that is not exact */
#elif defined(LS_EMULATE_DIV_SQRT)
#define LS_FDIV(a, b) ls_div_rn(a, b) /* no correctly rounded division on this device */
#endif

#include "feature/psnr_hvs_block.h"

#if defined(LS_EMULATE_DIV_SQRT) && !defined(LS_PSNR_HVS_FDIV_HOOK)
/* psnr_hvs_block.h must route its divisions through LS_FDIV for the integer emulation */
#error "no correctly rounded fp32 division on this device, and no LS_FDIV hook to emulate it"
#endif

/* plane: packed rows of `pitch` bytes at ref_off and dis_off in frame */
__kernel void ls_psnr_hvs_terms(__global const uchar *frame, ulong ref_off, ulong dis_off,
                                uint pitch, uint blocks_x, uint n_blocks, int bytes_per_sample,
                                int plane, __global float *terms, ulong terms_offset)
{
    const uint id = get_global_id(0);
    if (id >= n_blocks)
        return;
    int s[64], d[64];
    float t[64];
    const int x = 7 * (int)(id % blocks_x), y = 7 * (int)(id / blocks_x);
    ls_psnr_hvs_load_block(s, frame + ref_off, pitch, x, y, bytes_per_sample);
    ls_psnr_hvs_load_block(d, frame + dis_off, pitch, x, y, bytes_per_sample);
    ls_psnr_hvs_block(t, s, d, plane);
    __global float *out = terms + terms_offset + (ulong)id * 64;
    for (int k = 0; k < 64; k++)
        out[k] = t[k];
}
