/* Extractor `psnr_hvs` on OpenCL, for devices without binary64: block terms on the device
 * (psnr_hvs.cl), each plane's float sum replayed there in the CPU's order (ordered_sum.h), one
 * float per plane read back; the scores from the CPU extractor's host math (ls_psnr_hvs_*). */
#include <errno.h>
#include <string.h>

#include "core/extractor.h"
#include "core/log.h"
#include "feature/psnr_hvs.h"
#include "opencl/opencl.h"
#include "opencl/ordered_sum.h"

typedef struct PsnrHvsOpenclPriv {
    LsPsnrHvsOptions opt; /* first: the CPU's option table's offsets point here */
    LsPsnrHvsState state;
    LsClDevice dev;
    LsClOrderedSum sum;
    cl_program prog;
    cl_kernel terms_kernel;
    cl_mem ref, dis, terms;
    size_t plane_offset[3], terms_offset[3];
    unsigned blocks_x[3], n_blocks[3];
    unsigned bytes_per_sample;
} PsnrHvsOpenclPriv;

static void psnr_hvs_opencl_close(LsFex *fex)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    if (!p->dev.cl)
        return;
    ls_cl_ordered_sum_close(&p->sum, &p->dev);
    cl_mem *mems[] = { &p->ref, &p->dis, &p->terms };
    for (unsigned i = 0; i < 3; i++)
        if (*mems[i])
            p->dev.cl->clReleaseMemObject(*mems[i]);
    if (p->terms_kernel)
        p->dev.cl->clReleaseKernel(p->terms_kernel);
    if (p->prog)
        p->dev.cl->clReleaseProgram(p->prog);
    ls_opencl_close(&p->dev);
    memset(&p->dev, 0, sizeof(p->dev));
}

