#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/collector.h"
#include "core/log.h"

typedef struct Series {
    char *name;
    double *value;
    unsigned char *written;
    unsigned capacity;
} Series;

typedef struct Aggregate {
    char *name;
    double value;
} Aggregate;

typedef struct Sum {
    char *name;
    uint64_t value;
} Sum;

struct LsCollector {
    pthread_mutex_t lock;
    Series *series;
    unsigned n_series, cap_series;
    Aggregate *aggregate;
    unsigned n_aggregate, cap_aggregate;
    Sum *sum;
    unsigned n_sum, cap_sum;
    unsigned max_index_plus_one;
    struct timespec begin, end;
    int timing;
    /* a view (ls_collector_create_view): everything goes to target, indices shifted */
    LsCollector *target;
    unsigned offset, first, end_index;
};

/* The index in the target of a view's index, or false when it falls outside the frames the
 * view reports. */
static bool view_index(const LsCollector *view, unsigned index, unsigned *out)
{
    const uint64_t i = (uint64_t)index + view->offset;
    if (i < view->first || i >= view->end_index)
        return false;
    *out = (unsigned)i;
    return true;
}

int ls_collector_create(LsCollector **fc)
{
    LsCollector *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    pthread_mutex_init(&c->lock, NULL);
    *fc = c;
    return 0;
}

void ls_collector_destroy(LsCollector *fc)
{
    if (!fc)
        return;
    for (unsigned i = 0; i < fc->n_series; i++) {
        free(fc->series[i].name);
        free(fc->series[i].value);
        free(fc->series[i].written);
    }
    for (unsigned i = 0; i < fc->n_aggregate; i++)
        free(fc->aggregate[i].name);
    for (unsigned i = 0; i < fc->n_sum; i++)
        free(fc->sum[i].name);
    free(fc->series);
    free(fc->aggregate);
    free(fc->sum);
    pthread_mutex_destroy(&fc->lock);
    free(fc);
}

static Series *find(LsCollector *fc, const char *name)
{
    for (unsigned i = 0; i < fc->n_series; i++)
        if (!strcmp(fc->series[i].name, name))
            return &fc->series[i];
    return NULL;
}

static Series *find_or_add(LsCollector *fc, const char *name)
{
    Series *s = find(fc, name);
    if (s)
        return s;
    if (fc->n_series == fc->cap_series) {
        const unsigned cap = fc->cap_series ? fc->cap_series * 2 : 16;
        Series *n = realloc(fc->series, cap * sizeof(*n));
        if (!n)
            return NULL;
        fc->series = n;
        fc->cap_series = cap;
    }
    s = &fc->series[fc->n_series];
    memset(s, 0, sizeof(*s));
    s->name = strdup(name);
    if (!s->name)
        return NULL;
    fc->n_series++;
    return s;
}

static int grow(Series *s, unsigned index)
{
    if (index < s->capacity)
        return 0;
    unsigned cap = s->capacity ? s->capacity : 8;
    while (cap <= index)
        cap *= 2;
    double *v = realloc(s->value, cap * sizeof(*v));
    if (!v)
        return -ENOMEM;
    s->value = v;
    unsigned char *w = realloc(s->written, cap);
    if (!w)
        return -ENOMEM;
    memset(w + s->capacity, 0, cap - s->capacity);
    s->written = w;
    s->capacity = cap;
    return 0;
}

int ls_collector_create_view(LsCollector **view, LsCollector *target, unsigned offset,
                             unsigned first, unsigned end)
{
    const int err = ls_collector_create(view);
    if (err)
        return err;
    (*view)->target = target;
    (*view)->offset = offset;
    (*view)->first = first;
    (*view)->end_index = end;
    return 0;
}

int ls_collector_append(LsCollector *fc, const char *name, double value, unsigned index)
{
    if (fc->target) {
        unsigned i;
        return view_index(fc, index, &i) ? ls_collector_append(fc->target, name, value, i) : 0;
    }
    int err = 0;
    pthread_mutex_lock(&fc->lock);
    Series *s = find_or_add(fc, name);
    if (!s) {
        err = -ENOMEM;
        goto out;
    }
    if ((err = grow(s, index)))
        goto out;
    if (s->written[index]) {
        ls_set_error("feature \"%s\" cannot be overwritten at index %u", name, index);
        ls_log(VMAF_LOG_LEVEL_WARNING, "feature \"%s\" cannot be overwritten at index %u", name,
               index);
        err = -EINVAL;
        goto out;
    }
    s->written[index] = 1;
    s->value[index] = value;
    if (index + 1 > fc->max_index_plus_one)
        fc->max_index_plus_one = index + 1;
    clock_gettime(CLOCK_MONOTONIC, &fc->end);
    if (!fc->timing) {
        fc->begin = fc->end;
        fc->timing = 1;
    }
out:
    pthread_mutex_unlock(&fc->lock);
    return err;
}

int ls_collector_get(LsCollector *fc, const char *name, unsigned index, double *value)
{
    if (fc->target) {
        unsigned i;
        return view_index(fc, index, &i) ? ls_collector_get(fc->target, name, i, value) : -EINVAL;
    }
    int err = -EINVAL;
    pthread_mutex_lock(&fc->lock);
    const Series *s = find(fc, name);
    if (s && index < s->capacity && s->written[index]) {
        *value = s->value[index];
        err = 0;
    }
    pthread_mutex_unlock(&fc->lock);
    return err;
}

