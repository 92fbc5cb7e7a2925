/* Extractor `motion` (integer, upstream's pipelined variant): SAD of the blurred difference of
 * consecutive reference frames; motion2/motion3 of every frame at flush.
 * Spec: features/motion.md §3. The score, the per-frame writes and the flush are ls_motion_*
 * below, shared with the GPU twins. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/picture_ref.h"
#include "feature/motion.h"

const LsOption ls_motion_options[] = {
    { .name = "debug", .help = "debug mode: enable additional output", .type = LS_OPT_BOOL,
      .offset = offsetof(LsMotionOptions, debug), .def.b = false },
    { .name = "motion_force_zero", .alias = "force_0", .help = "forcing motion score to zero",
      .type = LS_OPT_BOOL, .offset = offsetof(LsMotionOptions, motion_force_zero), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_blend_factor", .alias = "mbf", .help = "blend motion score given an offset",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsMotionOptions, motion_blend_factor), .def.d = 1.0,
      .min = 0.0, .max = 1.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_blend_offset", .alias = "mbo",
      .help = "blend motion score starting from this offset", .type = LS_OPT_DOUBLE,
      .offset = offsetof(LsMotionOptions, motion_blend_offset), .def.d = 40.0, .min = 0.0,
      .max = 1000.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_fps_weight", .alias = "mfw",
      .help = "fps-aware multiplicative weight/correction",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsMotionOptions, motion_fps_weight), .def.d = 1.0,
      .min = 0.0, .max = 5.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_max_val", .alias = "mmxv",
      .help = "maximum value allowed; larger values will be clipped to this value",
      .type = LS_OPT_DOUBLE, .offset = offsetof(LsMotionOptions, motion_max_val), .def.d = 10000.0,
      .min = 0.0, .max = 10000.0, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_five_frame_window", .alias = "mffw", .help = "use five-frame temporal window",
      .type = LS_OPT_BOOL, .offset = offsetof(LsMotionOptions, motion_five_frame_window),
      .def.b = false, .flags = LS_OPT_FEATURE_PARAM },
    { .name = "motion_moving_average", .alias = "mma",
      .help = "use moving average for motion scores after first frame", .type = LS_OPT_BOOL,
      .offset = offsetof(LsMotionOptions, motion_moving_average), .def.b = false,
      .flags = LS_OPT_FEATURE_PARAM },
    { 0 },
};

int ls_motion_state_init(LsMotionState *s, const LsMotionOptions *opt, const LsFex *fex, unsigned w,
                         unsigned h)
{
    memset(s, 0, sizeof(*s));
    s->opt = *opt;
    s->w = w;
    s->h = h;
    s->min_idx = opt->motion_five_frame_window ? 2 : 1;
    const unsigned min_size = LS_INT_MOTION_RADIUS + 1;
    if (w < min_size || h < min_size)
        return ls_fex_error(fex, "motion: frame %ux%u is below the 5-tap filter minimum %ux%u", w,
                            h, min_size, min_size);
    ls_fex_feature_name(fex, s->name_sad, sizeof(s->name_sad),
                        "VMAF_integer_feature_motion_sad_score", NULL);
    ls_fex_feature_name(fex, s->name_motion, sizeof(s->name_motion),
                        "VMAF_integer_feature_motion_score", "integer_motion");
    ls_fex_feature_name(fex, s->name_motion2, sizeof(s->name_motion2),
                        "VMAF_integer_feature_motion2_score", "integer_motion2");
    ls_fex_feature_name(fex, s->name_motion3, sizeof(s->name_motion3),
                        "VMAF_integer_feature_motion3_score", "integer_motion3");
    return 0;
}

void ls_motion_state_close(LsMotionState *s)
{
    free(s->sad_score);
    free(s->have_score);
    s->sad_score = NULL;
    s->have_score = NULL;
    s->n_alloc = 0;
}

static int reserve(LsMotionState *s, unsigned index)
{
    if (index < s->n_alloc)
        return 0;
    unsigned n = s->n_alloc ? s->n_alloc : 64;
    while (n <= index)
        n *= 2;
    double *score = realloc(s->sad_score, n * sizeof(*score));
    if (!score)
        return -ENOMEM;
    s->sad_score = score;
    bool *have = realloc(s->have_score, n * sizeof(*have));
    if (!have)
        return -ENOMEM;
    memset(have + s->n_alloc, 0, (n - s->n_alloc) * sizeof(*have));
    s->have_score = have;
    s->n_alloc = n;
    return 0;
}

int ls_motion_write(LsMotionState *s, unsigned index, uint64_t sad, LsCollector *fc)
{
    const LsMotionOptions *o = &s->opt;
    int err = reserve(s, index);
    if (err)
        return err;
    double score = 0.0;
    if (ls_motion_needs_sad(s, index)) {
        const double per_sample = (double)sad / 256.0 / (double)(s->w * s->h);
        score =
            ls_motion_cap(ls_motion_weight(per_sample, o->motion_fps_weight), o->motion_max_val);
    }
    s->sad_score[index] = score;
    s->have_score[index] = true;
    err = ls_collector_append(fc, s->name_sad, score, index);
    if (!err && o->debug)
        err = ls_collector_append(fc, s->name_motion, score, index);
    return err;
}

int ls_motion_flush(LsMotionState *s, LsCollector *fc)
{
    const LsMotionOptions *o = &s->opt;
    const double *S = s->sad_score;
    const unsigned min_idx = s->min_idx, stride = min_idx;
    unsigned n = 0;
    while (n < s->n_alloc && s->have_score[n])
        n++;
    if (!n)
        return 0;
    double stamp = 0.0;
    if (n > min_idx)
        stamp = ls_motion_cap(
            ls_motion_blend(S[min_idx], o->motion_blend_factor, o->motion_blend_offset),
            o->motion_max_val);
    double prev = 0.0;
    for (unsigned i = 0; i < n; i++) {
        double m2, m3;
        if (i < min_idx) {
            m2 = 0.0;
        } else if (i + 1 == n) {
            m2 = S[i];
        } else if (i - (stride - 1) >= min_idx) {
            const double lo = S[i - (stride - 1)], hi = S[i + 1];
            m2 = lo < hi ? lo : hi;
        } else {
            m2 = S[i + 1];
        }
        int err = ls_collector_append(fc, s->name_motion2, m2, i);
        if (err)
            return err;
        if (i < min_idx) {
            m3 = stamp;
            prev = stamp;
        } else {
            const double p =
                ls_motion_cap(ls_motion_blend(m2, o->motion_blend_factor, o->motion_blend_offset),
                              o->motion_max_val);
            m3 = o->motion_moving_average ? (p + prev) / 2.0 : p;
            prev = p;
        }
        err = ls_collector_append(fc, s->name_motion3, m3, i);
        if (err)
            return err;
    }
    return 0;
}

typedef struct MotionPriv {
    LsMotionOptions opt; /* first: the option table's offsets point here */
    LsMotionState state;
    LsMotionDsp dsp;
    unsigned bpc;
    /* the reference pictures of the last min_idx frames, slot = index % 2, held (frames_held =
     * 2, the five-frame window's SAD reads two frames back) rather than copied: a copy was a
     * frame-sized memcpy per frame and two frame-sized buffers to fault in */
    VmafPicture held[2];
    bool have[2];
    void *tmp;
    unsigned n_frames;
} MotionPriv;

