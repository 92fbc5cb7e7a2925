/* float_adm on CUDA: the twin of ls_fex_float_adm. The device runs the four scales and adds the
 * nine float chains of each in the CPU's order; the 36 floats go to the CPU's finish. Its
 * approximate reciprocal is the host's instruction sampled into a table at init (core/rcp.h), so
 * the twin returns what this host's CPU returns, Intel or AMD. adm_p_norm other than 3 (glibc's
 * powf per term) runs on the CPU: init says -ENOTSUP and the context logs it. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/rcp.h"
#include "cuda/extractors.h"
#include "cuda/float_cuda.h"
#include "cuda/twin.h"
#include "feature/float_adm.h"

extern const unsigned char ls_cuda_fatbin_float_adm[];

enum { K_DWT, K_ANALYSE, K_TERMS, K_ROWS, K_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_adm_dwt", "ls_float_adm_analyse",
                                                   "ls_float_adm_terms", "ls_row_chain_rows",
                                                   "ls_row_chain_total" };

#define RCP_MAX_BITS 16 /* ls_fadm_rcp_table's size in float_adm.cu */

typedef struct ScalePlanes {
    CUdeviceptr approx[2], band[2][3];
    CUdeviceptr c_a[3], f_a[3], c_r[3], f_r[3], terms[9];
} ScalePlanes;

typedef struct FloatAdmCudaPriv {
    LsFloatAdmOptions opt; /* first: the CPU's option table points here */
    LsFloatAdmState state;
    LsCudaTwin twin;
    ScalePlanes planes[LS_CUDA_SLOTS][LS_FLOAT_ADM_SCALES];
    CUdeviceptr rows[LS_CUDA_SLOTS], sums[LS_CUDA_SLOTS]; /* sums: [scale][9] floats */
} FloatAdmCudaPriv;

#define SUMS_BYTES (LS_FLOAT_ADM_SCALES * LS_FLOAT_ADM_ACC * sizeof(float))

static size_t carve(const FloatAdmCudaPriv *p, ScalePlanes *sp, CUdeviceptr base)
{
    size_t off = 0;
#define TAKE(ptr, n)                                                                               \
    do {                                                                                           \
        (ptr) = base ? base + off : 0;                                                             \
        off += ((size_t)(n) * sizeof(float) + 255) & ~(size_t)255;                                 \
    } while (0)
    int w = (int)p->state.w, h = (int)p->state.h;
    for (int s = 0; s < LS_FLOAT_ADM_SCALES; s++) {
        const int bw = (w + 1) / 2, bh = (h + 1) / 2;
        const size_t n = (size_t)bw * bh;
        for (int img = 0; img < 2; img++) {
            if (s + 1 < LS_FLOAT_ADM_SCALES)
                TAKE(sp[s].approx[img], n);
            else
                sp[s].approx[img] = 0;
            for (int b = 0; b < 3; b++)
                TAKE(sp[s].band[img][b], n);
        }
        for (int b = 0; b < 3; b++) {
            TAKE(sp[s].c_a[b], n);
            TAKE(sp[s].f_a[b], n);
            TAKE(sp[s].c_r[b], n);
            TAKE(sp[s].f_r[b], n);
        }
        for (int b = 0; b < 9; b++)
            TAKE(sp[s].terms[b], n);
        w = bw;
        h = bh;
    }
#undef TAKE
    return off;
}

static int setup(LsFex *fex, LsCudaTwin *t)
{
    FloatAdmCudaPriv *p = fex->priv;
    int err = 0;
#if LS_RCP_MODE != LS_RCP_DIVIDE
    const unsigned bits = ls_rcp_table_bits();
    if (bits > RCP_MAX_BITS)
        return ls_fex_error(fex, "float_adm (cuda): this CPU's reciprocal needs a %u-bit table",
                            bits), -ENOTSUP;
    ls_u32 *table = malloc(((size_t)1 << bits) * sizeof(*table));
    if (!table)
        return -ENOMEM;
    ls_rcp_table(table, bits);
    err = ls_cuda_twin_set_global(t, "ls_fadm_rcp_table", table, ((size_t)1 << bits) * sizeof(*table));
    free(table);
    if (!err)
        err = ls_cuda_twin_set_global(t, "ls_fadm_rcp_bits", &bits, sizeof(bits));
#endif
    const size_t bytes = carve(p, p->planes[0], 0);
    const unsigned bh0 = (p->state.h + 1) / 2;
    for (unsigned i = 0; i < LS_CUDA_SLOTS && !err; i++) {
        CUdeviceptr block;
        if (!(err = ls_cuda_twin_alloc(t, &block, bytes)))
            carve(p, p->planes[i], block);
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->rows[i], 9 * (size_t)bh0 * sizeof(float));
        if (!err)
            err = ls_cuda_twin_alloc(t, &p->sums[i], SUMS_BYTES);
    }
    return err;
}

