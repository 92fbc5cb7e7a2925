/* The --model argument: ITEM[:ITEM...] parsed by the CLI, then loaded as the CLI loads it
 * (built-in versions; path= items get a small model of the motion features) with its
 * EXTRACTOR.OPTION=VALUE overloads, and its features registered on a context. Up to four -m
 * arguments, NUL-separated. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_models.h"
#include "cli_parse.h"
#include "fuzz.h"

static const char motion_model[] =
    "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"linear_rescale\", "
    "\"score_clip\": [0.0, 100.0], \"feature_names\": [\"VMAF_integer_feature_motion2_score\", "
    "\"VMAF_feature_motion2_score\"], \"slopes\": [0.001, 0.1, 0.05], \"intercepts\": [-0.3, "
    "0.01, 0.02], \"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\n"
    "total_sv 2\\nrho 2.67\\nSV\\n4 1:0.65 2:0.34 \\n-4 2:0.49 \\n\"}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char model_path[64];
    if (!model_path[0])
        fuzz_file((const uint8_t *)motion_model, sizeof(motion_model) - 1, model_path);

    char *items[4], *block;
    const unsigned n = fuzz_split(data, size, items, 4, &block);
    char *argv[16] = { "lockstep", "-r", "ref.y4m", "-d", "dis.y4m" };
    int argc = 5;
    for (unsigned i = 0; i < n; i++) {
        argv[argc++] = "-m";
        argv[argc++] = items[i];
    }
    argv[argc] = NULL;
    optind = 0; /* glibc: getopt starts afresh */
    CliSettings *s = malloc(sizeof(*s));
    CliLoadedModel lm[CLI_MAX_MODELS];
    memset(lm, 0, sizeof(lm));
    char err[1400];
    if (s && cli_parse(argc, argv, s, false, err, sizeof(err)) == CLI_PARSE_OK) {
        for (unsigned i = 0; i < s->n_models; i++)
            if (s->model[i].path)
                s->model[i].path = model_path;
        if (!cli_load_models(s, lm, err, sizeof(err))) {
            VmafContext *ctx;
            const VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
            if (!vmaf_init(&ctx, cfg)) {
                for (unsigned i = 0; i < s->n_models; i++)
                    if (lm[i].collection)
                        vmaf_use_features_from_model_collection(ctx, lm[i].collection);
                    else
                        vmaf_use_features_from_model(ctx, lm[i].model);
                vmaf_close(ctx);
            }
        }
        cli_free_models(lm, s->n_models);
    }
    free(s);
    free(block);
    return 0;
}
