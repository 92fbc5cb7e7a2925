/* Extractor `float_vif`: libvmaf's floating-point VIF on luma, four scales (float_vif.md).
 *
 * Each scale is one streaming pass over its picture pair, in strips of LS_FLOAT_VIF_STRIP rows:
 * input rows (converted, with their products) enter a sliding buffer of rows; the vertical
 * pass forms the strip's rows of the five filtered quantities, the horizontal pass and the
 * statistic follow row by row, and the strip's num/den rows continue the scale's two sums. The
 * same pass decimates: at even rows, x and y filtered with the next scale's window, kept at even
 * columns, are the next scale's picture. Frames are independent (not temporal): the state is
 * read-only in extract and all scratch memory belongs to the call. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "feature/float_vif.h"

const LsOption ls_float_vif_options[] = {
    { .name = "debug", .help = "debug mode: enable additional output", .type = LS_OPT_BOOL,
      .offset = offsetof(LsFloatVifOptions, debug), .def.b = false },
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is "
              "completely disabled",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_enhn_gain_limit),
      .def.d = 100.0, .min = 1.0, .max = 100.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_kernelscale", .alias = "ks",
      .help = "scaling factor for the gaussian kernel (2.0 means multiplying the standard "
              "deviation by 2 and enlarge the kernel size accordingly",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_kernelscale),
      .def.d = 1.0, .min = 0.1, .max = 4.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_prescale", .alias = "ps",
      .help = "scaling factor for the frame (2.0 means making the image twice as large on each "
              "dimension)",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_prescale), .def.d = 1.0,
      .min = 0.1, .max = 4.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_scale1_min_val", .alias = "s1miv",
      .help = "minimum value allowed; smaller values will be set to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_scale1_min_val),
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_scale2_min_val", .alias = "s2miv",
      .help = "minimum value allowed; smaller values will be set to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_scale2_min_val),
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_scale3_min_val", .alias = "s3miv",
      .help = "minimum value allowed; smaller values will be set to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_scale3_min_val),
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_prescale_method", .alias = "pm",
      .help = "scaling method for the frame, supported options: [nearest, bilinear, bicubic, "
              "lanczos4]",
      .type = LS_OPT_STRING, .offset = offsetof(LsFloatVifOptions, vif_prescale_method),
      .def.s = "nearest", .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_sigma_nsq", .alias = "snsq", .help = "neural noise variance",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatVifOptions, vif_sigma_nsq), .def.d = 2.0,
      .min = 0.0, .max = 5.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "vif_skip_scale0", .alias = "ssclz", .help = "when set, skip scale 0 calculations",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatVifOptions, vif_skip_scale0), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

/* tables/float_vif.json, valid_kernelscales (tables/speed.json has the same list) */
static const float valid_kernelscales[] = {
    0x1p+0f,         0x1p-1f,         0x1.8p+0f,       0x1p+1f,         0x1.555556p-1f,
    0x1.333334p+1f,  0x1.db0d32p+1f,  0x1.555556p+0f,  0x1.2aaaaap+0f,  0x1.4p+0f,
    0x1.6aaaaap+0f,  0x1.aaaaaap+0f,  0x1.8p+1f,       0x1.c71c72p-2f,  0x1.797f62p+0f,
    0x1.8a3d7p+0f,   0x1.99999ap+0f,  0x1.111148p+0f,  0x1.6c16bep-1f,  0x1.7b4246p-1f,
    0x1.1c71c6p+0f,
};

/* the reference's bilinear scaler takes destinations up to 8K wide */
#define BILINEAR_MAX_WIDTH 7680

static const char *const method_names[] = { "nearest", "bilinear", "bicubic", "lanczos4" };

bool ls_float_vif_kernelscale_valid(float ks)
{
    bool valid = false;
    for (unsigned i = 0; i < sizeof(valid_kernelscales) / sizeof(valid_kernelscales[0]); i++)
        valid = valid || fabsf(ks - valid_kernelscales[i]) < 1e-3f;
    return valid;
}

