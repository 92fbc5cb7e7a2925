/* psnr_hvs: tables against the spec's JSON, the integer DCT on the spec's hand-made blocks, the
 * AVX2 plane sum against the C reference (checkasm-style: random and extreme planes, 8..12 bit,
 * exact comparison), and 4:0:0 against enable_chroma=false through the public API.
 * usage: test_psnr_hvs PSNR_HVS_CSF_JSON [--bench] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/psnr_hvs.h"
#include "feature/psnr_hvs_block.h"


/* ---- tables ---- */

/* The 64 strings of the array `"field": [[...], ...]` that follows `"plane_key"` in the JSON. */
static int json_strings(const char *json, const char *plane_key, const char *field,
                        char out[64][40])
{
    char key[64];
    snprintf(key, sizeof(key), "\"%s\"", plane_key);
    const char *p = strstr(json, key);
    if (!p)
        return -1;
    snprintf(key, sizeof(key), "\"%s\"", field);
    p = strstr(p, key);
    if (!p)
        return -1;
    p = strchr(p + strlen(key), '[');
    for (int k = 0; k < 64; k++) {
        p = p ? strchr(p, '"') : NULL;
        const char *end = p ? strchr(p + 1, '"') : NULL;
        if (!end || end - p - 1 >= 40)
            return -1;
        memcpy(out[k], p + 1, (size_t)(end - p - 1));
        out[k][end - p - 1] = 0;
        p = end + 1;
    }
    return 0;
}

static void test_tables(const char *json_path)
{
    static const char *const planes[3] = { "csf_y", "csf_cb", "csf_cr" };
    char *json = read_file(json_path);
    CHECK(json, "cannot read %s", json_path);
    if (!json)
        return;
    const double K = 0.3885746225901003;
    int float_only_differs = 0;
    for (int p = 0; p < 3; p++) {
        char csf_hex[64][40], csf_dec[64][40], mask_hex[64][40];
        const int err = json_strings(json, planes[p], "float32_hex", csf_hex) |
                        json_strings(json, planes[p], "decimal_literal", csf_dec) |
                        json_strings(json, planes[p], "mask_float32_hex", mask_hex);
        CHECK(!err, "%s: arrays not found in %s", planes[p], json_path);
        if (err)
            continue;
        for (int k = 0; k < 64; k++) {
            const float csf = ls_psnr_hvs_csf[p][k], mask = ls_psnr_hvs_mask[p][k];
            CHECK(float_bits(csf) == float_bits(strtof(csf_hex[k], NULL)),
                  "csf %s[%d] = %a, json float32_hex %s", planes[p], k, csf, csf_hex[k]);
            CHECK(float_bits(csf) == float_bits((float)strtod(csf_dec[k], NULL)),
                  "csf %s[%d] = %a, json decimal %s", planes[p], k, csf, csf_dec[k]);
            CHECK(float_bits(mask) == float_bits(strtof(mask_hex[k], NULL)),
                  "mask %s[%d] = %a, json mask_float32_hex %s", planes[p], k, mask, mask_hex[k]);
            const float from_double = (float)(((double)csf * K) * ((double)csf * K));
            CHECK(float_bits(mask) == float_bits(from_double), "mask %s[%d] = %a, double build %a",
                  planes[p], k, mask, from_double);
            const float t = csf * (float)K;
            float_only_differs += float_bits(t * t) != float_bits(mask);
        }
    }
    /* the table would be wrong if built in float: the check above must be able to see that */
    volatile float one = 1.0f; /* evaluated at run time, in float, as the reference does */
    CHECK(float_bits(LS_PSNR_HVS_F63) == float_bits((one / 63.0f) * 64.0f), "F63 is %a",
          LS_PSNR_HVS_F63);
    CHECK(float_bits(LS_PSNR_HVS_F15) == float_bits((one / 15.0f) * 16.0f), "F15 is %a",
          LS_PSNR_HVS_F15);
    CHECK(float_only_differs == 98, "float-built mask differs in %d entries, spec says 98",
          float_only_differs);
    printf("tables: csf and mask (3 x 64) checked against %s; a float-built mask differs in %d\n",
           json_path, float_only_differs);
    free(json);
}

