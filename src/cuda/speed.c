/* speed_chroma and speed_temporal on CUDA: the twins of ls_fex_speed_chroma and
 * ls_fex_speed_temporal. The device runs every residual from the samples to its eigenvalues and
 * block variances (speed.cu); the entropies, the plane scores and the outputs, which call glibc's
 * log2, are the CPU's own functions on those per-frame values. The entropies and plane scores
 * (25 log2 a block and residual) run on the driver's host-function thread as soon as a frame's
 * values are back (cuLaunchHostFunc on a side stream), not on the thread that reads and submits
 * the frames; collect only writes the outputs. A resampling method other than
 * bilinear (with a speed_prescale away from 1) stays on the CPU: init says -ENOTSUP. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/extractors.h"
#include "cuda/speed_cuda.h"
#include "cuda/twin.h"
#include "feature/speed.h"

extern const unsigned char ls_cuda_fatbin_speed[];

enum { K_VERT, K_HORZ, K_MEANV, K_RESID, K_COV, K_LINALG, K_VAR, K_COUNT };
static const char *const kernel_names[K_COUNT] = {
    "ls_speed_vertical",   "ls_speed_horizontal", "ls_speed_mean_vertical", "ls_speed_residual",
    "ls_speed_covariance", "ls_speed_linalg",     "ls_speed_variance",
};

struct SpeedDevice;

/* One slot's plane scores, computed on the driver's host-function thread. */
typedef struct SpeedScore {
    const struct SpeedDevice *d;
    const void *result; /* the slot's pinned results */
    float score[2];
    bool err[2];
    float *ent[2];      /* the entropies of one plane pair */
} SpeedScore;

/* What both twins keep besides their CPU state. */
typedef struct SpeedDevice {
    const LsSpeedParams *params;
    const LsSpeedGeometry *geom;
    unsigned n_jobs;
    CUdeviceptr bl_x1, bl_x2, bl_dx, ay_idx, ay_w;
    CUdeviceptr V[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS], D[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS];
    CUdeviceptr M[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS], R[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS];
    CUdeviceptr K[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS], Y[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS];
    CUdeviceptr T[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS], X[LS_CUDA_SLOTS][LS_SPEED_MAX_JOBS];
    CUdeviceptr res[LS_CUDA_SLOTS];
    unsigned n_pairs; /* plane pairs scored: jobs 2 j and 2 j + 1 */
    SpeedScore job[LS_CUDA_SLOTS];
    /* the scoring of each slot's frame: a side stream after the results' copy, and its end */
    LsCudaDevice own; /* the context's handle for these, released at teardown */
    int own_open;
    CUstream side[LS_CUDA_SLOTS];
    CUevent ready[LS_CUDA_SLOTS], scored[LS_CUDA_SLOTS];
    int timing;            /* LOCKSTEP_CUDA_TIMING: the host-function thread's time */
    const char *name;
    double host_ms;
    unsigned host_frames;
} SpeedDevice;

static size_t result_bytes(const LsSpeedGeometry *g)
{
    return (LS_SPEED_MAX_JOBS * LS_SPEED_HEADER_FLOATS + (size_t)LS_SPEED_MAX_JOBS * g->nb) *
           sizeof(float);
}

/* -ENOTSUP for what the kernels do not resample (the message says why the CPU runs it). */
static int device_check(LsFex *fex, const char *name, const LsSpeedParams *p,
                        const LsSpeedGeometry *g)
{
    if (g->resample && p->method != LS_FLOAT_VIF_BILINEAR)
        return ls_fex_error(fex, "%s: speed_prescale_method other than bilinear resamples on the "
                                 "host", name), -ENOTSUP;
    return 0;
}

