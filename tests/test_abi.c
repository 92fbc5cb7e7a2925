/* ABI: the public structs and enums have libvmaf 3's layout (shared/spec/api.md), so that a
 * program compiled against libvmaf's headers runs on lockstep's library. libvmaf's definitions
 * are written out here under other names (Lv*), and each of ours is checked against them field
 * by field: offset, size, and every enum value. Compiled in C, the checks are static; the program
 * prints what it compared. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libvmaf/libvmaf.h"
#include "libvmaf/version.h"

/* ---- libvmaf 3 (api.md §1-§4) ---- */
enum LvPixelFormat { LV_PIX_FMT_UNKNOWN, LV_PIX_FMT_YUV420P, LV_PIX_FMT_YUV422P, LV_PIX_FMT_YUV444P,
                     LV_PIX_FMT_YUV400P };
typedef struct LvPicture {
    enum LvPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    void *ref;
    void *priv;
} LvPicture;
enum LvModelFlags { LV_MODEL_FLAGS_DEFAULT = 0, LV_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
                    LV_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1), LV_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2) };
typedef struct LvModelConfig {
    const char *name;
    uint64_t flags;
} LvModelConfig;
enum LvModelCollectionScoreType { LV_MODEL_COLLECTION_SCORE_UNKNOWN = 0, LV_MODEL_COLLECTION_SCORE_BOOTSTRAP };
typedef struct LvModelCollectionScore {
    enum LvModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct {
                double lo, hi;
            } p95;
        } ci;
    } bootstrap;
} LvModelCollectionScore;
enum LvLogLevel { LV_LOG_LEVEL_NONE = 0, LV_LOG_LEVEL_ERROR, LV_LOG_LEVEL_WARNING, LV_LOG_LEVEL_INFO,
                  LV_LOG_LEVEL_DEBUG };
enum LvOutputFormat { LV_OUTPUT_FORMAT_NONE = 0, LV_OUTPUT_FORMAT_XML, LV_OUTPUT_FORMAT_JSON,
                      LV_OUTPUT_FORMAT_CSV, LV_OUTPUT_FORMAT_SUB };
enum LvPoolingMethod { LV_POOL_METHOD_UNKNOWN = 0, LV_POOL_METHOD_MIN, LV_POOL_METHOD_MAX,
                       LV_POOL_METHOD_MEAN, LV_POOL_METHOD_HARMONIC_MEAN, LV_POOL_METHOD_NB };
typedef struct LvConfiguration {
    enum LvLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;
    uint64_t gpumask;
} LvConfiguration;
typedef struct LvPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum LvPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} LvPictureConfiguration;

static unsigned checked;

#define SAME_TYPE_SIZE(ours, theirs)                                                               \
    _Static_assert(sizeof(ours) == sizeof(theirs), #ours ": size differs from libvmaf's");        \
    _Static_assert(_Alignof(ours) == _Alignof(theirs), #ours ": alignment differs from libvmaf's")
#define SAME_FIELD(ours, theirs, field)                                                            \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field),                               \
                   #ours "." #field ": offset differs from libvmaf's");                           \
    _Static_assert(sizeof(((ours *)0)->field) == sizeof(((theirs *)0)->field),                     \
                   #ours "." #field ": size differs from libvmaf's")
#define SAME_VALUE(ours, theirs) _Static_assert((long long)(ours) == (long long)(theirs), #ours)

SAME_TYPE_SIZE(enum VmafPixelFormat, enum LvPixelFormat);
SAME_VALUE(VMAF_PIX_FMT_UNKNOWN, LV_PIX_FMT_UNKNOWN);
SAME_VALUE(VMAF_PIX_FMT_YUV420P, LV_PIX_FMT_YUV420P);
SAME_VALUE(VMAF_PIX_FMT_YUV422P, LV_PIX_FMT_YUV422P);
SAME_VALUE(VMAF_PIX_FMT_YUV444P, LV_PIX_FMT_YUV444P);
SAME_VALUE(VMAF_PIX_FMT_YUV400P, LV_PIX_FMT_YUV400P);

SAME_TYPE_SIZE(VmafPicture, LvPicture);
SAME_FIELD(VmafPicture, LvPicture, pix_fmt);
SAME_FIELD(VmafPicture, LvPicture, bpc);
SAME_FIELD(VmafPicture, LvPicture, w);
SAME_FIELD(VmafPicture, LvPicture, h);
SAME_FIELD(VmafPicture, LvPicture, stride);
SAME_FIELD(VmafPicture, LvPicture, data);
SAME_FIELD(VmafPicture, LvPicture, ref);
SAME_FIELD(VmafPicture, LvPicture, priv);

SAME_VALUE(VMAF_MODEL_FLAGS_DEFAULT, LV_MODEL_FLAGS_DEFAULT);
SAME_VALUE(VMAF_MODEL_FLAG_DISABLE_CLIP, LV_MODEL_FLAG_DISABLE_CLIP);
SAME_VALUE(VMAF_MODEL_FLAG_ENABLE_TRANSFORM, LV_MODEL_FLAG_ENABLE_TRANSFORM);
SAME_VALUE(VMAF_MODEL_FLAG_DISABLE_TRANSFORM, LV_MODEL_FLAG_DISABLE_TRANSFORM);
SAME_TYPE_SIZE(VmafModelConfig, LvModelConfig);
SAME_FIELD(VmafModelConfig, LvModelConfig, name);
SAME_FIELD(VmafModelConfig, LvModelConfig, flags);

SAME_VALUE(VMAF_MODEL_COLLECTION_SCORE_UNKNOWN, LV_MODEL_COLLECTION_SCORE_UNKNOWN);
SAME_VALUE(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP, LV_MODEL_COLLECTION_SCORE_BOOTSTRAP);
SAME_TYPE_SIZE(VmafModelCollectionScore, LvModelCollectionScore);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, type);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, bootstrap);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, bootstrap.bagging_score);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, bootstrap.stddev);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, bootstrap.ci.p95.lo);
SAME_FIELD(VmafModelCollectionScore, LvModelCollectionScore, bootstrap.ci.p95.hi);

