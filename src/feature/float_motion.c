/* Extractor `float_motion`: SAD between consecutive blurred reference frames, reported with a
 * one-frame delay (motion2 = min of the two scores around a frame). Spec: features/motion.md §2.
 * The per-frame post-processing and the delay are ls_float_motion_* below, shared with the GPU
 * twins. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/geometry.h"
#include "feature/motion.h"

const LsOption ls_float_motion_options[] = {
    { .name = "debug", .help = "debug mode: enable additional output", .type = LS_OPT_BOOL,
      .offset = offsetof(LsFloatMotionOptions, debug), .def.b = true },
    { .name = "motion_force_zero", .alias = "force_0", .help = "forcing motion score to zero",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatMotionOptions, motion_force_zero),
      .def.b = false, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw",
      .help = "fps-aware multiplicative weight/correction",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatMotionOptions, motion_fps_weight),
      .def.d = 1.0, .min = 0.0, .max = 5.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_blend_factor", .alias = "mbf", .help = "blend motion score given an offset",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatMotionOptions, motion_blend_factor),
      .def.d = 1.0, .min = 0.0, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_blend_offset", .alias = "mbo",
      .help = "blend motion score starting from this offset", .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsFloatMotionOptions, motion_blend_offset), .def.d = 40.0, .min = 0.0,
      .max = 1000.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_add_scale1", .alias = "mdc", .help = "add motion score from scale1",
      .type = LS_OPT_BOOL, .offset = offsetof(LsFloatMotionOptions, motion_add_scale1),
      .def.b = false, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_filter_size", .alias = "mfs", .help = "filtering size", .type = LS_OPT_INT,
      .offset = offsetof(LsFloatMotionOptions, motion_filter_size), .def.i = 5, .min = 0,
      .max = 9, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_add_uv", .alias = "mau", .help = "include U and V terms", .type = LS_OPT_BOOL,
      .offset = offsetof(LsFloatMotionOptions, motion_add_uv), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv",
      .help = "maximum value allowed; larger values will be clipped to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsFloatMotionOptions, motion_max_val),
      .def.d = 10000.0, .min = 0.0, .max = 10000.0, .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

/* blur and SAD go strip by strip, so the SAD reads the fresh rows from cache */
#define STRIP_ROWS 32

/* the reference's bilinear scaler accepts up to 8K wide destinations */
#define SCALE1_MAX_WIDTH 7680

int ls_float_motion_state_init(LsFloatMotionState *s, const LsFloatMotionOptions *opt,
                               const LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                               unsigned h)
{
    memset(s, 0, sizeof(*s));
    s->opt = *opt;
    s->bpc = bpc;
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "float_motion: bit depth %u is not supported (8..16)", bpc);

    switch (opt->motion_filter_size) {
    case 1:
        s->taps = ls_float_motion_filter_identity;
        s->n_taps = 5;
        break;
    case 3:
        s->taps = ls_float_motion_filter3;
        s->n_taps = 3;
        break;
    default:
        s->taps = ls_float_motion_filter5;
        s->n_taps = 5;
        break;
    }

    if (opt->motion_add_uv && fmt == VMAF_PIX_FMT_YUV400P)
        return ls_fex_error(fex,
                            "float_motion: motion_add_uv needs chroma planes, the input is 4:0:0");
    /* the reference reads subsampled chroma with the luma stride here: its result is undefined */
    if (opt->motion_add_uv && opt->motion_add_scale1 && fmt != VMAF_PIX_FMT_YUV444P)
        return ls_fex_error(fex, "float_motion: motion_add_uv with motion_add_scale1 is only "
                                 "supported for 4:4:4 input");
    if (opt->motion_add_scale1 && (int)(w * 0.5 + 0.5) > SCALE1_MAX_WIDTH)
        return ls_fex_error(fex, "float_motion: motion_add_scale1 supports widths up to %u",
                            2 * SCALE1_MAX_WIDTH);

    s->n_planes = opt->motion_add_uv ? 3 : 1;
    ls_plane_sizes(fmt, w, h, s->w, s->h);
    const unsigned min_size = s->n_taps / 2 + 1;
    for (unsigned p = 0; p < s->n_planes; p++) {
        if (s->w[p] < min_size || s->h[p] < min_size)
            return ls_fex_error(
                fex, "float_motion: %s %ux%u is below the %u-tap filter minimum %ux%u",
                p ? "chroma plane" : "frame", s->w[p], s->h[p], s->n_taps, min_size, min_size);
        s->w1[p] = (unsigned)(int)(s->w[p] * 0.5 + 0.5);
        s->h1[p] = (unsigned)(int)(s->h[p] * 0.5 + 0.5);
    }

    ls_fex_feature_name(fex, s->name_motion, sizeof(s->name_motion), "VMAF_feature_motion_score",
                        "motion");
    ls_fex_feature_name(fex, s->name_motion2, sizeof(s->name_motion2), "VMAF_feature_motion2_score",
                        "motion2");
    ls_fex_feature_name(fex, s->name_motion3, sizeof(s->name_motion3), "VMAF_feature_motion3_score",
                        "motion3");
    return 0;
}

