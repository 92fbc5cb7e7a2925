/* float_adm on OpenCL: the twin of ls_fex_float_adm (the counterpart of src/cuda/float_adm.c).
 * The device runs the four scales, every binary64 step on core/soft_f64.h's emulation, and adds
 * the nine float chains of each in the CPU's order; the 36 floats go to the CPU's finish.
 *
 * The approximate reciprocal is this host's (core/rcp.h): at init the host samples it into a
 * table (ls_rcp_table, 2^ls_rcp_table_bits() entries, 2048 on Intel) and builds the program with
 * that table prepended as a __constant array, so the twin returns what this host's CPU returns,
 * Intel or AMD; the table's hash is part of the binary cache key. A host whose float_adm divides
 * (LOCKSTEP_RCP=divide) builds it dividing. adm_p_norm other than 3 (glibc's powf per term) runs
 * on the CPU: init says -ENOTSUP and the context logs it. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rcp.h"
#include "feature/float_adm.h"
#include "opencl/extractors.h"
#include "opencl/twin.h"

enum { K_DWT, K_ANALYSE, K_TERMS, K_ROWS, K_TOTAL, K_COUNT };
static const char *const kernel_names[K_COUNT] = { "ls_float_adm_dwt", "ls_float_adm_analyse",
                                                   "ls_float_adm_terms", "ls_row_chain_rows",
                                                   "ls_row_chain_total" };

#define ROW_CHAIN_TILE 64u  /* row_chain.clh's LS_RC_TILE */
#define RCP_MAX_BITS 14     /* 64 KB of __constant, OpenCL's minimum */
#define NONE (~(cl_ulong)0) /* float_adm.cl's LS_FADM_NONE */
#define SUMS_BYTES (LS_FLOAT_ADM_SCALES * LS_FLOAT_ADM_ACC * sizeof(cl_float))

/* float offsets of one scale's planes in a slot's buffer */
typedef struct ScaleLayout {
    int w, h, bw, bh;
    LsFloatAdmRegion r;
    cl_ulong plane, approx, band, csf, terms; /* approx: NONE at the last scale */
} ScaleLayout;

typedef struct FloatAdmOpenclPriv {
    LsFloatAdmOptions opt; /* first: the CPU's option table points here */
    LsFloatAdmState state;
    LsClTwin twin;
    LsClTwinDesc desc;     /* float_adm_twin with this host's program */
    LsClSource source;
    char *text, sha256[160];
    ScaleLayout scale[LS_FLOAT_ADM_SCALES];
    size_t mem_floats;
    cl_mem mem[LS_CL_SLOTS], rows[LS_CL_SLOTS];
} FloatAdmOpenclPriv;

static void plan(FloatAdmOpenclPriv *p)
{
    cl_ulong off = 0;
    int w = (int)p->state.w, h = (int)p->state.h;
    for (int s = 0; s < LS_FLOAT_ADM_SCALES; s++) {
        ScaleLayout *l = &p->scale[s];
        l->w = w;
        l->h = h;
        l->bw = (w + 1) / 2;
        l->bh = (h + 1) / 2;
        l->r = ls_float_adm_region(l->bw, l->bh);
        l->plane = (cl_ulong)l->bw * (cl_ulong)l->bh;
        l->approx = s + 1 < LS_FLOAT_ADM_SCALES ? off : NONE;
        off += s + 1 < LS_FLOAT_ADM_SCALES ? 2 * l->plane : 0;
        l->band = off;
        off += 6 * l->plane;
        l->csf = off;
        off += 12 * l->plane;
        l->terms = off;
        off += 9 * l->plane;
        w = l->bw;
        h = l->bh;
    }
    p->mem_floats = (size_t)off;
}

static int setup(LsFex *fex, LsClTwin *t)
{
    FloatAdmOpenclPriv *p = fex->priv;
    int ret = 0;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        ret = ls_cl_twin_alloc(t, &p->mem[i], p->mem_floats * sizeof(cl_float));
        if (ret >= 0)
            ret = ls_cl_twin_alloc(t, &p->rows[i],
                                   9 * (size_t)p->scale[0].bh * sizeof(cl_float));
    }
    return ret;
}

