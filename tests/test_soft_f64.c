/* core/soft_f64.h, the correctly rounded binary64 emulation of the OpenCL twins, against this
 * CPU's double (SSE2: every operation correctly rounded, ties to even), bit for bit:
 *   - add, sub, mul, div on random operands over the emulation's domain (magnitudes 2^-300 ..
 *     2^300), on the operands of vif's and adm's own steps (int32 statistics, s1 + eps,
 *     s12 / (s1 + eps), rst * egl, floats / 4096 and their products), on halfway cases (b an exact
 *     half ulp of a, products of two odd 27-bit significands), on cancellations (a - a, a -
 *     nextafter(a)) and on signed zeros; divisions of significands near each other, of all-ones
 *     and bare significands, and with exact quotients (every digit of the long division at its
 *     extremes, remainders of zero);
 *   - int64 -> binary64 (every bit length, ties, INT64_MIN), int32 -> binary64 (every bit length,
 *     INT32_MIN/MAX, powers of two), binary64 -> int64 (truncation),
 *     float -> binary64 (subnormal floats too), binary64 -> float (ties too, binary32's subnormal
 *     results and their ties, overflow to inf), and the comparisons < and <=.
 *   test_soft_f64 host     the header compiled as C
 *   test_soft_f64 device   the same header compiled as OpenCL C on the OpenCL device (exit 77
 *                          without one: "SKIP: ..."), results compared with this CPU's double
 * Mutation check (host): a division that drops its sticky bit must be caught. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/soft_f64.h"
#if LOCKSTEP_HAVE_OPENCL
#include "opencl/opencl.h"
#endif

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FROM_I64, OP_TO_I64, OP_LT, OP_LE, OP_FROM_F32, OP_TO_F32,
    OP_FROM_I32, N_OPS
};
static const char *const op_names[N_OPS] = { "add",    "sub", "mul", "div",      "from_i64", "to_i64",
                                             "lt",     "le",  "from_f32", "to_f32", "from_i32" };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}
static double dbl(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof(d));
    return d;
}

/* a random normal double with |exponent| <= range */
static double random_double(int range)
{
    const uint64_t sig = rnd64() & LS_SD_FRAC_MASK;
    const int e = (int)(rnd64() % (uint64_t)(2 * range + 1)) - range;
    const uint64_t sign = (rnd64() & 1) << 63;
    return dbl(sign | ((uint64_t)(e + 1023) << 52) | sig);
}

static uint64_t expected(int op, uint64_t a, uint64_t b)
{
    const double x = dbl(a), y = dbl(b);
    switch (op) {
    case OP_ADD: return bits(x + y);
    case OP_SUB: return bits(x - y);
    case OP_MUL: return bits(x * y);
    case OP_DIV: return bits(x / y);
    case OP_FROM_I64: return bits((double)(int64_t)a);
    case OP_FROM_I32: return bits((double)(int32_t)(uint32_t)a);
    case OP_TO_I64: return (uint64_t)(int64_t)x;
    case OP_LT: return x < y;
    case OP_LE: return x <= y;
    case OP_TO_F32: {
        const float f = (float)x;
        uint32_t fb;
        memcpy(&fb, &f, sizeof(fb));
        return fb;
    }
    default: {
        const uint32_t fb = (uint32_t)a;
        float f;
        memcpy(&f, &fb, sizeof(f));
        return bits((double)f);
    }
    }
}

static int mutate_div; /* mutation check: a division that forgets its remainder (sticky bit) */

static uint64_t div_without_sticky(uint64_t a, uint64_t b)
{
    if (ls_sd_is_zero(a))
        return (a ^ b) & LS_SD_SIGN;
    const uint64_t mb = ls_sd_sig(b);
    uint64_t r = ls_sd_sig(a), q = 0;
    for (int i = 0; i < 63; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1;
        }
        r <<= 1;
    }
    return ls_sd_round_pack((a ^ b) & LS_SD_SIGN, ls_sd_exp(a) - ls_sd_exp(b) - 62, q);
}

static uint64_t emulated(int op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_ADD: return ls_sd_add(a, b);
    case OP_SUB: return ls_sd_sub(a, b);
    case OP_MUL: return ls_sd_mul(a, b);
    case OP_DIV:
        return mutate_div ? div_without_sticky(a, b) : ls_sd_div(a, b);
    case OP_FROM_I64: return ls_sd_from_i64((int64_t)a);
    case OP_FROM_I32: return ls_sd_from_i32((int32_t)(uint32_t)a);
    case OP_TO_I64: return (uint64_t)ls_sd_to_i64(a);
    case OP_LT: return (uint64_t)ls_sd_lt(a, b);
    case OP_LE: return (uint64_t)ls_sd_le(a, b);
    case OP_TO_F32: {
        const float f = ls_sd_to_f32(a);
        uint32_t fb;
        memcpy(&fb, &f, sizeof(fb));
        return fb;
    }
    default: {
        const uint32_t fb = (uint32_t)a;
        float f;
        memcpy(&f, &fb, sizeof(f));
        return ls_sd_from_f32(f);
    }
    }
}

#define N_CASES 400000