double ls_float_motion_frame_score(const LsFloatMotionState *s, const float sad0[3],
                                   const float sad1[3])
{
    double score = 0.0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        float sad = sad0[p];
        if (s->opt.motion_add_scale1)
            sad = sad + sad1[p];
        score = p ? score + (double)sad : (double)sad;
    }
    return score;
}

static double post(const LsFloatMotionOptions *o, double x)
{
    return ls_motion_cap(ls_motion_weight(x, o->motion_fps_weight), o->motion_max_val);
}

static double post_blend(const LsFloatMotionOptions *o, double x)
{
    return ls_motion_cap(ls_motion_blend(ls_motion_weight(x, o->motion_fps_weight),
                                         o->motion_blend_factor, o->motion_blend_offset),
                         o->motion_max_val);
}

int ls_float_motion_write(LsFloatMotionState *s, unsigned index, double score, LsCollector *fc)
{
    const LsFloatMotionOptions *o = &s->opt;
    int err = 0;
    s->n_frames = index + 1;
    if (o->motion_force_zero) {
        err = ls_collector_append(fc, s->name_motion2, 0.0, index);
        if (!err)
            err = ls_collector_append(fc, s->name_motion3, 0.0, index);
        if (!err && o->debug)
            err = ls_collector_append(fc, s->name_motion, 0.0, index);
        return err;
    }
    if (index == 0) {
        err = ls_collector_append(fc, s->name_motion2, 0.0, index);
        if (!err && o->debug)
            err = ls_collector_append(fc, s->name_motion, 0.0, index);
        return err;
    }
    if (o->debug)
        err = ls_collector_append(fc, s->name_motion, post(o, score), index);
    if (!err && index == 1) {
        err = ls_collector_append(fc, s->name_motion3, post_blend(o, score), 0);
    } else if (!err) {
        const double m = s->prev_score < score ? s->prev_score : score;
        err = ls_collector_append(fc, s->name_motion2, post(o, m), index - 1);
        if (!err)
            err = ls_collector_append(fc, s->name_motion3, post_blend(o, m), index - 1);
    }
    s->prev_score = score;
    return err;
}

int ls_float_motion_flush(LsFloatMotionState *s, LsCollector *fc)
{
    const LsFloatMotionOptions *o = &s->opt;
    if (o->motion_force_zero || s->n_frames == 0)
        return 0;
    if (s->n_frames == 1)
        return ls_collector_append(fc, s->name_motion3, 0.0, 0);
    const unsigned last = s->n_frames - 1;
    int err = ls_collector_append(fc, s->name_motion2, post(o, s->prev_score), last);
    if (!err)
        err = ls_collector_append(fc, s->name_motion3, post_blend(o, s->prev_score), last);
    return err;
}

/* motion.md §2.6: half-size plane for motion_add_scale1 */
static void downscale_bilinear(const float *src, unsigned sw, unsigned sh, float *dst, unsigned dw,
                               unsigned dh)
{
    if (sw == dw && sh == dh) {
        memcpy(dst, src, (size_t)sw * sh * sizeof(*src));
        return;
    }
    const float rx = (float)sw / dw, ry = (float)sh / dh;
    for (unsigned y = 0; y < dh; y++) {
        int y1, y2;
        float dy;
        ls_motion_bilinear_coord((int)y, ry, (int)sh, &y1, &y2, &dy);
        const float *r1 = src + (size_t)y1 * sw, *r2 = src + (size_t)y2 * sw;
        for (unsigned x = 0; x < dw; x++) {
            int x1, x2;
            float dx;
            ls_motion_bilinear_coord((int)x, rx, (int)sw, &x1, &x2, &dx);
            dst[(size_t)y * dw + x] =
                ls_motion_bilinear_sample(r1[x1], r1[x2], r2[x1], r2[x2], dx, dy);
        }
    }
}

typedef struct FloatMotionPriv {
    LsFloatMotionOptions opt; /* first: the option table's offsets point here */
    LsFloatMotionState state;
    LsMotionDsp dsp;
    float *blur[2][3]; /* blurred planes of the previous and current frame */
    float *half[2][3]; /* their half-size versions (motion_add_scale1) */
    float *tmp;
} FloatMotionPriv;

static void float_motion_close(LsFex *fex)
{
    FloatMotionPriv *p = fex->priv;
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned j = 0; j < 3; j++) {
            free(p->blur[i][j]);
            free(p->half[i][j]);
            p->blur[i][j] = p->half[i][j] = NULL;
        }
    }
    free(p->tmp);
    p->tmp = NULL;
}

