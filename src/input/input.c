/* Opening, format detection and frame reading for Y4M and raw YUV, and the dispatch to the
 * container reader (av.c). One frame at a time in constant memory: plane rows are read straight
 * into the picture with large freads. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise */

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/log.h"
#include "core/pack10.h"
#include "core/picture_ref.h"
#include "core/upload_sink.h"
#include "input/input_internal.h"

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt_arg, first_arg) __attribute__((format(printf, fmt_arg, first_arg)))
#else
#define PRINTF_LIKE(fmt_arg, first_arg)
#endif

#define Y4M_MAGIC "YUV4MPEG"
#define Y4M_MAGIC_LEN 8
#define STREAM_BUFFER_BYTES (1u << 20)
#define SKIP_CHUNK_BYTES (1u << 20)
#define READ_BAND_BYTES (128u << 10)

struct LsInput {
    FILE *file;
    int close_file;
    char *name;
    LsVideoInfo info;
    LsFrameGeometry geo;
    /* bytes consumed by format detection that belong to the stream (raw data) */
    unsigned char head[Y4M_MAGIC_LEN];
    size_t head_len, head_pos;
    uint64_t frame_index;
    int error;
    char error_msg[512];
    unsigned char *skip_buffer;
    /* reads at any frame index (regular files whose frames all start with "FRAME\n") */
    int seekable;
    off_t data_start;
    /* planes read into pictures (ls_input_read_planes); the others are skipped, not read */
    _Atomic unsigned planes_read;
    /* ls_input_read_at writes 10-bit planes packed (ls_input_pack10), with pack_row */
    _Atomic bool pack10;
    LsPack10RowFn pack_row;
    /* where packed frames go instead of their pictures, where it takes them (ls_input_upload_to) */
    _Atomic(LsUploadSink *) upload;
    /* the file mapped read-only (ls_input_map): map_len bytes of it, then zero pages */
    unsigned char *map;
    size_t map_len, map_reserved;
    /* a container or bitstream, decoded through FFmpeg's libraries */
    LsAvReader *av;
};

static size_t stream_read(LsInput *in, void *dst, size_t n)
{
    size_t got = 0;
    if (in->head_pos < in->head_len) {
        got = in->head_len - in->head_pos;
        if (got > n)
            got = n;
        memcpy(dst, in->head + in->head_pos, got);
        in->head_pos += got;
    }
    if (got < n)
        got += fread((unsigned char *)dst + got, 1, n - got, in->file);
    return got;
}

static int stream_getc(LsInput *in)
{
    if (in->head_pos < in->head_len)
        return in->head[in->head_pos++];
    return getc(in->file);
}

/* errno of a failed read, or 0 when the stream simply ended. */
static int stream_error(LsInput *in)
{
    if (!ferror(in->file))
        return 0;
    return errno ? errno : EIO;
}

/* Reads a line up to '\n' (excluded) into buf, at most max bytes. Returns the length, -1 at end
 * of file before a newline, -2 when the line is longer than max, -3 on a read error. */
