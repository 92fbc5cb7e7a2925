#include "core/rcp.h"

void ls_rcp_table(ls_u32 table[LS_RCP_TABLE_SIZE])
{
    for (ls_u32 i = 0; i < LS_RCP_TABLE_SIZE; i++)
        table[i] = ls_float_bits(ls_rcp_approx(ls_bits_float(0x3f800000u | (i << 12))));
}
