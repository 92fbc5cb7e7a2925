/* binary64 arithmetic for devices without it (OpenCL C on GPUs without cl_khr_fp64), and the
 * ls_f64 type through which the shared per-pixel math of the integer features (feature/vif.h,
 * feature/adm.h) does its few binary64 steps, so that one source serves every compiler:
 *
 *   - C and CUDA: ls_f64 is double and every ls_f64_* function is the plain operator (the CPU
 *     reference is unchanged, bit for bit and in speed);
 *   - OpenCL C: ls_f64 is the binary64's bits in a ulong and every ls_f64_* is the correctly
 *     rounded (round to nearest, ties to even) integer emulation below, ls_sd_*.
 *
 * Domain of the emulation: zero and normal numbers, results in the normal range (ls_sd_to_f32
 * also rounds to binary32's subnormals and overflows to inf, as C's conversion does: float_adm's
 * and float_vif's conversions can meet both). Underflow to binary64 subnormals, overflow,
 * infinities and NaN are not produced (the callers' operands are integers
 * below 2^63, floats of such integers, their squares and products, scaled by powers of two near
 * 1: magnitudes between 2^-80 and 2^200, far from both ends of binary64's range), and the test
 * (tests/test_soft_f64.c) checks every operation against the host's double on random operands
 * across that domain, on ties and on cancellations, with the same source as the device runs.
 * Compiles as C11, under nvcc and as OpenCL C 1.2 (core/portable.h). */
#ifndef LOCKSTEP_CORE_SOFT_F64_H
#define LOCKSTEP_CORE_SOFT_F64_H

#include "core/portable.h"

#define LS_SD_SIGN ((ls_u64)1 << 63)
#define LS_SD_FRAC_MASK (((ls_u64)1 << 52) - 1)
#define LS_SD_HIDDEN ((ls_u64)1 << 52)

