/* Device side of core/soft_f64.h's test (tests/test_soft_f64.c): out[i] = op(a[i], b[i]) on
 * binary64 bits; op 0 add, 1 sub, 2 mul, 3 div, 4 from_i64(a), 5 to_i64(a), 6 a < b, 7 a <= b,
 * 8 from_f32(low 32 bits of a), 9 to_f32(a) (its bits in the low 32), 10 from_i32(low 32 bits
 * of a). */
#include "core/soft_f64.h"

__kernel void ls_soft_f64_op(__global const ulong *a, __global const ulong *b, __global ulong *out,
                             uint n, int op)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const ulong x = a[i], y = b[i];
    ulong r = 0;
    switch (op) {
    case 0: r = ls_sd_add(x, y); break;
    case 1: r = ls_sd_sub(x, y); break;
    case 2: r = ls_sd_mul(x, y); break;
    case 3: r = ls_sd_div(x, y); break;
    case 4: r = ls_sd_from_i64((long)x); break;
    case 5: r = (ulong)ls_sd_to_i64(x); break;
    case 6: r = (ulong)ls_sd_lt(x, y); break;
    case 7: r = (ulong)ls_sd_le(x, y); break;
    case 8: r = ls_sd_from_f32(as_float((uint)x)); break;
    case 9: r = as_uint(ls_sd_to_f32(x)); break;
    default: r = ls_sd_from_i32((int)(uint)x); break;
    }
    out[i] = r;
}
