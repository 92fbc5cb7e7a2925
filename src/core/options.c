#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

static void *field(void *priv, const LsOption *opt) { return (char *)priv + opt->offset; }
static const void *cfield(const void *priv, const LsOption *opt)
{
    return (const char *)priv + opt->offset;
}

static void set_default(const LsOption *opt, void *priv)
{
    switch (opt->type) {
    case LS_OPT_BOOL: *(bool *)field(priv, opt) = opt->def.b; break;
    case LS_OPT_INT: *(int *)field(priv, opt) = opt->def.i; break;
    case LS_OPT_DOUBLE: *(double *)field(priv, opt) = opt->def.d; break;
    case LS_OPT_STRING: *(const char **)field(priv, opt) = opt->def.s; break;
    }
}

static int parse_value(const char *ex, const LsOption *opt, const char *val, void *priv,
                       char *err, size_t err_len)
{
    char *end = NULL;
    switch (opt->type) {
    case LS_OPT_BOOL:
        if (!strcmp(val, "true")) *(bool *)field(priv, opt) = true;
        else if (!strcmp(val, "false")) *(bool *)field(priv, opt) = false;
        else {
            snprintf(err, err_len, "%s: option \"%s\" value \"%s\" is not a boolean (true or false)",
                     ex, opt->name, val);
            return -EINVAL;
        }
        return 0;
    case LS_OPT_INT: {
        errno = 0;
        const long v = strtol(val, &end, 10);
        if (!*val || *end || errno == ERANGE) {
            snprintf(err, err_len, "%s: option \"%s\" value \"%s\" is not an integer", ex,
                     opt->name, val);
            return -EINVAL;
        }
        if ((double)v < opt->min || (double)v > opt->max) {
            snprintf(err, err_len, "%s: option \"%s\" value \"%s\" is out of range [%g, %g]", ex,
                     opt->name, val, opt->min, opt->max);
            return -EINVAL;
        }
        *(int *)field(priv, opt) = (int)v;
        return 0;
    }
    case LS_OPT_DOUBLE: {
        errno = 0;
        const double v = strtod(val, &end);
        if (!*val || *end || errno == ERANGE || isnan(v)) {
            snprintf(err, err_len, "%s: option \"%s\" value \"%s\" is not a number", ex,
                     opt->name, val);
            return -EINVAL;
        }
        if (v < opt->min || v > opt->max) {
            snprintf(err, err_len, "%s: option \"%s\" value \"%s\" is out of range [%g, %g]", ex,
                     opt->name, val, opt->min, opt->max);
            return -EINVAL;
        }
        *(double *)field(priv, opt) = v;
        return 0;
    }
    case LS_OPT_STRING:
        *(const char **)field(priv, opt) = val;
        return 0;
    }
    return -EINVAL;
}

static void list_options(const LsOption *table, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (const LsOption *o = table; o && o->name; o++) {
        const int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", o->name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    if (!used)
        snprintf(buf, len, "none");
}

int ls_options_apply(const char *extractor, const LsOption *table, void *priv,
                     const LsOptionValue *values, unsigned n_values, char *err, size_t err_len)
{
    for (const LsOption *o = table; o && o->name; o++)
        set_default(o, priv);
    for (unsigned i = 0; i < n_values; i++) {
        const LsOption *o = table;
        while (o && o->name && strcmp(o->name, values[i].key))
            o++;
        if (!o || !o->name) {
            char known[512];
            list_options(table, known, sizeof(known));
            snprintf(err, err_len, "%s: unknown option \"%s\" (options: %s)", extractor,
                     values[i].key, known);
            return -EINVAL;
        }
        const int ret = parse_value(extractor, o, values[i].value, priv, err, err_len);
        if (ret)
            return ret;
    }
    return 0;
}

bool ls_option_is_default(const LsOption *opt, const void *priv)
{
    switch (opt->type) {
    case LS_OPT_BOOL: return *(const bool *)cfield(priv, opt) == opt->def.b;
    case LS_OPT_INT: return *(const int *)cfield(priv, opt) == opt->def.i;
    case LS_OPT_DOUBLE: return *(const double *)cfield(priv, opt) == opt->def.d;
    case LS_OPT_STRING: {
        const char *v = *(const char *const *)cfield(priv, opt);
        if (!v || !opt->def.s)
            return v == opt->def.s;
        return !strcmp(v, opt->def.s);
    }
    }
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const LsOption *const *)a)->name, (*(const LsOption *const *)b)->name);
}

void ls_feature_param_name(char *out, size_t out_len, const char *base, const char *base_alias,
                           const LsOption *table, const void *priv)
{
    const LsOption *changed[64];
    unsigned n = 0;
    for (const LsOption *o = table; o && o->name && n < 64; o++)
        if ((o->flags & LS_OPT_FEATURE_PARAM) && !ls_option_is_default(o, priv))
            changed[n++] = o;
    if (!n) {
        snprintf(out, out_len, "%s", base);
        return;
    }
    qsort(changed, n, sizeof(*changed), by_name);
    size_t used = (size_t)snprintf(out, out_len, "%s", base_alias ? base_alias : base);
    for (unsigned i = 0; i < n && used < out_len; i++) {
        const LsOption *o = changed[i];
        const char *a = o->alias ? o->alias : o->name;
        const void *v = cfield(priv, o);
        int k = 0;
        switch (o->type) {
        case LS_OPT_BOOL: k = snprintf(out + used, out_len - used, "_%s", a); break;
        case LS_OPT_INT: k = snprintf(out + used, out_len - used, "_%s_%d", a, *(const int *)v); break;
        case LS_OPT_DOUBLE:
            k = snprintf(out + used, out_len - used, "_%s_%g", a, *(const double *)v);
            break;
        case LS_OPT_STRING:
            k = snprintf(out + used, out_len - used, "_%s_%s", a, *(const char *const *)v);
            break;
        }
        if (k < 0)
            break;
        used += (size_t)k;
    }
}
