/* Correctly rounded binary32 results computed with integers, for devices without binary64 and, if
 * need be, without a correctly rounded float division (exactness.md §4.3). One implementation,
 * compiled as C (host contract tests: tests/test_opencl_fp32.c) and as OpenCL C (kernels).
 *
 * ls_sqrt_prod_rn(a, b) = (float)sqrt((double)a * (double)b) for every pair of floats: the product
 *   of two binary32 values is exact as the integer Ma * Mb, its square root is taken with an
 *   integer square root and rounded once. Never halfway: N = Ma * Mb * 2^s with s >= 1 is even and
 *   an odd midpoint m has an odd square, so the rounding needs no tie rule, and the host's double
 *   rounding (root to double, then to float) cannot cross a midpoint (§4.3 steps 3-5; the same
 *   holds on the subnormal grid, where a midpoint's square is not a multiple of 2^-298).
 * ls_div_rn(a, b) = a / b correctly rounded (round to nearest, ties to even), subnormals kept. */
#ifndef LOCKSTEP_OPENCL_FP32_EXACT_H
#define LOCKSTEP_OPENCL_FP32_EXACT_H

#include "core/portable.h" /* ls_u32, ls_u64, ls_float_bits, ls_bits_float */

#define LS_FX_SIGN 0x80000000u
#define LS_FX_INF 0x7f800000u
#define LS_FX_NAN 0x7fc00000u

/* |x| of a finite non-zero float as m * 2^e with m in [2^23, 2^24) (subnormals normalised). */
static inline void ls_fx_unpack(ls_u32 bits, ls_u64 *m, int *e)
{
    const int field = (int)((bits >> 23) & 0xff);
    ls_u64 mant = bits & 0x7fffffu;
    if (field) {
        *m = mant | 0x800000u;
        *e = field - 150;
        return;
    }
    int exp = -149;
    while (!(mant & 0x800000u)) {
        mant <<= 1;
        exp--;
    }
    *m = mant;
    *e = exp;
}

/* The float nearest to (q + sticky') * 2^e, where q in [2^(qbits-1), 2^qbits) holds the leading
 * bits of the exact value and sticky says whether anything non-zero lies below them. Round to
 * nearest, ties to even; subnormal results are rounded on their own grid; overflow gives inf. */
static inline ls_u32 ls_fx_round_pack(ls_u64 q, int qbits, int e, int sticky)
{
    const int biased = e + qbits + 126; /* exponent field of the result before rounding */
    int drop = biased > 0 ? qbits - 24 : -149 - e;
    if (drop > 40)
        drop = 40; /* everything below half the smallest subnormal: rounds to 0 */
    const ls_u64 rest = q & (((ls_u64)1 << drop) - 1);
    const ls_u64 halfway = (ls_u64)1 << (drop - 1);
    ls_u64 r = q >> drop;
    if (rest > halfway || (rest == halfway && (sticky || (r & 1))))
        r++;
    if (biased <= 0)
        return (ls_u32)r; /* subnormal; r = 2^23 is the smallest normal, encoded the same way */
    if (biased > 254)
        return LS_FX_INF;
    const ls_u64 bits = ((ls_u64)(biased - 1) << 23) + r; /* r's 2^23 bit carries into the
                                                                 * exponent, 2^24 one further */
    return bits >= LS_FX_INF ? LS_FX_INF : (ls_u32)bits;
}

/* floor(sqrt(n)) for n in [2^48, 2^50), digit by digit; *exact set when the root is exact. */
static inline ls_u64 ls_fx_isqrt50(ls_u64 n, int *exact)
{
    ls_u64 rem = n, root = 0, bit = (ls_u64)1 << 48;
    while (bit) {
        if (rem >= root + bit) {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    *exact = rem == 0;
    return root;
}

/* (float)sqrt((double)a * (double)b), from integers only. */
static inline float ls_sqrt_prod_rn(float a, float b)
{
    const ls_u32 ua = ls_float_bits(a), ub = ls_float_bits(b);
    const ls_u32 aa = ua & ~LS_FX_SIGN, ab = ub & ~LS_FX_SIGN;
    const ls_u32 sign = (ua ^ ub) & LS_FX_SIGN;
    if (aa > LS_FX_INF || ab > LS_FX_INF)
        return ls_bits_float(LS_FX_NAN);
    if (aa == 0 || ab == 0) {
        if (aa == LS_FX_INF || ab == LS_FX_INF)
            return ls_bits_float(LS_FX_NAN);   /* 0 * inf */
        return ls_bits_float(sign);            /* sqrt(+-0) = +-0 */
    }
    if (sign)
        return ls_bits_float(LS_FX_NAN);       /* negative product */
    if (aa == LS_FX_INF || ab == LS_FX_INF)
        return ls_bits_float(LS_FX_INF);
    ls_u64 ma, mb;
    int ea, eb;
    ls_fx_unpack(aa, &ma, &ea);
    ls_fx_unpack(ab, &mb, &eb);
    ls_u64 n = ma * mb; /* exact, in [2^46, 2^48) */
    const int e = ea + eb;
    /* scale n into [2^48, 2^50) by 2, 4 or 8 so that the remaining power of two is even */
    int s = n >= ((ls_u64)1 << 47) ? 1 : 2;
    if ((e - s) & 1)
        s++;
    n <<= s;
    int exact;
    const ls_u64 root = ls_fx_isqrt50(n, &exact); /* in [2^24, 2^25) */
    return ls_bits_float(ls_fx_round_pack(root, 25, (e - s) / 2, !exact));
}

/* a / b correctly rounded, from integers only. */
static inline float ls_div_rn(float a, float b)
{
    const ls_u32 ua = ls_float_bits(a), ub = ls_float_bits(b);
    const ls_u32 aa = ua & ~LS_FX_SIGN, ab = ub & ~LS_FX_SIGN;
    const ls_u32 sign = (ua ^ ub) & LS_FX_SIGN;
    if (aa > LS_FX_INF || ab > LS_FX_INF || (aa == 0 && ab == 0) ||
        (aa == LS_FX_INF && ab == LS_FX_INF))
        return ls_bits_float(LS_FX_NAN);
    if (aa == LS_FX_INF || ab == 0)
        return ls_bits_float(sign | LS_FX_INF);
    if (aa == 0 || ab == LS_FX_INF)
        return ls_bits_float(sign);
    ls_u64 ma, mb;
    int ea, eb;
    ls_fx_unpack(aa, &ma, &ea);
    ls_fx_unpack(ab, &mb, &eb);
    /* quotient with 26 bits: 24 for the significand, a guard bit, a round bit; remainder sticky */
    const int shift = ma >= mb ? 25 : 26;
    const ls_u64 num = ma << shift;
    const ls_u64 q = num / mb;
    return ls_bits_float(sign | ls_fx_round_pack(q, 26, ea - eb - shift, num != q * mb));
}

#endif
