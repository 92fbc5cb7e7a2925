/* Host C reference of the ordered sum: the device algorithm of ordered_sum.cuh step by step,
 * sequentially, on the exact primitives of core/ordered_sum.h that every backend runs.
 * tests/test_cuda_ordered_sum.c holds it to the plain sequential loop bit for bit. */
#include <stddef.h>
#include <stdint.h>

#include "cuda/ordered_sum.h"

#define LANES 32u
#define SUB_MAX 32u /* terms per lane in one warp pass */

static void summarize(const float *t, size_t n, int e, uint32_t q[2])
{
    uint32_t q0 = ls_os_start(e), q1 = q0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t tb = ls_os_bits(t[i]);
        q0 = ls_os_step(q0, 0, tb, e);
        q1 = ls_os_step(q1, 1, tb, e);
    }
    q[0] = q0;
    q[1] = q1;
}

/* The warp's walk over a run of terms without a usable summary: per pass, 32 sub-segment summaries
 * for the current binade and the next, a replay of any sub-segment that crosses, a new pass when
 * the walk outgrows both binades. */
static float warp_walk(float s, const float *t, size_t len, LsOsStats *st)
{
    size_t pos = 0;
    while (pos < len) {
        if (ls_os_bits(s) == 0) {
            while (pos < len && ls_os_bits(t[pos]) == 0)
                pos++;
            if (pos == len)
                break;
            s = t[pos++]; /* 0 + t = t */
            st->terms_replayed++;
            continue;
        }
        if (!ls_os_is_normal(s)) {
            s = s + t[pos++];
            st->terms_replayed++;
            continue;
        }
        const int e = ls_os_exponent(s);
        size_t k = (len - pos + LANES - 1) / LANES;
        if (k > SUB_MAX)
            k = SUB_MAX;
        uint32_t qa[LANES][2], qb[LANES][2];
        for (unsigned l = 0; l < LANES; l++) {
            const size_t a = pos + l * k;
            const size_t b = a + k < len ? a + k : len;
            const size_t n = a < len ? b - a : 0;
            summarize(t + a, n, e, qa[l]);
            summarize(t + a, n, e + 1, qb[l]);
        }
        st->passes++;
        size_t next = pos;
        for (unsigned j = 0; j < LANES; j++) {
            const size_t a = pos + j * k;
            if (a >= len)
                break;
            const size_t b = a + k < len ? a + k : len;
            const int es = ls_os_exponent(s);
            int ok;
            if (es == e)
                ok = ls_os_apply(&s, es, qa[j][0], qa[j][1]);
            else if (es == e + 1)
                ok = ls_os_apply(&s, es, qb[j][0], qb[j][1]);
            else
                break;
            if (!ok) {
                s = ls_os_replay(s, t + a, (uint32_t)(b - a));
                st->terms_replayed += b - a;
            }
            next = b;
        }
        pos = next;
    }
    return s;
}

/* A chunk's summaries as the summary kernel makes them: binades e - 1, e, e + 1 per segment and for
 * the whole chunk (the composition of its segments). */
static void summarize_chunk(const float *t, size_t len, int e, LsOsSummary *sum)
{
    sum->e = e;
    for (unsigned b = 0; b < 3; b++) {
        sum->q[b][0] = 0;
        sum->q[b][1] = 0;
    }
    for (unsigned g = 0; g < LS_OS_SEGMENTS; g++) {
        const size_t a = (size_t)g * LS_OS_SEGMENT;
        const size_t n = a >= len ? 0 : (len - a < LS_OS_SEGMENT ? len - a : LS_OS_SEGMENT);
        for (unsigned b = 0; b < 3; b++) {
            summarize(t + a, n, e + (int)b - 1, sum->seg[g][b]);
            const uint32_t *q = sum->q[b], *o = sum->seg[g][b];
            const uint32_t even = ls_os_compose(q[0], q[1], o[0], o[1], 0);
            const uint32_t odd = ls_os_compose(q[0], q[1], o[0], o[1], 1);
            sum->q[b][0] = even;
            sum->q[b][1] = odd;
        }
    }
}

float ls_ordered_sum_ref(const float *t, size_t n, int predict_bias, LsOsStats *stats)
{
    LsOsStats st = { 0 };
    float s = 0.0f;
    double prefix = 0.0;
    for (size_t c0 = 0; c0 < n; c0 += LS_OS_CHUNK) {
        const size_t len = n - c0 < LS_OS_CHUNK ? n - c0 : LS_OS_CHUNK;
        const float *ct = t + c0;
        double total = 0.0;
        for (size_t i = 0; i < len; i++)
            total += ct[i];

        /* the chunk's summary, predicted from the double prefix */
        LsOsSummary sum = { .e = LS_OS_NO_BINADE };
        const float predicted = (float)prefix;
        if (prefix > 0.0 && ls_os_is_normal(predicted))
            summarize_chunk(ct, len, ls_os_exponent(predicted) + predict_bias, &sum);
        prefix += total;

        /* the walker */
        st.chunks++;
        if (total == 0.0) {
            st.chunks_zero++;
            continue;
        }
        if (ls_os_apply3(&s, sum.e, sum.q[0][0], sum.q[0][1], sum.q[1][0], sum.q[1][1],
                         sum.q[2][0], sum.q[2][1])) {
            st.chunks_applied++;
            continue;
        }
        st.chunks_fallback++;
        if (sum.e == LS_OS_NO_BINADE) {
            st.segments_walked++;
            s = warp_walk(s, ct, len, &st);
            continue;
        }
        for (unsigned g = 0; g < LS_OS_SEGMENTS; g++) {
            const size_t a = (size_t)g * LS_OS_SEGMENT;
            if (a >= len)
                break;
            const uint32_t(*q)[2] = sum.seg[g];
            if (ls_os_apply3(&s, sum.e, q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1]))
                continue;
            st.segments_walked++;
            const size_t b = len - a < LS_OS_SEGMENT ? len : a + LS_OS_SEGMENT;
            s = warp_walk(s, ct + a, b - a, &st);
        }
    }
    if (stats)
        *stats = st;
    return s;
}
