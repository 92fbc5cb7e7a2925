/* Extractor `float_ms_ssim`: libvmaf's multi-scale SSIM on luma, ms_ssim.md.
 * Five levels: level 0 is the picture itself, streamed row by row (converted to float on the
 * fly, as float_ssim does); levels 1..4 are decimated by the 9x9 kernel into padded float planes.
 * Each level is scored with float_ssim's statistics (ls_float_ssim_stats); the five binary32
 * means are combined on the host with glibc pow. Only the order of every sum matters, and it is
 * the reference's; the order of levels does not (the reference builds the pyramid first). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "feature/ms_ssim.h"
#include "feature/ssim.h"

const LsOption ls_ms_ssim_options[] = {
    { .name = "enable_lcs", .help = "enable luminance, contrast and structure intermediate output",
      .type = LS_OPT_BOOL, .offset = offsetof(LsMsSsimOptions, enable_lcs), .def.b = false },
    { .name = "enable_db", .help = "write MS-SSIM values as dB",
      .type = LS_OPT_BOOL, .offset = offsetof(LsMsSsimOptions, enable_db), .def.b = false },
    { .name = "clip_db", .help = "clip dB scores",
      .type = LS_OPT_BOOL, .offset = offsetof(LsMsSsimOptions, clip_db), .def.b = false },
    { 0 },
};

enum {
    NSCALES = LS_MS_SSIM_SCALES,
    NTAPS = LS_MS_SSIM_DECIMATE_TAPS,
    PAD_L = 4, /* mirrored samples left of a padded row */
    PAD_R = 5, /* and right of it: the DSP may read one past the last used column */
};

bool ls_ms_ssim_combine(const float l[LS_MS_SSIM_SCALES], const float c[LS_MS_SSIM_SCALES],
                        const float s[LS_MS_SSIM_SCALES], double *ms)
{
    static const float alpha[NSCALES] = LS_MS_SSIM_ALPHA_INIT;
    static const float beta_gamma[NSCALES] = LS_MS_SSIM_BETA_INIT;
    double product = 1.0;
    for (int i = 0; i < NSCALES; i++) {
        product = product * ((pow((double)l[i], (double)alpha[i]) *
                              pow((double)c[i], (double)beta_gamma[i])) *
                             pow((double)s[i], (double)beta_gamma[i]));
        if (product == INFINITY) /* NaN passes, as in the reference */
            return false;
    }
    *ms = product;
    return true;
}

typedef struct MsSsimPriv {
    LsMsSsimOptions opt; /* first: the option table's offsets point here */
    LsSsimDsp ssim_dsp;
    LsMsSsimDsp dsp;
    unsigned w[NSCALES], h[NSCALES];
    double max_db;
} MsSsimPriv;

static int ms_ssim_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                        unsigned h)
{
    MsSsimPriv *p = fex->priv;
    (void)fmt; /* luma only; every layout, 4:0:0 included */
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "float_ms_ssim: bit depth %u is not supported (8, 10, 12 or 16)",
                            bpc);
    /* the reference fails every frame here ("scale below 1x1") */
    if (!ls_ms_ssim_size_ok(w, h))
        return ls_fex_error(fex,
                            "float_ms_ssim: %ux%u luma is too small for the 5-level MS-SSIM "
                            "pyramid with its 11x11 window; frames must be at least %ux%u",
                            w, h, LS_MS_SSIM_MIN_SIZE, LS_MS_SSIM_MIN_SIZE);
    p->w[0] = w;
    p->h[0] = h;
    for (int s = 1; s < NSCALES; s++) {
        p->w[s] = ls_ms_ssim_next_size(p->w[s - 1]);
        p->h[s] = ls_ms_ssim_next_size(p->h[s - 1]);
    }
    p->max_db = ls_ssim_db_ceiling(p->opt.clip_db, bpc, w, h);
    ls_ssim_dsp_init(&p->ssim_dsp, fex->cpu_flags);
    ls_ms_ssim_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

/* Mirrored padding of a row of n samples at row[0 .. n-1] (n >= PAD_R). */
static void pad_row(float *row, unsigned n)
{
    for (int c = -PAD_L; c < 0; c++)
        row[c] = row[ls_float_ssim_mirror(c, (int)n)];
    for (int c = (int)n; c < (int)n + PAD_R; c++)
        row[c] = row[ls_float_ssim_mirror(c, (int)n)];
}

/* A level held as a padded plane (levels 1..4). */
typedef struct Level {
    float *data; /* sample (0, 0) */
    size_t stride;
} Level;

static float *level_row(const Level *l, unsigned y)
{
    return l->data + (size_t)y * l->stride;
}

/* Level 0 rows for the decimation: a ring of nine converted, padded rows. The rows of one
 * output row are nine consecutive ones, mirrored at the ends, so row r always has slot r % 9. */
typedef struct Ring {
    const VmafPicture *pic;
    float *slots;        /* NTAPS rows of PAD_L + w + PAD_R */
    size_t stride;
    int tag[NTAPS];      /* row held in each slot, -1: none */
} Ring;

static const float *ring_row(Ring *r, unsigned y, unsigned w)
{
    const unsigned slot = y % NTAPS;
    float *row = r->slots + slot * r->stride + PAD_L;
    if (r->tag[slot] != (int)y) {
        ls_float_ssim_convert_row(r->pic, y, w, row);
        pad_row(row, w);
        r->tag[slot] = (int)y;
    }
    return row;
}

