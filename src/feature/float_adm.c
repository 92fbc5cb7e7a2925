/* Extractor `float_adm`: libvmaf's floating-point ADM (DLM, AIM and their combination) on luma.
 * Spec: features/float_adm.md. Not temporal: frames are scored concurrently; the state is
 * read-only in extract and the scratch memory is per call.
 *
 * Each scale is streamed row by row: the DWT row of both pictures (its approximation kept for the
 * next scale), decoupling, the denominator row, the CSF rows in a ring of three, and the masking
 * of the row above once its lower neighbour exists. Rows are visited in increasing order, so the
 * nine float chains of a scale grow in the reference's order. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "feature/adm_csf.h"
#include "feature/float_adm.h"

#define FEATURE_PARAM(field, nm, al, hlp, def_value, lo, hi)                                      \
    { .name = nm, .alias = al, .help = hlp, .type = LS_OPT_DOUBLE,                                \
      .offset = offsetof(LsFloatAdmOptions, field), .def.d = def_value, .min = lo, .max = hi,     \
      .flags = LS_OPT_FEATURE_PARAM }

const LsOption ls_float_adm_options[] = {
    { .name = "debug", .help = "debug mode: enable additional output", .type = LS_OPT_BOOL,
      .offset = offsetof(LsFloatAdmOptions, debug), .def.b = false },
    FEATURE_PARAM(adm_enhn_gain_limit, "adm_enhn_gain_limit", "egl",
                  "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is "
                  "completely disabled",
                  100.0, 1.0, 100.0),
    FEATURE_PARAM(adm_norm_view_dist, "adm_norm_view_dist", "nvd",
                  "normalized viewing distance = viewing distance / ref display's physical height",
                  3.0, 0.75, 24.0),
    FEATURE_PARAM(adm_noise_weight, "adm_noise_weight", "nw", "noise weight", 0.03125, 0.0,
                  1500.0),
    FEATURE_PARAM(adm_csf_scale, "adm_csf_scale", "scf", "scale factor for the CSF", 1.0, 0.0,
                  50.0),
    FEATURE_PARAM(adm_csf_diag_scale, "adm_csf_diag_scale", "scfd", "scale factor for the CSF diag",
                  1.0, 0.0, 50.0),
    { .name = "adm_ref_display_height", .alias = "rdf",
      .help = "reference display height in pixels", .type = LS_OPT_INT,
      .offset = offsetof(LsFloatAdmOptions, adm_ref_display_height), .def.i = 1080, .min = 1, .max = 4320, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_csf_mode", .alias = "csf", .help = "contrast sensitivity function",
      .type = LS_OPT_INT, .offset = offsetof(LsFloatAdmOptions, adm_csf_mode), .def.i = 0,
      .min = 0, .max = 9, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_bypass_cm", .alias = "bcm", .help = "bypass contrast masking (CM)",
      .type = LS_OPT_INT, .offset = offsetof(LsFloatAdmOptions, adm_bypass_cm), .def.i = 0,
      .min = 0, .max = 1, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_adm3_apply_hm", .alias = "aah",
      .help = "apply harmonic mean to combine DLM and AIM", .type = LS_OPT_BOOL,
      .offset = offsetof(LsFloatAdmOptions, adm_adm3_apply_hm), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    FEATURE_PARAM(adm_p_norm, "adm_p_norm", "apn", "p-norm for energy vector", 3.0, 1.0, 20.0),
    FEATURE_PARAM(adm_dlm_weight, "adm_dlm_weight", "dlmw",
                  "linear weighting between DLM and AIM; 1 corresponds to DLM-only", 0.5, 0.0, 1.0),
    FEATURE_PARAM(adm_min_val, "adm_min_val", "min",
                  "minimum value allowed; lower values will be clipped to this value", 0.0, 0.0,
                  1.0),
    FEATURE_PARAM(adm_f1s[0], "adm_f1s0", "f1s0", "factor1 scale0", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f1s[1], "adm_f1s1", "f1s1", "factor1 scale1", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f1s[2], "adm_f1s2", "f1s2", "factor1 scale2", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f1s[3], "adm_f1s3", "f1s3", "factor1 scale3", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f2s[0], "adm_f2s0", "f2s0", "factor2 scale0", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f2s[1], "adm_f2s1", "f2s1", "factor2 scale1", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f2s[2], "adm_f2s2", "f2s2", "factor2 scale2", -1.0, -1.0, 10.0),
    FEATURE_PARAM(adm_f2s[3], "adm_f2s3", "f2s3", "factor2 scale3", -1.0, -1.0, 10.0),
    /* the default -1 lies outside the range: only omitting the option gives it */
    { .name = "adm_skip_aim_scale", .alias = "sasc",
      .help = "when set, skip AIM calculations for that scale", .type = LS_OPT_INT,
      .offset = offsetof(LsFloatAdmOptions, adm_skip_aim_scale), .def.i = -1, .min = 0, .max = 3,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "adm_skip_scale0", .alias = "ssz", .help = "skip the calculation of scale 0",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatAdmOptions, adm_skip_scale0), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

