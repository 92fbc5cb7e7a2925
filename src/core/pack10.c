/* The 10-bit packers of core/pack10.h: the C reference and the choice of the fastest. */
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "core/pack10.h"

uint16_t ls_pack10_row_c(uint32_t *dst, const uint16_t *src, size_t n)
{
    uint16_t any = 0;
    for (size_t g = 0; g < n; g += LS_PACK10_GROUP, dst += LS_PACK10_GROUP_WORDS) {
        uint32_t w[LS_PACK10_GROUP_WORDS + 1] = { 0 };
        for (unsigned i = 0; i < LS_PACK10_GROUP; i++) {
            const uint16_t v = src[g + i];
            any |= v;
            const unsigned bit = 10u * i, k = bit >> 5, s = bit & 31u;
            const uint64_t placed = (uint64_t)(v & 1023u) << s;
            w[k] |= (uint32_t)placed;
            w[k + 1] |= (uint32_t)(placed >> 32);
        }
        memcpy(dst, w, 4u * LS_PACK10_GROUP_WORDS);
    }
    return any;
}

LsPack10RowFn ls_pack10_row_fn(void)
{
    if (ls_cpu_detect() & LS_CPU_FLAG_AVX2)
        return ls_pack10_row_avx2;
    return ls_pack10_row_c;
}

int ls_pack10_wanted(void)
{
    const char *v = getenv("LOCKSTEP_CUDA_PACK10");
    return !(v && !strcmp(v, "0"));
}