static int device_setup(SpeedDevice *d, LsCudaTwin *t, int gpu_index)
{
    const LsSpeedGeometry *g = d->geom;
    const size_t vert = (size_t)g->hd * g->ws * sizeof(float);
    const size_t dec = (size_t)g->wd * g->hd * sizeof(float);
    const size_t mat = LS_SPEED_NP * LS_SPEED_LD * sizeof(float);
    const size_t blocks = LS_SPEED_NP * (size_t)ls_speed_pad16(g->nb) * sizeof(float);
    int err = 0;
    if (g->resample) {
        const LsFloatVifAxis *ay = &g->axis_y;
        err = ls_cuda_twin_upload(t, &d->bl_x1, g->bl_x1, g->ws * sizeof(int32_t));
        if (!err)
            err = ls_cuda_twin_upload(t, &d->bl_x2, g->bl_x2, g->ws * sizeof(int32_t));
        if (!err)
            err = ls_cuda_twin_upload(t, &d->bl_dx, g->bl_dx, g->ws * sizeof(float));
        if (!err)
            err = ls_cuda_twin_upload(t, &d->ay_idx, ay->idx,
                                      (size_t)ay->n_out * ay->n_taps * sizeof(int32_t));
        if (!err)
            err = ls_cuda_twin_upload(t, &d->ay_w, ay->weight,
                                      (size_t)ay->n_out * ay->n_taps * sizeof(float));
    }
    /* one block per slot (the skeleton's buffer table is small), carved 256-byte aligned */
    for (unsigned s = 0; s < LS_CUDA_SLOTS && !err; s++) {
        CUdeviceptr base = 0;
        for (int pass = 0; pass < 2 && !err; pass++) {
            size_t off = 0;
#define TAKE(ptr, bytes)                                                                           \
    do {                                                                                           \
        (ptr) = base + off;                                                                        \
        off += ((size_t)(bytes) + 255) & ~(size_t)255;                                             \
    } while (0)
            for (unsigned j = 0; j < d->n_jobs; j++) {
                TAKE(d->V[s][j], vert);
                TAKE(d->D[s][j], dec);
                TAKE(d->M[s][j], dec);
                TAKE(d->R[s][j], dec);
                TAKE(d->K[s][j], mat);
                TAKE(d->Y[s][j], blocks);
                TAKE(d->T[s][j], blocks);
                TAKE(d->X[s][j], blocks);
            }
            TAKE(d->res[s], result_bytes(g));
#undef TAKE
            if (!pass)
                err = ls_cuda_twin_alloc(t, &base, off);
        }
    }
    d->timing = t->timing;
    d->name = t->desc->name;
    char why[256];
    if (!err && !(err = ls_cuda_device_open(&d->own, gpu_index, why, sizeof(why))))
        d->own_open = 1;
    const LsCudaApi *cu = t->dev.cu;
    for (unsigned s = 0; s < LS_CUDA_SLOTS && !err; s++)
        if (!(err = CHECK_CU(cu, cuStreamCreate(&d->side[s], LS_CU_STREAM_NON_BLOCKING))) &&
            !(err = CHECK_CU(cu, cuEventCreate(&d->ready[s], LS_CU_EVENT_DISABLE_TIMING))))
            err = CHECK_CU(cu, cuEventCreate(&d->scored[s], LS_CU_EVENT_DISABLE_TIMING));
    return err;
}

static void score_on_host(void *job);

/* Launches the jobs of frame f whose samples are a[j] (minus b[j] where not 0), planes of
 * `stride` samples per row, and the copy of the results. */
