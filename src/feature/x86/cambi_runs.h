/* The runs of a row (ls_cambi_runs_c) from bitmaps, shared by the AVX2 and AVX-512 variants,
 * each with its own run_bits: bit j % 32 of word j / 32 of `counted` is set where column j is
 * masked with a value in [lo, hi], of `cont` where it is counted and so is column j - 1, with the
 * same value (the run goes on). Included by x86/cambi_avx2.c and x86/cambi_avx512.c. */
#ifndef LOCKSTEP_FEATURE_X86_CAMBI_RUNS_H
#define LOCKSTEP_FEATURE_X86_CAMBI_RUNS_H

#include "feature/cambi.h"

typedef void (*RunBitsFn)(uint32_t *counted, uint32_t *cont, const uint16_t *vals,
                          const uint8_t *mask, unsigned w, int lo, int hi);

static inline unsigned runs_from_bits(LsCambiRun *runs, const uint16_t *vals, const uint8_t *mask,
                                      unsigned w, int lo, int hi, RunBitsFn run_bits)
{
    enum { MAX_WORDS = 256 };
    uint32_t counted[MAX_WORDS], cont[MAX_WORDS];
    unsigned n_start = 0, n_end = 0;
    for (unsigned base = 0; base < w; base += 32 * MAX_WORDS) {
        /* bitmaps of blocks of 8192 columns; a run may cross blocks: cont of the first word of
         * a block looks at the previous block's last column */
        const unsigned len = w - base < 32 * MAX_WORDS ? w - base : 32 * MAX_WORDS;
        const unsigned words = (len + 31) / 32;
        run_bits(counted, cont, vals + base, mask + base, len, lo, hi);
        if (base && counted[0] & 1 && mask[base - 1] && vals[base - 1] == vals[base] &&
            vals[base - 1] >= lo && vals[base - 1] <= hi)
            cont[0] |= 1;
        for (unsigned k = 0; k < words; k++) {
            /* a run starts where counted and not continued, ends where the next is not continued */
            const uint32_t next = k + 1 < words ? cont[k + 1] : 0;
            uint32_t starts = counted[k] & ~cont[k];
            uint32_t ends = counted[k] & ~((cont[k] >> 1) | (next << 31));
            const int32_t at = (int32_t)(base + 32 * k);
            for (; starts; starts &= starts - 1)
                runs[n_start++].start = at + __builtin_ctz(starts);
            for (; ends; ends &= ends - 1)
                runs[n_end++].end = at + __builtin_ctz(ends);
        }
        if (base + len < w && counted[words - 1] >> ((len - 1) % 32) & 1 && mask[base + len] &&
            vals[base + len] == vals[base + len - 1]) {
            /* the last run of the block goes on: its end is found in the next block */
            n_end--;
        }
    }
    return n_start;
}

#endif