static int enqueue(LsFex *fex, LsCudaTwin *t, const LsCudaFrame *f, void *result)
{
    FloatAdmCudaPriv *p = fex->priv;
    const LsFloatAdmState *s = &p->state;
    const ScalePlanes *sp = p->planes[f->slot];
    const unsigned th = LS_FLOAT_THREADS, rows_per_block = 32 * LS_ROW_CHAIN_WARPS;
    int err = CHECK_CU(t->dev.cu, cuMemsetD8Async(p->sums[f->slot], 0, SUMS_BYTES, f->stream));
    int w = (int)s->w, h = (int)s->h;
    const unsigned bh0 = (s->h + 1) / 2;
    for (int sc = 0; sc < LS_FLOAT_ADM_SCALES && !err; sc++) {
        const int bw = (w + 1) / 2, bh = (h + 1) / 2;
        const int details = !(sc == 0 && s->opt.adm_skip_scale0);
        const LsFloatAdmRegion r = ls_float_adm_region(bw, bh);
        LsFloatAdmDwtArgs d = { .w = w, .h = h, .bw = bw, .bh = bh, .bpc = sc ? 0 : (int)s->bpc,
                                .left = r.left, .top = r.top, .right = r.right,
                                .bottom = r.bottom };
        for (int img = 0; img < 2; img++) {
            d.src[img] = sc ? sp[sc - 1].approx[img] : (img ? f->dis[0] : f->ref[0]);
            d.approx[img] = sp[sc].approx[img];
            for (int b = 0; b < 3; b++)
                d.band[img][b] = details ? sp[sc].band[img][b] : 0;
        }
        err = ls_cuda_twin_launch(t, K_DWT, ((unsigned)bw + th - 1) / th, (unsigned)bh, 2, th, 1,
                                  1, 0, f, &d);
        if (err || !details)
            goto next;
        const float factor[3] = { s->f1[sc], s->f1[sc], s->f2[sc] };
        LsFloatAdmAnalyseArgs an = { .gain_limit = s->opt.adm_enhn_gain_limit, .bw = bw,
                                     .left = r.left, .top = r.top, .right = r.right,
                                     .bottom = r.bottom };
        LsFloatAdmTermsArgs ta = { .bw = bw, .bh = bh, .L = r.L, .T = r.T, .Rt = r.Rt, .B = r.B,
                                   .bypass = s->opt.adm_bypass_cm };
        for (int b = 0; b < 3; b++) {
            an.o[b] = ta.o[b] = sp[sc].band[0][b];
            an.t[b] = sp[sc].band[1][b];
            an.c_a[b] = ta.c_a[b] = sp[sc].c_a[b];
            an.f_a[b] = ta.f_a[b] = sp[sc].f_a[b];
            an.c_r[b] = ta.c_r[b] = sp[sc].c_r[b];
            an.f_r[b] = ta.f_r[b] = sp[sc].f_r[b];
            an.factor[b] = ta.factor[b] = factor[b];
        }
        for (int b = 0; b < 9; b++)
            ta.terms[b] = sp[sc].terms[b];
        if (r.right > r.left && r.bottom > r.top)
            err = ls_cuda_twin_launch(t, K_ANALYSE, ((unsigned)(r.right - r.left) + th - 1) / th,
                                      (unsigned)(r.bottom - r.top), 1, th, 1, 1, 0, f, &an);
        if (!err && r.Rt > r.L && r.B > r.T) {
            err = ls_cuda_twin_launch(t, K_TERMS, ((unsigned)(r.Rt - r.L) + th - 1) / th,
                                      (unsigned)(r.B - r.T), 1, th, 1, 1, 0, f, &ta);
            LsRowChainArgs ra = { .rows = p->rows[f->slot],
                                  .out = p->sums[f->slot] + (size_t)sc * LS_FLOAT_ADM_ACC * sizeof(float),
                                  .stride = (uint32_t)bw, .stride_rows = bh0, .c0 = (uint32_t)r.L,
                                  .c1 = (uint32_t)r.Rt, .r0 = (uint32_t)r.T, .r1 = (uint32_t)r.B,
                                  .n_seq = 9 };
            for (int b = 0; b < 9; b++)
                ra.plane[b] = sp[sc].terms[b];
            if (!err)
                err = ls_cuda_twin_launch(t, K_ROWS,
                                          ((unsigned)(r.B - r.T) + rows_per_block - 1) / rows_per_block,
                                          9, 1, rows_per_block, 1, 1, 0, f, &ra);
            if (!err)
                err = ls_cuda_twin_launch(t, K_TOTAL, 1, 1, 1, 32, 1, 1, 0, f, &ra);
        }
    next:
        if (!err && sc == 0)
            err = ls_cuda_twin_mark(t, f);
        w = bw;
        h = bh;
    }
    if (!err)
        err = CHECK_CU(t->dev.cu, cuMemcpyDtoHAsync(result, p->sums[f->slot], SUMS_BYTES,
                                                    f->stream));
    return err;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatAdmCudaPriv *p = fex->priv;
    return ls_float_adm_write_accumulators(&p->state, result, index, fc);
}

static const LsCudaTwinDesc float_adm_twin = {
    .name = "float_adm",
    .fatbin = ls_cuda_fatbin_float_adm,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = SUMS_BYTES,
    .twin_offset = offsetof(FloatAdmCudaPriv, twin),
    .stage_name = { "scale 0", "scales 1-3" },
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
};

static int float_adm_cuda_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                               unsigned h)
{
    FloatAdmCudaPriv *p = fex->priv;
    int err = ls_float_adm_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    if ((err = ls_float_adm_twin_supported(&p->state, fex)) < 0)
        return err;
    return ls_cuda_twin_open(&p->twin, fex, &float_adm_twin, fmt, bpc, w, h, 1);
}

const LsExtractor ls_fex_float_adm_cuda = {
    .name = "float_adm_cuda",
    .options = ls_float_adm_options,
    .priv_size = sizeof(FloatAdmCudaPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_adm,
    .init = float_adm_cuda_init,
    LS_CUDA_TWIN_EXTRACTOR(float_adm_twin),
};