int ls_float_vif_resample_method(const char *name)
{
    for (int m = 0; m < 4; m++)
        if (!strcmp(name, method_names[m]))
            return m;
    return -1;
}

static const char *const score_bases[LS_FLOAT_VIF_SCALES][2] = {
    { "VMAF_feature_vif_scale0_score", "vif_scale0" },
    { "VMAF_feature_vif_scale1_score", "vif_scale1" },
    { "VMAF_feature_vif_scale2_score", "vif_scale2" },
    { "VMAF_feature_vif_scale3_score", "vif_scale3" },
};
static const char *const debug_bases[LS_FLOAT_VIF_N_NAMES - LS_FLOAT_VIF_SCALES] = {
    "vif",            "vif_num",        "vif_den",        "vif_num_scale0", "vif_den_scale0",
    "vif_num_scale1", "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3",
    "vif_den_scale3",
};

unsigned ls_float_vif_min_size(const int n_taps[LS_FLOAT_VIF_SCALES], unsigned first_scale)
{
    /* scale s works on floor(size / 2^s) samples and its border rule needs more than its radius */
    unsigned min = 1;
    for (unsigned s = first_scale; s < LS_FLOAT_VIF_SCALES; s++) {
        const unsigned need = ((unsigned)(n_taps[s] / 2) + 1) << s;
        min = need > min ? need : min;
    }
    return min;
}

/* ---- prescaling (§3.2, §3.3) ---- */

static float bicubic_weight(float t)
{
    const float a = -0.75f;
    t = fabsf(t);
    if (t < 1.0f)
        return ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
    if (t < 2.0f)
        return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
    return 0.0f;
}

static float lanczos_weight(float t)
{
    const double pi = 3.14159265358979323846;
    if (t == 0.0f)
        return 1.0f;
    if (t > -4.0f && t < 4.0f) {
        const double d = t;
        return (float)((4.0 * sin(pi * d)) * sin(pi * d / 4.0) / ((pi * pi * d) * d));
    }
    return 0.0f;
}

bool ls_float_vif_axis_init(LsFloatVifAxis *a, enum LsFloatVifResampleMethod m, unsigned n_in,
                            unsigned n_out)
{
    static const unsigned taps[] = { 1, 2, 4, LS_FLOAT_VIF_LANCZOS_TAPS };
    a->n_out = n_out;
    a->n_taps = taps[m];
    a->idx = malloc((size_t)n_out * a->n_taps * sizeof(*a->idx));
    a->weight = malloc((size_t)n_out * a->n_taps * sizeof(*a->weight));
    if (!a->idx || !a->weight)
        return false;
    const float ratio = (float)n_in / (float)n_out;
    const float hi = (float)(n_in - 1);
    for (unsigned o = 0; o < n_out; o++) {
        int32_t *idx = a->idx + (size_t)o * a->n_taps;
        float *wt = a->weight + (size_t)o * a->n_taps;
        if (m == LS_FLOAT_VIF_NEAREST) {
            idx[0] = (int32_t)((float)o * ratio);
            wt[0] = 1.0f;
        } else if (m == LS_FLOAT_VIF_BILINEAR) {
            int i1, i2;
            ls_motion_bilinear_coord((int)o, ratio, (int)n_in, &i1, &i2, &wt[0]);
            idx[0] = i1, idx[1] = i2;
            wt[1] = 0.0f;
        } else {
            const float pos = (float)((o + 0.5) * (double)ratio - 0.5);
            const int base = (int)floor(pos);
            const float d = pos - (float)base;
            const int first = m == LS_FLOAT_VIF_BICUBIC ? -1 : -4;
            for (unsigned t = 0; t < a->n_taps; t++) {
                const int i = first + (int)t;
                idx[t] = (int32_t)ls_motion_fmirror((float)(base + i), 0.0f, hi);
                const float x = (float)i - d;
                wt[t] = m == LS_FLOAT_VIF_BICUBIC ? bicubic_weight(x) : lanczos_weight(x);
            }
        }
        for (unsigned t = 0; t < a->n_taps; t++)
            if (idx[t] < 0 || idx[t] >= (int32_t)n_in)
                return false;
    }
    return true;
}

