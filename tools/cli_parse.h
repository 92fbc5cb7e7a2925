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
    const char *arg;                   /* as given */
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
    const char *html_path;             /* --html: the page of the run (report_html.h) */
    LsRawParams raw;
    bool raw_given;
    enum VmafOutputFormat fmt;
    bool fmt_given;
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
    bool sharded;                      /* --frame_range FIRST:END */
    unsigned range_first, range_end;
} CliSettings;

/* lockstep merge SHARD.json... */
typedef struct CliMergeSettings {
    const char *const *shards;
    unsigned n_shards;
    const char *output_path;
    enum VmafOutputFormat fmt;
    const char *score_format;
    bool quiet;
} CliMergeSettings;

enum {
    CLI_PARSE_OK = 0,
    CLI_PARSE_ERROR = 1,  /* a usage error, described in err (the CLI's exit status 1) */
    CLI_PARSE_DONE = 2,   /* --help, --version, --list-extractors: printed, nothing to score */
};

/* The settings point into argv, which must outlive them. pictures: the frames are given by the
 * caller, not read from -r/-d (which are refused then, as what only files have). Not reentrant:
 * one parse at a time. */
int cli_parse(int argc, char **argv, CliSettings *s, bool pictures, char *err, size_t err_len);
/* argv[0] is "merge"; returns as cli_parse does. */
int cli_parse_merge(int argc, char **argv, CliMergeSettings *m, char *err, size_t err_len);
/* The settings a shard report records (lockstep_write_shard): every flag that changes a score
 * or which frames are scored, in a fixed order. */
void cli_shard_settings(const CliSettings *s, char *buf, size_t len);
/* A fresh option dictionary for the feature (vmaf_use_feature consumes it). */
int cli_feature_options(const CliFeature *f, VmafFeatureDictionary **dict);

#endif
