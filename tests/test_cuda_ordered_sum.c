/* The ordered-sum host reference (src/cuda/ordered_sum.c: the algorithm the CUDA walker runs, on
 * the exact primitives of core/ordered_sum.h that the OpenCL kernels run too) against the plain
 * sequential float loop: bit for bit on millions of terms, ties, subnormals, zero runs and
 * overflow (tests/ordered_sum_cases.h, the inputs of the OpenCL test as well), with the binade
 * prediction also forced wrong so that every fallback path runs. Needs no GPU.
 * Built with -DLS_MUTATE_NO_TIES (ties resolved without the running parity) it must find a
 * difference instead: the test can fail. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/ordered_sum.h"
#include "ordered_sum_cases.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

int main(void)
{
    static const size_t sizes[] = { 1, 31, 8191, 8192, 8193, 100003, 1u << 22, 16200000 };
    static const int biases[] = { 0, 1, -1, 3, -7 };
#if defined(LS_MUTATE_NO_TIES)
    const int mutation = 1;
#else
    const int mutation = 0;
#endif
    const size_t max_n = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1];
    float *t = malloc(max_n * sizeof(*t));
    if (!t)
        return 1;
    unsigned failures = 0, cases = 0, tree_differs = 0, tree_cases = 0;
    for (unsigned k = 0; k < OS_N_KINDS; k++) {
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            const size_t n = sizes[si];
            os_fill(t, n, (enum OsKind)k, rnd);
            const float want = os_sequential(t, n);
            if (n >= 100000 && want != 0.0f && !mutation) {
                tree_cases++;
                tree_differs += os_bits(os_pairwise(t, n)) != os_bits(want);
            }
            for (size_t bi = 0; bi < sizeof(biases) / sizeof(biases[0]); bi++) {
                /* the biased predictions replay much more: keep them to the smaller sizes */
                if (biases[bi] && n > (1u << 22))
                    continue;
                LsOsStats st;
                const float got = ls_ordered_sum_ref(t, n, biases[bi], &st);
                cases++;
                if (os_bits(got) != os_bits(want)) {
                    failures++;
                    if (mutation) {
                        printf("ok   mutation LS_MUTATE_NO_TIES: %s n=%zu bias=%d gives %a, the "
                               "sequential sum %a\n",
                               os_kind_names[k], n, biases[bi], got, want);
                        free(t);
                        return 0;
                    }
                    printf("FAIL %s n=%zu bias=%d: got %a want %a\n", os_kind_names[k], n,
                           biases[bi], got, want);
                } else if (bi == 0 && n >= (1u << 22) && !mutation) {
                    printf("ok %-12s n=%-9zu sum=%a chunks=%" PRIu64 " applied=%" PRIu64
                           " zero=%" PRIu64 " fallback=%" PRIu64 " segments=%" PRIu64
                           " passes=%" PRIu64 " replayed=%" PRIu64 "\n",
                           os_kind_names[k], n, want, st.chunks, st.chunks_applied,
                           st.chunks_zero, st.chunks_fallback, st.segments_walked, st.passes,
                           st.terms_replayed);
                }
            }
        }
    }
    free(t);
    if (mutation) {
        printf("FAIL mutation LS_MUTATE_NO_TIES: all %u cases still equal the sequential sum\n",
               cases);
        return 1;
    }
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
