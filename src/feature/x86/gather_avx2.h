/* Table lookups of eight 32-bit lanes for the AVX2 units. Where AVX2's gathers are microcoded
 * (ls_cpu_gathers_microcoded: AMD), the lanes' indices move to general registers two at a time
 * and each entry is loaded on its own: on the project's Zen VMs 4.8 ns for eight lanes against
 * 12-13 ns, and float_ssim's decimation (a gather per tap) ran 25 % faster for it
 * (bench/README.md). Elsewhere the gather instruction. The test reads a constant and goes the same
 * way for the whole run. The values are those of _mm256_i32gather_*(table, idx, 4)
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

/* the eight 32-bit lanes of idx in general registers, two to each q[k]: lane 2k in the low half,
 * lane 2k + 1 in the high half */
static inline __attribute__((always_inline)) void ls_lane_pairs_(__m256i idx, uint64_t q[4])
{
    const __m128i a = _mm256_castsi256_si128(idx), b = _mm256_extracti128_si256(idx, 1);
    q[0] = (uint64_t)_mm_cvtsi128_si64(a);
    q[1] = (uint64_t)_mm_extract_epi64(a, 1);
    q[2] = (uint64_t)_mm_cvtsi128_si64(b);
    q[3] = (uint64_t)_mm_extract_epi64(b, 1);
}

/* lane k of the eight, sign-extended */
static inline __attribute__((always_inline)) int32_t ls_lane_(const uint64_t q[4], unsigned k)
{
    return (int32_t)(uint32_t)(q[k / 2] >> (32 * (k % 2)));
}

/* entries of a 32-bit table: lane k of the result is table[idx[k]] */
static inline __attribute__((always_inline)) __m256i ls_gather32_avx2(const void *table,
                                                                      __m256i idx)
{
    if (!ls_cpu_gathers_microcoded())
        return _mm256_i32gather_epi32((const int *)table, idx, 4);
    uint64_t q[4];
    ls_lane_pairs_(idx, q);
    __m128i lo = _mm_cvtsi32_si128(ls_entry32_(table, ls_lane_(q, 0)));
    lo = _mm_insert_epi32(lo, ls_entry32_(table, ls_lane_(q, 1)), 1);
    lo = _mm_insert_epi32(lo, ls_entry32_(table, ls_lane_(q, 2)), 2);
    lo = _mm_insert_epi32(lo, ls_entry32_(table, ls_lane_(q, 3)), 3);
    __m128i hi = _mm_cvtsi32_si128(ls_entry32_(table, ls_lane_(q, 4)));
    hi = _mm_insert_epi32(hi, ls_entry32_(table, ls_lane_(q, 5)), 1);
    hi = _mm_insert_epi32(hi, ls_entry32_(table, ls_lane_(q, 6)), 2);
    hi = _mm_insert_epi32(hi, ls_entry32_(table, ls_lane_(q, 7)), 3);
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
    uint64_t q[4];
    ls_lane_pairs_(idx, q);
    int64_t sum = 0;
    for (unsigned k = 0; k < 8; k++)
        sum += table[ls_lane_(q, k)];
    return sum;
}

#endif
