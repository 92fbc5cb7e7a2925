/* The public API as a libvmaf program uses it: call sequence, ownership, refusals, geometry. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/picture_ref.h"
#include "lockstep/lockstep.h"
#include "test_util.h"

static void fill(VmafPicture *p, unsigned seed)
{
    for (unsigned c = 0; c < 3 && p->data[c]; c++)
        for (unsigned y = 0; y < p->h[c]; y++)
            for (unsigned x = 0; x < p->w[c]; x++) {
                const unsigned v = (x * 7 + y * 13 + c * 5 + seed * (x ^ y)) & 255;
                ((uint8_t *)p->data[c])[y * p->stride[c] + x] = (uint8_t)v;
            }
}

/* Scores 6 frames of a pair with motion (which keeps reference pictures referenced) and psnr,
 * from a pool of pool_cnt pictures (0: vmaf_picture_alloc); the motion2 and psnr_y of each frame
 * go to out[12]. */
static int score_from_pool(unsigned pool_cnt, unsigned n_threads, double out[12])
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = n_threads };
    VmafContext *v;
    if (vmaf_init(&v, cfg) || vmaf_use_feature(v, "motion", NULL) || vmaf_use_feature(v, "psnr", NULL))
        return -1;
    const VmafPictureConfiguration pc = {
        .pic_params = { .w = 64, .h = 48, .bpc = 8, .pix_fmt = VMAF_PIX_FMT_YUV420P },
        .pic_cnt = pool_cnt,
    };
    if (pool_cnt && vmaf_preallocate_pictures(v, pc))
        return -1;
    for (unsigned i = 0; i < 6; i++) {
        VmafPicture ref, dis;
        const int err = pool_cnt ? vmaf_fetch_preallocated_picture(v, &ref) |
                                       vmaf_fetch_preallocated_picture(v, &dis)
                                 : vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 48) |
                                       vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 48);
        if (err)
            return -1;
        fill(&ref, i);
        fill(&dis, i + 1);
        if (vmaf_read_pictures(v, &ref, &dis, i))
            return -1;
    }
    if (vmaf_read_pictures(v, NULL, NULL, 0))
        return -1;
    int err = 0;
    for (unsigned i = 0; i < 6; i++)
        err |= vmaf_feature_score_at_index(v, "VMAF_integer_feature_motion2_score", &out[2 * i], i) |
               vmaf_feature_score_at_index(v, "psnr_y", &out[2 * i + 1], i);
    vmaf_close(v);
    return err;
}

