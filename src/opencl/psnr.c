/* Extractor `psnr` on OpenCL: per-row integer SSE on the device, summed on the host (exact, so the
 * order is free); the dB, MSE and APSNR math is the CPU extractor's (ls_psnr_*). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/extractor.h"
#include "core/log.h"
#include "feature/psnr.h"
#include "opencl/opencl.h"

typedef struct PsnrOpenclPriv {
    LsPsnrOptions opt; /* first: the CPU's option table's offsets point here */
    LsPsnrState state;
    LsClDevice dev;
    cl_program prog;
    cl_kernel row_sse;
    cl_mem ref, dis, rows;
    size_t plane_offset[3];
    unsigned row_base[3];
    unsigned n_rows, bytes_per_sample;
    cl_ulong *rows_host;
} PsnrOpenclPriv;

static void psnr_opencl_close(LsFex *fex)
{
    PsnrOpenclPriv *p = fex->priv;
    if (!p->dev.cl)
        return;
    cl_mem *mems[] = { &p->ref, &p->dis, &p->rows };
    for (unsigned i = 0; i < 3; i++)
        if (*mems[i])
            p->dev.cl->clReleaseMemObject(*mems[i]);
    if (p->row_sse)
        p->dev.cl->clReleaseKernel(p->row_sse);
    if (p->prog)
        p->dev.cl->clReleaseProgram(p->prog);
    ls_opencl_close(&p->dev);
    free(p->rows_host);
    memset(&p->dev, 0, sizeof(p->dev));
    p->rows_host = NULL;
}

