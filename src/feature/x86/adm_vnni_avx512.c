/* AVX-512 VNNI variants of the ADM row units (cpumask level AVX512ICL): the AVX-512 file with
 * every madd-and-add of the scale 0 DWT as one vpdpwssd, which gives the same sums mod 2^32.
 * Built with the AVX-512 flags; VNNI is enabled for this file only. */
#pragma GCC target("avx512vnni")
#include <immintrin.h>

#define VDPADD _mm512_dpwssd_epi32
#define LS_ADM_AVX512_SUFFIX _avx512vnni
#include "feature/x86/adm_avx512.c"
