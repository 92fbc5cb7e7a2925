/* Readers (Y4M, raw YUV) and writers.
 *   test_input --manifest MANIFEST.json --fixtures DIR --work DIR
 *       every fixture against the manifest (header, frame count, payload bytes), raw and Y4M
 *       round trips, stdin and pipes, one case per kind of bad input, mutated files
 *   test_input --gen PATH-OF-lockstep-gen --work DIR
 *       the generator: deterministic, readable, distorted as documented */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/pack10.h"
#include "core/picture_ref.h"
#include "core/upload_sink.h"
#include "input/input.h"

static int failures, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static const char *work_dir;

static const char *work_path(const char *name)
{
    static char paths[8][1024];
    static int next;
    char *p = paths[next++ & 7];
    snprintf(p, sizeof(paths[0]), "%s/%s", work_dir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static char *read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
        const size_t got = fread(buf + n, 1, cap - n, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static unsigned n_planes(const VmafPicture *pic)
{
    return pic->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
}

static size_t row_bytes(const VmafPicture *pic, unsigned p)
{
    return (size_t)pic->w[p] * (pic->bpc > 8 ? 2 : 1);
}

static void fill_random(VmafPicture *pic)
{
    const uint32_t mask = (1u << pic->bpc) - 1;
    for (unsigned p = 0; p < n_planes(pic); p++)
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + (size_t)y * (size_t)pic->stride[p];
            for (unsigned x = 0; x < pic->w[p]; x++) {
                if (pic->bpc > 8)
                    ((uint16_t *)row)[x] = (uint16_t)(rnd() & mask);
                else
                    row[x] = (uint8_t)rnd();
            }
        }
}

static int same_picture(const VmafPicture *a, const VmafPicture *b)
{
    for (unsigned p = 0; p < n_planes(a); p++)
        for (unsigned y = 0; y < a->h[p]; y++)
            if (memcmp((const uint8_t *)a->data[p] + (size_t)y * (size_t)a->stride[p],
                       (const uint8_t *)b->data[p] + (size_t)y * (size_t)b->stride[p],
                       row_bytes(a, p)))
                return 0;
    return 1;
}

/* A picture whose rows are not padded: the reader's whole-plane path. */
static void alloc_tight(VmafPicture *pic, const VmafPicture *like)
{
    *pic = *like;
    pic->ref = NULL;
    for (unsigned p = 0; p < 3; p++) {
        pic->data[p] = NULL;
        pic->stride[p] = 0;
    }
    for (unsigned p = 0; p < n_planes(like); p++) {
        pic->stride[p] = (ptrdiff_t)row_bytes(like, p);
        pic->data[p] = malloc(row_bytes(like, p) * like->h[p]);
    }
}

static void free_tight(VmafPicture *pic)
{
    for (unsigned p = 0; p < 3; p++)
        free(pic->data[p]);
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const uint8_t *d = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ d[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_picture(uint64_t h, const VmafPicture *pic)
{
    for (unsigned p = 0; p < n_planes(pic); p++)
        for (unsigned y = 0; y < pic->h[p]; y++)
            h = fnv(h, (const uint8_t *)pic->data[p] + (size_t)y * (size_t)pic->stride[p],
                    row_bytes(pic, p));
    return h;
}

/* ---- fixtures against the manifest ---------------------------------------------------- */

static int json_string(const char *from, const char *to, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\": \"", key);
    const char *p = strstr(from, pat);
    if (!p || p >= to)
        return 0;
    p += strlen(pat);
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= len)
        return 0;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return 1;
}

static int json_number(const char *from, const char *to, const char *key, unsigned *out)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\": ", key);
    const char *p = strstr(from, pat);
    if (!p || p >= to)
        return 0;
    *out = (unsigned)strtoul(p + strlen(pat), NULL, 10);
    return 1;
}

/* Hash of the frame payloads read straight from the file bytes, for comparison with what the
 * reader puts into pictures. */
static uint64_t hash_file_payload(const char *path, size_t frame_bytes, unsigned *frames)
{
    size_t len;
    char *buf = read_file(path, &len);
    uint64_t h = 0xcbf29ce484222325ull;
    *frames = 0;
    if (!buf)
        return 0;
    const char *p = memchr(buf, '\n', len);
    size_t pos = p ? (size_t)(p - buf) + 1 : len;
    while (pos + 6 + frame_bytes <= len && !memcmp(buf + pos, "FRAME\n", 6)) {
        h = fnv(h, buf + pos + 6, frame_bytes);
        pos += 6 + frame_bytes;
        (*frames)++;
    }
    free(buf);
    return h;
}

static void check_fixture_file(const char *dir, const char *xz_name, unsigned w, unsigned h,
                               const char *fmt, unsigned bpc, unsigned frames, const char *header)
{
    char path[1024], err[512];
    snprintf(path, sizeof(path), "%s/%s", dir, xz_name);
    char *dot = strstr(path, ".xz");
    if (dot)
        *dot = '\0';

    LsInput *in;
    int ret = ls_input_open(&in, path, NULL, err, sizeof(err));
    CHECK(ret == 0, "%s: open returned %d: %s", path, ret, err);
    if (ret)
        return;
    const LsVideoInfo *info = ls_input_info(in);
    CHECK(info->y4m, "%s: not detected as Y4M", path);
    CHECK(info->w == w && info->h == h, "%s: size %ux%u, manifest %ux%u", path, info->w, info->h,
          w, h);
    CHECK(info->fmt == ls_pix_fmt_from_name(fmt), "%s: format %s, manifest %s", path,
          ls_pix_fmt_name(info->fmt), fmt);
    CHECK(info->bpc == bpc, "%s: bit depth %u, manifest %u", path, info->bpc, bpc);
    char tag[64];
    snprintf(tag, sizeof(tag), " C%s ", info->chroma);
    char padded[512];
    snprintf(padded, sizeof(padded), "%s ", header);
    CHECK(strstr(padded, tag) != NULL, "%s: chroma \"%s\" not in \"%s\"", path, info->chroma,
          header);
    char fps[64];
    snprintf(fps, sizeof(fps), " F%u:%u ", info->fps_num, info->fps_den);
    CHECK(strstr(padded, fps) != NULL, "%s: fps %u:%u not in \"%s\"", path, info->fps_num,
          info->fps_den, header);

    VmafPicture pic;
    ret = vmaf_picture_alloc(&pic, info->fmt, info->bpc, info->w, info->h);
    CHECK(ret == 0, "alloc %d", ret);
    unsigned n = 0;
    uint64_t hash = 0xcbf29ce484222325ull;
    while ((ret = ls_input_read(in, &pic, err, sizeof(err))) == 1) {
        hash = hash_picture(hash, &pic);
        n++;
    }
    CHECK(ret == 0, "%s: read returned %d after %u frames: %s", path, ret, n, err);
    CHECK(n == frames, "%s: %u frames, manifest %u", path, n, frames);
    ret = ls_input_read(in, &pic, err, sizeof(err));
    CHECK(ret == 0, "%s: read after the end returned %d", path, ret);
    unsigned file_frames;
    const uint64_t file_hash = hash_file_payload(path, info->frame_bytes, &file_frames);
    CHECK(file_frames == frames && file_hash == hash, "%s: payload differs from the file bytes",
          path);
    vmaf_picture_unref(&pic);
    ls_input_close(in);
}

static void test_fixtures(const char *manifest_path, const char *dir)
{
    size_t len;
    char *json = read_file(manifest_path, &len);
    CHECK(json != NULL, "cannot read %s", manifest_path);
    if (!json)
        return;
    const char *p = strstr(json, "\"fixtures\": [");
    CHECK(p != NULL, "no fixtures list in %s", manifest_path);
    unsigned count = 0;
    while (p && (p = strstr(p, "\"id\": \""))) {
        const char *next = strstr(p + 1, "\"id\": \"");
        const char *end = next ? next : json + len;
        char id[32], ref[128], dis[128], fmt[16], header[512];
        unsigned w, h, bpc, frames;
        const int ok = json_string(p, end, "id", id, sizeof(id)) &&
                       json_string(p, end, "ref", ref, sizeof(ref)) &&
                       json_string(p, end, "dis", dis, sizeof(dis)) &&
                       json_string(p, end, "pixel_format", fmt, sizeof(fmt)) &&
                       json_string(p, end, "y4m_header", header, sizeof(header)) &&
                       json_number(p, end, "width", &w) && json_number(p, end, "height", &h) &&
                       json_number(p, end, "bit_depth", &bpc) &&
                       json_number(p, end, "frames", &frames);
        CHECK(ok, "manifest entry %u incomplete", count);
        if (ok) {
            check_fixture_file(dir, ref, w, h, fmt, bpc, frames, header);
            check_fixture_file(dir, dis, w, h, fmt, bpc, frames, header);
            printf("fixture %-5s %ux%u %s %u-bit %u frames: checked\n", id, w, h, fmt, bpc,
                   frames);
        }
        count++;
        p = next;
    }
    CHECK(count >= 17, "only %u fixtures in the manifest", count);
    free(json);
}

