#include <stdio.h>

#include "cli_models.h"

/* Loads each model (as a single model, else as a collection) and applies its overloads. */
int cli_load_models(const CliSettings *s, CliLoadedModel *lm, char *err, size_t err_len)
{
    for (unsigned i = 0; i < s->n_models; i++) {
        const CliModel *cm = &s->model[i];
        VmafModelConfig cfg = { .name = cm->name, .flags = cm->flags };
        lm[i].label = cm->version ? cm->version : cm->path;
        int e = cm->version ? vmaf_model_load(&lm[i].model, &cfg, cm->version)
                            : vmaf_model_load_from_path(&lm[i].model, &cfg, cm->path);
        if (e) {
            /* the collection loader also says what is wrong with a file that is no collection */
            e = cm->version ? vmaf_model_collection_load(&lm[i].model, &lm[i].collection, &cfg,
                                                         cm->version)
                            : vmaf_model_collection_load_from_path(&lm[i].model,
                                                                   &lm[i].collection, &cfg,
                                                                   cm->path);
            if (e) {
                snprintf(err, err_len, "problem loading model: %s", lockstep_last_error());
                return -1;
            }
        }
        for (unsigned k = 0; k < cm->n_overloads; k++) {
            VmafFeatureDictionary *d = NULL;
            e = vmaf_feature_dictionary_set(&d, cm->overload[k].option, cm->overload[k].value);
            if (!e)
                e = lm[i].collection
                        ? vmaf_model_collection_feature_overload(lm[i].model, &lm[i].collection,
                                                                 cm->overload[k].extractor, d)
                        : vmaf_model_feature_overload(lm[i].model, cm->overload[k].extractor, d);
            if (e) {
                snprintf(err, err_len, "problem overloading feature extractors from model: %s",
                         lockstep_last_error());
                return -1;
            }
        }
    }
    return 0;
}

void cli_free_models(CliLoadedModel *lm, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        vmaf_model_collection_destroy(lm[i].collection);
        vmaf_model_destroy(lm[i].model);
    }
}
