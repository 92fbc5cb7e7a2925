/* Shared between the reader files: frame geometry (yuv.c) and Y4M header parsing (y4m.c). */
#ifndef LOCKSTEP_INPUT_INPUT_INTERNAL_H
#define LOCKSTEP_INPUT_INPUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* "an MP4/MOV container", "a Matroska/WebM container"... when the first bytes are those of a
 * compressed container or stream, else NULL. */
const char *ls_container_signature(const unsigned char *head, size_t len);
/* The extension (".mp4") when the path names a container or bitstream file, else NULL. */
const char *ls_container_extension(const char *path);
/* The -w -h -p -b settings (given size first, then common sizes) whose frames divide a raw
 * file of file_bytes, as a ", "-separated list into buf ("" when none does). */
void ls_raw_sizes_that_fit(uint64_t file_bytes, const LsRawParams *given, char *buf, size_t len);

/* Containers through FFmpeg's libraries (av.c; stubs that say so in a build without them). */
typedef struct LsAvReader LsAvReader;
bool ls_av_available(void);
const char *ls_av_versions(char *buf, size_t len);
/* Opens the file at path, or when stream is not NULL the stream, whose first head_len bytes
 * were already read (head). Fills info's w, h, fmt, bpc, fps, frame count and source. On failure
 * returns -EINVAL (not readable as a container), -ENOTSUP (a video lockstep does not score: no
 * decoder, a pixel format it has no picture for, interlaced) or -ENOMEM, with the reason (without
 * the file name) in why. */
int ls_av_open(LsAvReader **av, const char *path, FILE *stream, const unsigned char *head,
               size_t head_len, LsVideoInfo *info, char *why, size_t why_len);
/* Decodes the next frame into pic's first `planes` planes (pic NULL: decoded and dropped).
 * Returns 1, 0 at the end of the video, or a negative errno with the reason in why. */
int ls_av_read(LsAvReader *av, VmafPicture *pic, unsigned planes, char *why, size_t why_len);
void ls_av_close(LsAvReader *av);

#endif
