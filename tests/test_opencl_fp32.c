/* Contract test of src/opencl/fp32_exact.h (exactness.md §4.3, §8.3):
 *   ls_sqrt_prod_rn(a, b) == (float)sqrt((double)a * (double)b)  and  ls_div_rn(a, b) == a / b
 * bit for bit, on boundary values, random pairs, and the pairs whose roots lie nearest a rounding
 * midpoint (k, k+1) and (m-1, m+1).
 *
 *   test_opencl_fp32 host     the header compiled as C, on this CPU (2 threads)
 *   test_opencl_fp32 device   the same header compiled as OpenCL C, run on the OpenCL device
 *                             (LOCKSTEP_OPENCL_DEVICE / LOCKSTEP_GPU select it), results compared
 *                             here; exit 77 when there is no device.
 * LOCKSTEP_FP32_SCALE=N multiplies the random pair counts (default 1). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "fp32_pairs.h"
#include "opencl/fp32_exact.h"
#include "opencl/opencl.h"

#define N_THREADS 2

typedef struct Totals {
    uint64_t pairs[FP32_PAIRS_NB][2];
    uint64_t bad[FP32_PAIRS_NB][2];
} Totals;

static const char *const kind_names[FP32_PAIRS_NB] = {
    "boundary", "random bits", "random working range", "k*(k+1)", "(m-1)*(m+1)",
};
static const char *const op_names[2] = { "sqrt_prod_rn", "div_rn" };

static uint64_t random_n;
static unsigned reps;

static int report_mismatch(int op, enum Fp32PairKind kind, uint64_t i, float a, float b,
                           float got, float want)
{
    fprintf(stderr, "MISMATCH %s (%s #%" PRIu64 "): a=%a b=%a got %a (0x%08x) want %a (0x%08x)\n",
            op_names[op], kind_names[kind], i, a, b, got, fp32_bits(got), want, fp32_bits(want));
    return 1;
}

typedef struct HostJob {
    unsigned thread;
    Totals t;
} HostJob;

static void *host_worker(void *arg)
{
    HostJob *job = arg;
    for (int kind = 0; kind < FP32_PAIRS_NB; kind++) {
        const uint64_t n = fp32_pairs_count(kind, random_n, reps);
        /* division: every pair of the small kinds, a tenth of the random ones */
        const uint64_t n_div = kind == FP32_PAIRS_BOUNDARY ? n : n / 10;
        for (uint64_t i = job->thread; i < n; i += N_THREADS) {
            float a, b;
            fp32_pair(kind, i, &a, &b);
            const float got = ls_sqrt_prod_rn(a, b), want = fp32_ref_sqrt_prod(a, b);
            job->t.pairs[kind][0]++;
            if (!fp32_same(got, want) && job->t.bad[kind][0]++ < 10)
                report_mismatch(0, kind, i, a, b, got, want);
            if (i < n_div) {
                const float gd = ls_div_rn(a, b), wd = fp32_ref_div(a, b);
                job->t.pairs[kind][1]++;
                if (!fp32_same(gd, wd) && job->t.bad[kind][1]++ < 10)
                    report_mismatch(1, kind, i, a, b, gd, wd);
            }
        }
    }
    return NULL;
}