/* ---- round trips ----------------------------------------------------------------------- */

static void round_trip(enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h, bool y4m)
{
    enum { FRAMES = 3 };
    char name[128], err[512], what[160];
    snprintf(name, sizeof(name), "rt_%s_%u_%ux%u.%s", ls_pix_fmt_name(fmt), bpc, w, h,
             y4m ? "y4m" : "yuv");
    snprintf(what, sizeof(what), "%s round trip %s %u-bit %ux%u", y4m ? "Y4M" : "raw",
             ls_pix_fmt_name(fmt), bpc, w, h);
    const char *path = work_path(name);

    VmafPicture src[FRAMES], pic, tight;
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "%s: cannot create %s", what, path);
    if (!f)
        return;
    LsVideoInfo info = { .w = w, .h = h, .bpc = bpc, .fmt = fmt, .fps_num = 30000,
                         .fps_den = 1001 };
    if (y4m)
        CHECK(ls_y4m_write_header(f, &info) == 0, "%s: header", what);
    for (int i = 0; i < FRAMES; i++) {
        CHECK(vmaf_picture_alloc(&src[i], fmt, bpc, w, h) == 0, "%s: alloc", what);
        fill_random(&src[i]);
        CHECK(ls_write_frame(f, &src[i], y4m) == 0, "%s: write", what);
    }
    fclose(f);

    const LsRawParams raw = { .w = w, .h = h, .bpc = bpc, .fmt = fmt };
    LsInput *in;
    int ret = ls_input_open(&in, path, y4m ? NULL : &raw, err, sizeof(err));
    CHECK(ret == 0, "%s: open %d: %s", what, ret, err);
    if (ret)
        goto out;
    const LsVideoInfo *got = ls_input_info(in);
    CHECK(got->y4m == y4m && got->w == w && got->h == h && got->bpc == bpc && got->fmt == fmt,
          "%s: info %ux%u %s %u-bit", what, got->w, got->h, ls_pix_fmt_name(got->fmt), got->bpc);
    if (y4m)
        CHECK(got->fps_num == 30000 && got->fps_den == 1001, "%s: fps %u:%u", what, got->fps_num,
              got->fps_den);
    CHECK(vmaf_picture_alloc(&pic, fmt, bpc, w, h) == 0, "%s: alloc", what);
    alloc_tight(&tight, &pic);
    /* padded rows, then unpadded rows, then a skip */
    ret = ls_input_read(in, &pic, err, sizeof(err));
    CHECK(ret == 1 && same_picture(&pic, &src[0]), "%s: frame 0 (ret %d %s)", what, ret, err);
    ret = ls_input_read(in, &tight, err, sizeof(err));
    CHECK(ret == 1 && same_picture(&tight, &src[1]), "%s: frame 1 tight (ret %d %s)", what, ret,
          err);
    ret = ls_input_skip(in, err, sizeof(err));
    CHECK(ret == 1, "%s: skip frame 2 (ret %d %s)", what, ret, err);
    ret = ls_input_read(in, &pic, err, sizeof(err));
    CHECK(ret == 0, "%s: end (ret %d %s)", what, ret, err);
    ret = ls_input_skip(in, err, sizeof(err));
    CHECK(ret == 0, "%s: skip at end (ret %d %s)", what, ret, err);
    ls_input_close(in);

    /* skipping first, then reading */
    ret = ls_input_open(&in, path, y4m ? NULL : &raw, err, sizeof(err));
    CHECK(ret == 0 && ls_input_skip(in, err, sizeof(err)) == 1 &&
              ls_input_read(in, &pic, err, sizeof(err)) == 1 && same_picture(&pic, &src[1]),
          "%s: skip then read", what);
    ls_input_close(in);
    free_tight(&tight);
    vmaf_picture_unref(&pic);
out:
    for (int i = 0; i < FRAMES; i++)
        vmaf_picture_unref(&src[i]);
}

/* Luma-only reading: the luma plane as stored, the chroma planes of the picture untouched (a
 * marker value), the frames after it still at their places, and a frame cut inside its skipped
 * chroma still a truncated frame; for sequential reads and for reads at a frame index. */
static void test_luma_only(void)
{
    static const struct {
        enum VmafPixelFormat fmt;
        unsigned bpc, w, h;
        bool y4m;
    } cases[] = {
        { VMAF_PIX_FMT_YUV420P, 8, 33, 17, true },  { VMAF_PIX_FMT_YUV422P, 10, 20, 9, true },
        { VMAF_PIX_FMT_YUV444P, 12, 16, 16, false }, { VMAF_PIX_FMT_YUV420P, 16, 7, 5, false },
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        enum { FRAMES = 3 };
        char name[64], what[96], err[512];
        snprintf(name, sizeof(name), "luma_only_%u.%s", c, cases[c].y4m ? "y4m" : "yuv");
        snprintf(what, sizeof(what), "luma-only %s %s %u-bit", cases[c].y4m ? "Y4M" : "raw",
                 ls_pix_fmt_name(cases[c].fmt), cases[c].bpc);
        const char *path = work_path(name);
        VmafPicture src[FRAMES], pic;
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "%s: cannot create %s", what, path);
        if (!f)
            continue;
        LsVideoInfo info = { .w = cases[c].w, .h = cases[c].h, .bpc = cases[c].bpc,
                             .fmt = cases[c].fmt };
        if (cases[c].y4m)
            ls_y4m_write_header(f, &info);
        for (int i = 0; i < FRAMES; i++) {
            vmaf_picture_alloc(&src[i], info.fmt, info.bpc, info.w, info.h);
            fill_random(&src[i]);
            ls_write_frame(f, &src[i], cases[c].y4m);
        }
        const long whole = ftell(f);
        fclose(f);
        const LsRawParams raw = { .w = info.w, .h = info.h, .bpc = info.bpc, .fmt = info.fmt };
        vmaf_picture_alloc(&pic, info.fmt, info.bpc, info.w, info.h);
        CHECK(!ls_picture_depth_checked(&pic, 0), "%s: a new picture marked as checked", what);
        for (unsigned mode = 0; mode < 4; mode++) {
            const bool at = mode & 1, cut = mode & 2;
            if (cut && truncate(path, whole - 3)) /* inside the last frame's last chroma plane */
                CHECK(0, "%s: cannot truncate", what);
            LsInput *in;
            const int opened =
                !ls_input_open(&in, path, cases[c].y4m ? NULL : &raw, err, sizeof(err));
            /* a cut raw file is refused at open: its size is no whole number of frames */
            if (cut && !cases[c].y4m) {
                CHECK(!opened && strstr(err, "is not a whole number of"), "%s: cut raw file: %s",
                      what, opened ? "opened" : err);
                if (opened)
                    ls_input_close(in);
                continue;
            }
            if (!opened) {
                CHECK(0, "%s: open: %s", what, err);
                continue;
            }
            CHECK(!at || ls_input_can_read_at(in), "%s: a regular file reads at an index", what);
            ls_input_read_planes(in, 1);
            for (int i = 0; i < FRAMES; i++) {
                for (unsigned p = 1; p < 3; p++)
                    memset(pic.data[p], 0x5a, (size_t)pic.stride[p] * pic.h[p]);
                const int r = at ? ls_input_read_at(in, (uint64_t)i, &pic, err, sizeof(err))
                                 : ls_input_read(in, &pic, err, sizeof(err));
                if (cut && i == FRAMES - 1) {
                    CHECK(r == -EIO && strstr(err, "truncated frame 2"),
                          "%s%s: cut frame: %d %s", what, at ? " at index" : "", r, err);
                    continue;
                }
                int chroma_kept = 1;
                for (unsigned p = 1; p < 3; p++)
                    for (size_t k = 0; k < (size_t)pic.stride[p] * pic.h[p]; k++)
                        chroma_kept &= ((const uint8_t *)pic.data[p])[k] == 0x5a;
                int luma_same = 1;
                for (unsigned y = 0; y < pic.h[0]; y++)
                    luma_same &= !memcmp((const uint8_t *)pic.data[0] + y * pic.stride[0],
                                         (const uint8_t *)src[i].data[0] + y * src[i].stride[0],
                                         row_bytes(&pic, 0));
                CHECK(r == 1 && luma_same && chroma_kept, "%s%s%s: frame %d: %d %s", what,
                      at ? " at index" : "", cut ? " (cut file)" : "", i, r, err);
                /* the luma read is the luma checked against the depth (cambi relies on it) */
                CHECK(ls_picture_depth_checked(&pic, 0) && !ls_picture_depth_checked(&pic, 1),
                      "%s%s: frame %d: planes marked as checked: luma %d, Cb %d", what,
                      at ? " at index" : "", i, ls_picture_depth_checked(&pic, 0),
                      ls_picture_depth_checked(&pic, 1));
            }
            if (!cut) {
                const int r = at ? ls_input_read_at(in, FRAMES, &pic, err, sizeof(err))
                                 : ls_input_read(in, &pic, err, sizeof(err));
                CHECK(r == 0, "%s%s: end of file: %d %s", what, at ? " at index" : "", r, err);
            }
            if (at) {
                /* an index whose offset overflows is past the end too (found by fuzz_y4m) */
                const int r = ls_input_read_at(in, UINT64_MAX / 2, &pic, err, sizeof(err));
                CHECK(r == 0, "%s: frame 2^63 at index: %d %s", what, r, err);
            }
            ls_input_close(in);
        }
        vmaf_picture_unref(&pic);
        for (int i = 0; i < FRAMES; i++)
            vmaf_picture_unref(&src[i]);
    }
}