void ls_float_vif_axis_free(LsFloatVifAxis *a)
{
    free(a->idx);
    free(a->weight);
    memset(a, 0, sizeof(*a));
}

void ls_float_vif_resample_row(enum LsFloatVifResampleMethod m, const LsFloatVifAxis *ax,
                               const float *in, ptrdiff_t stride, const int32_t *iy,
                               const float *wy, float *out)
{
    for (unsigned x = 0; x < ax->n_out; x++) {
        const int32_t *ix = ax->idx + (size_t)x * ax->n_taps;
        const float *wx = ax->weight + (size_t)x * ax->n_taps;
        switch (m) {
        case LS_FLOAT_VIF_NEAREST:
            out[x] = in[iy[0] * stride + ix[0]];
            break;
        case LS_FLOAT_VIF_BILINEAR:
            out[x] = ls_motion_bilinear_sample(in[iy[0] * stride + ix[0]],
                                               in[iy[0] * stride + ix[1]],
                                               in[iy[1] * stride + ix[0]],
                                               in[iy[1] * stride + ix[1]], wx[0], wy[0]);
            break;
        case LS_FLOAT_VIF_BICUBIC:
            out[x] = ls_float_vif_bicubic_sample(in, stride, ix, wx, iy, wy);
            break;
        case LS_FLOAT_VIF_LANCZOS4:
            out[x] = ls_float_vif_lanczos_sample(in, stride, ix, wx, iy, wy);
            break;
        }
    }
}

void ls_float_vif_resample(const LsFloatVifState *s, const float *in, float *out)
{
    const LsFloatVifAxis *ay = &s->axis_y;
    for (unsigned y = 0; y < ay->n_out; y++)
        ls_float_vif_resample_row(s->method, &s->axis_x, in, (ptrdiff_t)s->w,
                                  ay->idx + (size_t)y * ay->n_taps,
                                  ay->weight + (size_t)y * ay->n_taps,
                                  out + (size_t)y * s->axis_x.n_out);
}

/* ---- state ---- */

void ls_float_vif_state_close(LsFloatVifState *s)
{
    ls_float_vif_axis_free(&s->axis_x);
    ls_float_vif_axis_free(&s->axis_y);
}

