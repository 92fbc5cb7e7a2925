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

#define CLI_MAX_MODELS 32
#define CLI_MAX_OVERLOADS 32

/* --model ITEM[:ITEM...] (model.md §9) */
typedef struct CliModel {
    char buf[1025];                    /* the argument's first 1024 characters, cut into items */
    const char *version, *path, *name; /* version wins when both are given */
    uint64_t flags;                    /* enum VmafModelFlags */
    struct {
        const char *extractor, *option, *value;
    } overload[CLI_MAX_OVERLOADS];     /* EXTRACTOR.OPTION=VALUE */
    unsigned n_overloads;
} CliModel;

typedef struct CliSettings {
    const char *ref_path, *dist_path, *output_path;
    LsRawParams raw;
    bool raw_given;
    enum VmafOutputFormat fmt;
    const char *score_format;          /* NULL: libvmaf's default rule */
    CliFeature feature[CLI_MAX_FEATURES];
    unsigned n_features;
    CliModel model[CLI_MAX_MODELS];    /* vmaf_v0.6.1 when none is given and prediction is on */
    unsigned n_models;
    unsigned threads, frame_cnt, skip_ref, skip_dist, subsample;
    uint64_t cpumask, gpumask;
    enum LockstepBackend backend;
    int gpu;
    bool parity;                       /* --parity BACKEND: CPU against `backend` */
    enum LockstepBackend parity_backend;
    bool quiet, no_prediction;
    bool common_bitdepth;              /* --aom_ctc v6.0+: the lower-depth input is shifted up */
} CliSettings;

/* CLI_PARSE_RUN when s holds a run to do; otherwise the status the program exits with: 1 after a
 * usage error (its message printed), 0 after --help, --version or --list-extractors. */
#define CLI_PARSE_RUN (-1)
int cli_parse(int argc, char **argv, CliSettings *s);
/* A fresh option dictionary for the feature (vmaf_use_feature consumes it). */
int cli_feature_options(const CliFeature *f, VmafFeatureDictionary **dict);

#endif
