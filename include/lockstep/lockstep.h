/* lockstep: video quality metrics with the same bits on every backend.
 * The call sequence and names follow libvmaf (init, use feature, read pictures, flush,
 * score at index / pooled, write output, close). */
#ifndef LOCKSTEP_LOCKSTEP_H
#define LOCKSTEP_LOCKSTEP_H

#include <stddef.h>
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
/* A free pool picture (reference count 1; back to the pool at its last unref); waits for one
 * while frames are in flight. Temporal extractors and GPU twins keep pictures referenced between
 * calls (libvmaf's copy what they keep): from a pool smaller than 2 * (lockstep_max_frames_held
 * + 1) pictures, a fetch that finds none free while no frame is in flight returns a picture
 * allocated beside the pool (as vmaf_picture_alloc) rather than wait forever. */
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
/* 1 when the context has extractors and every one runs on a twin of `backend` (none fell back
 * to the CPU: decided as each is registered); else 0. A CUDA-only run may then be given
 * pictures that only its twins can read (the CLI's 10-bit packed frames). */
int lockstep_all_on_backend(VmafContext *vmaf, enum LockstepBackend backend);
/* The score format of a precision: "1".."17" -> "%.<N>g", "max" or "full" -> "%.17g" (round-trip
 * exact), "legacy" -> "%.6f"; NULL for anything else. */
const char *lockstep_precision_format(const char *precision);
/* Aggregate metrics (apsnr_*) written at flush. -EINVAL when absent. */
int lockstep_aggregate_score(VmafContext *vmaf, const char *name, double *score);
/* What a report of the context holds, for programs that read the scores rather than a file:
 * the frames its per-frame part lists, in order (writes the first max of them into frames, which
 * may be NULL, and returns how many there are), and the pooled score it writes for a feature
 * (the frames pooled as the report pools them: a shard's, a merged video's; -EINVAL when it
 * writes none). */
unsigned lockstep_report_frames(VmafContext *vmaf, unsigned *frames, unsigned max);
int lockstep_report_pooled(VmafContext *vmaf, const char *name, enum VmafPoolingMethod method,
                           double *score);
/* The i-th aggregate metric's name, in the order reports write them (NULL past the end). */
const char *lockstep_aggregate_name(VmafContext *vmaf, unsigned i);

/* ---- shards: a part of a video scored as in the whole run, and merging the parts ---- */

/* Scores frames [first, end) of the video only, each exactly as a run over the whole video
 * scores it: call after the features are registered, before the first picture. Temporal
 * features need frames around the range too: give the pictures of lockstep_frames_to_read's
 * frames, in order, with their frame numbers in the video as index (frame 0 is the video's
 * first); the context scores them but keeps no score of them. Scores, pooled scores, model
 * scores and reports then cover [first, end) (and less where the video ends before). */
int lockstep_set_frame_range(VmafContext *vmaf, unsigned first, unsigned end);
/* The frames to give, [first, end) (end may lie past the video's end: stop there); without a
 * frame range 0 and UINT_MAX. */
int lockstep_frames_to_read(VmafContext *vmaf, unsigned *first, unsigned *end);

typedef struct LockstepShardModel {
    const char *label;  /* how its pooled score is printed ("vmaf_v0.6.1", a path) */
    const char *name;   /* the name its scores are stored under (VmafModelConfig.name) */
    int collection;     /* a bootstrap collection: name_bagging, _stddev, _ci_p95_lo, _ci_p95_hi */
} LockstepShardModel;

typedef struct LockstepShardInfo {
    /* what the caller scored with beyond the extractors and options that the report records
     * itself (models, frame skips...): merging refuses shards whose settings differ */
    const char *settings;
    /* the inputs, as lockstep_file_identity gives them: merging refuses other inputs */
    const char *reference, *distorted;
    /* the video has no frame after the last one of the range given: it ends in the range (the
     * last shard of a video says so, merging checks that one does) */
    int input_ended;
    const LockstepShardModel *models; /* the models scored, in the order they are printed */
    unsigned n_models;
} LockstepShardInfo;

/* Writes the shard report of a context with a frame range, after the flush and the model scores
 * (vmaf_score_pooled over the range): JSON holding every score exactly, the sums the aggregate
 * metrics come from, the extractors and options, the settings and the inputs. */
int lockstep_write_shard(VmafContext *vmaf, const char *path, const LockstepShardInfo *info);
/* Merges the shard reports of one video (any order) into a context holding what one run over
 * the whole video holds: per-frame scores, model scores, pooled scores (vmaf_feature_score_pooled
 * over 0 .. lockstep_frame_count - 1), aggregates, vmaf_write_output*, then vmaf_close. Refuses
 * shards that overlap, leave a gap, miss the first or the last frames, or come from other
 * inputs, settings, extractors or versions, saying which (lockstep_last_error). */
int lockstep_merge_shards(VmafContext **merged, const char *const *paths, unsigned n_paths);
/* The frames a context was given (a merged one: the whole video's). */
unsigned lockstep_frame_count(VmafContext *vmaf);
/* A merged context's models, as the shards list them. */
unsigned lockstep_model_count(VmafContext *vmaf);
int lockstep_model_info(VmafContext *vmaf, unsigned i, LockstepShardModel *model);
/* An input's identity for shard reports: its file name, size and a hash of its first MiB
 * ("-" gives "stdin"). */
int lockstep_file_identity(const char *path, char *out, size_t out_len);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
