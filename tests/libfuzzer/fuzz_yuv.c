/* The raw YUV reader: width, height, pixel format, depth and reading mode come from the first 7
 * bytes of the input, the file is the rest. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 7)
        return 0;
    /* formats 0 (unknown) to 5 (none such); depths 0..255 */
    const LsRawParams raw = {
        .w = (unsigned)data[0] | (unsigned)data[1] << 8,
        .h = (unsigned)data[2] | (unsigned)data[3] << 8,
        .fmt = (enum VmafPixelFormat)(data[4] % 6),
        .bpc = data[5],
    };
    fuzz_read_input(data + 7, size - 7, &raw, data[6]);
    return 0;
}
