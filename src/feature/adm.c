/* Extractor `adm`: integer ADM (DLM adm2, AIM, adm3 and the four scale scores), upstream
 * libvmaf 3.2's portable C path bit for bit. Spec: features/adm.md.
 *
 * One frame is one pass over the luma rows: the four scales are stages of a pipeline, each DWT
 * output row feeds the next scale's input ring and, inside the analysis region, is decoupled,
 * CSF-filtered and scored while its neighbours are still in cache. Nothing frame-sized is kept.
 * Not temporal: frames are scored concurrently, priv is read-only in extract (apart from the
 * pool of scratch blocks, core/scratch_pool.h).
 *
 * Decisions where the reference is undefined or crashes (adm.md §10, §11), all refused at init
 * with one message, except the first:
 *  - den == 0 (a flat reference with adm_noise_weight = 0): adm2 = 1 and aim = 0, so adm3 =
 *    max(1, adm_min_val); the reference reads an uninitialised aim there.
 *  - frames below 33x33 (the reference crashes below 17 and is garbage up to 32);
 *  - adm_norm_view_dist * adm_ref_display_height < 3 * 1080 (the reference fails every frame);
 *  - adm_csf_mode 2/3 without a table for (rdh, nvd) (the reference uses -22 as the factor);
 *  - adm_csf_mode 1 whose factors overflow the fixed-point conversions (undefined in C), naming
 *    the option to lower.
 * Upstream's SIMD paths differ from its portable path at some widths and for non-integral gain
 * limits; lockstep follows the portable path at every width with every variant. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/scratch_pool.h"
#include "feature/adm.h"
#include "feature/adm_csf.h"

const LsOption ls_adm_options[] = {
    { .name = "debug",
      .help = "debug mode: enable additional output",
      .type = LS_OPT_BOOL,
      .offset = offsetof(LsAdmOptions, debug),
      .def.b = false },
    { .name = "adm_enhn_gain_limit",
      .alias = "egl",
      .help = "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is "
              "completely disabled",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_enhn_gain_limit),
      .def.d = 100.0,
      .min = 1.0,
      .max = 100.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_norm_view_dist",
      .alias = "nvd",
      .help = "normalized viewing distance = viewing distance / ref display's physical height",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_norm_view_dist),
      .def.d = 3.0,
      .min = 0.75,
      .max = 24.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_ref_display_height",
      .alias = "rdh",
      .help = "reference display height in pixels",
      .type = LS_OPT_INT,
      .offset = offsetof(LsAdmOptions, adm_ref_display_height),
      .def.i = 1080,
      .min = 1,
      .max = 4320,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_csf_mode",
      .alias = "csf",
      .help = "contrast sensitivity: 0 Watson 1997, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE)",
      .type = LS_OPT_INT,
      .offset = offsetof(LsAdmOptions, adm_csf_mode),
      .def.i = 0,
      .min = 0,
      .max = 3,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_csf_scale",
      .alias = "scf",
      .help = "Barten CSF scale of the h and v bands",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_csf_scale),
      .def.d = 1.0,
      .min = 0.0,
      .max = 50.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_csf_diag_scale",
      .alias = "scfd",
      .help = "Barten CSF scale of the d band",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_csf_diag_scale),
      .def.d = 1.0,
      .min = 0.0,
      .max = 50.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_noise_weight",
      .alias = "nw",
      .help = "noise floor weight",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_noise_weight),
      .def.d = 0.03125,
      .min = 0.0,
      .max = 1500.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_dlm_weight",
      .alias = "dlmw",
      .help = "weight of adm2 (DLM) in adm3",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_dlm_weight),
      .def.d = 0.5,
      .min = 0.0,
      .max = 1.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_min_val",
      .alias = "min",
      .help = "lower bound of adm3",
      .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsAdmOptions, adm_min_val),
      .def.d = 0.0,
      .min = 0.0,
      .max = 1.0,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_skip_scale0",
      .alias = "ssz",
      .help = "skip scale 0 (its score is 0)",
      .type = LS_OPT_BOOL,
      .offset = offsetof(LsAdmOptions, adm_skip_scale0),
      .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_skip_aim",
      .help = "skip the AIM computation (aim is 0)",
      .type = LS_OPT_BOOL,
      .offset = offsetof(LsAdmOptions, adm_skip_aim),
      .def.b = false },
    { 0 },
};

/* ---- CSF factors (adm.md §6.1) ---- */

/* Watson 1997 and Barten: the factors float ADM uses too, in one place (feature/adm_csf.h). */

