/* The feature collector: per-frame scores by name, in order of first write, plus clip-level
 * aggregates. Thread-safe. Spec: shared/spec/pooling_and_output.md §1. */
#ifndef LOCKSTEP_CORE_COLLECTOR_H
#define LOCKSTEP_CORE_COLLECTOR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct LsCollector LsCollector;

int ls_collector_create(LsCollector **fc);
void ls_collector_destroy(LsCollector *fc);

/* A view for a part of a video (a shard): extractors write through it at indices counted from the
 * first frame they are given, which is frame `offset` of the video; what lands outside frames
 * [first, end) of the video (the context frames a shard reads around its own) is dropped, and
 * everything else goes to `target` at the video's index. Destroy before the target. */
int ls_collector_create_view(LsCollector **view, LsCollector *target, unsigned offset,
                             unsigned first, unsigned end);

/* Writing a name twice at one index is refused (-EINVAL). */
int ls_collector_append(LsCollector *fc, const char *name, double value, unsigned index);
int ls_collector_get(LsCollector *fc, const char *name, unsigned index, double *value);
int ls_collector_set_aggregate(LsCollector *fc, const char *name, double value);
int ls_collector_get_aggregate(LsCollector *fc, const char *name, double *value);
/* Integer sums over frames, that clip-level aggregates are computed from (apsnr_*): adding is
 * exact and in any order, so shards of a video add up to the whole run's sums. `index` is the
 * frame the value belongs to (a view drops context frames). A sum never added reads 0. */
int ls_collector_add_sum(LsCollector *fc, const char *name, uint64_t value, unsigned index);
uint64_t ls_collector_sum(LsCollector *fc, const char *name);
unsigned ls_collector_sum_count(LsCollector *fc);
const char *ls_collector_sum_name(LsCollector *fc, unsigned i, uint64_t *value);
/* Seconds between the first and the last write (a merged report: set to the shards' total). */
double ls_collector_seconds(LsCollector *fc);
void ls_collector_set_seconds(LsCollector *fc, double seconds);

/* Iteration, for pooling and output. */
unsigned ls_collector_count(LsCollector *fc);
const char *ls_collector_name(LsCollector *fc, unsigned i);
unsigned ls_collector_capacity(LsCollector *fc); /* largest index written + 1 */
bool ls_collector_has(LsCollector *fc, unsigned i, unsigned index, double *value);
unsigned ls_collector_aggregate_count(LsCollector *fc);
const char *ls_collector_aggregate_name(LsCollector *fc, unsigned i, double *value);
double ls_collector_fps(LsCollector *fc, unsigned pic_cnt);

#endif