/* Operand pairs of op: a mix of the kinds listed at the top. */
static void make_cases(int op, uint64_t *a, uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned kind = (unsigned)(i % 8);
        double x = random_double(300), y = random_double(300);
        if (op == OP_FROM_I64) {
            const int len = (int)(rnd64() % 64);
            uint64_t v = len ? rnd64() >> (64 - len) : 0;
            if (kind == 1) /* ties: 2^k + 2^(k-53) patterns */
                v = ((uint64_t)1 << (53 + (rnd64() % 10))) | ((uint64_t)1 << (rnd64() % 10));
            if (kind == 2)
                v = (uint64_t)INT64_MIN;
            a[i] = (rnd64() & 1) ? (uint64_t)0 - v : v;
            b[i] = 0;
            continue;
        }
        if (op == OP_FROM_I32) { /* every bit length, both signs, INT32_MIN/MAX, -1, 0 */
            const int len = (int)(rnd64() % 33);
            uint32_t v = len ? (uint32_t)(rnd64() >> (64 - len)) : 0;
            if (kind == 1)
                v = 0x80000000u;
            if (kind == 2)
                v = 0x7fffffffu;
            if (kind == 3)
                v = 1u << (rnd64() % 32);
            a[i] = (rnd64() & 1) ? (uint32_t)0 - v : v;
            b[i] = 0;
            continue;
        }
        if (op == OP_TO_I64) {
            x = random_double(62);
            if (kind == 1)
                x = (double)(int32_t)rnd64() + 0.5;
            a[i] = bits(x);
            b[i] = 0;
            continue;
        }
        if (op == OP_TO_F32) { /* binary32's normal range, ties (29 dropped bits 1000...) too */
            uint64_t u = bits(random_double(125));
            if (kind == 1)
                u = (u & ~(((uint64_t)1 << 29) - 1)) | ((uint64_t)1 << 28);
            if (kind == 2)
                u = bits((double)(int32_t)rnd64() + 0.5);
            if (kind == 3 || kind == 4) { /* binary32's subnormal grid and below: 2^-180..2^-126 */
                /* k binades below the smallest normal: 29 + k significand bits are dropped */
                const unsigned k = (unsigned)(rnd64() % (kind == 4 ? 23 : 55));
                u = (rnd64() & ((uint64_t)1 << 63)) | ((uint64_t)(1023 - 126 - k) << 52) |
                    (rnd64() & LS_SD_FRAC_MASK);
                if (kind == 4) /* a tie on that grid: the dropped bits 1000... */
                    u = (u & ~(((uint64_t)1 << (29 + k)) - 1)) | ((uint64_t)1 << (28 + k));
            }
            if (kind == 5) /* beyond binary32's range, and the rounding into it: 2^127..2^200 */
                u = (rnd64() & ((uint64_t)1 << 63)) | ((uint64_t)(1023 + 127 + rnd64() % 74) << 52) |
                    (rnd64() & LS_SD_FRAC_MASK);
            if (kind == 6) /* just below FLT_MAX: 0x1.fffffe...p127 rounds up to inf or not */
                u = ((uint64_t)(1023 + 127) << 52) | (LS_SD_FRAC_MASK & ~(((uint64_t)1 << 27) - 1)) |
                    (rnd64() & (((uint64_t)1 << 29) - 1));
            a[i] = u;
            b[i] = 0;
            continue;
        }
        if (op == OP_FROM_F32) {
            uint32_t fb = (uint32_t)rnd64();
            if (((fb >> 23) & 0xff) == 0xff)
                fb &= ~(1u << 30); /* no NaN: out of the domain */
            if (kind == 1)
                fb &= 0x807fffffu; /* subnormal floats */
            a[i] = fb;
            b[i] = 0;
            continue;
        }
        switch (kind) {
        case 1: /* the statistics of vif: int32 values, s1 + eps, s12 / (s1 + eps) */
            x = (double)(int32_t)(rnd64() >> 33);
            y = op == OP_DIV ? (double)(int32_t)(rnd64() >> 33) + 0x1.b7cdfd9d7bdbbp-18
                             : (double)(int32_t)rnd64();
            if (op == OP_ADD)
                y = 0x1.b7cdfd9d7bdbbp-18;
            break;
        case 2: /* halfway: y exactly half an ulp of x (a tie), a quarter, three quarters, one */
            y = ldexp((rnd64() & 1) ? 1.0 : -1.0, ilogb(x) - 54 + (int)(rnd64() % 3));
            if (rnd64() & 1)
                y *= 1.5;
            break;
        case 3: /* cancellation */
            y = (rnd64() & 1) ? x : nextafter(x, 0.0);
            if (op == OP_SUB)
                break;
            y = -y;
            break;
        case 4: /* products of odd 27-bit significands: exact halfway products are common */
            x = ldexp((double)((rnd64() & 0x3ffffff) | 0x4000001), (int)(rnd64() % 40) - 20);
            y = ldexp((double)((rnd64() & 0x3ffffff) | 0x4000001), (int)(rnd64() % 40) - 20);
            break;
        case 5: /* adm: floats / 4096, rst * egl */
            x = (double)(float)(int64_t)(rnd64() >> (rnd64() % 63)) * 0x1p-12;
            y = (rnd64() & 1) ? (double)(float)(int64_t)(rnd64() >> (rnd64() % 63)) * 0x1p-12
                              : random_double(8);
            if (x == 0.0)
                x = 1.0;
            break;
        case 6: /* signed zeros */
            if (op == OP_DIV)
                x = (rnd64() & 1) ? 0.0 : -0.0;
            else if (rnd64() & 1)
                y = (rnd64() & 1) ? 0.0 : -0.0;
            else
                x = (rnd64() & 1) ? 0.0 : -0.0;
            break;
        case 7: /* comparisons of equal values */
            if (op == OP_LT || op == OP_LE)
                y = x;
            break;
        default:
            break;
        }
        if (op == OP_DIV && kind == 0 && (i / 8) % 4 == 1) { /* significands near each other */
            const uint64_t sa = rnd64() & LS_SD_FRAC_MASK, delta = rnd64() % 4096;
            x = dbl((bits(x) & ~LS_SD_FRAC_MASK) | sa);
            y = dbl((bits(y) & ~LS_SD_FRAC_MASK) |
                    ((rnd64() & 1) ? (sa + delta) & LS_SD_FRAC_MASK : (sa - delta) & LS_SD_FRAC_MASK));
        }
        if (op == OP_DIV && kind == 0 && (i / 8) % 4 == 2) { /* all-ones and bare significands */
            x = dbl((bits(x) & ~LS_SD_FRAC_MASK) | ((rnd64() & 1) ? LS_SD_FRAC_MASK : 0));
            y = dbl((bits(y) & ~LS_SD_FRAC_MASK) | ((rnd64() & 1) ? LS_SD_FRAC_MASK : 0));
        }
        if (op == OP_DIV && kind == 0 && (i / 8) % 4 == 3) { /* exact quotients: q * y / y */
            const double qv = (double)(int64_t)(rnd64() >> (37 + rnd64() % 27)); /* exact products */
            y = ldexp((double)((rnd64() >> 38) | 1), (int)(rnd64() % 60) - 30);
            x = qv * y;
            if (x == 0.0 || !isfinite(x))
                x = y;
        }
        if (op == OP_DIV && y == 0.0)
            y = 1.0;
        a[i] = bits(x);
        b[i] = bits(y);
    }
}