/* Barten/Watson blends, [theta: 0 h/v, 1 d][scale]; mode 2 legacy, mode 3 MAE. */
typedef struct BlendRow {
    int rdh;
    double nvd;
    float legacy[2][4], mae[2][4];
} BlendRow;

static const BlendRow blend_rows[] = {
    { 1080,
      3.0,
      { { 0.01183f, 0.025026f, 0.04295f, 0.058621f },
        { 0.004302f, 0.011778f, 0.023918f, 0.035901f } },
      { { 0.011249f, 0.022606f, 0.03593f, 0.045673f },
        { 0.004097f, 0.010921f, 0.02143f, 0.031313f } } },
    { 1080,
      5.0,
      { { 0.004212f, 0.014809f, 0.029642f, 0.047464f },
        { 0.000984f, 0.005852f, 0.0146f, 0.027574f } },
      { { 0.004052f, 0.013939f, 0.026298f, 0.038833f },
        { 0.000927f, 0.005544f, 0.013415f, 0.024515f } } },
    { 2160,
      3.0,
      { { 0.00226f, 0.01183f, 0.025026f, 0.04295f },
        { 0.000479f, 0.004302f, 0.011778f, 0.023918f } },
      { { 0.002166f, 0.011249f, 0.022606f, 0.03593f },
        { 0.000447f, 0.004097f, 0.010921f, 0.02143f } } },
    { 2160,
      5.0,
      { { 9.2e-05f, 0.004212f, 0.014809f, 0.029642f }, { 5e-05f, 0.000984f, 0.005852f, 0.0146f } },
      { { 7.7e-05f, 0.004052f, 0.013939f, 0.026298f },
        { 4.5e-05f, 0.000927f, 0.005544f, 0.013415f } } },
    { 720,
      3.0,
      { { 0.018715f, 0.035637f, 0.052798f, 0.061509f },
        { 0.007999f, 0.018396f, 0.031851f, 0.037718f } },
      { { 0.017329f, 0.03087f, 0.042134f, 0.04741f },
        { 0.007509f, 0.016707f, 0.028072f, 0.032722f } } },
    { 720,
      5.0,
      { { 0.010144f, 0.022561f, 0.040309f, 0.05672f },
        { 0.003463f, 0.010282f, 0.021839f, 0.034641f } },
      { { 0.009689f, 0.020577f, 0.034162f, 0.044523f },
        { 0.003302f, 0.009579f, 0.019661f, 0.030318f } } },
    { 480,
      3.0,
      { { 0.027961f, 0.045875f, 0.060275f, 0.056234f },
        { 0.013572f, 0.026277f, 0.036959f, 0.034511f } },
      { { 0.024969f, 0.037825f, 0.046676f, 0.043974f },
        { 0.012511f, 0.023424f, 0.032139f, 0.030166f } } },
    { 480,
      5.0,
      { { 0.016781f, 0.032822f, 0.05032f, 0.061594f },
        { 0.00691f, 0.016545f, 0.029917f, 0.037777f } },
      { { 0.015665f, 0.028766f, 0.040612f, 0.047483f },
        { 0.006514f, 0.015107f, 0.026476f, 0.032776f } } },
};

static const BlendRow *blend_row(int rdh, double nvd)
{
    if (rdh == 2160 && nvd == 1.5) /* the 1080p/3H row, as the reference has it */
        return &blend_rows[0];
    for (unsigned i = 0; i < sizeof(blend_rows) / sizeof(blend_rows[0]); i++)
        if (blend_rows[i].rdh == rdh && blend_rows[i].nvd == nvd)
            return &blend_rows[i];
    return NULL;
}

/* F1 (h, v) and F2 (d) of a scale. The blend pair is validated in ls_adm_setup. */
static void csf_factors(const LsAdmOptions *o, int scale, float *f_hv, float *f_d)
{
    const double nvd = o->adm_norm_view_dist;
    const int rdh = o->adm_ref_display_height;
    switch (o->adm_csf_mode) {
    case 1:
        *f_hv = ls_adm_barten_factor(scale, o->adm_csf_scale, nvd, rdh);
        *f_d = ls_adm_barten_factor(scale, o->adm_csf_diag_scale, nvd, rdh);
        break;
    case 2:
    case 3: {
        const BlendRow *row = blend_row(rdh, nvd);
        const float(*t)[4] = o->adm_csf_mode == 2 ? row->legacy : row->mae;
        *f_hv = t[0][scale];
        *f_d = t[1][scale];
        break;
    }
    default:
        *f_hv = ls_adm_watson_factor(scale, LS_ADM_THETA_HV, nvd, rdh);
        *f_d = ls_adm_watson_factor(scale, LS_ADM_THETA_D, nvd, rdh);
        break;
    }
}

