/* Integer VIF DSP units for one x86 vector width: included by vif_avx2.c and vif_avx512.c after
 * they define the vector macros (V*, N16/N32, FN). One algorithm, two widths.
 *
 * Every filter runs on 16-bit lanes with madd (two products of 16-bit values added into a 32-bit
 * lane), which is exact: each value that does not fit int16 is split into 16-bit pieces, and
 * unsigned pieces are stored minus 32768 (the sum of every tap set is 65536, so each filtered
 * piece comes out exactly 2^31 low and is corrected mod 2^32, where the true sums live). The
 * scale 3 taps (43728 does not fit int16) are used halved and the sums doubled.
 *
 * Statistics of one scale: the vertical pass reads "pair rows" (rows m and m+1 interleaved per
 * column, pieces already squared), kept in a small ring so that each is made once; a reflected
 * window is a run of rows that differ by one, so each of its tap pairs is a pair row, with the
 * taps swapped where it runs upwards. The vertical results are stored as pieces, the horizontal
 * pass takes even and odd outputs from the same pieces, and the per-pixel terms run on whole
 * vectors in double (the reference's operations lane by lane). Order of the pixels does not
 * matter: every accumulation is integer. Columns past the last full vector use the shared column
 * and pixel functions of vif.h. */

enum { PIECES_BYTES = 5, PIECES_WORDS = 8 };

/* acc + madd(a, b) mod 2^32: one instruction with VNNI (vpdpwssd wraps like the add) */
#ifndef VDPADD
#define VDPADD(acc, a, b) VADD32(acc, VMADD(a, b))
#endif

/* T[32768 + idx] for idx < 32768: a 32-bit gather at scale 2 from the uint16 table, the
 * neighbouring entry masked off */
static inline VI table_lookup(VI idx)
{
    return VAND(VGATHER32_SCALE2(ls_vif_log2_table, idx), VSET32(0xffff));
}

/* the tap pair (a, b) as a madd operand */
static inline VI tap_pair(unsigned a, unsigned b) { return VSET32((int32_t)(a | (b << 16))); }

/* taps of a scale as used in madd (halved for scale 3) */
static inline unsigned madd_tap(unsigned scale, unsigned k)
{
    return k < ls_vif_width(scale) ? (unsigned)ls_vif_taps[scale][k] >> (scale == 3) : 0u;
}

/* ---- per-pixel terms ---- */

/* horizontal sum of 64-bit lanes */
static inline int64_t hsum64(VI v)
{
    int64_t lanes[N64];
    VSTORE(lanes, v);
    int64_t s = 0;
    for (unsigned i = 0; i < N64; i++)
        s += lanes[i];
    return s;
}

static inline int64_t hsum32(VI v)
{
    int32_t lanes[N32];
    VSTORE(lanes, v);
    int64_t s = 0;
    for (unsigned i = 0; i < N32; i++)
        s += lanes[i];
    return s;
}

/* LOG2 of 32-bit lanes x >= 2^17: the exponent of the float of x >> 8 (exact, below 2^24)
 * gives k + 15, x >> k the table index. Returns T + 2048 k. */
static inline VI log2_u32(VI x)
{
    const VI e = VSRLI32(VF_BITS(VF_FROM_I32(VSRLI32(x, 8))), 23);
    const VI k = VSUB32(e, VSET32(127 + 15 - 8));
    const VI t = table_lookup(VSUB32(VSRLV32(x, k), VSET32(32768)));
    return VADD32(t, VSLLI32(k, 11));
}

/* g, sv_sq and n2 = g*g*sigma1 + n1 of N64 pixels whose 32-bit sigmas are in the half
 * vectors. n2 (an integer below 2^53, exact in double) is returned as a float truncated to its
 * 24 leading bits, which keeps the 16 bits LOG2 reads; n1 = sv_sq + sigma_nsq as uint32. */
