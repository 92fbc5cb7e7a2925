/* Extractor `ssim`: the integer (Daala-derived) SSIM the lusoris fork registers, ssim.md Part B.
 * Integer Gaussian moments (9 taps, dropped at the borders; exact, so the vertical pass may run
 * first), then one double term per position added in row-major order. Any frame size is scored:
 * a small frame only has fewer taps. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "feature/ssim.h"

const LsOption ls_ssim_options[] = {
    { .name = "enable_db", .help = "write SSIM values as dB: -10*log10(1-ssim)",
      .type = LS_OPT_BOOL, .offset = offsetof(LsSsimOptions, enable_db), .def.b = false },
    { .name = "clip_db", .help = "clip dB scores to a peak-derived ceiling",
      .type = LS_OPT_BOOL, .offset = offsetof(LsSsimOptions, clip_db), .def.b = false },
    { 0 },
};

enum { NTAPS = LS_SSIM_TAPS, HALF = LS_SSIM_TAPS / 2, NFIELDS = 5 };

typedef struct SsimPriv {
    LsSsimOptions opt; /* first: the option table's offsets point here */
    LsSsimState st;
    LsSsimDsp dsp;
} SsimPriv;

int ls_ssim_state_init(LsFex *fex, LsSsimState *st, const LsSsimOptions *opt, unsigned bpc,
                       unsigned w, unsigned h)
{
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "ssim: bit depth %u is not supported (8 to 16)", bpc);
    fex->n_planes_read = 1;
    st->opt = *opt;
    st->w = w;
    st->h = h;
    st->sample_max = (double)((1u << bpc) - 1u);
    st->max_db = ls_ssim_db_ceiling(st->opt.clip_db, bpc, w, h);
    return 0;
}

int ls_ssim_write_score(const LsSsimState *st, double ssim_sum, double weight_sum,
                        unsigned index, LsCollector *fc)
{
    double score = ssim_sum / weight_sum;
    if (st->opt.enable_db)
        score = ls_ssim_to_db(score, st->max_db);
    return ls_collector_append(fc, "ssim", score, index);
}

static int ssim_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    SsimPriv *p = fex->priv;
    (void)fmt; /* luma only; every layout, 4:0:0 included */
    const int err = ls_ssim_state_init(fex, &p->st, &p->opt, bpc, w, h);
    if (err)
        return err;
    ls_ssim_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

/* Sum of the taps that stay inside [0, size) around position i. */
static int kept_weight(unsigned i, unsigned size)
{
    static const int kernel[NTAPS] = LS_SSIM_KERNEL_INIT;
    int sum = 0;
    for (int t = 0; t < NTAPS; t++) {
        const int c = (int)i + t - HALF;
        if (c >= 0 && c < (int)size)
            sum += kernel[t];
    }
    return sum;
}

static int ssim_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                        unsigned index, LsCollector *fc)
{
    static const int kernel[NTAPS] = LS_SSIM_KERNEL_INIT;
    const SsimPriv *p = fex->priv;
    const unsigned w = p->st.w, h = p->st.h;
    double *mem = malloc((size_t)NFIELDS * w * sizeof(double));
    if (!mem)
        return -ENOMEM;
    double *const sums[NFIELDS] = { mem, mem + w, mem + 2 * (size_t)w, mem + 3 * (size_t)w,
                                    mem + 4 * (size_t)w };
    const LsSsimSumsVFn sums_v = p->dsp.sums_v[ref->bpc > 8];

    double acc[2] = { 0.0, 0.0 }; /* ssim terms, weights: two sequential chains */
    for (unsigned y = 0; y < h; y++) {
        const void *ref_rows[NTAPS], *dis_rows[NTAPS];
        int32_t kernel_v[NTAPS];
        for (unsigned t = 0; t < NTAPS; t++) {
            const int row = (int)y + (int)t - HALF;
            const int inside = row >= 0 && row < (int)h;
            const ptrdiff_t r = inside ? row : (int)y; /* weight 0: any valid row */
            kernel_v[t] = inside ? kernel[t] : 0;
            ref_rows[t] = (const uint8_t *)ref->data[0] + r * ref->stride[0];
            dis_rows[t] = (const uint8_t *)dist->data[0] + r * dist->stride[0];
        }
        sums_v(ref_rows, dis_rows, kernel_v, w, sums);
        p->dsp.row((const double *const *)sums, (double)kept_weight(y, h), w, p->st.sample_max, acc);
    }
    free(mem);
    return ls_ssim_write_score(&p->st, acc[0], acc[1], index, fc);
}

static const char *const ssim_provided[] = { "ssim", NULL };

const LsExtractor ls_fex_ssim = {
    .name = "ssim",
    .options = ls_ssim_options,
    .priv_size = sizeof(SsimPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = ssim_provided,
    .init = ssim_init,
    .extract = ssim_extract,
};