/* ---- per-scale constants ---- */

static uint32_t ceil_log2_u32(double x) { return (uint32_t)ceil(log2(x)); }
static uint32_t half_pow2(uint32_t shift) { return (uint32_t)pow(2, shift - 1); }

static int setup_error(char *err, size_t err_len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int setup_error(char *err, size_t err_len, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

int ls_adm_setup(LsAdmSetup *s, const LsAdmOptions *o, int w, int h, char *err, size_t err_len)
{
    memset(s, 0, sizeof(*s));
    if (w < LS_ADM_MIN_SIZE || h < LS_ADM_MIN_SIZE)
        return setup_error(err, err_len,
                           "adm: frame %dx%d is too small: the 4-scale wavelet pyramid needs at "
                           "least %dx%d",
                           w, h, LS_ADM_MIN_SIZE, LS_ADM_MIN_SIZE);
    const double nvd = o->adm_norm_view_dist;
    const int rdh = o->adm_ref_display_height;
    if (nvd * rdh < 3.0 * 1080)
        return setup_error(err, err_len,
                           "adm: adm_norm_view_dist * adm_ref_display_height = %g * %d is below "
                           "3 * 1080: the integer pipeline cannot represent lower angular "
                           "frequencies",
                           nvd, rdh);
    if ((o->adm_csf_mode == 2 || o->adm_csf_mode == 3) && !blend_row(rdh, nvd))
        return setup_error(
            err, err_len,
            "adm: adm_csf_mode=%d has no CSF table for adm_ref_display_height=%d, "
            "adm_norm_view_dist=%g (tables usable here: 1080 at 3 and 5, 2160 at 1.5, 3 "
            "and 5, 720 at 5)",
            o->adm_csf_mode, rdh, nvd);
    s->w = w;
    s->h = h;
    s->numden_limit = (1e-10 * (double)(w * h)) / (1920.0 * 1080.0);
    const bool hardcoded = fabs(nvd * rdh - 3.0 * 1080) < 1e-8 && o->adm_csf_mode == 0;
    int wi = w, hi = h;
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        LsAdmScale *sc = &s->scale[k];
        sc->wi = wi;
        sc->hi = hi;
        sc->w = (wi + 1) / 2;
        sc->h = (hi + 1) / 2;
        sc->L = (int)(sc->w * 0.1 - 0.5);
        sc->T = (int)(sc->h * 0.1 - 0.5);
        sc->R = sc->w - sc->L;
        sc->B = sc->h - sc->T;
        sc->c0 = sc->L > 0 ? sc->L - 1 : 0;
        sc->c1 = sc->R < sc->w ? sc->R + 1 : sc->w;
        sc->r0 = sc->T > 0 ? sc->T - 1 : 0;
        sc->r1 = sc->B < sc->h ? sc->B + 1 : sc->h;
        sc->area = (sc->B - sc->T) * (sc->R - sc->L);
        csf_factors(o, k, &sc->f_hv, &sc->f_d);
        if (o->adm_csf_mode == 1) {
            /* the reference's fixed-point conversions are undefined beyond these (adm.md §11) */
            const double lim_hv = k == 0 ? 65536.0 / 2097152.0 : 1.0;
            const double lim_d = k == 0 ? 65536.0 / 8388608.0 : 1.0;
            if (!(sc->f_hv < lim_hv) || !(sc->f_d < lim_d)) {
                const bool hv = !(sc->f_hv < lim_hv);
                return setup_error(err, err_len,
                                   "adm: adm_csf_mode=1 (Barten) with %s=%g gives the CSF factor "
                                   "%g at scale %d, beyond the fixed-point range (below %g): "
                                   "lower adm_csf_scale and adm_csf_diag_scale (e.g. 0.001)",
                                   hv ? "adm_csf_scale" : "adm_csf_diag_scale",
                                   hv ? o->adm_csf_scale : o->adm_csf_diag_scale,
                                   hv ? sc->f_hv : sc->f_d, k, hv ? lim_hv : lim_d);
            }
        }
        if (k == 0) {
            if (hardcoded) {
                sc->i16[0] = sc->i16[1] = 36453;
                sc->i16[2] = 49417;
            } else {
                sc->i16[0] = sc->i16[1] = (uint16_t)(int32_t)(sc->f_hv * pow(2, 21));
                sc->i16[2] = (uint16_t)(int32_t)(sc->f_d * pow(2, 23));
            }
            const double lw = log2((double)sc->w);
            sc->cm_cs[0] = sc->cm_cs[1] = (uint32_t)ceil(lw - 4);
            sc->cm_cs[2] = (uint32_t)ceil(lw - 3);
            sc->cm_rs = ceil_log2_u32((double)sc->h);
            for (int b = 0; b < 3; b++) {
                sc->cm_cr[b] = half_pow2(sc->cm_cs[b]);
                sc->cm_div[b] =
                    pow(2, (double)(uint32_t)((b == 2 ? 57 : 52) - sc->cm_cs[b] - sc->cm_rs));
            }
            int sa = (int)ceil(log2((double)sc->area) - 20);
            sa = sa > 0 ? sa : 0;
            sc->den_rs = (uint32_t)sa;
            sc->den_rr = sa > 0 ? 1u << (sa - 1) : 0;
            sc->den_div = pow(2, 18 - sa);
        } else {
            static const int cm_exp[3] = { 45, 39, 36 }, den_exp[3] = { 32, 27, 23 };
            const int t = k - 1;
            for (int b = 0; b < 3; b++)
                sc->i32[b] = (uint32_t)(int64_t)((b == 2 ? sc->f_d : sc->f_hv) * pow(2, 32));
            const uint32_t cs = ceil_log2_u32((double)sc->w);
            sc->cm_cs[0] = sc->cm_cs[1] = sc->cm_cs[2] = cs;
            sc->cm_cr[0] = sc->cm_cr[1] = sc->cm_cr[2] = half_pow2(cs);
            sc->cm_rs = ceil_log2_u32((double)sc->h);
            sc->cm_fs = (float)pow(2, (double)(uint32_t)(cm_exp[t] - cs - sc->cm_rs));
            sc->den_sq = ls_adm_den123_sq_shift[t];
            sc->den_cs = ceil_log2_u32((double)(sc->R - sc->L));
            sc->den_cr = half_pow2(sc->den_cs);
            sc->den_rs = ceil_log2_u32((double)(sc->B - sc->T));
            sc->den_rr = half_pow2(sc->den_rs);
            sc->den_div = pow(2, (double)(uint32_t)(den_exp[t] - sc->den_rs - sc->den_cs));
        }
        sc->cm_rr = half_pow2(sc->cm_rs);
        wi = sc->w;
        hi = sc->h;
    }
    return 0;
}

/* ---- the float steps (adm.md §7, §8) ---- */

static float noise_floor(const LsAdmScale *sc, double noise_weight)
{
    return powf((float)((double)sc->area * noise_weight), 1.0f / 3.0f);
}

float ls_adm_scale_num(const LsAdmScale *sc, int scale, const int64_t acc[3], double noise_weight)
{
    const float nf = noise_floor(sc, noise_weight);
    float n[3];
    for (int b = 0; b < 3; b++) {
        const float fa =
            scale == 0 ? (float)((double)acc[b] / sc->cm_div[b]) : (float)acc[b] / sc->cm_fs;
        n[b] = powf(fa, 1.0f / 3.0f) + nf;
    }
    return (n[0] + n[1]) + n[2];
}

float ls_adm_scale_den(const LsAdmScale *sc, const uint64_t acc[3], double noise_weight)
{
    const float nf = noise_floor(sc, noise_weight);
    float d[3];
    for (int b = 0; b < 3; b++) {
        const float f = b == 2 ? sc->f_d : sc->f_hv;
        const double csf = ((double)acc[b] / sc->den_div) * pow((double)f, 3.0);
        d[b] = powf((float)csf, 1.0f / 3.0f) + nf;
    }
    return (d[0] + d[1]) + d[2];
}

void ls_adm_scores(const LsAdmSetup *s, const LsAdmOptions *o, const LsAdmScaleSums sums[4],
                   LsAdmScores *out)
{
    double num = 0.0, den = 0.0, aim_num = 0.0;
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        const LsAdmScale *sc = &s->scale[k];
        float num_s, den_s, aim_s = 0.0f;
        if (k == 0 && o->adm_skip_scale0) {
            num_s = 0.0f;
            den_s = 1e-10f;
        } else {
            num_s = ls_adm_scale_num(sc, k, sums[k].num, o->adm_noise_weight);
            den_s = ls_adm_scale_den(sc, sums[k].den, o->adm_noise_weight);
            if (!o->adm_skip_aim)
                aim_s = ls_adm_scale_num(sc, k, sums[k].aim, 0.0);
        }
        num += num_s;
        den += den_s;
        aim_num += aim_s;
        out->num_s[k] = num_s;
        out->den_s[k] = den_s;
        out->scale[k] = (double)num_s / (double)den_s;
    }
    num = num < s->numden_limit ? 0.0 : num;
    den = den < s->numden_limit ? 0.0 : den;
    out->num = num;
    out->den = den;
    /* den == 0: the reference leaves aim uninitialised; 0 makes adm3 = max(1, adm_min_val) */
    out->adm2 = den == 0.0 ? 1.0 : num / den;
    out->aim = den == 0.0 ? 0.0 : aim_num / den;
    const double wgt = o->adm_dlm_weight;
    const double v = out->adm2 * wgt + (1.0 - out->aim) * (1.0 - wgt);
    out->adm3 = v > o->adm_min_val ? v : o->adm_min_val;
}

