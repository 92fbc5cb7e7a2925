/* Table lookups of eight 32-bit lanes for the AVX2 units. Where AVX2's gathers are microcoded
 * (ls_cpu_gathers_microcoded: AMD), the lanes' indices move to general registers two at a time
 * and each entry is loaded on its own: on the project's Zen VMs 4.8 ns for eight lanes against
 * 12-13 ns, and float_ssim's decimation (a gather per tap) ran 25 % faster for it
 * (bench/README.md). Elsewhere the gather instruction. The branch is the same for the whole run
 * (GCC takes it out of the loops). The values are those of _mm256_i32gather_*(table, idx, 4)
 * either way: signed 32-bit indices, one entry each. */
#ifndef LOCKSTEP_FEATURE_X86_GATHER_AVX2_H
#define LOCKSTEP_FEATURE_X86_GATHER_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/cpu.h"

/* entry i of a table of 32-bit entries of any type (memcpy: no aliasing of floats as int) */
static inline __attribute__((always_inline)) int32_t ls_entry32_(const void *table, int32_t i)
{
    int32_t v;
    memcpy(&v, (const char *)table + (ptrdiff_t)i * 4, sizeof(v));
    return v;
}

/* entries of a 32-bit table: lane k of the result is table[idx[k]] */
static inline __attribute__((always_inline)) __m256i ls_gather32_avx2(const void *table,
                                                                      __m256i idx)
{
    if (!ls_cpu_gathers_microcoded())
        return _mm256_i32gather_epi32((const int *)table, idx, 4);
    const __m128i a = _mm256_castsi256_si128(idx), b = _mm256_extracti128_si256(idx, 1);
    const uint64_t a01 = (uint64_t)_mm_cvtsi128_si64(a), a23 = (uint64_t)_mm_extract_epi64(a, 1);
    const uint64_t b01 = (uint64_t)_mm_cvtsi128_si64(b), b23 = (uint64_t)_mm_extract_epi64(b, 1);
#define LS_LANE_LO_(x) ls_entry32_(table, (int32_t)(uint32_t)(x))
#define LS_LANE_HI_(x) ls_entry32_(table, (int32_t)(uint32_t)((x) >> 32))
    __m128i lo = _mm_cvtsi32_si128(LS_LANE_LO_(a01));
    lo = _mm_insert_epi32(lo, LS_LANE_HI_(a01), 1);
    lo = _mm_insert_epi32(lo, LS_LANE_LO_(a23), 2);
    lo = _mm_insert_epi32(lo, LS_LANE_HI_(a23), 3);
    __m128i hi = _mm_cvtsi32_si128(LS_LANE_LO_(b01));
    hi = _mm_insert_epi32(hi, LS_LANE_HI_(b01), 1);
    hi = _mm_insert_epi32(hi, LS_LANE_LO_(b23), 2);
    hi = _mm_insert_epi32(hi, LS_LANE_HI_(b23), 3);
#undef LS_LANE_LO_
#undef LS_LANE_HI_
    return _mm256_set_m128i(hi, lo);
}

/* the same for a float table (the entries' bits move unchanged) */
static inline __attribute__((always_inline)) __m256 ls_gather_ps_avx2(const float *table,
                                                                     __m256i idx)
{
    if (!ls_cpu_gathers_microcoded())
        return _mm256_i32gather_ps(table, idx, 4);
    return _mm256_castsi256_ps(ls_gather32_avx2(table, idx));
}

/* lanes in mask (all ones) read table[idx], the others give 0 and read entry 0, which must
 * exist: _mm256_mask_i32gather_ps(0, table, idx, mask, 4) */
static inline __attribute__((always_inline)) __m256 ls_mask_gather_ps_avx2(const float *table,
                                                                          __m256i idx,
                                                                          __m256i mask)
{
    if (!ls_cpu_gathers_microcoded())
        return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), table, idx, _mm256_castsi256_ps(mask),
                                        4);
    const __m256i v = ls_gather32_avx2(table, _mm256_and_si256(idx, mask));
    return _mm256_castsi256_ps(_mm256_and_si256(v, mask));
}

/* Σ table[idx[k]] over the eight lanes (indices >= 0) of a uint16 table: the lanes' indices
 * move to general registers two at a time, as above. For the sums of many lookups (VIF's log2
 * terms), where no vector of the entries is needed; 4 % faster than storing the indices and
 * loading them back one by one on the AMD kind. */
static inline __attribute__((always_inline)) int64_t ls_table_sum_u16_avx2(const uint16_t *table,
                                                                          __m256i idx)
{
    const __m128i a = _mm256_castsi256_si128(idx), b = _mm256_extracti128_si256(idx, 1);
    const uint64_t q0 = (uint64_t)_mm_cvtsi128_si64(a), q1 = (uint64_t)_mm_extract_epi64(a, 1);
    const uint64_t q2 = (uint64_t)_mm_cvtsi128_si64(b), q3 = (uint64_t)_mm_extract_epi64(b, 1);
    return (int64_t)table[(uint32_t)q0] + table[q0 >> 32] + table[(uint32_t)q1] + table[q1 >> 32] +
           table[(uint32_t)q2] + table[q2 >> 32] + table[(uint32_t)q3] + table[q3 >> 32];
}

#endif