static long read_line(LsInput *in, char *buf, size_t max)
{
    size_t n = 0;
    for (;;) {
        const int c = stream_getc(in);
        if (c == EOF)
            return stream_error(in) ? -3 : -1;
        if (c == '\n')
            break;
        if (n == max)
            return -2;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    return (long)n;
}

PRINTF_LIKE(5, 6)
static int fail(char *err, size_t err_len, const char *name, int code, const char *fmt, ...)
{
    if (err && err_len) {
        int n = snprintf(err, err_len, "%s: ", name);
        if (n < 0)
            n = 0;
        if ((size_t)n < err_len) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, err_len - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return code;
}

/* A read error sticks: later reads return it again with the same message. */
PRINTF_LIKE(5, 6)
static int fail_stream(LsInput *in, char *err, size_t err_len, int code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    in->error = code;
    fail(in->error_msg, sizeof(in->error_msg), in->name, code, "%s", msg);
    return fail(err, err_len, in->name, code, "%s", msg);
}

static void describe(const LsVideoInfo *info, char *buf, size_t len)
{
    const char *fmt = ls_pix_fmt_name(info->fmt);
    snprintf(buf, len, "%ux%u %s %u-bit", info->w, info->h, fmt ? fmt : "?", info->bpc);
}

static int check_raw_params(const LsInput *in, const LsRawParams *raw, char *err, size_t err_len)
{
    char missing[32] = "";
    if (!raw->w)
        strcat(missing, " -w");
    if (!raw->h)
        strcat(missing, " -h");
    if (raw->fmt == VMAF_PIX_FMT_UNKNOWN)
        strcat(missing, " -p");
    if (!raw->bpc)
        strcat(missing, " -b");
    if (!missing[0])
        return 0;
    if (!raw->w && !raw->h && raw->fmt == VMAF_PIX_FMT_UNKNOWN && !raw->bpc)
        return fail(err, err_len, in->name, -EINVAL,
                    "not a Y4M file (no YUV4MPEG2 signature) and no raw size given "
                    "(-w -h -p -b)");
    return fail(err, err_len, in->name, -EINVAL,
                "not a Y4M file, and raw YUV needs -w -h -p -b (missing or zero:%s)", missing);
}

static int open_y4m(LsInput *in, const LsRawParams *raw, char *err, size_t err_len)
{
    char line[LS_Y4M_LINE_MAX + 1];
    char why[256];
    /* the magic is already consumed; the rest of the first line follows */
    long len = read_line(in, line, sizeof(line) - 1 - Y4M_MAGIC_LEN);
    if (len == -1)
        return fail(err, err_len, in->name, -EINVAL,
                    "Y4M header ends without a newline (truncated file)");
    if (len == -2)
        return fail(err, err_len, in->name, -EINVAL,
                    "Y4M header line too long (no newline within %d bytes)", LS_Y4M_LINE_MAX);
    if (len == -3) {
        const int e = stream_error(in);
        return fail(err, err_len, in->name, -e, "read error: %s", strerror(e));
    }
    if (len > 0 && line[len - 1] == '\r')
        line[--len] = '\0';
    if (line[0] != '2' || (line[1] != ' ' && line[1] != '\0')) {
        char sig[16];
        size_t n = Y4M_MAGIC_LEN;
        memcpy(sig, Y4M_MAGIC, Y4M_MAGIC_LEN);
        if (len > 0)
            sig[n++] = (line[0] >= 0x21 && line[0] < 0x7f) ? line[0] : '?';
        sig[n] = '\0';
        return fail(err, err_len, in->name, -EINVAL,
                    "corrupt Y4M signature \"%s\" (expected YUV4MPEG2)", sig);
    }

    in->info.y4m = true;
    int ret = ls_y4m_parse_header(line + 1, (size_t)len - 1, &in->info, why, sizeof(why));
    if (ret < 0)
        return fail(err, err_len, in->name, ret, "%s", why);
    snprintf(in->info.source, sizeof(in->info.source), "Y4M C%s", in->info.chroma);

    if (raw && ((raw->w && raw->w != in->info.w) || (raw->h && raw->h != in->info.h) ||
                (raw->fmt != VMAF_PIX_FMT_UNKNOWN && raw->fmt != in->info.fmt) ||
                (raw->bpc && raw->bpc != in->info.bpc))) {
        char header[64], given[96];
        describe(&in->info, header, sizeof(header));
        const char *fmt = ls_pix_fmt_name(raw->fmt);
        snprintf(given, sizeof(given), "-w %u -h %u -p %s -b %u", raw->w, raw->h,
                 fmt ? fmt : "?", raw->bpc);
        return fail(err, err_len, in->name, -EINVAL,
                    "Y4M header says %s (C%s) but the raw parameters say %s", header,
                    in->info.chroma, given);
    }
    return 0;
}

/* Decodes the input through FFmpeg's libraries. Returns 0 when it is a video lockstep scores, a
 * negative errno when it is not and `known` says it is a container (a signature or extension),
 * and 1 to go on with the other readers when nothing said it is one (a raw file without its
 * parameters gets the raw reader's message, not the libraries'). */
static int open_container(LsInput *in, const LsRawParams *raw, bool known, char *err,
                          size_t err_len)
{
    char why[400];
    const bool stream = !in->close_file;
    LsVideoInfo info = { 0 };
    const int ret = ls_av_open(&in->av, stream ? NULL : in->name, stream ? in->file : NULL,
                               in->head, in->head_len, &info, why, sizeof(why));
    if (ret < 0 && stream && !known && ret == -EINVAL)
        return fail(err, err_len, in->name, ret,
                    "not a Y4M stream (no YUV4MPEG2 signature), no raw size given (-w -h -p -b), "
                    "and %s", why);
    if (ret < 0 && !known && !stream && ret != -ENOTSUP)
        return 1;
    if (ret < 0)
        return fail(err, err_len, in->name, ret, "%s", why);
    if (raw && ((raw->w && raw->w != info.w) || (raw->h && raw->h != info.h) ||
                (raw->fmt != VMAF_PIX_FMT_UNKNOWN && raw->fmt != info.fmt) ||
                (raw->bpc && raw->bpc != info.bpc))) {
        char decoded[64], given[96];
        describe(&info, decoded, sizeof(decoded));
        const char *fmt = ls_pix_fmt_name(raw->fmt);
        snprintf(given, sizeof(given), "-w %u -h %u -p %s -b %u", raw->w, raw->h,
                 fmt ? fmt : "?", raw->bpc);
        return fail(err, err_len, in->name, -EINVAL,
                    "decodes to %s (%s) but the raw parameters say %s", decoded, info.source,
                    given);
    }
    in->info = info;
    return 0;
}

static int detect_and_open(LsInput *in, const LsRawParams *raw, char *err, size_t err_len)
{
    in->head_len = fread(in->head, 1, Y4M_MAGIC_LEN, in->file);
    in->head_pos = 0;
    const int e = stream_error(in);
    if (e)
        return fail(err, err_len, in->name, -e, "read error: %s", strerror(e));

    if (in->head_len == Y4M_MAGIC_LEN && !memcmp(in->head, Y4M_MAGIC, Y4M_MAGIC_LEN)) {
        in->head_pos = in->head_len;
        return open_y4m(in, raw, err, err_len);
    }

    const int raw_given = raw && (raw->w || raw->h || raw->fmt != VMAF_PIX_FMT_UNKNOWN ||
                                  raw->bpc);
    /* compressed video scored as raw pixels would give a meaningless number: decode it, or say
     * how to */
    const char *container = ls_container_signature(in->head, in->head_len);
    const char *extension = ls_container_extension(in->name);
    const bool y4m_like = in->head_len >= 4 && !memcmp(in->head, Y4M_MAGIC, 4);
    /* the libraries load on this first use (av.c): not for raw files */
    if ((container || (!raw_given && !y4m_like && in->head_len > 0)) && ls_av_available()) {
        const int ret = open_container(in, raw, !!container || !!extension, err, err_len);
        if (ret <= 0)
            return ret;
    }
    if (container || (extension && !raw_given)) {
        char kind[64];
        if (container)
            snprintf(kind, sizeof(kind), "%s", container);
        else
            snprintf(kind, sizeof(kind), "a %s file", extension);
        return fail(err, err_len, in->name, -EINVAL,
                    "%s (compressed video), not Y4M or raw YUV: decode it first, e.g. ffmpeg -i "
                    "%s -f yuv4mpegpipe -strict -1 - | lockstep -r ref.y4m -d - (this lockstep "
                    "was built without FFmpeg's libraries libavformat, libavcodec and libavutil, "
                    "which would read it directly)", kind, in->name);
    }
    if (!raw_given && in->head_len >= 4 && !memcmp(in->head, Y4M_MAGIC, 4)) {
        char sig[Y4M_MAGIC_LEN + 1];
        for (size_t i = 0; i < in->head_len; i++)
            sig[i] = (in->head[i] >= 0x21 && in->head[i] < 0x7f) ? (char)in->head[i] : '?';
        sig[in->head_len] = '\0';
        return fail(err, err_len, in->name, -EINVAL,
                    "corrupt Y4M signature \"%s\" (expected YUV4MPEG2)", sig);
    }
    if (!raw_given && in->head_len == 0)
        return fail(err, err_len, in->name, -EINVAL,
                    "empty file: not a Y4M file and no raw size given (-w -h -p -b)");

    const LsRawParams none = { 0, 0, 0, VMAF_PIX_FMT_UNKNOWN };
    const LsRawParams *params = raw ? raw : &none;
    int ret = check_raw_params(in, params, err, err_len);
    if (ret < 0)
        return ret;
    in->info.y4m = false;
    in->info.w = params->w;
    in->info.h = params->h;
    in->info.fmt = params->fmt;
    in->info.bpc = params->bpc;
    snprintf(in->info.source, sizeof(in->info.source), "raw YUV");
    return 0;
}

static int swap_needed(void);

/* Files store 16-bit samples little-endian; a big-endian host swaps each word after reading. */
static void swap_bytes(VmafPicture *pic, const LsFrameGeometry *geo, unsigned p, unsigned y0,
                       unsigned y1)
{
    for (unsigned y = y0; y < y1; y++) {
        uint8_t *r = (uint8_t *)pic->data[p] + (size_t)y * (size_t)pic->stride[p];
        for (size_t x = 0; x < geo->row_bytes[p]; x += 2) {
            const uint8_t t = r[x];
            r[x] = r[x + 1];
            r[x + 1] = t;
        }
    }
}

/* the mask of planes 0 .. n-1 */
static unsigned plane_bits(unsigned n) { return n >= 3 ? 7u : (1u << n) - 1; }

/* Samples above the depth are refused rather than scored: an 8-bit file read with -b 10 (two
 * samples read as one word) would otherwise give a quiet, meaningless score. Checks rows
 * [y0, y1) of plane p; writes the reason, without the file name, into why. */
static int check_depth_rows(const LsInput *in, const void *first_row, ptrdiff_t stride, unsigned p,
                            unsigned y0, unsigned y1, uint64_t frame, char *why, size_t why_len)
{
    static const char *const planes[] = { "luma", "Cb", "Cr" };
    const LsFrameGeometry *geo = &in->geo;
    const unsigned bpc = in->info.bpc;
    if (geo->bytes_per_sample != 2 || bpc >= 16)
        return 0;
    const unsigned limit = (1u << bpc) - 1;
    for (unsigned y = y0; y < y1; y++) {
        const uint16_t *row =
            (const uint16_t *)((const uint8_t *)first_row + (ptrdiff_t)(y - y0) * stride);
        if (!ls_row_above_depth(row, geo->w[p], limit))
            continue;
        unsigned x = 0;
        while (row[x] <= limit)
            x++;
        char hint[96];
        if (in->info.y4m)
            snprintf(hint, sizeof(hint), "the Y4M header says C%s", in->info.chroma);
        else
            snprintf(hint, sizeof(hint),
                     "is the file 8-bit (two samples read as one 16-bit word)? check -b");
        snprintf(why, why_len, "frame %llu: %s sample %u at (%u, %u) is above the %u-bit maximum "
                 "%u: %s", (unsigned long long)frame, planes[p], row[x], x, y, bpc, limit, hint);
        return -EINVAL;
    }
    return 0;
}

/* the buffer of read_plane_packed's bands: on the reader's stack */
enum { PACK_BAND_BYTES = 64u << 10 };

static int check_depth(const LsInput *in, const VmafPicture *pic, unsigned p, unsigned y0,
                       unsigned y1, uint64_t frame, char *why, size_t why_len)
{
    return check_depth_rows(in, (const uint8_t *)pic->data[p] + (size_t)y0 * (size_t)pic->stride[p],
                            pic->stride[p], p, y0, y1, frame, why, why_len);
}

bool ls_input_can_pack10(const LsInput *in)
{
    const LsFrameGeometry *geo = &in->geo;
    if (!in->seekable || in->av || swap_needed() ||
        !ls_pack10_fits(in->info.bpc, geo->n_planes, geo->w))
        return false;
    for (unsigned p = 0; p < geo->n_planes; p++)
        if (geo->row_bytes[p] > PACK_BAND_BYTES)
            return false;
    return true;
}

void ls_input_upload_to(LsInput *in, LsUploadSink *sink)
{
    atomic_store(&in->upload, sink);
}

bool ls_input_pack10(LsInput *in)
{
    if (!ls_input_can_pack10(in))
        return false;
    in->pack_row = ls_pack10_row_fn(); /* before the flag: readers that see it see this */
    atomic_store(&in->pack10, true);
    return true;
}

/* want bytes of frame `frame` at *off into dst, advancing *off and *total (the frame's bytes read
 * so far). Returns 1, 0 at a clean end of a raw file (nothing of the frame read) or a negative
 * errno with the message in err (a read error, a truncated frame). */
static int read_bytes(LsInput *in, int fd, void *dst, size_t want, off_t *off, uint64_t frame,
                      size_t *total, char *err, size_t err_len)
{
    size_t have = 0;
    while (have < want) {
        const ssize_t got = pread(fd, (unsigned char *)dst + have, want - have, *off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail(err, err_len, in->name, -errno, "read error at frame %llu: %s",
                        (unsigned long long)frame, strerror(errno));
        if (got == 0)
            break;
        have += (size_t)got;
        *off += got;
    }
    *total += have;
    if (have == want)
        return 1;
    if (!in->info.y4m && *total == 0)
        return 0; /* raw: a clean end of file */
    return fail(err, err_len, in->name, -EIO, "truncated frame %llu: got %zu of %zu bytes",
                (unsigned long long)frame, *total, in->info.frame_bytes);
}

/* Plane p of the frame at *off, read in bands through a buffer that stays in the cache, checked
 * against the depth there and written packed (ls_picture_set_packed10): the picture's memory
 * never holds the 16-bit rows. With a writer w of sink, each band is packed into the sink's
 * buffer instead (normal stores: the device copy reads it from the cache), and the picture is
 * not written. Returns 1, 0 at a clean end of a raw file (nothing read yet) or a negative errno
 * with the message in err. */
static int read_plane_packed(LsInput *in, int fd, off_t *off, VmafPicture *pic, unsigned p,
                             uint64_t frame, size_t *total, LsUploadSink *sink, LsUploadWriter *w,
                             char *err, size_t err_len)
{
    const LsFrameGeometry *geo = &in->geo;
    const size_t row = geo->row_bytes[p], packed_row = ls_pack10_bytes(geo->w[p]);
    uint16_t band_buf[PACK_BAND_BYTES / 2];
    const unsigned band = (unsigned)(PACK_BAND_BYTES / row); /* >= 1: ls_input_can_pack10 */
    unsigned char *dst = pic->data[p];
    for (unsigned y0 = 0; y0 < geo->h[p]; y0 += band) {
        const unsigned y1 = geo->h[p] - y0 < band ? geo->h[p] : y0 + band;
        const int r = read_bytes(in, fd, band_buf, row * (y1 - y0), off, frame, total, err, err_len);
        if (r <= 0)
            return r;
        /* rows are whole groups: the band packs as one run */
        unsigned char *to = dst + (size_t)y0 * packed_row;
        const size_t n = (size_t)geo->w[p] * (y1 - y0);
        uint16_t any;
        if (w) {
            void *buf = sink->buffer(w, to, packed_row * (y1 - y0));
            if (!buf)
                return fail(err, err_len, in->name, -EIO, "frame %llu: %s",
                            (unsigned long long)frame, lockstep_last_error());
            any = in->pack_row((uint32_t *)buf, band_buf, n);
        } else {
            any = ls_pack10_row_stream(in->pack_row, (uint32_t *)(void *)to, band_buf, n);
        }
        if (any >> 10) {
            char why[256];
            const int bad =
                check_depth_rows(in, band_buf, (ptrdiff_t)row, p, y0, y1, frame, why, sizeof(why));
            return fail(err, err_len, in->name, bad ? bad : -EINVAL, "%s", why);
        }
    }
    return 1;
}

/* A regular file whose first frame starts with a bare "FRAME\n" (or raw YUV) can be read at any
 * frame index with pread: frame n starts at data_start + n * (marker + payload). */
static void find_frames(LsInput *in)
{
    struct stat st;
    const int fd = fileno(in->file);
    if (!in->close_file || fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
        return;
    const long pos = ftell(in->file);
    if (pos < 0)
        return;
    in->data_start = (off_t)pos - (off_t)(in->head_len - in->head_pos);
    /* the frame count for progress: exact for bare FRAME markers, else (frame parameters) an
     * estimate that leaves them out */
    const uint64_t record = in->info.frame_bytes + (in->info.y4m ? 6 : 0);
    const uint64_t data = st.st_size > in->data_start ? (uint64_t)(st.st_size - in->data_start) : 0;
    in->info.frame_count = data / record;
    in->info.frame_count_exact = false;
    if (in->info.y4m) {
        char marker[6];
        const ssize_t got = pread(fd, marker, sizeof(marker), in->data_start);
        if (got > 0 && (got != (ssize_t)sizeof(marker) || memcmp(marker, "FRAME\n", 6)))
            return;
    }
    in->info.frame_count_exact = true;
    in->seekable = 1;
}

static int lost_marker(const LsInput *in, uint64_t frame, char *err, size_t err_len)
{
    return fail(err, err_len, in->name, -EIO,
                "lost FRAME marker at frame %llu: not a frame boundary (frame parameters, or the "
                "header or an earlier frame has the wrong size)",
                (unsigned long long)frame);
}

bool ls_input_can_read_at(const LsInput *in)
{
    return in->seekable;
}

int ls_input_read_at(LsInput *in, uint64_t frame, VmafPicture *pic, char *err, size_t err_len)
{
    const LsFrameGeometry *geo = &in->geo;
    if (!in->seekable)
        return fail(err, err_len, in->name, -EINVAL, "input cannot be read at a frame index");
    if (!pic || pic->pix_fmt != in->info.fmt || pic->bpc != in->info.bpc ||
        pic->w[0] != in->info.w || pic->h[0] != in->info.h)
        return fail(err, err_len, in->name, -EINVAL,
                    "picture does not have the input's geometry");
    ls_picture_set_depth_checked(pic, 0); /* its samples change now */
    const int fd = fileno(in->file);
    const size_t marker = in->info.y4m ? 6 : 0;
    const uint64_t stride = marker + in->info.frame_bytes;
    /* a frame whose end no file offset reaches is past the end of any file */
    if (frame > ((uint64_t)INT64_MAX - (uint64_t)in->data_start - stride) / stride)
        return 0;
    off_t off = in->data_start + (off_t)(frame * stride);
    if (marker) {
        char m[6];
        const ssize_t got = pread(fd, m, sizeof(m), off);
        if (got < 0)
            return fail(err, err_len, in->name, -errno, "read error at frame %llu: %s",
                        (unsigned long long)frame, strerror(errno));
        if (got == 0)
            return 0;
        if (got < 6 && !memcmp(m, "FRAME\n", (size_t)got))
            return fail(err, err_len, in->name, -EIO,
                        "truncated frame %llu: got %zd of %zu bytes (inside the FRAME marker)",
                        (unsigned long long)frame, got, in->info.frame_bytes + 6);
        if (got < 6 || memcmp(m, "FRAME\n", 6))
            return lost_marker(in, frame, err, err_len);
        off += 6;
    }
    size_t total = 0;
    const unsigned planes = atomic_load(&in->planes_read);
    if (planes < geo->n_planes) {
        /* the planes skipped must still be in the file: a truncated frame stays an error */
        const off_t last = off + (off_t)in->info.frame_bytes - 1;
        unsigned char byte;
        ssize_t got;
        while ((got = pread(fd, &byte, 1, last)) < 0 && errno == EINTR)
            ;
        if (got < 0)
            return fail(err, err_len, in->name, -errno, "read error at frame %llu: %s",
                        (unsigned long long)frame, strerror(errno));
        if (got == 0) {
            struct stat st;
            const off_t size = fstat(fd, &st) ? off : st.st_size;
            const size_t have = size > off ? (size_t)(size - off) : 0;
            if (!marker && have == 0)
                return 0; /* raw: a clean end of file */
            return fail(err, err_len, in->name, -EIO, "truncated frame %llu: got %zu of %zu bytes",
                        (unsigned long long)frame, have, in->info.frame_bytes);
        }
    }
    ls_picture_set_packed10(pic, 0);
    ls_picture_set_uploaded(pic, NULL);
    const bool pack = atomic_load(&in->pack10);
    LsUploadSink *sink = pack ? atomic_load(&in->upload) : NULL;
    LsUploadWriter *w = sink && planes ? sink->begin(sink, pic) : NULL;
    for (unsigned p = 0; pack && p < planes; p++) {
        int r = read_plane_packed(in, fd, &off, pic, p, frame, &total, sink, w, err, err_len);
        if (w && (r <= 0 || p + 1 == planes)) {
            /* the writer is free again whatever happened; a failure to upload is the frame's */
            const int e = sink->end(w);
            if (e && r > 0)
                r = fail(err, err_len, in->name, e, "frame %llu: %s", (unsigned long long)frame,
                         lockstep_last_error());
        }
        if (r <= 0)
            return r;
    }
    for (unsigned p = 0; !pack && p < planes; p++) {
        unsigned char *data = pic->data[p];
        const size_t row = geo->row_bytes[p];
        const int contiguous = (size_t)pic->stride[p] == row;
        /* bands of rows small enough to stay in the cache between the read and the depth check
         * (checking a whole plane afterwards reads it back from memory) */
        const unsigned band = row >= READ_BAND_BYTES ? 1u : (unsigned)(READ_BAND_BYTES / row);
        for (unsigned y0 = 0; y0 < geo->h[p]; y0 += band) {
            const unsigned y1 = geo->h[p] - y0 < band ? geo->h[p] : y0 + band;
            for (unsigned y = y0; y < (contiguous ? y0 + 1 : y1); y++) {
                const size_t want = contiguous ? row * (y1 - y0) : row;
                unsigned char *dst = data + (size_t)y * (size_t)pic->stride[p];
                const int r = read_bytes(in, fd, dst, want, &off, frame, &total, err, err_len);
                if (r <= 0)
                    return r;
            }
            if (geo->bytes_per_sample == 2 && swap_needed())
                swap_bytes(pic, geo, p, y0, y1);
            char why[256];
            const int bad = check_depth(in, pic, p, y0, y1, frame, why, sizeof(why));
            if (bad)
                return fail(err, err_len, in->name, bad, "%s", why);
        }
    }
    ls_picture_set_depth_checked(pic, plane_bits(planes));
    if (pack)
        ls_picture_set_packed10(pic, plane_bits(planes));
    if (w)
        ls_picture_set_uploaded(pic, sink);
    return 1;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

bool ls_input_map(LsInput *in)
{
    if (in->map)
        return true;
    struct stat st;
    const int fd = in->file ? fileno(in->file) : -1;
    /* 16-bit samples at odd addresses (a Y4M header of odd length puts every frame there) are
     * no uint16_t array the extractors' C code may read: such files are copied */
    const off_t first = in->data_start + (in->info.y4m ? 6 : 0);
    if (!in->seekable || in->av || swap_needed() || fd < 0 || fstat(fd, &st) ||
        !S_ISREG(st.st_mode) || st.st_size <= in->data_start ||
        (uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2 ||
        (in->geo.bytes_per_sample == 2 && (first & 1)))
        return false;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)st.st_size;
    /* two zero pages after the file: SIMD kernels read up to 64 bytes past a picture's end, and
     * the last frame's end may be the file's, on a page boundary */
    const size_t reserved = (len + page - 1) / page * page + 2 * page;
    unsigned char *base =
        mmap(NULL, reserved, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
    if (mmap(base, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(base, reserved);
        return false;
    }
    in->map = base;
    in->map_len = len;
    in->map_reserved = reserved;
    return true;
}

/* madvise over the whole pages that [p, p + n) touches. */
static int advise_pages(const void *p, size_t n, int advice)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t a = (uintptr_t)p & ~(page - 1);
    const uintptr_t b = ((uintptr_t)p + n + page - 1) & ~(page - 1);
    return madvise((void *)a, b - a, advice);
}

/* A borrowed frame's pages leave the process's page tables when its last picture goes (the
 * file's pages stay in the page cache): a long run does not keep the whole file mapped. Pages
 * shared with a neighbouring frame still in use fault back in from the cache. */
static void unmap_frame_pages(void *mem, size_t size) { advise_pages(mem, size, MADV_DONTNEED); }

/* The page-table entries of [p, p + n) filled from the page cache now, in the reading thread,
 * rather than by faults in the scoring one (reading the file into the cache where it is not). */
static void populate(const unsigned char *p, size_t n)
{
    if (!advise_pages(p, n, MADV_POPULATE_READ) || errno != EINVAL)
        return; /* EINVAL: a kernel before 5.14; EFAULT: cut short, read_own_picture's case */
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    volatile unsigned char sink = 0;
    for (size_t q = 0; q < n; q += page)
        sink ^= p[q];
    if (n)
        sink ^= p[n - 1];
    (void)sink;
}

/* Frame `frame` read into a picture of its own, with ls_input_read_at's returns and messages. */
static int read_own_picture(LsInput *in, uint64_t frame, VmafPicture *pic, char *err,
                            size_t err_len)
{
    if (vmaf_picture_alloc(pic, in->info.fmt, in->info.bpc, in->info.w, in->info.h))
        return fail(err, err_len, in->name, -ENOMEM, "out of memory");
    const int r = ls_input_read_at(in, frame, pic, err, err_len);
    if (r <= 0)
        vmaf_picture_unref(pic);
    return r;
}

int ls_input_borrow_at(LsInput *in, uint64_t frame, VmafPicture *pic, char *err, size_t err_len)
{
    const LsFrameGeometry *geo = &in->geo;
    const size_t marker = in->info.y4m ? 6 : 0;
    const uint64_t record = marker + in->info.frame_bytes;
    /* a frame not wholly in the mapping and in the file as it is now (the end, a truncated
     * frame, a file that grew, or one cut short since it was mapped, whose pages past the new
     * end must not be touched: SIGBUS) is read, with ls_input_read_at's returns and messages */
    struct stat st;
    uint64_t have = in->map_len;
    if (!fstat(fileno(in->file), &st) && (uint64_t)st.st_size < have)
        have = (uint64_t)st.st_size;
    if (!in->map || have <= (uint64_t)in->data_start ||
        frame >= (have - (uint64_t)in->data_start) / record)
        return read_own_picture(in, frame, pic, err, err_len);
    unsigned char *start = in->map + in->data_start + frame * record;
    if (marker && memcmp(start, "FRAME\n", 6))
        return lost_marker(in, frame, err, err_len);
    unsigned char *data = start + marker;
    LsBorrowedFrame b = { .mem = start, .size = (size_t)record, .give_back = unmap_frame_pages };
    const unsigned planes = atomic_load(&in->planes_read);
    size_t read_bytes = 0, offset = 0;
    for (unsigned p = 0; p < geo->n_planes; p++) {
        b.plane[p] = data + offset;
        b.stride[p] = (ptrdiff_t)geo->row_bytes[p];
        offset += geo->row_bytes[p] * geo->h[p];
        if (p < planes)
            read_bytes = offset;
    }
    populate(data, read_bytes);
    int ret = ls_picture_borrow(pic, in->info.fmt, in->info.bpc, in->info.w, in->info.h, &b);
    if (ret)
        return fail(err, err_len, in->name, ret, "out of memory");
    for (unsigned p = 0; p < planes && p < geo->n_planes; p++) {
        char why[256];
        if ((ret = check_depth(in, pic, p, 0, geo->h[p], frame, why, sizeof(why)))) {
            vmaf_picture_unref(pic);
            return fail(err, err_len, in->name, ret, "%s", why);
        }
    }
    ls_picture_set_depth_checked(pic, plane_bits(planes));
    return 1;
}

/* A regular raw file holds whole frames: if its size does not divide, the parameters are wrong
 * (or the file is cut), and the sizes that would fit say which. */
static int check_raw_size(LsInput *in, char *err, size_t err_len)
{
    struct stat st;
    const int fd = fileno(in->file);
    if (in->info.y4m || fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
        return 0;
    const uint64_t bytes = (uint64_t)st.st_size, frame = in->info.frame_bytes;
    if (bytes % frame == 0)
        return 0;
    const LsRawParams given = { in->info.w, in->info.h, in->info.bpc, in->info.fmt };
    char fit[400];
    ls_raw_sizes_that_fit(bytes, &given, fit, sizeof(fit));
    char what[64];
    describe(&in->info, what, sizeof(what));
    const unsigned long long whole = bytes / frame;
    return fail(err, err_len, in->name, -EINVAL,
                "%llu bytes is not a whole number of %s frames (%llu bytes each: %llu frame%s and "
                "%llu bytes left over): %s%s", (unsigned long long)bytes, what,
                (unsigned long long)frame, whole, whole == 1 ? "" : "s",
                (unsigned long long)(bytes % frame),
                fit[0] ? "these would fit: " : "no common size fits either; check -w -h -p -b",
                fit);
}

int ls_input_open(LsInput **out, const char *path, const LsRawParams *raw, char *err,
                  size_t err_len)
{
    if (err && err_len)
        err[0] = '\0';
    if (!out || !path)
        return fail(err, err_len, path ? path : "(null)", -EINVAL, "no input");
    *out = NULL;

    LsInput *in = calloc(1, sizeof(*in));
    if (!in)
        return fail(err, err_len, path, -ENOMEM, "out of memory");
    const int is_stdin = !strcmp(path, "-");
    in->name = strdup(is_stdin ? "<stdin>" : path);
    if (!in->name) {
        free(in);
        return fail(err, err_len, path, -ENOMEM, "out of memory");
    }

    int ret;
    if (is_stdin) {
        in->file = stdin;
    } else {
        in->file = fopen(path, "rb");
        if (!in->file) {
            const int e = errno ? errno : EIO;
            ret = fail(err, err_len, in->name, -e, "cannot open: %s", strerror(e));
            goto error;
        }
        in->close_file = 1;
    }
    /* A large stdio buffer keeps small header reads cheap; big plane reads bypass it. stdin
     * keeps its own: setvbuf is only allowed before a stream's first use. */
    if (in->close_file)
        setvbuf(in->file, NULL, _IOFBF, STREAM_BUFFER_BYTES);
    {
        struct stat st;
        const int fd = fileno(in->file);
        if (fd >= 0 && !fstat(fd, &st)) {
            if (S_ISDIR(st.st_mode)) {
                ret = fail(err, err_len, in->name, -EISDIR, "cannot read: %s",
                           strerror(EISDIR));
                goto error;
            }
#ifdef POSIX_FADV_SEQUENTIAL
            if (S_ISREG(st.st_mode))
                posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
        }
    }

    ret = detect_and_open(in, raw, err, err_len);
    if (ret < 0)
        goto error;
    char why[256];
    ret = ls_frame_geometry(&in->info, &in->geo, why, sizeof(why));
    if (ret < 0) {
        fail(err, err_len, in->name, ret, "%s", why);
        goto error;
    }
    atomic_init(&in->planes_read, in->geo.n_planes);
    atomic_init(&in->pack10, false);
    atomic_init(&in->upload, NULL);
    if (!in->av) {
        ret = check_raw_size(in, err, err_len);
        if (ret < 0)
            goto error;
        find_frames(in);
    }
    *out = in;
    return 0;

error:
    ls_input_close(in);
    return ret;
}

const LsVideoInfo *ls_input_info(const LsInput *in)
{
    return &in->info;
}

bool ls_input_is_decoded(const LsInput *in)
{
    return in->av != NULL;
}

bool ls_input_decodes_containers(char *versions, size_t len)
{
    ls_av_versions(versions, len);
    return ls_av_available();
}

static int swap_needed(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 1;
#else
    return 0;
#endif
}

/* Consumes "FRAME[ params]\n". Returns 1 when a frame follows, 0 at a clean end of file. */
static int read_frame_marker(LsInput *in, char *err, size_t err_len)
{
    char marker[5];
    const size_t got = stream_read(in, marker, sizeof(marker));
    if (got == 0 && !stream_error(in))
        return 0;
    int e = stream_error(in);
    if (e)
        return fail_stream(in, err, err_len, -e, "read error at frame %llu: %s",
                           (unsigned long long)in->frame_index, strerror(e));
    if (got < sizeof(marker) && !memcmp(marker, "FRAME", got))
        return fail_stream(in, err, err_len, -EIO,
                           "truncated frame %llu: got %zu of %zu bytes (inside the FRAME marker)",
                           (unsigned long long)in->frame_index, got,
                           in->info.frame_bytes + sizeof(marker) + 1);
    if (got < sizeof(marker) || memcmp(marker, "FRAME", sizeof(marker))) {
        char found[sizeof(marker) + 1];
        for (size_t i = 0; i < got; i++)
            found[i] = (marker[i] >= 0x20 && marker[i] < 0x7f) ? marker[i] : '?';
        found[got] = '\0';
        return fail_stream(in, err, err_len, -EIO,
                           "lost FRAME marker at frame %llu (found \"%s\"): not a frame "
                           "boundary, the header or an earlier frame has the wrong size",
                           (unsigned long long)in->frame_index, found);
    }
    char params[LS_Y4M_LINE_MAX + 1];
    const long len = read_line(in, params, LS_Y4M_LINE_MAX);
    if (len == -1)
        return fail_stream(in, err, err_len, -EIO,
                           "truncated frame %llu: FRAME line ends without a newline",
                           (unsigned long long)in->frame_index);
    if (len == -2)
        return fail_stream(in, err, err_len, -EIO,
                           "FRAME line of frame %llu too long (no newline within %d bytes)",
                           (unsigned long long)in->frame_index, LS_Y4M_LINE_MAX);
    if (len == -3) {
        e = stream_error(in);
        return fail_stream(in, err, err_len, -e, "read error at frame %llu: %s",
                           (unsigned long long)in->frame_index, strerror(e));
    }
    if (len > 0 && params[0] != ' ')
        return fail_stream(in, err, err_len, -EIO,
                           "lost FRAME marker at frame %llu (found \"FRAME%c\")",
                           (unsigned long long)in->frame_index,
                           (params[0] >= 0x20 && params[0] < 0x7f) ? params[0] : '?');
    return 1;
}

/* Starts a frame: the Y4M marker, or for raw input a probe for the clean end of file. */
static int begin_frame(LsInput *in, char *err, size_t err_len)
{
    if (in->error) {
        if (err && err_len)
            snprintf(err, err_len, "%s", in->error_msg);
        return in->error;
    }
    if (in->info.y4m)
        return read_frame_marker(in, err, err_len);
    if (in->head_pos < in->head_len)
        return 1;
    const int c = getc(in->file);
    if (c == EOF) {
        const int e = stream_error(in);
        if (e)
            return fail_stream(in, err, err_len, -e, "read error at frame %llu: %s",
                               (unsigned long long)in->frame_index, strerror(e));
        return 0;
    }
    in->head[0] = (unsigned char)c;
    in->head_len = 1;
    in->head_pos = 0;
    return 1;
}

static int short_frame(LsInput *in, size_t got, char *err, size_t err_len)
{
    const int e = stream_error(in);
    if (e)
        return fail_stream(in, err, err_len, -e, "read error at frame %llu: %s",
                           (unsigned long long)in->frame_index, strerror(e));
    return fail_stream(in, err, err_len, -EIO, "truncated frame %llu: got %zu of %zu bytes",
                       (unsigned long long)in->frame_index, got, in->info.frame_bytes);
}

/* Consumes n bytes of the stream; returns how many there were. */
static size_t skip_bytes(LsInput *in, size_t n)
{
    if (!in->skip_buffer && !(in->skip_buffer = malloc(SKIP_CHUNK_BYTES)))
        return 0;
    size_t total = 0;
    while (total < n) {
        const size_t want = n - total < SKIP_CHUNK_BYTES ? n - total : SKIP_CHUNK_BYTES;
        const size_t got = stream_read(in, in->skip_buffer, want);
        total += got;
        if (got != want)
            break;
    }
    return total;
}

/* The next decoded frame of a container (pic NULL: skipped). Same returns as ls_input_read. */
static int read_decoded(LsInput *in, VmafPicture *pic, char *err, size_t err_len)
{
    if (in->error) {
        if (err && err_len)
            snprintf(err, err_len, "%s", in->error_msg);
        return in->error;
    }
    char why[400];
    const int ret = ls_av_read(in->av, pic, atomic_load(&in->planes_read), why, sizeof(why));
    if (ret < 0)
        return fail_stream(in, err, err_len, ret, "%s", why);
    in->frame_index += (uint64_t)ret;
    return ret;
}

int ls_input_read(LsInput *in, VmafPicture *pic, char *err, size_t err_len)
{
    const LsFrameGeometry *geo = &in->geo;
    if (!pic || pic->pix_fmt != in->info.fmt || pic->bpc != in->info.bpc ||
        pic->w[0] != in->info.w || pic->h[0] != in->info.h)
        return fail(err, err_len, in->name, -EINVAL,
                    "picture does not have the input's geometry");
    for (unsigned p = 0; p < geo->n_planes; p++) {
        if (!pic->data[p] || pic->w[p] != geo->w[p] || pic->h[p] != geo->h[p] ||
            pic->stride[p] < (ptrdiff_t)geo->row_bytes[p])
            return fail(err, err_len, in->name, -EINVAL,
                        "picture plane %u does not have the input's geometry", p);
    }
    ls_picture_set_depth_checked(pic, 0); /* its samples change now */
    ls_picture_set_packed10(pic, 0);
    if (in->av)
        return read_decoded(in, pic, err, err_len);

    int ret = begin_frame(in, err, err_len);
    if (ret <= 0)
        return ret;

    size_t total = 0;
    const unsigned planes = atomic_load(&in->planes_read);
    for (unsigned p = 0; p < geo->n_planes; p++) {
        unsigned char *data = pic->data[p];
        const size_t row = geo->row_bytes[p];
        if (p >= planes) {
            /* not wanted: consumed from the stream, not stored */
            const size_t got = skip_bytes(in, geo->plane_bytes[p]);
            total += got;
            if (got != geo->plane_bytes[p])
                return short_frame(in, total, err, err_len);
            continue;
        }
        if ((size_t)pic->stride[p] == row) {
            const size_t got = stream_read(in, data, geo->plane_bytes[p]);
            total += got;
            if (got != geo->plane_bytes[p])
                return short_frame(in, total, err, err_len);
        } else {
            for (unsigned y = 0; y < geo->h[p]; y++) {
                const size_t got = stream_read(in, data + (size_t)y * (size_t)pic->stride[p], row);
                total += got;
                if (got != row)
                    return short_frame(in, total, err, err_len);
            }
        }
        if (geo->bytes_per_sample == 2 && swap_needed())
            swap_bytes(pic, geo, p, 0, geo->h[p]);
        char why[256];
        const int bad = check_depth(in, pic, p, 0, geo->h[p], in->frame_index, why, sizeof(why));
        if (bad)
            return fail_stream(in, err, err_len, bad, "%s", why);
    }
    ls_picture_set_depth_checked(pic, plane_bits(planes));
    in->frame_index++;
    return 1;
}

int ls_input_skip(LsInput *in, char *err, size_t err_len)
{
    if (in->av)
        return read_decoded(in, NULL, err, err_len);
    int ret = begin_frame(in, err, err_len);
    if (ret <= 0)
        return ret;
    if (!in->skip_buffer && !(in->skip_buffer = malloc(SKIP_CHUNK_BYTES)))
        return fail(err, err_len, in->name, -ENOMEM, "out of memory");
    const size_t got = skip_bytes(in, in->info.frame_bytes);
    if (got != in->info.frame_bytes)
        return short_frame(in, got, err, err_len);
    in->frame_index++;
    return 1;
}

int ls_input_count_frames(LsInput *in, uint64_t *count, char *err, size_t err_len)
{
    struct stat st;
    if (in->seekable && in->frame_index == 0 && !fstat(fileno(in->file), &st)) {
        const uint64_t frame = (in->info.y4m ? 6 : 0) + (uint64_t)in->info.frame_bytes;
        const uint64_t data = st.st_size > in->data_start ? (uint64_t)(st.st_size - in->data_start) : 0;
        *count = data / frame;
        return 0;
    }
    /* pipes and frames with parameters: read through */
    int r;
    while ((r = ls_input_skip(in, err, err_len)) > 0)
        ;
    *count = in->frame_index;
    return r;
}

void ls_input_read_planes(LsInput *in, unsigned n_planes)
{
    if (n_planes < 1 || n_planes > in->geo.n_planes)
        n_planes = in->geo.n_planes;
    atomic_store(&in->planes_read, n_planes);
}

void ls_input_close(LsInput *in)
{
    if (!in)
        return;
    ls_av_close(in->av);
    if (in->map)
        munmap(in->map, in->map_reserved);
    if (in->file && in->close_file)
        fclose(in->file);
    free(in->skip_buffer);
    free(in->name);
    free(in);
}

int ls_write_frame(void *file, const VmafPicture *pic, bool y4m)
{
    FILE *f = file;
    LsVideoInfo info = { .w = pic->w[0], .h = pic->h[0], .bpc = pic->bpc, .fmt = pic->pix_fmt };
    LsFrameGeometry geo;
    char why[256];
    int ret = ls_frame_geometry(&info, &geo, why, sizeof(why));
    if (ret < 0)
        return ret;
    if (y4m && fwrite("FRAME\n", 1, 6, f) != 6)
        return -EIO;

    uint8_t *swapped = NULL;
    if (geo.bytes_per_sample == 2 && swap_needed()) {
        swapped = malloc(geo.row_bytes[0]);
        if (!swapped)
            return -ENOMEM;
    }
    for (unsigned p = 0; p < geo.n_planes && !ret; p++) {
        const uint8_t *data = pic->data[p];
        const size_t row = geo.row_bytes[p];
        if (!data || pic->stride[p] < (ptrdiff_t)row) {
            ret = -EINVAL;
            break;
        }
        if (!swapped && (size_t)pic->stride[p] == row) {
            if (fwrite(data, 1, geo.plane_bytes[p], f) != geo.plane_bytes[p])
                ret = -EIO;
            continue;
        }
        for (unsigned y = 0; y < geo.h[p] && !ret; y++) {
            const uint8_t *r = data + (size_t)y * (size_t)pic->stride[p];
            if (swapped) {
                for (size_t x = 0; x < row; x += 2) {
                    swapped[x] = r[x + 1];
                    swapped[x + 1] = r[x];
                }
                r = swapped;
            }
            if (fwrite(r, 1, row, f) != row)
                ret = -EIO;
        }
    }
    free(swapped);
    return ret;
}