int ls_float_adm_state_init(LsFloatAdmState *s, const LsFloatAdmOptions *opt, const LsFex *fex,
                            unsigned bpc, unsigned w, unsigned h)
{
    memset(s, 0, sizeof(*s));
    s->opt = *opt;
    s->w = w;
    s->h = h;
    s->bpc = bpc;
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return ls_fex_error(fex, "float_adm: bit depth %u is not supported (8, 10, 12 or 16)", bpc);
    /* Below this a scale-3 band has one row or column: the masking's neighbours (and, under 9,
     * the DWT's reflections) fall outside it, where the reference reads outside its buffers. */
    if (w < LS_FLOAT_ADM_MIN_SIZE || h < LS_FLOAT_ADM_MIN_SIZE)
        return ls_fex_error(fex,
                            "float_adm: frame %ux%u is too small for the 4-scale wavelet "
                            "pyramid; the smallest size that works is %ux%u",
                            w, h, LS_FLOAT_ADM_MIN_SIZE, LS_FLOAT_ADM_MIN_SIZE);

    for (int lambda = 0; lambda < LS_FLOAT_ADM_SCALES; lambda++) {
        const double nvd = opt->adm_norm_view_dist;
        const int rdh = opt->adm_ref_display_height;
        switch (opt->adm_csf_mode) {
        case 1:
            s->f1[lambda] = ls_adm_barten_factor(lambda, opt->adm_csf_scale, nvd, rdh);
            s->f2[lambda] = ls_adm_barten_factor(lambda, opt->adm_csf_diag_scale, nvd, rdh);
            break;
        case 2:
            s->f1[lambda] = ls_adm_native_factor(lambda, 0, nvd, rdh);
            s->f2[lambda] = ls_adm_native_factor(lambda, 1, nvd, rdh);
            break;
        default: /* 0 and 3..9: Watson 1997 */
            s->f1[lambda] = ls_adm_watson_factor(lambda, LS_ADM_THETA_HV, nvd, rdh);
            s->f2[lambda] = ls_adm_watson_factor(lambda, LS_ADM_THETA_D, nvd, rdh);
            break;
        }
        if (opt->adm_f1s[lambda] >= 0.0)
            s->f1[lambda] = (float)opt->adm_f1s[lambda];
        if (opt->adm_f2s[lambda] >= 0.0)
            s->f2[lambda] = (float)opt->adm_f2s[lambda];
    }
    s->cube = opt->adm_p_norm == 3.0;
    s->p = (float)opt->adm_p_norm;

    ls_fex_feature_name(fex, s->name_adm2, sizeof(s->name_adm2), "VMAF_feature_adm2_score", "adm2");
    ls_fex_feature_name(fex, s->name_aim, sizeof(s->name_aim), "VMAF_feature_aim_score", "aim");
    ls_fex_feature_name(fex, s->name_adm3, sizeof(s->name_adm3), "VMAF_feature_adm3_score", "adm3");
    ls_fex_feature_name(fex, s->name_num, sizeof(s->name_num), "adm_num", NULL);
    ls_fex_feature_name(fex, s->name_den, sizeof(s->name_den), "adm_den", NULL);
    for (int i = 0; i < LS_FLOAT_ADM_SCALES; i++) {
        char base[64], alias[64];
        snprintf(base, sizeof(base), "VMAF_feature_adm_scale%d_score", i);
        snprintf(alias, sizeof(alias), "adm_scale%d", i);
        ls_fex_feature_name(fex, s->name_scale[i], sizeof(s->name_scale[i]), base, alias);
        snprintf(base, sizeof(base), "adm_num_scale%d", i);
        ls_fex_feature_name(fex, s->name_num_scale[i], sizeof(s->name_num_scale[i]), base, NULL);
        snprintf(base, sizeof(base), "adm_den_scale%d", i);
        ls_fex_feature_name(fex, s->name_den_scale[i], sizeof(s->name_den_scale[i]), base, NULL);
    }
    return 0;
}