/* ls_input_pack10: frames read at an index come packed (core/pack10.h) with the samples of the
 * plain read, every plane or luma only; the depth check still refuses a sample above 10 bits
 * with the plain read's message; inputs it does not apply to are left alone. */
static void test_pack10(void)
{
    static const struct {
        enum VmafPixelFormat fmt;
        unsigned bpc, w, h;
        bool y4m, packs;
    } cases[] = {
        { VMAF_PIX_FMT_YUV420P, 10, 64, 18, true, true },
        { VMAF_PIX_FMT_YUV444P, 10, 48, 7, false, true },
        /* 4K rows: bands of 8 rows through the 64 KB buffer */
        { VMAF_PIX_FMT_YUV422P, 10, 3840, 20, true, true },
        { VMAF_PIX_FMT_YUV420P, 10, 48, 8, true, false }, /* chroma rows of 24 samples */
        { VMAF_PIX_FMT_YUV420P, 12, 64, 8, true, false },
        { VMAF_PIX_FMT_YUV420P, 8, 64, 8, true, false },
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        enum { FRAMES = 3 };
        char name[64], what[96], err[512], err_plain[512];
        snprintf(name, sizeof(name), "pack10_%u.%s", c, cases[c].y4m ? "y4m" : "yuv");
        snprintf(what, sizeof(what), "pack10 %s %s %u-bit %ux%u", cases[c].y4m ? "Y4M" : "raw",
                 ls_pix_fmt_name(cases[c].fmt), cases[c].bpc, cases[c].w, cases[c].h);
        const char *path = work_path(name);
        const LsVideoInfo info = { .w = cases[c].w, .h = cases[c].h, .bpc = cases[c].bpc,
                                   .fmt = cases[c].fmt };
        const LsRawParams raw = { .w = info.w, .h = info.h, .bpc = info.bpc, .fmt = info.fmt };
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "%s: cannot create %s", what, path);
        if (!f)
            continue;
        if (cases[c].y4m)
            ls_y4m_write_header(f, &info);
        VmafPicture src;
        vmaf_picture_alloc(&src, info.fmt, info.bpc, info.w, info.h);
        for (int i = 0; i < FRAMES; i++) {
            fill_random(&src);
            if (i == FRAMES - 1 && info.bpc == 10) /* the last frame: one Cr sample too high */
                ((uint16_t *)src.data[2])[src.w[2] - 1] = 1024;
            ls_write_frame(f, &src, cases[c].y4m);
        }
        fclose(f);
        vmaf_picture_unref(&src);
        static const unsigned plane_counts[] = { 3, 1 }; /* every plane, then luma only */
        for (unsigned pc = 0; pc < 2; pc++) {
            const unsigned planes = plane_counts[pc];
            LsInput *plain, *in;
            if (ls_input_open(&plain, path, cases[c].y4m ? NULL : &raw, err, sizeof(err)) ||
                ls_input_open(&in, path, cases[c].y4m ? NULL : &raw, err, sizeof(err))) {
                CHECK(0, "%s: open: %s", what, err);
                break;
            }
            ls_input_read_planes(plain, planes);
            ls_input_read_planes(in, planes);
            const bool can = ls_input_can_pack10(in);
            CHECK(can == cases[c].packs, "%s: ls_input_can_pack10 %d", what, can);
            CHECK(ls_input_pack10(in) == cases[c].packs, "%s: ls_input_pack10", what);
            VmafPicture a, b;
            vmaf_picture_alloc(&a, info.fmt, info.bpc, info.w, info.h);
            vmaf_picture_alloc(&b, info.fmt, info.bpc, info.w, info.h);
            for (int i = 0; i < FRAMES; i++) {
                const int ra =
                    ls_input_read_at(plain, (uint64_t)i, &a, err_plain, sizeof(err_plain));
                const int rb = ls_input_read_at(in, (uint64_t)i, &b, err, sizeof(err));
                if (ra != 1) {
                    /* the high sample: both refuse it alike (luma only: not read, no error) */
                    CHECK(ra < 0 && rb == ra && !strcmp(err, err_plain),
                          "%s, %u plane(s): frame %d: %d \"%s\" against %d \"%s\"", what, planes,
                          i, rb, err, ra, err_plain);
                    continue;
                }
                CHECK(rb == 1, "%s, %u plane(s): frame %d: %d %s", what, planes, i, rb, err);
                if (rb != 1)
                    continue;
                const unsigned want = cases[c].packs ? (planes == 3 ? 7u : 1u) : 0u;
                CHECK(ls_picture_packed10(&b) == want && ls_picture_packed10(&a) == 0,
                      "%s, %u plane(s): frame %d: packed planes %#x (plain %#x), want %#x", what,
                      planes, i, ls_picture_packed10(&b), ls_picture_packed10(&a), want);
                CHECK(ls_picture_depth_checked(&b, 0), "%s: frame %d: luma not marked checked",
                      what, i);
                int same = 1;
                for (unsigned p = 0; p < planes && same; p++) {
                    for (unsigned y = 0; y < a.h[p] && same; y++) {
                        const uint16_t *ra16 = (const uint16_t *)(const void *)(
                            (const uint8_t *)a.data[p] + (size_t)y * (size_t)a.stride[p]);
                        if (!want) {
                            same = !memcmp(ra16, (const uint8_t *)b.data[p] +
                                                     (size_t)y * (size_t)b.stride[p],
                                           row_bytes(&a, p));
                            continue;
                        }
                        const uint32_t *row = (const uint32_t *)(const void *)(
                            (const uint8_t *)b.data[p] + (size_t)y * ls_pack10_bytes(a.w[p]));
                        for (unsigned x = 0; x < a.w[p] && same; x++) {
                            unsigned w5[LS_PACK10_GROUP_WORDS];
                            memcpy(w5, row + x / LS_PACK10_GROUP * LS_PACK10_GROUP_WORDS,
                                   sizeof(w5));
                            same = ls_unpack10_sample(w5, x % LS_PACK10_GROUP) == ra16[x];
                        }
                    }
                }
                CHECK(same, "%s, %u plane(s): frame %d: the packed samples differ from the plain "
                      "read", what, planes, i);
            }
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
            ls_input_close(plain);
            ls_input_close(in);
        }
    }
}

/* A sink (core/upload_sink.h) that mirrors one picture's memory in host memory, as the CUDA
 * frame pipeline mirrors its pinned blocks on the device: each band handed out is copied to the
 * mirror at the next call. It can decline a picture, or fail the nth band or the end. */
typedef struct FakeSink {
    LsUploadSink sink;
    const unsigned char *base;
    size_t size;
    unsigned char *mirror;
    unsigned char band[LS_UPLOAD_MAX_BYTES];
    unsigned char *pending;
    size_t pending_n;
    unsigned begins, ends, bands, fail_band, fail_end;
    int outside; /* a band outside the mirrored picture */
} FakeSink;

struct LsUploadWriter {
    FakeSink *fs;
};
static struct LsUploadWriter fake_writer;

static void fake_flush(FakeSink *fs)
{
    if (fs->pending_n) {
        if (fs->pending < fs->base || (size_t)(fs->pending - fs->base) + fs->pending_n > fs->size)
            fs->outside = 1;
        else
            memcpy(fs->mirror + (fs->pending - fs->base), fs->band, fs->pending_n);
    }
    fs->pending_n = 0;
}

static LsUploadWriter *fake_begin(LsUploadSink *sink, const VmafPicture *pic)
{
    FakeSink *fs = (FakeSink *)(void *)sink;
    if ((const unsigned char *)pic->data[0] != fs->base)
        return NULL;
    fs->begins++;
    fake_writer.fs = fs;
    return &fake_writer;
}

static void *fake_buffer(LsUploadWriter *w, void *dst, size_t n)
{
    FakeSink *fs = w->fs;
    fake_flush(fs);
    if (++fs->bands == fs->fail_band || n > sizeof(fs->band)) {
        ls_set_error("fake sink: band %u refused", fs->bands);
        return NULL;
    }
    fs->pending = dst;
    fs->pending_n = n;
    return fs->band;
}