/* Level s from level s-1 (a ring for level 0, else a plane), then padded for the next one. */
static void decimate_level(const MsSsimPriv *p, int s, Ring *ring, const Level *src, Level *dst)
{
    const unsigned h_in = p->h[s - 1], w_in = p->w[s - 1];
    for (unsigned y = 0; y < p->h[s]; y++) {
        const float *rows[NTAPS];
        for (int v = 0; v < NTAPS; v++) {
            const unsigned r = (unsigned)ls_float_ssim_mirror(2 * (int)y + v - 4, (int)h_in);
            rows[v] = ring ? ring_row(ring, r, w_in) : level_row(src, r);
        }
        float *out = level_row(dst, y);
        p->dsp.decimate(rows, p->w[s], out);
        pad_row(out, p->w[s]);
    }
}

typedef struct PictureRows {
    const VmafPicture *ref, *dist;
    unsigned w;
} PictureRows;

static void picture_rows(const void *ctx, unsigned y, float *ref_buf, float *dis_buf,
                         const float **ref, const float **dis)
{
    const PictureRows *r = ctx;
    ls_float_ssim_convert_row(r->ref, y, r->w, ref_buf);
    ls_float_ssim_convert_row(r->dist, y, r->w, dis_buf);
    *ref = ref_buf;
    *dis = dis_buf;
}

typedef struct LevelRows {
    const Level *ref, *dist;
} LevelRows;

static void level_rows(const void *ctx, unsigned y, float *ref_buf, float *dis_buf,
                       const float **ref, const float **dis)
{
    const LevelRows *r = ctx;
    (void)ref_buf;
    (void)dis_buf;
    *ref = level_row(r->ref, y);
    *dis = level_row(r->dist, y);
}

static int ms_ssim_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                           unsigned index, LsCollector *fc)
{
    const MsSsimPriv *p = fex->priv;
    const size_t ring_stride = PAD_L + (size_t)p->w[0] + PAD_R;
    size_t len = ls_float_ssim_stats_scratch(p->w[0]) + 2 * NTAPS * ring_stride;
    for (int s = 1; s < NSCALES; s++)
        len += 2 * (PAD_L + (size_t)p->w[s] + PAD_R) * p->h[s];
    float *mem = malloc(len * sizeof(float));
    if (!mem)
        return -ENOMEM;
    float *scratch = mem;
    float *next = scratch + ls_float_ssim_stats_scratch(p->w[0]);
    Ring rings[2] = { { .pic = ref }, { .pic = dist } };
    for (int i = 0; i < 2; i++) {
        rings[i].slots = next;
        rings[i].stride = ring_stride;
        for (int k = 0; k < NTAPS; k++)
            rings[i].tag[k] = -1;
        next += NTAPS * ring_stride;
    }
    Level levels[NSCALES][2]; /* [s][0]: reference, [s][1]: distorted; s >= 1 */
    for (int s = 1; s < NSCALES; s++) {
        for (int i = 0; i < 2; i++) {
            levels[s][i].stride = PAD_L + (size_t)p->w[s] + PAD_R;
            levels[s][i].data = next + PAD_L;
            next += levels[s][i].stride * p->h[s];
        }
    }

    float l[NSCALES], c[NSCALES], st[NSCALES];
    for (int s = 0; s < NSCALES; s++) {
        double acc[4];
        if (s == 0) {
            const PictureRows rows = { ref, dist, p->w[0] };
            ls_float_ssim_stats(&p->ssim_dsp, p->w[0], p->h[0], picture_rows, &rows, scratch, acc);
        } else {
            const LevelRows rows = { &levels[s][0], &levels[s][1] };
            ls_float_ssim_stats(&p->ssim_dsp, p->w[s], p->h[s], level_rows, &rows, scratch, acc);
        }
        const double n = (double)(int)((p->w[s] - 10) * (p->h[s] - 10));
        l[s] = (float)(acc[1] / n);
        c[s] = (float)(acc[2] / n);
        st[s] = (float)(acc[3] / n);
        if (s + 1 < NSCALES) {
            for (int i = 0; i < 2; i++)
                decimate_level(p, s + 1, s == 0 ? &rings[i] : NULL, s == 0 ? NULL : &levels[s][i],
                               &levels[s + 1][i]);
        }
    }
    free(mem);

    double ms;
    if (!ls_ms_ssim_combine(l, c, st, &ms))
        return ls_fex_error(fex, "float_ms_ssim: the MS-SSIM product is infinite at frame %u",
                            index);
    const double score = p->opt.enable_db ? ls_ssim_to_db(ms, p->max_db) : ms;
    int err = ls_collector_append(fc, "float_ms_ssim", score, index);
    if (!p->opt.enable_lcs)
        return err;
    static const char *const names[3][NSCALES] = {
        { "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
          "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4" },
        { "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
          "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4" },
        { "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
          "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4" },
    };
    const float *const terms[3] = { l, c, st };
    for (int t = 0; t < 3 && !err; t++) /* linear, also with enable_db (§7) */
        for (int s = 0; s < NSCALES && !err; s++)
            err = ls_collector_append(fc, names[t][s], (double)terms[t][s], index);
    return err;
}

static const char *const ms_ssim_provided[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
    NULL,
};

const LsExtractor ls_fex_float_ms_ssim = {
    .name = "float_ms_ssim",
    .options = ls_ms_ssim_options,
    .priv_size = sizeof(MsSsimPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = ms_ssim_provided,
    .init = ms_ssim_init,
    .extract = ms_ssim_extract,
};