/* One scale's value from its three accumulators (§6, §7.4): the p-th root plus the noise floor
 * of the region, summed h + v, then d. */
static float scale_value(const LsFloatAdmState *s, const float acc[3], int area, double weight)
{
    const float q = (float)(1.0 / s->opt.adm_p_norm);
    const float noise = powf((float)((double)area * weight), q);
    float v[3];
    for (int b = 0; b < 3; b++)
        v[b] = powf(acc[b], q) + noise;
    return (v[0] + v[1]) + v[2];
}

void ls_float_adm_finish(const LsFloatAdmState *s,
                         const float acc[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC],
                         LsFloatAdmScores *out)
{
    const LsFloatAdmOptions *o = &s->opt;
    const double limit = (1e-10 * (double)(int)(s->w * s->h)) / 2073600.0;
    double num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
    int w = (int)s->w, h = (int)s->h;
    for (int i = 0; i < LS_FLOAT_ADM_SCALES; i++) {
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        float num_s = 0.0f, den_s = 1e-10f, aim_s = 0.0f;
        if (!(i == 0 && o->adm_skip_scale0)) {
            const LsFloatAdmRegion r = ls_float_adm_region(w, h);
            const int area = (r.Rt - r.L) * (r.B - r.T);
            den_s = scale_value(s, acc[i], area, o->adm_noise_weight);
            num_s = scale_value(s, acc[i] + 3, area, o->adm_noise_weight);
            aim_s = scale_value(s, acc[i] + 6, area, 0.0);
        }
        num += num_s;
        den += den_s;
        if (o->adm_skip_aim_scale != i) {
            aim_den += den_s;
            aim_num += aim_s;
        }
        out->num_scale[i] = num_s;
        out->den_scale[i] = den_s;
        out->scale[i] = (double)num_s / (double)den_s;
    }
    num = num < limit ? 0.0 : num;
    den = den < limit ? 0.0 : den;
    double aim = 0.0; /* the reference leaves it unset when den is 0 (float_adm.md §9) */
    if (den == 0.0) {
        out->adm2 = 1.0;
    } else {
        const double ratio = aim_num / aim_den;
        aim = ratio < 1.0 ? ratio : 1.0;
        out->adm2 = num / den;
    }
    const double adm2 = out->adm2, W = o->adm_dlm_weight;
    const double v = o->adm_adm3_apply_hm ? ((2 * adm2) * aim) / (adm2 + aim)
                                          : adm2 * W + (1 - aim) * (1 - W);
    out->aim = aim;
    out->adm3 = v > o->adm_min_val ? v : o->adm_min_val;
    out->num = num;
    out->den = den;
}

