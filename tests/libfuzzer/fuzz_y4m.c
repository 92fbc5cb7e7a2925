/* The Y4M reader on any bytes: the header parser, FRAME markers, truncation, samples above the
 * depth; read in order (all planes, then luma only), skipped, and read at frame indices. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_input(data, size, NULL, 0);
    fuzz_read_input(data, size, NULL, 3);
    return 0;
}