int ls_float_vif_state_init(LsFloatVifState *s, const LsFloatVifOptions *opt, const LsFex *fex,
                            unsigned bpc, unsigned w, unsigned h)
{
    memset(s, 0, sizeof(*s));
    s->opt = *opt;
    s->bpc = bpc;
    s->w = w;
    s->h = h;
    /* other depths the reference reads as bytes */
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "float_vif: bit depth %u is not supported (8, 10, 12 or 16)",
                            bpc);

    const int m = ls_float_vif_resample_method(opt->vif_prescale_method);
    if (m < 0)
        return ls_fex_error(fex,
                            "float_vif: invalid vif_prescale_method \"%s\" (nearest, bilinear, "
                            "bicubic or lanczos4)",
                            opt->vif_prescale_method);
    s->method = (enum LsFloatVifResampleMethod)m;

    /* Decision (§2): the reference checks the kernel scale on every frame; checked once here */
    const float ks = (float)opt->vif_kernelscale;
    if (!ls_float_vif_kernelscale_valid(ks))
        return ls_fex_error(fex, "float_vif: invalid vif_kernelscale %g (valid: %s)",
                            opt->vif_kernelscale, LS_VALID_KERNELSCALES_TEXT);
    for (int sc = 0; sc < LS_FLOAT_VIF_SCALES; sc++) {
        s->n_taps[sc] = ls_float_vif_window(sc, ks);
        s->taps[sc] = ls_float_vif_taps + LS_FLOAT_VIF_TAPS_OFFSET(s->n_taps[sc]);
    }
    s->first_scale = opt->vif_skip_scale0 ? 1 : 0;

    const unsigned ws = (unsigned)(int)(w * opt->vif_prescale + 0.5);
    const unsigned hs = (unsigned)(int)(h * opt->vif_prescale + 0.5);
    if (s->method == LS_FLOAT_VIF_BILINEAR && ws > BILINEAR_MAX_WIDTH)
        return ls_fex_error(fex,
                            "float_vif: vif_prescale_method=bilinear supports working widths up to "
                            "%u (this one: %u)",
                            BILINEAR_MAX_WIDTH, ws);
    /* below this the reference filters outside its buffers (and corrupts its heap at 7x7) */
    const unsigned min = ls_float_vif_min_size(s->n_taps, s->first_scale);
    if (ws < min || hs < min) {
        char taps[64];
        snprintf(taps, sizeof(taps), "%d/%d/%d/%d", s->n_taps[0], s->n_taps[1], s->n_taps[2],
                 s->n_taps[3]);
        if (ws == w && hs == h)
            return ls_fex_error(fex,
                                "float_vif: %ux%u luma is too small: the 4-scale pyramid with "
                                "%s-tap filters needs at least %ux%u",
                                w, h, taps, min, min);
        unsigned in_min = 1;
        while ((unsigned)(int)(in_min * opt->vif_prescale + 0.5) < min)
            in_min++;
        return ls_fex_error(fex,
                            "float_vif: %ux%u luma is too small: vif_prescale=%g makes it "
                            "%ux%u, and the 4-scale pyramid with %s-tap filters needs at least "
                            "%ux%u (input %ux%u)",
                            w, h, opt->vif_prescale, ws, hs, taps, min, min, in_min, in_min);
    }
    s->prescaled = ws != w || hs != h;
    if (s->prescaled) {
        const bool ok = ls_float_vif_axis_init(&s->axis_x, s->method, w, ws) &&
                        ls_float_vif_axis_init(&s->axis_y, s->method, h, hs);
        if (!ok) {
            const bool nomem = !s->axis_x.idx || !s->axis_x.weight ||
                               (s->axis_y.n_out && (!s->axis_y.idx || !s->axis_y.weight));
            ls_float_vif_state_close(s);
            if (nomem)
                return -ENOMEM;
            return ls_fex_error(fex,
                                "float_vif: %ux%u luma is too small for "
                                "vif_prescale_method=%s (its support reaches past the mirrored "
                                "border); use at least 6x6 or another method",
                                w, h, method_names[m]);
        }
    }
    s->sw[0] = ws;
    s->sh[0] = hs;
    for (int sc = 1; sc < LS_FLOAT_VIF_SCALES; sc++) {
        s->sw[sc] = s->sw[sc - 1] / 2;
        s->sh[sc] = s->sh[sc - 1] / 2;
    }

    s->stat.sigma_nsq = opt->vif_sigma_nsq;
    s->stat.gain_limit = (float)opt->vif_enhn_gain_limit;
    s->stat.sigma_max_inv = (float)(powf((float)opt->vif_sigma_nsq, 2.0f) / (255.0 * 255.0));

    for (int sc = 0; sc < LS_FLOAT_VIF_SCALES; sc++)
        ls_fex_feature_name(fex, s->names[sc], sizeof(s->names[sc]), score_bases[sc][0],
                            score_bases[sc][1]);
    for (int i = 0; i < LS_FLOAT_VIF_N_NAMES - LS_FLOAT_VIF_SCALES; i++)
        ls_fex_feature_name(fex, s->names[LS_FLOAT_VIF_SCALES + i],
                            sizeof(s->names[LS_FLOAT_VIF_SCALES + i]), debug_bases[i], NULL);
    return 0;
}

