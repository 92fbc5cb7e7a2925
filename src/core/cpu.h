/* CPU feature detection. Usable flags = detected AND NOT --cpumask, so every variant can be
 * forced off (bit 3 of the mask turns AVX2 off, bit 4 AVX-512, as in libvmaf's --cpumask). */
#ifndef LOCKSTEP_CORE_CPU_H
#define LOCKSTEP_CORE_CPU_H

#include <stdint.h>

enum LsCpuFlags {
    LS_CPU_FLAG_SSE2 = 1 << 0,
    LS_CPU_FLAG_SSSE3 = 1 << 1,
    LS_CPU_FLAG_SSE41 = 1 << 2,
    LS_CPU_FLAG_AVX2 = 1 << 3,
    LS_CPU_FLAG_AVX512 = 1 << 4,
    /* AVX-512 with Ice Lake's additions (libvmaf's AVX512ICL, cpumask bit 5); the variants of
     * this level use VNNI */
    LS_CPU_FLAG_AVX512ICL = 1 << 5,
};

uint64_t ls_cpu_detect(void);
/* Levels are cumulative, as in dav1d: masking AVX2 also turns the AVX-512 variants off. */
static inline uint64_t ls_cpu_usable(uint64_t cpumask)
{
    uint64_t f = ls_cpu_detect() & ~cpumask;
    if (!(f & LS_CPU_FLAG_AVX2))
        f &= ~(uint64_t)LS_CPU_FLAG_AVX512;
    if (!(f & LS_CPU_FLAG_AVX512))
        f &= ~(uint64_t)LS_CPU_FLAG_AVX512ICL;
    return f;
}

#endif
