/* adm on OpenCL: the twin of ls_fex_adm. The device runs the four scales and returns each scale's
 * integer sums (LsAdmScaleSums); the float steps and the scores are the CPU's own
 * (ls_adm_write_scores). */
#include <stddef.h>
#include <string.h>

#include "feature/adm.h"
#include "opencl/adm_params.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_DWT0, K_DWT123, K_ANALYSE, K_ROWS, K_REDUCE, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_adm_dwt0", "ls_adm_dwt123", "ls_adm_analyse",
                                                   "ls_adm_rows", "ls_reduce_partials" };

typedef struct AdmOpenclPriv {
    LsAdmOptions opt; /* first: the CPU's option table points here */
    LsAdmState state;
    LsClTwin twin;
    cl_mem sub_params[LS_ADM_SCALES];  /* per scale: LS_ADM_CL_NP int32 */
    cl_mem sub_offsets[LS_ADM_SCALES]; /* per scale: LS_ADM_CL_NO uint64 plane offsets */
    cl_mem block[LS_CL_SLOTS];     /* every plane of every scale */
    cl_mem partial[LS_CL_SLOTS];   /* per scale: rows x 9 int64 */
    size_t partial_off[LS_ADM_SCALES];
    cl_ulong offs[LS_ADM_SCALES][LS_ADM_CL_NO];
    cl_int prm[LS_ADM_SCALES][LS_ADM_CL_NP];
} AdmOpenclPriv;

#define RESULT_BYTES (LS_ADM_SCALES * 9 * sizeof(cl_long))

/* The planes of every scale, 256-byte aligned, as in src/cuda/adm.c; returns the block size. */
static size_t carve(AdmOpenclPriv *p)
{
    const LsAdmSetup *su = &p->state.setup;
    size_t off = 0;
#define TAKE(slot, bytes)                                                                          \
    do {                                                                                           \
        (slot) = off;                                                                              \
        off += ((size_t)(bytes) + 255) & ~(size_t)255;                                             \
    } while (0)
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        const LsAdmScale *sc = &su->scale[k];
        const size_t n = (size_t)sc->w * sc->h;
        const size_t elem = k == 0 ? sizeof(cl_short) : sizeof(cl_int);
        cl_ulong *o = p->offs[k];
        for (int img = 0; img < 2; img++) {
            if (k + 1 < LS_ADM_SCALES)
                TAKE(o[LS_ADM_O_APPROX + img], n * sizeof(cl_int));
            for (int b = 0; b < 3; b++)
                TAKE(o[LS_ADM_O_BAND + 3 * img + b], n * elem);
        }
        for (int b = 0; b < 3; b++) {
            TAKE(o[LS_ADM_O_R + b], n * elem);
            TAKE(o[LS_ADM_O_A + b], n * elem);
        }
        TAKE(o[LS_ADM_O_F_DLM], n * sizeof(cl_int));
        TAKE(o[LS_ADM_O_M_DLM], n * sizeof(cl_int));
        TAKE(o[LS_ADM_O_F_AIM], n * sizeof(cl_int));
        TAKE(o[LS_ADM_O_M_AIM], n * sizeof(cl_int));
    }
#undef TAKE
    return off;
}

static void fill_params(AdmOpenclPriv *p)
{
    const LsAdmState *st = &p->state;
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        const LsAdmScale *sc = &st->setup.scale[k];
        cl_int *q = p->prm[k];
        q[LS_ADM_P_WI] = sc->wi;
        q[LS_ADM_P_HI] = sc->hi;
        q[LS_ADM_P_W] = sc->w;
        q[LS_ADM_P_H] = sc->h;
        q[LS_ADM_P_R0] = sc->r0;
        q[LS_ADM_P_R1] = sc->r1;
        q[LS_ADM_P_C0] = sc->c0;
        q[LS_ADM_P_C1] = sc->c1;
        q[LS_ADM_P_L] = sc->L;
        q[LS_ADM_P_R] = sc->R;
        q[LS_ADM_P_T] = sc->T;
        q[LS_ADM_P_B] = sc->B;
        for (int b = 0; b < 3; b++) {
            q[LS_ADM_P_I32 + b] = (cl_int)sc->i32[b];
            q[LS_ADM_P_I16 + b] = sc->i16[b];
            q[LS_ADM_P_CM_CS + b] = (cl_int)sc->cm_cs[b];
            q[LS_ADM_P_CM_CR + b] = (cl_int)sc->cm_cr[b];
        }
        q[LS_ADM_P_CM_RS] = (cl_int)sc->cm_rs;
        q[LS_ADM_P_CM_RR] = (cl_int)sc->cm_rr;
        q[LS_ADM_P_DEN_CS] = (cl_int)sc->den_cs;
        q[LS_ADM_P_DEN_CR] = (cl_int)sc->den_cr;
        q[LS_ADM_P_DEN_RS] = (cl_int)sc->den_rs;
        q[LS_ADM_P_DEN_RR] = (cl_int)sc->den_rr;
        q[LS_ADM_P_DEN_SQ] = sc->den_sq;
        q[LS_ADM_P_DETAILS] = !(k == 0 && st->opt.adm_skip_scale0);
        q[LS_ADM_P_APPROX] = k + 1 < LS_ADM_SCALES;
    }
}