int ls_float_adm_write(const LsFloatAdmState *s, const LsFloatAdmScores *sc, unsigned index,
                       LsCollector *fc)
{
    int err = ls_collector_append(fc, s->name_adm2, sc->adm2, index);
    if (!err)
        err = ls_collector_append(fc, s->name_aim, sc->aim, index);
    if (!err)
        err = ls_collector_append(fc, s->name_adm3, sc->adm3, index);
    for (int i = 0; !err && i < LS_FLOAT_ADM_SCALES; i++)
        err = ls_collector_append(fc, s->name_scale[i], sc->scale[i], index);
    if (err || !s->opt.debug)
        return err;
    /* the reference never suffixes "adm" (it is not among its provided names) */
    err = ls_collector_append(fc, "adm", sc->adm2, index);
    if (!err)
        err = ls_collector_append(fc, s->name_num, sc->num, index);
    if (!err)
        err = ls_collector_append(fc, s->name_den, sc->den, index);
    for (int i = 0; !err && i < LS_FLOAT_ADM_SCALES; i++) {
        err = ls_collector_append(fc, s->name_num_scale[i], sc->num_scale[i], index);
        if (!err)
            err = ls_collector_append(fc, s->name_den_scale[i], sc->den_scale[i], index);
    }
    return err;
}

/* ---- the frame pipeline ---- */

/* Picture rows converted to float (§3), each once: the rows of output row i are 2i-1 .. 2i+2
 * (reflected), so eight slots keyed by row index never evict a row still in use. */
enum { ROW_SLOTS = 8 };

typedef struct RowCache {
    float *slot[ROW_SLOTS];
    int row[ROW_SLOTS];
} RowCache;

static const float *picture_row(RowCache *rc, const void *plane, ptrdiff_t stride, unsigned bpc,
                                unsigned w, int y)
{
    const int k = y % ROW_SLOTS;
    if (rc->row[k] != y) {
        const uint8_t *src = (const uint8_t *)plane + (ptrdiff_t)y * stride;
        float *dst = rc->slot[k];
        if (bpc == 8)
            for (unsigned x = 0; x < w; x++)
                dst[x] = ls_float_adm_sample(src[x], 8);
        else
            for (unsigned x = 0; x < w; x++)
                dst[x] = ls_float_adm_sample(((const uint16_t *)src)[x], bpc);
        rc->row[k] = y;
    }
    return rc->slot[k];
}

/* Scratch of one call, sized for the first scale (later scales are smaller). */
typedef struct Scratch {
    float *mem;
    RowCache rows[2];      /* [picture] */
    float *approx[2][2];   /* [picture][ping-pong] approximation planes */
    float *split[2][4];    /* [picture][lo_e, lo_o, hi_e, hi_o], each with one entry before */
    float *band[2][3];     /* [picture][h, v, d] one row */
    float *rst[3], *add[3];
    float *ring[4][3][3];  /* [c_a, f_a, c_r, f_r][band][row % 3] */
} Scratch;

static int scratch_alloc(Scratch *sc, unsigned w, unsigned h)
{
    const size_t bw = (w + 1) / 2, bh = (h + 1) / 2;
    const size_t plane0 = bw * bh, plane1 = ((bw + 1) / 2) * ((bh + 1) / 2);
    const size_t split = bw + 8, row = bw + 8;
    const size_t total =
        2 * (plane0 + plane1) + 2 * 4 * split + (6 + 6 + 36) * row + 2 * ROW_SLOTS * (size_t)w;
    sc->mem = malloc(total * sizeof(float));
    if (!sc->mem)
        return -ENOMEM;
    float *m = sc->mem;
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < ROW_SLOTS; k++) {
            sc->rows[p].slot[k] = m, m += w;
            sc->rows[p].row[k] = -1;
        }
        sc->approx[p][0] = m, m += plane0;
        sc->approx[p][1] = m, m += plane1;
        for (int k = 0; k < 4; k++)
            sc->split[p][k] = m + 1, m += split;
        for (int b = 0; b < 3; b++)
            sc->band[p][b] = m, m += row;
    }
    for (int b = 0; b < 3; b++) {
        sc->rst[b] = m, m += row;
        sc->add[b] = m, m += row;
    }
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 3; b++)
            for (int r = 0; r < 3; r++)
                sc->ring[k][b][r] = m, m += row;
    return 0;
}