/* ---- DCT ---- */

/* The 1-D transform transcribed literally from psnr_hvs.md §7.1 (H with the uint32 round trip),
 * as an independent check of the shared one. */
#define SPEC_H(v) (((int32_t)((uint32_t)(v) + ((uint32_t)(v) >> 31))) >> 1)
#define SPEC_R(v, c, s) (((v) * (c) + (1 << ((s) - 1))) >> (s))
static void spec_fdct8(int32_t y[8], const int32_t x[8])
{
    int32_t t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3], t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
    int32_t h1, h4, h6;
    t1 = t0 - t1; h1 = SPEC_H(t1); t0 = t0 - h1;
    t4 = t4 + t5; h4 = SPEC_H(t4); t5 = t5 - h4;
    t3 = t2 - t3; t2 = t2 - SPEC_H(t3);
    t6 = t6 + t7; h6 = SPEC_H(t6); t7 = h6 - t7;
    t0 = t0 + h6; t6 = t0 - t6;
    t2 = h4 - t2; t4 = t2 - t4;
    t0 = t0 - SPEC_R(t4, 13573, 15); t4 = t4 + SPEC_R(t0, 11585, 14);
    t0 = t0 - SPEC_R(t4, 13573, 15);
    t6 = t6 - SPEC_R(t2, 21895, 15); t2 = t2 + SPEC_R(t6, 15137, 14);
    t6 = t6 - SPEC_R(t2, 21895, 15);
    t3 = t3 + SPEC_R(t5, 19195, 15); t5 = t5 + SPEC_R(t3, 11585, 14);
    t3 = t3 - SPEC_R(t5, 7489, 13);
    t7 = SPEC_H(t5) - t7; t5 = t5 - t7; t3 = h1 - t3; t1 = t1 - t3;
    t7 = t7 + SPEC_R(t1, 3227, 15); t1 = t1 - SPEC_R(t7, 6393, 15); t7 = t7 + SPEC_R(t1, 3227, 15);
    t5 = t5 + SPEC_R(t3, 2485, 13); t3 = t3 - SPEC_R(t5, 18205, 15); t5 = t5 + SPEC_R(t3, 2485, 13);
    y[0] = t0; y[1] = t1; y[2] = t2; y[3] = t3; y[4] = t4; y[5] = t5; y[6] = t6; y[7] = t7;
}

static void spec_fdct8x8(int32_t c[64], const int32_t b[64])
{
    int32_t z[64], col[8];
    for (int k = 0; k < 8; k++) {
        for (int r = 0; r < 8; r++)
            col[r] = b[8 * r + k];
        spec_fdct8(z + 8 * k, col);
    }
    for (int r = 0; r < 8; r++) {
        for (int k = 0; k < 8; k++)
            col[k] = z[8 * k + r];
        spec_fdct8(c + 8 * r, col);
    }
}

