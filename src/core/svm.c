/* libsvm model text and prediction (libsvm's svm_load_model / svm_predict, as libvmaf's copy of
 * svm.cpp reads the text of a model's "model" string). Only the regression types and one_class
 * are predicted: the classification types vote over class pairs and no VMAF model uses them, so
 * they are refused at load rather than predicted wrongly. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/svm.h"

enum SvmType { SVM_C_SVC, SVM_NU_SVC, SVM_ONE_CLASS, SVM_EPSILON_SVR, SVM_NU_SVR };
enum SvmKernel { KERNEL_LINEAR, KERNEL_POLY, KERNEL_RBF, KERNEL_SIGMOID, KERNEL_PRECOMPUTED };

static const char *const svm_type_names[] = { "c_svc", "nu_svc", "one_class", "epsilon_svr",
                                              "nu_svr", NULL };
static const char *const kernel_names[] = { "linear", "polynomial", "rbf", "sigmoid",
                                            "precomputed", NULL };

struct LsSvm {
    enum SvmType type;
    enum SvmKernel kernel;
    int degree;
    double gamma, coef0;
    double rho;
    unsigned l;                 /* support vectors */
    double *coef;               /* l */
    LsSvmNode **sv;             /* l vectors, each ended by index -1, pointing into nodes */
    LsSvmNode *nodes;
};

typedef struct Reader {
    const char *p;
    unsigned line;
    char *err;
    size_t err_len;
} Reader;

static int fail(Reader *r, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_len, "line %u: %s", r->line, what);
    return -EINVAL;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next whitespace-separated token of the header, crossing lines. */
static int next_token(Reader *r, char *tok, size_t len)
{
    while (*r->p && (is_blank(*r->p) || *r->p == '\n')) {
        if (*r->p == '\n')
            r->line++;
        r->p++;
    }
    size_t n = 0;
    while (*r->p && !is_blank(*r->p) && *r->p != '\n') {
        if (n + 1 < len)
            tok[n++] = *r->p;
        r->p++;
    }
    tok[n] = 0;
    return n > 0;
}

static int parse_double(const char *tok, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(tok, &end);
    return *tok && !*end && errno != ERANGE ? 0 : -EINVAL;
}

static int parse_int(const char *tok, int *v)
{
    char *end;
    errno = 0;
    const long x = strtol(tok, &end, 10);
    if (!*tok || *end || errno == ERANGE || x < INT_MIN || x > INT_MAX)
        return -EINVAL;
    *v = (int)x;
    return 0;
}

static int header_double(Reader *r, const char *key, double *v)
{
    char tok[128];
    if (!next_token(r, tok, sizeof(tok)))
        return fail(r, "\"%s\" has no value", key);
    if (parse_double(tok, v))
        return fail(r, "\"%s\" value \"%s\" is not a number", key, tok);
    return 0;
}

static int header_int(Reader *r, const char *key, int *v)
{
    char tok[128];
    if (!next_token(r, tok, sizeof(tok)))
        return fail(r, "\"%s\" has no value", key);
    if (parse_int(tok, v))
        return fail(r, "\"%s\" value \"%s\" is not an integer", key, tok);
    return 0;
}

static int header_name(Reader *r, const char *key, const char *const *names, int *v)
{
    char tok[128];
    if (!next_token(r, tok, sizeof(tok)))
        return fail(r, "\"%s\" has no value", key);
    for (int i = 0; names[i]; i++) {
        if (!strcmp(tok, names[i])) {
            *v = i;
            return 0;
        }
    }
    return fail(r, "unknown %s \"%s\"", key, tok);
}

/* Reads `count` values of a list keyword (label, probA, probB, nr_sv): only rho is used. */
static int header_list(Reader *r, const char *key, int count, int integers, double *first)
{
    for (int i = 0; i < count; i++) {
        double d = 0.0;
        int n;
        const int err = integers ? header_int(r, key, &n) : header_double(r, key, &d);
        if (err)
            return err;
        if (i == 0 && first)
            *first = d;
    }
    return 0;
}