/* ---- the extractor ---- */

/* Rows kept per stage: the previous scale's approximation (a DWT output row needs four of the
 * last few input rows) and the analysed rows (a numerator row needs its neighbours above and
 * below). */
enum { IN_RING = 8, ROW_RING = 4, PAD = LS_ADM_ROW_PAD };

typedef struct AdmPriv {
    LsAdmOptions opt; /* first: the option table's offsets point here */
    LsAdmState st;
    LsAdmDsp dsp;
    LsScratchPool *pool; /* blocks of carve()'s size */
} AdmPriv;

/* Per-call state of one scale. Band rows are int16 (scale 0) or int32, as void pointers. */
typedef struct Stage {
    const LsAdmScale *sc;
    int scale;
    size_t elem;             /* bytes per band sample */
    int next_out;            /* next DWT output row */
    int next_cm;             /* next numerator row */
    int32_t *in[2][IN_RING]; /* scales 1..3: input rows (previous A), ref and dist */
    void *band[2][3];        /* this row's details, ref and dist */
    void *r[ROW_RING][3], *a[ROW_RING][3];
    int32_t *f_dlm[ROW_RING], *m_dlm[ROW_RING], *f_aim[ROW_RING], *m_aim[ROW_RING];
    void *tmp;
    LsAdmScaleSums sums;
} Stage;

