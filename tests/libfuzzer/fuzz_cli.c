/* The CLI's argument parsers: the input is argv, its NUL-separated strings after "lockstep".
 * Options that take values, presets, repeated and conflicting options, --frame_range and the
 * shard settings it records, and the feature option strings of the settings it accepts
 * (cli_feature_options). Every argv goes through the parser twice, as a run of files and as a
 * run of frames given by the caller (lockstep_run_open_frames, which refuses what only files
 * have); an argv starting with "merge" goes to `lockstep merge`'s parser, as main() sends it. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "fuzz.h"

#define MAX_ARGS 64

static void parse_run(int argc, char **argv, bool pictures)
{
    CliSettings *s = malloc(sizeof(*s));
    char err[1400];
    optind = 0; /* glibc: getopt starts afresh */
    if (s && cli_parse(argc, argv, s, pictures, err, sizeof(err)) == CLI_PARSE_OK) {
        for (unsigned i = 0; i < s->n_features; i++) {
            VmafFeatureDictionary *d;
            if (!cli_feature_options(&s->feature[i], &d))
                vmaf_feature_dictionary_free(&d);
        }
        char settings[8192];
        cli_shard_settings(s, settings, sizeof(settings));
    }
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2], *block;
    argv[0] = "lockstep";
    const int argc = 1 + (int)fuzz_split(data, size, argv + 1, MAX_ARGS, &block);
    argv[argc] = NULL;
    if (argc > 1 && !strcmp(argv[1], "merge")) {
        CliMergeSettings m;
        char err[1400];
        optind = 0;
        cli_parse_merge(argc - 1, argv + 1, &m, err, sizeof(err));
    } else {
        parse_run(argc, argv, false);
        parse_run(argc, argv, true);
    }
    free(block);
    return 0;
}
