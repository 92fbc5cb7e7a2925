/* Containers and bitstreams through FFmpeg's libraries (libavformat, libavcodec, libavutil), when
 * the build found them: frames are decoded in their own format and bit depth and copied into
 * lockstep's pictures as they are. No scaling, no conversion: a format lockstep does not score is
 * refused with the ffmpeg line that converts it, so that any change of the pixels is the user's
 * choice, made where they can see it. Without the libraries this file only says so. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "input/input_internal.h"

#if LS_HAVE_LIBAV

#include <pthread.h>
#include <stdlib.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/pixdesc.h>

#include <dlfcn.h>

/* FFmpeg's libraries are loaded at the first container, not linked: loading them and the ~130
 * libraries they pull in (codecs, TLS, XML, ...) costs ~35 ms of CPU at every start, which a run
 * of Y4M or raw files, the usual one, would pay for nothing. The sonames are the major versions
 * of the headers built against, so the calls keep the ABI they were compiled for. */
#define LS_AV_FUNCTIONS(X)                                                                       \
    X(util, av_dict_free) X(util, av_dict_set) X(util, av_frame_alloc) X(util, av_frame_free)    \
    X(util, av_frame_unref) X(util, av_free) X(util, av_freep) X(util, av_get_pix_fmt_name)      \
    X(util, av_log_set_callback) X(util, av_malloc) X(util, av_pix_fmt_desc_get)                 \
    X(util, av_strerror) X(codec, av_packet_alloc) X(codec, av_packet_free)                      \
    X(codec, av_packet_unref) X(codec, avcodec_alloc_context3) X(codec, avcodec_free_context)    \
    X(codec, avcodec_get_name) X(codec, avcodec_open2) X(codec, avcodec_parameters_to_context)   \
    X(codec, avcodec_receive_frame) X(codec, avcodec_send_packet) X(format, av_find_best_stream) \
    X(format, av_read_frame) X(format, avformat_alloc_context) X(format, avformat_close_input)   \
    X(format, avformat_find_stream_info) X(format, avformat_open_input)                          \
    X(format, avio_alloc_context) X(format, avio_context_free)

static struct {
#define LS_AV_POINTER(lib, name) __typeof__(name) *name;
    LS_AV_FUNCTIONS(LS_AV_POINTER)
#undef LS_AV_POINTER
} av_fn;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[256];