static int enqueue(LsFex *fex, LsClTwin *t, const LsClFrame *f)
{
    FloatAdmOpenclPriv *p = fex->priv;
    const LsFloatAdmState *s = &p->state;
    const cl_mem mem = p->mem[f->slot], rows = p->rows[f->slot];
    cl_ulong gain_limit;
    memcpy(&gain_limit, &s->opt.adm_enhn_gain_limit, sizeof(gain_limit)); /* ls_f64's bits */
    const cl_int bypass = s->opt.adm_bypass_cm;
    const cl_uint stride_rows = (cl_uint)p->scale[0].bh;
    const size_t local[3] = { 64, 1, 1 };
    int ret = 0;
    for (int sc = 0; sc < LS_FLOAT_ADM_SCALES && ret >= 0; sc++) {
        const ScaleLayout *l = &p->scale[sc];
        const LsFloatAdmRegion *r = &l->r;
        const int details = !(sc == 0 && s->opt.adm_skip_scale0);
        const cl_mem src = sc ? mem : f->input;
        const cl_ulong ref_off = sc ? p->scale[sc - 1].approx * sizeof(cl_float) : f->ref[0];
        const cl_ulong dis_off =
            sc ? (p->scale[sc - 1].approx + p->scale[sc - 1].plane) * sizeof(cl_float) : f->dis[0];
        const cl_int bpc = sc ? 0 : (cl_int)s->bpc;
        const cl_ulong band = details ? l->band : NONE;
        const size_t dwt[3] = { (size_t)l->bw, (size_t)l->bh, 2 };
        ret = LS_CL_LAUNCH(t, f, K_DWT, 3, dwt, local, LS_CL_A(src), LS_CL_A(ref_off),
                           LS_CL_A(src), LS_CL_A(dis_off), LS_CL_A(l->w), LS_CL_A(l->h),
                           LS_CL_A(bpc), LS_CL_A(mem), LS_CL_A(l->approx), LS_CL_A(band),
                           LS_CL_A(l->plane), LS_CL_A(l->bw), LS_CL_A(l->bh), LS_CL_A(r->left),
                           LS_CL_A(r->top), LS_CL_A(r->right), LS_CL_A(r->bottom));
        if (ret < 0 || !details)
            continue;
        cl_float4 factor;
        memset(&factor, 0, sizeof(factor));
        factor.s[0] = factor.s[1] = s->f1[sc];
        factor.s[2] = s->f2[sc];
        if (r->right > r->left && r->bottom > r->top) {
            const size_t global[2] = { (size_t)(r->right - r->left), (size_t)(r->bottom - r->top) };
            ret = LS_CL_LAUNCH(t, f, K_ANALYSE, 2, global, local, LS_CL_A(mem), LS_CL_A(l->band),
                               LS_CL_A(l->csf), LS_CL_A(l->plane), LS_CL_A(l->bw),
                               LS_CL_A(r->left), LS_CL_A(r->top), LS_CL_A(r->right),
                               LS_CL_A(r->bottom), LS_CL_A(gain_limit), LS_CL_A(factor));
        }
        if (ret < 0 || !(r->Rt > r->L && r->B > r->T))
            continue;
        const size_t global[2] = { (size_t)(r->Rt - r->L), (size_t)(r->B - r->T) };
        ret = LS_CL_LAUNCH(t, f, K_TERMS, 2, global, local, LS_CL_A(mem), LS_CL_A(l->band),
                           LS_CL_A(l->csf), LS_CL_A(l->terms), LS_CL_A(l->plane), LS_CL_A(l->bw),
                           LS_CL_A(l->bh), LS_CL_A(r->L), LS_CL_A(r->T), LS_CL_A(r->Rt),
                           LS_CL_A(r->B), LS_CL_A(bypass), LS_CL_A(factor));
        const cl_uint stride = (cl_uint)l->bw, c0 = (cl_uint)r->L, c1 = (cl_uint)r->Rt;
        const cl_uint r0 = (cl_uint)r->T, r1 = (cl_uint)r->B, n_rows = r1 - r0;
        const cl_uint n_seq = LS_FLOAT_ADM_ACC, index = (cl_uint)(sc * LS_FLOAT_ADM_ACC);
        const size_t rc_local[2] = { ROW_CHAIN_TILE, 1 };
        const size_t rc_global[2] = { (n_rows + ROW_CHAIN_TILE - 1) / ROW_CHAIN_TILE *
                                          ROW_CHAIN_TILE, LS_FLOAT_ADM_ACC };
        if (ret >= 0)
            ret = LS_CL_LAUNCH(t, f, K_ROWS, 2, rc_global, rc_local, LS_CL_A(mem),
                               LS_CL_A(l->terms), LS_CL_A(l->plane), LS_CL_A(stride), LS_CL_A(c0),
                               LS_CL_A(c1), LS_CL_A(r0), LS_CL_A(r1), LS_CL_A(rows),
                               LS_CL_A(stride_rows));
        const size_t n_chains = LS_FLOAT_ADM_ACC;
        if (ret >= 0)
            ret = LS_CL_LAUNCH(t, f, K_TOTAL, 1, &n_chains, &n_chains, LS_CL_A(rows),
                               LS_CL_A(stride_rows), LS_CL_A(n_rows), LS_CL_A(n_seq),
                               LS_CL_A(f->result), LS_CL_A(index));
    }
    return ret;
}

