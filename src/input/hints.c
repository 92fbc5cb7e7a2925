/* What the readers tell a user whose input is not what they think: a compressed container given
 * as video, a raw file whose size no frame layout divides. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input/input_internal.h"

const char *ls_container_signature(const unsigned char *head, size_t len)
{
    if (len >= 8 && !memcmp(head + 4, "ftyp", 4))
        return "an MP4/MOV container";
    if (len >= 4 && !memcmp(head, "\x1a\x45\xdf\xa3", 4))
        return "a Matroska/WebM container";
    if (len >= 4 && !memcmp(head, "RIFF", 4))
        return "a RIFF (AVI) container";
    if (len >= 4 && !memcmp(head, "DKIF", 4))
        return "an IVF (VP8/VP9/AV1) stream";
    if (len >= 4 && !memcmp(head, "FLV\x01", 4))
        return "an FLV container";
    return NULL;
}

const char *ls_container_extension(const char *path)
{
    static const char *const names[] = {
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "m2ts", "mts", "mpg", "mpeg", "flv",
        "wmv", "ivf", "obu", "h264", "264", "avc", "h265", "265", "hevc", "vvc", "266",
    };
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot)
        return NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcasecmp(dot + 1, names[i]))
            return dot;
    return NULL;
}

/* Bytes of one frame; 0 when the layout is out of the reader's range. */
static uint64_t frame_bytes(unsigned w, unsigned h, enum VmafPixelFormat fmt, unsigned bpc)
{
    LsVideoInfo info = { .w = w, .h = h, .fmt = fmt, .bpc = bpc };
    LsFrameGeometry geo;
    char why[128];
    return ls_frame_geometry(&info, &geo, why, sizeof(why)) ? 0 : info.frame_bytes;
}

void ls_raw_sizes_that_fit(uint64_t file_bytes, const LsRawParams *given, char *buf, size_t len)
{
    /* the given size first (a wrong -p or -b is the usual mistake), then common sizes */
    static const unsigned sizes[][2] = {
        { 0, 0 }, { 1920, 1080 }, { 1280, 720 }, { 3840, 2160 }, { 720, 576 }, { 720, 480 },
        { 640, 480 }, { 640, 360 }, { 960, 540 }, { 854, 480 }, { 352, 288 }, { 176, 144 },
        { 2560, 1440 }, { 4096, 2160 }, { 2048, 1080 }, { 7680, 4320 },
    };
    static const enum VmafPixelFormat formats[] = { VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                                    VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P };
    enum { MAX_HINTS = 4 };
    size_t used = 0;
    unsigned found = 0;
    buf[0] = '\0';
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]) && found < MAX_HINTS; s++) {
        const unsigned w = s ? sizes[s][0] : given->w, h = s ? sizes[s][1] : given->h;
        if (s && w == given->w && h == given->h)
            continue;
        for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]) && found < MAX_HINTS; f++) {
            for (unsigned wide = 0; wide < 2 && found < MAX_HINTS; wide++) {
                const uint64_t n = frame_bytes(w, h, formats[f], wide ? 10 : 8);
                if (!n || file_bytes % n || file_bytes < n)
                    continue;
                const unsigned long long frames = file_bytes / n;
                const int k = snprintf(buf + used, len - used, "%s-w %u -h %u -p %s -b %s (%llu frame%s)",
                                       found ? ", " : "", w, h, ls_pix_fmt_name(formats[f]),
                                       wide ? "10/12/16" : "8", frames, frames == 1 ? "" : "s");
                if (k < 0 || (size_t)k >= len - used)
                    return;
                used += (size_t)k;
                found++;
            }
        }
    }
}