LS_HD static inline int ls_sd_clz64(ls_u64 x) /* x > 0 */
{
#if defined(LS_OPENCL_C)
    return (int)clz(x);
#elif defined(__CUDA_ARCH__)
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

LS_HD static inline int ls_sd_exp(ls_u64 a) { return (int)((a >> 52) & 0x7ff); }
LS_HD static inline ls_u64 ls_sd_sig(ls_u64 a) { return (a & LS_SD_FRAC_MASK) | LS_SD_HIDDEN; }
LS_HD static inline int ls_sd_is_zero(ls_u64 a) { return (a & ~LS_SD_SIGN) == 0; }

/* x >> n with the bits shifted out ORed into bit 0 ("jamming"), n >= 0 */
LS_HD static inline ls_u64 ls_sd_shift_right_jam(ls_u64 x, int n)
{
    if (n == 0)
        return x;
    if (n >= 64)
        return x != 0;
    return (x >> n) | ((x << (64 - n)) != 0);
}

/* The binary64 nearest to sig * 2^x (ties to even) with the given sign: sig > 0, below 2^63, its
 * bit 0 possibly a jam bit standing for nonzero bits below it. */
LS_HD static inline ls_u64 ls_sd_round_pack(ls_u64 sign, int x, ls_u64 sig)
{
    const int n = ls_sd_clz64(sig) - 1;
    sig <<= n; /* leading bit at 62: the significand is bits 62..10, bits 9..0 round */
    x -= n;
    const int e = x + 62 + 1023; /* biased exponent of the result's binade */
    const ls_u64 round_bits = sig & 0x3ff;
    sig >>= 10;
    if (round_bits > 0x200 || (round_bits == 0x200 && (sig & 1)))
        sig++;
    /* the hidden bit adds into the exponent field: a carry out of the significand (2^53) moves
     * the result to the next binade, as it must */
    return sign | ((((ls_u64)(e - 1)) << 52) + sig);
}

LS_HD static inline ls_u64 ls_sd_from_i64(ls_i64 v)
{
    if (v == 0)
        return 0;
    /* -2^63 apart: its magnitude is no ls_i64, and NVIDIA's OpenCL compiler folds the negation
     * below as if it were (its result came out as -2^62) */
    if ((ls_u64)v == LS_SD_SIGN)
        return LS_SD_SIGN | ((ls_u64)(1023 + 63) << 52);
    const ls_u64 sign = v < 0 ? LS_SD_SIGN : 0;
    const ls_u64 m = v < 0 ? (ls_u64)0 - (ls_u64)v : (ls_u64)v; /* below 2^63 */
    return ls_sd_round_pack(sign, 0, m);
}

/* exact: every int32 is a binary64 (no rounding, 32-bit leading-zero count) */
LS_HD static inline ls_u64 ls_sd_from_i32(ls_i32 v)
{
    if (v == 0)
        return 0;
    const ls_u64 sign = v < 0 ? LS_SD_SIGN : 0;
    const ls_u32 m = v < 0 ? 0u - (ls_u32)v : (ls_u32)v;
#if defined(LS_OPENCL_C)
    const int n = (int)clz(m);
#elif defined(__CUDA_ARCH__)
    const int n = __clz((int)m);
#else
    const int n = __builtin_clz(m);
#endif
    /* the leading bit to bit 52, where it adds into the exponent field (hence 1022) */
    return sign | (((ls_u64)(1022 + 31 - n) << 52) + ((ls_u64)(m << n) << 21));
}

/* exact: every binary32 is a binary64 */
LS_HD static inline ls_u64 ls_sd_from_f32(float f)
{
    const ls_u32 b = ls_float_bits(f);
    const ls_u64 sign = (ls_u64)(b >> 31) << 63;
    const int e = (int)((b >> 23) & 0xff);
    const ls_u64 frac = b & 0x7fffff;
    if (e == 0)
        return frac ? ls_sd_round_pack(sign, -149, frac) : sign;
    if (e == 255)
        return sign | ((ls_u64)0x7ff << 52) | (frac << 29);
    return sign | ((ls_u64)(e - 127 + 1023) << 52) | (frac << 29);
}

/* The binary32 nearest to a (ties to even), for a zero or a normal binary64: results below
 * binary32's normal range round on its subnormal grid (to +-0 below half the smallest), results
 * beyond it are +-inf, as C's conversion does. */
LS_HD static inline float ls_sd_to_f32(ls_u64 a)
{
    const ls_u32 sign = (ls_u32)(a >> 32) & 0x80000000u;
    if (ls_sd_is_zero(a))
        return ls_bits_float(sign);
    const int e = ls_sd_exp(a) - 1023 + 127; /* binary32 biased exponent */
    /* bits of the 53-bit significand that fall below the result's last place: 29 for a normal
     * result, more on the subnormal grid (e <= 0), all of them below half the smallest */
    const int drop = e > 0 ? 29 : (29 + 1 - e > 54 ? 54 : 29 + 1 - e);
    const ls_u64 sig = ls_sd_sig(a), rest = sig & (((ls_u64)1 << drop) - 1);
    const ls_u64 halfway = (ls_u64)1 << (drop - 1);
    ls_u32 m = (ls_u32)(sig >> drop); /* normal: 24 bits, the hidden one at bit 23 */
    if (rest > halfway || (rest == halfway && (m & 1)))
        m++;
    if (e <= 0) /* subnormal; m = 2^23 is the smallest normal, encoded the same way */
        return ls_bits_float(sign | m);
    if (e > 254)
        return ls_bits_float(sign | 0x7f800000u);
    /* as in ls_sd_round_pack, a carry out of the significand moves to the next binade (and from
     * the largest binade to inf) */
    return ls_bits_float(sign | ((((ls_u32)(e - 1)) << 23) + m));
}

/* Truncation toward zero, as C's conversion, for |a| < 2^63. */
LS_HD static inline ls_i64 ls_sd_to_i64(ls_u64 a)
{
    const int e = ls_sd_exp(a);
    if (e < 1023)
        return 0;
    const int shift = e - 1023 - 52;
    const ls_u64 sig = ls_sd_sig(a);
    const ls_u64 m = shift >= 0 ? sig << shift : sig >> -shift;
    return (a & LS_SD_SIGN) ? (ls_i64)((ls_u64)0 - m) : (ls_i64)m;
}

/* A key whose signed order is the numbers' order (+0 and -0 equal). */
LS_HD static inline ls_i64 ls_sd_key(ls_u64 a)
{
    const ls_i64 mag = (ls_i64)(a & ~LS_SD_SIGN);
    return (a & LS_SD_SIGN) ? -mag : mag;
}
LS_HD static inline int ls_sd_lt(ls_u64 a, ls_u64 b) { return ls_sd_key(a) < ls_sd_key(b); }
LS_HD static inline int ls_sd_le(ls_u64 a, ls_u64 b) { return ls_sd_key(a) <= ls_sd_key(b); }

LS_HD static inline ls_u64 ls_sd_add(ls_u64 a, ls_u64 b)
{
    if (ls_sd_is_zero(a))
        return ls_sd_is_zero(b) ? (a & b) : b; /* -0 + -0 = -0, else +0 */
    if (ls_sd_is_zero(b))
        return a;
    /* |a| >= |b| */
    if ((a & ~LS_SD_SIGN) < (b & ~LS_SD_SIGN)) {
        const ls_u64 t = a;
        a = b;
        b = t;
    }
    const int ea = ls_sd_exp(a), eb = ls_sd_exp(b);
    const ls_u64 sa = ls_sd_sig(a) << 9, sb = ls_sd_shift_right_jam(ls_sd_sig(b) << 9, ea - eb);
    const int x = ea - 1023 - 52 - 9;
    if ((a ^ b) & LS_SD_SIGN) {
        const ls_u64 d = sa - sb;
        return d ? ls_sd_round_pack(a & LS_SD_SIGN, x, d) : 0; /* x - x = +0 */
    }
    return ls_sd_round_pack(a & LS_SD_SIGN, x, sa + sb);
}

LS_HD static inline ls_u64 ls_sd_sub(ls_u64 a, ls_u64 b) { return ls_sd_add(a, b ^ LS_SD_SIGN); }

LS_HD static inline ls_u64 ls_sd_mul(ls_u64 a, ls_u64 b)
{
    const ls_u64 sign = (a ^ b) & LS_SD_SIGN;
    if (ls_sd_is_zero(a) || ls_sd_is_zero(b))
        return sign;
    const ls_u64 ma = ls_sd_sig(a), mb = ls_sd_sig(b);
    /* the 106-bit product hi:lo from 32-bit halves (ah, bh < 2^21) */
    const ls_u64 al = ma & 0xffffffffu, ah = ma >> 32, bl = mb & 0xffffffffu, bh = mb >> 32;
    const ls_u64 ll = al * bl, hl = ah * bl, lh = al * bh, hh = ah * bh;
    const ls_u64 cross = (ll >> 32) + (hl & 0xffffffffu) + lh;
    const ls_u64 hi = hh + (hl >> 32) + (cross >> 32);
    const ls_u64 lo = (cross << 32) | (ll & 0xffffffffu);
    /* the top 63 bits and a jam bit for the 43 below */
    const ls_u64 sig = (hi << 21) | (lo >> 43) | ((lo & (((ls_u64)1 << 43) - 1)) != 0);
    return ls_sd_round_pack(sign, ls_sd_exp(a) + ls_sd_exp(b) - 2046 - 104 + 43, sig);
}

LS_HD static inline ls_u64 ls_sd_div(ls_u64 a, ls_u64 b) /* b != 0 */
{
    const ls_u64 sign = (a ^ b) & LS_SD_SIGN;
    if (ls_sd_is_zero(a))
        return sign;
    const ls_u64 mb = ls_sd_sig(b);
    ls_u64 r = ls_sd_sig(a), q = 0;
    /* long division, q = floor(ma / mb * 2^60) and its remainder r < mb, in three digits of 20
     * bits. A digit is estimated in binary32: the remainder's top 32 bits times a reciprocal of
     * mb's top 32 bits, 1.0f / m refined by one Newton step. For any 1.0f / m within 2^-12 of
     * 1 / m (OpenCL's division is within 2.5 ulp, 2^-21.7) the refined one is within 2^-21.5 and
     * the estimate within one of the true digit: the remainder of the estimate,
     * (r << 20) - d * mb, lies in [-mb, 2 mb), the wrapping 64-bit arithmetic gives it exactly,
     * and one correction step either way makes d the true digit. The steps are conditions, not
     * loops: compilers turn such a loop into a 64-bit division (NVIDIA's OpenCL did). */
    if (r >= mb) {
        r -= mb;
        q = 1;
    }
    const float m = (float)(ls_u32)(mb >> 21), inv0 = 1.0f / m;
    const float inv = inv0 * (2.0f - m * inv0) * 0x1p20f; /* ~ 2^41 / mb */
    for (int i = 0; i < 3; i++) {
        ls_u64 d = (ls_u32)((float)(ls_u32)(r >> 21) * inv); /* r < mb < 2^53 */
        ls_i64 rem = (ls_i64)((r << 20) - d * mb);
        if (rem < 0) {
            d--;
            rem += (ls_i64)mb;
        } else if (rem >= (ls_i64)mb) {
            d++;
            rem -= (ls_i64)mb;
        }
        r = (ls_u64)rem;
        q = (q << 20) | d;
    }
    /* q has 60 or 61 significant bits: the round bit and more lie above the sticky bit */
    return ls_sd_round_pack(sign, ls_sd_exp(a) - ls_sd_exp(b) - 60, q | (r != 0));
}

/* ---- ls_f64: binary64 as each compiler has it ---- */
#if defined(LS_OPENCL_C)
typedef ls_u64 ls_f64;
/* a constant given by its bits (host code passes binary64 values to kernels as their bits) */
#define LS_F64_C(bits, value) ((ls_u64)(bits))
LS_HD static inline ls_f64 ls_f64_from_i64(ls_i64 v) { return ls_sd_from_i64(v); }
LS_HD static inline ls_f64 ls_f64_from_i32(ls_i32 v) { return ls_sd_from_i32(v); }
LS_HD static inline ls_f64 ls_f64_from_f32(float f) { return ls_sd_from_f32(f); }
LS_HD static inline ls_i64 ls_f64_to_i64(ls_f64 a) { return ls_sd_to_i64(a); }
LS_HD static inline float ls_f64_to_f32(ls_f64 a) { return ls_sd_to_f32(a); }
LS_HD static inline ls_f64 ls_f64_add(ls_f64 a, ls_f64 b) { return ls_sd_add(a, b); }
LS_HD static inline ls_f64 ls_f64_sub(ls_f64 a, ls_f64 b) { return ls_sd_sub(a, b); }
LS_HD static inline ls_f64 ls_f64_mul(ls_f64 a, ls_f64 b) { return ls_sd_mul(a, b); }
LS_HD static inline ls_f64 ls_f64_div(ls_f64 a, ls_f64 b) { return ls_sd_div(a, b); }
LS_HD static inline int ls_f64_lt(ls_f64 a, ls_f64 b) { return ls_sd_lt(a, b); }
LS_HD static inline int ls_f64_le(ls_f64 a, ls_f64 b) { return ls_sd_le(a, b); }
#else
typedef double ls_f64;
#define LS_F64_C(bits, value) (value)
LS_HD static inline ls_f64 ls_f64_from_i64(ls_i64 v) { return (double)v; }
LS_HD static inline ls_f64 ls_f64_from_i32(ls_i32 v) { return (double)v; }
LS_HD static inline ls_f64 ls_f64_from_f32(float f) { return (double)f; }
LS_HD static inline ls_i64 ls_f64_to_i64(ls_f64 a) { return (ls_i64)a; }
LS_HD static inline float ls_f64_to_f32(ls_f64 a) { return (float)a; }
LS_HD static inline ls_f64 ls_f64_add(ls_f64 a, ls_f64 b) { return a + b; }
LS_HD static inline ls_f64 ls_f64_sub(ls_f64 a, ls_f64 b) { return a - b; }
LS_HD static inline ls_f64 ls_f64_mul(ls_f64 a, ls_f64 b) { return a * b; }
LS_HD static inline ls_f64 ls_f64_div(ls_f64 a, ls_f64 b) { return a / b; }
LS_HD static inline int ls_f64_lt(ls_f64 a, ls_f64 b) { return a < b; }
LS_HD static inline int ls_f64_le(ls_f64 a, ls_f64 b) { return a <= b; }
#endif

#endif
