/* Shards in the C API: every frame of a synthetic video scored as a shard of its own
 * (lockstep_set_frame_range) equals the whole run's frame, bit for bit, for every temporal
 * extractor and the options that change what a frame reads; the context each one declares is
 * the least that works (one frame fewer before or after changes some frame); and the API's
 * refusals. Merging shard reports is tested through the CLI (shard_test.py). */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "core/context.h"
#include "lockstep/lockstep.h"
#include "test_support.h"

#define W 160
#define H 160
#define N_FRAMES 10
#define MAX_NAMES 16

static uint64_t rng_state = 0x1234567;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

/* Textured content panning by a varying step, and a distorted copy with noise: motion differs
 * from frame to frame, so a wrong neighbour changes scores. */
static uint8_t texture[H * 2][W * 2];
static int step[N_FRAMES];

static void make_picture(VmafPicture *pic, unsigned frame, int distorted)
{
    vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, 8, W, H);
    int dx = 0;
    for (unsigned f = 0; f <= frame; f++)
        dx += step[f];
    for (unsigned p = 0; p < 3; p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + y * pic->stride[p];
            for (unsigned x = 0; x < pic->w[p]; x++) {
                int v = texture[(y * (p ? 2 : 1) + frame) % (2 * H)][(x + (unsigned)dx) % (2 * W)];
                if (distorted)
                    v += (int)((x * 7 + y * 13 + frame * 5) % 9) - 4;
                row[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

typedef struct Config {
    const char *feature;
    const char *key[2], *value[2];
    unsigned before, after; /* the context it must declare */
} Config;

static const Config configs[] = {
    { "motion", { 0 }, { 0 }, 1, 1 },
    { "motion", { "motion_moving_average" }, { "true" }, 2, 1 },
    { "motion", { "motion_five_frame_window" }, { "true" }, 3, 2 },
    { "motion", { "motion_five_frame_window", "motion_moving_average" }, { "true", "true" }, 4, 2 },
    { "float_motion", { 0 }, { 0 }, 1, 1 },
    { "float_motion", { "motion_add_scale1", "motion_filter_size" }, { "true", "3" }, 1, 1 },
    { "speed_temporal", { 0 }, { 0 }, 1, 0 },
    { "psnr", { "enable_apsnr" }, { "true" }, 0, 0 },
};

typedef struct Scores {
    char name[MAX_NAMES][256];
    unsigned n;
    double v[MAX_NAMES][N_FRAMES];
    int have[MAX_NAMES][N_FRAMES];
} Scores;

static VmafContext *make(const Config *c)
{
    VmafContext *ctx;
    if (vmaf_init(&ctx, (VmafConfiguration){ .log_level = VMAF_LOG_LEVEL_NONE }))
        return NULL;
    VmafFeatureDictionary *d = NULL;
    for (unsigned k = 0; k < 2 && c->key[k]; k++)
        vmaf_feature_dictionary_set(&d, c->key[k], c->value[k]);
    if (vmaf_use_feature(ctx, c->feature, d)) {
        vmaf_close(ctx);
        return NULL;
    }
    return ctx;
}

/* Feeds frames [first, end) of the video with their indices, flushes, and reads every score. */
static int feed(VmafContext *ctx, unsigned first, unsigned end)
{
    for (unsigned i = first; i < end && i < N_FRAMES; i++) {
        VmafPicture ref, dist;
        make_picture(&ref, i, 0);
        make_picture(&dist, i, 1);
        const int err = vmaf_read_pictures(ctx, &ref, &dist, i);
        if (err)
            return err;
    }
    return vmaf_read_pictures(ctx, NULL, NULL, 0);
}

static void read_scores(VmafContext *ctx, Scores *s)
{
    memset(s, 0, sizeof(*s));
    s->n = lockstep_feature_count(ctx);
    for (unsigned f = 0; f < s->n && f < MAX_NAMES; f++) {
        snprintf(s->name[f], sizeof(s->name[f]), "%s", lockstep_feature_name(ctx, f));
        for (unsigned i = 0; i < N_FRAMES; i++)
            s->have[f][i] = !vmaf_feature_score_at_index(ctx, s->name[f], &s->v[f][i], i);
    }
}

/* Frame i of a one-frame shard against the whole run: the number of names whose value differs
 * (or is missing), -1 when the shard could not be scored. */
static int shard_differences(const Config *c, const Scores *whole, unsigned i, int fewer_before,
                             int fewer_after, unsigned *read_first, unsigned *read_end)
{
    VmafContext *ctx = make(c);
    if (!ctx || ls_context_set_frame_range(ctx, i, i + 1, fewer_before, fewer_after) ||
        lockstep_frames_to_read(ctx, read_first, read_end) || feed(ctx, *read_first, *read_end)) {
        fprintf(stderr, "  %s\n", lockstep_last_error());
        vmaf_close(ctx);
        return -1;
    }
    int differ = 0;
    for (unsigned f = 0; f < whole->n; f++) {
        double v;
        const int have = !vmaf_feature_score_at_index(ctx, whole->name[f], &v, i);
        if (have != whole->have[f][i] || (have && double_bits(v) != double_bits(whole->v[f][i])))
            differ++;
        /* nothing but the range is reported */
        for (unsigned k = 0; k < N_FRAMES; k++)
            if (k != i && !vmaf_feature_score_at_index(ctx, whole->name[f], &v, k))
                differ++;
    }
    double a, b;
    const int ha = !lockstep_aggregate_score(ctx, "apsnr_y", &a);
    vmaf_close(ctx);
    /* APSNR over the one frame of the shard: the sums of context frames are not counted */
    if (ha) {
        VmafContext *one = make(c);
        if (!one || feed(one, i, i + 1) || lockstep_aggregate_score(one, "apsnr_y", &b) ||
            double_bits(a) != double_bits(b))
            differ++;
        vmaf_close(one);
    }
    return differ;
}

static void test_config(const Config *c)
{
    char label[256];
    snprintf(label, sizeof(label), "%s%s%s%s%s", c->feature, c->key[0] ? " " : "",
             c->key[0] ? c->key[0] : "", c->key[1] ? " " : "", c->key[1] ? c->key[1] : "");
    VmafContext *ctx = make(c);
    Scores whole;
    CHECK(ctx && !feed(ctx, 0, N_FRAMES), "%s: the whole run fails: %s", label,
          lockstep_last_error());
    read_scores(ctx, &whole);
    vmaf_close(ctx);
    CHECK(whole.n > 0 && whole.n <= MAX_NAMES, "%s: %u names", label, whole.n);

    unsigned exact = 0, fewer_before = 0, fewer_after = 0;
    for (unsigned i = 0; i < N_FRAMES; i++) {
        unsigned rf, re;
        int d = shard_differences(c, &whole, i, 0, 0, &rf, &re);
        CHECK(d == 0, "%s: frame %u as a shard of its own: %d names differ", label, i, d);
        exact += d == 0;
        const unsigned want_rf = i > c->before ? i - c->before : 0;
        CHECK(rf == want_rf && re == i + 1 + c->after,
              "%s: shard %u:%u reads %u..%u, expected %u..%u", label, i, i + 1, rf, re - 1,
              want_rf, i + c->after);
        if (c->before)
            fewer_before += shard_differences(c, &whole, i, 1, 0, &rf, &re) != 0;
        if (c->after)
            fewer_after += shard_differences(c, &whole, i, 0, 1, &rf, &re) != 0;
    }
    CHECK(!c->before || fewer_before > 0,
          "%s: with one context frame fewer before, every frame is still the whole run's: the "
          "declared %u is not the least", label, c->before);
    CHECK(!c->after || fewer_after > 0,
          "%s: with one context frame fewer after, every frame is still the whole run's: the "
          "declared %u is not the least", label, c->after);
    printf("%-52s before %u after %u: %u/%u frames exact; one fewer before breaks %u, after %u\n",
           label, c->before, c->after, exact, N_FRAMES, fewer_before, fewer_after);
}

static void test_refusals(void)
{
    const Config *c = &configs[0];
    VmafContext *ctx = make(c);
    CHECK(lockstep_set_frame_range(ctx, 3, 3) == -EINVAL &&
              !strcmp(lockstep_last_error(),
                      "frame range 3:3 is empty: the end comes after the first frame"),
          "empty range: %s", lockstep_last_error());
    CHECK(!lockstep_set_frame_range(ctx, 4, 6), "range 4:6");
    unsigned rf, re;
    CHECK(!lockstep_frames_to_read(ctx, &rf, &re) && rf == 3 && re == 7, "reads %u..%u", rf, re);
    VmafPicture ref, dist;
    make_picture(&ref, 0, 0);
    make_picture(&dist, 0, 1);
    CHECK(vmaf_read_pictures(ctx, &ref, &dist, 4) == -EINVAL &&
              !strcmp(lockstep_last_error(),
                      "frame range 4:6: picture 4 given where frame 3 was expected (the frames "
                      "to read are 3..6, in order)"),
          "out of order: %s", lockstep_last_error());
    CHECK(!vmaf_read_pictures(ctx, &ref, &dist, 3), "frame 3");
    CHECK(lockstep_set_frame_range(ctx, 0, 2) == -EINVAL &&
              !strcmp(lockstep_last_error(), "frame range 0:2: set it before the first picture"),
          "late range: %s", lockstep_last_error());
    LockstepShardInfo info = { .settings = "" };
    CHECK(lockstep_write_shard(ctx, "/nonexistent/x.json", &info) == -EINVAL &&
              !strcmp(lockstep_last_error(), "a shard report is written after the flush"),
          "unflushed: %s", lockstep_last_error());
    CHECK(!vmaf_read_pictures(ctx, NULL, NULL, 0), "flush");
    CHECK(lockstep_write_shard(ctx, "/nonexistent/x.json", &info) == -EINVAL &&
              !strcmp(lockstep_last_error(), "frame range 4:6: no frame of it was scored (the "
                                             "video has 4 frames)"),
          "no frame: %s", lockstep_last_error());
    vmaf_close(ctx);
    ctx = make(c);
    CHECK(!lockstep_frames_to_read(ctx, &rf, &re) && rf == 0 && re == UINT32_MAX,
          "no range: %u..%u", rf, re);
    CHECK(!feed(ctx, 0, 2), "two frames");
    CHECK(lockstep_write_shard(ctx, "x.json", &info) == -EINVAL &&
              !strcmp(lockstep_last_error(),
                      "a shard report needs a frame range (lockstep_set_frame_range)"),
          "no range: %s", lockstep_last_error());
    vmaf_close(ctx);
    char id[256];
    CHECK(!lockstep_file_identity("-", id, sizeof(id)) && !strcmp(id, "stdin"), "stdin: %s", id);
    CHECK(lockstep_file_identity("/nonexistent/v.y4m", id, sizeof(id)) == -EINVAL &&
              !strcmp(lockstep_last_error(),
                      "could not open file: /nonexistent/v.y4m: No such file or directory"),
          "absent: %s", lockstep_last_error());
}

int main(void)
{
    for (unsigned y = 0; y < 2 * H; y++)
        for (unsigned x = 0; x < 2 * W; x++)
            texture[y][x] = (uint8_t)(rnd(200) + 28);
    for (unsigned f = 0; f < N_FRAMES; f++)
        step[f] = (int)rnd(4) + (f % 3 == 1 ? 3 : 0);
    for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
        test_config(&configs[i]);
    test_refusals();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("shard: all passed\n");
    return 0;
}