int ls_collector_set_aggregate(LsCollector *fc, const char *name, double value)
{
    if (fc->target)
        return ls_collector_set_aggregate(fc->target, name, value);
    int err = 0;
    pthread_mutex_lock(&fc->lock);
    for (unsigned i = 0; i < fc->n_aggregate; i++) {
        if (!strcmp(fc->aggregate[i].name, name)) {
            err = fc->aggregate[i].value == value ? 0 : -EINVAL;
            goto out;
        }
    }
    if (fc->n_aggregate == fc->cap_aggregate) {
        const unsigned cap = fc->cap_aggregate ? fc->cap_aggregate * 2 : 8;
        Aggregate *n = realloc(fc->aggregate, cap * sizeof(*n));
        if (!n) {
            err = -ENOMEM;
            goto out;
        }
        fc->aggregate = n;
        fc->cap_aggregate = cap;
    }
    fc->aggregate[fc->n_aggregate].name = strdup(name);
    fc->aggregate[fc->n_aggregate].value = value;
    if (!fc->aggregate[fc->n_aggregate].name)
        err = -ENOMEM;
    else
        fc->n_aggregate++;
out:
    pthread_mutex_unlock(&fc->lock);
    return err;
}

int ls_collector_add_sum(LsCollector *fc, const char *name, uint64_t value, unsigned index)
{
    if (fc->target) {
        unsigned i;
        return view_index(fc, index, &i) ? ls_collector_add_sum(fc->target, name, value, i) : 0;
    }
    int err = 0;
    pthread_mutex_lock(&fc->lock);
    for (unsigned i = 0; i < fc->n_sum; i++) {
        if (!strcmp(fc->sum[i].name, name)) {
            fc->sum[i].value += value;
            goto out;
        }
    }
    if (fc->n_sum == fc->cap_sum) {
        const unsigned cap = fc->cap_sum ? fc->cap_sum * 2 : 8;
        Sum *n = realloc(fc->sum, cap * sizeof(*n));
        if (!n) {
            err = -ENOMEM;
            goto out;
        }
        fc->sum = n;
        fc->cap_sum = cap;
    }
    if (!(fc->sum[fc->n_sum].name = strdup(name))) {
        err = -ENOMEM;
        goto out;
    }
    fc->sum[fc->n_sum++].value = value;
out:
    pthread_mutex_unlock(&fc->lock);
    return err;
}

uint64_t ls_collector_sum(LsCollector *fc, const char *name)
{
    if (fc->target)
        return ls_collector_sum(fc->target, name);
    uint64_t v = 0;
    pthread_mutex_lock(&fc->lock);
    for (unsigned i = 0; i < fc->n_sum; i++)
        if (!strcmp(fc->sum[i].name, name))
            v = fc->sum[i].value;
    pthread_mutex_unlock(&fc->lock);
    return v;
}

unsigned ls_collector_sum_count(LsCollector *fc) { return fc->n_sum; }

const char *ls_collector_sum_name(LsCollector *fc, unsigned i, uint64_t *value)
{
    *value = fc->sum[i].value;
    return fc->sum[i].name;
}

void ls_collector_set_seconds(LsCollector *fc, double seconds)
{
    fc->begin = (struct timespec){ 0 };
    fc->end.tv_sec = (time_t)seconds;
    fc->end.tv_nsec = (long)((seconds - (double)fc->end.tv_sec) * 1e9);
    fc->timing = 1;
}

double ls_collector_seconds(LsCollector *fc)
{
    return (double)(fc->end.tv_sec - fc->begin.tv_sec) +
           (double)(fc->end.tv_nsec - fc->begin.tv_nsec) * 1e-9;
}

int ls_collector_get_aggregate(LsCollector *fc, const char *name, double *value)
{
    for (unsigned i = 0; i < fc->n_aggregate; i++) {
        if (!strcmp(fc->aggregate[i].name, name)) {
            *value = fc->aggregate[i].value;
            return 0;
        }
    }
    return -EINVAL;
}

unsigned ls_collector_count(LsCollector *fc) { return fc->n_series; }
const char *ls_collector_name(LsCollector *fc, unsigned i) { return fc->series[i].name; }
unsigned ls_collector_capacity(LsCollector *fc) { return fc->max_index_plus_one; }

bool ls_collector_has(LsCollector *fc, unsigned i, unsigned index, double *value)
{
    const Series *s = &fc->series[i];
    if (index >= s->capacity || !s->written[index])
        return false;
    if (value)
        *value = s->value[index];
    return true;
}

unsigned ls_collector_aggregate_count(LsCollector *fc) { return fc->n_aggregate; }

const char *ls_collector_aggregate_name(LsCollector *fc, unsigned i, double *value)
{
    *value = fc->aggregate[i].value;
    return fc->aggregate[i].name;
}

double ls_collector_fps(LsCollector *fc, unsigned pic_cnt)
{
    return (double)pic_cnt / ls_collector_seconds(fc);
}
