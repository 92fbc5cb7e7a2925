/* Host side of the binary64 ordered sum (ordered_sum_f64.h). */
#include "core/ordered_sum_f64.h"
#include "opencl/ordered_sum_f64.h"

int ls_cl_os64_setup(LsClTwin *t, LsClOs64 *os, unsigned first, cl_ulong n, unsigned n_seq)
{
    os->first = first;
    os->n = n;
    os->n_seq = n_seq;
    os->n0 = ls_os64_chunks(n, LS_OS64_BASE);
    os->n1 = ls_os64_chunks(os->n0, LS_OS64_FAN);
    os->n2 = ls_os64_chunks(os->n1, LS_OS64_FAN);
    const size_t per = LS_OS64_BINADES * sizeof(LsOs64Summary) * n_seq;
    int ret = 0;
    for (unsigned i = 0; i < LS_CL_SLOTS && ret >= 0; i++) {
        if ((ret = ls_cl_twin_alloc(t, &os->tot[i], os->n0 * n_seq * sizeof(cl_float))) < 0 ||
            (ret = ls_cl_twin_alloc(t, &os->pred[i], os->n0 * n_seq * sizeof(cl_float))) < 0 ||
            (ret = ls_cl_twin_alloc(t, &os->s0[i], os->n0 * per)) < 0 ||
            (ret = ls_cl_twin_alloc(t, &os->s1[i], os->n1 * per)) < 0)
            break;
        ret = ls_cl_twin_alloc(t, &os->s2[i], os->n2 * per);
    }
    return ret;
}

int ls_cl_os64_enqueue(LsClTwin *t, const LsClFrame *f, const LsClOs64 *os, cl_mem terms,
                       cl_ulong stride, cl_mem out)
{
    const unsigned k = f->slot, K = os->first;
    const cl_ulong n = os->n, n0 = os->n0, n1 = os->n1, n2 = os->n2;
    const cl_ulong step1 = LS_OS64_FAN, step2 = (cl_ulong)LS_OS64_FAN * LS_OS64_FAN;
    const cl_uint n_seq = os->n_seq;
    const size_t local[2] = { 64, 1 }, wg = t->dev->wg;
    const size_t g_tot[2] = { n0, n_seq }, g_prefix = wg * n_seq;
    const size_t g0[2] = { n0 * LS_OS64_BINADES, n_seq }, g1[2] = { n1 * LS_OS64_BINADES, n_seq };
    const size_t g2[2] = { n2 * LS_OS64_BINADES, n_seq }, g_walk = n_seq, one = 1;
    int ret = LS_CL_LAUNCH(t, f, K, 2, g_tot, local, LS_CL_A(terms), LS_CL_A(n), LS_CL_A(stride),
                           LS_CL_A(n0), LS_CL_A(os->tot[k]));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K + 1, 1, &g_prefix, &wg, LS_CL_A(os->tot[k]), LS_CL_A(n0),
                           LS_CL_A(os->pred[k]));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K + 2, 2, g0, local, LS_CL_A(terms), LS_CL_A(n),
                           LS_CL_A(stride), LS_CL_A(n0), LS_CL_A(os->pred[k]), LS_CL_A(os->s0[k]));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K + 3, 2, g1, local, LS_CL_A(os->s0[k]), LS_CL_A(n0),
                           LS_CL_A(os->pred[k]), LS_CL_A(n0), LS_CL_A(step1), LS_CL_A(os->s1[k]),
                           LS_CL_A(n1));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K + 3, 2, g2, local, LS_CL_A(os->s1[k]), LS_CL_A(n1),
                           LS_CL_A(os->pred[k]), LS_CL_A(n0), LS_CL_A(step2), LS_CL_A(os->s2[k]),
                           LS_CL_A(n2));
    if (ret >= 0)
        ret = LS_CL_LAUNCH(t, f, K + 4, 1, &g_walk, &one, LS_CL_A(terms), LS_CL_A(n),
                           LS_CL_A(stride), LS_CL_A(n_seq), LS_CL_A(os->s0[k]), LS_CL_A(n0),
                           LS_CL_A(os->s1[k]), LS_CL_A(n1), LS_CL_A(os->s2[k]), LS_CL_A(n2),
                           LS_CL_A(out));
    return ret;
}
