/* YUV4MPEG2 header: tags, chroma types, and the header writer. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "input/input_internal.h"

/* Digits only, no sign or spaces; saturates instead of wrapping so that huge values stay huge. */
static int parse_decimal(const char *s, size_t len, uint64_t *value)
{
    if (!len)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (v < UINT64_MAX / 16)
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *value = v;
    return 1;
}

/* A token quoted into a message: bounded, non-printable bytes shown as '?'. */
static const char *quote_token(const char *tok, size_t len, char *buf, size_t buf_len)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 4 < buf_len; i++)
        buf[n++] = (tok[i] >= 0x20 && tok[i] < 0x7f) ? tok[i] : '?';
    if (n < len && n + 4 <= buf_len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

static int match(const char *tok, size_t len, const char *word)
{
    return strlen(word) == len && !memcmp(tok, word, len);
}

/* 4:2:0 siting variants share one sample layout; 8-bit 4:2:2 and mono are read as stored. */
static int parse_chroma(const char *tok, size_t len, enum VmafPixelFormat *fmt, unsigned *bpc)
{
    static const struct {
        const char *tag;
        enum VmafPixelFormat fmt;
    } eight_bit[] = {
        { "420", VMAF_PIX_FMT_YUV420P },    { "420jpeg", VMAF_PIX_FMT_YUV420P },
        { "420paldv", VMAF_PIX_FMT_YUV420P }, { "420mpeg2", VMAF_PIX_FMT_YUV420P },
        { "422", VMAF_PIX_FMT_YUV422P },    { "444", VMAF_PIX_FMT_YUV444P },
        { "mono", VMAF_PIX_FMT_YUV400P },
    };
    for (size_t i = 0; i < sizeof(eight_bit) / sizeof(eight_bit[0]); i++) {
        if (match(tok, len, eight_bit[i].tag)) {
            *fmt = eight_bit[i].fmt;
            *bpc = 8;
            return 1;
        }
    }

    static const struct {
        const char *prefix;
        enum VmafPixelFormat fmt;
    } deep[] = {
        { "420p", VMAF_PIX_FMT_YUV420P }, { "422p", VMAF_PIX_FMT_YUV422P },
        { "444p", VMAF_PIX_FMT_YUV444P }, { "mono", VMAF_PIX_FMT_YUV400P },
    };
    for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
        const size_t plen = strlen(deep[i].prefix);
        uint64_t depth;
        if (len > plen && len <= plen + 2 && !memcmp(tok, deep[i].prefix, plen) &&
            tok[plen] != '0' && parse_decimal(tok + plen, len - plen, &depth) && depth >= 9 &&
            depth <= 16) {
            *fmt = deep[i].fmt;
            *bpc = (unsigned)depth;
            return 1;
        }
    }
    return 0;
}

