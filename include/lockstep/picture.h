/* Pictures: the libvmaf VmafPicture layout, so programs written for libvmaf work unchanged. */
#ifndef LOCKSTEP_PICTURE_H
#define LOCKSTEP_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* exported (lockstep.h says why) */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef;

typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;               /* 8..16; samples are uint16_t above 8 */
    unsigned w[3], h[3];        /* chroma: ceil of half where subsampled, 0 for 4:0:0 */
    ptrdiff_t stride[3];        /* bytes */
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Allocates a zero-filled picture with a reference count of 1.
 * Deviation from libvmaf: subsampled chroma planes are ceil(w/2) (and ceil(h/2) for 4:2:0),
 * the size a Y4M or raw file of odd size stores. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);
int vmaf_picture_unref(VmafPicture *pic);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
