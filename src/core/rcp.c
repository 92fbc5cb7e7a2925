#include "core/rcp.h"

unsigned ls_rcp_table_bits(void)
{
    /* the result depends on the leading k bits exactly when every input at which it changes has
     * its 23 - k trailing fraction bits zero */
    ls_u32 changes = 0, prev = ls_float_bits(ls_rcp_approx(1.0f));
    for (ls_u32 m = 1; m < (1u << 23); m++) {
        const ls_u32 r = ls_float_bits(ls_rcp_approx(ls_bits_float(0x3f800000u | m)));
        if (r != prev)
            changes |= m;
        prev = r;
    }
    unsigned trailing = 0;
    while (trailing < 23 && !(changes & (1u << trailing)))
        trailing++;
    return 23 - trailing;
}

void ls_rcp_table(ls_u32 *table, unsigned bits)
{
    for (ls_u32 i = 0; i < (1u << bits); i++)
        table[i] = ls_float_bits(ls_rcp_approx(ls_bits_float(0x3f800000u | (i << (23 - bits)))));
}