int ls_float_vif_write(const LsFloatVifState *s, const float num[LS_FLOAT_VIF_SCALES],
                       const float den[LS_FLOAT_VIF_SCALES], unsigned index, LsCollector *fc)
{
    const double min_val[LS_FLOAT_VIF_SCALES] = { 0.0, s->opt.vif_scale1_min_val,
                                                  s->opt.vif_scale2_min_val,
                                                  s->opt.vif_scale3_min_val };
    int err = 0;
    for (unsigned sc = 0; sc < LS_FLOAT_VIF_SCALES && !err; sc++) {
        double score = 0.0;
        if (sc >= s->first_scale) {
            score = (double)num[sc] / (double)den[sc];
            /* MAX(a, b) = a > b ? a : b: a NaN quotient becomes the minimum; not at scale 0 */
            if (sc > 0)
                score = score > min_val[sc] ? score : min_val[sc];
        }
        err = ls_collector_append(fc, s->names[sc], score, index);
    }
    if (err || !s->opt.debug)
        return err;

    double score_num = 0.0, score_den = 0.0;
    for (unsigned sc = s->first_scale; sc < LS_FLOAT_VIF_SCALES; sc++) {
        score_num = score_num + (double)num[sc];
        score_den = score_den + (double)den[sc];
    }
    double v[LS_FLOAT_VIF_N_NAMES - LS_FLOAT_VIF_SCALES];
    v[0] = score_den == 0.0 ? 1.0 : score_num / score_den;
    v[1] = score_num;
    v[2] = score_den;
    for (unsigned sc = 0; sc < LS_FLOAT_VIF_SCALES; sc++) {
        const bool skipped = sc < s->first_scale;
        v[3 + 2 * sc] = skipped ? 0.0 : (double)num[sc];
        v[4 + 2 * sc] = skipped ? -1.0 : (double)den[sc];
    }
    for (unsigned i = 0; i < LS_FLOAT_VIF_N_NAMES - LS_FLOAT_VIF_SCALES && !err; i++)
        err = ls_collector_append(fc, s->names[LS_FLOAT_VIF_SCALES + i], v[i], index);
    return err;
}

/* ---- the CPU extractor ---- */

typedef struct FloatVifPriv {
    LsFloatVifOptions opt; /* first: the option table's offsets point here */
    LsFloatVifState state;
    LsFloatVifDsp dsp;
} FloatVifPriv;

enum { S = LS_FLOAT_VIF_STRIP, NQ = LS_FLOAT_VIF_NQ };

/* strips between two slides of the row buffer: each slide copies the window's overlap rows */
#define BUF_STRIPS 6

/* The memory of one call, sized for scale 0 (every later scale is smaller in all respects). */
typedef struct Scratch {
    float *buf[NQ];       /* buf_rows rows of row_w floats per quantity: the sliding window */
    unsigned buf_rows;
    size_t row_w;
    float *vert[NQ];      /* S rows per quantity: vertical results with their mirrored borders */
    size_t vert_w;        /* floats per row, border included */
    unsigned vert_pad;    /* border width reserved on each side */
    float *horiz[NQ];     /* one row per quantity: the filtered values of one picture row */
    float *num, *den;     /* S rows of the strip */
    float *tmp;
    float *level[2][2];   /* [scale parity][ref, dist]: decimated pictures of scales 1-3 */
    float *input[2];      /* prescaling: the converted input, then the working-size picture */
    float *work[2];
    void *mem;
} Scratch;