static inline VFH num_log_half(VH s1, VH s2, VH s12, VD gain_limit, VH *n1)
{
    const VD d1 = VD_FROM_I32(s1), d2 = VD_FROM_I32(s2), d12 = VD_FROM_I32(s12);
    VD g = VD_DIV(d12, VD_ADD(d1, VD_SET1(LS_VIF_EPS)));
    VH sv = VD_TRUNC_I32(VD_SUB(d2, VD_MUL(g, d12)));
    sv = VH_MAX32(sv, VH_ZERO());
    g = VD_MIN(g, gain_limit);
    /* n1 may pass 2^31: in double from sv_sq >= 0 */
    const VD n1d = VD_ADD(VD_FROM_I32(sv), VD_SET1((double)LS_VIF_SIGMA_NSQ));
    const VD n2 = VD_ADD(VD_TRUNC(VD_MUL(VD_MUL(g, g), d1)), n1d);
    *n1 = VH_ADD32(sv, VH_SET32(LS_VIF_SIGMA_NSQ));
    /* clearing the 29 low significand bits makes the conversion exact */
    return VD_TO_F(VD_FROM_BITS(VAND(VD_BITS(n2), VSET64(~(int64_t)0x1fffffff))));
}

/* LOG2 of integers >= 2^17 given as floats truncated to 24 bits: exponent k + 15 and the 15
 * fraction bits below the leading one */
static inline VI log2_of_float(VI bits)
{
    const VI k = VSUB32(VSRLI32(bits, 23), VSET32(127 + 15));
    const VI t = table_lookup(VAND(VSRLI32(bits, 8), VSET32(0x7fff)));
    return VADD32(t, VSLLI32(k, 11));
}

void FN(ls_vif_pixels)(const int32_t *sigma1_sq, const int32_t *sigma2_sq, const int32_t *sigma12,
                       unsigned n, double gain_limit, LsVifAccum *acc)
{
    const VD limit = VD_SET1(gain_limit);
    const VI nsq = VSET32(LS_VIF_SIGMA_NSQ), zero = VZERO();
    VI num_log = zero, den_log = zero, num_nonlog = zero, den_nonlog = zero;
    unsigned j = 0, run = 0;
    for (; j + N32 <= n; j += N32) {
        const VI s1 = VLOAD(sigma1_sq + j), s12 = VLOAD(sigma12 + j);
        const VI s2 = VMAX32(VLOAD(sigma2_sq + j), zero);
        const VI is_log = VCMPGT32(s1, VSET32(LS_VIF_SIGMA_NSQ - 1));
        /* non-log lanes: sigma2 into the 64-bit sum, one count each */
        const VI s2_nonlog = VANDNOT(is_log, s2);
        num_nonlog = VADD64(num_nonlog, VADD64(VH_WIDEN64(VLO(s2_nonlog)),
                                               VH_WIDEN64(VHI(s2_nonlog))));
        den_nonlog = VSUB32(den_nonlog, VANDNOT(is_log, VSET32(-1)));
        if (!VTEST_ANY(is_log))
            continue;
        /* denominator: LOG2(nsq + sigma1) - 2048*17; other lanes read a harmless entry */
        const VI den = VSUB32(log2_u32(VBLENDV(nsq, VADD32(s1, nsq), is_log)),
                              VSET32(LS_VIF_LOG_DEN_OFFSET));
        den_log = VADD32(den_log, VAND(den, is_log));
        /* numerator where sigma12 > 0 and sigma2 > 0 */
        const VI has_num = VAND(is_log, VAND(VCMPGT32(s12, zero), VCMPGT32(s2, zero)));
        if (VTEST_ANY(has_num)) {
            VH n1_lo, n1_hi;
            const VFH n2_lo = num_log_half(VLO(s1), VLO(s2), VLO(s12), limit, &n1_lo);
            const VFH n2_hi = num_log_half(VHI(s1), VHI(s2), VHI(s12), limit, &n1_hi);
            /* n1 in [2^17, 2^32) in every lane (sv_sq is clamped at 0), read as uint32 */
            const VI num = VSUB32(log2_of_float(VF_BITS(VF_COMBINE(n2_lo, n2_hi))),
                                  log2_u32(VCOMBINE(n1_lo, n1_hi)));
            num_log = VADD32(num_log, VAND(num, has_num));
        }
        /* 32-bit lanes of den_log and num_log (each term below 2^16): move them to the 64-bit
         * totals before they could overflow */
        if (++run == 4096) {
            acc->den_log += hsum32(den_log);
            acc->num_log += hsum32(num_log);
            den_log = num_log = zero;
            run = 0;
        }
    }
    acc->num_log += hsum32(num_log);
    acc->den_log += hsum32(den_log);
    acc->num_nonlog += hsum64(num_nonlog);
    acc->den_nonlog += hsum32(den_nonlog);
    for (; j < n; j++)
        ls_vif_pixel(ls_vif_log2_table, sigma1_sq[j], sigma2_sq[j], sigma12[j], gain_limit, acc);
}