static void load_libraries(void)
{
    static const char *const sonames[3] = {
        "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
        "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
        "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    };
    void *lib[3];
    for (unsigned k = 0; k < 3; k++) {
        /* kept for the process: the decoders' threads and callbacks may outlive any reader */
        lib[k] = dlopen(sonames[k], RTLD_NOW | RTLD_LOCAL);
        if (!lib[k]) {
            const char *e = dlerror();
            snprintf(load_error, sizeof(load_error), "%s", e ? e : sonames[k]);
            return;
        }
    }
    void *const util = lib[0], *const codec = lib[1], *const format = lib[2];
    (void)util, (void)codec, (void)format;
#define LS_AV_LOOKUP(which, name)                                                                \
    if (!(*(void **)(void *)&av_fn.name = dlsym(which, #name))) {                                \
        snprintf(load_error, sizeof(load_error), "no symbol %s in FFmpeg's libraries", #name); \
        return;                                                                                  \
    }
    LS_AV_FUNCTIONS(LS_AV_LOOKUP)
#undef LS_AV_LOOKUP
    loaded = true;
}

/* every call below goes through the loaded pointers */
#define av_dict_free (*av_fn.av_dict_free)
#define av_dict_set (*av_fn.av_dict_set)
#define av_frame_alloc (*av_fn.av_frame_alloc)
#define av_frame_free (*av_fn.av_frame_free)
#define av_frame_unref (*av_fn.av_frame_unref)
#define av_free (*av_fn.av_free)
#define av_freep (*av_fn.av_freep)
#define av_get_pix_fmt_name (*av_fn.av_get_pix_fmt_name)
#define av_log_set_callback (*av_fn.av_log_set_callback)
#define av_malloc (*av_fn.av_malloc)
#define av_pix_fmt_desc_get (*av_fn.av_pix_fmt_desc_get)
#define av_strerror (*av_fn.av_strerror)
#define av_packet_alloc (*av_fn.av_packet_alloc)
#define av_packet_free (*av_fn.av_packet_free)
#define av_packet_unref (*av_fn.av_packet_unref)
#define avcodec_alloc_context3 (*av_fn.avcodec_alloc_context3)
#define avcodec_free_context (*av_fn.avcodec_free_context)
#define avcodec_get_name (*av_fn.avcodec_get_name)
#define avcodec_open2 (*av_fn.avcodec_open2)
#define avcodec_parameters_to_context (*av_fn.avcodec_parameters_to_context)
#define avcodec_receive_frame (*av_fn.avcodec_receive_frame)
#define avcodec_send_packet (*av_fn.avcodec_send_packet)
#define av_find_best_stream (*av_fn.av_find_best_stream)
#define av_read_frame (*av_fn.av_read_frame)
#define avformat_alloc_context (*av_fn.avformat_alloc_context)
#define avformat_close_input (*av_fn.avformat_close_input)
#define avformat_find_stream_info (*av_fn.avformat_find_stream_info)
#define avformat_open_input (*av_fn.avformat_open_input)
#define avio_alloc_context (*av_fn.avio_alloc_context)
#define avio_context_free (*av_fn.avio_context_free)

#define AVIO_BUFFER_BYTES (64u << 10)

struct LsAvReader {
    AVFormatContext *fmt;
    AVCodecContext *codec;
    AVPacket *pkt;
    AVFrame *frame;
    int stream;
    int draining;      /* the demuxer ended: the decoder is being flushed */
    int pending;       /* frame holds the first frame, decoded at open */
    uint64_t frames;   /* frames delivered */
    enum AVPixelFormat pix_fmt;
    int w, h;
    unsigned bytes_per_sample;
    /* a stream (stdin): the bytes format detection already consumed, then the FILE */
    FILE *file;
    unsigned char head[16];
    size_t head_len, head_pos;
    AVIOContext *avio;
    /* errors the libraries logged about this reader (log_lock) */
    char logged[256];
    bool logged_open;    /* logged is a message whose last part is still to come */
    unsigned errors_logged, errors_seen;
    int registered;
};

/* The libraries' own messages would break the CLI's one line per problem: the errors they log
 * are kept and quoted in the error that follows. An error the decoder or demuxer of a reader
 * logs (from any thread: frame threads log through their copies of the codec context, which
 * keep its opaque) is that reader's: a decoder that conceals damage only logs it, and lockstep
 * does not score concealed pictures. Other errors (the probing decoders of
 * avformat_find_stream_info) are kept in last_log. */
#define MAX_LIVE_READERS 64
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_log[256];
static bool last_log_open;
static LsAvReader *live[MAX_LIVE_READERS];
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

/* The reader a message's context belongs to, NULL when none (log_lock held): the pointer in
 * opaque is only trusted when it is a live reader's. */
static LsAvReader *reader_of(void *avcl)
{
    const AVClass *cls = avcl ? *(const AVClass *const *)avcl : NULL;
    void *opaque = NULL;
    if (cls && !strcmp(cls->class_name, "AVCodecContext"))
        opaque = ((AVCodecContext *)avcl)->opaque;
    else if (cls && !strcmp(cls->class_name, "AVFormatContext"))
        opaque = ((AVFormatContext *)avcl)->opaque;
    for (unsigned i = 0; opaque && i < MAX_LIVE_READERS; i++)
        if (live[i] == opaque)
            return live[i];
    return NULL;
}

/* A message comes in parts (av_log calls until one ends with a newline): a part after one
 * without a newline is appended to it. */
static void keep_message(char *kept, size_t size, bool *open, const char *part)
{
    const size_t used = *open ? strlen(kept) : 0;
    if (used + 1 < size)
        snprintf(kept + used, size - used, "%s%s", used && part[0] != ' ' ? " " : "", part);
    size_t n = strlen(kept);
    while (n && (kept[n - 1] == '\n' || kept[n - 1] == ' '))
        kept[--n] = '\0';
}

static void log_callback(void *avcl, int level, const char *fmt, va_list ap)
{
    if (level > AV_LOG_ERROR)
        return;
    char part[sizeof(last_log)];
    vsnprintf(part, sizeof(part), fmt, ap);
    const size_t n = strlen(part);
    if (!n)
        return;
    const bool ends_line = part[n - 1] == '\n';
    pthread_mutex_lock(&log_lock);
    LsAvReader *av = reader_of(avcl);
    if (av) {
        keep_message(av->logged, sizeof(av->logged), &av->logged_open, part);
        av->logged_open = !ends_line;
        av->errors_logged++;
    } else {
        keep_message(last_log, sizeof(last_log), &last_log_open, part);
        last_log_open = !ends_line;
    }
    pthread_mutex_unlock(&log_lock);
}

static void install_log_callback(void)
{
    av_log_set_callback(log_callback);
}

static int register_reader(LsAvReader *av)
{
    int ok = 0;
    pthread_mutex_lock(&log_lock);
    for (unsigned i = 0; !ok && i < MAX_LIVE_READERS; i++)
        if (!live[i])
            live[i] = av, ok = 1;
    pthread_mutex_unlock(&log_lock);
    return ok;
}

static void unregister_reader(LsAvReader *av)
{
    pthread_mutex_lock(&log_lock);
    for (unsigned i = 0; i < MAX_LIVE_READERS; i++)
        if (live[i] == av)
            live[i] = NULL;
    pthread_mutex_unlock(&log_lock);
}

/* "Invalid data found when processing input" and, when the library logged one, its detail. */
static void describe_error(LsAvReader *av, int code, char *buf, size_t len)
{
    char text[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(code, text, sizeof(text));
    pthread_mutex_lock(&log_lock);
    const char *detail = av && av->logged[0] ? av->logged : last_log;
    if (detail[0])
        snprintf(buf, len, "%s (%s)", text, detail);
    else
        snprintf(buf, len, "%s", text);
    last_log[0] = '\0';
    if (av)
        av->logged[0] = '\0';
    pthread_mutex_unlock(&log_lock);
}

/* Whether the reader's decoder or demuxer logged an error since the last call; its message in
 * buf. */
static bool logged_errors(LsAvReader *av, char *buf, size_t len)
{
    pthread_mutex_lock(&log_lock);
    const bool any = av->errors_logged != av->errors_seen;
    av->errors_seen = av->errors_logged;
    snprintf(buf, len, "%s", av->logged);
    av->logged[0] = '\0';
    pthread_mutex_unlock(&log_lock);
    return any;
}

static int read_stream(void *opaque, uint8_t *buf, int size)
{
    LsAvReader *av = opaque;
    size_t got = 0;
    if (av->head_pos < av->head_len) {
        got = av->head_len - av->head_pos;
        if (got > (size_t)size)
            got = (size_t)size;
        memcpy(buf, av->head + av->head_pos, got);
        av->head_pos += got;
    }
    if (got < (size_t)size)
        got += fread(buf + got, 1, (size_t)size - got, av->file);
    if (got == 0)
        return ferror(av->file) ? AVERROR(EIO) : AVERROR_EOF;
    return (int)got;
}

/* The layouts of VmafPicture: planar Y, Cb, Cr (or Y alone), one depth for all, samples in bytes
 * (8-bit) or native 16-bit words with the value in the low bits. Full-range (yuvj) formats have
 * the same layout and are scored as their samples are, like their Y4M. */
static int map_format(enum AVPixelFormat f, enum VmafPixelFormat *fmt, unsigned *bpc)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f);
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_RGB |
                           AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_BAYER |
                           AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT)))
        return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const int native = (d->flags & AV_PIX_FMT_FLAG_BE) != 0;
#else
    const int native = (d->flags & AV_PIX_FMT_FLAG_BE) == 0;
#endif
    if (!(d->flags & AV_PIX_FMT_FLAG_PLANAR) && d->nb_components > 1)
        return 0;
    if (d->nb_components != 1 && d->nb_components != 3)
        return 0;
    const unsigned depth = (unsigned)d->comp[0].depth;
    if (depth < 8 || depth > 16 || (depth > 8 && !native))
        return 0;
    for (int c = 0; c < d->nb_components; c++) {
        const AVComponentDescriptor *k = &d->comp[c];
        if (k->plane != c || k->shift || k->offset || (unsigned)k->depth != depth ||
            k->step != (depth > 8 ? 2 : 1))
            return 0;
    }
    if (d->nb_components == 1)
        *fmt = VMAF_PIX_FMT_YUV400P;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
        *fmt = VMAF_PIX_FMT_YUV420P;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0)
        *fmt = VMAF_PIX_FMT_YUV422P;
    else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0)
        *fmt = VMAF_PIX_FMT_YUV444P;
    else
        return 0;
    *bpc = depth;
    return 1;
}