enum { RING_CA, RING_FA, RING_CR, RING_FR };

static void cm_row(const LsFloatAdmState *s, const LsFloatAdmDsp *dsp, const Scratch *sc,
                   const LsFloatAdmRegion *r, int bw, int bh, int i, float acc[6])
{
    const int rows[3] = { ls_float_adm_cm_index(i - 1, bh), i, ls_float_adm_cm_index(i + 1, bh) };
    LsFloatAdmCmRows cr;
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 3; k++) {
            cr.f_a[b][k] = sc->ring[RING_FA][b][rows[k] % 3];
            cr.f_r[b][k] = sc->ring[RING_FR][b][rows[k] % 3];
        }
        cr.c_a[b] = sc->ring[RING_CA][b][i % 3];
        cr.c_r[b] = sc->ring[RING_CR][b][i % 3];
    }
    dsp->cm_row(&cr, (unsigned)bw, (unsigned)r->L, (unsigned)r->Rt, s->opt.adm_bypass_cm, s->cube,
                s->p, acc);
}

int ls_float_adm_frame_sums(const LsFloatAdmState *s, const LsFloatAdmDsp *dsp, const void *ref,
                            ptrdiff_t ref_stride, const void *dis, ptrdiff_t dis_stride,
                            float acc[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC])
{
    Scratch sc;
    int err = scratch_alloc(&sc, s->w, s->h);
    if (err)
        return err;
    memset(acc, 0, sizeof(float) * LS_FLOAT_ADM_SCALES * LS_FLOAT_ADM_ACC);

    const void *src[2] = { ref, dis }; /* the pictures, then the approximation planes */
    const ptrdiff_t stride[2] = { ref_stride, dis_stride };
    int w = (int)s->w, h = (int)s->h;
    for (int scale = 0; scale < LS_FLOAT_ADM_SCALES; scale++) {
        const int bw = (w + 1) / 2, bh = (h + 1) / 2;
        const int details = !(scale == 0 && s->opt.adm_skip_scale0);
        const LsFloatAdmRegion r = ls_float_adm_region(bw, bh);
        float *out[2] = { NULL, NULL };
        if (scale + 1 < LS_FLOAT_ADM_SCALES)
            for (int p = 0; p < 2; p++)
                out[p] = sc.approx[p][scale & 1];
        const float factor[3] = { s->f1[scale], s->f1[scale], s->f2[scale] };
        float *cm_acc = acc[scale] + 3;
        for (int i = 0; i < bh; i++) {
            const int in_region = details && i >= r.top && i < r.bottom;
            for (int p = 0; p < 2; p++) {
                const float *rows[4];
                for (int k = 0; k < 4; k++) {
                    const int y = ls_float_adm_dwt_index(2 * i - 1 + k, h);
                    rows[k] = scale ? (const float *)src[p] + (size_t)y * (size_t)(w)
                                    : picture_row(&sc.rows[p], src[p], stride[p], s->bpc,
                                                  (unsigned)w, y);
                }
                float *const *sp = sc.split[p];
                dsp->dwt_v(rows, (unsigned)w, sp[0], sp[1], in_region ? sp[2] : NULL, sp[3]);
                ls_float_adm_split_pad(sp[0], sp[1], (unsigned)w);
                if (in_region)
                    ls_float_adm_split_pad(sp[2], sp[3], (unsigned)w);
                dsp->dwt_h(sp[0], sp[1], sp[2], sp[3], (unsigned)bw,
                           out[p] ? out[p] + (size_t)i * (size_t)bw : NULL, (unsigned)r.left,
                           (unsigned)r.right, in_region ? sc.band[p][0] : NULL, sc.band[p][1],
                           sc.band[p][2]);
            }
            if (!in_region)
                continue;
            const float *const o[3] = { sc.band[0][0], sc.band[0][1], sc.band[0][2] };
            const float *const t[3] = { sc.band[1][0], sc.band[1][1], sc.band[1][2] };
            dsp->decouple(o, t, (unsigned)r.left, (unsigned)r.right, s->opt.adm_enhn_gain_limit,
                          sc.rst, sc.add);
            if (i >= r.T && i < r.B)
                dsp->den_row(o, factor, (unsigned)r.L, (unsigned)r.Rt, s->cube, s->p, acc[scale]);
            for (int b = 0; b < 3; b++) {
                dsp->csf(sc.add[b], factor[b], (unsigned)r.left, (unsigned)r.right,
                         sc.ring[RING_CA][b][i % 3], sc.ring[RING_FA][b][i % 3]);
                dsp->csf(sc.rst[b], factor[b], (unsigned)r.left, (unsigned)r.right,
                         sc.ring[RING_CR][b][i % 3], sc.ring[RING_FR][b][i % 3]);
            }
            /* the row above has its neighbours now (row -1 is row 1) */
            if (i >= 1 && i - 1 >= r.T && i - 1 < r.B)
                cm_row(s, dsp, &sc, &r, bw, bh, i - 1, cm_acc);
        }
        /* the last row is its own lower neighbour */
        if (details && bh - 1 >= r.T && bh - 1 < r.B)
            cm_row(s, dsp, &sc, &r, bw, bh, bh - 1, cm_acc);

        src[0] = out[0];
        src[1] = out[1];
        w = bw;
        h = bh;
    }
    free(sc.mem);
    return 0;
}

