/* The CLI's --model arguments, loaded: built-in or from a file, as a single model or a
 * collection, with their EXTRACTOR.OPTION=VALUE overloads applied. */
#ifndef LOCKSTEP_TOOLS_CLI_MODELS_H
#define LOCKSTEP_TOOLS_CLI_MODELS_H

#include "cli_parse.h"

/* A --model as loaded: a single model, or a collection and its primary model. */
typedef struct CliLoadedModel {
    VmafModel *model;
    VmafModelCollection *collection;
    const char *label;                 /* version= if given, else path= (as the vmaf tool) */
} CliLoadedModel;

/* Loads each model of s into lm (zeroed, s->n_models entries) and applies its overloads; on
 * failure prints one line and returns -1 (free_models frees what was loaded). */
int load_models(const CliSettings *s, CliLoadedModel *lm);
void free_models(CliLoadedModel *lm, unsigned n);

#endif