/* The format to convert an unsupported one to: the same chroma layout where lockstep has it
 * (4:4:4 for RGB), the depth rounded up to one that ffmpeg writes to Y4M. */
static const char *suggested_format(enum AVPixelFormat f, char *buf, size_t len)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f);
    const int depth = d ? d->comp[0].depth : 8;
    const char *suffix = depth <= 8 ? "" : depth <= 10 ? "10le" : depth <= 12 ? "12le" : "16le";
    if (d && d->nb_components <= 2 && !(d->flags & (AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_RGB)))
        snprintf(buf, len, "gray%s", depth <= 8 ? "" : suffix);
    else if (d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->log2_chroma_w == 1)
        snprintf(buf, len, "yuv%sp%s", d->log2_chroma_h ? "420" : "422", suffix);
    else if (d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->log2_chroma_w > 1)
        snprintf(buf, len, "yuv420p%s", suffix);
    else
        snprintf(buf, len, "yuv444p%s", suffix);
    return buf;
}

static const char *field_order_name(enum AVFieldOrder o)
{
    switch (o) {
    case AV_FIELD_TT: return "top field first";
    case AV_FIELD_BB: return "bottom field first";
    case AV_FIELD_TB: return "top field first, bottom coded first";
    case AV_FIELD_BT: return "bottom field first, top coded first";
    default: return NULL;
    }
}

