/* lockstep: video quality metrics with the same bits on every backend.
 * The call sequence and names follow libvmaf (init, use feature, read pictures, flush,
 * score at index / pooled, write output, close). */
#ifndef LOCKSTEP_LOCKSTEP_H
#define LOCKSTEP_LOCKSTEP_H

#include <stdint.h>

#include "feature.h"
#include "model.h"
#include "picture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared in the public headers is the library's ABI: exported from the shared
 * library, which builds everything else hidden (-fvisibility=hidden). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB,
};

typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;   /* bits disable SIMD levels (bit 3: AVX2) */
    uint64_t gpumask;   /* non-zero: no GPU extractors */
} VmafConfiguration;

typedef struct VmafContext VmafContext;

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name, VmafFeatureDictionary *opts_dict);
/* One extractor instance per model feature, with the feature's options; instances with the same
 * extractor and output names are shared (first registration wins). -EINVAL when no extractor of
 * this build provides a feature. The model must outlive the context's scoring calls. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);
int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name, double value,
                              unsigned index);
int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg);
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);
/* ref = dist = NULL flushes. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist, unsigned index);
int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name, double *score,
                                unsigned index);
int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);
/* The model's score at index: the stored one, else predicted from the features at index and
 * stored under the model's name (which is how reports show it). */
int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score, unsigned index);
/* Predicts every index of [index_low, index_high] not skipped by n_subsample, then pools. */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model, enum VmafPoolingMethod pool_method,
                      double *score, unsigned index_low, unsigned index_high);
/* Predicts the members and the bootstrap summary at index and stores them (<name>_0001...,
 * <name>_bagging, _stddev, _ci_p95_lo, _ci_p95_hi): once per index, stores are final. */
int vmaf_score_at_index_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score, unsigned index);
/* Predicts the collection at every non-skipped index of the interval (so: once per context),
 * then pools the four summary series. */
int vmaf_score_pooled_model_collection(VmafContext *vmaf, VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score, unsigned index_low,
                                       unsigned index_high);
/* Scores are written with libvmaf's %.6f/%.16f rule, or as the environment variable
 * LOCKSTEP_PRECISION says (lockstep_precision_format's grammar: LOCKSTEP_PRECISION=max makes
 * every value round-trip exact, for programs that cannot pass a format). */
int vmaf_write_output(VmafContext *vmaf, const char *output_path, enum VmafOutputFormat fmt);
/* score_format: a printf format for one double ("%.17g"); NULL = as vmaf_write_output. */
int vmaf_write_output_with_format(VmafContext *vmaf, const char *output_path,
                                  enum VmafOutputFormat fmt, const char *score_format);
int vmaf_close(VmafContext *vmaf);
const char *vmaf_version(void);

/* ---- lockstep additions ---- */

enum LockstepBackend {
    LOCKSTEP_BACKEND_AUTO = 0, /* a GPU twin where one is built and a device answers, else CPU */
    LOCKSTEP_BACKEND_CPU,
    LOCKSTEP_BACKEND_CUDA,
    LOCKSTEP_BACKEND_OPENCL,
};

/* Chooses the backend for the extractors registered after this call. device: index of the GPU.
 * Returns -ENODEV (with a logged reason) when the backend is not built or has no such device. */
int lockstep_use_backend(VmafContext *vmaf, enum LockstepBackend backend, int device);
/* Name of the backend ("cpu", "cuda", "opencl") that runs the extractor registered as `name`. */
const char *lockstep_backend_name(enum LockstepBackend backend);
/* Last error message recorded by the library (thread-local), "" when none. */
const char *lockstep_last_error(void);
/* The number of feature names in the collector, and the i-th one (as written, before aliasing). */
unsigned lockstep_feature_count(VmafContext *vmaf);
const char *lockstep_feature_name(VmafContext *vmaf, unsigned i);
/* The name that reports show a feature under (libvmaf's aliases: "integer_vif_scale0" for
 * "VMAF_integer_feature_vif_scale0_score"); the name itself when it has no alias. */
const char *lockstep_output_name(const char *name);
/* How many frames the context may keep referenced after vmaf_read_pictures returns (worker
 * threads still scoring them, GPU uploads in flight), once its features are registered: size
 * picture pools with it. */
unsigned lockstep_max_frames_held(VmafContext *vmaf);
/* The i-th extractor built in (NULL past the end), and the backend it runs on. */
const char *lockstep_extractor_name(unsigned i, enum LockstepBackend *backend);
/* How many planes of each picture the registered extractors read (1: luma only, up to 3), known
 * once the first picture has been read (0 before): a reader may leave the other planes unread. */
unsigned lockstep_planes_read(VmafContext *vmaf);
/* The score format of a precision: "1".."17" -> "%.<N>g", "max" or "full" -> "%.17g" (round-trip
 * exact), "legacy" -> "%.6f"; NULL for anything else. */
const char *lockstep_precision_format(const char *precision);
/* Aggregate metrics (apsnr_*) written at flush. -EINVAL when absent. */
int lockstep_aggregate_score(VmafContext *vmaf, const char *name, double *score);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