/* ---- statistics of one scale ---- */

typedef struct Stats {
    const LsVifPlane *ref, *dis;
    const LsVifLevel *level;
    unsigned w, wv, pieces;
    size_t pair_len;         /* int16 per piece of a pair row (2 per column) */
    int16_t *ring;           /* LS_VIF_RING pair rows of `pieces` pieces, by column block */
    int ring_row[LS_VIF_RING];
    int16_t *hbuf[PIECES_WORDS]; /* column -R at index 0 */
    int32_t *sig[3];
} Stats;

static inline const uint8_t *row_at(const LsVifPlane *pl, int i)
{
    return (const uint8_t *)pl->data + i * pl->stride;
}

/* The pieces of N16 columns of one row of both pictures (in the lane order VPRE_UNPACK makes). */
static inline void row_pieces(const Stats *st, int row, unsigned c, VI out[PIECES_WORDS])
{
    const VI half = VSET16(-32768);
    if (st->level->bytes) {
        const VI x = VPRE_UNPACK(VLOAD_BYTES(row_at(st->ref, row) + c));
        const VI y = VPRE_UNPACK(VLOAD_BYTES(row_at(st->dis, row) + c));
        out[0] = x;
        out[1] = y;
        out[2] = VXOR(VMULLO16(x, x), half);
        out[3] = VXOR(VMULLO16(y, y), half);
        out[4] = VXOR(VMULLO16(x, y), half);
    } else {
        const VI x = VPRE_UNPACK(VLOAD(row_at(st->ref, row) + 2 * c));
        const VI y = VPRE_UNPACK(VLOAD(row_at(st->dis, row) + 2 * c));
        out[0] = VXOR(x, half);
        out[1] = VXOR(y, half);
        out[2] = VXOR(VMULLO16(x, x), half);
        out[3] = VXOR(VMULHIU16(x, x), half);
        out[4] = VXOR(VMULLO16(y, y), half);
        out[5] = VXOR(VMULHIU16(y, y), half);
        out[6] = VXOR(VMULLO16(x, y), half);
        out[7] = VXOR(VMULHIU16(x, y), half);
    }
}

/* the pair row of rows m, m+1 (made on first use) */
static const int16_t *pair_row(Stats *st, int m)
{
    const unsigned slot = (unsigned)m % LS_VIF_RING;
    int16_t *pr = st->ring + slot * st->pieces * st->pair_len;
    if (st->ring_row[slot] == m)
        return pr;
    st->ring_row[slot] = m;
    /* per block of N16 columns: the low halves of every piece, then the high halves, so that
     * the vertical pass reads each pair row as one stream */
    for (unsigned c = 0; c < st->wv; c += N16) {
        VI a[PIECES_WORDS], b[PIECES_WORDS];
        row_pieces(st, m, c, a);
        row_pieces(st, m + 1, c, b);
        int16_t *blk = pr + (size_t)2 * st->pieces * c;
        for (unsigned p = 0; p < st->pieces; p++) {
            VSTORE(blk + p * N16, VUNPLO16(a[p], b[p]));
            VSTORE(blk + (st->pieces + p) * N16, VUNPHI16(a[p], b[p]));
        }
    }
    return pr;
}

static inline VI split_lo(VI v) { return VSUB32(VAND(v, VSET32(0xffff)), VSET32(32768)); }
static inline VI split_hi(VI v) { return VSUB32(VSRLI32(v, 16), VSET32(32768)); }
static inline VI centered(VI v) { return VSUB32(v, VSET32(32768)); }

/* The filtered pieces of one half block: sums over the pair rows. np is a constant where this
 * is inlined, so the accumulators stay in registers. */