static int read_header(Reader *r, LsSvm *s, int *total_sv)
{
    int have_type = 0, have_kernel = 0, nr_class = 0, have_rho = 0, have_gamma = 0;
    int have_degree = 0, have_coef0 = 0;
    *total_sv = -1;
    char tok[128];
    for (;;) {
        if (!next_token(r, tok, sizeof(tok)))
            return fail(r, "the header ends without \"SV\"");
        int err = 0, v = 0;
        if (!strcmp(tok, "svm_type")) {
            if ((err = header_name(r, "svm_type", svm_type_names, &v)))
                return err;
            s->type = (enum SvmType)v;
            have_type = 1;
            if (s->type == SVM_C_SVC || s->type == SVM_NU_SVC)
                return fail(r, "svm_type %s is a classifier: VMAF models are regressions "
                               "(nu_svr, epsilon_svr)", svm_type_names[s->type]);
        } else if (!strcmp(tok, "kernel_type")) {
            if ((err = header_name(r, "kernel_type", kernel_names, &v)))
                return err;
            s->kernel = (enum SvmKernel)v;
            have_kernel = 1;
            if (s->kernel == KERNEL_PRECOMPUTED)
                return fail(r, "kernel_type precomputed needs the training kernel matrix: not "
                               "supported");
        } else if (!strcmp(tok, "degree")) {
            err = header_int(r, tok, &s->degree);
            have_degree = 1;
        } else if (!strcmp(tok, "gamma")) {
            err = header_double(r, tok, &s->gamma);
            have_gamma = 1;
        } else if (!strcmp(tok, "coef0")) {
            err = header_double(r, tok, &s->coef0);
            have_coef0 = 1;
        } else if (!strcmp(tok, "nr_class")) {
            err = header_int(r, tok, &nr_class);
            if (!err && nr_class != 2)
                return fail(r, "nr_class %d: regression models have 2", nr_class);
        } else if (!strcmp(tok, "total_sv")) {
            err = header_int(r, tok, total_sv);
            if (!err && *total_sv < 0)
                return fail(r, "total_sv %d is negative", *total_sv);
        } else if (!strcmp(tok, "rho") || !strcmp(tok, "probA") || !strcmp(tok, "probB") ||
                   !strcmp(tok, "label") || !strcmp(tok, "nr_sv")) {
            if (!nr_class)
                return fail(r, "\"%s\" comes before nr_class", tok);
            const int pairs = !strcmp(tok, "rho") || !strcmp(tok, "probA") || !strcmp(tok, "probB");
            const int rho = !strcmp(tok, "rho");
            err = header_list(r, tok, pairs ? nr_class * (nr_class - 1) / 2 : nr_class,
                              !pairs, rho ? &s->rho : NULL);
            have_rho |= rho;
        } else if (!strcmp(tok, "SV")) {
            break;
        } else {
            return fail(r, "unknown keyword \"%s\"", tok);
        }
        if (err)
            return err;
    }
    /* what the header lacks is reported at its "SV" line */
    if (!have_type)
        return fail(r, "the header has no svm_type");
    if (!have_kernel)
        return fail(r, "the header has no kernel_type");
    if (!nr_class)
        return fail(r, "the header has no nr_class");
    if (*total_sv < 0)
        return fail(r, "the header has no total_sv");
    if (!have_rho)
        return fail(r, "the header has no rho");
    if (!have_gamma && s->kernel != KERNEL_LINEAR)
        return fail(r, "the header has no gamma (the %s kernel uses it)", kernel_names[s->kernel]);
    if (!have_degree && s->kernel == KERNEL_POLY)
        return fail(r, "the header has no degree (the polynomial kernel uses it)");
    if (!have_coef0 && (s->kernel == KERNEL_POLY || s->kernel == KERNEL_SIGMOID))
        return fail(r, "the header has no coef0 (the %s kernel uses it)", kernel_names[s->kernel]);
    /* the support vectors start on the next line: bound total_sv before allocating for it */
    const char *rest = r->p;
    while (*rest && *rest != '\n')
        rest++;
    if (*rest == '\n')
        rest++;
    size_t lines = 0;
    for (const char *c = rest; *c; c++)
        lines += *c == '\n' || !c[1];
    if ((size_t)*total_sv > lines)
        return fail(r, "total_sv %d, but only %zu lines follow", *total_sv, lines);
    r->line += rest > r->p && rest[-1] == '\n';
    r->p = rest;
    return 0;
}

