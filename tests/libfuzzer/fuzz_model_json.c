/* The model file loader on any bytes, as a single model and as a collection (with and without
 * the clip and transform flags), then what the library does with a model it accepted: the
 * feature names under their options, extractor registration, prediction on a few feature
 * vectors (zeros, ones, typical values, huge values). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"
#include "fuzz.h"
#include "lockstep/lockstep.h"

static void exercise(VmafModel *m, VmafModelCollection *c, uint64_t flags)
{
    for (unsigned k = 0; k < m->n_features; k++) {
        const char *key;
        ls_model_feature_key(m, k, &key);
    }
    VmafContext *ctx;
    const VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
    if (!vmaf_init(&ctx, cfg)) {
        if (c)
            vmaf_use_features_from_model_collection(ctx, c);
        else
            vmaf_use_features_from_model(ctx, m);
        vmaf_close(ctx);
    }
    static const double fills[] = { 0.0, 1.0, 0.5, 1e300, -1e300, INFINITY };
    double raw[LS_MODEL_MAX_FEATURES];
    for (unsigned f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
        for (unsigned k = 0; k < LS_MODEL_MAX_FEATURES; k++)
            raw[k] = fills[f] * (1.0 + k / 8.0);
        double score;
        ls_model_predict_values(m, raw, flags, &score);
        if (c) {
            VmafModelCollectionScore cs;
            double *members = malloc((c->cnt + 1) * sizeof(*members));
            if (members)
                ls_model_collection_predict_values(c, raw, members, &cs);
            free(members);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    const int fd = fuzz_file(data, size, path);
    VmafModelConfig cfg = { .name = "vmaf" };
    VmafModel *m = NULL;
    if (!vmaf_model_load_from_path(&m, &cfg, path)) {
        exercise(m, NULL, cfg.flags);
        vmaf_model_destroy(m);
    }
    cfg.flags = VMAF_MODEL_FLAG_DISABLE_CLIP | VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
    VmafModelCollection *c = NULL;
    m = NULL;
    if (!vmaf_model_collection_load_from_path(&m, &c, &cfg, path)) {
        exercise(m, c, cfg.flags);
        vmaf_model_collection_destroy(c);
        vmaf_model_destroy(m);
    }
    close(fd);
    return 0;
}
