/* Host side of the ordered float sum (ordered_sum.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opencl/ordered_sum.h"

int ls_cl_ordered_sum_init(LsClOrderedSum *os, LsClDevice *d, size_t max_terms, unsigned n_slots,
                           char *err, size_t err_len)
{
    const LsClFns *cl = d->cl;
    int ret;
    cl_int rc = CL_SUCCESS;
    memset(os, 0, sizeof(*os));
    os->max_chunks = (max_terms + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    os->n_slots = n_slots;
    const size_t chunks = os->max_chunks ? os->max_chunks : 1;
    static const char *const names[4] = { "ls_os_totals", "ls_os_predict", "ls_os_summaries",
                                          "ls_os_walk" };
    cl_kernel *kernels[4] = { &os->totals, &os->predict, &os->summaries, &os->walk };
    if ((ret = ls_opencl_build(d, &ls_cl_source_ordered_sum, &os->prog, err, err_len)) < 0)
        goto fail;
    for (unsigned i = 0; i < 4; i++)
        if ((ret = ls_opencl_kernel(d, os->prog, names[i], 1, kernels[i], err, err_len)) < 0)
            goto fail;
    struct {
        cl_mem *mem;
        size_t bytes;
    } bufs[] = {
        { &os->chunk_totals, chunks * sizeof(cl_float) },
        { &os->predicted, chunks * sizeof(cl_float) },
        { &os->summary, chunks * sizeof(cl_uint4) },
        { &os->binades, chunks * sizeof(cl_int) },
        { &os->result, n_slots * sizeof(cl_float) },
        { &os->replayed, n_slots * sizeof(cl_uint) },
    };
    for (unsigned i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
        *bufs[i].mem = cl->clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bufs[i].bytes, NULL, &rc);
        LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    }
    return 0;
fail:
    ls_cl_ordered_sum_close(os, d);
    return ret;
}

int ls_cl_ordered_sum_enqueue(LsClOrderedSum *os, LsClDevice *d, cl_mem terms, size_t offset,
                              size_t n, unsigned slot, char *err, size_t err_len)
{
    const LsClFns *cl = d->cl;
    int ret = 0;
    const size_t chunks = (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    if (chunks > os->max_chunks || slot >= os->n_slots) {
        snprintf(err, err_len, "ordered sum of %zu terms into slot %u exceeds its scratch", n,
                 slot);
        return -EINVAL;
    }
    const cl_ulong off = offset, count = n;
    const cl_uint n_chunks = (cl_uint)chunks, slot_arg = slot;
    const size_t local = d->wg, groups = chunks * d->wg;
    if (chunks) {
        LS_CL_ARG(err, err_len, d, os->totals, 0, terms);
        LS_CL_ARG(err, err_len, d, os->totals, 1, off);
        LS_CL_ARG(err, err_len, d, os->totals, 2, count);
        LS_CL_ARG(err, err_len, d, os->totals, 3, os->chunk_totals);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_totals)",
                  cl->clEnqueueNDRangeKernel(d->queue, os->totals, 1, NULL, &groups, &local, 0,
                                             NULL, NULL));
        LS_CL_ARG(err, err_len, d, os->predict, 0, os->chunk_totals);
        LS_CL_ARG(err, err_len, d, os->predict, 1, n_chunks);
        LS_CL_ARG(err, err_len, d, os->predict, 2, os->predicted);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_predict)",
                  cl->clEnqueueNDRangeKernel(d->queue, os->predict, 1, NULL, &local, &local, 0,
                                             NULL, NULL));
        LS_CL_ARG(err, err_len, d, os->summaries, 0, terms);
        LS_CL_ARG(err, err_len, d, os->summaries, 1, off);
        LS_CL_ARG(err, err_len, d, os->summaries, 2, count);
        LS_CL_ARG(err, err_len, d, os->summaries, 3, os->predicted);
        LS_CL_ARG(err, err_len, d, os->summaries, 4, os->summary);
        LS_CL_ARG(err, err_len, d, os->summaries, 5, os->binades);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_summaries)",
                  cl->clEnqueueNDRangeKernel(d->queue, os->summaries, 1, NULL, &groups, &local, 0,
                                             NULL, NULL));
    }
    LS_CL_ARG(err, err_len, d, os->walk, 0, terms);
    LS_CL_ARG(err, err_len, d, os->walk, 1, off);
    LS_CL_ARG(err, err_len, d, os->walk, 2, count);
    LS_CL_ARG(err, err_len, d, os->walk, 3, n_chunks);
    LS_CL_ARG(err, err_len, d, os->walk, 4, os->chunk_totals);
    LS_CL_ARG(err, err_len, d, os->walk, 5, os->summary);
    LS_CL_ARG(err, err_len, d, os->walk, 6, os->binades);
    LS_CL_ARG(err, err_len, d, os->walk, 7, os->result);
    LS_CL_ARG(err, err_len, d, os->walk, 8, os->replayed);
    LS_CL_ARG(err, err_len, d, os->walk, 9, slot_arg);
    LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_walk)",
              cl->clEnqueueNDRangeKernel(d->queue, os->walk, 1, NULL, &local, &local, 0, NULL,
                                         NULL));
fail:
    return ret;
}

int ls_cl_ordered_sum_read(LsClOrderedSum *os, LsClDevice *d, float *out, unsigned *replayed,
                           unsigned n, char *err, size_t err_len)
{
    int ret = 0;
    if (n > os->n_slots)
        n = os->n_slots;
    if (replayed)
        LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
                  d->cl->clEnqueueReadBuffer(d->queue, os->replayed, CL_FALSE, 0,
                                             n * sizeof(cl_uint), replayed, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
              d->cl->clEnqueueReadBuffer(d->queue, os->result, CL_TRUE, 0, n * sizeof(float), out,
                                         0, NULL, NULL));
fail:
    return ret;
}

void ls_cl_ordered_sum_close(LsClOrderedSum *os, LsClDevice *d)
{
    cl_mem *mems[] = { &os->chunk_totals, &os->predicted, &os->summary, &os->binades,
                       &os->result, &os->replayed };
    for (unsigned i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        if (*mems[i])
            d->cl->clReleaseMemObject(*mems[i]);
    cl_kernel *kernels[] = { &os->totals, &os->predict, &os->summaries, &os->walk };
    for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
        if (*kernels[i])
            d->cl->clReleaseKernel(*kernels[i]);
    if (os->prog)
        d->cl->clReleaseProgram(os->prog);
    memset(os, 0, sizeof(*os));
}

int ls_opencl_ordered_sum_selftest(int index, const float *terms, size_t n, float *out,
                                   unsigned *replayed, char *err, size_t err_len)
{
    LsClDevice d;
    LsClOrderedSum os;
    cl_mem buf = NULL;
    cl_int rc = CL_SUCCESS;
    memset(&os, 0, sizeof(os));
    int ret = ls_opencl_open(&d, index, err, err_len);
    if (ret < 0)
        return ret;
    if ((ret = ls_cl_ordered_sum_init(&os, &d, n, 1, err, err_len)) < 0)
        goto fail;
    buf = d.cl->clCreateBuffer(d.ctx, CL_MEM_READ_ONLY, n ? n * sizeof(float) : 4, NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    if (n)
        LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
                  d.cl->clEnqueueWriteBuffer(d.queue, buf, CL_FALSE, 0, n * sizeof(float), terms,
                                             0, NULL, NULL));
    if ((ret = ls_cl_ordered_sum_enqueue(&os, &d, buf, 0, n, 0, err, err_len)) < 0 ||
        (ret = ls_cl_ordered_sum_read(&os, &d, out, replayed, 1, err, err_len)) < 0)
        goto fail;
fail:
    if (buf)
        d.cl->clReleaseMemObject(buf);
    ls_cl_ordered_sum_close(&os, &d);
    ls_opencl_close(&d);
    return ret;
}