/* Frames in the file: the container's count when it has one, else duration times frame rate
 * (an estimate: *exact = false); 0 when neither is known. */
static uint64_t count_frames(const AVFormatContext *fmt, const AVStream *st, bool *exact)
{
    *exact = false;
    if (st->nb_frames > 0) {
        *exact = true;
        return (uint64_t)st->nb_frames;
    }
    const AVRational rate = st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate;
    if (!rate.num || !rate.den)
        return 0;
    double seconds = 0;
    if (st->duration > 0 && st->time_base.den)
        seconds = (double)st->duration * av_q2d(st->time_base);
    else if (fmt->duration > 0)
        seconds = (double)fmt->duration / AV_TIME_BASE;
    const double n = seconds * av_q2d(rate) + 0.5;
    return n >= 1 && n < 1e12 ? (uint64_t)n : 0;
}

static int decode_next(LsAvReader *av, char *why, size_t why_len);

bool ls_av_available(void)
{
    pthread_once(&load_once, load_libraries);
    return loaded;
}

const char *ls_av_versions(char *buf, size_t len)
{
    if (!ls_av_available()) {
        snprintf(buf, len, "none (FFmpeg's libraries did not load: %s)", load_error);
        return buf;
    }
    snprintf(buf, len, "libavformat %s, libavcodec %s, libavutil %s",
             AV_STRINGIFY(LIBAVFORMAT_VERSION), AV_STRINGIFY(LIBAVCODEC_VERSION),
             AV_STRINGIFY(LIBAVUTIL_VERSION));
    return buf;
}

