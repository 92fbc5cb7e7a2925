/* AVX-512 VNNI variant of the integer motion SAD (cpumask level AVX512ICL): the AVX-512 template
 * with every madd-and-add as one vpdpwssd, which gives the same sums mod 2^32. Built with the
 * AVX-512 flags; VNNI is enabled for this file only. */
#pragma GCC target("avx512vnni")
#include <immintrin.h>

#define VDPADD _mm512_dpwssd_epi32
#define LS_MOTION_AVX512_SUFFIX _avx512vnni
#include "feature/x86/motion_avx512.c"