static int fake_end(LsUploadWriter *w)
{
    FakeSink *fs = w->fs;
    fake_flush(fs);
    fs->ends++;
    if (fs->fail_end) {
        ls_set_error("fake sink: the copies failed");
        return -EIO;
    }
    return 0;
}

static size_t picture_span(const VmafPicture *pic)
{
    size_t end = 0;
    for (unsigned p = 0; p < 3 && pic->data[p]; p++) {
        const size_t e = (size_t)((const unsigned char *)pic->data[p] -
                                  (const unsigned char *)pic->data[0]) +
                         (size_t)pic->stride[p] * pic->h[p];
        end = e > end ? e : end;
    }
    return end;
}

/* the packed planes of two pictures read alike */
static int same_packed(const VmafPicture *x, const VmafPicture *y, unsigned planes)
{
    for (unsigned p = 0; p < planes; p++)
        if (memcmp(x->data[p], y->data[p], ls_pack10_bytes(x->w[p]) * x->h[p]))
            return 0;
    return 1;
}

/* ls_input_upload_to: packed frames go through the sink's bands, not into the picture, whose
 * memory is left as it was; the bytes that reach the mirror are the packed picture's, the
 * picture is marked uploaded; a declined picture is written as without a sink; a band or an end
 * that fails is the frame's error, naming the file and the frame, and the writer is ended. */
static void test_upload_sink(void)
{
    static const struct {
        enum VmafPixelFormat fmt;
        unsigned w, h;
    } cases[] = {
        { VMAF_PIX_FMT_YUV420P, 64, 18 },
        { VMAF_PIX_FMT_YUV422P, 3840, 20 }, /* bands of 8 rows */
        { VMAF_PIX_FMT_YUV444P, 1920, 40 },
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        enum { FRAMES = 3 };
        char name[64], what[96], err[512];
        snprintf(name, sizeof(name), "upload_%u.y4m", c);
        snprintf(what, sizeof(what), "upload sink %s %ux%u", ls_pix_fmt_name(cases[c].fmt),
                 cases[c].w, cases[c].h);
        const char *path = work_path(name);
        const LsVideoInfo info = { .w = cases[c].w, .h = cases[c].h, .bpc = 10,
                                   .fmt = cases[c].fmt };
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "%s: cannot create %s", what, path);
        if (!f)
            continue;
        ls_y4m_write_header(f, &info);
        VmafPicture src;
        vmaf_picture_alloc(&src, info.fmt, info.bpc, info.w, info.h);
        for (int i = 0; i < FRAMES; i++) {
            fill_random(&src);
            if (i == FRAMES - 1) /* the last frame: one luma sample too high */
                ((uint16_t *)src.data[0])[3] = 1024;
            ls_write_frame(f, &src, true);
        }
        fclose(f);
        vmaf_picture_unref(&src);
        for (unsigned planes = 1; planes <= 3; planes += 2) {
            LsInput *plain, *in;
            if (ls_input_open(&plain, path, NULL, err, sizeof(err)) ||
                ls_input_open(&in, path, NULL, err, sizeof(err))) {
                CHECK(0, "%s: open: %s", what, err);
                break;
            }
            ls_input_read_planes(plain, planes);
            ls_input_read_planes(in, planes);
            CHECK(ls_input_pack10(plain) && ls_input_pack10(in), "%s: ls_input_pack10", what);
            VmafPicture a, b, other;
            vmaf_picture_alloc(&a, info.fmt, info.bpc, info.w, info.h);
            vmaf_picture_alloc(&b, info.fmt, info.bpc, info.w, info.h);
            vmaf_picture_alloc(&other, info.fmt, info.bpc, info.w, info.h);
            FakeSink *fs = calloc(1, sizeof(*fs));
            fs->sink = (LsUploadSink){ .begin = fake_begin, .buffer = fake_buffer, .end = fake_end };
            fs->base = b.data[0];
            fs->size = picture_span(&b);
            fs->mirror = calloc(1, fs->size);
            unsigned char *before = malloc(fs->size);
            memset(b.data[0], 0xa5, fs->size);
            memcpy(before, b.data[0], fs->size);
            ls_input_upload_to(in, &fs->sink);
            char err_plain[512];
            for (int i = 0; i < FRAMES; i++) {
                const int ra = ls_input_read_at(plain, (uint64_t)i, &a, err_plain, sizeof(err_plain));
                const int rb = ls_input_read_at(in, (uint64_t)i, &b, err, sizeof(err));
                CHECK(fs->begins == fs->ends && fs->begins == (unsigned)i + 1,
                      "%s, %u plane(s): frame %d: %u writers begun, %u ended", what, planes, i,
                      fs->begins, fs->ends);
                if (ra != 1) {
                    CHECK(ra < 0 && rb == ra && !strcmp(err, err_plain) &&
                              ls_picture_uploaded(&b) == NULL,
                          "%s: frame %d: %d \"%s\" against %d \"%s\"", what, i, rb, err, ra,
                          err_plain);
                    continue;
                }
                CHECK(rb == 1 && ls_picture_uploaded(&b) == &fs->sink &&
                          ls_picture_packed10(&b) == (planes == 3 ? 7u : 1u) && !fs->outside,
                      "%s, %u plane(s): frame %d: %d %s, uploaded %d, packed %#x, outside %d",
                      what, planes, i, rb, err, ls_picture_uploaded(&b) == &fs->sink,
                      ls_picture_packed10(&b), fs->outside);
                CHECK(!memcmp(b.data[0], before, fs->size),
                      "%s, %u plane(s): frame %d: the picture's memory was written", what,
                      planes, i);
                int same = 1;
                for (unsigned p = 0; p < planes; p++) {
                    const size_t off = (size_t)((unsigned char *)b.data[p] -
                                                (unsigned char *)b.data[0]);
                    same &= !memcmp(fs->mirror + off, a.data[p], ls_pack10_bytes(a.w[p]) * a.h[p]);
                }
                CHECK(same, "%s, %u plane(s): frame %d: the mirror is not the packed picture",
                      what, planes, i);
            }
            /* a picture the sink declines is written, and not marked */
            int r = ls_input_read_at(in, 0, &other, err, sizeof(err));
            ls_input_read_at(plain, 0, &a, err_plain, sizeof(err_plain));
            CHECK(r == 1 && ls_picture_uploaded(&other) == NULL &&
                      ls_picture_packed10(&other) == (planes == 3 ? 7u : 1u) &&
                      same_packed(&other, &a, planes) && fs->begins == FRAMES,
                  "%s, %u plane(s): a declined picture: %d %s, uploaded %d", what, planes, r,
                  err, ls_picture_uploaded(&other) != NULL);
            /* a band refused, then an end that fails: the frame's error; the writer ended */
            fs->fail_band = fs->bands + 1;
            const unsigned begun = fs->begins;
            r = ls_input_read_at(in, 1, &b, err, sizeof(err));
            CHECK(r < 0 && strstr(err, path) && strstr(err, "frame 1: fake sink: band") &&
                      fs->ends == begun + 1 && ls_picture_uploaded(&b) == NULL,
                  "%s, %u plane(s): a refused band: %d \"%s\", %u ends of %u", what, planes, r,
                  err, fs->ends, begun + 1);
            fs->fail_band = 0;
            fs->fail_end = 1;
            r = ls_input_read_at(in, 1, &b, err, sizeof(err));
            CHECK(r < 0 && strstr(err, path) && strstr(err, "frame 1: fake sink: the copies failed") &&
                      fs->ends == begun + 2 && ls_picture_uploaded(&b) == NULL,
                  "%s, %u plane(s): a failed end: %d \"%s\"", what, planes, r, err);
            fs->fail_end = 0;
            ls_input_upload_to(in, NULL);
            r = ls_input_read_at(in, 1, &b, err, sizeof(err));
            ls_input_read_at(plain, 1, &a, err_plain, sizeof(err_plain));
            CHECK(r == 1 && ls_picture_uploaded(&b) == NULL && fs->ends == begun + 2 &&
                      same_packed(&b, &a, planes),
                  "%s, %u plane(s): without the sink again: %d %s", what, planes, r, err);
            free(before);
            free(fs->mirror);
            free(fs);
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
            vmaf_picture_unref(&other);
            ls_input_close(plain);
            ls_input_close(in);
        }
    }
}