static inline __attribute__((always_inline)) void
vertical_sums(const int16_t *const pr[], const VI taps[], unsigned n_pairs, size_t off,
              const unsigned np, VI out[PIECES_WORDS])
{
    VI a0 = VZERO(), a1 = VZERO(), a2 = VZERO(), a3 = VZERO(), a4 = VZERO();
    VI a5 = VZERO(), a6 = VZERO(), a7 = VZERO();
    for (unsigned t = 0; t < n_pairs; t++) {
        const int16_t *q = pr[t] + off;
        const VI tp = taps[t];
        a0 = VDPADD(a0, VLOAD(q), tp);
        a1 = VDPADD(a1, VLOAD(q + N16), tp);
        a2 = VDPADD(a2, VLOAD(q + 2 * N16), tp);
        a3 = VDPADD(a3, VLOAD(q + 3 * N16), tp);
        a4 = VDPADD(a4, VLOAD(q + 4 * N16), tp);
        if (np > 5) {
            a5 = VDPADD(a5, VLOAD(q + 5 * N16), tp);
            a6 = VDPADD(a6, VLOAD(q + 6 * N16), tp);
            a7 = VDPADD(a7, VLOAD(q + 7 * N16), tp);
        }
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
    out[4] = a4;
    if (np > 5) {
        out[5] = a5;
        out[6] = a6;
        out[7] = a7;
    }
}

/* The vertical pass of output row i into the horizontal input pieces. */
static void vertical(Stats *st, unsigned i)
{
    const LsVifLevel *lv = st->level;
    const unsigned scale = lv->scale, width = ls_vif_width(scale), r = ls_vif_radius(scale);
    const int h = (int)st->ref->h;
    const unsigned n_pairs = (width + 1) / 2;
    const int16_t *pr[LS_VIF_MAX_TAPS];
    VI taps[LS_VIF_MAX_TAPS];
    for (unsigned t = 0; t < n_pairs; t++) {
        const int a = ls_vif_reflect((int)i - (int)r + 2 * (int)t, h);
        const unsigned fa = madd_tap(scale, 2 * t), fb = madd_tap(scale, 2 * t + 1);
        int b;
        if (2 * t + 1 < width)
            b = ls_vif_reflect((int)i - (int)r + 2 * (int)t + 1, h);
        else
            b = a + 1 < h ? a + 1 : a - 1; /* the last row alone: its partner gets tap 0 */
        if (a < b) {
            pr[t] = pair_row(st, a);
            taps[t] = tap_pair(fa, fb);
        } else {
            pr[t] = pair_row(st, b);
            taps[t] = tap_pair(fb, fa);
        }
    }
    const unsigned np = st->pieces;
    for (unsigned c = 0; c < st->wv; c += N16) {
        VI lo[PIECES_WORDS], hi[PIECES_WORDS];
        for (unsigned half = 0; half < 2; half++) {
            VI *a = half ? hi : lo;
            const size_t off = (size_t)2 * np * c + half * np * N16;
            if (lv->bytes)
                vertical_sums(pr, taps, n_pairs, off, PIECES_BYTES, a);
            else
                vertical_sums(pr, taps, n_pairs, off, PIECES_WORDS, a);
            if (scale == 3)
                for (unsigned p = 0; p < np; p++)
                    a[p] = VSLLI32(a[p], 1);
        }
        VI v[2][5]; /* mu1, mu2, xx, yy, xy of the two halves */
        for (unsigned half = 0; half < 2; half++) {
            const VI *a = half ? hi : lo;
            if (lv->bytes) {
                const VI round = VSET32(128), bias = VSET32((int32_t)0x80000000u);
                v[half][0] = VSRLI32(VADD32(a[0], round), 8);
                v[half][1] = VSRLI32(VADD32(a[1], round), 8);
                v[half][2] = VADD32(a[2], bias);
                v[half][3] = VADD32(a[3], bias);
                v[half][4] = VADD32(a[4], bias);
            } else {
                const VI bias = VSET32((int32_t)0x80000000u);
                const VI mu_round = VSET32((int32_t)(lv->mu_round + 0x80000000u));
                const VI sq_round = VSET32((int32_t)((uint32_t)lv->sq_round + 0x80000000u));
                v[half][0] = VSRL32(VADD32(a[0], mu_round), lv->mu_shift);
                v[half][1] = VSRL32(VADD32(a[1], mu_round), lv->mu_shift);
                for (unsigned f = 0; f < 3; f++)
                    v[half][2 + f] = VADD32(VSLL32(VADD32(a[3 + 2 * f], bias), 16 - lv->sq_shift),
                                            VSRL32(VADD32(a[2 + 2 * f], sq_round), lv->sq_shift));
            }
        }
        const size_t at = r + c;
        VSTORE(st->hbuf[0] + at, VPACK16(centered(v[0][0]), centered(v[1][0])));
        VSTORE(st->hbuf[1] + at, VPACK16(centered(v[0][1]), centered(v[1][1])));
        for (unsigned f = 0; f < 3; f++) {
            VSTORE(st->hbuf[2 + 2 * f] + at, VPACK16(split_lo(v[0][2 + f]), split_lo(v[1][2 + f])));
            VSTORE(st->hbuf[3 + 2 * f] + at, VPACK16(split_hi(v[0][2 + f]), split_hi(v[1][2 + f])));
        }
    }
    if (st->wv < st->w) {
        const void *ref_rows[LS_VIF_MAX_TAPS], *dis_rows[LS_VIF_MAX_TAPS];
        ls_vif_window(st->ref, (int)i, r, ref_rows);
        ls_vif_window(st->dis, (int)i, r, dis_rows);
        for (unsigned c = st->wv; c < st->w; c++) {
            uint32_t col[5];
            ls_vif_vert_column(ref_rows, dis_rows, c, lv, col);
            st->hbuf[0][r + c] = (int16_t)((int32_t)col[0] - 32768);
            st->hbuf[1][r + c] = (int16_t)((int32_t)col[1] - 32768);
            for (unsigned f = 0; f < 3; f++) {
                st->hbuf[2 + 2 * f][r + c] = (int16_t)((int32_t)(col[2 + f] & 0xffff) - 32768);
                st->hbuf[3 + 2 * f][r + c] = (int16_t)((int32_t)(col[2 + f] >> 16) - 32768);
            }
        }
    }
    for (unsigned p = 0; p < PIECES_WORDS; p++) {
        int16_t *b = st->hbuf[p] + r;
        for (int m = 1; m <= (int)r; m++) {
            b[-m] = b[m];
            b[(int)st->w - 1 + m] = b[(int)st->w - 1 - m];
        }
    }
}

/* hi32(a * b + 2^31) per 32-bit lane */
static inline VI mul_round_hi(VI a, VI b)
{
    const VI round = VSET64(0x80000000ll);
    const VI even = VSRLI64(VADD64(VMULU32(a, b), round), 32);
    const VI odd = VADD64(VMULU32(VSRLI64(a, 32), VSRLI64(b, 32)), round);
    return VBLEND_ODD32(even, odd);
}

/* sigmas from the eight filtered pieces (each 2^31 low) */
static inline void sigmas_from_pieces(const VI s[PIECES_WORDS], VI *s1, VI *s2, VI *s12)
{
    const VI bias = VSET32((int32_t)0x80000000u), round = VSET32((int32_t)(0x80000000u + 32768));
    const VI mx = VADD32(s[0], bias), my = VADD32(s[1], bias);
    VI v[3];
    for (unsigned f = 0; f < 3; f++)
        v[f] = VADD32(VADD32(s[3 + 2 * f], bias), VSRLI32(VADD32(s[2 + 2 * f], round), 16));
    *s1 = VSUB32(v[0], mul_round_hi(mx, mx));
    *s2 = VSUB32(v[1], mul_round_hi(my, my));
    *s12 = VSUB32(v[2], mul_round_hi(mx, my));
}

/* The horizontal pass of one row into the sigma arrays: in each block of N16 columns, the even
 * columns first, then the odd ones. */
static void horizontal(Stats *st)
{
    const unsigned scale = st->level->scale, width = ls_vif_width(scale);
    const unsigned n_pairs = (width + 1) / 2;
    /* the load at column c - R + 2m feeds even outputs with taps (2m, 2m+1) and odd outputs
     * with taps (2m-1, 2m) */
    VI taps_even[LS_VIF_MAX_TAPS], taps_odd[LS_VIF_MAX_TAPS];
    for (unsigned m = 0; m < n_pairs; m++) {
        taps_even[m] = tap_pair(madd_tap(scale, 2 * m), madd_tap(scale, 2 * m + 1));
        taps_odd[m] = tap_pair(m ? madd_tap(scale, 2 * m - 1) : 0u, madd_tap(scale, 2 * m));
    }
    for (unsigned c = 0; c < st->wv; c += N16) {
        VI even[PIECES_WORDS], odd[PIECES_WORDS];
        for (unsigned p = 0; p < PIECES_WORDS; p++) {
            const int16_t *b = st->hbuf[p] + c;
            VI e = VZERO(), o = VZERO();
            for (unsigned m = 0; m < n_pairs; m++) {
                const VI v = VLOAD(b + 2 * m);
                e = VDPADD(e, v, taps_even[m]);
                o = VDPADD(o, v, taps_odd[m]);
            }
            if (scale == 3) {
                e = VSLLI32(e, 1);
                o = VSLLI32(o, 1);
            }
            even[p] = e;
            odd[p] = o;
        }
        VI s1, s2, s12;
        sigmas_from_pieces(even, &s1, &s2, &s12);
        VSTORE(st->sig[0] + c, s1);
        VSTORE(st->sig[1] + c, s2);
        VSTORE(st->sig[2] + c, s12);
        sigmas_from_pieces(odd, &s1, &s2, &s12);
        VSTORE(st->sig[0] + c + N32, s1);
        VSTORE(st->sig[1] + c + N32, s2);
        VSTORE(st->sig[2] + c + N32, s12);
    }
    for (unsigned c = st->wv; c < st->w; c++) {
        uint32_t vals[5][LS_VIF_MAX_TAPS];
        for (unsigned k = 0; k < width; k++) {
            const size_t at = c + k; /* column c - r + k */
            vals[0][k] = (uint32_t)(st->hbuf[0][at] + 32768);
            vals[1][k] = (uint32_t)(st->hbuf[1][at] + 32768);
            for (unsigned f = 0; f < 3; f++)
                vals[2 + f][k] = ((uint32_t)(st->hbuf[3 + 2 * f][at] + 32768) << 16) |
                                 (uint32_t)(st->hbuf[2 + 2 * f][at] + 32768);
        }
        const uint32_t *const v[5] = { vals[0], vals[1], vals[2], vals[3], vals[4] };
        const LsVifSigmas s = ls_vif_horiz_pixel(v, scale);
        st->sig[0][c] = s.sigma1_sq;
        st->sig[1][c] = s.sigma2_sq;
        st->sig[2][c] = s.sigma12;
    }
}

void FN(ls_vif_stats)(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                      double gain_limit, LsVifAccum *acc, void *tmp)
{
    Stats st;
    st.ref = ref;
    st.dis = dis;
    st.level = level;
    st.w = ref->w;
    st.wv = ref->w - ref->w % N16;
    st.pieces = level->bytes ? PIECES_BYTES : PIECES_WORDS;
    const size_t cols = (size_t)ref->w + 128;
    st.pair_len = 2 * cols;
    st.ring = tmp;
    for (unsigned s = 0; s < LS_VIF_RING; s++)
        st.ring_row[s] = -1;
    int16_t *hb = st.ring + (size_t)LS_VIF_RING * st.pieces * st.pair_len;
    const unsigned r = ls_vif_radius(level->scale);
    for (unsigned p = 0; p < PIECES_WORDS; p++) {
        st.hbuf[p] = hb + p * cols;
        /* the partner of the last tap (weight 0) may be read past the padding */
        for (size_t k = st.w + 2 * r; k < cols; k++)
            st.hbuf[p][k] = 0;
    }
    int32_t *sig = (int32_t *)(void *)(hb + PIECES_WORDS * cols);
    for (unsigned f = 0; f < 3; f++)
        st.sig[f] = sig + f * cols;
    for (unsigned i = 0; i < ref->h; i++) {
        vertical(&st, i);
        horizontal(&st);
        FN(ls_vif_pixels)(st.sig[0], st.sig[1], st.sig[2], st.w, gain_limit, acc);
    }
}

/* ---- next scale ---- */

void FN(ls_vif_decimate)(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst, void *tmp)
{
    const unsigned scale = level->scale + 1, width = ls_vif_width(scale), r = ls_vif_radius(scale);
    const unsigned w = src->w, w_out = src->w / 2, h_out = src->h / 2;
    const unsigned wv = w - w % N16, n_pairs = (width + 1) / 2;
    int16_t *t = tmp; /* column -r at index 0 */
    for (size_t k = w + 2 * r; k < w + 2 * r + 2 * N16; k++)
        t[k] = 0;
    VI vtaps[LS_VIF_MAX_TAPS], htaps[LS_VIF_MAX_TAPS];
    for (unsigned m = 0; m < n_pairs; m++)
        htaps[m] = vtaps[m] = tap_pair(madd_tap(scale, 2 * m), madd_tap(scale, 2 * m + 1));
    const VI half = VSET16(-32768);
    const VI v_round = VSET32((int32_t)(level->mu_round + (level->bytes ? 0u : 0x80000000u)));
    const VI h_round = VSET32((int32_t)(0x80000000u + 32768));
    for (unsigned i = 0; i < h_out; i++) {
        const void *rows[LS_VIF_MAX_TAPS];
        ls_vif_window(src, 2 * (int)i, r, rows);
        for (unsigned c = 0; c < wv; c += N16) {
            VI l = VZERO(), u = VZERO();
            for (unsigned m = 0; m < n_pairs; m++) {
                VI a, b = VZERO();
                if (level->bytes) {
                    a = VPRE_UNPACK(VLOAD_BYTES((const uint8_t *)rows[2 * m] + c));
                    if (2 * m + 1 < width)
                        b = VPRE_UNPACK(VLOAD_BYTES((const uint8_t *)rows[2 * m + 1] + c));
                } else {
                    a = VXOR(VPRE_UNPACK(VLOAD((const uint16_t *)rows[2 * m] + c)), half);
                    if (2 * m + 1 < width)
                        b = VXOR(VPRE_UNPACK(VLOAD((const uint16_t *)rows[2 * m + 1] + c)), half);
                }
                l = VDPADD(l, VUNPLO16(a, b), vtaps[m]);
                u = VDPADD(u, VUNPHI16(a, b), vtaps[m]);
            }
            if (scale == 3) {
                l = VSLLI32(l, 1);
                u = VSLLI32(u, 1);
            }
            l = VSRL32(VADD32(l, v_round), level->mu_shift);
            u = VSRL32(VADD32(u, v_round), level->mu_shift);
            VSTORE(t + r + c, VPACK16(centered(l), centered(u)));
        }
        const uint16_t *f = ls_vif_taps[scale];
        for (unsigned c = wv; c < w; c++) {
            uint32_t a = 0;
            for (unsigned k = 0; k < width; k++)
                a += f[k] * (uint32_t)(level->bytes ? ((const uint8_t *)rows[k])[c]
                                                    : ((const uint16_t *)rows[k])[c]);
            t[r + c] = (int16_t)((int32_t)((a + level->mu_round) >> level->mu_shift) - 32768);
        }
        for (int m = 1; m <= (int)r; m++) {
            t[(int)r - m] = t[(int)r + m];
            t[(int)r + (int)w - 1 + m] = t[(int)r + (int)w - 1 - m];
        }
        uint16_t *out = dst + (size_t)i * w_out;
        unsigned j = 0;
        for (; j + N16 <= w_out; j += N16) {
            VI l = VZERO(), u = VZERO();
            for (unsigned m = 0; m < n_pairs; m++) {
                l = VDPADD(l, VLOAD(t + 2 * j + 2 * m), htaps[m]);
                u = VDPADD(u, VLOAD(t + 2 * j + N16 + 2 * m), htaps[m]);
            }
            if (scale == 3) {
                l = VSLLI32(l, 1);
                u = VSLLI32(u, 1);
            }
            l = VSRLI32(VADD32(l, h_round), 16);
            u = VSRLI32(VADD32(u, h_round), 16);
            VSTORE(out + j, VPACKUS16(l, u));
        }
        for (; j < w_out; j++) {
            uint32_t a = 0;
            for (unsigned k = 0; k < width; k++)
                a += f[k] * (uint32_t)(t[2 * j + k] + 32768);
            out[j] = (uint16_t)((a + 32768) >> 16);
        }
    }
}
