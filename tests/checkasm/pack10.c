/* The 10-bit packed form of GPU uploads (core/pack10.h): each packer against the format's
 * definition (ls_unpack10_sample, which the device's unpacking uses), the OR that refuses samples
 * above 10 bits, and the frame packer's threads on a 4K frame pair's layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "core/cpu.h"
#include "core/frame_pack.h"
#include "core/pack10.h"
#include "lockstep/picture.h"

/* whether the n packed samples at p unpack to src */
static bool unpacks_to(const uint32_t *p, const uint16_t *src, size_t n, size_t *bad)
{
    for (size_t g = 0; g < n / LS_PACK10_GROUP; g++) {
        unsigned w[LS_PACK10_GROUP_WORDS];
        for (unsigned k = 0; k < LS_PACK10_GROUP_WORDS; k++)
            w[k] = p[g * LS_PACK10_GROUP_WORDS + k];
        for (unsigned i = 0; i < LS_PACK10_GROUP; i++)
            if (ls_unpack10_sample(w, i) != src[g * LS_PACK10_GROUP + i]) {
                *bad = g * LS_PACK10_GROUP + i;
                return false;
            }
    }
    return true;
}

/* the packers, alone and through the streaming stores */
static const struct {
    const char *name;
    LsPack10RowFn fn;
    bool stream; /* through ls_pack10_row_stream */
    uint64_t flags;
} v[] = { { "c", ls_pack10_row_c, false, 0 },
          { "avx2", ls_pack10_row_avx2, false, LS_CPU_FLAG_AVX2 },
          { "avx512", ls_pack10_row_avx512, false, LS_CPU_FLAG_AVX512VBMI },
          { "c stream", ls_pack10_row_c, true, 0 },
          { "avx2 stream", ls_pack10_row_avx2, true, LS_CPU_FLAG_AVX2 },
          { "avx512 stream", ls_pack10_row_avx512, true, LS_CPU_FLAG_AVX512VBMI } };

static void check_rows(void)
{
    /* up to a band of the reader (32768 samples); rows that start at every 4-byte offset from a
     * 32-byte boundary (the streaming packer's head, runs and tail) */
    static const size_t lens[] = { 16, 32, 48, 960, 1920, 3840 + 16, 32768 + 144 };
    static const unsigned offsets[] = { 0, 1, 3, 5, 7 };
    for (unsigned k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
        if ((ls_cpu_usable(0) & v[k].flags) != v[k].flags) {
            printf("pack10: SKIP %s: not supported by this CPU\n", v[k].name);
            continue;
        }
        for (unsigned l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            for (unsigned o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
            const size_t n = lens[l];
            uint16_t *src = malloc(n * 2);
            /* one word past the row: a packer must not write it */
            uint32_t *mem = aligned_alloc(32, (ls_pack10_bytes(n) + 4 + 32 + 31) / 32 * 32);
            uint32_t *dst = mem + offsets[o];
            for (int mode = 0; mode < 4; mode++) {
                for (size_t i = 0; i < n; i++)
                    src[i] = mode == 0 ? (uint16_t)(checkasm_rand() & 1023u)
                             : mode == 1 ? 0 : mode == 2 ? 1023 : (uint16_t)(i & 1 ? 1023 : 0);
                memset(dst, 0xa5, ls_pack10_bytes(n) + 4);
                const uint16_t any = v[k].stream ? ls_pack10_row_stream(v[k].fn, dst, src, n)
                                                : v[k].fn(dst, src, n);
                size_t bad = 0;
                const bool ok = unpacks_to(dst, src, n, &bad);
                checkasm_check(ok, "pack10", "%s, %zu samples at word %u, fill %d: sample %zu "
                               "unpacks to another value", v[k].name, n, offsets[o], mode, bad);
                checkasm_check(dst[ls_pack10_bytes(n) / 4] == 0xa5a5a5a5u, "pack10",
                               "%s, %zu samples: wrote past the row", v[k].name, n);
                checkasm_check((any >> 10) == 0, "pack10", "%s, %zu samples, fill %d: OR %#x "
                               "above 10 bits", v[k].name, n, mode, any);
            }
            /* one sample above 10 bits anywhere: the OR shows it */
            for (unsigned t = 0; t < 4; t++) {
                for (size_t i = 0; i < n; i++)
                    src[i] = (uint16_t)(checkasm_rand() & 1023u);
                const size_t at = checkasm_rand() % n;
                src[at] = (uint16_t)(1024u << (checkasm_rand() % 6));
                const uint16_t any = v[k].stream ? ls_pack10_row_stream(v[k].fn, dst, src, n)
                                                : v[k].fn(dst, src, n);
                checkasm_check((any >> 10) != 0, "pack10", "%s, %zu samples: %u at %zu not seen",
                               v[k].name, n, src[at], at);
            }
            free(src);
            free(mem);
            }
        }
    }
}

