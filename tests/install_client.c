/* A libvmaf client as programs write them, built by install_test.py against an installed
 * lockstep (pkg-config libvmaf or lockstep, shared or static). It scores generated frames with
 * vmaf_v0.6.1, psnr and the vmaf_b_v0.6.3 collection, prints every score at %.17g, writes the
 * pictures as Y4M (for the CLI to score the same frames) and the report.
 * usage: install_client OUT.y4m-prefix REPORT.json */
#ifdef LOCKSTEP_SHORT_INCLUDE
#include <libvmaf.h> /* FFmpeg's way: the libvmaf include directory on the path */
#else
#include <libvmaf/libvmaf.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { W = 176, H = 144, FRAMES = 5 };

static uint32_t seed = 12345;
static unsigned rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 24;
}

/* A moving gradient; the distorted picture adds noise. */
static void fill(VmafPicture *pic, unsigned frame, int noisy)
{
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + y * pic->stride[p];
            for (unsigned x = 0; x < pic->w[p]; x++) {
                int v = (int)((x * 3 + y * 2 + frame * 5 + p * 40 + ((x * y) >> 4)) & 0xff);
                if (noisy)
                    v += (int)(rnd() % 61) - 30;
                row[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
}

static void write_y4m_frame(FILE *f, const VmafPicture *pic)
{
    fputs("FRAME\n", f);
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++)
            fwrite((const uint8_t *)pic->data[p] + y * pic->stride[p], 1, pic->w[p], f);
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        const int err_ = (call);                                                                   \
        if (err_) {                                                                                \
            fprintf(stderr, "%s failed: %d\n", #call, err_);                                       \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    printf("version %s\n", vmaf_version());
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 2,
                              .n_subsample = 1 };
    VmafContext *vmaf;
    TRY(vmaf_init(&vmaf, cfg));
    VmafModel *model, *boot;
    VmafModelCollection *collection;
    VmafModelConfig mcfg = { .name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT };
    VmafModelConfig bcfg = { .name = "boot", .flags = VMAF_MODEL_FLAGS_DEFAULT };
    TRY(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"));
    TRY(vmaf_model_collection_load(&boot, &collection, &bcfg, "vmaf_b_v0.6.3"));
    TRY(vmaf_use_features_from_model(vmaf, model));
    TRY(vmaf_use_features_from_model_collection(vmaf, collection));
    VmafFeatureDictionary *d = NULL;
    TRY(vmaf_feature_dictionary_set(&d, "enable_chroma", "false"));
    TRY(vmaf_use_feature(vmaf, "psnr", d));
    VmafFeatureDictionary *unused = NULL;
    TRY(vmaf_feature_dictionary_set(&unused, "x", "1.0"));
    TRY(vmaf_feature_dictionary_free(&unused));

    char path[1024];
    snprintf(path, sizeof(path), "%s_ref.y4m", argv[1]);
    FILE *fr = fopen(path, "wb");
    snprintf(path, sizeof(path), "%s_dis.y4m", argv[1]);
    FILE *fd = fopen(path, "wb");
    if (!fr || !fd)
        return 1;
    fprintf(fr, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", W, H);
    fprintf(fd, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", W, H);
    for (unsigned i = 0; i < FRAMES; i++) {
        VmafPicture ref, dist;
        TRY(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, W, H));
        TRY(vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, W, H));
        fill(&ref, i, 0);
        fill(&dist, i, 1);
        write_y4m_frame(fr, &ref);
        write_y4m_frame(fd, &dist);
        TRY(vmaf_read_pictures(vmaf, &ref, &dist, i));
    }
    fclose(fr);
    fclose(fd);
    TRY(vmaf_read_pictures(vmaf, NULL, NULL, 0));

    for (unsigned i = 0; i < FRAMES; i++) {
        double s, psnr;
        TRY(vmaf_score_at_index(vmaf, model, &s, i));
        TRY(vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, i));
        printf("frame %u vmaf %.17g psnr_y %.17g\n", i, s, psnr);
    }
    double pooled, psnr_mean;
    TRY(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &pooled, 0, FRAMES - 1));
    TRY(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &psnr_mean, 0,
                                  FRAMES - 1));
    double boot_pooled;
    TRY(vmaf_score_pooled(vmaf, boot, VMAF_POOL_METHOD_MEAN, &boot_pooled, 0, FRAMES - 1));
    VmafModelCollectionScore cs;
    TRY(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &cs, 0,
                                           FRAMES - 1));
    printf("pooled vmaf %.17g psnr_y %.17g boot %.17g bagging %.17g ci [%.17g, %.17g]\n", pooled,
           psnr_mean, boot_pooled, cs.bootstrap.bagging_score, cs.bootstrap.ci.p95.lo,
           cs.bootstrap.ci.p95.hi);
    TRY(vmaf_write_output(vmaf, argv[2], VMAF_OUTPUT_FORMAT_JSON));
    TRY(vmaf_close(vmaf));
    vmaf_model_collection_destroy(collection);
    vmaf_model_destroy(boot);
    vmaf_model_destroy(model);
    return 0;
}