static unsigned check(const char *where, int op, const uint64_t *a, const uint64_t *b,
                      const uint64_t *got, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t want = expected(op, a[i], b[i]);
        if (got[i] != want) {
            if (bad < 5)
                printf("FAIL %s %s(%016" PRIx64 ", %016" PRIx64 "): %016" PRIx64
                       ", expected %016" PRIx64 "\n",
                       where, op_names[op], a[i], b[i], got[i], want);
            bad++;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    const int device = argc > 1 && !strcmp(argv[1], "device");
    uint64_t *a = malloc(N_CASES * sizeof(*a)), *b = malloc(N_CASES * sizeof(*b));
    uint64_t *got = malloc(N_CASES * sizeof(*got));
    if (!a || !b || !got)
        return 1;
    unsigned failures = 0;
#if LOCKSTEP_HAVE_OPENCL
    int index = getenv("LOCKSTEP_GPU") ? atoi(getenv("LOCKSTEP_GPU")) : 0;
    char err[16384];
    if (device && ls_opencl_probe(index, err, sizeof(err)) < 0) {
        printf("SKIP: no OpenCL device: %s\n", err);
        return 77;
    }
#else
    if (device) {
        printf("SKIP: built without the OpenCL backend\n");
        return 77;
    }
#endif
    for (int op = 0; op < N_OPS; op++) {
        make_cases(op, a, b, N_CASES);
        if (device) {
#if LOCKSTEP_HAVE_OPENCL
            if (ls_opencl_soft_f64_selftest(index, op, a, b, got, N_CASES, err, sizeof(err)) < 0) {
                printf("FAIL device %s: %s\n", op_names[op], err);
                failures++;
                continue;
            }
#endif
        } else {
            for (size_t i = 0; i < N_CASES; i++)
                got[i] = emulated(op, a[i], b[i]);
        }
        const unsigned bad = check(device ? "device" : "host", op, a, b, got, N_CASES);
        printf("%s %-8s %u cases, %u differ\n", bad ? "FAIL" : "ok  ", op_names[op], N_CASES, bad);
        failures += bad;
    }
    if (!device) {
        /* the check must see a division that forgets the remainder below its round bits */
        mutate_div = 1;
        make_cases(OP_DIV, a, b, N_CASES);
        unsigned caught = 0;
        for (size_t i = 0; i < N_CASES; i++)
            caught += emulated(OP_DIV, a[i], b[i]) != expected(OP_DIV, a[i], b[i]);
        printf("%s mutation (division without its sticky bit): %u of %u cases differ\n",
               caught ? "ok  " : "FAIL", caught, N_CASES);
        failures += !caught;
    }
    free(a);
    free(b);
    free(got);
    printf("%s\n", failures ? "FAILED" : "all bit-identical");
    return failures ? 1 : 0;
}