/* One line "coef index:value index:value ...". */
static int read_sv(Reader *r, LsSvm *s, unsigned i, size_t *used, size_t cap)
{
    const char *end = strchr(r->p, '\n');
    if (!end)
        end = r->p + strlen(r->p);
    char tok[128];
    unsigned n_tok = 0;
    int last_index = 0;
    s->sv[i] = &s->nodes[*used];
    while (r->p < end) {
        while (r->p < end && is_blank(*r->p))
            r->p++;
        size_t n = 0;
        while (r->p < end && !is_blank(*r->p)) {
            if (n + 1 < sizeof(tok))
                tok[n++] = *r->p;
            r->p++;
        }
        tok[n] = 0;
        if (!n)
            break;
        if (n_tok++ == 0) {
            if (parse_double(tok, &s->coef[i]))
                return fail(r, "support vector %u: coefficient \"%s\" is not a number", i + 1, tok);
            continue;
        }
        char *colon = strchr(tok, ':');
        int index;
        double value;
        if (!colon)
            return fail(r, "support vector %u: \"%s\" is not index:value", i + 1, tok);
        *colon = 0;
        if (parse_int(tok, &index) || parse_double(colon + 1, &value))
            return fail(r, "support vector %u: \"%s:%s\" is not index:value", i + 1, tok,
                        colon + 1);
        /* the kernels walk both vectors in increasing index order */
        if (index <= last_index)
            return fail(r, "support vector %u: index %d after %d (indices increase from 1)",
                        i + 1, index, last_index);
        last_index = index;
        if (*used + 1 >= cap)
            return fail(r, "support vector %u: more entries than the text holds", i + 1);
        s->nodes[(*used)++] = (LsSvmNode){ index, value };
    }
    if (!n_tok)
        return fail(r, "support vector %u of %u is missing (total_sv %u)", i + 1, s->l, s->l);
    s->nodes[(*used)++] = (LsSvmNode){ -1, 0.0 };
    if (*r->p == '\n') {
        r->p++;
        r->line++;
    }
    return 0;
}

int ls_svm_parse(const char *text, LsSvm **out, char *err, size_t err_len)
{
    Reader r = { .p = text, .line = 1, .err = err, .err_len = err_len };
    LsSvm *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    int total_sv, ret = read_header(&r, s, &total_sv);
    if (ret)
        goto error;
    /* room for every index:value entry of the text and one end per vector */
    size_t colons = 0;
    for (const char *c = r.p; *c; c++)
        colons += *c == ':';
    s->l = (unsigned)total_sv;
    const size_t cap = colons + s->l + 1;
    s->coef = calloc(s->l ? s->l : 1, sizeof(*s->coef));
    s->sv = calloc(s->l ? s->l : 1, sizeof(*s->sv));
    s->nodes = calloc(cap, sizeof(*s->nodes));
    if (!s->coef || !s->sv || !s->nodes) {
        ret = -ENOMEM;
        goto error;
    }
    size_t used = 0;
    for (unsigned i = 0; i < s->l; i++)
        if ((ret = read_sv(&r, s, i, &used, cap)))
            goto error;
    for (const char *c = r.p; *c; c++) {
        if (!is_blank(*c) && *c != '\n') {
            ret = fail(&r, "text after the last of total_sv %u support vectors", s->l);
            goto error;
        }
    }
    *out = s;
    return 0;
error:
    ls_svm_free(s);
    return ret;
}

void ls_svm_free(LsSvm *s)
{
    if (!s)
        return;
    free(s->coef);
    free(s->sv);
    free(s->nodes);
    free(s);
}

static double dot(const LsSvmNode *x, const LsSvmNode *y)
{
    double sum = 0;
    while (x->index != -1 && y->index != -1) {
        if (x->index == y->index) {
            sum += x->value * y->value;
            ++x;
            ++y;
        } else if (x->index > y->index) {
            ++y;
        } else {
            ++x;
        }
    }
    return sum;
}

static double powi(double base, int times)
{
    double tmp = base, ret = 1.0;
    for (int t = times; t > 0; t /= 2) {
        if (t % 2 == 1)
            ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

/* libsvm's Kernel::k_function: the additions into the squared distance in increasing index
 * order, starting at 0. */
static double kernel(const LsSvm *s, const LsSvmNode *x, const LsSvmNode *y)
{
    switch (s->kernel) {
    case KERNEL_LINEAR: return dot(x, y);
    case KERNEL_POLY: return powi(s->gamma * dot(x, y) + s->coef0, s->degree);
    case KERNEL_SIGMOID: return tanh(s->gamma * dot(x, y) + s->coef0);
    case KERNEL_RBF: {
        double sum = 0;
        while (x->index != -1 && y->index != -1) {
            if (x->index == y->index) {
                const double d = x->value - y->value;
                sum += d * d;
                ++x;
                ++y;
            } else if (x->index > y->index) {
                sum += y->value * y->value;
                ++y;
            } else {
                sum += x->value * x->value;
                ++x;
            }
        }
        for (; x->index != -1; ++x)
            sum += x->value * x->value;
        for (; y->index != -1; ++y)
            sum += y->value * y->value;
        return exp(-s->gamma * sum);
    }
    case KERNEL_PRECOMPUTED: break; /* refused at load */
    }
    return 0.0;
}

double ls_svm_predict(const LsSvm *s, const LsSvmNode *x)
{
    double sum = 0;
    for (unsigned i = 0; i < s->l; i++)
        sum += s->coef[i] * kernel(s, x, s->sv[i]);
    sum -= s->rho;
    if (s->type == SVM_ONE_CLASS)
        return sum > 0 ? 1 : -1;
    return sum;
}
