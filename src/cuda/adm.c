/* adm on CUDA: the twin of ls_fex_adm. The device runs the four scales and returns each scale's
 * integer sums (LsAdmScaleSums); the float steps and the scores are the CPU's own
 * (ls_adm_write_scores). */
#include <stddef.h>
#include <string.h>

#include "cuda/adm_cuda.h"
#include "cuda/extractors.h"
#include "cuda/twin.h"
#include "feature/adm.h"

extern const unsigned char ls_cuda_fatbin_adm[];

enum { K_DWT0, K_DWT123, K_ANALYSE, K_ROWS, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_adm_dwt0", "ls_adm_dwt123",
                                                   "ls_adm_analyse", "ls_adm_rows" };

/* One scale's device planes, carved from the slot's block. */
typedef struct ScalePlanes {
    CUdeviceptr approx[2];        /* the next scale's input (int32); 0 at scale 3 */
    CUdeviceptr band[2][3];       /* details of reference and distorted */
    CUdeviceptr r[3], a[3];
    CUdeviceptr f_dlm, m_dlm, f_aim, m_aim;
} ScalePlanes;

typedef struct AdmCudaPriv {
    LsAdmOptions opt; /* first: the CPU's option table points here */
    LsAdmState state;
    LsCudaTwin twin;
    ScalePlanes planes[LS_CUDA_SLOTS][LS_ADM_SCALES];
    CUdeviceptr sums[LS_CUDA_SLOTS]; /* LS_ADM_SCALES x 9 x 64-bit */
} AdmCudaPriv;

#define SUMS_BYTES (LS_ADM_SCALES * 9 * sizeof(uint64_t))

static size_t carve(AdmCudaPriv *p, ScalePlanes *sp, CUdeviceptr base)
{
    const LsAdmSetup *su = &p->state.setup;
    size_t off = 0;
#define TAKE(ptr, bytes)                                                                           \
    do {                                                                                           \
        (ptr) = base ? base + off : 0;                                                             \
        off += ((size_t)(bytes) + 255) & ~(size_t)255;                                             \
    } while (0)
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        const LsAdmScale *sc = &su->scale[k];
        const size_t n = (size_t)sc->w * sc->h;
        const size_t elem = k == 0 ? sizeof(int16_t) : sizeof(int32_t);
        for (int img = 0; img < 2; img++) {
            if (k + 1 < LS_ADM_SCALES)
                TAKE(sp[k].approx[img], n * sizeof(int32_t));
            else
                sp[k].approx[img] = 0;
            for (int b = 0; b < 3; b++)
                TAKE(sp[k].band[img][b], n * elem);
        }
        for (int b = 0; b < 3; b++) {
            TAKE(sp[k].r[b], n * elem);
            TAKE(sp[k].a[b], n * elem);
        }
        TAKE(sp[k].f_dlm, n * sizeof(int32_t));
        TAKE(sp[k].m_dlm, n * sizeof(int32_t));
        TAKE(sp[k].f_aim, n * sizeof(int32_t));
        TAKE(sp[k].m_aim, n * sizeof(int32_t));
    }
#undef TAKE
    return off;
}

