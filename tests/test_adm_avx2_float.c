/* The AVX2 ADM decoupling converts int64 products to float with one rounding, as the reference's
 * (float) cast (adm_avx2.c: float_round_i64, for products beyond 2^51 at scales 2 and 3). Random
 * frames rarely land on a rounding tie, so this checks the conversion itself on crafted values:
 * float midpoints, one above and below them, exact floats, random values and the extremes, at every
 * magnitude from 2^24 to 2^63. Built with -mavx2; SKIP (77) without AVX2. */
#include <stdio.h>

#include "core/cpu.h"
#include "feature/x86/adm_avx2.c"

static uint64_t state = 88172645463325252ull;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void)
{
    if (!(ls_cpu_detect() & LS_CPU_FLAG_AVX2)) {
        printf("SKIP: no AVX2\n");
        return 77;
    }
    long bad = 0, n = 0;
    for (long it = 0; it < 250000; it++) {
        int64_t x[4];
        for (int l = 0; l < 4; l++) {
            const int e = 24 + (int)(next() % 39);
            const uint64_t base = (1ull << e) | (next() & ((1ull << e) - 1));
            const int ulp = e - 23; /* of a float at 2^e */
            uint64_t v = base & ~((1ull << ulp) - 1);
            switch (next() % 5) {
            case 0: v += 1ull << (ulp - 1); break;
            case 1: v += (1ull << (ulp - 1)) + 1; break;
            case 2: v += (1ull << (ulp - 1)) - 1; break;
            case 3: break;
            default: v = base; break;
            }
            if (v > (uint64_t)INT64_MAX)
                v = (uint64_t)INT64_MAX - (next() & 0xffff);
            x[l] = (next() & 1) ? -(int64_t)v : (int64_t)v;
        }
        if (it == 0) {
            x[0] = INT64_MIN;
            x[1] = INT64_MAX;
            x[2] = 0;
            x[3] = -1;
        }
        double out[4];
        _mm256_storeu_pd(out, float_round_i64(_mm256_loadu_si256((const __m256i *)x)));
        for (int l = 0; l < 4; l++, n++) {
            if (out[l] != (double)(float)x[l] && bad++ < 5)
                fprintf(stderr, "FAIL %lld: %a, (float) gives %a\n", (long long)x[l], out[l],
                        (double)(float)x[l]);
        }
    }
    printf("%ld of %ld conversions differ from (float)\n", bad, n);
    return bad ? 1 : 0;
}