static void check_dct(const char *what, const int b[64])
{
    int c[64];
    int32_t ref[64];
    ls_psnr_hvs_fdct8x8(c, b);
    spec_fdct8x8(ref, b);
    for (int k = 0; k < 64; k++)
        CHECK(c[k] == ref[k], "dct %s: C[%d][%d] = %d, spec transcription %d", what, k / 8, k % 8,
              c[k], ref[k]);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

static void test_dct(void)
{
    int b[64], c[64];
    for (int k = 0; k < 64; k++)
        b[k] = 4095;
    ls_psnr_hvs_fdct8x8(c, b);
    const int dc_4095 = c[0];
    CHECK(c[0] == 32759, "flat 4095: DC %d, expected 32759", c[0]);
    for (int k = 0; k < 64; k++)
        b[k] = 1491;
    ls_psnr_hvs_fdct8x8(c, b);
    const int c04_1491 = c[4];
    CHECK(c[4] == -1, "flat 1491: C[0][4] = %d, expected -1", c[4]);

    int flat_with_ac = 0;
    for (int v = 0; v < 4096; v++) {
        for (int k = 0; k < 64; k++)
            b[k] = v;
        ls_psnr_hvs_fdct8x8(c, b);
        int ac = 0;
        for (int k = 1; k < 64; k++)
            ac |= c[k];
        flat_with_ac += ac != 0;
    }
    CHECK(flat_with_ac == 599, "flat 12-bit blocks with a non-zero AC: %d, expected 599",
          flat_with_ac);

    char what[64];
    for (int pos = 0; pos < 64; pos++) {
        for (int sign = -1; sign <= 1; sign += 2) {
            memset(b, 0, sizeof(b));
            b[pos] = sign * 4095;
            snprintf(what, sizeof(what), "impulse %d at (%d,%d)", sign * 4095, pos / 8, pos % 8);
            check_dct(what, b);
        }
    }
    int max_abs = 0;
    for (int pattern = 0; pattern < 4; pattern++) {
        for (int k = 0; k < 64; k++) {
            const int i = k / 8, j = k % 8;
            /* checkerboard, columns, rows, 4x4 quadrants */
            const int odd = pattern == 0   ? (i + j) & 1
                            : pattern == 1 ? j & 1
                            : pattern == 2 ? i & 1
                                           : ((i ^ j) >> 2) & 1;
            b[k] = odd ? -4095 : 4095;
        }
        snprintf(what, sizeof(what), "alternating +-4095, pattern %d", pattern);
        check_dct(what, b);
        for (int k = 0; k < 64; k++)
            b[k] = b[k] > 0 ? 4095 : 0;
        snprintf(what, sizeof(what), "alternating 0/4095, pattern %d", pattern);
        check_dct(what, b);
        ls_psnr_hvs_fdct8x8(c, b);
        for (int k = 0; k < 64; k++)
            max_abs = abs(c[k]) > max_abs ? abs(c[k]) : max_abs;
    }
    CHECK(max_abs <= 32760, "coefficient magnitude %d above 8 * 4095", max_abs);
    for (int n = 0; n < 20000; n++) {
        for (int k = 0; k < 64; k++) /* negative odd values exercise H()'s truncation */
            b[k] = n & 1 ? (int)(rnd() % 8191) - 4095 : -(int)(2 * (rnd() % 2048) + 1);
        snprintf(what, sizeof(what), "random signed block %d", n);
        check_dct(what, b);
    }
    printf("dct: flat 4095 -> DC %d, flat 1491 -> C[0][4] %d, %d flat 12-bit blocks with AC, "
           "largest |C| of alternating blocks %d\n", dc_4095, c04_1491, flat_with_ac, max_abs);
}

/* ---- checkasm: AVX2 plane sum against the C reference ---- */

typedef struct Plane {
    unsigned w, h;
    ptrdiff_t stride;
    uint8_t *ref, *dis;
} Plane;

enum Fill { FILL_RANDOM, FILL_NOISY, FILL_ZERO, FILL_MAX, FILL_MAX_VS_ZERO, FILL_IDENTICAL,
            FILL_FLAT_NOISE, FILL_N };
static const char *const fill_names[FILL_N] = { "random", "smooth+noise", "all-0", "all-max",
                                                "max-vs-0", "identical", "flat+noise" };

static unsigned sample(unsigned bpc, enum Fill fill, unsigned x, unsigned y, int dis)
{
    const unsigned max = (1u << bpc) - 1;
    switch (fill) {
    case FILL_RANDOM: return rnd() & max;
    case FILL_NOISY: {
        const int base = (int)(((x * 37 + y * 91) % 256) << (bpc - 8));
        const int v = base + (dis ? (int)(rnd() % 33) - 16 : 0) * (int)(1u << (bpc - 8));
        return v < 0 ? 0 : v > (int)max ? max : (unsigned)v;
    }
    case FILL_ZERO: return 0;
    case FILL_MAX: return max;
    case FILL_MAX_VS_ZERO: return dis ? 0 : max;
    case FILL_IDENTICAL: return (x * 7 + y * y) & max;
    case FILL_FLAT_NOISE: return dis ? rnd() & max : max / 2;
    default: return 0;
    }
}

static void fill_plane(Plane *pl, unsigned bpc, enum Fill fill)
{
    const unsigned bps = bpc > 8 ? 2 : 1;
    for (unsigned y = 0; y < pl->h; y++) {
        for (unsigned x = 0; x < pl->w; x++) {
            unsigned r = sample(bpc, fill, x, y, 0);
            unsigned d = fill == FILL_IDENTICAL ? r : sample(bpc, fill, x, y, 1);
            if (bps == 1) {
                pl->ref[y * pl->stride + x] = (uint8_t)r;
                pl->dis[y * pl->stride + x] = (uint8_t)d;
            } else {
                const uint16_t r16 = (uint16_t)r, d16 = (uint16_t)d;
                memcpy(pl->ref + y * pl->stride + 2 * x, &r16, 2);
                memcpy(pl->dis + y * pl->stride + 2 * x, &d16, 2);
            }
        }
    }
}

/* Exact-size buffers (stride = row bytes, nothing after the last sample), so that a variant
 * reading past the plane trips AddressSanitizer in sanitized builds. */
static Plane plane_alloc(unsigned w, unsigned h, unsigned bpc)
{
    Plane pl = { w, h, (ptrdiff_t)(w * (bpc > 8 ? 2 : 1)), NULL, NULL };
    pl.ref = malloc((size_t)pl.stride * h);
    pl.dis = malloc((size_t)pl.stride * h);
    return pl;
}

static void plane_free(Plane *pl)
{
    free(pl->ref);
    free(pl->dis);
}

static void test_checkasm(void)
{
    if (!(ls_cpu_detect() & LS_CPU_FLAG_AVX2)) {
        printf("checkasm: no AVX2 on this CPU, AVX2 variant not tested\n");
        return;
    }
    LsPsnrHvsDsp ref_dsp, new_dsp;
    ls_psnr_hvs_dsp_init(&ref_dsp, 0);
    ls_psnr_hvs_dsp_init(&new_dsp, LS_CPU_FLAG_AVX2);
    CHECK(new_dsp.plane_sum[0] != ref_dsp.plane_sum[0], "AVX2 variant not installed");
    /* block-walk edges (8, 14, 15, 16, 97: partial coverage), one group of 8 blocks (57 = 8 * 7
     * + 1), partial groups */
    static const unsigned sizes[][2] = { { 8, 8 },   { 14, 8 }, { 15, 15 }, { 16, 16 },
                                         { 8, 97 },  { 97, 61 }, { 64, 9 },  { 57, 8 },
                                         { 71, 22 }, { 131, 77 }, { 9, 15 },  { 200, 30 } };
    static const unsigned depths[] = { 8, 9, 10, 11, 12 };
    unsigned n = 0, bad = 0;
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        for (unsigned di = 0; di < sizeof(depths) / sizeof(depths[0]); di++) {
            for (int fill = 0; fill < FILL_N; fill++) {
                const unsigned bpc = depths[di];
                Plane pl = plane_alloc(sizes[si][0], sizes[si][1], bpc);
                fill_plane(&pl, bpc, (enum Fill)fill);
                for (int p = 0; p < 3; p++) {
                    const float a = ref_dsp.plane_sum[bpc > 8](pl.ref, pl.stride, pl.dis,
                                                               pl.stride, pl.w, pl.h, p);
                    const float b = new_dsp.plane_sum[bpc > 8](pl.ref, pl.stride, pl.dis,
                                                               pl.stride, pl.w, pl.h, p);
                    n++;
                    if (float_bits(a) != float_bits(b)) {
                        bad++;
                        CHECK(0, "checkasm plane_sum avx2: %ux%u bpc %u %s plane %d: C %a, AVX2 %a",
                              pl.w, pl.h, bpc, fill_names[fill], p, a, b);
                    }
                }
                plane_free(&pl);
            }
        }
    }
    printf("checkasm: plane_sum avx2 vs c: %u cases, %u differ\n", n, bad);
}