static int setup(LsFex *fex, LsCudaTwin *t)
{
    AdmCudaPriv *p = fex->priv;
    const size_t bytes = carve(p, p->planes[0], 0);
    int err = 0;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        CUdeviceptr block;
        if (!(err = ls_cuda_twin_alloc(t, &block, bytes)))
            carve(p, p->planes[i], block);
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->sums[i], SUMS_BYTES);
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    AdmCudaPriv *p = fex->priv;
    const LsAdmState *st = &p->state;
    const LsAdmOptions *o = &st->opt;
    const LsCudaApi *cu = t->dev.cu;
    const ScalePlanes *sp = p->planes[f->slot];
    const CUdeviceptr sums = p->sums[f->slot];
    const int do_aim = !o->adm_skip_aim;
    int err = CHECK_CU(cu, cuMemsetD8Async(sums, 0, SUMS_BYTES, f->stream));
    for (int k = 0; k < LS_ADM_SCALES && !err; k++) {
        const LsAdmScale *sc = &st->setup.scale[k];
        const int details = !(k == 0 && o->adm_skip_scale0);
        LsAdmDwtArgs d = { .wi = sc->wi, .hi = sc->hi, .w = sc->w, .h = sc->h, .r0 = sc->r0,
                           .r1 = sc->r1, .c0 = sc->c0, .c1 = sc->c1, .scale = k,
                           .bpc = (int32_t)st->bpc };
        for (int img = 0; img < 2; img++) {
            d.src[img] = k == 0 ? (img ? f->dis[0] : f->ref[0]) : sp[k - 1].approx[img];
            d.approx[img] = sp[k].approx[img];
            for (int b = 0; b < 3; b++)
                d.band[img][b] = details ? sp[k].band[img][b] : 0;
        }
        err = ls_cuda_twin_launch(t, k == 0 ? K_DWT0 : K_DWT123,
                                  ((unsigned)sc->w + LS_ADM_THREADS - 1) / LS_ADM_THREADS,
                                  (unsigned)sc->h, 2, LS_ADM_THREADS, 1, 1, 0, f, &d);
        if (err || !details)
            continue;
        LsAdmAnalyseArgs an = { .f_dlm = sp[k].f_dlm, .m_dlm = sp[k].m_dlm,
                                .f_aim = sp[k].f_aim, .m_aim = sp[k].m_aim,
                                .egl = o->adm_enhn_gain_limit, .w = sc->w, .r0 = sc->r0,
                                .r1 = sc->r1, .c0 = sc->c0, .c1 = sc->c1, .scale = k,
                                .do_aim = do_aim };
        LsAdmRowsArgs rw = { .f_dlm = sp[k].f_dlm, .m_dlm = sp[k].m_dlm, .f_aim = sp[k].f_aim,
                             .m_aim = sp[k].m_aim, .sums = sums + (size_t)k * 9 * sizeof(uint64_t),
                             .cm_rs = sc->cm_rs, .cm_rr = sc->cm_rr, .den_cs = sc->den_cs,
                             .den_cr = sc->den_cr, .den_rs = sc->den_rs, .den_rr = sc->den_rr,
                             .w = sc->w, .h = sc->h, .L = sc->L, .R = sc->R, .T = sc->T,
                             .scale = k, .do_aim = do_aim, .den_sq = sc->den_sq };
        for (int b = 0; b < 3; b++) {
            an.o[b] = rw.o[b] = sp[k].band[0][b];
            an.t[b] = sp[k].band[1][b];
            an.r[b] = rw.r[b] = sp[k].r[b];
            an.a[b] = rw.a[b] = sp[k].a[b];
            an.i32[b] = rw.i32[b] = sc->i32[b];
            an.i16[b] = rw.i16[b] = sc->i16[b];
            rw.cm_cs[b] = sc->cm_cs[b];
            rw.cm_cr[b] = sc->cm_cr[b];
        }
        err = ls_cuda_twin_launch(t, K_ANALYSE,
                                  ((unsigned)(sc->c1 - sc->c0) + LS_ADM_THREADS - 1) /
                                      LS_ADM_THREADS,
                                  (unsigned)(sc->r1 - sc->r0), 1, LS_ADM_THREADS, 1, 1, 0, f, &an);
        if (!err && sc->B > sc->T)
            err = ls_cuda_twin_launch(t, K_ROWS, (unsigned)(sc->B - sc->T), 1, 1,
                                      LS_ADM_ROW_THREADS, 1, 1, 0, f, &rw);
        if (!err && k == 0)
            err = ls_cuda_twin_mark(t, f);
    }
    if (!err)
        err = CHECK_CU(cu, cuMemcpyDtoHAsync(result, sums, SUMS_BYTES, f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    AdmCudaPriv *p = fex->priv;
    const uint64_t *v = result;
    LsAdmScaleSums sums[LS_ADM_SCALES];
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        for (int b = 0; b < 3; b++) {
            sums[k].num[b] = (int64_t)v[9 * k + b];
            sums[k].aim[b] = (int64_t)v[9 * k + 3 + b];
            sums[k].den[b] = v[9 * k + 6 + b];
        }
    }
    return ls_adm_write_scores(&p->state, sums, index, fc);
}

static const LsCudaTwinDesc adm_twin = {
    .name = "adm",
    .fatbin = ls_cuda_fatbin_adm,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = SUMS_BYTES,
    .twin_offset = offsetof(AdmCudaPriv, twin),
    .stage_name = { "scale 0", "scales 1-3" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int adm_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                         unsigned h)
{
    AdmCudaPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_adm_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cuda_twin_open(&p->twin, fex, &adm_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_adm_cuda = {
    .name = "adm_cuda",
    .options = ls_adm_options,
    .priv_size = sizeof(AdmCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_adm,
    .init = adm_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(adm_twin),
};
