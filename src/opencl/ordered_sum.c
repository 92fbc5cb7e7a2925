/* Host side of the ordered float sum (ordered_sum.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opencl/ordered_sum.h"

int ls_cl_ordered_sum_init(LsClOrderedSum *os, LsClDevice *d, size_t max_chunks, unsigned n_slots,
                           char *err, size_t err_len)
{
    const LsClFns *cl = d->cl;
    int ret = 0;
    cl_int rc = CL_SUCCESS;
    memset(os, 0, sizeof(*os));
    os->max_chunks = max_chunks;
    os->n_slots = n_slots;
    const size_t chunks = os->max_chunks ? os->max_chunks : 1;
    struct {
        cl_mem *mem;
        size_t bytes;
    } bufs[] = {
        { &os->chunk_totals, chunks * sizeof(cl_float) },
        { &os->predicted, chunks * sizeof(cl_float) },
        { &os->summary, chunks * sizeof(cl_uint4) },
        { &os->binades, chunks * sizeof(cl_int) },
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

int ls_cl_ordered_sum_enqueue(const LsClOrderedSum *os, const LsClOrderedSumKernels *k,
                              LsClDevice *d, cl_command_queue queue, cl_mem terms,
                              const size_t *offset, const size_t *count, unsigned n_seq,
                              cl_mem result, unsigned slot0, char *err, size_t err_len)
{
    const LsClFns *cl = d->cl;
    int ret = 0;
    cl_ulong4 offs = { { 0 } }, counts = { { 0 } };
    cl_uint4 cbase = { { 0 } };
    if (n_seq == 0 || n_seq > LS_OS_MAX_SEQ || slot0 + n_seq > os->n_slots) {
        snprintf(err, err_len, "ordered sum of %u sequences into slot %u exceeds its scratch",
                 n_seq, slot0);
        return -EINVAL;
    }
    size_t chunks = 0;
    for (unsigned i = 0; i < n_seq; i++) {
        offs.s[i] = offset[i];
        counts.s[i] = count[i];
        cbase.s[i] = (cl_uint)chunks;
        chunks += (count[i] + LS_OS_CHUNK - 1) / LS_OS_CHUNK;
    }
    for (unsigned i = n_seq; i < 4; i++)
        cbase.s[i] = (cl_uint)chunks;
    if (chunks > os->max_chunks) {
        snprintf(err, err_len, "ordered sum of %zu chunks exceeds its scratch of %zu", chunks,
                 os->max_chunks);
        return -EINVAL;
    }
    const cl_uint n_seq_arg = n_seq, slot_arg = slot0;
    const size_t local = d->wg, groups = chunks * d->wg, per_seq = n_seq * d->wg;
    if (chunks) {
        LS_CL_ARG(err, err_len, d, k->totals, 0, terms);
        LS_CL_ARG(err, err_len, d, k->totals, 1, offs);
        LS_CL_ARG(err, err_len, d, k->totals, 2, counts);
        LS_CL_ARG(err, err_len, d, k->totals, 3, cbase);
        LS_CL_ARG(err, err_len, d, k->totals, 4, n_seq_arg);
        LS_CL_ARG(err, err_len, d, k->totals, 5, os->chunk_totals);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_totals)",
                  cl->clEnqueueNDRangeKernel(queue, k->totals, 1, NULL, &groups, &local, 0, NULL,
                                             NULL));
        LS_CL_ARG(err, err_len, d, k->predict, 0, os->chunk_totals);
        LS_CL_ARG(err, err_len, d, k->predict, 1, cbase);
        LS_CL_ARG(err, err_len, d, k->predict, 2, os->predicted);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_predict)",
                  cl->clEnqueueNDRangeKernel(queue, k->predict, 1, NULL, &per_seq, &local, 0,
                                             NULL, NULL));
        LS_CL_ARG(err, err_len, d, k->summaries, 0, terms);
        LS_CL_ARG(err, err_len, d, k->summaries, 1, offs);
        LS_CL_ARG(err, err_len, d, k->summaries, 2, counts);
        LS_CL_ARG(err, err_len, d, k->summaries, 3, cbase);
        LS_CL_ARG(err, err_len, d, k->summaries, 4, n_seq_arg);
        LS_CL_ARG(err, err_len, d, k->summaries, 5, os->predicted);
        LS_CL_ARG(err, err_len, d, k->summaries, 6, os->summary);
        LS_CL_ARG(err, err_len, d, k->summaries, 7, os->binades);
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_summaries)",
                  cl->clEnqueueNDRangeKernel(queue, k->summaries, 1, NULL, &groups, &local, 0,
                                             NULL, NULL));
    }
    LS_CL_ARG(err, err_len, d, k->walk, 0, terms);
    LS_CL_ARG(err, err_len, d, k->walk, 1, offs);
    LS_CL_ARG(err, err_len, d, k->walk, 2, counts);
    LS_CL_ARG(err, err_len, d, k->walk, 3, cbase);
    LS_CL_ARG(err, err_len, d, k->walk, 4, os->chunk_totals);
    LS_CL_ARG(err, err_len, d, k->walk, 5, os->summary);
    LS_CL_ARG(err, err_len, d, k->walk, 6, os->binades);
    LS_CL_ARG(err, err_len, d, k->walk, 7, result);
    LS_CL_ARG(err, err_len, d, k->walk, 8, os->replayed);
    LS_CL_ARG(err, err_len, d, k->walk, 9, slot_arg);
    LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel(ls_os_walk)",
              cl->clEnqueueNDRangeKernel(queue, k->walk, 1, NULL, &per_seq, &local, 0, NULL,
                                         NULL));
fail:
    return ret;
}

void ls_cl_ordered_sum_close(LsClOrderedSum *os, LsClDevice *d)
{
    cl_mem *mems[] = { &os->chunk_totals, &os->predicted, &os->summary, &os->binades,
                       &os->replayed };
    for (unsigned i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        if (*mems[i])
            d->cl->clReleaseMemObject(*mems[i]);
    memset(os, 0, sizeof(*os));
}

int ls_opencl_ordered_sum_selftest(int index, const float *terms, size_t n, float *out,
                                   unsigned *replayed, char *err, size_t err_len)
{
    LsClDevice d;
    LsClOrderedSum os;
    LsClOrderedSumKernels k;
    cl_program prog = NULL;
    cl_mem buf = NULL, result = NULL;
    cl_int rc = CL_SUCCESS;
    memset(&os, 0, sizeof(os));
    memset(&k, 0, sizeof(k));
    int ret = ls_opencl_open(&d, index, err, err_len);
    if (ret < 0)
        return ret;
    static const char *const names[4] = { LS_CL_ORDERED_SUM_KERNELS };
    cl_kernel *kernels[4] = { &k.totals, &k.predict, &k.summaries, &k.walk };
    if ((ret = ls_opencl_build(&d, &ls_cl_source_ordered_sum, &prog, err, err_len)) < 0)
        goto fail;
    for (unsigned i = 0; i < 4; i++)
        if ((ret = ls_opencl_kernel(&d, prog, names[i], 1, kernels[i], err, err_len)) < 0)
            goto fail;
    if ((ret = ls_cl_ordered_sum_init(&os, &d, (n + LS_OS_CHUNK - 1) / LS_OS_CHUNK, 1, err,
                                      err_len)) < 0)
        goto fail;
    buf = d.cl->clCreateBuffer(d.ctx, CL_MEM_READ_ONLY, n ? n * sizeof(float) : 4, NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    result = d.cl->clCreateBuffer(d.ctx, CL_MEM_READ_WRITE, sizeof(float), NULL, &rc);
    LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    if (n)
        LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
                  d.cl->clEnqueueWriteBuffer(d.queue, buf, CL_FALSE, 0, n * sizeof(float), terms,
                                             0, NULL, NULL));
    const size_t zero = 0;
    if ((ret = ls_cl_ordered_sum_enqueue(&os, &k, &d, d.queue, buf, &zero, &n, 1, result, 0, err,
                                         err_len)) < 0)
        goto fail;
    if (replayed)
        LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
                  d.cl->clEnqueueReadBuffer(d.queue, os.replayed, CL_FALSE, 0, sizeof(cl_uint),
                                            replayed, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
              d.cl->clEnqueueReadBuffer(d.queue, result, CL_TRUE, 0, sizeof(float), out, 0, NULL,
                                        NULL));
fail:
    if (buf)
        d.cl->clReleaseMemObject(buf);
    if (result)
        d.cl->clReleaseMemObject(result);
    ls_cl_ordered_sum_close(&os, &d);
    for (unsigned i = 0; i < 4; i++)
        if (*kernels[i])
            d.cl->clReleaseKernel(*kernels[i]);
    if (prog)
        d.cl->clReleaseProgram(prog);
    ls_opencl_close(&d);
    return ret;
}