static int psnr_hvs_opencl_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                                unsigned h)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    char err[16384];
    cl_int rc = CL_SUCCESS;
    int ret = ls_psnr_hvs_state_init(fex, &p->state, &p->opt, fmt, bpc, w, h);
    if (ret < 0)
        return ret;
    p->bytes_per_sample = bpc > 8 ? 2 : 1;
    size_t bytes = 0, n_terms = 0, max_plane_terms = 0;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        p->blocks_x[i] = ls_psnr_hvs_blocks(p->state.w[i]);
        p->n_blocks[i] = p->blocks_x[i] * ls_psnr_hvs_blocks(p->state.h[i]);
        p->plane_offset[i] = bytes;
        p->terms_offset[i] = n_terms;
        bytes += (size_t)p->state.w[i] * p->state.h[i] * p->bytes_per_sample;
        n_terms += (size_t)p->n_blocks[i] * 64;
        if ((size_t)p->n_blocks[i] * 64 > max_plane_terms)
            max_plane_terms = (size_t)p->n_blocks[i] * 64;
    }
    if ((ret = ls_opencl_open(&p->dev, fex->gpu_index, err, sizeof(err))) < 0)
        goto fail;
    const LsClFns *cl = p->dev.cl;
    /* the ordered sum's scratch is a few bytes per 1024 terms: the frame and the terms decide */
    const size_t buffers[] = { bytes, bytes, n_terms * sizeof(cl_float) };
    if ((ret = ls_opencl_check_memory(&p->dev, buffers, 3, w, h, err, sizeof(err))) < 0)
        goto fail;
    if ((ret = ls_opencl_build(&p->dev, &ls_cl_source_psnr_hvs, &p->prog, err, sizeof(err))) < 0) {
        /* without a correctly rounded division the kernel needs psnr_hvs_block.h to route its
         * divisions through LS_FDIV; until then such a device leaves psnr_hvs to the CPU */
        if (p->dev.emulate_div_sqrt)
            ret = -ENOTSUP;
        goto fail;
    }
    if ((ret = ls_opencl_kernel(&p->dev, p->prog, "ls_psnr_hvs_terms", 0, &p->terms_kernel, err,
                                sizeof(err))) < 0 ||
        (ret = ls_cl_ordered_sum_init(&p->sum, &p->dev, max_plane_terms, 3, err, sizeof(err))) <
            0)
        goto fail;
    p->ref = cl->clCreateBuffer(p->dev.ctx, CL_MEM_READ_ONLY, bytes, NULL, &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    p->dis = cl->clCreateBuffer(p->dev.ctx, CL_MEM_READ_ONLY, bytes, NULL, &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    p->terms = cl->clCreateBuffer(p->dev.ctx, CL_MEM_READ_WRITE, n_terms * sizeof(cl_float), NULL,
                                  &rc);
    LS_CL_TRY(err, sizeof(err), "clCreateBuffer", rc);
    ls_log(VMAF_LOG_LEVEL_INFO, "%s: OpenCL device %d: %s%s", fex->instance_name, fex->gpu_index,
           p->dev.description,
           p->dev.emulate_div_sqrt ? " (fp32 division emulated with integers)" : "");
    return 0;
fail:
    psnr_hvs_opencl_close(fex);
    ls_fex_error(fex, "psnr_hvs (opencl): %s", err);
    return ret;
}

static int psnr_hvs_opencl_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                                   unsigned index, LsCollector *fc)
{
    PsnrHvsOpenclPriv *p = fex->priv;
    const LsClFns *cl = p->dev.cl;
    char err[512];
    int ret = 0;
    const cl_int bytes_per_sample = (cl_int)p->bytes_per_sample;
    for (unsigned i = 0; i < p->state.n_planes; i++) {
        const size_t pitch = (size_t)p->state.w[i] * p->bytes_per_sample;
        const size_t origin[3] = { p->plane_offset[i], 0, 0 }, host_origin[3] = { 0, 0, 0 };
        const size_t region[3] = { pitch, p->state.h[i], 1 };
        LS_CL_TRY(err, sizeof(err), "clEnqueueWriteBufferRect",
                  cl->clEnqueueWriteBufferRect(p->dev.queue, p->ref, CL_FALSE, origin,
                                               host_origin, region, pitch, 0,
                                               (size_t)ref->stride[i], 0, ref->data[i], 0, NULL,
                                               NULL));
        LS_CL_TRY(err, sizeof(err), "clEnqueueWriteBufferRect",
                  cl->clEnqueueWriteBufferRect(p->dev.queue, p->dis, CL_FALSE, origin,
                                               host_origin, region, pitch, 0,
                                               (size_t)dist->stride[i], 0, dist->data[i], 0, NULL,
                                               NULL));
        const cl_ulong offset = p->plane_offset[i], terms_offset = p->terms_offset[i];
        const cl_uint pitch_arg = (cl_uint)pitch, blocks_x = p->blocks_x[i];
        const cl_uint n_blocks = p->n_blocks[i];
        const cl_int plane = (cl_int)i;
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 0, p->ref);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 1, p->dis);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 2, offset);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 3, pitch_arg);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 4, blocks_x);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 5, n_blocks);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 6, bytes_per_sample);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 7, plane);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 8, p->terms);
        LS_CL_ARG(err, sizeof(err), &p->dev, p->terms_kernel, 9, terms_offset);
        /* work-group size: the driver's choice (the kernel's private arrays limit it) */
        const size_t global = (n_blocks + 63) / 64 * 64;
        LS_CL_TRY(err, sizeof(err), "clEnqueueNDRangeKernel(ls_psnr_hvs_terms)",
                  cl->clEnqueueNDRangeKernel(p->dev.queue, p->terms_kernel, 1, NULL, &global,
                                             NULL, 0, NULL, NULL));
        if ((ret = ls_cl_ordered_sum_enqueue(&p->sum, &p->dev, p->terms, p->terms_offset[i],
                                             (size_t)n_blocks * 64, i, err, sizeof(err))) < 0)
            goto fail;
    }
    float sum[3] = { 0.0f, 0.0f, 0.0f };
    if ((ret = ls_cl_ordered_sum_read(&p->sum, &p->dev, sum, NULL, p->state.n_planes, err,
                                      sizeof(err))) < 0)
        goto fail;
    return ls_psnr_hvs_write_scores(&p->state, sum, index, fc);
fail:
    cl->clFinish(p->dev.queue); /* the uploads read the caller's pictures */
    ls_fex_error(fex, "psnr_hvs (opencl): %s", err);
    return ret;
}

static const char *const psnr_hvs_opencl_provided[] = { "psnr_hvs_y", "psnr_hvs_cb",
                                                         "psnr_hvs_cr", "psnr_hvs", NULL };

const LsExtractor ls_fex_psnr_hvs_opencl = {
    .name = "psnr_hvs_opencl",
    .options = ls_psnr_hvs_options,
    .priv_size = sizeof(PsnrHvsOpenclPriv),
    .flags = LS_FEX_SERIAL, /* one device queue and one set of buffers */
    .backend = LOCKSTEP_BACKEND_OPENCL,
    .cpu_twin = &ls_fex_psnr_hvs,
    .provided_features = psnr_hvs_opencl_provided,
    .init = psnr_hvs_opencl_init,
    .extract = psnr_hvs_opencl_extract,
    .close = psnr_hvs_opencl_close,
};