static void bench(void)
{
    const unsigned w = 1920, h = 1080;
    LsPsnrHvsDsp dsp[2];
    ls_psnr_hvs_dsp_init(&dsp[0], 0);
    ls_psnr_hvs_dsp_init(&dsp[1], ls_cpu_detect());
    Plane luma = plane_alloc(w, h, 8), chroma = plane_alloc(w / 2, h / 2, 8);
    fill_plane(&luma, 8, FILL_NOISY);
    fill_plane(&chroma, 8, FILL_NOISY);
    for (int v = 0; v < 2; v++) {
        const int frames = 10;
        struct timespec t0, t1;
        float sink = 0.0f;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        for (int f = 0; f < frames; f++) {
            sink += dsp[v].plane_sum[0](luma.ref, luma.stride, luma.dis, luma.stride, w, h, 0);
            for (int p = 1; p < 3; p++)
                sink += dsp[v].plane_sum[0](chroma.ref, chroma.stride, chroma.dis, chroma.stride,
                                            w / 2, h / 2, p);
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        const double ms = ((double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                           (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / frames;
        printf("bench %s: %.2f ms (CPU time) per 1920x1080 4:2:0 8-bit frame (sum %a)\n",
               v ? "dispatch" : "c", ms, sink);
    }
    plane_free(&luma);
    plane_free(&chroma);
}

/* ---- public API: 4:0:0 against enable_chroma=false ---- */

static int score_pictures(enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                          const char *enable_chroma, int luma_identical, unsigned frames,
                          double y[], double all[], int *has_chroma)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 0 };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    VmafFeatureDictionary *opts = NULL;
    if (enable_chroma)
        vmaf_feature_dictionary_set(&opts, "enable_chroma", enable_chroma);
    err = vmaf_use_feature(vmaf, "psnr_hvs", opts);
    uint64_t seed = 12345;
    for (unsigned f = 0; !err && f < frames; f++) {
        VmafPicture ref, dis;
        err = vmaf_picture_alloc(&ref, fmt, bpc, w, h);
        if (err)
            break;
        err = vmaf_picture_alloc(&dis, fmt, bpc, w, h);
        if (err) {
            vmaf_picture_unref(&ref);
            break;
        }
        /* luma identical for any format; chroma (when present) random */
        for (unsigned p = 0; p < 3; p++) {
            if (!ref.data[p])
                continue;
            for (unsigned yy = 0; yy < ref.h[p]; yy++) {
                for (unsigned xx = 0; xx < ref.w[p]; xx++) {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    const unsigned max = (1u << bpc) - 1;
                    unsigned r, d;
                    if (p == 0) {
                        r = (xx * 13 + yy * 7 + f * 5) % (max + 1);
                        d = (r + (unsigned)((xx * 31 + yy * 17 + f) % 23)) & max;
                        if (luma_identical)
                            d = r;
                    } else {
                        r = (unsigned)(seed >> 40) & max;
                        d = (unsigned)(seed >> 20) & max;
                    }
                    uint8_t *rrow = (uint8_t *)ref.data[p] + yy * ref.stride[p];
                    uint8_t *drow = (uint8_t *)dis.data[p] + yy * dis.stride[p];
                    if (bpc > 8) {
                        ((uint16_t *)rrow)[xx] = (uint16_t)r;
                        ((uint16_t *)drow)[xx] = (uint16_t)d;
                    } else {
                        rrow[xx] = (uint8_t)r;
                        drow[xx] = (uint8_t)d;
                    }
                }
            }
        }
        err = vmaf_read_pictures(vmaf, &ref, &dis, f);
        if (err) { /* the context takes the pictures only on success */
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    *has_chroma = 0;
    for (unsigned f = 0; !err && f < frames; f++) {
        double cb;
        err = vmaf_feature_score_at_index(vmaf, "psnr_hvs_y", &y[f], f);
        if (!err)
            err = vmaf_feature_score_at_index(vmaf, "psnr_hvs", &all[f], f);
        if (!err && !vmaf_feature_score_at_index(vmaf, "psnr_hvs_cb", &cb, f))
            *has_chroma = 1;
    }
    vmaf_close(vmaf);
    return err;
}

static void test_api(void)
{
    enum { FRAMES = 3 };
    const unsigned depths[] = { 8, 10, 12 };
    for (unsigned di = 0; di < 3; di++) {
        const unsigned bpc = depths[di], w = 67, h = 45;
        double y400[FRAMES], all400[FRAMES], y420[FRAMES], all420[FRAMES], y420c[FRAMES],
            all420c[FRAMES];
        int chroma400, chroma420, chroma420c;
        int err = score_pictures(VMAF_PIX_FMT_YUV400P, bpc, w, h, NULL, 0, FRAMES, y400, all400,
                                 &chroma400);
        CHECK(!err, "4:0:0 %u-bit: error %d (%s)", bpc, err, lockstep_last_error());
        err |= score_pictures(VMAF_PIX_FMT_YUV420P, bpc, w, h, "false", 0, FRAMES, y420, all420,
                              &chroma420);
        CHECK(!err, "4:2:0 enable_chroma=false %u-bit: error %d (%s)", bpc, err,
              lockstep_last_error());
        err |= score_pictures(VMAF_PIX_FMT_YUV420P, bpc, w, h, NULL, 0, FRAMES, y420c, all420c,
                              &chroma420c);
        CHECK(!err, "4:2:0 %u-bit: error %d (%s)", bpc, err, lockstep_last_error());
        if (err)
            continue;
        CHECK(!chroma400 && !chroma420 && chroma420c, "chroma outputs: 4:0:0 %d, "
              "enable_chroma=false %d, default %d (expected 0 0 1)", chroma400, chroma420,
              chroma420c);
        for (unsigned f = 0; f < FRAMES; f++) {
            CHECK(double_bits(y400[f]) == double_bits(y420[f]),
                  "%u-bit frame %u: psnr_hvs_y 4:0:0 %.17g, 4:2:0 luma only %.17g", bpc, f,
                  y400[f], y420[f]);
            CHECK(double_bits(all400[f]) == double_bits(all420[f]),
                  "%u-bit frame %u: psnr_hvs 4:0:0 %.17g, 4:2:0 luma only %.17g", bpc, f,
                  all400[f], all420[f]);
            CHECK(double_bits(all400[f]) == double_bits(y400[f]),
                  "%u-bit frame %u: luma only psnr_hvs %.17g != psnr_hvs_y %.17g", bpc, f,
                  all400[f], y400[f]);
            CHECK(double_bits(y420c[f]) == double_bits(y400[f]),
                  "%u-bit frame %u: psnr_hvs_y with chroma %.17g, without %.17g", bpc, f,
                  y420c[f], y400[f]);
            CHECK(double_bits(all420c[f]) != double_bits(y420c[f]) && isfinite(all420c[f]),
                  "%u-bit frame %u: combined score %.17g should differ from luma %.17g", bpc, f,
                  all420c[f], y420c[f]);
        }
        /* identical luma: +inf (no ceiling); the combined score stays finite through chroma */
        double yi[FRAMES], alli[FRAMES];
        int chroma_i;
        err = score_pictures(VMAF_PIX_FMT_YUV420P, bpc, w, h, NULL, 1, FRAMES, yi, alli, &chroma_i);
        CHECK(!err, "4:2:0 identical luma %u-bit: error %d (%s)", bpc, err, lockstep_last_error());
        for (unsigned f = 0; !err && f < FRAMES; f++)
            CHECK(isinf(yi[f]) && yi[f] > 0 && isfinite(alli[f]),
                  "%u-bit frame %u, identical luma: psnr_hvs_y %.17g (expected +inf), psnr_hvs "
                  "%.17g (expected finite)", bpc, f, yi[f], alli[f]);
        printf("api %u-bit: 4:0:0 == 4:2:0 enable_chroma=false == its luma on %d frames: %s "
               "(frame 0: psnr_hvs_y %.17g)\n", bpc, FRAMES, failures ? "see failures" : "ok",
               y400[0]);
    }
}

/* init refusals: bpc above 12, planes below 8x8 */
static void test_refusals(void)
{
    static const struct {
        enum VmafPixelFormat fmt;
        unsigned bpc, w, h;
        const char *enable_chroma;
        int ok;
    } cases[] = {
        { VMAF_PIX_FMT_YUV420P, 13, 64, 64, NULL, 0 },
        { VMAF_PIX_FMT_YUV420P, 16, 64, 64, NULL, 0 },
        { VMAF_PIX_FMT_YUV420P, 9, 64, 64, NULL, 1 },
        { VMAF_PIX_FMT_YUV420P, 11, 64, 64, NULL, 1 },
        { VMAF_PIX_FMT_YUV420P, 8, 17, 13, NULL, 0 },     /* 9x7 chroma */
        { VMAF_PIX_FMT_YUV420P, 8, 17, 13, "false", 1 },
        { VMAF_PIX_FMT_YUV420P, 8, 15, 15, NULL, 1 },     /* 8x8 chroma */
        { VMAF_PIX_FMT_YUV420P, 8, 14, 14, NULL, 0 },     /* 7x7 chroma */
        { VMAF_PIX_FMT_YUV420P, 8, 15, 16, "false", 1 },
        { VMAF_PIX_FMT_YUV444P, 8, 8, 8, NULL, 1 },
        { VMAF_PIX_FMT_YUV444P, 8, 7, 7, "false", 0 },
        { VMAF_PIX_FMT_YUV400P, 8, 8, 7, NULL, 0 },
        { VMAF_PIX_FMT_YUV422P, 8, 15, 8, NULL, 1 },      /* 8x8 chroma */
        { VMAF_PIX_FMT_YUV422P, 8, 14, 8, NULL, 0 },      /* 7x8 chroma */
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double y[1], all[1];
        int has_chroma;
        const int err = score_pictures(cases[i].fmt, cases[i].bpc, cases[i].w, cases[i].h,
                                       cases[i].enable_chroma, 0, 1, y, all, &has_chroma);
        CHECK((err == 0) == cases[i].ok, "case %u (%ux%u, %u-bit, fmt %d, enable_chroma %s): %s",
              i, cases[i].w, cases[i].h, cases[i].bpc, (int)cases[i].fmt,
              cases[i].enable_chroma ? cases[i].enable_chroma : "default",
              err ? lockstep_last_error() : "accepted");
        if (err)
            printf("refused as expected: %s\n", lockstep_last_error());
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PSNR_HVS_CSF_JSON [--bench]\n", argv[0]);
        return 2;
    }
    if (argc > 2 && !strcmp(argv[2], "--bench")) {
        bench();
        return 0;
    }
    test_tables(argv[1]);
    test_dct();
    test_checkasm();
    test_api();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_psnr_hvs: %d failures\n", failures);
    else
        printf("test_psnr_hvs: all passed\n");
    return failures ? 1 : 0;
}
