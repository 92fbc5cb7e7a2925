#ifndef LOCKSTEP_TOOLS_CLI_PARSE_H
#define LOCKSTEP_TOOLS_CLI_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "input/input.h"
#include "lockstep/lockstep.h"

#define CLI_MAX_FEATURES 32

typedef struct CliFeature {
    const char *arg;   /* as given: NAME[=opt=val[:opt=val...]] */
    char name[128];
} CliFeature;

typedef struct CliSettings {
    const char *ref_path, *dist_path, *output_path;
    LsRawParams raw;
    bool raw_given;
    enum VmafOutputFormat fmt;
    const char *score_format;          /* NULL: libvmaf's default rule */
    CliFeature feature[CLI_MAX_FEATURES];
    unsigned n_features;
    unsigned threads, frame_cnt, skip_ref, skip_dist, subsample;
    uint64_t cpumask, gpumask;
    enum LockstepBackend backend;
    int gpu;
    bool parity;                       /* --parity BACKEND: CPU against `backend` */
    enum LockstepBackend parity_backend;
    bool quiet, no_prediction;
} CliSettings;

/* Exits with status 1 and a message on usage errors; --help and --version exit 0. */
void cli_parse(int argc, char **argv, CliSettings *s);
/* A fresh option dictionary for the feature (vmaf_use_feature consumes it). */
int cli_feature_options(const CliFeature *f, VmafFeatureDictionary **dict);

#endif