static int setup(LsFex *fex, LsClTwin *t)
{
    AdmOpenclPriv *p = fex->priv;
    const size_t bytes = carve(p);
    fill_params(p);
    size_t n_partial = 0;
    for (int k = 0; k < LS_ADM_SCALES; k++) {
        const LsAdmScale *sc = &p->state.setup.scale[k];
        p->partial_off[k] = n_partial;
        n_partial += (size_t)(sc->B > sc->T ? sc->B - sc->T : 0) * 9;
    }
    int ret = 0;
    /* one small table per scale (a buffer each: kernels take the scale's rows as their base) */
    for (int k = 0; k < LS_ADM_SCALES && ret >= 0; k++) {
        ret = ls_cl_twin_upload(t, &p->sub_params[k], p->prm[k], sizeof(p->prm[k]));
        if (ret >= 0)
            ret = ls_cl_twin_upload(t, &p->sub_offsets[k], p->offs[k], sizeof(p->offs[k]));
    }
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->block[i], bytes);
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->partial[i],
                                   (n_partial ? n_partial : 1) * sizeof(cl_long));
    }
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    AdmOpenclPriv *p = fex->priv;
    const LsAdmState *st = &p->state;
    const LsAdmOptions *o = &st->opt;
    const cl_mem block = p->block[f->slot], partial = p->partial[f->slot];
    const cl_int do_aim = !o->adm_skip_aim, bpc = st->bpc;
    cl_ulong egl;
    memcpy(&egl, &o->adm_enhn_gain_limit, sizeof(egl)); /* ls_f64's bits */
    const size_t local[3] = { t->dev->wg, 1, 1 };
    int ret = 0;
    for (int k = 0; k < LS_ADM_SCALES && ret >= 0; k++) {
        const LsAdmScale *sc = &st->setup.scale[k];
        const cl_int scale = k;
        const size_t dwt[3] = { (size_t)sc->w, (size_t)sc->h, 2 };
        if (k == 0)
            ret = LS_CL_LAUNCH(t, f, K_DWT0, 3, dwt, local, LS_CL_A(f->input), LS_CL_A(f->ref[0]),
                               LS_CL_A(f->dis[0]), LS_CL_A(block), LS_CL_A(p->sub_offsets[0]),
                               LS_CL_A(p->sub_params[0]), LS_CL_A(bpc));
        else
            ret = LS_CL_LAUNCH(t, f, K_DWT123, 3, dwt, local, LS_CL_A(block),
                               LS_CL_A(p->sub_offsets[k]), LS_CL_A(p->sub_offsets[k - 1]),
                               LS_CL_A(p->sub_params[k]), LS_CL_A(scale));
        if (ret < 0 || !p->prm[k][LS_ADM_P_DETAILS])
            continue;
        const size_t an[2] = { (size_t)(sc->c1 - sc->c0), (size_t)(sc->r1 - sc->r0) };
        ret = LS_CL_LAUNCH(t, f, K_ANALYSE, 2, an, local, LS_CL_A(block),
                           LS_CL_A(p->sub_offsets[k]), LS_CL_A(p->sub_params[k]), LS_CL_A(scale),
                           LS_CL_A(do_aim), LS_CL_A(egl));
        if (ret < 0 || sc->B <= sc->T)
            continue;
        const cl_ulong part_off = p->partial_off[k];
        const size_t rows = (size_t)(sc->B - sc->T) * local[0];
        ret = LS_CL_LAUNCH(t, f, K_ROWS, 1, &rows, local, LS_CL_A(block),
                           LS_CL_A(p->sub_offsets[k]), LS_CL_A(p->sub_params[k]), LS_CL_A(scale),
                           LS_CL_A(do_aim), LS_CL_A(partial), LS_CL_A(part_off));
        if (ret >= 0) {
            const cl_uint n_parts = (cl_uint)(sc->B - sc->T), n_values = 9, out_index = 9 * k;
            const size_t rglobal = 9 * local[0];
            ret = LS_CL_LAUNCH(t, f, K_REDUCE, 1, &rglobal, local, LS_CL_A(partial),
                               LS_CL_A(part_off), LS_CL_A(n_parts), LS_CL_A(n_values),
                               LS_CL_A(f->result), LS_CL_A(out_index));
        }
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    AdmOpenclPriv *p = fex->priv;
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

static const LsClTwinDesc adm_twin = {
    .name = "adm",
    .source = &ls_cl_source_adm,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .wg_kernels = (1u << K_ROWS) | (1u << K_REDUCE),
    .result_bytes = RESULT_BYTES,
    .twin_offset = offsetof(AdmOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int adm_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                           unsigned h)
{
    AdmOpenclPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_adm_state_init(fex, &p->state, &p->opt, bpc, w, h);
    if (err)
        return err;
    return ls_cl_twin_open(&p->twin, fex, &adm_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_adm_opencl = {
    .name = "adm_opencl",
    .options = ls_adm_options,
    .priv_size = sizeof(AdmOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_adm,
    .init = adm_opencl_init,
    LS_CL_TWIN_EXTRACTOR(adm_twin),
};