int main(void)
{
    /* picture geometry: ceil chroma, 32-sample row padding */
    VmafPicture pic;
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 17, 13) == 0);
    CHECK(pic.w[1] == 9 && pic.h[1] == 7 && pic.stride[0] == 64 && pic.stride[1] == 64);
    CHECK(vmaf_picture_unref(&pic) == 0 && pic.ref == NULL && pic.data[0] == NULL);
    CHECK(vmaf_picture_unref(&pic) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV400P, 8, 1, 1) == 0);
    CHECK(pic.data[1] == NULL && pic.w[1] == 0);
    vmaf_picture_unref(&pic);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 17, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16) == -EINVAL);
    CHECK(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 8, 0, 16) == -EINVAL);

    /* dictionary normalisation (options.md §3.3) is visible through the refusal message */
    VmafContext *vmaf;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    VmafFeatureDictionary *d = NULL;
    CHECK(vmaf_feature_dictionary_set(&d, "min_sse", "-1.50") == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", d) == -EINVAL); /* consumed */
    CHECK(strstr(lockstep_last_error(), "value \"-1.5\"") != NULL);
    d = NULL;
    CHECK(vmaf_feature_dictionary_set(&d, "enable_chroma", "true") == 0);
    CHECK(vmaf_use_feature(vmaf, "nonexistent", d) == -EINVAL); /* still ours */
    CHECK(vmaf_feature_dictionary_free(&d) == 0 && d == NULL);

    d = NULL;
    CHECK(vmaf_feature_dictionary_set(&d, "enable_mse", "true") == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", d) == 0);
    CHECK(vmaf_use_feature(vmaf, "psnr", NULL) == 0); /* same identity: dropped */
    CHECK(vmaf_use_feature(vmaf, "float_psnr", NULL) == 0);

    const unsigned w = 33, h = 17;
    for (unsigned i = 0; i < 3; i++) {
        VmafPicture ref, dis;
        CHECK(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, w, h) == 0);
        CHECK(vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, w, h) == 0);
        fill(&ref, 0);
        fill(&dis, i);
        CHECK(vmaf_read_pictures(vmaf, &ref, NULL, i) == -EINVAL);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, i) == 0);
        CHECK(ref.ref == NULL && dis.ref == NULL); /* the context owns them now */
    }
    VmafPicture other, other2;
    vmaf_picture_alloc(&other, VMAF_PIX_FMT_YUV420P, 8, w + 1, h);
    vmaf_picture_alloc(&other2, VMAF_PIX_FMT_YUV420P, 8, w + 1, h);
    CHECK(vmaf_read_pictures(vmaf, &other, &other2, 3) == -EINVAL); /* geometry fixed by the first */
    vmaf_picture_unref(&other);
    vmaf_picture_unref(&other2);
    CHECK(vmaf_use_feature(vmaf, "float_psnr", NULL) == -EINVAL); /* too late */
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0);
    CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == -EINVAL);

    double s, m;
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0) == 0 && s == 60.0); /* identical */
    CHECK(vmaf_feature_score_at_index(vmaf, "mse_y", &m, 0) == 0 && m == 0.0);
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 1) == 0 && s < 60.0);
    CHECK(vmaf_feature_score_at_index(vmaf, "float_psnr", &s, 2) == 0 && s < 60.0);
    CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 3) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MAX, &s, 0, 2) == 0 && s == 60.0);
    CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 2) == -EINVAL);
    CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MIN, &s, 2, 1) == -EINVAL);
    CHECK(lockstep_feature_count(vmaf) == 7); /* psnr_y mse_y psnr_cb mse_cb psnr_cr mse_cr float_psnr */
    CHECK(!strcmp(lockstep_feature_name(vmaf, 1), "mse_y"));
    CHECK(vmaf_close(vmaf) == 0);

    /* psnr.md §3.6 and §5: one step in one luma sample of a 576x324 frame is 60 dB by default
     * (the ceiling) and 100.84047854497734 dB with uncapped=true; min_sse=0.5 lifts the ceiling */
    static const struct { const char *key, *val; double expect; } caps[] = {
        { NULL, NULL, 60.0 },
        { "uncapped", "true", 100.84047854497734 },
        { "min_sse", "0.5", 0.0 }, /* ceilings 104 (luma) and 98 (chroma): above the true value */
    };
    for (unsigned c = 0; c < 3; c++) {
        VmafContext *v;
        CHECK(vmaf_init(&v, cfg) == 0);
        VmafFeatureDictionary *o = NULL;
        if (caps[c].key)
            vmaf_feature_dictionary_set(&o, caps[c].key, caps[c].val);
        CHECK(vmaf_use_feature(v, "psnr", o) == 0);
        VmafPicture ref, dis;
        vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 576, 324);
        vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, 576, 324);
        fill(&ref, 0);
        fill(&dis, 0);
        ((uint8_t *)dis.data[0])[100 * dis.stride[0] + 200] ^= 1;
        CHECK(vmaf_read_pictures(v, &ref, &dis, 0) == 0);
        CHECK(vmaf_read_pictures(v, NULL, NULL, 0) == 0);
        double y, cb;
        CHECK(vmaf_feature_score_at_index(v, "psnr_y", &y, 0) == 0);
        CHECK(vmaf_feature_score_at_index(v, "psnr_cb", &cb, 0) == 0);
        if (c < 2)
            CHECK_BITS(y, caps[c].expect);
        else
            CHECK_BITS(y, 100.84047854497734); /* below the min_sse ceiling of 104 */
        CHECK(cb == (c == 2 ? 98.0 : 60.0)); /* identical chroma: the ceiling */
        vmaf_close(v);
    }

    /* a GPU backend that is not there is a stated refusal, not a silent CPU run */
    CHECK(vmaf_init(&vmaf, cfg) == 0);
    cfg.gpumask = 1;
    VmafContext *masked;
    CHECK(vmaf_init(&masked, cfg) == 0);
    CHECK(lockstep_use_backend(masked, LOCKSTEP_BACKEND_CUDA, 0) == -ENODEV);
    CHECK(lockstep_use_backend(masked, LOCKSTEP_BACKEND_AUTO, 0) == 0); /* auto falls to the CPU */
    vmaf_close(masked);
    vmaf_close(vmaf);
    /* a pool of one pair, as a libvmaf program may size it: motion keeps reference pictures
     * referenced, so the pool runs dry; the fetch lends pictures beside it instead of waiting
     * forever (alarm: a hang fails the test), and the scores are those of allocated pictures */
    alarm(60);
    for (unsigned t = 0; t < 3; t += 2) {
        double want[12], got[12], big[12];
        CHECK(score_from_pool(0, t, want) == 0);
        CHECK(score_from_pool(2, t, got) == 0);
        CHECK(score_from_pool(32, t, big) == 0);
        CHECK(memcmp(want, got, sizeof(want)) == 0);
        CHECK(memcmp(want, big, sizeof(want)) == 0);
        CHECK(want[2] > 0.0 && want[1] < 60.0); /* frames differ: real motion and psnr */
    }
    alarm(0);

    /* pictures packed for the CUDA twins (the CLI's 10-bit frames on a CUDA-only run) are
     * refused by a CPU extractor, with the reason; a CPU context is not all on CUDA */
    {
        VmafConfiguration c1 = { .log_level = VMAF_LOG_LEVEL_NONE };
        VmafContext *v;
        CHECK(vmaf_init(&v, c1) == 0 && vmaf_use_feature(v, "psnr", NULL) == 0);
        VmafPicture ref, dis;
        CHECK(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 10, 64, 48) == 0);
        CHECK(vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 10, 64, 48) == 0);
        ls_picture_set_packed10(&dis, 1);
        CHECK(ls_picture_packed10(&dis) == 1 && ls_picture_packed10(&ref) == 0);
        CHECK(vmaf_read_pictures(v, &ref, &dis, 0) != 0);
        CHECK(strstr(lockstep_last_error(), "a packed 10-bit picture reached an extractor"));
        CHECK(lockstep_all_on_backend(v, LOCKSTEP_BACKEND_CUDA) == 0);
        CHECK(lockstep_all_on_backend(v, LOCKSTEP_BACKEND_CPU) == 0);
        vmaf_picture_unref(&ref); /* a refused pair stays the caller's */
        vmaf_picture_unref(&dis);
        vmaf_close(v);
    }
    return test_summary();
}
