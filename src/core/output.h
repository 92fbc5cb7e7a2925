#ifndef LOCKSTEP_CORE_OUTPUT_H
#define LOCKSTEP_CORE_OUTPUT_H

#include "core/collector.h"
#include "lockstep/lockstep.h"

/* pooling_and_output.md §2 */
int ls_pool(LsCollector *fc, const char *name, enum VmafPoolingMethod method, unsigned n_subsample,
            unsigned index_low, unsigned index_high, double *score);

typedef struct LsOutputInfo {
    LsCollector *fc;
    unsigned first;             /* the frames pooled: first .. first + pic_cnt - 1 (a shard's) */
    unsigned pic_cnt;
    unsigned n_subsample;
    unsigned width, height;
    const char *score_format;   /* NULL: libvmaf's %.6f / %.16f rule */
} LsOutputInfo;

/* The name a feature is shown under in reports (libvmaf's alias map). */
const char *ls_output_alias(const char *name);

/* A score as the reports write it: score_format ("%.17g"), or NULL for libvmaf's %.6f/%.16f
 * rule. Also for the CLI's HTML report, whose numbers are the JSON report's. */
void ls_format_score(char *buf, size_t len, const char *score_format, double v);

/* Whether the reports list frame i (a scored frame, not skipped by n_subsample). */
int ls_output_frame_printed(const LsOutputInfo *info, unsigned i);

int ls_write_output(const LsOutputInfo *info, const char *path, enum VmafOutputFormat fmt);

#endif
