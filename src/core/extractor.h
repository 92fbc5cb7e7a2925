/* The feature-extractor plug-in: a small const struct of callbacks and an option table, one per
 * extractor, registered in one list (registry.c). A GPU twin is another extractor whose
 * `.options` is its CPU extractor's table itself and whose `.cpu_twin` points to it. */
#ifndef LOCKSTEP_CORE_EXTRACTOR_H
#define LOCKSTEP_CORE_EXTRACTOR_H

#include <stdint.h>

#include "lockstep/lockstep.h"
#include "core/collector.h"
#include "core/options.h"
#include "core/shared.h"

enum LsExtractorFlags {
    /* keeps state across frames: extract runs on every frame, in index order, one call at a
     * time (also with --threads and --subsample) */
    LS_FEX_TEMPORAL = 1 << 0,
    /* stateful per call (e.g. a GPU stream): one call at a time, in index order; frames may
     * still be skipped by --subsample */
    LS_FEX_SERIAL = 1 << 1,
};

typedef struct LsFex LsFex;

typedef struct LsExtractor {
    const char *name;
    const LsOption *options;     /* zero-terminated; may be NULL */
    size_t priv_size;
    unsigned flags;
    enum LockstepBackend backend; /* LOCKSTEP_BACKEND_CPU for CPU extractors */
    const struct LsExtractor *cpu_twin; /* GPU twins: the CPU extractor they reproduce */
    /* CPU extractors: NULL-terminated, the names it writes by default, which a model's features
     * are resolved against (ls_extractor_providing). GPU twins leave it NULL: they write their
     * cpu_twin's names, and a model's features reach a backend through the CPU extractor. */
    const char *const *provided_features;

    /* Geometry of the first picture is fixed for the run. Refuse input it cannot score
     * with ls_fex_error() and -EINVAL. */
    int (*init)(LsFex *fex, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h);
    /* Without LS_FEX_TEMPORAL/LS_FEX_SERIAL, extract is called concurrently for different
     * indices: priv is read-only there, scratch memory is per call. */
    int (*extract)(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist, unsigned index,
                   LsCollector *fc);
    int (*flush)(LsFex *fex, LsCollector *fc);     /* optional: end of stream */
    /* Optional (GPU twins, which collect a frame's scores a few frames later): writes the scores
     * of every frame still in flight now. The context calls it after the first frame a run
     * reports, so that frame's names go into the collector in registration order, as the CPU
     * extractors write them; the report's order of names is then the CPU's also for runs and
     * shards shorter than the frames in flight, or whose context frames run only the temporal
     * twins. */
    int (*drain)(LsFex *fex, LsCollector *fc);
    void (*close)(LsFex *fex);                     /* optional */
    /* Optional: clip-level aggregates (ls_collector_set_aggregate) computed from the collector's
     * sums (ls_collector_sum) alone, after every flush. Merging shards calls it on an instance
     * that saw no frame, with the sums of all the shards: it must read nothing but its options
     * and init's geometry besides fc. */
    int (*aggregate)(LsFex *fex, LsCollector *fc);
    /* TEMPORAL extractors: how many frames before and after a frame its scores depend on, from
     * the options alone (called before init; GPU twins use their CPU extractor's, the options
     * leading priv in both). A shard of a video (lockstep_set_frame_range) gives its temporal
     * extractors these frames around its own as context, numbered from 0 as if the video began
     * at the first of them; so the count must cover what index 0 and the last frame of a stream
     * do differently. NULL: the extractor cannot score a part of a video. */
    void (*frames_around)(const LsFex *fex, unsigned *before, unsigned *after);

    /* GPU twins that upload asynchronously may keep up to this many frames referenced
     * (ls_picture_ref) after extract returns; picture pools are sized with it. */
    unsigned frames_held;
    /* Optional, after init: one call per block of host memory that the context's picture pool
     * hands out, so a twin can pin it once and upload pool pictures without a staging copy.
     * The block stays valid until after close. A failure only costs that shortcut. */
    int (*use_host_memory)(LsFex *fex, void *ptr, size_t size);
    /* Optional: where a reader may send packed frames straight to the device
     * (core/upload_sink.h), once the twin is ready to take them; NULL until then, or if not. */
    struct LsUploadSink *(*upload_sink)(LsFex *fex);
    /* GPU twins: the backend's description of the twin (CUDA: LsCudaTwinDesc), read by the
     * backend's shared host skeleton. */
    const void *backend_desc;
} LsExtractor;

struct LsFex {
    const LsExtractor *ex;
    void *priv;                  /* priv_size bytes, zeroed, options filled in before init */
    uint64_t cpu_flags;          /* usable SIMD levels after --cpumask */
    int gpu_index;               /* device chosen with --gpu */
    char instance_name[256];     /* extractor name with its FEATURE_PARAM suffix */
    LsShared *shared;            /* objects shared by the extractors of the context */
    /* Set by init: how many planes extract reads (1: luma only). 0 = every plane. Readers skip
     * the planes no extractor reads (lockstep_planes_read), so a wrong 1 makes stale chroma. */
    unsigned n_planes_read;
};

/* Records an error for the caller (shown by the CLI); returns -EINVAL for convenience. */
int ls_fex_error(const LsFex *fex, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The output name for one of the extractor's provided features (options.md §5).
 * alias: the short output alias of base, or NULL when it has none. */
void ls_fex_feature_name(const LsFex *fex, char *out, size_t out_len, const char *base,
                         const char *alias);

#endif