static int collect(LsFex *fex, const void *result, unsigned index, LsCollector *fc)
{
    FloatAdmOpenclPriv *p = fex->priv;
    return ls_float_adm_write_accumulators(&p->state, result, index, fc);
}

static void teardown(LsFex *fex)
{
    FloatAdmOpenclPriv *p = fex->priv;
    free(p->text);
    p->text = NULL;
}

static const LsClTwinDesc float_adm_twin = {
    .name = "float_adm",
    .source = &ls_cl_source_float_adm,
    .kernels = kernel_names,
    .n_kernels = K_COUNT,
    .result_bytes = SUMS_BYTES,
    .twin_offset = offsetof(FloatAdmOpenclPriv, twin),
    .setup = setup,
    .enqueue = enqueue,
    .collect = collect,
    .teardown = teardown,
};

static uint64_t fnv1a64(const void *data, size_t n)
{
    const unsigned char *b = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The program text: this host's reciprocal (a table, or the division), then float_adm.cl. */
static int make_source(LsFex *fex, FloatAdmOpenclPriv *p)
{
    const LsClSource *base = &ls_cl_source_float_adm;
    const size_t base_len = strlen(base->text);
#if LS_RCP_MODE == LS_RCP_DIVIDE
    static const char prefix[] = "#define LS_FADM_DIVIDE 1\n";
    if (!(p->text = malloc(sizeof(prefix) + base_len)))
        return -ENOMEM;
    memcpy(p->text, prefix, sizeof(prefix) - 1);
    memcpy(p->text + sizeof(prefix) - 1, base->text, base_len + 1);
    snprintf(p->sha256, sizeof(p->sha256), "%s+divide", base->sha256);
#else
    const unsigned bits = ls_rcp_table_bits();
    if (bits > RCP_MAX_BITS)
        return ls_fex_error(fex, "float_adm (opencl): this CPU's reciprocal needs a %u-bit table",
                            bits),
               -ENOTSUP;
    const size_t n = (size_t)1 << bits;
    ls_u32 *table = malloc(n * sizeof(*table));
    /* "0x%08x," per entry and a line break every 8 */
    const size_t cap = 160 + n * 12 + base_len + 1;
    if (!table || !(p->text = malloc(cap))) {
        free(table);
        return -ENOMEM;
    }
    ls_rcp_table(table, bits);
    size_t len = (size_t)snprintf(p->text, cap,
                                  "#define LS_FADM_RCP_BITS %u\n"
                                  "__constant uint ls_fadm_rcp_table[%zu] = {",
                                  bits, n);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(p->text + len, cap - len, "%s0x%08x,", i % 8 ? "" : "\n",
                                (unsigned)table[i]);
    len += (size_t)snprintf(p->text + len, cap - len, "\n};\n");
    memcpy(p->text + len, base->text, base_len + 1);
    snprintf(p->sha256, sizeof(p->sha256), "%s+rcp%u-%016llx", base->sha256, bits,
             (unsigned long long)fnv1a64(table, n * sizeof(*table)));
    free(table);
#endif
    p->source = (LsClSource){ base->name, p->text, p->sha256 };
    p->desc = float_adm_twin;
    p->desc.source = &p->source;
    return 0;
}

static int float_adm_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                 unsigned h)
{
    FloatAdmOpenclPriv *p = fex->priv;
    /* the CPU's checks, refusals and names */
    int err = ls_float_adm_state_init(&p->state, &p->opt, fex, bpc, w, h);
    if (err)
        return err;
    fex->n_planes_read = 1;
    if ((err = ls_float_adm_twin_supported(&p->state, fex)) < 0)
        return err;
    plan(p);
    if ((err = make_source(fex, p)) < 0) {
        free(p->text); /* the twin is not open: no teardown */
        p->text = NULL;
        return err;
    }
    if ((err = ls_cl_twin_open(&p->twin, fex, &p->desc, fmt, bpc, w, h, 1)) < 0) {
        free(p->text); /* a twin that failed to open is not closed */
        p->text = NULL;
    }
    return err;
}

const LsExtractor ls_fex_float_adm_opencl = {
    .name = "float_adm_opencl",
    .options = ls_float_adm_options,
    .priv_size = sizeof(FloatAdmOpenclPriv),
    .flags = LS_FEX_SERIAL,
    .cpu_twin = &ls_fex_float_adm,
    .init = float_adm_opencl_init,
    LS_CL_TWIN_EXTRACTOR(float_adm_twin),
};