int ls_y4m_parse_header(const char *tags, size_t len, LsVideoInfo *info, char *why,
                        size_t why_len)
{
    char quoted[48];
    uint64_t w = 0, h = 0;
    int have_w = 0, have_h = 0;

    /* without a C tag the stream is 4:2:0 8-bit (the YUV4MPEG2 default); without F, 0/0 */
    info->fmt = VMAF_PIX_FMT_YUV420P;
    info->bpc = 8;
    snprintf(info->chroma, sizeof(info->chroma), "420");
    info->fps_num = info->fps_den = 0;

    size_t i = 0;
    while (i < len) {
        if (tags[i] == ' ') {
            i++;
            continue;
        }
        const char *tok = tags + i;
        size_t n = 0;
        while (i < len && tags[i] != ' ') {
            i++;
            n++;
        }
        const char *arg = tok + 1;
        const size_t arg_len = n - 1;

        switch (tok[0]) {
        case 'W':
        case 'H': {
            uint64_t v;
            const char *what = tok[0] == 'W' ? "width" : "height";
            if (!parse_decimal(arg, arg_len, &v)) {
                snprintf(why, why_len, "bad %s tag \"%s\" in Y4M header", what,
                         quote_token(tok, n, quoted, sizeof(quoted)));
                return -EINVAL;
            }
            if (v == 0 || v > LS_INPUT_MAX_DIM) {
                if (v)
                    snprintf(why, why_len, "absurd %s %s in Y4M header (allowed 1..%u)", what,
                             quote_token(arg, arg_len, quoted, sizeof(quoted)),
                             LS_INPUT_MAX_DIM);
                else
                    snprintf(why, why_len, "zero %s in Y4M header", what);
                return -EINVAL;
            }
            if (tok[0] == 'W') {
                w = v;
                have_w = 1;
            } else {
                h = v;
                have_h = 1;
            }
            break;
        }
        case 'F': {
            const char *colon = memchr(arg, ':', arg_len);
            uint64_t num, den;
            if (!colon || !parse_decimal(arg, (size_t)(colon - arg), &num) ||
                !parse_decimal(colon + 1, arg_len - (size_t)(colon - arg) - 1, &den) ||
                num > UINT_MAX || den > UINT_MAX) {
                snprintf(why, why_len, "bad frame rate tag \"%s\" in Y4M header",
                         quote_token(tok, n, quoted, sizeof(quoted)));
                return -EINVAL;
            }
            info->fps_num = (unsigned)num;
            info->fps_den = (unsigned)den;
            break;
        }
        case 'I':
            if (match(arg, arg_len, "p") || match(arg, arg_len, "?"))
                break;
            if (match(arg, arg_len, "t") || match(arg, arg_len, "b") ||
                match(arg, arg_len, "m")) {
                snprintf(why, why_len,
                         "interlaced Y4M (\"%s\") is not supported; deinterlace it first",
                         quote_token(tok, n, quoted, sizeof(quoted)));
                return -ENOTSUP;
            }
            snprintf(why, why_len, "bad interlacing tag \"%s\" in Y4M header",
                     quote_token(tok, n, quoted, sizeof(quoted)));
            return -EINVAL;
        case 'C':
            if (arg_len >= sizeof(info->chroma) ||
                !parse_chroma(arg, arg_len, &info->fmt, &info->bpc)) {
                snprintf(why, why_len, "unknown Y4M chroma type \"%s\"",
                         quote_token(arg, arg_len, quoted, sizeof(quoted)));
                return -EINVAL;
            }
            memcpy(info->chroma, arg, arg_len);
            info->chroma[arg_len] = '\0';
            break;
        default:
            /* A (aspect), X (extensions) and unknown tags carry nothing the reader needs. */
            break;
        }
    }

    if (!have_w || !have_h) {
        snprintf(why, why_len, "missing %s (%s tag) in Y4M header",
                 !have_w ? "width" : "height", !have_w ? "W" : "H");
        return -EINVAL;
    }
    info->w = (unsigned)w;
    info->h = (unsigned)h;
    return 0;
}

const char *ls_y4m_chroma_tag(enum VmafPixelFormat fmt, unsigned bpc, char *buf, size_t len)
{
    const char *base;
    switch (fmt) {
    case VMAF_PIX_FMT_YUV420P: base = bpc > 8 ? "420p" : "420jpeg"; break;
    case VMAF_PIX_FMT_YUV422P: base = bpc > 8 ? "422p" : "422"; break;
    case VMAF_PIX_FMT_YUV444P: base = bpc > 8 ? "444p" : "444"; break;
    case VMAF_PIX_FMT_YUV400P: base = "mono"; break;
    default: return NULL;
    }
    if (bpc > 8)
        snprintf(buf, len, "%s%u", base, bpc);
    else
        snprintf(buf, len, "%s", base);
    return buf;
}

int ls_y4m_write_header(void *file, const LsVideoInfo *info)
{
    char tag[32];
    const char *chroma = info->chroma[0] ? info->chroma
                                         : ls_y4m_chroma_tag(info->fmt, info->bpc, tag,
                                                             sizeof(tag));
    if (!chroma)
        return -EINVAL;
    const unsigned num = info->fps_den ? info->fps_num : 25;
    const unsigned den = info->fps_den ? info->fps_den : 1;
    if (fprintf((FILE *)file, "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 C%s\n", info->w, info->h, num,
                den, chroma) < 0)
        return -EIO;
    return 0;
}