static void test_round_trips(void)
{
    static const enum VmafPixelFormat formats[] = { VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                                    VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const unsigned sizes[][2] = { { 17, 13 }, { 1, 1 }, { 2, 3 }, { 64, 48 }, { 33, 1 } };
    unsigned n = 0;
    for (size_t f = 0; f < 4; f++)
        for (size_t d = 0; d < 4; d++)
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
                for (int y4m = 0; y4m < 2; y4m++, n++)
                    round_trip(formats[f], depths[d], sizes[s][0], sizes[s][1], y4m);
    printf("round trips: %u\n", n);
}

/* ---- stdin and pipes ------------------------------------------------------------------- */

/* Feeds data to our stdin through a pipe from a child process: the non-seekable path. */
static pid_t stdin_from_pipe(const void *data, size_t len)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const uint8_t *d = data;
        while (len) {
            /* small writes: the reader must cope with short pipe reads */
            const size_t chunk = len < 1000 ? len : 1000;
            const ssize_t w = write(fds[1], d, chunk);
            if (w <= 0)
                _exit(1);
            d += w;
            len -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    clearerr(stdin);
    return pid;
}

static void test_stdin(void)
{
    char err[512];
    VmafPicture frames[2], pic;
    for (int i = 0; i < 2; i++) {
        vmaf_picture_alloc(&frames[i], VMAF_PIX_FMT_YUV420P, 10, 17, 13);
        fill_random(&frames[i]);
    }
    vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 17, 13);

    for (int y4m = 0; y4m < 2; y4m++) {
        const char *path = work_path(y4m ? "stdin.y4m" : "stdin.yuv");
        FILE *f = fopen(path, "wb");
        LsVideoInfo info = { .w = 17, .h = 13, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV420P };
        if (y4m)
            ls_y4m_write_header(f, &info);
        ls_write_frame(f, &frames[0], y4m);
        ls_write_frame(f, &frames[1], y4m);
        fclose(f);
        size_t len;
        char *data = read_file(path, &len);
        const pid_t pid = stdin_from_pipe(data, len);
        CHECK(pid > 0, "fork");
        const LsRawParams raw = { .w = 17, .h = 13, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV420P };
        LsInput *in;
        int ret = ls_input_open(&in, "-", y4m ? NULL : &raw, err, sizeof(err));
        CHECK(ret == 0, "stdin %s: open %d %s", y4m ? "y4m" : "raw", ret, err);
        if (!ret) {
            CHECK(ls_input_info(in)->y4m == (bool)y4m, "stdin: kind");
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == 1 && same_picture(&pic, &frames[0]), "stdin frame 0: %d %s", ret, err);
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == 1 && same_picture(&pic, &frames[1]), "stdin frame 1: %d %s", ret, err);
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == 0, "stdin end: %d %s", ret, err);
            ls_input_close(in);
        }
        waitpid(pid, NULL, 0);
        free(data);
    }

    /* a truncated stream through a pipe names <stdin> */
    {
        const char *path = work_path("stdin.yuv");
        size_t len;
        char *data = read_file(path, &len);
        const pid_t pid = stdin_from_pipe(data, len - 7);
        const LsRawParams raw = { .w = 17, .h = 13, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV420P };
        LsInput *in;
        int ret = ls_input_open(&in, "-", &raw, err, sizeof(err));
        CHECK(ret == 0, "stdin truncated: open %d %s", ret, err);
        if (!ret) {
            ls_input_read(in, &pic, err, sizeof(err));
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == -EIO && strstr(err, "<stdin>: truncated frame 1"),
                  "stdin truncated: %d %s", ret, err);
            ls_input_close(in);
        }
        waitpid(pid, NULL, 0);
        free(data);
    }
    for (int i = 0; i < 2; i++)
        vmaf_picture_unref(&frames[i]);
    vmaf_picture_unref(&pic);
    printf("stdin: checked\n");
}

/* ---- bad inputs ------------------------------------------------------------------------ */

typedef struct BadCase {
    const char *name;
    const char *content; /* NULL: content made by the caller */
    size_t len;          /* 0: strlen(content) */
    LsRawParams raw;
    int open_ret;        /* expected from open */
    unsigned good_frames; /* frames read before the failing read, when open succeeds */
    int read_ret;        /* expected from the read after good_frames (0 = clean end) */
    const char *words[3]; /* expected in the message */
} BadCase;

static void run_bad_case(const BadCase *c, const char *path)
{
    char err[512] = "";
    LsInput *in = NULL;
    const LsRawParams *raw =
        (c->raw.w || c->raw.h || c->raw.bpc || c->raw.fmt) ? &c->raw : NULL;
    int ret = ls_input_open(&in, path, raw, err, sizeof(err));
    CHECK(ret == c->open_ret, "%s: open returned %d, expected %d (%s)", c->name, ret, c->open_ret,
          err);
    if (ret == 0 && in) {
        const LsVideoInfo *info = ls_input_info(in);
        VmafPicture pic;
        CHECK(vmaf_picture_alloc(&pic, info->fmt, info->bpc, info->w, info->h) == 0, "alloc");
        for (unsigned i = 0; i < c->good_frames; i++) {
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == 1, "%s: frame %u returned %d (%s)", c->name, i, ret, err);
        }
        ret = ls_input_read(in, &pic, err, sizeof(err));
        CHECK(ret == c->read_ret, "%s: read returned %d, expected %d (%s)", c->name, ret,
              c->read_ret, err);
        if (ret < 0) {
            char again[512] = "";
            const int ret2 = ls_input_read(in, &pic, again, sizeof(again));
            CHECK(ret2 == ret && !strcmp(again, err), "%s: error not sticky: %d (%s)", c->name,
                  ret2, again);
        }
        vmaf_picture_unref(&pic);
        ls_input_close(in);
    }
    if (c->open_ret == 0 && c->read_ret >= 0)
        return;
    CHECK(!strncmp(err, path, strlen(path)) && !strncmp(err + strlen(path), ": ", 2),
          "%s: message does not start with the file name: %s", c->name, err);
    CHECK(!strchr(err, '\n'), "%s: message is not one line: %s", c->name, err);
    for (int i = 0; i < 3 && c->words[i]; i++)
        CHECK(strstr(err, c->words[i]) != NULL, "%s: \"%s\" missing from: %s", c->name,
              c->words[i], err);
    printf("  %-28s -> %s\n", c->name, err);
}

static char *y4m_with_frames(const char *header, unsigned frame_bytes, unsigned frames,
                             const char *tail, size_t tail_len, size_t *len)
{
    const size_t hl = strlen(header);
    *len = hl + (size_t)frames * (6 + frame_bytes) + tail_len;
    char *buf = malloc(*len + 1);
    memcpy(buf, header, hl);
    size_t pos = hl;
    for (unsigned i = 0; i < frames; i++) {
        memcpy(buf + pos, "FRAME\n", 6);
        memset(buf + pos + 6, 0x40 + (int)i, frame_bytes);
        pos += 6 + frame_bytes;
    }
    memcpy(buf + pos, tail, tail_len);
    return buf;
}

