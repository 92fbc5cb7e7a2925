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
    /* AVX-512 VBMI's byte permutes (Ice Lake and Zen 4 have them, Cascade Lake has VNNI
     * without them): no libvmaf level, so a flag of its own (cpumask bit 6), off with AVX-512 */
    LS_CPU_FLAG_AVX512VBMI = 1 << 6,
};

uint64_t ls_cpu_detect(void);

/* Whether AVX2's gathers are microcoded: on AMD's Zen before Zen 4 eight lanes take 12-13 ns
 * (measured on the project's AMD VMs), where loading the entries one by one takes 4.8 ns; on
 * Intel since Haswell the instruction is the faster one. Decided by vendor, not model: Zen 4
 * and later run the AVX-512 units, and where their AVX2 units run the two ways cost about the
 * same. The compiler's CPU model is set before main, so this reads a constant. */
static inline int ls_cpu_gathers_microcoded(void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDA_ARCH__)
    return __builtin_cpu_is("amd");
#else
    return 0;
#endif
}

/* Levels are cumulative, as in dav1d: masking AVX2 also turns the AVX-512 variants off. */
static inline uint64_t ls_cpu_usable(uint64_t cpumask)
{
    uint64_t f = ls_cpu_detect() & ~cpumask;
    if (!(f & LS_CPU_FLAG_AVX2))
        f &= ~(uint64_t)LS_CPU_FLAG_AVX512;
    if (!(f & LS_CPU_FLAG_AVX512))
        f &= ~(uint64_t)(LS_CPU_FLAG_AVX512ICL | LS_CPU_FLAG_AVX512VBMI);
    return f;
}

#endif
