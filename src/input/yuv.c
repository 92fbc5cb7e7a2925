/* Planar YUV frame layout, shared by raw YUV and Y4M: Y, then Cb, then Cr, no padding; subsampled
 * chroma planes are ceil of half the luma size (what a Y4M or raw file of odd size stores). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "input/input_internal.h"

const char *ls_pix_fmt_name(enum VmafPixelFormat fmt)
{
    switch (fmt) {
    case VMAF_PIX_FMT_YUV420P: return "420";
    case VMAF_PIX_FMT_YUV422P: return "422";
    case VMAF_PIX_FMT_YUV444P: return "444";
    case VMAF_PIX_FMT_YUV400P: return "400";
    default: return NULL;
    }
}

enum VmafPixelFormat ls_pix_fmt_from_name(const char *name)
{
    static const enum VmafPixelFormat formats[] = {
        VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P, VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P,
    };
    if (!name)
        return VMAF_PIX_FMT_UNKNOWN;
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (!strcmp(name, ls_pix_fmt_name(formats[i])))
            return formats[i];
    return VMAF_PIX_FMT_UNKNOWN;
}

int ls_frame_geometry(LsVideoInfo *info, LsFrameGeometry *geo, char *why, size_t why_len)
{
    const unsigned w = info->w, h = info->h;
    if (!w || !h) {
        snprintf(why, why_len, "zero %s", !w ? "width" : "height");
        return -EINVAL;
    }
    if (w > LS_INPUT_MAX_DIM || h > LS_INPUT_MAX_DIM) {
        snprintf(why, why_len, "size %ux%u out of range (at most %u per side)", w, h,
                 LS_INPUT_MAX_DIM);
        return -EINVAL;
    }
    if (info->bpc < 8 || info->bpc > 16) {
        snprintf(why, why_len, "unsupported bit depth %u (8..16)", info->bpc);
        return -EINVAL;
    }

    memset(geo, 0, sizeof(*geo));
    const unsigned half_w = (w + 1) / 2, half_h = (h + 1) / 2;
    switch (info->fmt) {
    case VMAF_PIX_FMT_YUV420P:
        geo->n_planes = 3;
        geo->w[1] = geo->w[2] = half_w;
        geo->h[1] = geo->h[2] = half_h;
        break;
    case VMAF_PIX_FMT_YUV422P:
        geo->n_planes = 3;
        geo->w[1] = geo->w[2] = half_w;
        geo->h[1] = geo->h[2] = h;
        break;
    case VMAF_PIX_FMT_YUV444P:
        geo->n_planes = 3;
        geo->w[1] = geo->w[2] = w;
        geo->h[1] = geo->h[2] = h;
        break;
    case VMAF_PIX_FMT_YUV400P:
        geo->n_planes = 1;
        break;
    default:
        snprintf(why, why_len, "unknown pixel format");
        return -EINVAL;
    }
    geo->w[0] = w;
    geo->h[0] = h;
    geo->bytes_per_sample = info->bpc > 8 ? 2 : 1;

    /* Sides are at most 2^15, so every product below fits in 64 bits. */
    uint64_t total = 0;
    for (unsigned p = 0; p < geo->n_planes; p++) {
        const uint64_t row = (uint64_t)geo->w[p] * geo->bytes_per_sample;
        total += row * geo->h[p];
    }
    if (total > LS_INPUT_MAX_FRAME_BYTES) {
        snprintf(why, why_len, "frame of %ux%u %s %u-bit is %llu bytes, over the limit of %zu",
                 w, h, ls_pix_fmt_name(info->fmt), info->bpc, (unsigned long long)total,
                 (size_t)LS_INPUT_MAX_FRAME_BYTES);
        return -EINVAL;
    }
    for (unsigned p = 0; p < geo->n_planes; p++) {
        geo->row_bytes[p] = (size_t)geo->w[p] * geo->bytes_per_sample;
        geo->plane_bytes[p] = geo->row_bytes[p] * geo->h[p];
    }
    info->frame_bytes = (size_t)total;
    return 0;
}
