/* core/ordered_sum_f64.h on the host: the stages the OpenCL ssim twins run (chunk totals, the
 * predicted prefix, base summaries, two levels of composed summaries, the walk) driven in C over
 * term sequences shaped like ssim's and float_ssim's chains and harder ones (cancellation around
 * zero, a negative running sum, exact ties, terms that jump binades), each result compared by its
 * bits with the sequential double chain `s = 0; s += t[k]` the CPU runs. The share of base
 * chunks replayed term by term is checked too on the ssim-like sequences: the fast path must
 * carry them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ordered_sum_f64.h"
#include "test_support.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void) /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

/* The pipeline of src/opencl/ordered_sum_f64.clh, one stage after the other. */
static uint64_t os64_sum(const double *terms, uint64_t n, uint64_t *replayed)
{
    const uint64_t *t = (const uint64_t *)(const void *)terms;
    const uint64_t n0 = ls_os64_chunks(n, LS_OS64_BASE), n1 = ls_os64_chunks(n0, LS_OS64_FAN),
                   n2 = ls_os64_chunks(n1, LS_OS64_FAN);
    float *pred = malloc(n0 * sizeof(*pred));
    LsOs64Summary *s0 = malloc(n0 * LS_OS64_BINADES * sizeof(*s0));
    LsOs64Summary *s1 = malloc(n1 * LS_OS64_BINADES * sizeof(*s1));
    LsOs64Summary *s2 = malloc(n2 * LS_OS64_BINADES * sizeof(*s2));
    float run = 0.0f;
    for (uint64_t c = 0; c < n0; c++) {
        pred[c] = run;
        run += ls_os64_chunk_total(t, n, c);
    }
    for (uint64_t c = 0; c < n0; c++)
        for (int j = 0; j < LS_OS64_BINADES; j++)
            ls_os64_base_summary(&s0[c * LS_OS64_BINADES + j], t, n, c, pred[c], j);
    for (uint64_t k = 0; k < n1; k++)
        for (int j = 0; j < LS_OS64_BINADES; j++)
            ls_os64_parent_summary(&s1[k * LS_OS64_BINADES + j], s0, n0, k,
                                   pred[k * LS_OS64_FAN], j);
    for (uint64_t k = 0; k < n2; k++)
        for (int j = 0; j < LS_OS64_BINADES; j++)
            ls_os64_parent_summary(&s2[k * LS_OS64_BINADES + j], s1, n1, k,
                                   pred[k * LS_OS64_FAN * LS_OS64_FAN], j);
    const uint64_t s = ls_os64_walk_sum(t, n, s0, n0, s1, n1, s2, n2, replayed);
    free(pred);
    free(s0);
    free(s1);
    free(s2);
    return s;
}

static void check_case(const char *name, const double *t, uint64_t n, double max_replayed)
{
    double seq = 0.0;
    for (uint64_t i = 0; i < n; i++)
        seq = seq + t[i];
    uint64_t replayed = 0;
    const uint64_t got = os64_sum(t, n, &replayed);
    double got_d;
    memcpy(&got_d, &got, sizeof(got_d));
    const double share = (double)replayed / (double)ls_os64_chunks(n, LS_OS64_BASE);
    CHECK(got == double_bits(seq), "%s (n %llu): %.17g (0x%016llx), sequential %.17g (0x%016llx)",
          name, (unsigned long long)n, got_d, (unsigned long long)got, seq,
          (unsigned long long)double_bits(seq));
    CHECK(share <= max_replayed, "%s: %.2f%% of the base chunks replayed, expected at most %.2f%%",
          name, 100 * share, 100 * max_replayed);
    printf("%s %s: n %llu, %.17g, %llu of %llu base chunks replayed\n",
           got == double_bits(seq) ? "ok" : "FAIL", name, (unsigned long long)n, seq,
           (unsigned long long)replayed, (unsigned long long)ls_os64_chunks(n, LS_OS64_BASE));
}

int main(void)
{
    const uint64_t big = 1000003; /* ~ 4K ssim's 8.3M in shape, kept short */
    double *t = malloc(big * sizeof(*t));
    /* integer ssim: weighted terms, nearly all positive */
    for (uint64_t i = 0; i < big; i++)
        t[i] = 4096.0 * (0.9 + 0.1 * uniform()) * (uniform() < 0.01 ? -0.5 : 1.0);
    check_case("ssim-like", t, big, 0.01);
    /* float_ssim: l*c*s of either sign around a positive mean, 4K's decimated grid */
    for (uint64_t i = 0; i < 122200; i++)
        t[i] = 0.6 + 0.8 * (uniform() - 0.5);
    check_case("float_ssim-like", t, 122200, 0.02);
    for (uint64_t n = 1; n < 300; n += 37)
        check_case("short", t, n, 1.0);
    /* cancellation: the sum wanders around 0 */
    for (uint64_t i = 0; i < 200000; i++)
        t[i] = uniform() - 0.5;
    check_case("zero mean", t, 200000, 1.0);
    /* a negative running sum */
    for (uint64_t i = 0; i < 200000; i++)
        t[i] = -0.7 + 0.5 * (uniform() - 0.5);
    check_case("negative", t, 200000, 0.02);
    /* exact ties: halves added to a sum of 2^53 scale (ulp 1 or 2), both signs */
    t[0] = 0x1p52 + 3.0;
    for (uint64_t i = 1; i < 100000; i++)
        t[i] = (double)((int64_t)(uniform() * 8) - 2) + 0.5 * (double)(uniform() < 0.5) +
               (uniform() < 0.3 ? 0.25 : 0.0);
    check_case("ties", t, 100000, 0.05);
    /* a sum that stays just above a power of two: every chunk meets the binade's bottom */
    t[0] = 1024.0;
    for (uint64_t i = 1; i < 50000; i++)
        t[i] = (i & 1) ? 0x1p-40 : -0x1p-40;
    check_case("bottom of a binade", t, 50000, 1.0);
    /* down onto a power of two: the grid of the binade would round 1024 - 0.375 u to 1024, the
     * binade below holds 1024 - u / 2, the sequential result (u = 2^-42, the ulp at 1024) */
    memset(t, 0, 1000 * sizeof(*t));
    t[0] = 1024.0;
    t[1] = 3 * 0x1p-42;
    t[LS_OS64_BASE] = -3.375 * 0x1p-42;
    check_case("onto a power of two", t, 1000, 1.0);
    /* binade jumps: a few huge terms among small ones, and tiny ones that vanish */
    for (uint64_t i = 0; i < 200000; i++)
        t[i] = (i % 9973 == 5) ? 1e12 * uniform() : (i % 7 == 3) ? 1e-30 : uniform();
    check_case("jumps", t, 200000, 0.1);
    free(t);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