static int device_enqueue(SpeedDevice *d, LsCudaTwin *t, const LsCudaFrame *f,
                          const CUdeviceptr *a, const CUdeviceptr *b, unsigned stride,
                          void *result)
{
    const LsSpeedGeometry *g = d->geom;
    const LsSpeedParams *p = d->params;
    const unsigned s = f->slot, nj = d->n_jobs;
    LsSpeedPixelArgs px = {
        .bl_x1 = d->bl_x1, .bl_x2 = d->bl_x2, .bl_dx = d->bl_dx, .ay_idx = d->ay_idx,
        .ay_w = d->ay_w, .stride = (int32_t)stride, .bpc = (int32_t)p->bpc,
        .resample = g->resample, .w0 = (int32_t)g->w0, .h0 = (int32_t)g->h0,
        .ws = (int32_t)g->ws, .hs = (int32_t)g->hs, .wd = (int32_t)g->wd, .hd = (int32_t)g->hd,
        /* the taps by width: the device's tables are its own copies */
        .n1 = p->n_antialias, .aa_off = LS_SPEED_ANTIALIAS_OFFSET(p->n_antialias),
        .nm = p->n_mean, .mean_off = LS_FLOAT_VIF_TAPS_OFFSET(p->n_mean),
    };
    LsSpeedStatsArgs st = { .res = d->res[s], .wd = (int32_t)g->wd, .sw = (int32_t)g->sw,
                            .sh = (int32_t)g->sh, .nb = (int32_t)g->nb, .nbh = (int32_t)g->nbh,
                            .nbp = (int32_t)ls_speed_pad16(g->nb) };
    for (unsigned j = 0; j < nj; j++) {
        px.a[j] = a[j];
        px.b[j] = b[j];
        px.V[j] = d->V[s][j];
        px.D[j] = d->D[s][j];
        px.M[j] = d->M[s][j];
        px.R[j] = st.R[j] = d->R[s][j];
        st.K[j] = d->K[s][j];
        st.Y[j] = d->Y[s][j];
        st.T[j] = d->T[s][j];
        st.X[j] = d->X[s][j];
    }
    const unsigned T = LS_SPEED_THREADS;
    int err = ls_cuda_twin_launch(t, K_VERT, (g->ws + T - 1) / T, g->hd, nj, T, 1, 1, 0, f, &px);
    if (!err)
        err = ls_cuda_twin_launch(t, K_HORZ, (g->wd + T - 1) / T, g->hd, nj, T, 1, 1, 0, f, &px);
    if (!err)
        err = ls_cuda_twin_launch(t, K_MEANV, (g->wd + T - 1) / T, g->hd, nj, T, 1, 1, 0, f, &px);
    if (!err)
        err = ls_cuda_twin_launch(t, K_RESID, (g->wd + T - 1) / T, g->hd, nj, T, 1, 1, 0, f, &px);
    if (!err)
        err = ls_cuda_twin_mark(t, f);
    if (!err)
        err = ls_cuda_twin_launch(t, K_COV, LS_SPEED_COV_BLOCKS, nj, 1, LS_SPEED_COV_THREADS, 1, 1, 0,
                                  f, &st);
    if (!err)
        err = ls_cuda_twin_launch(t, K_LINALG, nj, 2, 1, LS_SPEED_SOLVE_THREADS, 1, 1, 0, f, &st);
    if (!err)
        err = ls_cuda_twin_launch(t, K_VAR, (g->nb + T - 1) / T, nj, 1, T, 1, 1, 0, f, &st);
    const LsCudaApi *cu = t->dev.cu;
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, d->res[s], result_bytes(g), f->stream));
    d->job[s].result = result;
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(d->ready[s], f->stream));
    if (!err)
        err = CHECK_CU(cu, cuStreamWaitEvent(d->side[s], d->ready[s], 0));
    if (!err)
        err = CHECK_CU(cu, cuLaunchHostFunc(d->side[s], score_on_host, &d->job[s]));
    if (!err)
        err = CHECK_CU(cu, cuEventRecord(d->scored[s], d->side[s]));
    return err;
}

