/* The ordered-sum reference (src/cuda/ordered_sum.c), the algorithm the CUDA walker runs, against
 * the plain sequential float loop: bit for bit on millions of terms, ties included, with the
 * binade prediction also forced wrong so that every fallback path runs. Needs no GPU. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/ordered_sum.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static float rnd_unit(void) { return (float)(rnd() >> 8) * 0x1p-24f; }

static float sequential(const float *t, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++)
        s = s + t[i];
    return s;
}

static float pairwise(const float *t, size_t n)
{
    if (n == 1)
        return t[0];
    if (n == 0)
        return 0.0f;
    return pairwise(t, n / 2) + pairwise(t + n / 2, n - n / 2);
}

enum Kind {
    UNIFORM,      /* [0, 1) */
    SQUARES,      /* w*w, w in [0, 64): psnr_hvs-like */
    HALVES,       /* k/2, k small integers: ties everywhere once the sum passes 2^23 */
    QUARTERS_BIG, /* large start, then quarters: ties at coarse ulps */
    SPARSE,       /* mostly zero, long zero prefix */
    WIDE,         /* terms over 40 binades */
    TINY,         /* subnormal and tiny normal terms */
    ZEROS,        /* all zero */
    N_KINDS
};

static const char *const kind_names[N_KINDS] = { "uniform", "squares", "halves", "quarters_big",
                                                 "sparse",  "wide",    "tiny",   "zeros" };

static void fill(float *t, size_t n, enum Kind kind)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case UNIFORM: t[i] = rnd_unit(); break;
        case SQUARES: {
            const float w = rnd_unit() * 64.0f;
            t[i] = (rnd() & 7) ? w * w : 0.0f;
            break;
        }
        case HALVES: t[i] = (float)(rnd() % 8) * 0.5f; break;
        case QUARTERS_BIG: t[i] = i == 0 ? 0x1p24f : (float)(rnd() % 16) * 0.25f + 1.0f; break;
        case SPARSE: t[i] = (i < n / 3 || (rnd() & 63)) ? 0.0f : rnd_unit() * 1000.0f; break;
        case WIDE: t[i] = ldexpf(rnd_unit(), (int)(rnd() % 40) - 20); break;
        case TINY:
            t[i] = (rnd() & 1) ? ls_os_float(rnd() % 0x800000u) : ldexpf(rnd_unit(), -120);
            break;
        default: t[i] = 0.0f; break;
        }
    }
}

int main(void)
{
    static const size_t sizes[] = { 1, 31, 8191, 8192, 8193, 100003, 1u << 22, 16200000 };
    static const int biases[] = { 0, 1, -1, 3, -7 };
    const size_t max_n = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1];
    float *t = malloc(max_n * sizeof(*t));
    if (!t)
        return 1;
    unsigned failures = 0, cases = 0, tree_differs = 0, tree_cases = 0;
    for (unsigned k = 0; k < N_KINDS; k++) {
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            const size_t n = sizes[si];
            fill(t, n, (enum Kind)k);
            const float want = sequential(t, n);
            if (n >= 100000 && want != 0.0f) {
                tree_cases++;
                tree_differs += pairwise(t, n) != want;
            }
            for (size_t bi = 0; bi < sizeof(biases) / sizeof(biases[0]); bi++) {
                /* the biased predictions replay much more: keep them to the smaller sizes */
                if (biases[bi] && n > (1u << 22))
                    continue;
                LsOsStats st;
                const float got = ls_ordered_sum_ref(t, n, biases[bi], &st);
                cases++;
                if (ls_os_bits(got) != ls_os_bits(want)) {
                    failures++;
                    printf("FAIL %s n=%zu bias=%d: got %a want %a\n", kind_names[k], n,
                           biases[bi], got, want);
                } else if (bi == 0 && n >= (1u << 22)) {
                    printf("ok %-12s n=%-9zu sum=%a chunks=%" PRIu64 " applied=%" PRIu64
                           " zero=%" PRIu64 " fallback=%" PRIu64 " segments=%" PRIu64
                           " passes=%" PRIu64 " replayed=%" PRIu64 "\n",
                           kind_names[k], n, want, st.chunks, st.chunks_applied, st.chunks_zero,
                           st.chunks_fallback, st.segments_walked, st.passes, st.terms_replayed);
                }
            }
        }
    }
    free(t);
    printf("%u/%u cases exact; a pairwise tree differed from the sequential sum in %u of %u "
           "large cases\n",
           cases - failures, cases, tree_differs, tree_cases);
    /* the test must be able to fail: a reordered sum has to show up on these inputs */
    if (tree_differs == 0) {
        printf("FAIL: no input distinguishes a tree reduction from the sequential sum\n");
        return 1;
    }
    return failures ? 1 : 0;
}