static void release_held(MotionPriv *p)
{
    for (int k = 0; k < 2; k++)
        if (p->have[k]) {
            vmaf_picture_unref(&p->held[k]);
            p->have[k] = false;
        }
}

static void motion_close(LsFex *fex)
{
    MotionPriv *p = fex->priv;
    release_held(p);
    ls_motion_state_close(&p->state);
    free(p->tmp);
    p->tmp = NULL;
}

static int motion_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h)
{
    MotionPriv *p = fex->priv;
    (void)fmt;
    if (bpc < 8 || bpc > 16)
        return ls_fex_error(fex, "motion: bit depth %u is not supported (8..16)", bpc);
    int err = ls_motion_state_init(&p->state, &p->opt, fex, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    ls_motion_dsp_init(&p->dsp, fex->cpu_flags);
    p->bpc = bpc;
    if (p->opt.motion_force_zero)
        return 0;
    p->tmp = malloc(ls_int_motion_tmp_size(w));
    if (!p->tmp) {
        motion_close(fex);
        return -ENOMEM;
    }
    return 0;
}

static int motion_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                          unsigned index, LsCollector *fc)
{
    MotionPriv *p = fex->priv;
    LsMotionState *s = &p->state;
    (void)dist;
    if (index != p->n_frames)
        return ls_fex_error(fex,
                            "motion: frame %u arrived after %u frames; it needs every frame "
                            "in order",
                            index, p->n_frames);
    p->n_frames++;
    uint64_t sad = 0;
    if (ls_motion_needs_sad(s, index)) {
        const VmafPicture *prev = &p->held[(index - s->min_idx) & 1];
        sad = p->dsp.int_sad(prev->data[0], prev->stride[0], ref->data[0], ref->stride[0], s->w,
                             s->h, p->bpc, p->tmp);
    }
    if (!p->opt.motion_force_zero) {
        const unsigned slot = index & 1;
        if (p->have[slot])
            vmaf_picture_unref(&p->held[slot]);
        ls_picture_ref(&p->held[slot], ref);
        p->have[slot] = true;
        /* without the five-frame window the next SAD reads this frame alone */
        if (s->min_idx == 1 && p->have[slot ^ 1]) {
            vmaf_picture_unref(&p->held[slot ^ 1]);
            p->have[slot ^ 1] = false;
        }
    }
    return ls_motion_write(s, index, sad, fc);
}

