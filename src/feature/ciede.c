/* Extractor `ciede`: CIEDE2000 of the reference and distorted pictures in the reference's mixed
 * float/double arithmetic (ciede.md), scored as 45 - 20 log10(mean dE). Chroma is brought to
 * the luma grid by sample repetition; the per-pixel sums form one double chain in row-major
 * order.
 *
 * Chroma up-sampling, where lockstep deliberately differs from the references:
 * - 4:2:2: the references halve the chroma row index instead of the column index and read each
 *   chroma row to the full luma width, past its end into the stride padding and the next row
 *   (ciede.md §3; golden README "Where upstream and the fork differ": upstream and the fork see
 *   different padding, so their 4:2:2 scores are artefacts of their layouts). lockstep scores
 *   what the file holds: luma (i, j) takes chroma (i, j >> 1).
 * - odd 4:2:0 sizes: the chroma planes hold ceil(W/2) x ceil(H/2) samples (core/geometry.h), so
 *   luma (i, j) takes chroma (i >> 1, j >> 1), which always exists. The references cannot read
 *   such files (upstream loses the Y4M framing; libvmaf's floor-sized planes would put the last
 *   row's chroma past the plane), so no reference value exists to follow; the spec's decision to
 *   refuse odd heights is made for libvmaf's layout, which lockstep does not have.
 * 4:4:4 and even 4:2:0 are the references' arithmetic exactly (goldens). 4:0:0 has no chroma. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "feature/ciede.h"

typedef struct CiedePriv {
    LsCiedeDsp dsp;
    unsigned w, h, bpc, ss_x, ss_y;
} CiedePriv;

static int ciede_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    CiedePriv *p = fex->priv;
    if (fmt == VMAF_PIX_FMT_YUV400P)
        return ls_fex_error(fex, "ciede: 4:0:0 input has no chroma; CIEDE2000 needs 4:2:0, 4:2:2 "
                                 "or 4:4:4");
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "ciede: bit depth %u is not supported (8, 10, 12 or 16)", bpc);
    p->w = w;
    p->h = h;
    p->bpc = bpc;
    p->ss_x = fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P;
    p->ss_y = fmt == VMAF_PIX_FMT_YUV420P;
    ls_ciede_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

static const void *row_of(const VmafPicture *pic, int plane, unsigned y)
{
    return (const uint8_t *)pic->data[plane] + (ptrdiff_t)y * pic->stride[plane];
}

static int ciede_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                         unsigned index, LsCollector *fc)
{
    const CiedePriv *p = fex->priv;
    const size_t w = p->w;
    float *mem = malloc(7 * w * sizeof(float));
    if (!mem)
        return -ENOMEM;
    float *const lab[2][3] = { { mem, mem + w, mem + 2 * w },
                               { mem + 3 * w, mem + 4 * w, mem + 5 * w } };
    float *de = mem + 6 * w;
    const VmafPicture *const pics[2] = { ref, dist };
    double sum = 0.0; /* one sequential chain, row-major */
    for (unsigned y = 0; y < p->h; y++) {
        const unsigned yc = y >> p->ss_y;
        for (int i = 0; i < 2; i++)
            p->dsp.lab_row(row_of(pics[i], 0, y), row_of(pics[i], 1, yc), row_of(pics[i], 2, yc),
                           p->w, p->ss_x, p->bpc, lab[i]);
        p->dsp.delta_e_row((const float *const *)lab[0], (const float *const *)lab[1], p->w, de);
        for (unsigned x = 0; x < p->w; x++)
            sum += (double)de[x];
    }
    free(mem);
    /* W * H as the reference's unsigned product */
    const double score = 45.0 - 20.0 * log10(sum / (double)(p->w * p->h));
    return ls_collector_append(fc, "ciede2000", score, index);
}

static const char *const ciede_provided[] = { "ciede2000", NULL };

const LsExtractor ls_fex_ciede = {
    .name = "ciede",
    .priv_size = sizeof(CiedePriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = ciede_provided,
    .init = ciede_init,
    .extract = ciede_extract,
};
