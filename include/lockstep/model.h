/* VMAF models: libvmaf's VmafModel and VmafModelCollection, their load flags and feature
 * overloads. Built-in models (vmaf_v0.6.1, vmaf_b_v0.6.3, ...) are the upstream JSON files
 * compiled into the library; others load from a path. Spec: shared/spec/model.md, api.md §3. */
#ifndef LOCKSTEP_MODEL_H
#define LOCKSTEP_MODEL_H

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

/* exported (lockstep.h says why) */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),      /* at load: score_clip is ignored */
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),  /* at load: score_transform turned on */
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2), /* at prediction (bootstrap internals) */
};

typedef struct VmafModelConfig {
    const char *name;   /* scores are stored and written under it; NULL: "vmaf" */
    uint64_t flags;     /* enum VmafModelFlags */
} VmafModelConfig;

/* The built-in model `version`. -EINVAL for an unknown version or a collection
 * (lockstep_last_error() says which). The caller owns *model (vmaf_model_destroy). */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg, const char *version);
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg, const char *path);
/* Merges opts_dict into the options of every model feature computed by the extractor named
 * feature_name ("adm", "vif", "motion"...); the overload wins. Consumes opts_dict except when
 * model, feature_name or opts_dict is NULL. Call before vmaf_use_features_from_model.
 * Deviation: -EINVAL when no feature of the model uses that extractor (libvmaf ignores it). */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);
void vmaf_model_destroy(VmafModel *model);

typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct {
                double lo, hi;
            } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/* A collection file (entries "0", "1", ...): *model gets entry "0" under cfg->name, the collection
 * entries "1".."N" as <name>_0001... Both are the caller's. */
int vmaf_model_collection_load(VmafModel **model, VmafModelCollection **model_collection,
                               VmafModelConfig *cfg, const char *version);
int vmaf_model_collection_load_from_path(VmafModel **model,
                                         VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg, const char *path);
/* The overload for every member (each its own copy) and then for model, which consumes opts_dict. */
int vmaf_model_collection_feature_overload(VmafModel *model,
                                           VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);
/* Frees the members; the primary model is destroyed with vmaf_model_destroy. */
void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

/* ---- lockstep additions ---- */

/* The i-th built-in model's version string (NULL past the end). */
const char *lockstep_builtin_model(unsigned i);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