static int scratch_alloc(const LsFloatVifState *s, Scratch *sc)
{
    const unsigned w0 = s->sw[0];
    unsigned radius = 0;
    for (unsigned l = 0; l < LS_FLOAT_VIF_SCALES; l++)
        radius = (unsigned)s->n_taps[l] / 2 > radius ? (unsigned)s->n_taps[l] / 2 : radius;
    sc->buf_rows = 2 * radius + BUF_STRIPS * S;
    sc->row_w = ((size_t)w0 + 15) & ~(size_t)15;
    sc->vert_pad = (radius + 15) & ~15u;
    sc->vert_w = sc->row_w + 2 * (size_t)sc->vert_pad;
    const size_t n_buf = (size_t)sc->buf_rows * sc->row_w;
    const size_t n_vert = (size_t)S * sc->vert_w;
    const size_t n_level1 = (((size_t)s->sw[1] * s->sh[1]) + 15) & ~(size_t)15;
    const size_t n_level2 = (((size_t)s->sw[2] * s->sh[2]) + 15) & ~(size_t)15;
    const size_t n_in = s->prescaled ? (((size_t)s->w * s->h) + 15) & ~(size_t)15 : 0;
    const size_t n_work = s->prescaled ? (((size_t)s->sw[0] * s->sh[0]) + 15) & ~(size_t)15 : 0;
    const size_t n_tmp = (ls_float_vif_tmp_floats((unsigned)sc->vert_w) + 15) & ~(size_t)15;
    const size_t total = NQ * (n_buf + n_vert + sc->row_w) + 2 * S * sc->row_w + n_tmp +
                         2 * (n_level1 + n_level2 + n_in + n_work);
    float *p = aligned_alloc(64, total * sizeof(float));
    if (!p)
        return -ENOMEM;
    sc->mem = p;
    for (unsigned q = 0; q < NQ; q++) {
        sc->buf[q] = p, p += n_buf;
        sc->vert[q] = p, p += n_vert;
        sc->horiz[q] = p, p += sc->row_w;
    }
    sc->num = p, p += S * sc->row_w;
    sc->den = p, p += S * sc->row_w;
    sc->tmp = p, p += n_tmp;
    for (unsigned i = 0; i < 2; i++) {
        sc->level[1][i] = p, p += n_level1; /* scales 1 and 3 */
        sc->level[0][i] = p, p += n_level2; /* scale 2 */
        sc->input[i] = p, p += n_in;
        sc->work[i] = p, p += n_work;
    }
    return 0;
}

/* Where a scale's picture rows come from: samples of the picture (bpc > 0) or float planes. */
typedef struct Source {
    const void *data[2];
    ptrdiff_t stride[2]; /* bytes */
    unsigned bpc;        /* 0: floats */
} Source;

static void mirror_border(float *row, unsigned w, unsigned radius)
{
    for (unsigned m = 1; m <= radius; m++) {
        row[-(ptrdiff_t)m] = row[m];
        row[w - 1 + m] = row[w - 1 - m];
    }
}

