/* The feature collector: per-frame scores by name, in order of first write, plus clip-level
 * aggregates. Thread-safe. Spec: shared/spec/pooling_and_output.md §1. */
#ifndef LOCKSTEP_CORE_COLLECTOR_H
#define LOCKSTEP_CORE_COLLECTOR_H

#include <stdbool.h>

typedef struct LsCollector LsCollector;

int ls_collector_create(LsCollector **fc);
void ls_collector_destroy(LsCollector *fc);

/* Writing a name twice at one index is refused (-EINVAL). */
int ls_collector_append(LsCollector *fc, const char *name, double value, unsigned index);
int ls_collector_get(LsCollector *fc, const char *name, unsigned index, double *value);
int ls_collector_set_aggregate(LsCollector *fc, const char *name, double value);
int ls_collector_get_aggregate(LsCollector *fc, const char *name, double *value);

/* Iteration, for pooling and output. */
unsigned ls_collector_count(LsCollector *fc);
const char *ls_collector_name(LsCollector *fc, unsigned i);
unsigned ls_collector_capacity(LsCollector *fc); /* largest index written + 1 */
bool ls_collector_has(LsCollector *fc, unsigned i, unsigned index, double *value);
unsigned ls_collector_aggregate_count(LsCollector *fc);
const char *ls_collector_aggregate_name(LsCollector *fc, unsigned i, double *value);
double ls_collector_fps(LsCollector *fc, unsigned pic_cnt);

#endif
