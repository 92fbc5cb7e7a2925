/* The CLI's --model arguments, loaded: built-in or from a file, as a single model or a
 * collection, with their EXTRACTOR.OPTION=VALUE overloads applied (a run's models, run.c; the
 * --model fuzz target). */
#ifndef LOCKSTEP_TOOLS_CLI_MODELS_H
#define LOCKSTEP_TOOLS_CLI_MODELS_H

#include <stddef.h>

#include "cli_parse.h"

/* A --model as loaded: a single model, or a collection and its primary model. */
typedef struct CliLoadedModel {
    VmafModel *model;
    VmafModelCollection *collection;
    const char *label;                 /* version= if given, else path= (as the vmaf tool) */
} CliLoadedModel;

/* Loads each model of s into lm (zeroed, s->n_models entries) and applies its overloads; on
 * failure describes it in err (one line) and returns -1 (cli_free_models frees what was loaded). */
int cli_load_models(const CliSettings *s, CliLoadedModel *lm, char *err, size_t err_len);
void cli_free_models(CliLoadedModel *lm, unsigned n);

#endif
