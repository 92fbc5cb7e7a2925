/* Feature options: a --feature NAME=opt=val:... argument parsed by the CLI, applied by the
 * library to the extractor's option table, and the extractor run on two frames (options are
 * checked against the frame at init). The first byte picks the frames: size (bits 0-2), pixel
 * format (3-4), depth (5-6), plain C paths (7); the argument is the rest. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "fuzz.h"

/* small frames keep the runs fast; 216x216 reaches the minimum sizes of cambi and speed_chroma */
static const unsigned sizes[][2] = { { 9, 7 }, { 16, 16 }, { 33, 21 }, { 64, 64 }, { 96, 80 },
                                     { 216, 216 } };
static const enum VmafPixelFormat formats[] = { VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                                VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P };
static const unsigned depths[] = { 8, 10, 12, 16 };

static int cpu_extractor(const char *name)
{
    enum LockstepBackend b;
    const char *n;
    for (unsigned i = 0; (n = lockstep_extractor_name(i, &b)); i++)
        if (b == LOCKSTEP_BACKEND_CPU && !strcmp(n, name))
            return 1;
    return 0;
}

/* A smooth gradient with texture, the distorted frame a little off: every extractor has work. */
static int make_picture(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                        unsigned h, unsigned frame, int distorted)
{
    if (vmaf_picture_alloc(pic, fmt, bpc, w, h))
        return -1;
    const unsigned max = (1u << bpc) - 1;
    for (unsigned p = 0; p < 3 && pic->data[p]; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            for (unsigned x = 0; x < pic->w[p]; x++) {
                unsigned v = (x * 7 + y * 13 + frame * 5 + p * 40) * (max / 255) +
                             ((x * y) % 17) * (max / 255);
                if (distorted)
                    v += ((x + y + frame) % 5) * (max / 255);
                v %= max + 1;
                if (bpc > 8)
                    ((uint16_t *)((uint8_t *)pic->data[p] + y * pic->stride[p]))[x] = (uint16_t)v;
                else
                    ((uint8_t *)pic->data[p] + y * pic->stride[p])[x] = (uint8_t)v;
            }
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const unsigned w = sizes[(data[0] & 7) % 6][0], h = sizes[(data[0] & 7) % 6][1];
    const enum VmafPixelFormat fmt = formats[(data[0] >> 3) & 3];
    const unsigned bpc = depths[(data[0] >> 5) & 3];
    char *arg = fuzz_string(data + 1, size - 1);
    char *argv[] = { "lockstep", "-r", "ref.y4m", "-d", "dis.y4m", "-n", "--feature", arg, NULL };
    optind = 0; /* glibc: getopt starts afresh */
    CliSettings *s = malloc(sizeof(*s));
    VmafContext *ctx = NULL;
    const VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE,
                                    .cpumask = data[0] & 0x80 ? 255 : 0 };
    VmafFeatureDictionary *d;
    char err[1400];
    if (!s || cli_parse(8, argv, s, false, err, sizeof(err)) != CLI_PARSE_OK ||
        !cpu_extractor(s->feature[0].name) ||
        cli_feature_options(&s->feature[0], &d) || vmaf_init(&ctx, cfg))
        goto out;
    if (vmaf_use_feature(ctx, s->feature[0].name, d))
        goto out;
    for (unsigned i = 0; i < 2; i++) {
        VmafPicture ref, dist;
        if (make_picture(&ref, fmt, bpc, w, h, i, 0))
            goto out;
        if (make_picture(&dist, fmt, bpc, w, h, i, 1)) {
            vmaf_picture_unref(&ref);
            goto out;
        }
        if (vmaf_read_pictures(ctx, &ref, &dist, i)) { /* pictures stay the caller's */
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            goto out;
        }
    }
    vmaf_read_pictures(ctx, NULL, NULL, 0);
out:
    vmaf_close(ctx);
    free(s);
    free(arg);
    return 0;
}
