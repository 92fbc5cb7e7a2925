/* The x86 approximate reciprocal (RCPSS), in one place. float_adm's reference divides with it
 * (features/float_adm.md §5.2), and the instruction is not specified bit for bit: Intel and AMD
 * return different approximations, so the reference's scores depend on the CPU vendor.
 *
 * What the result depends on (measured over all 2^32 inputs on an Intel Xeon, family 6 model 207,
 * for RCPSS, 128-bit RCPPS and 256-bit VRCPPS alike):
 *   - normal input x = (-1)^s * m * 2^(e-127), m in [1, 2): the result is
 *     (-1)^s * T[i] * 2^(127-e), where i = the 11 leading fraction bits of m (2048 entries) and
 *     T[i] = rcp(1 + i/2048) lies in (0.5, 1) with 12 fraction bits; while it is normal (e <= 252);
 *   - e >= 253 (the reciprocal would be below 2^-126): +-0;
 *   - +-0 and subnormal inputs: +-inf; +-inf: +-0; NaN: the same NaN, quieted.
 * Intel's table has a closed form, T[i] = round(2^25 / (4097 + 2i)) * 2^-13: the reciprocal of the
 * midpoint of the input interval, rounded to 13 bits (ls_rcp_intel_entry).
 * The zero, infinity and NaN cases are architectural; subnormal inputs and results below 2^-126
 * are left to the implementation by the ISA, and only Intel's handling is known here. float_adm
 * can only meet them if a band value lies within 2^-126 of -1e-30.
 *
 * Modes (LS_RCP_MODE, from the CMake option LOCKSTEP_RCP):
 *   LS_RCP_HOST  (default on x86)   the host's instruction: the host's vendor's bits;
 *   LS_RCP_INTEL (default elsewhere) the Intel model above in software: Intel's bits anywhere (on
 *                an AMD host too, where it reproduces the goldens made on Intel);
 *   LS_RCP_DIVIDE                    float_adm divides (t / d) as the reference does when built
 *                without SSE2 (e.g. on ARM); ls_rcp_approx is then the Intel model, unused.
 * A GPU twin uploads ls_rcp_table() at init and calls ls_rcp_from_table(): the host's bits. The
 * table has 2^ls_rcp_table_bits() entries, the resolution probed on the host (Intel: 11 bits,
 * 2048 entries, 8 KB), so it stays exact on a vendor whose table is finer. */
#ifndef LOCKSTEP_CORE_RCP_H
#define LOCKSTEP_CORE_RCP_H

#include "core/portable.h"

#define LS_RCP_HOST 0
#define LS_RCP_INTEL 1
#define LS_RCP_DIVIDE 2

#if !defined(LS_RCP_MODE)
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
#define LS_RCP_MODE LS_RCP_HOST
#else
#define LS_RCP_MODE LS_RCP_INTEL
#endif
#endif

/* Intel's table: 11 leading fraction bits */
#define LS_RCP_INTEL_BITS 11

/* The result for input bits u, given the float bits `entry` of the approximation of the
 * reciprocal of 1.f (f = the leading fraction bits of u that decide it, the rest zero). */
LS_HD static inline float ls_rcp_scale(ls_u32 u, ls_u32 entry)
{
    const ls_u32 sign = u & 0x80000000u, e = (u >> 23) & 0xffu;
    if (e == 0)
        return ls_bits_float(sign | 0x7f800000u);
    if (e == 0xffu)
        return ls_bits_float((u & 0x7fffffu) ? (u | 0x400000u) : sign);
    const int re = (int)((entry >> 23) & 0xffu) + 127 - (int)e;
    if (re <= 0)
        return ls_bits_float(sign);
    return ls_bits_float(sign | ((ls_u32)re << 23) | (entry & 0x7fffffu));
}

/* The table's address space: global memory unless the includer says otherwise (the OpenCL
 * float_adm twin holds it in __constant). */
#ifndef LS_RCP_TABLE_SPACE
#define LS_RCP_TABLE_SPACE LS_GLOBAL
#endif

/* The approximation from a table of 2^bits float bits (as ls_rcp_table fills it). */
LS_HD static inline float ls_rcp_from_table(float x, LS_RCP_TABLE_SPACE const ls_u32 *table,
                                            unsigned bits)
{
    const ls_u32 u = ls_float_bits(x);
    return ls_rcp_scale(u, table[(u & 0x7fffffu) >> (23 - bits)]);
}

/* Entry i of Intel's table (i < 2^11), as float bits. */
LS_HD static inline ls_u32 ls_rcp_intel_entry(ls_u32 i)
{
    const ls_u32 d = 4097u + 2u * i;
    const ls_u32 r13 = ((1u << 26) + d) / (2u * d); /* round(2^25 / d), never a tie (d odd) */
    return 0x3f000000u | ((r13 - 4096u) << 11);
}

/* Intel's RCPSS in software. */
LS_HD static inline float ls_rcp_intel(float x)
{
    const ls_u32 u = ls_float_bits(x);
    return ls_rcp_scale(u, ls_rcp_intel_entry((u & 0x7fffffu) >> (23 - LS_RCP_INTEL_BITS)));
}

#if !defined(__CUDACC__) && !defined(LS_OPENCL_C)
#if LS_RCP_MODE == LS_RCP_HOST
#include <immintrin.h>
/* The approximate reciprocal the reference gets on this host. */
static inline float ls_rcp_approx(float x) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))); }
#if defined(__AVX__)
/* The same for 8 lanes: VRCPPS returns RCPSS's bits on every lane (the unit test checks it). */
static inline __m256 ls_rcp_approx_m256(__m256 x) { return _mm256_rcp_ps(x); }
#endif
#else
static inline float ls_rcp_approx(float x) { return ls_rcp_intel(x); }
#if defined(__AVX__)
#include <immintrin.h>
static inline __m256 ls_rcp_approx_m256(__m256 x)
{
    float v[8];
    _mm256_storeu_ps(v, x);
    for (int i = 0; i < 8; i++)
        v[i] = ls_rcp_intel(v[i]);
    return _mm256_loadu_ps(v);
}
#endif
#endif

/* The number of leading fraction bits that decide ls_rcp_approx on [1, 2): probed over all 2^23
 * inputs there (a few ms; Intel: 11). */
unsigned ls_rcp_table_bits(void);

/* Fills table[i], i < 2^bits, with the float bits of ls_rcp_approx(1 + i * 2^-bits): with
 * ls_rcp_from_table and bits = ls_rcp_table_bits() it reproduces ls_rcp_approx for every normal
 * input whose reciprocal is normal, and for zero, infinity and NaN (the test checks it). */
void ls_rcp_table(ls_u32 *table, unsigned bits);
#endif

#endif