/* the frame packer on a 3840x2160 4:2:0 pair (large enough for its helper threads), strided
 * pictures, then one chroma sample above 10 bits */
static void check_frame(void)
{
    const unsigned w[3] = { 3840, 1920, 1920 }, h[3] = { 2160, 1080, 1080 };
    LsFrameLayout l;
    ls_frame_layout_init(&l, 3, 10, w, h);
    if (!checkasm_check(ls_frame_layout_pack10(&l) == 1, "pack10", "4K 10-bit: no packed form"))
        return;
    LsFrameLayout odd;
    const unsigned wo[3] = { 1918, 959, 959 };
    ls_frame_layout_init(&odd, 3, 10, wo, h);
    checkasm_check(ls_frame_layout_pack10(&odd) == 0 && !odd.pack10, "pack10",
                   "1918 columns: packed form chosen");
    ls_frame_layout_init(&odd, 3, 8, w, h);
    checkasm_check(ls_frame_layout_pack10(&odd) == 0, "pack10", "8 bits: packed form chosen");
    VmafPicture pic[2];
    uint16_t *mem[2][3];
    const ptrdiff_t pad = 64; /* bytes of stride past each row */
    for (unsigned s = 0; s < 2; s++)
        for (unsigned p = 0; p < 3; p++) {
            const ptrdiff_t stride = (ptrdiff_t)w[p] * 2 + pad;
            mem[s][p] = malloc((size_t)stride * h[p]);
            for (unsigned y = 0; y < h[p]; y++)
                for (unsigned x = 0; x < w[p]; x++)
                    mem[s][p][(size_t)y * (size_t)stride / 2 + x] =
                        (uint16_t)(checkasm_rand() & 1023u);
            pic[s].data[p] = mem[s][p];
            pic[s].stride[p] = stride;
        }
    LsFramePacker pk;
    if (!checkasm_check(ls_frame_packer_init(&pk, l.packed_size) == 0, "pack10", "packer init"))
        return;
    unsigned char *dst = aligned_alloc(256, l.packed_size);
    const int r = ls_frame_pack10(&pk, &l, dst, &pic[0], &pic[1]);
    checkasm_check(r == 0, "pack10", "frame: refused (%d)", r);
    for (unsigned s = 0; s < 2; s++)
        for (unsigned p = 0; p < 3; p++) {
            bool ok = true;
            size_t bad = 0;
            for (unsigned y = 0; y < h[p] && ok; y++) {
                const uint32_t *row = (const uint32_t *)(const void *)(
                    dst + l.packed_offset[s][p] + (size_t)y * l.packed_row_bytes[p]);
                ok = unpacks_to(row, mem[s][p] + (size_t)y * (size_t)pic[s].stride[p] / 2, w[p],
                                &bad);
            }
            checkasm_check(ok, "pack10", "frame, side %u plane %u (%u helper threads): sample "
                           "%zu differs", s, p, pk.n_threads, bad);
        }
    mem[1][2][(size_t)(h[2] - 1) * (size_t)pic[1].stride[2] / 2 + 5] = 1024;
    checkasm_check(ls_frame_pack10(&pk, &l, dst, &pic[0], &pic[1]) == 1, "pack10",
                   "frame with a sample of 1024: packed");
    ls_frame_packer_close(&pk);
    free(dst);
    for (unsigned s = 0; s < 2; s++)
        for (unsigned p = 0; p < 3; p++)
            free(mem[s][p]);
}

void checkasm_check_pack10(void)
{
    check_rows();
    check_frame();
    if (checkasm_bench_enabled()) {
        const size_t n = 3840 * 2160;
        uint16_t *src = malloc(n * 2);
        uint32_t *dst = malloc(ls_pack10_bytes(n));
        for (size_t i = 0; i < n; i++)
            src[i] = (uint16_t)(checkasm_rand() & 1023u);
        for (unsigned k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
            if ((ls_cpu_usable(0) & v[k].flags) != v[k].flags)
                continue;
            double best = 1e30;
            for (int rep = 0; rep < 5; rep++) {
                const double t0 = checkasm_seconds();
                if (v[k].stream)
                    ls_pack10_row_stream(v[k].fn, dst, src, n);
                else
                    v[k].fn(dst, src, n);
                const double t = checkasm_seconds() - t0;
                best = t < best ? t : best;
            }
            printf("pack10 %s: %.3f ms for a 4K 10-bit luma plane (one thread)\n", v[k].name,
                   best * 1e3);
        }
        free(src);
        free(dst);
    }
}