static int float_motion_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                             unsigned h)
{
    FloatMotionPriv *p = fex->priv;
    LsFloatMotionState *s = &p->state;
    int err = ls_float_motion_state_init(s, &p->opt, fex, fmt, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = s->n_planes;
    ls_motion_dsp_init(&p->dsp, fex->cpu_flags);
    if (p->opt.motion_force_zero)
        return 0;
    p->tmp = malloc(ls_float_motion_tmp_size(w) * sizeof(float));
    if (!p->tmp)
        goto fail;
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned j = 0; j < s->n_planes; j++) {
            p->blur[i][j] = malloc((size_t)s->w[j] * s->h[j] * sizeof(float));
            if (!p->blur[i][j])
                goto fail;
            if (!p->opt.motion_add_scale1)
                continue;
            p->half[i][j] = malloc((size_t)s->w1[j] * s->h1[j] * sizeof(float));
            if (!p->half[i][j])
                goto fail;
        }
    }
    return 0;
fail:
    float_motion_close(fex);
    return -ENOMEM;
}

static int float_motion_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                                unsigned index, LsCollector *fc)
{
    FloatMotionPriv *p = fex->priv;
    LsFloatMotionState *s = &p->state;
    (void)dist;
    if (index != s->n_frames)
        return ls_fex_error(fex,
                            "float_motion: frame %u arrived after %u frames; it needs every "
                            "frame in order",
                            index, s->n_frames);
    if (p->opt.motion_force_zero)
        return ls_float_motion_write(s, index, 0.0, fc);

    const unsigned cur = index & 1, prev = cur ^ 1;
    float sad0[3] = { 0 }, sad1[3] = { 0 };
    for (unsigned j = 0; j < s->n_planes; j++) {
        const unsigned w = s->w[j], h = s->h[j];
        float total = 0.0f;
        for (unsigned y0 = 0; y0 < h; y0 += STRIP_ROWS) {
            const unsigned y1 = y0 + STRIP_ROWS < h ? y0 + STRIP_ROWS : h;
            p->dsp.blur(ref->data[j], ref->stride[j], s->bpc, p->blur[cur][j], w, w, h, y0, y1,
                        s->taps, s->n_taps, p->tmp);
            if (index)
                total = p->dsp.sad(p->blur[prev][j] + (size_t)y0 * w,
                                   p->blur[cur][j] + (size_t)y0 * w, w, w, y1 - y0, total);
        }
        sad0[j] = ls_float_motion_plane_sad(total, w, h);
        if (!p->opt.motion_add_scale1)
            continue;
        downscale_bilinear(p->blur[cur][j], w, h, p->half[cur][j], s->w1[j], s->h1[j]);
        if (index) {
            const float total1 =
                p->dsp.sad(p->half[prev][j], p->half[cur][j], s->w1[j], s->w1[j], s->h1[j], 0.0f);
            sad1[j] = ls_float_motion_plane_sad(total1, s->w1[j], s->h1[j]);
        }
    }
    const double score = index ? ls_float_motion_frame_score(s, sad0, sad1) : 0.0;
    return ls_float_motion_write(s, index, score, fc);
}

static int float_motion_flush(LsFex *fex, LsCollector *fc)
{
    FloatMotionPriv *p = fex->priv;
    return ls_float_motion_flush(&p->state, fc);
}

/* score[i] = SAD(i - 1, i) is zero at 0; motion2/motion3 at i are min(score[i], score[i + 1]),
 * written one frame late, and the last frame's are score[i] alone. */
static void float_motion_frames_around(const LsFex *fex, unsigned *before, unsigned *after)
{
    (void)fex;
    *before = 1;
    *after = 1;
}

static const char *const float_motion_provided[] = { "VMAF_feature_motion_score",
                                                     "VMAF_feature_motion2_score",
                                                     "VMAF_feature_motion3_score", NULL };

const LsExtractor ls_fex_float_motion = {
    .name = "float_motion",
    .options = ls_float_motion_options,
    .priv_size = sizeof(FloatMotionPriv),
    .flags = LS_FEX_TEMPORAL,
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = float_motion_provided,
    .init = float_motion_init,
    .extract = float_motion_extract,
    .flush = float_motion_flush,
    .close = float_motion_close,
    .frames_around = float_motion_frames_around,
};

int ls_float_motion_write_totals(LsFloatMotionState *s, const float totals[6], unsigned index,
                                 LsCollector *fc)
{
    if (s->opt.motion_force_zero)
        return ls_float_motion_write(s, index, 0.0, fc);
    float sad0[3] = { 0 }, sad1[3] = { 0 };
    for (unsigned j = 0; j < s->n_planes; j++) {
        sad0[j] = ls_float_motion_plane_sad(totals[j], s->w[j], s->h[j]);
        if (s->opt.motion_add_scale1)
            sad1[j] = ls_float_motion_plane_sad(totals[3 + j], s->w1[j], s->h1[j]);
    }
    const double score = index ? ls_float_motion_frame_score(s, sad0, sad1) : 0.0;
    return ls_float_motion_write(s, index, score, fc);
}