typedef struct Frame {
    const AdmPriv *p;
    const VmafPicture *pic[2];
    bool do_aim;
    Stage st[LS_ADM_SCALES];
} Frame;

static int map_row(int i, int h) { return i < 0 ? -i : (i >= h ? 2 * h - 1 - i : i); }

/* F of a CSF row needs its mapped neighbour columns: -1 is column 1, w is column w - 1. */
static void pad_columns(int32_t *f, const LsAdmScale *sc)
{
    if (sc->c0 == 0)
        f[-1] = f[1];
    if (sc->c1 == sc->w)
        f[sc->w] = f[sc->w - 1];
}

static void score_row(Frame *fr, Stage *st, int i)
{
    const AdmPriv *p = fr->p;
    const LsAdmScale *sc = st->sc;
    const int slot = i % ROW_RING, up = map_row(i - 1, sc->h) % ROW_RING,
              down = map_row(i + 1, sc->h) % ROW_RING;
    int64_t inner[3];
    if (st->scale == 0) {
        p->dsp.cm0((const int16_t *const *)st->r[slot], st->f_dlm[up], st->f_dlm[slot],
                   st->f_dlm[down], st->m_dlm[slot], sc->L, sc->R, sc->i16, sc->cm_cs, sc->cm_cr,
                   inner);
    } else {
        p->dsp.cm123((const int32_t *const *)st->r[slot], st->f_dlm[up], st->f_dlm[slot],
                     st->f_dlm[down], st->m_dlm[slot], sc->L, sc->R, sc->i32, sc->cm_cs[0],
                     sc->cm_cr[0], inner);
    }
    for (int b = 0; b < 3; b++)
        st->sums.num[b] = ls_adm_add_row(st->sums.num[b], inner[b], sc->cm_rr, sc->cm_rs);
    if (!fr->do_aim)
        return;
    if (st->scale == 0) {
        p->dsp.cm0((const int16_t *const *)st->a[slot], st->f_aim[up], st->f_aim[slot],
                   st->f_aim[down], st->m_aim[slot], sc->L, sc->R, sc->i16, sc->cm_cs, sc->cm_cr,
                   inner);
    } else {
        p->dsp.cm123((const int32_t *const *)st->a[slot], st->f_aim[up], st->f_aim[slot],
                     st->f_aim[down], st->m_aim[slot], sc->L, sc->R, sc->i32, sc->cm_cs[0],
                     sc->cm_cr[0], inner);
    }
    for (int b = 0; b < 3; b++)
        st->sums.aim[b] = ls_adm_add_row(st->sums.aim[b], inner[b], sc->cm_rr, sc->cm_rs);
}