static void test_bad_inputs(void)
{
    const LsRawParams none = { 0, 0, 0, VMAF_PIX_FMT_UNKNOWN };
    const LsRawParams raw8x8 = { .w = 8, .h = 8, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P };
    char long_header[6000];
    snprintf(long_header, sizeof(long_header), "YUV4MPEG2 W8 H8 X");
    memset(long_header + strlen(long_header), 'x', 5000);
    long_header[5017] = '\0';
    strcat(long_header, "\n");
    char long_frame[3000];
    snprintf(long_frame, sizeof(long_frame), "YUV4MPEG2 W8 H8 F25:1 C420jpeg\nFRAME X");
    memset(long_frame + strlen(long_frame), 'y', 2000);
    long_frame[2038] = '\0';

    const BadCase cases[] = {
        { "random bytes, no raw size", "\x01\x02\x03\x04garbage garbage", 0, none, -EINVAL, 0, 0,
          { "not a Y4M file", "YUV4MPEG2", "-w -h -p -b" } },
        { "corrupt signature", "YUV4MPEX W8 H8 F25:1\n", 0, none, -EINVAL, 0, 0,
          { "corrupt Y4M signature", "YUV4MPEX" } },
        { "wrong version", "YUV4MPEG3 W8 H8 F25:1\n", 0, none, -EINVAL, 0, 0,
          { "corrupt Y4M signature", "YUV4MPEG3" } },
        { "empty, no raw size", "", 0, none, -EINVAL, 0, 0, { "empty", "-w -h -p -b" } },
        { "empty raw", "", 0, raw8x8, 0, 0, 0, { NULL } },
        { "raw size incomplete", "abcdefgh", 0, { .w = 8, .h = 8 }, -EINVAL, 0, 0,
          { "missing or zero: -p -b" } },
        { "missing width", "YUV4MPEG2 H8 F25:1 C420jpeg\n", 0, none, -EINVAL, 0, 0,
          { "missing width" } },
        { "missing height", "YUV4MPEG2 W8 F25:1 C420jpeg\n", 0, none, -EINVAL, 0, 0,
          { "missing height" } },
        { "no tags at all", "YUV4MPEG2\n", 0, none, -EINVAL, 0, 0, { "missing width" } },
        { "zero width", "YUV4MPEG2 W0 H8 F25:1\n", 0, none, -EINVAL, 0, 0, { "zero width" } },
        { "zero height", "YUV4MPEG2 W8 H0 F25:1\n", 0, none, -EINVAL, 0, 0, { "zero height" } },
        { "absurd width", "YUV4MPEG2 W99999999 H8 F25:1\n", 0, none, -EINVAL, 0, 0,
          { "absurd width", "99999999" } },
        { "overflowing width", "YUV4MPEG2 W184467440737095516160 H8 F25:1\n", 0, none, -EINVAL,
          0, 0, { "absurd width" } },
        { "non-numeric width", "YUV4MPEG2 Wabc H8 F25:1\n", 0, none, -EINVAL, 0, 0,
          { "bad width tag", "Wabc" } },
        { "negative height", "YUV4MPEG2 W8 H-8 F25:1\n", 0, none, -EINVAL, 0, 0,
          { "bad height tag", "H-8" } },
        { "frame too large", "YUV4MPEG2 W32768 H32768 F25:1 C444p16\n", 0, none, -EINVAL, 0, 0,
          { "over the limit", "32768x32768" } },
        { "unknown chroma", "YUV4MPEG2 W8 H8 F25:1 Cfoo\n", 0, none, -EINVAL, 0, 0,
          { "unknown Y4M chroma type", "foo" } },
        { "chroma with alpha", "YUV4MPEG2 W8 H8 F25:1 C444alpha\n", 0, none, -EINVAL, 0, 0,
          { "unknown Y4M chroma type", "444alpha" } },
        { "chroma depth 17", "YUV4MPEG2 W8 H8 F25:1 C420p17\n", 0, none, -EINVAL, 0, 0,
          { "unknown Y4M chroma type" } },
        { "bad frame rate", "YUV4MPEG2 W8 H8 Fabc C420\n", 0, none, -EINVAL, 0, 0,
          { "bad frame rate", "Fabc" } },
        { "interlaced", "YUV4MPEG2 W8 H8 F25:1 It C420\n", 0, none, -ENOTSUP, 0, 0,
          { "interlaced", "It" } },
        { "mixed interlacing", "YUV4MPEG2 W8 H8 F25:1 Im C420\n", 0, none, -ENOTSUP, 0, 0,
          { "interlaced" } },
        { "bad interlacing", "YUV4MPEG2 W8 H8 F25:1 Iz C420\n", 0, none, -EINVAL, 0, 0,
          { "bad interlacing", "Iz" } },
        { "header too long", long_header, 0, none, -EINVAL, 0, 0, { "too long", "newline" } },
        { "header without newline", "YUV4MPEG2 W8 H8 F25:1 C420jpeg", 0, none, -EINVAL, 0, 0,
          { "without a newline" } },
        { "magic only", "YUV4MPEG", 0, none, -EINVAL, 0, 0, { "without a newline" } },
        { "raw contradicts header", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\n", 0,
          { .w = 16, .h = 16, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P }, -EINVAL, 0, 0,
          { "8x8 420 8-bit", "-w 16 -h 16 -p 420 -b 8" } },
        { "raw depth contradicts header", "YUV4MPEG2 W8 H8 F25:1 C420p10\n", 0,
          { .w = 8, .h = 8, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P }, -EINVAL, 0, 0,
          { "10-bit", "C420p10" } },
        { "CRLF header", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\r\n", 0, none, 0, 0, 0, { NULL } },
        { "NUL inside the header", "YUV4MPEG2 W8 H8\0junk C420\n", 27, none, -EINVAL, 0, 0,
          { "bad height tag", "H8?junk" } },
        { "many spaces, A and X tags", "YUV4MPEG2   W8  H8 A1:1 XFOO=bar F30000:1001  C420mpeg2 \n",
          0, none, 0, 0, 0, { NULL } },
        { "raw agrees with header", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\n", 0, raw8x8, 0, 0, 0,
          { NULL } },
        { "raw zero width", "0123456789", 0,
          { .w = 0, .h = 8, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P }, -EINVAL, 0, 0,
          { "missing or zero: -w" } },
        { "raw depth 17", "0123456789", 0,
          { .w = 8, .h = 8, .bpc = 17, .fmt = VMAF_PIX_FMT_YUV420P }, -EINVAL, 0, 0,
          { "unsupported bit depth 17" } },
        { "frame params too long", long_frame, 0, none, 0, 0, -EIO, { "too long", "frame 0" } },
        { "truncated in FRAME", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\nFRA", 0, none, 0, 0, -EIO,
          { "truncated frame 0" } },
        { "FRAME without newline", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\nFRAME", 0, none, 0, 0, -EIO,
          { "truncated frame 0", "without a newline" } },
        { "lost FRAME marker", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\nFRAMX\n", 0, none, 0, 0, -EIO,
          { "lost FRAME marker", "frame 0", "FRAMX" } },
        { "FRAME glued to a word", "YUV4MPEG2 W8 H8 F25:1 C420jpeg\nFRAMES\n", 0, none, 0, 0,
          -EIO, { "lost FRAME marker", "FRAMES" } },
    };
    printf("bad inputs:\n");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char name[64];
        snprintf(name, sizeof(name), "bad_%02zu", i);
        const char *path = work_path(name);
        const BadCase *c = &cases[i];
        write_file(path, c->content, c->len ? c->len : strlen(c->content));
        run_bad_case(c, path);
    }

    /* frame level: 8x8 4:2:0 8-bit frames are 96 bytes */
    const char *hdr =
        "YUV4MPEG2 W8 H8 F25:1 Ip A0:0 C420jpeg XYSCSS=420JPEG  XCOLORRANGE=LIMITED\n";
    char half_frame[64] = "FRAME\n", params_frame[128] = "FRAME Ip XFOO=1\n";
    memset(half_frame + 6, 'h', 50);
    memset(params_frame + strlen(params_frame), 'p', 96);
    const struct {
        BadCase c;
        unsigned frames;
        const char *tail;
    } frame_cases[] = {
        { { "truncated last frame", NULL, 0, none, 0, 2, -EIO,
            { "truncated frame 2: got 50 of 96 bytes" } }, 2, half_frame },
        { { "lost marker after frame 1", NULL, 0, none, 0, 1, -EIO,
            { "lost FRAME marker at frame 1", "PAYLO" } }, 1, "PAYLOAD" },
        { { "frame with parameters", NULL, 0, none, 0, 1, 0, { NULL } }, 0, params_frame },
        { { "clean end after 3", NULL, 0, none, 0, 3, 0, { NULL } }, 3, "" },
    };
    for (size_t i = 0; i < sizeof(frame_cases) / sizeof(frame_cases[0]); i++) {
        size_t len;
        char *buf = y4m_with_frames(hdr, 96, frame_cases[i].frames, frame_cases[i].tail,
                                    strlen(frame_cases[i].tail), &len);
        char name[64];
        snprintf(name, sizeof(name), "bad_frame_%02zu.y4m", i);
        const char *path = work_path(name);
        write_file(path, buf, len);
        free(buf);
        run_bad_case(&frame_cases[i].c, path);
    }

    /* raw: one and a half 4:2:2 10-bit 8x8 frames (256 bytes each): refused at open with the
     * layouts that divide the file, the given size first (a pipe still meets it at the read) */
    {
        char data[384];
        memset(data, 7, sizeof(data));
        const char *path = work_path("bad_raw_truncated.yuv");
        write_file(path, data, sizeof(data));
        const BadCase c = { "raw truncated", NULL, 0,
                            { .w = 8, .h = 8, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV422P }, -EINVAL, 0, 0,
                            { "384 bytes is not a whole number of 8x8 422 10-bit frames (256 bytes "
                              "each: 1 frame and 128 bytes left over)",
                              "these would fit: -w 8 -h 8 -p 420 -b 8 (4 frames), -w 8 -h 8 -p 420 "
                              "-b 10/12/16 (2 frames), -w 8 -h 8 -p 422 -b 8 (3 frames)" } };
        run_bad_case(&c, path);
    }
    /* two 1920x1080 4:2:0 8-bit frames read as 4:2:2 */
    {
        const size_t len = 2 * 3110400;
        char *data = calloc(1, len);
        const char *path = work_path("bad_raw_size.yuv");
        write_file(path, data, len);
        free(data);
        const BadCase c = { "4:2:0 read as 4:2:2", NULL, 0,
                            { .w = 1920, .h = 1080, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV422P }, -EINVAL,
                            0, 0, { "these would fit: -w 1920 -h 1080 -p 420 -b 8 (2 frames), -w 1920 "
                                    "-h 1080 -p 420 -b 10/12/16 (1 frame), -w 1920 -h 1080 -p 444 "
                                    "-b 8 (1 frame)" } };
        run_bad_case(&c, path);
    }

    /* compressed video: decoded by a build with FFmpeg's libraries (these broken ones refused
     * with what the libraries said), else refused with the way to decode it; by its first bytes
     * whatever the raw parameters, by a container extension when no raw parameters are given */
    {
        char versions[128];
        const bool decodes = ls_input_decodes_containers(versions, sizeof(versions));
        static const struct {
            const char *file, *content;
            size_t len;
            int raw;
            const char *kind;
        } containers[] = {
            { "c.mp4", "\0\0\0\x20" "ftypisom----", 16, 1, "an MP4/MOV container" },
            { "c.bin", "\x1a\x45\xdf\xa3" "webm-----", 13, 1, "a Matroska/WebM container" },
            { "c.avi", "RIFF----AVI ", 12, 0, "a RIFF (AVI) container" },
            { "c.ivf", "DKIF----", 8, 0, "an IVF (VP8/VP9/AV1) stream" },
            { "c.MKV", "not a real header", 17, 0, "a .MKV file" },
        };
        for (size_t i = 0; i < sizeof(containers) / sizeof(containers[0]); i++) {
            const char *path = work_path(containers[i].file);
            write_file(path, containers[i].content, containers[i].len);
            char err[512], decode[1100];
            LsInput *in = NULL;
            const int ret = ls_input_open(&in, path, containers[i].raw ? &raw8x8 : NULL, err,
                                          sizeof(err));
            snprintf(decode, sizeof(decode), "(compressed video), not Y4M or raw YUV: decode it "
                     "first, e.g. ffmpeg -i %s -f yuv4mpegpipe -strict -1 - | lockstep -r ref.y4m "
                     "-d -", path);
            if (decodes)
                snprintf(decode, sizeof(decode), "%s: FFmpeg's libraries cannot read it: Invalid "
                         "data found when processing input", path);
            CHECK(ret == -EINVAL && (decodes || strstr(err, containers[i].kind)) &&
                      strstr(err, decode),
                  "container %s: %d %s", containers[i].file, ret, err);
            printf("  %-28s -> %s\n", containers[i].file, err);
        }
        /* a raw file under a container's name is the user's call once -w -h -p -b are given */
        char frame[96] = { 0 };
        const char *path = work_path("raw.mkv");
        write_file(path, frame, sizeof(frame));
        char err[512];
        LsInput *in = NULL;
        CHECK(ls_input_open(&in, path, &raw8x8, err, sizeof(err)) == 0, "raw.mkv with -w -h -p -b: %s",
              err);
        ls_input_close(in);
    }

    /* samples above the declared depth fail the frame: an 8-bit file read as 10-bit (each pair of
     * samples one word), sequentially (sticky) and at an index; a Y4M word above 12 bits; the
     * largest value of the depth reads */
    {
        char data[192];
        memset(data, 0x80, sizeof(data));
        const char *path = work_path("eight_as_ten.yuv");
        write_file(path, data, sizeof(data));
        const BadCase c = { "8-bit read as 10-bit", NULL, 0,
                            { .w = 8, .h = 8, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV420P }, 0, 0, -EINVAL,
                            { "frame 0: luma sample 32896 at (0, 0) is above the 10-bit maximum "
                              "1023: is the file 8-bit (two samples read as one 16-bit word)? check -b" } };
        run_bad_case(&c, path);
        char err[512];
        LsInput *in;
        VmafPicture pic;
        vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 8, 8);
        if (!ls_input_open(&in, path, &c.raw, err, sizeof(err))) {
            const int ret = ls_input_read_at(in, 0, &pic, err, sizeof(err));
            CHECK(ret == -EINVAL && strstr(err, "frame 0: luma sample 32896"), "8-bit as 10-bit "
                  "at an index: %d %s", ret, err);
            ls_input_close(in);
        }
        vmaf_picture_unref(&pic);

        VmafPicture src;
        vmaf_picture_alloc(&src, VMAF_PIX_FMT_YUV420P, 12, 7, 7);
        for (unsigned p = 0; p < 3; p++)
            for (unsigned y = 0; y < src.h[p]; y++)
                for (unsigned x = 0; x < src.w[p]; x++)
                    ((uint16_t *)((uint8_t *)src.data[p] + y * src.stride[p]))[x] = 4095;
        LsVideoInfo info = { .w = 7, .h = 7, .bpc = 12, .fmt = VMAF_PIX_FMT_YUV420P };
        const char *y4m = work_path("over12.y4m");
        FILE *f = fopen(y4m, "wb");
        ls_y4m_write_header(f, &info);
        ls_write_frame(f, &src, true);
        ((uint16_t *)((uint8_t *)src.data[2] + 3 * src.stride[2]))[2] = 4096;
        ls_write_frame(f, &src, true);
        fclose(f);
        vmaf_picture_unref(&src);
        const BadCase c12 = { "12-bit Y4M word above 4095", NULL, 0, none, 0, 1, -EINVAL,
                              { "frame 1: Cr sample 4096 at (2, 3) is above the 12-bit maximum "
                                "4095: the Y4M header says C420p12" } };
        run_bad_case(&c12, y4m);
    }

    /* system errors */
    {
        char err[512];
        LsInput *in;
        const char *missing = work_path("does-not-exist.y4m");
        int ret = ls_input_open(&in, missing, NULL, err, sizeof(err));
        CHECK(ret == -ENOENT && strstr(err, missing) && strstr(err, strerror(ENOENT)),
              "missing file: %d %s", ret, err);
        printf("  %-28s -> %s\n", "missing file", err);
        ret = ls_input_open(&in, work_dir, NULL, err, sizeof(err));
        CHECK(ret == -EISDIR && strstr(err, work_dir) && strstr(err, strerror(EISDIR)),
              "directory: %d %s", ret, err);
        printf("  %-28s -> %s\n", "directory", err);
        if (geteuid() != 0) {
            const char *locked = work_path("locked.y4m");
            write_file(locked, "YUV4MPEG2 W8 H8\n", 16);
            chmod(locked, 0);
            ret = ls_input_open(&in, locked, NULL, err, sizeof(err));
            CHECK(ret == -EACCES && strstr(err, strerror(EACCES)), "unreadable: %d %s", ret, err);
            printf("  %-28s -> %s\n", "unreadable file", err);
        }
    }

    /* a picture of the wrong geometry */
    {
        char err[512];
        LsInput *in;
        const char *path = work_path("geometry.y4m");
        size_t len;
        char *buf = y4m_with_frames("YUV4MPEG2 W8 H8 F25:1\n", 96, 1, "", 0, &len);
        write_file(path, buf, len);
        free(buf);
        VmafPicture pic;
        vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 16, 8);
        int ret = ls_input_open(&in, path, NULL, err, sizeof(err));
        CHECK(ret == 0, "geometry: open %d", ret);
        if (!ret) {
            ret = ls_input_read(in, &pic, err, sizeof(err));
            CHECK(ret == -EINVAL && strstr(err, "geometry"), "geometry: %d %s", ret, err);
            ls_input_close(in);
        }
        vmaf_picture_unref(&pic);
    }
}

