/* Runs fp32_exact.h as compiled for an OpenCL device, for the contract test. Opens the device and
 * builds the program on every call: a test hook, not a hot path. */
#include <errno.h>
#include <stdio.h>

#include "opencl/opencl.h"

int ls_opencl_fp32_selftest(int index, int op, const float *a, const float *b, float *out,
                            size_t n, char *err, size_t err_len)
{
    LsClDevice d;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf[3] = { NULL, NULL, NULL };
    cl_int rc = CL_SUCCESS;
    int ret = ls_opencl_open(&d, index, err, err_len);
    if (ret < 0)
        return ret;
    const LsClFns *cl = d.cl;
    const size_t bytes = n * sizeof(float);
    const cl_uint count = (cl_uint)n;
    if ((ret = ls_opencl_build(&d, &ls_cl_source_fp32_selftest, &prog, err, err_len)) < 0 ||
        (ret = ls_opencl_kernel(&d, prog, op ? "ls_fp32_div" : "ls_fp32_sqrt_prod", 0, &k, err,
                                err_len)) < 0)
        goto fail;
    for (int i = 0; i < 3; i++) {
        buf[i] = cl->clCreateBuffer(d.ctx, i < 2 ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY, bytes,
                                    NULL, &rc);
        LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    }
    LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
              cl->clEnqueueWriteBuffer(d.queue, buf[0], CL_FALSE, 0, bytes, a, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
              cl->clEnqueueWriteBuffer(d.queue, buf[1], CL_FALSE, 0, bytes, b, 0, NULL, NULL));
    LS_CL_ARG(err, err_len, &d, k, 0, buf[0]);
    LS_CL_ARG(err, err_len, &d, k, 1, buf[1]);
    LS_CL_ARG(err, err_len, &d, k, 2, buf[2]);
    LS_CL_ARG(err, err_len, &d, k, 3, count);
    const size_t global = (n + 63) / 64 * 64;
    LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel",
              cl->clEnqueueNDRangeKernel(d.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
              cl->clEnqueueReadBuffer(d.queue, buf[2], CL_TRUE, 0, bytes, out, 0, NULL, NULL));
fail:
    for (int i = 0; i < 3; i++)
        if (buf[i])
            cl->clReleaseMemObject(buf[i]);
    if (k)
        cl->clReleaseKernel(k);
    if (prog)
        cl->clReleaseProgram(prog);
    ls_opencl_close(&d);
    return ret;
}

int ls_opencl_soft_f64_selftest(int index, int op, const uint64_t *a, const uint64_t *b,
                                uint64_t *out, size_t n, char *err, size_t err_len)
{
    LsClDevice d;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf[3] = { NULL, NULL, NULL };
    cl_int rc = CL_SUCCESS;
    int ret = ls_opencl_open(&d, index, err, err_len);
    if (ret < 0)
        return ret;
    const LsClFns *cl = d.cl;
    const size_t bytes = (n ? n : 1) * sizeof(uint64_t);
    const cl_uint count = (cl_uint)n;
    const cl_int op_arg = op;
    if ((ret = ls_opencl_build(&d, &ls_cl_source_soft_f64_selftest, &prog, err, err_len)) < 0 ||
        (ret = ls_opencl_kernel(&d, prog, "ls_soft_f64_op", 0, &k, err, err_len)) < 0)
        goto fail;
    for (int i = 0; i < 3; i++) {
        buf[i] = cl->clCreateBuffer(d.ctx, i < 2 ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY, bytes,
                                    NULL, &rc);
        LS_CL_TRY(err, err_len, "clCreateBuffer", rc);
    }
    LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
              cl->clEnqueueWriteBuffer(d.queue, buf[0], CL_FALSE, 0, bytes, a, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueWriteBuffer",
              cl->clEnqueueWriteBuffer(d.queue, buf[1], CL_FALSE, 0, bytes, b, 0, NULL, NULL));
    LS_CL_ARG(err, err_len, &d, k, 0, buf[0]);
    LS_CL_ARG(err, err_len, &d, k, 1, buf[1]);
    LS_CL_ARG(err, err_len, &d, k, 2, buf[2]);
    LS_CL_ARG(err, err_len, &d, k, 3, count);
    LS_CL_ARG(err, err_len, &d, k, 4, op_arg);
    const size_t global = (n + 63) / 64 * 64;
    if (global)
        LS_CL_TRY(err, err_len, "clEnqueueNDRangeKernel",
                  cl->clEnqueueNDRangeKernel(d.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    LS_CL_TRY(err, err_len, "clEnqueueReadBuffer",
              cl->clEnqueueReadBuffer(d.queue, buf[2], CL_TRUE, 0, bytes, out, 0, NULL, NULL));
fail:
    for (int i = 0; i < 3; i++)
        if (buf[i])
            cl->clReleaseMemObject(buf[i]);
    if (k)
        cl->clReleaseKernel(k);
    if (prog)
        cl->clReleaseProgram(prog);
    ls_opencl_close(&d);
    return ret;
}