/* Decouples row i of the details, adds its denominator, filters both CSF bands. */
static void analyse_row(Frame *fr, Stage *st, int i)
{
    const AdmPriv *p = fr->p;
    const LsAdmScale *sc = st->sc;
    const int slot = i % ROW_RING;
    if (st->scale == 0) {
        const int16_t *const *o = (const int16_t *const *)st->band[0];
        const int16_t *const *t = (const int16_t *const *)st->band[1];
        p->dsp.decouple0(o, t, sc->c0, sc->c1, p->opt.adm_enhn_gain_limit,
                         (int16_t *const *)st->r[slot], (int16_t *const *)st->a[slot]);
        if (i >= sc->T && i < sc->B) {
            uint64_t inner[3];
            p->dsp.den0(o, sc->L, sc->R, inner);
            for (int b = 0; b < 3; b++)
                st->sums.den[b] =
                    ls_adm_add_row_u(st->sums.den[b], inner[b], sc->den_rr, sc->den_rs);
        }
        p->dsp.csf0((const int16_t *const *)st->a[slot], sc->c0, sc->c1, sc->i16, st->f_dlm[slot],
                    st->m_dlm[slot]);
        if (fr->do_aim)
            p->dsp.csf0((const int16_t *const *)st->r[slot], sc->c0, sc->c1, sc->i16,
                        st->f_aim[slot], st->m_aim[slot]);
    } else {
        const int32_t *const *o = (const int32_t *const *)st->band[0];
        const int32_t *const *t = (const int32_t *const *)st->band[1];
        p->dsp.decouple123(o, t, sc->c0, sc->c1, p->opt.adm_enhn_gain_limit,
                           (int32_t *const *)st->r[slot], (int32_t *const *)st->a[slot]);
        if (i >= sc->T && i < sc->B) {
            uint64_t inner[3];
            p->dsp.den123(o, sc->L, sc->R, sc->den_sq, sc->den_cs, sc->den_cr, inner);
            for (int b = 0; b < 3; b++)
                st->sums.den[b] =
                    ls_adm_add_row_u(st->sums.den[b], inner[b], sc->den_rr, sc->den_rs);
        }
        p->dsp.csf123((const int32_t *const *)st->a[slot], sc->c0, sc->c1, sc->i32, st->f_dlm[slot],
                      st->m_dlm[slot]);
        if (fr->do_aim)
            p->dsp.csf123((const int32_t *const *)st->r[slot], sc->c0, sc->c1, sc->i32,
                          st->f_aim[slot], st->m_aim[slot]);
    }
    pad_columns(st->f_dlm[slot], sc);
    if (fr->do_aim)
        pad_columns(st->f_aim[slot], sc);
}

static void push_row(Frame *fr, int scale, int row);

/* DWT output row i of a stage, then its analysis and the numerator rows that became ready. */
static void produce_row(Frame *fr, Stage *st, int i)
{
    const AdmPriv *p = fr->p;
    const LsAdmScale *sc = st->sc;
    const bool details = i >= sc->r0 && i < sc->r1 && !(st->scale == 0 && p->opt.adm_skip_scale0);
    const bool last = st->scale == LS_ADM_SCALES - 1;
    for (int img = 0; img < 2; img++) {
        int32_t *a = last ? NULL : fr->st[st->scale + 1].in[img][i % IN_RING];
        if (st->scale == 0) {
            const VmafPicture *pic = fr->pic[img];
            const void *rows[4];
            for (int k = 0; k < 4; k++)
                rows[k] = (const uint8_t *)pic->data[0] +
                          (ptrdiff_t)ls_adm_dwt_index(i, k, sc->hi) * pic->stride[0];
            int16_t *const *b = (int16_t *const *)st->band[img];
            p->dsp.dwt0(rows, p->st.bpc, sc->wi, sc->c0, sc->c1, st->tmp, a, details ? b[0] : NULL,
                        b[1], b[2]);
        } else {
            const int32_t *rows[4];
            for (int k = 0; k < 4; k++)
                rows[k] = st->in[img][ls_adm_dwt_index(i, k, sc->hi) % IN_RING];
            int32_t *const *b = (int32_t *const *)st->band[img];
            p->dsp.dwt123(rows, st->scale, sc->wi, sc->c0, sc->c1, st->tmp, a,
                          details ? b[0] : NULL, b[1], b[2]);
        }
    }
    if (details) {
        analyse_row(fr, st, i);
        while (st->next_cm < sc->B && map_row(st->next_cm + 1, sc->h) <= i)
            score_row(fr, st, st->next_cm++);
    }
    if (!last)
        push_row(fr, st->scale + 1, i);
}

