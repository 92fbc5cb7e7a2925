/* Readers for the CLI, tests and bench: Y4M, raw planar YUV and (when built with FFmpeg's
 * libraries) containers and bitstreams, streaming one frame at a time. The kind of input is
 * detected from the content: a file starting with "YUV4MPEG" is Y4M; a container signature or
 * extension (.mp4, .mkv, ...), or without raw parameters any file FFmpeg's libraries open, is
 * decoded (src/input/av.c); anything else is raw YUV and needs the raw parameters (-w -h -p -b). */
#ifndef LOCKSTEP_INPUT_INPUT_H
#define LOCKSTEP_INPUT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/picture.h"

typedef struct LsRawParams {
    unsigned w, h, bpc;          /* 0 = not given */
    enum VmafPixelFormat fmt;    /* VMAF_PIX_FMT_UNKNOWN = not given */
} LsRawParams;

typedef struct LsVideoInfo {
    unsigned w, h, bpc;
    enum VmafPixelFormat fmt;
    bool y4m;
    char chroma[32];             /* Y4M C tag as written ("420jpeg", "mono10"), "" for raw */
    unsigned fps_num, fps_den;   /* Y4M F tag or the container's frame rate, 0/0 for raw */
    size_t frame_bytes;          /* payload bytes per frame */
    uint64_t frame_count;        /* frames in the input, 0 = not known (a pipe) */
    bool frame_count_exact;      /* false: an estimate (a container's duration times its rate) */
    char source[160];            /* what the reader read: "Y4M C420jpeg", "raw YUV", or
                                    "matroska,webm, ffv1 video (decoder ffv1), yuv420p10le" */
} LsVideoInfo;

typedef struct LsInput LsInput;

/* path "-" reads standard input. raw may be NULL. On error returns a negative errno and writes a
 * one-line message naming the file and the problem into err. */
int ls_input_open(LsInput **in, const char *path, const LsRawParams *raw, char *err,
                  size_t err_len);
const LsVideoInfo *ls_input_info(const LsInput *in);
/* Reads the next frame into pic, which must have the input's geometry (vmaf_picture_alloc with
 * info's fmt, bpc, w, h). Returns 1 when a frame was read, 0 at a clean end of file, a negative
 * errno with a message in err on a truncated frame, a lost FRAME marker or a read error. */
int ls_input_read(LsInput *in, VmafPicture *pic, char *err, size_t err_len);
/* Regular files (not pipes) whose frames carry no FRAME parameters can also be read at any frame
 * index, from several threads at once: same returns as ls_input_read, frames counted from the
 * first frame of the file. */
bool ls_input_can_read_at(const LsInput *in);
int ls_input_read_at(LsInput *in, uint64_t frame, VmafPicture *pic, char *err, size_t err_len);
/* Frames without a copy: ls_input_map maps a file that ls_input_can_read_at reads (false where
 * it cannot: a pipe, a container, a big-endian host, 16-bit samples at odd file offsets, mmap
 * refused), before threads read it; then
 * ls_input_borrow_at makes pic (which it allocates) a picture of frame `frame` as it lies in the
 * mapping: strides of one row's bytes, no padding, the same checks and returns as
 * ls_input_read_at. The input must outlive its borrowed pictures. */
bool ls_input_map(LsInput *in);
int ls_input_borrow_at(LsInput *in, uint64_t frame, VmafPicture *pic, char *err, size_t err_len);
/* From now on read only the first n_planes planes of each frame into pictures (1: luma only, for
 * extractors that read nothing else; lockstep_planes_read tells): the other planes of a picture
 * keep what they held, and their bytes are skipped, though still required to be there (a truncated
 * frame stays an error). Out of range: every plane. Callable while other threads read. */
void ls_input_read_planes(LsInput *in, unsigned n_planes);
/* From now on ls_input_read_at writes 10-bit frames in the packed form of core/pack10.h (the
 * samples checked against the depth first, ls_picture_packed10 set on the planes read), for a
 * run whose every extractor is a CUDA twin: the copy engine moves 5/8 of the bytes, and the
 * host writes no 16-bit rows. Returns false, changing nothing, where it does not apply (not
 * 10-bit, a plane width not a multiple of 16 or above 32768, not read at frame indices, a
 * big-endian host).
 * Callable while other threads read. */
bool ls_input_pack10(LsInput *in);
/* Whether ls_input_pack10 would apply, changing nothing. */
bool ls_input_can_pack10(const LsInput *in);
/* From now on the frames ls_input_read_at packs go to sink wherever it takes their pictures
 * (core/upload_sink.h: the picture is then marked ls_picture_uploaded and its memory not written);
 * NULL: into the pictures again. The sink must outlive the reads. Callable while other threads
 * read. */
struct LsUploadSink;
void ls_input_upload_to(LsInput *in, struct LsUploadSink *sink);
/* The frames of the input from the first one not read yet: from the file's size where it is
 * read at frame indices and nothing was read yet (a partial last frame is not counted: reading
 * it is the error), else by reading through to the end (an error then returns as
 * ls_input_read). */
int ls_input_count_frames(LsInput *in, uint64_t *count, char *err, size_t err_len);
/* Skips one frame; same returns as ls_input_read. */
int ls_input_skip(LsInput *in, char *err, size_t err_len);
void ls_input_close(LsInput *in);

/* Writing, for tests, the generator and raw round trips. file is a FILE *. The header is
 * "YUV4MPEG2 W H F Ip A1:1 C"; an empty info->chroma writes the tag of fmt and bpc, fps 0/0
 * writes F25:1. ls_write_frame writes "FRAME\n" when y4m, then the planes (>8-bit samples as
 * 16-bit little-endian words). Both return 0 or a negative errno. */
int ls_y4m_write_header(void *file, const LsVideoInfo *info);
int ls_write_frame(void *file, const VmafPicture *pic, bool y4m);

/* Error codes: -ENOENT, -EACCES, ... (opening or reading the file, as the system reports them);
 * -EINVAL for content the reader refuses (no Y4M signature and no raw size, bad or missing header
 * tags, unknown chroma tag, sizes out of range, raw parameters contradicting the Y4M header, a
 * picture of the wrong geometry); -ENOTSUP for interlaced Y4M; -EIO for a truncated frame or a
 * lost FRAME marker (messages count frames from 0); -ENOMEM. After a read error the input keeps
 * returning it. Limits: width and height up to LS_INPUT_MAX_DIM, a frame up to
 * LS_INPUT_MAX_FRAME_BYTES of payload. */
#define LS_INPUT_MAX_DIM 32768u
#define LS_INPUT_MAX_FRAME_BYTES ((size_t)1 << 30)

/* Whether this build decodes containers, and the FFmpeg libraries' versions ("none" without). */
bool ls_input_decodes_containers(char *versions, size_t len);
/* Whether the input is decoded (a container or bitstream) rather than read as stored. */
bool ls_input_is_decoded(const LsInput *in);

/* "420", "422", "444", "400"; NULL for any other value. */
const char *ls_pix_fmt_name(enum VmafPixelFormat fmt);
/* The inverse of ls_pix_fmt_name; VMAF_PIX_FMT_UNKNOWN for anything else. */
enum VmafPixelFormat ls_pix_fmt_from_name(const char *name);
/* The Y4M C tag for a layout: "420jpeg", "422", "444", "mono", "420p10", "mono12", ... */
const char *ls_y4m_chroma_tag(enum VmafPixelFormat fmt, unsigned bpc, char *buf, size_t len);

#endif
