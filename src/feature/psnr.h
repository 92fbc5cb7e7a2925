/* PSNR (integer `psnr`): what the CPU extractor and its GPU twins share.
 * The option struct is the first member of every psnr extractor's private state, so a twin takes
 * the CPU's option table itself. The dB math is one set of functions used by all of them.
 * Spec: shared/spec/features/psnr.md. */
#ifndef LOCKSTEP_FEATURE_PSNR_H
#define LOCKSTEP_FEATURE_PSNR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/extractor.h"

typedef struct LsPsnrOptions {
    bool enable_chroma;
    bool enable_mse;
    bool enable_apsnr;
    bool reduced_hbd_peak;
    double min_sse;
    bool uncapped;
} LsPsnrOptions;

extern const LsOption ls_psnr_options[];
extern const LsExtractor ls_fex_psnr;
extern const LsExtractor ls_fex_float_psnr;

/* Per-run constants from the first picture (psnr.md §3.1-3.2). */
typedef struct LsPsnrState {
    LsPsnrOptions opt;      /* enable_chroma forced off for 4:0:0 */
    unsigned bpc;
    unsigned n_planes;      /* planes scored: 1 or 3 */
    unsigned w[3], h[3];
    uint32_t peak;
    double psnr_max[3];
} LsPsnrState;

/* Refuses depths other than 8, 10, 12, 16 (psnr.md §3.3) with the CPU extractor's message, for
 * every backend alike. */
int ls_psnr_state_init(LsFex *fex, LsPsnrState *s, const LsPsnrOptions *opt,
                       enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h);
/* Writes psnr_<p> (and mse_<p>) for the planes' SSE at `index`; adds APSNR's sums to fc's. */
int ls_psnr_write_scores(LsPsnrState *s, const uint64_t sse[3], unsigned index, LsCollector *fc);
/* Writes the apsnr_* aggregates (psnr.md §3.5) from fc's sums when enable_apsnr. */
int ls_psnr_write_aggregates(const LsPsnrState *s, LsCollector *fc);

/* SSE of one plane: a DSP unit with a C reference and SIMD variants (psnr_sse_tmpl / x86). */
typedef uint64_t (*LsPsnrSseFn)(const void *ref, ptrdiff_t ref_stride, const void *dis,
                                ptrdiff_t dis_stride, unsigned w, unsigned h);
enum LsPsnrSseKind {
    LS_PSNR_SSE_8BIT,        /* uint8_t samples */
    LS_PSNR_SSE_UP_TO_15BIT, /* uint16_t samples below 2^15 */
    LS_PSNR_SSE_16BIT,       /* any uint16_t samples */
};
static inline enum LsPsnrSseKind ls_psnr_sse_kind(unsigned bpc)
{
    return bpc == 8 ? LS_PSNR_SSE_8BIT : bpc <= 15 ? LS_PSNR_SSE_UP_TO_15BIT : LS_PSNR_SSE_16BIT;
}
typedef struct LsPsnrDsp {
    LsPsnrSseFn sse[3]; /* by enum LsPsnrSseKind */
} LsPsnrDsp;
void ls_psnr_dsp_init(LsPsnrDsp *dsp, uint64_t cpu_flags);
void ls_psnr_dsp_init_x86(LsPsnrDsp *dsp, uint64_t cpu_flags);

#endif