/* Input row `row` of a stage (1..3) has arrived: produce every output row it completes. */
static void push_row(Frame *fr, int scale, int row)
{
    Stage *st = &fr->st[scale];
    const LsAdmScale *sc = st->sc;
    while (st->next_out < sc->h) {
        const int need = 2 * st->next_out + 2 < sc->hi - 1 ? 2 * st->next_out + 2 : sc->hi - 1;
        if (need > row)
            break;
        produce_row(fr, st, st->next_out++);
    }
}

/* Carves the per-call rows of every stage from one block. Returns bytes, or allocates when
 * base is not NULL. */
static size_t carve(Frame *fr, uint8_t *base)
{
    size_t off = 0;
#define TAKE(ptr, bytes)                                                                           \
    do {                                                                                           \
        const size_t n_ = ((size_t)(bytes) + 63) & ~(size_t)63;                                    \
        if (base)                                                                                  \
            (ptr) = (void *)(base + off);                                                          \
        off += n_;                                                                                 \
    } while (0)
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        Stage *st = &fr->st[k];
        const LsAdmScale *sc = st->sc;
        const size_t row = ((size_t)sc->w + 2 * PAD) * st->elem;
        const size_t row32 = ((size_t)sc->w + 2 * PAD) * sizeof(int32_t);
        if (k > 0)
            for (int img = 0; img < 2; img++)
                for (int s = 0; s < IN_RING; s++)
                    TAKE(st->in[img][s], ((size_t)sc->wi + 2 * PAD) * sizeof(int32_t));
        for (int img = 0; img < 2; img++)
            for (int b = 0; b < 3; b++)
                TAKE(st->band[img][b], row);
        for (int s = 0; s < ROW_RING; s++) {
            for (int b = 0; b < 3; b++) {
                TAKE(st->r[s][b], row);
                TAKE(st->a[s][b], row);
            }
            TAKE(st->f_dlm[s], row32);
            TAKE(st->m_dlm[s], row32);
            TAKE(st->f_aim[s], row32);
            TAKE(st->m_aim[s], row32);
        }
        TAKE(st->tmp, ls_adm_dwt_tmp_size(sc->wi));
    }
#undef TAKE
    return off;
}

static void offset_rows(Frame *fr)
{
    /* keep PAD samples before each row for the mapped column -1 and vector overreads */
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        Stage *st = &fr->st[k];
        for (int img = 0; img < 2; img++) {
            for (int s = 0; s < IN_RING && k > 0; s++)
                st->in[img][s] += PAD;
            for (int b = 0; b < 3; b++)
                st->band[img][b] = (uint8_t *)st->band[img][b] + PAD * st->elem;
        }
        for (int s = 0; s < ROW_RING; s++) {
            for (int b = 0; b < 3; b++) {
                st->r[s][b] = (uint8_t *)st->r[s][b] + PAD * st->elem;
                st->a[s][b] = (uint8_t *)st->a[s][b] + PAD * st->elem;
            }
            st->f_dlm[s] += PAD;
            st->m_dlm[s] += PAD;
            st->f_aim[s] += PAD;
            st->m_aim[s] += PAD;
        }
    }
}

static void frame_init(Frame *fr, const AdmPriv *p)
{
    memset(fr, 0, sizeof(*fr));
    fr->p = p;
    fr->do_aim = !p->opt.adm_skip_aim;
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        fr->st[k].sc = &p->st.setup.scale[k];
        fr->st[k].scale = k;
        fr->st[k].elem = k == 0 ? sizeof(int16_t) : sizeof(int32_t);
        fr->st[k].next_cm = p->st.setup.scale[k].T;
    }
}

static int adm_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist, unsigned index,
                       LsCollector *fc)
{
    const AdmPriv *p = fex->priv;
    Frame fr;
    frame_init(&fr, p);
    fr.pic[0] = ref;
    fr.pic[1] = dist;
    uint8_t *mem = ls_scratch_take(p->pool);
    if (!mem)
        return -ENOMEM;
    carve(&fr, mem);
    offset_rows(&fr);

    const LsAdmScale *s0 = &p->st.setup.scale[0];
    for (int i = 0; i < s0->h; i++)
        produce_row(&fr, &fr.st[0], i);
    ls_scratch_give(p->pool, mem);

    LsAdmScaleSums sums[LS_ADM_SCALES];
    for (int k = 0; k < LS_ADM_SCALES; k++)
        sums[k] = fr.st[k].sums;
    return ls_adm_write_scores(&p->st, sums, index, fc);
}

