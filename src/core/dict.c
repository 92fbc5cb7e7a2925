#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dict.h"

struct VmafFeatureDictionary {
    LsOptionValue *entry;
    unsigned n, cap;
};

/* libvmaf stores numeric-looking values as "%g" of their float value (options.md §3.3):
 * "2.50" becomes "2.5", "0.123456789" becomes "0.123457". */
static char *normalise(const char *val)
{
    float f;
    char c;
    if (sscanf(val, "%f %c", &f, &c) == 1) {
        char buf[64];
        snprintf(buf, sizeof(buf), "%g", (double)strtof(val, NULL));
        return strdup(buf);
    }
    return strdup(val);
}

int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key, const char *val)
{
    if (!dict || !key || !val)
        return -EINVAL;
    if (!*dict && !(*dict = calloc(1, sizeof(**dict))))
        return -ENOMEM;
    VmafFeatureDictionary *d = *dict;
    char *v = normalise(val);
    if (!v)
        return -ENOMEM;
    for (unsigned i = 0; i < d->n; i++) {
        if (!strcmp(d->entry[i].key, key)) {
            free((char *)d->entry[i].value);
            d->entry[i].value = v;
            return 0;
        }
    }
    if (d->n == d->cap) {
        const unsigned cap = d->cap ? d->cap * 2 : 8;
        LsOptionValue *e = realloc(d->entry, cap * sizeof(*e));
        if (!e) {
            free(v);
            return -ENOMEM;
        }
        d->entry = e;
        d->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -ENOMEM;
    }
    d->entry[d->n].key = k;
    d->entry[d->n].value = v;
    d->n++;
    return 0;
}

int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict)
{
    if (!dict)
        return -EINVAL;
    VmafFeatureDictionary *d = *dict;
    if (d) {
        for (unsigned i = 0; i < d->n; i++) {
            free((char *)d->entry[i].key);
            free((char *)d->entry[i].value);
        }
        free(d->entry);
        free(d);
    }
    *dict = NULL;
    return 0;
}

const LsOptionValue *ls_dict_entries(const VmafFeatureDictionary *dict, unsigned *n)
{
    *n = dict ? dict->n : 0;
    return dict ? dict->entry : NULL;
}