/* Random damage to a small valid file: every outcome is fine except a crash or a hang. */
static void test_mutations(void)
{
    VmafPicture src;
    vmaf_picture_alloc(&src, VMAF_PIX_FMT_YUV420P, 10, 7, 5);
    fill_random(&src);
    const char *good = work_path("mutate_src.y4m");
    FILE *f = fopen(good, "wb");
    LsVideoInfo info = { .w = 7, .h = 5, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV420P };
    ls_y4m_write_header(f, &info);
    for (int i = 0; i < 3; i++)
        ls_write_frame(f, &src, true);
    fclose(f);
    vmaf_picture_unref(&src);

    size_t len;
    char *orig = read_file(good, &len);
    const char *path = work_path("mutated.y4m");
    unsigned opened = 0, frames = 0, iterations = 3000;
    for (unsigned it = 0; it < iterations; it++) {
        char *buf = malloc(len);
        memcpy(buf, orig, len);
        size_t n = len;
        const unsigned edits = 1 + rnd() % 4;
        for (unsigned e = 0; e < edits; e++) {
            /* mostly in the header and the first FRAME line, where parsing happens */
            const size_t pos = rnd() % 4 ? rnd() % 60 : rnd() % n;
            switch (rnd() % 4) {
            case 0: buf[pos] = (char)rnd(); break;
            case 1: buf[pos] = "0123456789 \nWHCFIAX:p-"[rnd() % 22]; break;
            case 2: n = pos; break; /* truncate */
            default: buf[pos] ^= (char)(1 << (rnd() % 8)); break;
            }
            if (!n)
                break;
        }
        write_file(path, buf, n);
        free(buf);
        char err[512];
        LsInput *in;
        if (ls_input_open(&in, path, NULL, err, sizeof(err)) == 0) {
            opened++;
            const LsVideoInfo *vi = ls_input_info(in);
            VmafPicture pic;
            if (vi->frame_bytes < (1u << 24) &&
                vmaf_picture_alloc(&pic, vi->fmt, vi->bpc, vi->w, vi->h) == 0) {
                int ret;
                unsigned count = 0;
                while ((ret = ls_input_read(in, &pic, err, sizeof(err))) == 1 && count < 10)
                    count++;
                frames += count;
                CHECK(ret <= 1, "mutation %u: read returned %d", it, ret);
                vmaf_picture_unref(&pic);
            }
            ls_input_close(in);
        } else {
            CHECK(err[0] && !strchr(err, '\n'), "mutation %u: bad message \"%s\"", it, err);
        }
    }
    free(orig);
    printf("mutations: %u files, %u opened, %u frames read\n", iterations, opened, frames);
}