/* One scale: its sums (when it is scored) and the next scale's picture (when there is one). */
static void run_scale(const FloatVifPriv *p, Scratch *sc, unsigned l, const Source *src,
                      float *next_ref, float *next_dis, float *num, float *den)
{
    const LsFloatVifState *s = &p->state;
    const LsFloatVifDsp *dsp = &p->dsp;
    const unsigned w = s->sw[l], h = s->sh[l];
    const bool stats = l >= s->first_scale, decimate = l + 1 < LS_FLOAT_VIF_SCALES;
    const unsigned n_taps = (unsigned)s->n_taps[l], radius = stats ? n_taps / 2 : 0;
    const unsigned n_taps_d = decimate ? (unsigned)s->n_taps[l + 1] : 0, radius_d = n_taps_d / 2;
    const unsigned rr = radius > radius_d ? radius : radius_d; /* radius of the row window */
    const unsigned w_next = w / 2, h_next = h / 2;
    float acc[2] = { 0.0f, 0.0f };

    /* Virtual row v (-rr <= v < h + rr, the input row reflect(v)) lives in buffer row v - base.
     * A strip's window (its rows y0 - rr .. y0 + n - 1 + rr) is contiguous at a constant stride;
     * when the next window would pass the end, the rows it shares with the filled ones move to
     * the top. */
    const ptrdiff_t rs = (ptrdiff_t)sc->row_w;
    const unsigned nq = stats ? NQ : 2;
    int base = -(int)rr, next_v = -(int)rr; /* next virtual row to enter the buffer */
    for (unsigned y0 = 0; y0 < h; y0 += S) {
        const unsigned n = h - y0 < S ? h - y0 : S;
        const int first_v = (int)y0 - (int)rr, last_v = (int)(y0 + n - 1 + rr);
        if (last_v - base >= (int)sc->buf_rows) {
            for (unsigned q = 0; q < nq; q++)
                memmove(sc->buf[q], sc->buf[q] + (ptrdiff_t)(first_v - base) * rs,
                        (size_t)(next_v - first_v) * (size_t)rs * sizeof(float));
            base = first_v;
        }
        for (; next_v <= last_v; next_v++) {
            const int y = ls_float_vif_reflect(next_v, (int)h);
            const ptrdiff_t at = (ptrdiff_t)(next_v - base) * rs;
            float *const out[NQ] = { sc->buf[0] + at, sc->buf[1] + at, sc->buf[2] + at,
                                     sc->buf[3] + at, sc->buf[4] + at };
            dsp->fill((const uint8_t *)src->data[0] + y * src->stride[0],
                      (const uint8_t *)src->data[1] + y * src->stride[1], src->bpc, w, stats, out);
        }
        const ptrdiff_t first = (ptrdiff_t)(first_v - base) * rs;
        const ptrdiff_t vs = (ptrdiff_t)sc->vert_w;
        if (stats) {
            for (unsigned q = 0; q < NQ; q++)
                dsp->filter_v(sc->buf[q] + first + (ptrdiff_t)(rr - radius) * rs, rs, 1, n,
                              s->taps[l], n_taps, w, sc->vert[q] + sc->vert_pad, vs);
            for (unsigned u = 0; u < n; u++) {
                for (unsigned q = 0; q < NQ; q++) {
                    float *row = sc->vert[q] + sc->vert_pad + u * vs;
                    mirror_border(row, w, radius);
                    dsp->filter_h(row - radius, 1, s->taps[l], n_taps, w, sc->horiz[q], sc->tmp);
                }
                const float *const filtered[NQ] = { sc->horiz[0], sc->horiz[1], sc->horiz[2],
                                                    sc->horiz[3], sc->horiz[4] };
                dsp->stat(filtered, w, &s->stat, sc->num + u * sc->row_w,
                          sc->den + u * sc->row_w);
            }
            dsp->accumulate(sc->num, sc->den, sc->row_w, w, n, acc);
        }
        if (decimate) {
            /* output rows y0, y0 + 2, ... that have a row in the next scale */
            unsigned n_even = (n + 1) / 2;
            if (y0 / 2 + n_even > h_next)
                n_even = h_next > y0 / 2 ? h_next - y0 / 2 : 0;
            if (!n_even)
                continue;
            float *const next[2] = { next_ref, next_dis };
            for (unsigned q = 0; q < 2; q++) {
                dsp->filter_v(sc->buf[q] + first + (ptrdiff_t)(rr - radius_d) * rs, rs, 2, n_even,
                              s->taps[l + 1], n_taps_d, w, sc->vert[q] + sc->vert_pad, vs);
                for (unsigned u = 0; u < n_even; u++) {
                    float *row = sc->vert[q] + sc->vert_pad + u * vs;
                    mirror_border(row, w, radius_d);
                    dsp->filter_h(row - radius_d, 2, s->taps[l + 1], n_taps_d, w_next,
                                  next[q] + (size_t)(y0 / 2 + u) * w_next, sc->tmp);
                }
            }
        }
    }
    *num = acc[0];
    *den = acc[1];
}