/* the last pictures go back to their pool at the end of the stream */
static int motion_flush(LsFex *fex, LsCollector *fc)
{
    MotionPriv *p = fex->priv;
    release_held(p);
    return ls_motion_flush(&p->state, fc);
}

/* S[i] = SAD(i - w, i) with w = 1, or 2 in the five-frame window, is zero below w; motion2 at i
 * reads S[i + 1] and, in the window, S[i - 1]; motion3's moving average reads motion2 at i - 1.
 * So scores from w + (window ? 1 : 0) + (average ? 1 : 0) frames into a stream on are the
 * whole video's. After a frame: motion2 reads S[i + 1], the last frame's is S[i] alone, and the
 * frames below w take motion3 from S[w] (frame 0 reads frame 2 in the window). */
static void motion_frames_around(const LsFex *fex, unsigned *before, unsigned *after)
{
    const LsMotionOptions *o = fex->priv;
    *before = (o->motion_five_frame_window ? 3 : 1) + (o->motion_moving_average ? 1 : 0);
    *after = o->motion_five_frame_window ? 2 : 1;
}

static const char *const motion_provided[] = { "VMAF_integer_feature_motion_sad_score",
                                               "VMAF_integer_feature_motion_score",
                                               "VMAF_integer_feature_motion2_score",
                                               "VMAF_integer_feature_motion3_score", NULL };

const LsExtractor ls_fex_motion = {
    .name = "motion",
    .options = ls_motion_options,
    .priv_size = sizeof(MotionPriv),
    .flags = LS_FEX_TEMPORAL,
    .backend = LOCKSTEP_BACKEND_CPU,
    .frames_held = 2,
    .provided_features = motion_provided,
    .init = motion_init,
    .extract = motion_extract,
    .flush = motion_flush,
    .close = motion_close,
    .frames_around = motion_frames_around,
};