static int print_totals(const char *where, const Totals *t, double seconds)
{
    uint64_t all[2] = { 0, 0 }, bad[2] = { 0, 0 };
    for (int op = 0; op < 2; op++) {
        for (int kind = 0; kind < FP32_PAIRS_NB; kind++) {
            printf("%s %-13s %-22s %12" PRIu64 " pairs, %" PRIu64 " mismatches\n", where,
                   op_names[op], kind_names[kind], t->pairs[kind][op], t->bad[kind][op]);
            all[op] += t->pairs[kind][op];
            bad[op] += t->bad[kind][op];
        }
        printf("%s %-13s total %" PRIu64 " pairs, %" PRIu64 " mismatches\n", where, op_names[op],
               all[op], bad[op]);
    }
    printf("%s: %.1f s\n", where, seconds);
    return bad[0] || bad[1];
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The test must be able to fail: the naive float arithmetic has to differ on some pairs. */
static int check_mutation(void)
{
    uint64_t differ = 0, n = 1000000;
    for (uint64_t i = 0; i < n; i++) {
        float a, b;
        fp32_pair(FP32_PAIRS_RANDOM_WORK, i, &a, &b);
        const float naive = sqrtf(a * b);
        differ += !fp32_same(naive, fp32_ref_sqrt_prod(a, b));
    }
    printf("mutation: float product + sqrtf differs from the reference on %" PRIu64
           " of %" PRIu64 " working-range pairs\n", differ, n);
    return differ == 0;
}

static int run_host(void)
{
    const double t0 = now();
    HostJob jobs[N_THREADS];
    pthread_t th[N_THREADS];
    memset(jobs, 0, sizeof(jobs));
    for (unsigned k = 0; k < N_THREADS; k++) {
        jobs[k].thread = k;
        if (pthread_create(&th[k], NULL, host_worker, &jobs[k])) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    Totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned k = 0; k < N_THREADS; k++) {
        pthread_join(th[k], NULL);
        for (int kind = 0; kind < FP32_PAIRS_NB; kind++)
            for (int op = 0; op < 2; op++) {
                t.pairs[kind][op] += jobs[k].t.pairs[kind][op];
                t.bad[kind][op] += jobs[k].t.bad[kind][op];
            }
    }
    int fail = print_totals("host", &t, now() - t0);
    fail |= check_mutation();
    return fail;
}

static int run_device(void)
{
    const double t0 = now();
    char err[512], name[512];
    const int device = getenv("LOCKSTEP_GPU") ? atoi(getenv("LOCKSTEP_GPU")) : 0;
    if (ls_opencl_probe(device, err, sizeof(err)) < 0) {
        printf("SKIP: no OpenCL device: %s\n", err);
        return 77;
    }
    ls_opencl_device_description(device, name, sizeof(name));
    printf("OpenCL device %d: %s\n", device, name);
    const size_t batch = 1 << 22;
    float *a = malloc(batch * sizeof(float)), *b = malloc(batch * sizeof(float));
    float *out = malloc(batch * sizeof(float));
    if (!a || !b || !out) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    Totals t;
    memset(&t, 0, sizeof(t));
    int fail = 0;
    for (int op = 0; op < 2 && !fail; op++) {
        for (int kind = 0; kind < FP32_PAIRS_NB && !fail; kind++) {
            uint64_t n = fp32_pairs_count(kind, random_n, reps);
            if (op == 1 && kind != FP32_PAIRS_BOUNDARY)
                n /= 10;
            for (uint64_t base = 0; base < n; base += batch) {
                const size_t len = (size_t)(n - base < batch ? n - base : batch);
                for (size_t i = 0; i < len; i++)
                    fp32_pair(kind, base + i, &a[i], &b[i]);
                if (ls_opencl_fp32_selftest(device, op, a, b, out, len, err, sizeof(err)) < 0) {
                    fprintf(stderr, "device run failed: %s\n", err);
                    fail = 1;
                    break;
                }
                for (size_t i = 0; i < len; i++) {
                    const float want = op ? fp32_ref_div(a[i], b[i])
                                          : fp32_ref_sqrt_prod(a[i], b[i]);
                    if (!fp32_same(out[i], want) && t.bad[kind][op]++ < 10)
                        report_mismatch(op, kind, base + i, a[i], b[i], out[i], want);
                }
                t.pairs[kind][op] += len;
            }
        }
    }
    free(a);
    free(b);
    free(out);
    return print_totals("device", &t, now() - t0) || fail;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "host";
    const char *scale_env = getenv("LOCKSTEP_FP32_SCALE");
    const unsigned scale = scale_env && atoi(scale_env) > 0 ? (unsigned)atoi(scale_env) : 1;
    if (!strcmp(mode, "host")) {
        random_n = 25000000ull * scale; /* + 4 x 2^23 for each near-midpoint kind */
        reps = 4;
        return run_host();
    }
    if (!strcmp(mode, "device")) {
        random_n = 17000000ull * scale; /* + 4 x 2^23 for each near-midpoint kind */
        reps = 4;
        return run_device();
    }
    fprintf(stderr, "usage: %s host|device\n", argv[0]);
    return 2;
}