int ls_av_open(LsAvReader **out, const char *path, FILE *stream, const unsigned char *head,
               size_t head_len, LsVideoInfo *info, char *why, size_t why_len)
{
    *out = NULL;
    if (!ls_av_available()) {
        snprintf(why, why_len, "FFmpeg's libraries did not load: %s", load_error);
        return -ENOTSUP;
    }
    pthread_once(&log_once, install_log_callback);
    LsAvReader *av = calloc(1, sizeof(*av));
    if (!av) {
        snprintf(why, why_len, "out of memory");
        return -ENOMEM;
    }
    char detail[512];
    int ret = -ENOMEM;
    av->stream = -1;
    if (!(av->fmt = avformat_alloc_context()) || !(av->pkt = av_packet_alloc()) ||
        !(av->frame = av_frame_alloc())) {
        snprintf(why, why_len, "out of memory");
        goto fail;
    }
    if (!register_reader(av)) {
        snprintf(why, why_len, "more than %u containers open at once", MAX_LIVE_READERS);
        goto fail;
    }
    av->registered = 1;
    av->fmt->opaque = av;
    AVDictionary *opts = NULL;
    char url[4200];
    if (stream) {
        /* the bytes that told it from Y4M are replayed before the rest of the stream */
        if (head_len > sizeof(av->head))
            head_len = sizeof(av->head);
        memcpy(av->head, head, head_len);
        av->head_len = head_len;
        av->file = stream;
        unsigned char *buffer = av_malloc(AVIO_BUFFER_BYTES);
        if (!buffer || !(av->avio = avio_alloc_context(buffer, AVIO_BUFFER_BYTES, 0, av,
                                                       read_stream, NULL, NULL))) {
            av_free(buffer);
            snprintf(why, why_len, "out of memory");
            goto fail;
        }
        av->avio->seekable = 0;
        av->fmt->pb = av->avio;
        av->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
        snprintf(url, sizeof(url), "pipe:");
    } else {
        /* "file:" keeps a name with a colon a file name, and the whitelist keeps playlists
         * and references inside the file from opening anything but local files */
        snprintf(url, sizeof(url), "file:%s", path);
        av_dict_set(&opts, "protocol_whitelist", "file", 0);
    }
    int r = avformat_open_input(&av->fmt, url, NULL, &opts);
    av_dict_free(&opts);
    if (r < 0) {
        /* avformat_open_input frees the context on failure */
        av->fmt = NULL;
        describe_error(av, r, detail, sizeof(detail));
        snprintf(why, why_len, "FFmpeg's libraries cannot read it: %s", detail);
        ret = -EINVAL;
        goto fail;
    }
    if ((r = avformat_find_stream_info(av->fmt, NULL)) < 0) {
        describe_error(av, r, detail, sizeof(detail));
        snprintf(why, why_len, "cannot read the stream parameters (%s): %s",
                 av->fmt->iformat->name, detail);
        ret = -EINVAL;
        goto fail;
    }
    const AVCodec *decoder = NULL;
    r = av_find_best_stream(av->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (r == AVERROR_STREAM_NOT_FOUND) {
        snprintf(why, why_len, "no video stream in this %s file (%u stream%s)",
                 av->fmt->iformat->name, av->fmt->nb_streams, av->fmt->nb_streams == 1 ? "" : "s");
        ret = -EINVAL;
        goto fail;
    }
    if (r < 0) {
        /* the stream exists but no decoder for it */
        int s;
        for (s = 0; s < (int)av->fmt->nb_streams; s++)
            if (av->fmt->streams[s]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)
                break;
        const AVCodecParameters *par =
            s < (int)av->fmt->nb_streams ? av->fmt->streams[s]->codecpar : NULL;
        snprintf(why, why_len, "this FFmpeg (%s) has no decoder for its %s video",
                 LIBAVCODEC_IDENT, par ? avcodec_get_name(par->codec_id) : "?");
        ret = -ENOTSUP;
        goto fail;
    }
    av->stream = r;
    for (unsigned s = 0; s < av->fmt->nb_streams; s++)
        if ((int)s != av->stream)
            av->fmt->streams[s]->discard = AVDISCARD_ALL;
    AVStream *st = av->fmt->streams[av->stream];
    const AVCodecParameters *par = st->codecpar;

    const char *interlaced = field_order_name(par->field_order);
    if (interlaced) {
        snprintf(why, why_len, "interlaced video (%s) is not supported; deinterlace it first, "
                 "e.g. ffmpeg -i %s -vf bwdif=mode=send_frame -f yuv4mpegpipe -strict -1 - | "
                 "lockstep ... -d -", interlaced, stream ? "-" : path);
        ret = -ENOTSUP;
        goto fail;
    }
    if (!(av->codec = avcodec_alloc_context3(decoder)) ||
        avcodec_parameters_to_context(av->codec, par) < 0) {
        snprintf(why, why_len, "out of memory");
        goto fail;
    }
    av->codec->pkt_timebase = st->time_base;
    av->codec->opaque = av;
    /* checksums checked, and damage an error rather than concealed (a concealed picture's
     * score says nothing about the encode) */
    av->codec->err_recognition = AV_EF_CRCCHECK | AV_EF_EXPLODE;
    /* the decoder's own threads (frame and slice), as many as the machine has */
    av->codec->thread_count = 0;
    av->codec->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    if ((r = avcodec_open2(av->codec, decoder, NULL)) < 0) {
        describe_error(av, r, detail, sizeof(detail));
        snprintf(why, why_len, "cannot open the %s decoder: %s", decoder->name, detail);
        ret = -EINVAL;
        goto fail;
    }
    /* the first frame says what the video decodes to (a stream's parameters can describe a
     * later part of it); a video without frames is described by its parameters */
    r = decode_next(av, why, why_len);
    if (r < 0) {
        ret = r;
        goto fail;
    }
    av->pending = r;
    av->pix_fmt = r ? (enum AVPixelFormat)av->frame->format : (enum AVPixelFormat)par->format;
    av->w = r ? av->frame->width : par->width;
    av->h = r ? av->frame->height : par->height;
    const char *fmt_name = av_get_pix_fmt_name(av->pix_fmt);
    if (!map_format(av->pix_fmt, &info->fmt, &info->bpc)) {
        char target[32];
        if (!fmt_name)
            snprintf(why, why_len, "its %s video has no known pixel format (no frame decoded)",
                     avcodec_get_name(par->codec_id));
        else
            snprintf(why, why_len, "its %s video decodes to %s, which lockstep does not score (it "
                     "reads planar YUV 4:2:0, 4:2:2, 4:4:4 and gray, 8 to 16 bits): convert it "
                     "yourself, e.g. ffmpeg -i %s -pix_fmt %s -f yuv4mpegpipe -strict -1 - | "
                     "lockstep ... -d -", avcodec_get_name(par->codec_id), fmt_name,
                     stream ? "-" : path, suggested_format(av->pix_fmt, target, sizeof(target)));
        ret = -ENOTSUP;
        goto fail;
    }
    if (av->w <= 0 || av->h <= 0) {
        snprintf(why, why_len, "its %s video has no size (%dx%d)", avcodec_get_name(par->codec_id),
                 av->w, av->h);
        ret = -EINVAL;
        goto fail;
    }
    info->w = (unsigned)av->w;
    info->h = (unsigned)av->h;
    av->bytes_per_sample = info->bpc > 8 ? 2 : 1;

    info->y4m = false;
    info->chroma[0] = '\0';
    const AVRational rate = st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate;
    if (rate.num > 0 && rate.den > 0) {
        info->fps_num = (unsigned)rate.num;
        info->fps_den = (unsigned)rate.den;
    }
    info->frame_count = count_frames(av->fmt, st, &info->frame_count_exact);
    snprintf(info->source, sizeof(info->source), "%s, %s video (decoder %s), %s",
             av->fmt->iformat->name, avcodec_get_name(par->codec_id), decoder->name, fmt_name);
    *out = av;
    return 0;
fail:
    ls_av_close(av);
    return ret;
}

/* Decodes the next frame into av->frame: 1, 0 at the end, or a negative errno with why. */
static int decode_frame(LsAvReader *av, char *why, size_t why_len)
{
    char detail[512];
    for (;;) {
        int r = avcodec_receive_frame(av->codec, av->frame);
        if (r == 0)
            return 1;
        if (r == AVERROR_EOF)
            return 0;
        if (r != AVERROR(EAGAIN)) {
            describe_error(av, r, detail, sizeof(detail));
            snprintf(why, why_len, "frame %llu: decoding failed: %s",
                     (unsigned long long)av->frames, detail);
            return -EIO;
        }
        if (av->draining) {
            snprintf(why, why_len, "frame %llu: the decoder wants more data after the end",
                     (unsigned long long)av->frames);
            return -EIO;
        }
        r = av_read_frame(av->fmt, av->pkt);
        if (r == AVERROR_EOF) {
            av->draining = 1;
            r = avcodec_send_packet(av->codec, NULL);
        } else if (r < 0) {
            describe_error(av, r, detail, sizeof(detail));
            snprintf(why, why_len, "read error after frame %llu: %s",
                     (unsigned long long)av->frames, detail);
            return -EIO;
        } else if (av->pkt->stream_index != av->stream) {
            av_packet_unref(av->pkt);
            continue;
        } else if (av->pkt->flags & AV_PKT_FLAG_CORRUPT) {
            av_packet_unref(av->pkt);
            snprintf(why, why_len, "the file is damaged or truncated after frame %llu (the %s "
                     "demuxer read a corrupt packet)", (unsigned long long)av->frames,
                     av->fmt->iformat->name);
            return -EIO;
        } else {
            r = avcodec_send_packet(av->codec, av->pkt);
            av_packet_unref(av->pkt);
        }
        if (r < 0 && r != AVERROR_EOF) {
            describe_error(av, r, detail, sizeof(detail));
            snprintf(why, why_len, "frame %llu: decoding failed: %s",
                     (unsigned long long)av->frames, detail);
            return -EIO;
        }
    }
}

/* decode_frame, and damage the decoder concealed or the demuxer skipped (a logged error, a
 * frame marked corrupt) an error: frame threads decode ahead, so the frame named is where
 * decoding was, not necessarily the damaged one. */
static int decode_next(LsAvReader *av, char *why, size_t why_len)
{
    const int r = decode_frame(av, why, why_len);
    if (r < 0)
        return r;
    char detail[256];
    const bool logged = logged_errors(av, detail, sizeof(detail));
    const bool marked = r > 0 && (av->frame->decode_error_flags ||
                                  (av->frame->flags & AV_FRAME_FLAG_CORRUPT));
    if (logged || marked) {
        if (r > 0)
            av_frame_unref(av->frame);
        snprintf(why, why_len, "the video is damaged or truncated %s frame %llu (%s): lockstep "
                 "scores only what decodes without errors", r ? "at" : "after",
                 (unsigned long long)av->frames,
                 logged ? detail : "the decoder marked the frame corrupt");
        return -EIO;
    }
    return r;
}

/* Copies the decoded frame's first `planes` planes into pic, rows as they are. */
static void copy_frame(const LsAvReader *av, const AVFrame *f, VmafPicture *pic, unsigned planes)
{
    for (unsigned p = 0; p < planes && p < 3 && pic->data[p]; p++) {
        const size_t row = (size_t)pic->w[p] * av->bytes_per_sample;
        const uint8_t *src = f->data[p];
        uint8_t *dst = pic->data[p];
        for (unsigned y = 0; y < pic->h[p]; y++)
            memcpy(dst + (size_t)y * (size_t)pic->stride[p], src + (ptrdiff_t)y * f->linesize[p],
                   row);
    }
}

int ls_av_read(LsAvReader *av, VmafPicture *pic, unsigned planes, char *why, size_t why_len)
{
    const int r = av->pending ? 1 : decode_next(av, why, why_len);
    av->pending = 0;
    if (r <= 0)
        return r;
    const AVFrame *f = av->frame;
    if (f->format != av->pix_fmt || f->width != av->w || f->height != av->h) {
        const char *name = av_get_pix_fmt_name((enum AVPixelFormat)f->format);
        snprintf(why, why_len, "frame %llu decodes to %dx%d %s, the frames before it to %dx%d %s: "
                 "a change of size or format within a video is not scored",
                 (unsigned long long)av->frames, f->width, f->height, name ? name : "?", av->w,
                 av->h, av_get_pix_fmt_name(av->pix_fmt));
        av_frame_unref(av->frame);
        return -EINVAL;
    }
    if (pic)
        copy_frame(av, f, pic, planes);
    av_frame_unref(av->frame);
    av->frames++;
    return 1;
}

void ls_av_close(LsAvReader *av)
{
    if (!av)
        return;
    avcodec_free_context(&av->codec);
    if (av->registered)
        unregister_reader(av);
    avformat_close_input(&av->fmt);
    if (av->avio) {
        av_freep(&av->avio->buffer);
        avio_context_free(&av->avio);
    }
    av_packet_free(&av->pkt);
    av_frame_free(&av->frame);
    free(av);
}

#else /* built without FFmpeg's libraries */

bool ls_av_available(void) { return false; }

const char *ls_av_versions(char *buf, size_t len)
{
    snprintf(buf, len, "none");
    return buf;
}

int ls_av_open(LsAvReader **out, const char *path, FILE *stream, const unsigned char *head,
               size_t head_len, LsVideoInfo *info, char *why, size_t why_len)
{
    (void)path, (void)stream, (void)head, (void)head_len, (void)info;
    *out = NULL;
    snprintf(why, why_len, "built without FFmpeg's libraries");
    return -ENOTSUP;
}

int ls_av_read(LsAvReader *av, VmafPicture *pic, unsigned planes, char *why, size_t why_len)
{
    (void)av, (void)pic, (void)planes;
    snprintf(why, why_len, "built without FFmpeg's libraries");
    return -ENOTSUP;
}

void ls_av_close(LsAvReader *av) { (void)av; }

#endif