/* The score of the plane pair of jobs j (reference) and j + 1 (distorted), the CPU's way. */
static float pair_score(const SpeedDevice *d, const void *result, unsigned j, float *const ent[2],
                        bool *err)
{
    const LsSpeedGeometry *g = d->geom;
    const LsSpeedParams *p = d->params;
    const float *head = result;
    const float *var = head + LS_SPEED_MAX_JOBS * LS_SPEED_HEADER_FLOATS;
    LsSpeedStats st[2];
    for (unsigned side = 0; side < 2; side++) {
        const float *h = head + (j + side) * LS_SPEED_HEADER_FLOATS;
        int32_t singular;
        memcpy(st[side].lambda, h, sizeof(st[side].lambda));
        memcpy(&singular, h + LS_SPEED_SINGULAR, sizeof(singular));
        st[side].singular = singular != 0;
        st[side].var = (float *)(var + (size_t)(j + side) * g->nb);
        st[side].ent = ent[side];
        for (unsigned b = 0; b < g->nb; b++)
            st[side].ent[b] = ls_speed_entropy(st[side].lambda, st[side].var[b], p->sigma_nn);
    }
    *err = st[0].singular || st[1].singular;
    return ls_speed_plane_score(&st[0], &st[1], g->nb, p->mode, p->sigma_nn, p->nn_floor);
}

static double host_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void score_on_host(void *job)
{
    SpeedScore *sc = job;
    SpeedDevice *d = (SpeedDevice *)sc->d;
    const double t0 = d->timing ? host_now_ms() : 0.0;
    for (unsigned pl = 0; pl < sc->d->n_pairs; pl++)
        sc->score[pl] = pair_score(sc->d, sc->result, 2 * pl, sc->ent, &sc->err[pl]);
    if (d->timing) {
        d->host_ms += host_now_ms() - t0;
        d->host_frames++;
    }
}

/* The scores of the frame whose results are `result` (a slot's), once its host function ran. */
static const SpeedScore *device_scores(SpeedDevice *d, const LsCudaTwin *t, const void *result,
                                       int *err)
{
    unsigned s = 0;
    while (s + 1 < LS_CUDA_SLOTS && t->slot[s].result != result)
        s++;
    *err = CHECK_CU(t->dev.cu, cuEventSynchronize(d->scored[s]));
    return &d->job[s];
}

static int device_init(SpeedDevice *d, const LsSpeedParams *p, const LsSpeedGeometry *g,
                       unsigned n_jobs)
{
    memset(d, 0, sizeof(*d));
    d->params = p;
    d->geom = g;
    d->n_jobs = n_jobs;
    d->n_pairs = n_jobs / 2;
    for (unsigned s = 0; s < LS_CUDA_SLOTS; s++) {
        d->job[s].d = d;
        for (int side = 0; side < 2; side++)
            if (!(d->job[s].ent[side] = malloc((g->nb ? g->nb : 1) * sizeof(float))))
                return -ENOMEM;
    }
    return 0;
}

/* After the twin's release (every frame done): the side streams and events, then the memory. */
static void device_free(SpeedDevice *d)
{
    if (d->timing && d->host_frames)
        fprintf(stderr, "lockstep cuda timing %s host scoring: %u frames, %u blocks a plane: "
                "%.3f ms a frame on the driver's host-function thread\n", d->name, d->host_frames,
                d->geom->nb, d->host_ms / d->host_frames);
    if (d->own_open && !ls_cuda_push(&d->own)) {
        const LsCudaApi *cu = d->own.cu;
        for (unsigned s = 0; s < LS_CUDA_SLOTS; s++) {
            if (d->side[s])
                CHECK_CU(cu, cuStreamSynchronize(d->side[s]));
            if (d->scored[s])
                CHECK_CU(cu, cuEventDestroy(d->scored[s]));
            if (d->ready[s])
                CHECK_CU(cu, cuEventDestroy(d->ready[s]));
            if (d->side[s])
                CHECK_CU(cu, cuStreamDestroy(d->side[s]));
        }
        ls_cuda_pop(&d->own);
    }
    if (d->own_open)
        ls_cuda_device_close(&d->own);
    d->own_open = 0;
    for (unsigned s = 0; s < LS_CUDA_SLOTS; s++) {
        d->side[s] = NULL;
        d->ready[s] = d->scored[s] = NULL;
        for (int side = 0; side < 2; side++) {
            free(d->job[s].ent[side]);
            d->job[s].ent[side] = NULL;
        }
    }
}

