/* What the rest of the core needs from a context (model scoring, src/core/predict.c). */
#ifndef LOCKSTEP_CORE_CONTEXT_H
#define LOCKSTEP_CORE_CONTEXT_H

#include <stdbool.h>

#include "core/collector.h"
#include "core/extractor.h"

LsCollector *ls_context_collector(VmafContext *ctx);
unsigned ls_context_subsample(const VmafContext *ctx);
/* Registers the CPU extractor `cpu` (or its twin on the context's backend) with the options, as
 * vmaf_use_feature does; an instance with the same output names as a registered one is dropped,
 * with a warning when warn_duplicate. */
int ls_context_use_extractor(VmafContext *ctx, const LsExtractor *cpu, const LsOptionValue *values,
                             unsigned n_values, bool warn_duplicate);

#endif