/* ---- the extractor ---- */

typedef struct FloatAdmPriv {
    LsFloatAdmOptions opt; /* first: the option table's offsets point here */
    LsFloatAdmState state;
    LsFloatAdmDsp dsp;
} FloatAdmPriv;

static int float_adm_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                          unsigned h)
{
    FloatAdmPriv *p = fex->priv;
    (void)fmt; /* luma only: every layout, 4:0:0 included */
    const int err = ls_float_adm_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    ls_float_adm_dsp_init(&p->dsp, fex->cpu_flags);
    return 0;
}

static int float_adm_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                             unsigned index, LsCollector *fc)
{
    const FloatAdmPriv *p = fex->priv;
    float acc[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC];
    const int err = ls_float_adm_frame_sums(&p->state, &p->dsp, ref->data[0], ref->stride[0],
                                            dist->data[0], dist->stride[0], acc);
    if (err)
        return err;
    LsFloatAdmScores sc;
    ls_float_adm_finish(&p->state, acc, &sc);
    return ls_float_adm_write(&p->state, &sc, index, fc);
}

static const char *const float_adm_provided[] = {
    "VMAF_feature_adm2_score",        "VMAF_feature_aim_score",
    "VMAF_feature_adm3_score",        "VMAF_feature_adm_scale0_score",
    "VMAF_feature_adm_scale1_score",  "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score",  NULL,
};

const LsExtractor ls_fex_float_adm = {
    .name = "float_adm",
    .options = ls_float_adm_options,
    .priv_size = sizeof(FloatAdmPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = float_adm_provided,
    .init = float_adm_init,
    .extract = float_adm_extract,
};

int ls_float_adm_write_accumulators(const LsFloatAdmState *s, const void *acc, unsigned index,
                                    LsCollector *fc)
{
    float a[LS_FLOAT_ADM_SCALES][LS_FLOAT_ADM_ACC];
    memcpy(a, acc, sizeof(a));
    LsFloatAdmScores sc;
    ls_float_adm_finish(s, a, &sc);
    return ls_float_adm_write(s, &sc, index, fc);
}

int ls_float_adm_twin_supported(const LsFloatAdmState *s, LsFex *fex)
{
    if (!s->cube)
        return ls_fex_error(fex, "float_adm: adm_p_norm other than 3 takes glibc's powf per term"),
               -ENOTSUP;
    return 0;
}
