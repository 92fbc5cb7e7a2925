/* 10-bit samples as the copy engine carries them: 16 samples in 20 bytes instead of 32. A CUDA
 * run of 10-bit input was bound by the upload (VMAF v1 at 4K moved 50 MB a frame pair), so the
 * host packs the rows (the CLI's reader as it reads, input/input.c; else core/frame_pack.c
 * where a frame goes through the staging buffer) and the device unpacks them to the 16-bit
 * planes the kernels read (cuda/frames.cu). The kernels see the same samples either way.
 *
 * A group is five little-endian 32-bit words holding a 160-bit little-endian number whose bits
 * [10i, 10i + 10) are sample i. This header is the format's one definition: the host packers
 * (C here, AVX2 and AVX-512 in core/x86/, checked against it by tests/checkasm/pack10.c) and the
 * device's unpacking read it. */
#ifndef LOCKSTEP_CORE_PACK10_H
#define LOCKSTEP_CORE_PACK10_H

#include "core/portable.h"

#define LS_PACK10_GROUP 16u      /* samples per group */
#define LS_PACK10_GROUP_WORDS 5u /* 32-bit words per group */

/* Sample i (0..15) of a group. */
LS_HD static inline unsigned ls_unpack10_sample(const unsigned w[LS_PACK10_GROUP_WORDS], unsigned i)
{
    const unsigned bit = 10u * i, k = bit >> 5, s = bit & 31u;
    unsigned long long v = w[k];
    if (k + 1 < LS_PACK10_GROUP_WORDS)
        v |= (unsigned long long)w[k + 1] << 32;
    return (unsigned)(v >> s) & 1023u;
}

#ifndef __CUDA_ARCH__
#include <stddef.h>
#include <stdint.h>

/* Bytes of n samples packed (n a multiple of LS_PACK10_GROUP). */
static inline size_t ls_pack10_bytes(size_t n)
{
    return n / LS_PACK10_GROUP * 4u * LS_PACK10_GROUP_WORDS;
}

/* Whether frames of n planes of widths w at bpc bits have the packed form: 10-bit samples, every
 * row a whole number of groups. */
static inline int ls_pack10_fits(unsigned bpc, unsigned n_planes, const unsigned w[])
{
    if (bpc != 10)
        return 0;
    for (unsigned p = 0; p < n_planes; p++)
        if (w[p] % LS_PACK10_GROUP)
            return 0;
    return 1;
}

/* Whether CUDA runs send 10-bit frames packed: unless LOCKSTEP_CUDA_PACK10=0. The frame
 * pipeline's layout and the CLI's readers ask the same. */
int ls_pack10_wanted(void);

/* Packs n samples (a multiple of LS_PACK10_GROUP) into dst (4-byte aligned) and returns the OR of
 * all of them: a sample above 10 bits shows in bits 10..15 of the result, and then dst does not
 * hold the row (the caller sends it unpacked). */
typedef uint16_t (*LsPack10RowFn)(uint32_t *dst, const uint16_t *src, size_t n);
uint16_t ls_pack10_row_c(uint32_t *dst, const uint16_t *src, size_t n);
uint16_t ls_pack10_row_avx2(uint32_t *dst, const uint16_t *src, size_t n);
uint16_t ls_pack10_row_avx512(uint32_t *dst, const uint16_t *src, size_t n); /* and VBMI */
/* the fastest of them that this CPU runs */
LsPack10RowFn ls_pack10_row_fn(void);

/* Packs with `row` as ls_pack10_row_fn's packers do, into memory that no core reads next (the
 * copy engine does: the reader's packed pictures), with non-temporal stores where the target
 * has them, fenced before it returns. */
uint16_t ls_pack10_row_stream(LsPack10RowFn row, uint32_t *dst, const uint16_t *src, size_t n);
#endif

#endif