/* ---- speed_chroma ---- */

typedef struct SpeedChromaCudaPriv {
    LsSpeedChromaOptions opt; /* first: the CPU's option table points here */
    LsSpeedChromaState state;
    SpeedDevice dev;
    LsCudaTwinDesc desc;
    LsCudaTwin twin;
} SpeedChromaCudaPriv;

static int chroma_setup(LsFex *fex, LsCudaTwin *t)
{
    SpeedChromaCudaPriv *p = fex->priv;
    return device_setup(&p->dev, t, fex->gpu_index);
}

static int chroma_enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    SpeedChromaCudaPriv *p = fex->priv;
    /* U first, then V; reference then distorted */
    const CUdeviceptr a[4] = { f->ref[1], f->dis[1], f->ref[2], f->dis[2] };
    const CUdeviceptr b[4] = { 0, 0, 0, 0 };
    const unsigned stride = (unsigned)(f->layout->row_bytes[1] / f->layout->bytes_per_sample);
    return device_enqueue(&p->dev, t, f, a, b, stride, result);
}

static int chroma_collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    SpeedChromaCudaPriv *p = fex->priv;
    int err;
    const SpeedScore *sc = device_scores(&p->dev, &p->twin, result, &err);
    if (err)
        return err;
    float s[2] = { sc->score[0], sc->score[1] };
    bool bad[2] = { sc->err[0], sc->err[1] };
    return ls_speed_chroma_write(&p->state, p->opt.speed_max_val, s, bad, index, fc);
}

static void chroma_teardown(LsFex *fex)
{
    SpeedChromaCudaPriv *p = fex->priv;
    device_free(&p->dev);
    ls_speed_geometry_close(&p->state.geom);
}

static const LsCudaTwinDesc chroma_twin = {
    .name = "speed_chroma",
    .fatbin = ls_cuda_fatbin_speed,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .twin_offset = offsetof(SpeedChromaCudaPriv, twin),
    .stage_name = { "residuals", "statistics" },
    .setup = chroma_setup,
    .enqueue = chroma_enqueue,
    .collect = chroma_collect,
    .teardown = chroma_teardown,
};

static int speed_chroma_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                  unsigned h)
{
    SpeedChromaCudaPriv *p = fex->priv;
    int err = ls_speed_chroma_state_init(&p->state, &p->opt, fex, fmt, bpc, w, h);
    if (!err)
        err = device_check(fex, "speed_chroma", &p->state.params, &p->state.geom);
    if (!err)
        err = device_init(&p->dev, &p->state.params, &p->state.geom, 4);
    if (err) {
        device_free(&p->dev);
        ls_speed_geometry_close(&p->state.geom);
        return err;
    }
    /* the result size is the geometry's: the instance's own copy of the descriptor */
    p->desc = chroma_twin;
    p->desc.result_bytes = result_bytes(&p->state.geom);
    return ls_cuda_twin_open(&p->twin, fex, &p->desc, fmt, bpc, w, h, 3);
}

