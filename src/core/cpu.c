#include "core/cpu.h"

uint64_t ls_cpu_detect(void)
{
    uint64_t flags = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2")) flags |= LS_CPU_FLAG_SSE2;
    if (__builtin_cpu_supports("ssse3")) flags |= LS_CPU_FLAG_SSSE3;
    if (__builtin_cpu_supports("sse4.1")) flags |= LS_CPU_FLAG_SSE41;
    if (__builtin_cpu_supports("avx2")) flags |= LS_CPU_FLAG_AVX2;
    /* the AVX-512 variants use F, BW, DQ and VL (Skylake-SP, Zen 4 and later) */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        flags |= LS_CPU_FLAG_AVX512;
    if ((flags & LS_CPU_FLAG_AVX512) && __builtin_cpu_supports("avx512vnni"))
        flags |= LS_CPU_FLAG_AVX512ICL;
    if ((flags & LS_CPU_FLAG_AVX512) && __builtin_cpu_supports("avx512vbmi"))
        flags |= LS_CPU_FLAG_AVX512VBMI;
#endif
    return flags;
}