SAME_TYPE_SIZE(enum VmafLogLevel, enum LvLogLevel);
SAME_VALUE(VMAF_LOG_LEVEL_NONE, LV_LOG_LEVEL_NONE);
SAME_VALUE(VMAF_LOG_LEVEL_ERROR, LV_LOG_LEVEL_ERROR);
SAME_VALUE(VMAF_LOG_LEVEL_WARNING, LV_LOG_LEVEL_WARNING);
SAME_VALUE(VMAF_LOG_LEVEL_INFO, LV_LOG_LEVEL_INFO);
SAME_VALUE(VMAF_LOG_LEVEL_DEBUG, LV_LOG_LEVEL_DEBUG);
SAME_VALUE(VMAF_OUTPUT_FORMAT_NONE, LV_OUTPUT_FORMAT_NONE);
SAME_VALUE(VMAF_OUTPUT_FORMAT_XML, LV_OUTPUT_FORMAT_XML);
SAME_VALUE(VMAF_OUTPUT_FORMAT_JSON, LV_OUTPUT_FORMAT_JSON);
SAME_VALUE(VMAF_OUTPUT_FORMAT_CSV, LV_OUTPUT_FORMAT_CSV);
SAME_VALUE(VMAF_OUTPUT_FORMAT_SUB, LV_OUTPUT_FORMAT_SUB);
SAME_VALUE(VMAF_POOL_METHOD_UNKNOWN, LV_POOL_METHOD_UNKNOWN);
SAME_VALUE(VMAF_POOL_METHOD_MIN, LV_POOL_METHOD_MIN);
SAME_VALUE(VMAF_POOL_METHOD_MAX, LV_POOL_METHOD_MAX);
SAME_VALUE(VMAF_POOL_METHOD_MEAN, LV_POOL_METHOD_MEAN);
SAME_VALUE(VMAF_POOL_METHOD_HARMONIC_MEAN, LV_POOL_METHOD_HARMONIC_MEAN);
SAME_VALUE(VMAF_POOL_METHOD_NB, LV_POOL_METHOD_NB);

SAME_TYPE_SIZE(VmafConfiguration, LvConfiguration);
SAME_FIELD(VmafConfiguration, LvConfiguration, log_level);
SAME_FIELD(VmafConfiguration, LvConfiguration, n_threads);
SAME_FIELD(VmafConfiguration, LvConfiguration, n_subsample);
SAME_FIELD(VmafConfiguration, LvConfiguration, cpumask);
SAME_FIELD(VmafConfiguration, LvConfiguration, gpumask);

SAME_TYPE_SIZE(VmafPictureConfiguration, LvPictureConfiguration);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_params);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_params.w);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_params.h);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_params.bpc);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_params.pix_fmt);
SAME_FIELD(VmafPictureConfiguration, LvPictureConfiguration, pic_cnt);

SAME_VALUE(VMAF_API_VERSION_MAJOR, 3);

/* The functions' types, as libvmaf declares them: assigning each to a pointer of libvmaf's
 * signature fails to compile when ours differs. */
static int (*const init)(VmafContext **, VmafConfiguration) = vmaf_init;
static int (*const use_feature)(VmafContext *, const char *, VmafFeatureDictionary *) = vmaf_use_feature;
static int (*const read_pictures)(VmafContext *, VmafPicture *, VmafPicture *, unsigned) = vmaf_read_pictures;
static int (*const score_pooled)(VmafContext *, VmafModel *, enum VmafPoolingMethod, double *, unsigned,
                                 unsigned) = vmaf_score_pooled;
static int (*const model_load)(VmafModel **, VmafModelConfig *, const char *) = vmaf_model_load;
static int (*const collection_load)(VmafModel **, VmafModelCollection **, VmafModelConfig *,
                                    const char *) = vmaf_model_collection_load;
static int (*const picture_alloc)(VmafPicture *, enum VmafPixelFormat, unsigned, unsigned,
                                  unsigned) = vmaf_picture_alloc;
static const char *(*const version)(void) = vmaf_version;

int main(void)
{
    /* the sizes as compared above, for the log */
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {
        { "VmafPicture", sizeof(VmafPicture) },
        { "VmafConfiguration", sizeof(VmafConfiguration) },
        { "VmafModelConfig", sizeof(VmafModelConfig) },
        { "VmafModelCollectionScore", sizeof(VmafModelCollectionScore) },
        { "VmafPictureConfiguration", sizeof(VmafPictureConfiguration) },
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, checked++)
        printf("%-26s %zu bytes, as libvmaf 3\n", sizes[i].name, sizes[i].size);
    const int linked = init && use_feature && read_pictures && score_pooled && model_load &&
                       collection_load && picture_alloc && version;
    printf("%u structs, every field and enum value as libvmaf 3 (checked at compile time); "
           "function types: %s\n", checked, linked ? "as libvmaf 3" : "missing");
    return linked ? 0 : 1;
}