int ls_adm_write_scores(const LsAdmState *st, const LsAdmScaleSums sums[LS_ADM_SCALES],
                        unsigned index, LsCollector *fc)
{
    LsAdmScores sc;
    ls_adm_scores(&st->setup, &st->opt, sums, &sc);
    int err = ls_collector_append(fc, st->name_adm2, sc.adm2, index);
    err = err ? err : ls_collector_append(fc, st->name_aim, sc.aim, index);
    err = err ? err : ls_collector_append(fc, st->name_adm3, sc.adm3, index);
    for (int k = 0; k < LS_ADM_SCALES && !err; k++)
        err = ls_collector_append(fc, st->name_scale[k], sc.scale[k], index);
    if (!st->opt.debug || err)
        return err;
    err = ls_collector_append(fc, st->name_adm, sc.adm2, index);
    err = err ? err : ls_collector_append(fc, st->name_num, sc.num, index);
    err = err ? err : ls_collector_append(fc, st->name_den, sc.den, index);
    for (int k = 0; k < LS_ADM_SCALES && !err; k++) {
        err = ls_collector_append(fc, st->name_num_s[k], sc.num_s[k], index);
        err = err ? err : ls_collector_append(fc, st->name_den_s[k], sc.den_s[k], index);
    }
    return err;
}

int ls_adm_state_init(LsFex *fex, LsAdmState *st, const LsAdmOptions *opt, unsigned bpc,
                      unsigned w, unsigned h)
{
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "adm: bit depth %u is not supported (8 to 16)", bpc);
    char err[512];
    st->opt = *opt;
    if (ls_adm_setup(&st->setup, opt, (int)w, (int)h, err, sizeof(err)))
        return ls_fex_error(fex, "%s", err);
    st->bpc = (int)bpc;
    fex->n_planes_read = 1;
    ls_fex_feature_name(fex, st->name_adm2, sizeof(st->name_adm2),
                        "VMAF_integer_feature_adm2_score", "integer_adm2");
    ls_fex_feature_name(fex, st->name_aim, sizeof(st->name_aim), "VMAF_integer_feature_aim_score",
                        "integer_aim");
    ls_fex_feature_name(fex, st->name_adm3, sizeof(st->name_adm3),
                        "VMAF_integer_feature_adm3_score", "integer_adm3");
    ls_fex_feature_name(fex, st->name_adm, sizeof(st->name_adm), "integer_adm", NULL);
    ls_fex_feature_name(fex, st->name_num, sizeof(st->name_num), "integer_adm_num", NULL);
    ls_fex_feature_name(fex, st->name_den, sizeof(st->name_den), "integer_adm_den", NULL);
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        char base[64];
        snprintf(base, sizeof(base), "integer_adm_scale%d", k);
        ls_fex_feature_name(fex, st->name_scale[k], sizeof(st->name_scale[k]), base, NULL);
        snprintf(base, sizeof(base), "integer_adm_num_scale%d", k);
        ls_fex_feature_name(fex, st->name_num_s[k], sizeof(st->name_num_s[k]), base, NULL);
        snprintf(base, sizeof(base), "integer_adm_den_scale%d", k);
        ls_fex_feature_name(fex, st->name_den_s[k], sizeof(st->name_den_s[k]), base, NULL);
    }
    return 0;
}

static int adm_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    AdmPriv *p = fex->priv;
    (void)fmt; /* luma only: every layout, 4:0:0 included */
    int err = ls_adm_state_init(fex, &p->st, &p->opt, bpc, w, h);
    if (err)
        return err;
    ls_adm_dsp_init(&p->dsp, fex->cpu_flags);
    Frame fr;
    frame_init(&fr, p);
    p->pool = ls_scratch_pool_create(carve(&fr, NULL));
    if (!p->pool)
        return -ENOMEM;
    return 0;
}

static void adm_close(LsFex *fex)
{
    AdmPriv *p = fex->priv;
    ls_scratch_pool_destroy(p->pool);
    p->pool = NULL;
}

static const char *const adm_provided[] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    NULL,
};

const LsExtractor ls_fex_adm = {
    .name = "adm",
    .options = ls_adm_options,
    .priv_size = sizeof(AdmPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = adm_provided,
    .init = adm_init,
    .extract = adm_extract,
    .close = adm_close,
};
