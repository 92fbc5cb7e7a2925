/* Option tables: each extractor declares its options as data; the framework parses values
 * (whole string, range-checked, no NaN) and stores them into the extractor's private state
 * before init. Extractors never parse strings. Spec: shared/spec/options.md. */
#ifndef LOCKSTEP_CORE_OPTIONS_H
#define LOCKSTEP_CORE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

enum LsOptionType {
    LS_OPT_BOOL = 1,
    LS_OPT_INT,
    LS_OPT_DOUBLE,
    LS_OPT_STRING,
};

enum LsOptionFlags {
    /* a non-default value suffixes the extractor's output names (options.md §5) */
    LS_OPT_FEATURE_PARAM = 1 << 0,
};

typedef struct LsOption {
    const char *name;
    const char *alias;      /* only used to build output-name suffixes, never accepted as a key */
    const char *help;
    enum LsOptionType type;
    size_t offset;          /* into the extractor's private state: bool, int, double or const char * */
    union {
        bool b;
        int i;
        double d;
        const char *s;
    } def;
    double min, max;        /* inclusive, int and double only */
    unsigned flags;
} LsOption;                 /* tables end with { 0 } */

typedef struct LsOptionValue {
    const char *key;
    const char *value;
} LsOptionValue;

/* Sets every option of `table` in `priv`: the given value or the default.
 * On error writes "EXTRACTOR: ..." into err and returns -EINVAL. */
int ls_options_apply(const char *extractor, const LsOption *table, void *priv,
                     const LsOptionValue *values, unsigned n_values, char *err, size_t err_len);

/* True when the option's current value in priv differs from its default. */
bool ls_option_is_default(const LsOption *opt, const void *priv);

/* The output name for a provided feature: base unchanged when every FEATURE_PARAM option is at its
 * default, else alias(base) followed by _alias[_value] per changed option (options.md §5). */
void ls_feature_param_name(char *out, size_t out_len, const char *base, const char *base_alias,
                           const LsOption *table, const void *priv);

#endif
