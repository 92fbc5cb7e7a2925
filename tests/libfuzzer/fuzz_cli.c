/* The CLI's argument parser: the input is argv, its NUL-separated strings after "lockstep".
 * Options that take values, presets, repeated and conflicting options, and the feature option
 * strings of the settings it accepts (cli_feature_options). */
#include <getopt.h>
#include <stdlib.h>

#include "cli_parse.h"
#include "fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2], *block;
    argv[0] = "lockstep";
    const int argc = 1 + (int)fuzz_split(data, size, argv + 1, MAX_ARGS, &block);
    argv[argc] = NULL;
    optind = 0; /* glibc: getopt starts afresh */
    CliSettings *s = malloc(sizeof(*s));
    if (s && cli_parse(argc, argv, s) == CLI_PARSE_RUN) {
        for (unsigned i = 0; i < s->n_features; i++) {
            VmafFeatureDictionary *d;
            if (!cli_feature_options(&s->feature[i], &d))
                vmaf_feature_dictionary_free(&d);
        }
    }
    free(s);
    free(block);
    return 0;
}
