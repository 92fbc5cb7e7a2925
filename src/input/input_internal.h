/* Shared between the reader files: frame geometry (yuv.c) and Y4M header parsing (y4m.c). */
#ifndef LOCKSTEP_INPUT_INPUT_INTERNAL_H
#define LOCKSTEP_INPUT_INPUT_INTERNAL_H

#include <stddef.h>

#include "input/input.h"

/* Longest Y4M header line and FRAME line accepted (bytes, newline excluded). Upstream stops at
 * 255 for the header; X tags can make real headers longer, so allow more, but stay bounded so
 * that a file without newlines cannot make the reader run away. */
#define LS_Y4M_LINE_MAX 1024

typedef struct LsFrameGeometry {
    unsigned n_planes;
    unsigned w[3], h[3];
    unsigned bytes_per_sample;
    size_t row_bytes[3];
    size_t plane_bytes[3];
} LsFrameGeometry;

/* Checks the size, format and depth against the reader's limits and fills the plane layout and
 * info->frame_bytes. On failure writes the reason (without the file name) into why. */
int ls_frame_geometry(LsVideoInfo *info, LsFrameGeometry *geo, char *why, size_t why_len);

/* Parses the tags of a Y4M header line; `tags` is the text after "YUV4MPEG2" (newline removed,
 * `len` bytes, may contain anything). Fills w, h, fmt, bpc, chroma, fps. On failure returns a
 * negative errno and writes the reason (without the file name) into why. */
int ls_y4m_parse_header(const char *tags, size_t len, LsVideoInfo *info, char *why,
                        size_t why_len);

#endif