static int psnr_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                            unsigned h)
{
    PsnrOpenclPriv *p = fex->priv;
    char err[4096];
    cl_int rc = CL_SUCCESS;
    int ret = ls_psnr_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (ret < 0)
        return ret;
    p->bytes_per_sample = bpc > 8 ? 2 : 1;
    size_t bytes = 0;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        p->plane_offset[i] = bytes;
        p->row_base[i] = p->n_rows;
        bytes += (size_t)p->state.w[i] * p->state.h[i] * p->bytes_per_sample;
        p->n_rows += p->state.h[i];
    }
    if ((ret = ls_opencl_open(&p->dev, fex->gpu_index, err, sizeof(err))) < 0)
        goto fail;
    const LsClFns *cl = p->dev.cl;
    const size_t rows_bytes = (p->n_rows ? p->n_rows : 1) * sizeof(cl_ulong);
    const size_t buffers[] = { bytes ? bytes : 1, bytes ? bytes : 1, rows_bytes };
    if ((ret = ls_opencl_check_memory(&p->dev, buffers, 3, w, h, err, sizeof(err))) < 0 ||
        (ret = ls_opencl_build(&p->dev, &ls_cl_source_psnr, &p->prog, err, sizeof(err))) < 0 ||
        (ret = ls_opencl_kernel(&p->dev, p->prog, "ls_psnr_row_sse", 1, &p->row_sse, err,
                                sizeof(err))) < 0)
        goto fail;
    p->ref = cl->clCreateBuffer(p->dev.ctx, CL_MEM_READ_ONLY, bytes ? bytes : 1, NULL, &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    p->dis = cl->clCreateBuffer(p->dev.ctx, CL_MEM_READ_ONLY, bytes ? bytes : 1, NULL, &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    p->rows = cl->clCreateBuffer(p->dev.ctx, CL_MEM_WRITE_ONLY, rows_bytes, NULL, &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    p->rows_host = malloc((p->n_rows ? p->n_rows : 1) * sizeof(cl_ulong));
    if (!p->rows_host) {
        psnr_opencl_close(fex);
        return -ENOMEM;
    }
    ls_log(VMAF_LOG_LEVEL_INFO, "%s: OpenCL device %d: %s", fex->instance_name, fex->gpu_index,
           p->dev.description);
    return 0;
fail:
    psnr_opencl_close(fex);
    ls_fex_error(fex, "psnr (opencl): %s", err);
    return ret;
}

static int psnr_opencl_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                               unsigned index, LsCollector *fc)
{
    PsnrOpenclPriv *p = fex->priv;
    const LsClFns *cl = p->dev.cl;
    char err[512];
    int ret = 0;
    const cl_uint wide = p->bytes_per_sample == 2;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        const size_t row_bytes = (size_t)p->state.w[i] * p->bytes_per_sample;
        const size_t origin[3] = { p->plane_offset[i], 0, 0 }, host_origin[3] = { 0, 0, 0 };
        const size_t region[3] = { row_bytes, p->state.h[i], 1 };
        if (!row_bytes || !p->state.h[i])
            continue;
        LS_CL_TRY(err, sizeof(err), "clEnqueueWriteBufferRect",
                  cl->clEnqueueWriteBufferRect(p->dev.queue, p->ref, CL_FALSE, origin,
                                               host_origin, region, row_bytes, 0,
                                               (size_t)ref->stride[i], 0, ref->data[i], 0, NULL,
                                               NULL));
        LS_CL_TRY(err, sizeof(err), "clEnqueueWriteBufferRect",
                  cl->clEnqueueWriteBufferRect(p->dev.queue, p->dis, CL_FALSE, origin,
                                               host_origin, region, row_bytes, 0,
                                               (size_t)dist->stride[i], 0, dist->data[i], 0, NULL,
                                               NULL));
        const cl_ulong offset = p->plane_offset[i];
        const cl_uint w = p->state.w[i], row_base = p->row_base[i];
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 0, p->ref);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 1, p->dis);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 2, offset);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 3, w);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 4, wide);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 5, p->rows);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->row_sse, 6, row_base);
        const size_t local = p->dev.wg, global = (size_t)p->state.h[i] * p->dev.wg;
        LS_CL_TRY(err, sizeof(err), "clEnqueueNDRangeKernel(ls_psnr_row_sse)",
                  cl->clEnqueueNDRangeKernel(p->dev.queue, p->row_sse, 1, NULL, &global, &local,
                                             0, NULL, NULL));
    }
    if (p->n_rows)
        LS_CL_TRY(err, sizeof(err), "clEnqueueReadBuffer",
                  cl->clEnqueueReadBuffer(p->dev.queue, p->rows, CL_TRUE, 0,
                                          p->n_rows * sizeof(cl_ulong), p->rows_host, 0, NULL,
                                          NULL));
    uint64_t sse[3] = { 0, 0, 0 };
    for (unsigned i = 0; i < p->state.n_planes; i++)
        for (unsigned y = 0; y < p->state.h[i]; y++)
            sse[i] += p->rows_host[p->row_base[i] + y];
    return ls_psnr_write_scores(&p->state, sse, index, fc);
fail:
    cl->clFinish(p->dev.queue); /* the uploads read the caller's pictures */
    ls_fex_error(fex, "psnr (opencl): %s", err);
    return ret;
}

static int psnr_opencl_flush(LsFex *fex, LsCollector *fc)
{
    const PsnrOpenclPriv *p = fex->priv;
    return ls_psnr_write_aggregates(&p->state, fc);
}

static const char *const psnr_opencl_provided[] = { "psnr_y", "psnr_cb", "psnr_cr", "mse_y",
                                                     "mse_cb", "mse_cr", NULL };

const LsExtractor ls_fex_psnr_opencl = {
    .name = "psnr_opencl",
    .options = ls_psnr_options,
    .priv_size = sizeof(PsnrOpenclPriv),
    /* APSNR accumulates over every frame, in order, as on the CPU; one device queue */
    .flags = LS_FEX_TEMPORAL | LS_FEX_SERIAL,
    .backend = LOCKSTEP_BACKEND_OPENCL,
    .cpu_twin = &ls_fex_psnr,
    .provided_features = psnr_opencl_provided,
    .init = psnr_opencl_init,
    .extract = psnr_opencl_extract,
    .flush = psnr_opencl_flush,
    .close = psnr_opencl_close,
};
