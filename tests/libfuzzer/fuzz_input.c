/* Reading a fuzzed file the ways the CLI and the bench do (fuzz_y4m, fuzz_yuv). */
#include <stdint.h>
#include <unistd.h>

#include "fuzz.h"

/* The harness's own bound, not the reader's (1 GiB): frames this large are opened, not read. */
#define MAX_READ_BYTES ((size_t)1 << 22)

static void read_all(const char *path, const LsRawParams *raw, int luma_after_first, int skip)
{
    char err[512];
    LsInput *in;
    if (ls_input_open(&in, path, raw, err, sizeof(err)))
        return;
    const LsVideoInfo *info = ls_input_info(in);
    VmafPicture pic;
    if (info->frame_bytes <= MAX_READ_BYTES &&
        !vmaf_picture_alloc(&pic, info->fmt, info->bpc, info->w, info->h)) {
        if (skip)
            ls_input_skip(in, err, sizeof(err));
        for (unsigned n = 0; ls_input_read(in, &pic, err, sizeof(err)) > 0; n++)
            if (n == 0 && luma_after_first)
                ls_input_read_planes(in, 1);
        /* after the end or an error the input keeps answering the same */
        ls_input_read(in, &pic, err, sizeof(err));
        if (ls_input_can_read_at(in)) {
            for (uint64_t f = 0; ls_input_read_at(in, f, &pic, err, sizeof(err)) > 0; f++)
                ;
            ls_input_read_at(in, UINT64_MAX / 2, &pic, err, sizeof(err));
        }
        vmaf_picture_unref(&pic);
        /* the frames as the CLI borrows them from the mapped file (a sample read from each
         * borrowed plane: the pictures must be readable to their ends) */
        if (ls_input_map(in)) {
            VmafPicture b;
            for (uint64_t f = 0; ls_input_borrow_at(in, f, &b, err, sizeof(err)) > 0; f++) {
                volatile uint8_t sink = 0;
                for (unsigned p = 0; p < 3 && b.data[p]; p++)
                    sink ^= ((const uint8_t *)b.data[p])[(size_t)b.stride[p] * (b.h[p] - 1) +
                                                        (size_t)b.w[p] * (b.bpc > 8 ? 2 : 1) - 1];
                (void)sink;
                vmaf_picture_unref(&b);
            }
            if (ls_input_borrow_at(in, UINT64_MAX / 2, &b, err, sizeof(err)) > 0)
                vmaf_picture_unref(&b);
        }
    }
    ls_input_close(in);
}

void fuzz_read_input(const uint8_t *data, size_t size, const LsRawParams *raw, unsigned mode)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    read_all(path, raw, mode & 1, (mode >> 1) & 1);
    close(fd);
}

