/* VMAF models inside the library: the parsed JSON (model.md §2), the names a model reads its
 * features under (§3.3), and prediction split into its steps so that bootstrap collections and
 * tests reuse them (§5, §6). */
#ifndef LOCKSTEP_CORE_MODEL_H
#define LOCKSTEP_CORE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/extractor.h"
#include "core/svm.h"
#include "lockstep/model.h"

#define LS_MODEL_MAX_FEATURES 64
#define LS_MODEL_MAX_KNOTS 10

enum LsModelType {
    LS_MODEL_SVM_NUSVR = 1,
    LS_MODEL_BOOTSTRAP_SVM_NUSVR,
    LS_MODEL_RESIDUE_BOOTSTRAP_SVM_NUSVR,
};

enum LsModelNorm {
    LS_MODEL_NORM_NONE = 1,
    LS_MODEL_NORM_LINEAR_RESCALE,
};

typedef struct LsModelFeature {
    char *name;                  /* as in feature_names, e.g. VMAF_integer_feature_adm2_score */
    double slope, intercept;
    VmafFeatureDictionary *opts; /* NULL when the model gives none */
    char *key;                   /* the collector name it is read under; NULL until first needed */
} LsModelFeature;

typedef struct LsScoreTransform {
    bool enabled;
    bool has_p[3];
    double p[3];
    bool has_knots;
    unsigned n_knots;
    double knot_x[LS_MODEL_MAX_KNOTS], knot_y[LS_MODEL_MAX_KNOTS];
    bool out_lte_in, out_gte_in;
} LsScoreTransform;

struct VmafModel {
    char *name;                  /* scores are stored under it */
    char *source;                /* the version or path it came from, for messages */
    enum LsModelType type;
    enum LsModelNorm norm;
    double slope, intercept;     /* of the prediction: slopes[0], intercepts[0] */
    LsModelFeature feature[LS_MODEL_MAX_FEATURES];
    unsigned n_features;
    bool clip;
    double clip_min, clip_max;
    LsScoreTransform transform;
    bool chroma_correction;
    double chroma_parameter;
    unsigned chroma_guiding, chroma_guided; /* the adm3 and speed_chroma features */
    LsSvm *svm;
};

struct VmafModelCollection {
    VmafModel **model;           /* entries "1".."N" of the file */
    unsigned cnt;
    char *name;
    enum LsModelType type;
};

typedef struct LsBuiltinModel {
    const char *version;
    const char *json;
    size_t len;
} LsBuiltinModel;

/* Generated from the JSON files of models/ at build time (cmake/embed_models.cmake). */
extern const LsBuiltinModel ls_builtin_models[];
extern const char ls_builtin_models_license[];

/* The collector name that feature k is read under: its name with the suffix of its options
 * (options.md §5). Without an extractor in this build the name is used as it is when the feature
 * has no options, so imported values can still be scored; with options it is an error. */
int ls_model_feature_key(VmafModel *model, unsigned k, const char **key);

/* §5.1–5.3 and the denormalisation of §5.4: raw[k] is the value of feature k. */
void ls_model_predict_raw(const VmafModel *model, const double *raw, double *prediction);
/* §5.4: transform and clip, as the model was loaded and as `flags` further restrict. */
double ls_model_transform_clip(const VmafModel *model, double prediction, uint64_t flags);
/* §6 from the members' untransformed, unclipped predictions (reordered in place). */
void ls_bootstrap_summary(const VmafModel *first_member, double *u, unsigned n,
                          VmafModelCollectionScore *score);

/* Whole predictions from feature values, without a context (tests, other front ends). The
 * collection form reads every member's features from `raw` (they must all have the primary's
 * feature list) and fills member_scores[cnt] with the stored per-member scores. */
int ls_model_predict_values(const VmafModel *model, const double *raw, uint64_t flags,
                            double *score);
int ls_model_collection_predict_values(const VmafModelCollection *collection, const double *raw,
                                       double *member_scores, VmafModelCollectionScore *score);

#endif