/* The luma plane as floats (§3.1), for the resampler. */
static void convert_plane(const VmafPicture *pic, unsigned w, unsigned h, float *out)
{
    for (unsigned y = 0; y < h; y++) {
        const uint8_t *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
        for (unsigned x = 0; x < w; x++)
            out[(size_t)y * w + x] =
                ls_float_vif_sample(pic->bpc == 8 ? row[x] : ((const uint16_t *)row)[x], pic->bpc);
    }
}

static int float_vif_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                             unsigned index, LsCollector *fc)
{
    const FloatVifPriv *p = fex->priv;
    const LsFloatVifState *s = &p->state;
    Scratch sc;
    if (scratch_alloc(s, &sc))
        return -ENOMEM;

    Source src = { { ref->data[0], dist->data[0] }, { ref->stride[0], dist->stride[0] }, s->bpc };
    if (s->prescaled) {
        convert_plane(ref, s->w, s->h, sc.input[0]);
        convert_plane(dist, s->w, s->h, sc.input[1]);
        ls_float_vif_resample(s, sc.input[0], sc.work[0]);
        ls_float_vif_resample(s, sc.input[1], sc.work[1]);
        src = (Source){ { sc.work[0], sc.work[1] },
                        { (ptrdiff_t)(s->sw[0] * sizeof(float)),
                          (ptrdiff_t)(s->sw[0] * sizeof(float)) },
                        0 };
    }
    float num[LS_FLOAT_VIF_SCALES] = { 0 }, den[LS_FLOAT_VIF_SCALES] = { 0 };
    for (unsigned l = 0; l < LS_FLOAT_VIF_SCALES; l++) {
        float *const *next = sc.level[(l + 1) & 1];
        run_scale(p, &sc, l, &src, next[0], next[1], &num[l], &den[l]);
        const ptrdiff_t stride = (ptrdiff_t)(s->sw[l] / 2 * sizeof(float));
        src = (Source){ { next[0], next[1] }, { stride, stride }, 0 };
    }
    free(sc.mem);
    return ls_float_vif_write(s, num, den, index, fc);
}

static int float_vif_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                          unsigned h)
{
    FloatVifPriv *p = fex->priv;
    (void)fmt; /* luma only: every layout, 4:0:0 included */
    const int err = ls_float_vif_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    ls_float_vif_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

static void float_vif_close(LsFex *fex)
{
    FloatVifPriv *p = fex->priv;
    ls_float_vif_state_close(&p->state);
}

static const char *const float_vif_provided[] = {
    "VMAF_feature_vif_scale0_score",
    "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score",
    "VMAF_feature_vif_scale3_score",
    "vif",
    "vif_num",
    "vif_den",
    "vif_num_scale0",
    "vif_den_scale0",
    "vif_num_scale1",
    "vif_den_scale1",
    "vif_num_scale2",
    "vif_den_scale2",
    "vif_num_scale3",
    "vif_den_scale3",
    NULL,
};

const LsExtractor ls_fex_float_vif = {
    .name = "float_vif",
    .options = ls_float_vif_options,
    .priv_size = sizeof(FloatVifPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = float_vif_provided,
    .init = float_vif_init,
    .extract = float_vif_extract,
    .close = float_vif_close,
};

int ls_float_vif_write_sums(const LsFloatVifState *s, const float sums[2 * LS_FLOAT_VIF_SCALES],
                            unsigned index, LsCollector *fc)
{
    float num[LS_FLOAT_VIF_SCALES], den[LS_FLOAT_VIF_SCALES];
    for (unsigned l = 0; l < LS_FLOAT_VIF_SCALES; l++) {
        num[l] = sums[2 * l];
        den[l] = sums[2 * l + 1];
    }
    return ls_float_vif_write(s, num, den, index, fc);
}