/* ---- the generator --------------------------------------------------------------------- */

static int run(const char *cmd)
{
    const int st = system(cmd);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int files_equal(const char *a, const char *b)
{
    size_t la, lb;
    char *da = read_file(a, &la), *db = read_file(b, &lb);
    const int eq = da && db && la == lb && !memcmp(da, db, la);
    free(da);
    free(db);
    return eq;
}

static double luma_psnr_8bit(const char *ref, const char *dis, unsigned *frames)
{
    char err[512];
    LsInput *a, *b;
    *frames = 0;
    if (ls_input_open(&a, ref, NULL, err, sizeof(err)) ||
        ls_input_open(&b, dis, NULL, err, sizeof(err)))
        return -1;
    const LsVideoInfo info = *ls_input_info(a), *vi = &info;
    VmafPicture pa, pb;
    vmaf_picture_alloc(&pa, vi->fmt, vi->bpc, vi->w, vi->h);
    vmaf_picture_alloc(&pb, vi->fmt, vi->bpc, vi->w, vi->h);
    double sse = 0;
    while (ls_input_read(a, &pa, err, sizeof(err)) == 1 &&
           ls_input_read(b, &pb, err, sizeof(err)) == 1) {
        for (unsigned y = 0; y < vi->h; y++)
            for (unsigned x = 0; x < vi->w; x++) {
                const int d = ((uint8_t *)pa.data[0])[y * pa.stride[0] + x] -
                              ((uint8_t *)pb.data[0])[y * pb.stride[0] + x];
                sse += d * d;
            }
        (*frames)++;
    }
    vmaf_picture_unref(&pa);
    vmaf_picture_unref(&pb);
    ls_input_close(a);
    ls_input_close(b);
    return 10 * log10(255.0 * 255.0 * vi->w * vi->h * *frames / sse);
}

static void test_generator(const char *gen)
{
    static const struct {
        const char *args;
        unsigned w, h, bpc, frames;
        enum VmafPixelFormat fmt;
    } runs[] = {
        { "-w 576 -h 324 -p 420 -b 8 -n 4", 576, 324, 8, 4, VMAF_PIX_FMT_YUV420P },
        { "-w 17 -h 13 -p 420 -b 10 -n 3 --seed 7", 17, 13, 10, 3, VMAF_PIX_FMT_YUV420P },
        { "-w 1 -h 1 -p 400 -b 16 -n 2", 1, 1, 16, 2, VMAF_PIX_FMT_YUV400P },
        { "-w 64 -h 36 -p 422 -b 12 -n 2", 64, 36, 12, 2, VMAF_PIX_FMT_YUV422P },
        { "-w 33 -h 20 -p 444 -b 9 -n 2", 33, 20, 9, 2, VMAF_PIX_FMT_YUV444P },
    };
    char cmd[2048], err[512];
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        const char *ref = work_path("gen_ref.y4m"), *dis = work_path("gen_dis.y4m");
        const char *ref2 = work_path("gen_ref2.y4m"), *dis2 = work_path("gen_dis2.y4m");
        const char *rref = work_path("gen_ref.yuv"), *rdis = work_path("gen_dis.yuv");
        snprintf(cmd, sizeof(cmd), "'%s' %s '%s' '%s'", gen, runs[i].args, ref, dis);
        CHECK(run(cmd) == 0, "%s failed", cmd);
        snprintf(cmd, sizeof(cmd), "'%s' %s '%s' '%s'", gen, runs[i].args, ref2, dis2);
        CHECK(run(cmd) == 0, "%s failed", cmd);
        CHECK(files_equal(ref, ref2) && files_equal(dis, dis2), "%s: not deterministic",
              runs[i].args);
        CHECK(!files_equal(ref, dis), "%s: distorted equals reference", runs[i].args);
        snprintf(cmd, sizeof(cmd), "'%s' %s --raw '%s' '%s'", gen, runs[i].args, rref, rdis);
        CHECK(run(cmd) == 0, "%s failed", cmd);

        const char *paths[2] = { ref, dis };
        for (int k = 0; k < 2; k++) {
            LsInput *y, *r;
            const LsRawParams raw = { runs[i].w, runs[i].h, runs[i].bpc, runs[i].fmt };
            int ret = ls_input_open(&y, paths[k], NULL, err, sizeof(err));
            CHECK(ret == 0, "%s: %s", runs[i].args, err);
            ret |= ls_input_open(&r, k ? rdis : rref, &raw, err, sizeof(err));
            CHECK(ret == 0, "%s: %s", runs[i].args, err);
            if (ret)
                continue;
            const LsVideoInfo *vi = ls_input_info(y);
            CHECK(vi->w == runs[i].w && vi->h == runs[i].h && vi->bpc == runs[i].bpc &&
                      vi->fmt == runs[i].fmt,
                  "%s: header %ux%u %u-bit", runs[i].args, vi->w, vi->h, vi->bpc);
            VmafPicture a, b;
            vmaf_picture_alloc(&a, vi->fmt, vi->bpc, vi->w, vi->h);
            vmaf_picture_alloc(&b, vi->fmt, vi->bpc, vi->w, vi->h);
            unsigned n = 0;
            int ra, rb;
            uint64_t prev = 0, moving = 0;
            while ((ra = ls_input_read(y, &a, err, sizeof(err))) == 1 &&
                   (rb = ls_input_read(r, &b, err, sizeof(err))) == 1) {
                CHECK(same_picture(&a, &b), "%s: raw and Y4M payloads differ", runs[i].args);
                const uint64_t hash = hash_picture(1, &a);
                moving += n && hash != prev;
                prev = hash;
                n++;
            }
            CHECK(ra == 0 && n == runs[i].frames, "%s: %u frames (%d)", runs[i].args, n, ra);
            /* a single sample may sit at a clipped extreme */
            CHECK(runs[i].w * runs[i].h < 16 || moving == n - 1, "%s: frames do not change",
                  runs[i].args);
            vmaf_picture_unref(&a);
            vmaf_picture_unref(&b);
            ls_input_close(y);
            ls_input_close(r);
        }
        if (i == 0) {
            unsigned frames;
            const double psnr = luma_psnr_8bit(ref, dis, &frames);
            printf("generator %s: luma PSNR %.2f dB over %u frames\n", runs[i].args, psnr,
                   frames);
            CHECK(psnr > 30 && psnr < 42, "generator PSNR %.2f outside 30..42 dB", psnr);
        }
    }
    snprintf(cmd, sizeof(cmd), "'%s' -w 16 -h 16 -n 1 --seed 2 '%s' '%s'", gen,
             work_path("seed2_ref.y4m"), work_path("seed2_dis.y4m"));
    CHECK(run(cmd) == 0, "%s", cmd);
    snprintf(cmd, sizeof(cmd), "'%s' -w 16 -h 16 -n 1 --seed 3 '%s' '%s'", gen,
             work_path("seed3_ref.y4m"), work_path("seed3_dis.y4m"));
    CHECK(run(cmd) == 0, "%s", cmd);
    CHECK(!files_equal(work_path("seed2_ref.y4m"), work_path("seed3_ref.y4m")),
          "seeds 2 and 3 give the same reference");
    snprintf(cmd, sizeof(cmd), "'%s' -w 0 -h 16 a b 2>/dev/null", gen);
    CHECK(run(cmd) == 1, "width 0 accepted");
    snprintf(cmd, sizeof(cmd), "'%s' -p 411 a b 2>/dev/null", gen);
    CHECK(run(cmd) == 1, "-p 411 accepted");
    snprintf(cmd, sizeof(cmd), "'%s' -b 7 a b 2>/dev/null", gen);
    CHECK(run(cmd) == 1, "-b 7 accepted");
}

int main(int argc, char **argv)
{
    const char *manifest = NULL, *fixtures = NULL, *gen = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--manifest"))
            manifest = argv[i + 1];
        else if (!strcmp(argv[i], "--fixtures"))
            fixtures = argv[i + 1];
        else if (!strcmp(argv[i], "--work"))
            work_dir = argv[i + 1];
        else if (!strcmp(argv[i], "--gen"))
            gen = argv[i + 1];
    }
    if (!work_dir) {
        fprintf(stderr, "usage: %s [--manifest M --fixtures DIR | --gen PATH] --work DIR\n",
                argv[0]);
        return 2;
    }
    mkdir(work_dir, 0777);

    if (gen) {
        test_generator(gen);
    } else {
        if (manifest && fixtures)
            test_fixtures(manifest, fixtures);
        test_round_trips();
        test_luma_only();
        test_pack10();
        test_upload_sink();
        test_stdin();
        test_bad_inputs();
        test_mutations();
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
