/* What the rest of the core needs from a context (model scoring, src/core/predict.c). */
#ifndef LOCKSTEP_CORE_CONTEXT_H
#define LOCKSTEP_CORE_CONTEXT_H

#include <stdbool.h>

#include "core/collector.h"
#include "core/extractor.h"
#include "core/output.h"

LsCollector *ls_context_collector(VmafContext *ctx);
unsigned ls_context_subsample(const VmafContext *ctx);
/* Registers the CPU extractor `cpu` (or its twin on the context's backend) with the options, as
 * vmaf_use_feature does; an instance with the same output names as a registered one is dropped,
 * with a warning when warn_duplicate. */
int ls_context_use_extractor(VmafContext *ctx, const LsExtractor *cpu, const LsOptionValue *values,
                             unsigned n_values, bool warn_duplicate);
/* lockstep_set_frame_range with fewer (or, negative, more) context frames than the extractors
 * declare: for the tests that show the declared counts are needed. */
int ls_context_set_frame_range(VmafContext *ctx, unsigned first, unsigned end, int fewer_before,
                               int fewer_after);
/* Where a context stands, for the shard writer (src/core/shard.c). */
typedef struct LsShardState {
    int sharded, flushed;
    unsigned first, end;         /* the frame range asked for */
    unsigned read_first, n_read; /* the frames given: read_first .. read_first + n_read - 1 */
    unsigned n_reported;         /* frames of the range given: first .. first + n_reported - 1 */
    enum VmafPixelFormat fmt;
    unsigned bpc, w, h, n_subsample;
} LsShardState;
void ls_context_shard_state(const VmafContext *ctx, LsShardState *st);
/* The registered extractors, in order: the CPU extractor's name and the options given. */
unsigned ls_context_extractor_count(const VmafContext *ctx);
const char *ls_context_extractor(const VmafContext *ctx, unsigned i, const LsOptionValue **values,
                                 unsigned *n_values);
/* Makes a fresh context the holder of merged shards: the geometry, n_frames frames read and
 * flushed, its extractors initialised (for their aggregate callbacks), the models kept. */
int ls_context_become_merged(VmafContext *ctx, enum VmafPixelFormat fmt, unsigned bpc,
                             unsigned w, unsigned h, unsigned n_frames,
                             const LockstepShardModel *models, unsigned n_models);
/* Calls every initialised extractor's aggregate callback on fc (at flush: the collector). */
int ls_context_aggregate(VmafContext *ctx, LsCollector *fc);
/* What vmaf_write_output writes from: the collector and the frames pooled (a shard's own). */
void ls_context_output_info(VmafContext *ctx, LsOutputInfo *info);

#endif