const LsExtractor ls_fex_speed_chroma_cuda = {
    .name = "speed_chroma_cuda",
    .options = ls_speed_chroma_options,
    .priv_size = sizeof(SpeedChromaCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_speed_chroma,
    .init = speed_chroma_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(chroma_twin),
};

/* ---- speed_temporal ---- */

typedef struct SpeedTemporalCudaPriv {
    LsSpeedTemporalOptions opt; /* first: the CPU's option table points here */
    LsSpeedTemporalState state;
    SpeedDevice dev;
    size_t plane_bytes;
    CUdeviceptr luma[2][2]; /* [frame index % 2][reference, distorted] */
    LsCudaTwinDesc desc;
    LsCudaTwin twin;
} SpeedTemporalCudaPriv;

static int temporal_setup(LsFex *fex, LsCudaTwin *t)
{
    SpeedTemporalCudaPriv *p = fex->priv;
    int err = device_setup(&p->dev, t, fex->gpu_index);
    for (unsigned i = 0; i < 4 && !err; i++)
        err = ls_cuda_twin_alloc(t, &p->luma[i / 2][i % 2], p->plane_bytes);
    return err;
}

static int temporal_enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    SpeedTemporalCudaPriv *p = fex->priv;
    const LsCudaApi *cu = t->dev.cu;
    /* the previous luma was written by the previous frame's work, on another stream */
    int err = ls_cuda_twin_after_previous(t, f);
    if (!err && f->index > 0) {
        const CUdeviceptr *prev = p->luma[(f->index - 1) % 2];
        /* previous minus current (§8); speed_use_ref_diff: the distorted side's current is the
         * reference */
        const CUdeviceptr a[2] = { prev[0], prev[1] };
        const CUdeviceptr b[2] = { f->ref[0], p->opt.speed_use_ref_diff ? f->ref[0] : f->dis[0] };
        const unsigned stride =
            (unsigned)(f->layout->row_bytes[0] / f->layout->bytes_per_sample);
        err = device_enqueue(&p->dev, t, f, a, b, stride, result);
    }
    CUdeviceptr *keep = p->luma[f->index % 2];
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoDAsync(keep[0], f->ref[0], p->plane_bytes, f->stream));
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoDAsync(keep[1], f->dis[0], p->plane_bytes, f->stream));
    return err;
}

static int temporal_collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    SpeedTemporalCudaPriv *p = fex->priv;
    double score = 0.0;
    if (index > 0) {
        int err;
        const SpeedScore *sc = device_scores(&p->dev, &p->twin, result, &err);
        if (err)
            return err;
        score = (double)sc->score[0]; /* never capped (§1.2) */
    }
    return ls_collector_append(fc, p->state.name, score, index);
}

static void temporal_teardown(LsFex *fex)
{
    SpeedTemporalCudaPriv *p = fex->priv;
    device_free(&p->dev);
    ls_speed_geometry_close(&p->state.geom);
}

static const LsCudaTwinDesc temporal_twin = {
    .name = "speed_temporal",
    .fatbin = ls_cuda_fatbin_speed,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .twin_offset = offsetof(SpeedTemporalCudaPriv, twin),
    .stage_name = { "residuals", "statistics" },
    .setup = temporal_setup,
    .enqueue = temporal_enqueue,
    .collect = temporal_collect,
    .teardown = temporal_teardown,
};

static int speed_temporal_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc,
                                    unsigned w, unsigned h)
{
    SpeedTemporalCudaPriv *p = fex->priv;
    int err = ls_speed_temporal_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (!err)
        err = device_check(fex, "speed_temporal", &p->state.params, &p->state.geom);
    if (!err)
        err = device_init(&p->dev, &p->state.params, &p->state.geom, 2);
    if (err) {
        device_free(&p->dev);
        ls_speed_geometry_close(&p->state.geom);
        return err;
    }
    fex->n_planes_read = 1;
    p->plane_bytes = (size_t)w * h * (bpc > 8 ? 2 : 1);
    p->desc = temporal_twin;
    p->desc.result_bytes = result_bytes(&p->state.geom);
    return ls_cuda_twin_open(&p->twin, fex, &p->desc, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_speed_temporal_cuda = {
    .name = "speed_temporal_cuda",
    .options = ls_speed_temporal_options,
    .priv_size = sizeof(SpeedTemporalCudaPriv),
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_speed_temporal,
    .init = speed_temporal_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(temporal_twin),
};
