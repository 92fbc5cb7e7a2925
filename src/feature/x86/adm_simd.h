/* Integer ADM row units for one x86 vector width: the DWTs, the CSF, the numerators and the
 * denominators. Included by adm_avx2.c and adm_avx512.c after they define the vector macros (VI,
 * N16, N32, V*, FN) and the helpers whose best form differs by width (pair16, wrap16,
 * csf123_lanes, scaled_abs_high, cube_terms, hsum64, keep_positive, all_zero, in_int16_rows,
 * load_first16, load_first32, any_int32_min and the VJOIN/VINTERLEAVE_LOW_HALVES shuffles). One
 * algorithm, two widths: every lane is independent and every sum integer, so the width only sets
 * how many columns a step covers. */

/* acc + madd(a, b) mod 2^32: one instruction with VNNI (vpdpwssd wraps like the add) */
#ifndef VDPADD
#define VDPADD(acc, a, b) VADD32(acc, VMADD(a, b))
#endif

static void pad_row16(int16_t *x, int n)
{
    x[-1] = x[1];
    x[n] = x[n - 1];
    x[n + 1] = x[n - 2];
}

static void pad_row32(int32_t *x, int n)
{
    x[-1] = x[1];
    x[n] = x[n - 1];
    x[n + 1] = x[n - 2];
}

/* The vertical pass of a whole input row: low-pass into lo and, for the blocks of N16 columns
 * that meet [h0, h1) when hi is not NULL, high-pass into hi, from the same loads. 16-bit
 * samples enter madd as u - 32768 (smaller ones fit int16 as they are): the offset and the
 * low-pass DC term fold into one constant, and the int32 wrap of 16-bit input is the
 * reference's. The last block reads up to N16 - 1 samples past the row's end (the picture's row
 * padding or its 64 bytes of slack) into lanes past wi, which pad_row16 overwrites: no scalar
 * tail. */
ALWAYS_INLINE void vertical0_row(const void *const rows[4], int bpc, bool eight, int wi, int h0,
                                 int h1, int16_t *lo, int16_t *hi)
{
    const uint32_t r = 1u << (bpc - 1), off = bpc == 16 ? 32768u : 0u;
    const VI flo01 = pair16(15826, 27411), flo23 = pair16(7345, -4240);
    const VI fhi01 = pair16(-4240, -7345), fhi23 = pair16(27411, -15826);
    const VI klo = VSET32((int32_t)((uint32_t)LS_ADM_LO_SUM * (off - r) + r));
    const VI khi = VSET32((int32_t)r);
    const __m128i shift = _mm_cvtsi32_si128(bpc);
    const VI flip = VSET16((int16_t)off);
    const uint8_t *r8[4];
    const uint16_t *r16[4];
    for (int t = 0; t < 4; t++) {
        r8[t] = (const uint8_t *)rows[t];
        r16[t] = (const uint16_t *)rows[t];
    }
    for (int j = 0; j < wi; j += N16) {
        VI u[4];
        for (int t = 0; t < 4; t++)
            u[t] = eight ? VLOAD_BYTES(r8[t] + j) : VXOR(VLOAD(r16[t] + j), flip);
        const VI p01l = VUNPLO16(u[0], u[1]), p01h = VUNPHI16(u[0], u[1]);
        const VI p23l = VUNPLO16(u[2], u[3]), p23h = VUNPHI16(u[2], u[3]);
        const int passes = hi && j + N16 > h0 && j < h1 ? 2 : 1;
        for (int pass = 0; pass < passes; pass++) {
            const VI f01 = pass ? fhi01 : flo01, f23 = pass ? fhi23 : flo23;
            const VI k = pass ? khi : klo;
            int16_t *out = pass ? hi : lo;
            const VI sl = VSRA32(VDPADD(VDPADD(k, p01l, f01), p23l, f23), shift);
            const VI sh = VSRA32(VDPADD(VDPADD(k, p01h, f01), p23h, f23), shift);
            VSTORE(out + j, VPACKS32(sl, sh));
        }
    }
}

static void FN(vertical0)(const void *const rows[4], int bpc, int wi, int h0, int h1,
                          int16_t *lo, int16_t *hi)
{
    if (bpc == 8)
        vertical0_row(rows, 8, true, wi, h0, h1, lo, hi);
    else
        vertical0_row(rows, bpc, false, wi, h0, h1, lo, hi);
}

/* (x1 * (f0, f1) + x2 * (f2, f3) + 2^15) >> 16 over N32 outputs: x1 holds the taps 2j-1, 2j of
 * each output, x2 the taps 2j+1, 2j+2 */
ALWAYS_INLINE VI htap0(VI x1, VI x2, VI f01, VI f23)
{
    return VSRAI32(VDPADD(VDPADD(VSET32(32768), x1, f01), x2, f23), 16);
}

static void FN(dwt0)(const void *const rows[4], int bpc, int wi, int d0, int d1, void *tmp,
                     int32_t *a, int16_t *h, int16_t *v, int16_t *d)
{
    int16_t *lo = (int16_t *)tmp + 32, *hi = lo + wi + 64;
    const VI flo01 = pair16(15826, 27411), flo23 = pair16(7345, -4240);
    const VI fhi01 = pair16(-4240, -7345), fhi23 = pair16(27411, -15826);
    /* low-pass over every column (the approximation needs it); high-pass only where details
     * are wanted: input columns [2 d0 - 1, 2 d1 + 1), the taps of outputs [d0, d1) */
    const int c0 = 2 * d0 - 1 > 0 ? 2 * d0 - 1 : 0, c1 = 2 * d1 + 1 < wi ? 2 * d1 + 1 : wi;
    FN(vertical0)(rows, bpc, wi, c0, c1, lo, h ? hi : NULL);
    if (h)
        pad_row16(hi, wi);
    pad_row16(lo, wi);

    const int w = (wi + 1) / 2;
    if (a)
        for (int j = 0; j < w; j += N32)
            VSTORE(a + j, htap0(VLOAD(lo + 2 * j - 1), VLOAD(lo + 2 * j + 1), flo01, flo23));
    if (!h)
        return;
    for (int j = d0; j < d1; j += N32) {
        const VI l1 = VLOAD(lo + 2 * j - 1), l2 = VLOAD(lo + 2 * j + 1);
        const VI h1 = VLOAD(hi + 2 * j - 1), h2 = VLOAD(hi + 2 * j + 1);
        /* the sums fit int16 after the shift: the narrowing is the reference's (int16) cast */
        VSTORE_NARROW16(h + j, htap0(h1, h2, flo01, flo23));
        VSTORE_NARROW16(v + j, htap0(l1, l2, fhi01, fhi23));
        VSTORE_NARROW16(d + j, htap0(h1, h2, fhi01, fhi23));
    }
}

/* N64 outputs (low halves of the 64-bit lanes) of the scale 1..3 horizontal pass from
 * x1 = t[2j-1 ..] and x2 = t[2j+1 ..]: bits [sh, sh + 32) of the int64 sum, the (int32) cast of
 * the arithmetic shift */
ALWAYS_INLINE VI htap123(VI x1, VI x2, const VI f[4], VI rnd, __m128i sh)
{
    VI s = VMULDQ(x1, f[0]);
    s = VADD64(s, VMULDQ(VSRLI64(x1, 32), f[1]));
    s = VADD64(s, VMULDQ(x2, f[2]));
    s = VADD64(s, VMULDQ(VSRLI64(x2, 32), f[3]));
    return VSRL64(VADD64(s, rnd), sh);
}

static void FN(dwt123)(const int32_t *const rows[4], int scale, int wi, int d0, int d1,
                       void *tmp, int32_t *a, int32_t *h, int32_t *v, int32_t *d)
{
    const int t = scale - 1;
    int32_t *lo = (int32_t *)tmp + 16, *hi = lo + wi + 48;
    VI flo[4], fhi[4];
    for (int k = 0; k < 4; k++) {
        flo[k] = VSET64(ls_adm_dwt_lo[k]);
        fhi[k] = VSET64(ls_adm_dwt_hi[k]);
    }
    const VI vr = VSET64(ls_adm_dwt_v_round[t]);
    const __m128i vs = _mm_cvtsi32_si128(ls_adm_dwt_v_shift[t]);
    /* low-pass over every column, high-pass only for the taps of outputs [d0, d1) (dwt0) */
    for (int pass = 0; pass < (h ? 2 : 1); pass++) {
        const VI *f = pass ? fhi : flo;
        const int c0 = pass && 2 * d0 - 1 > 0 ? 2 * d0 - 1 : 0;
        const int c1 = pass && 2 * d1 + 1 < wi ? 2 * d1 + 1 : wi;
        const VI f01 = pass ? pair16(-4240, -7345) : pair16(15826, 27411);
        const VI f23 = pass ? pair16(27411, -15826) : pair16(7345, -4240);
        for (int j = c0; j < c1; j += N32) {
            VI x[4], xo[4];
            for (int k = 0; k < 4; k++)
                x[k] = VLOAD(rows[k] + j);
            if (scale == 1 && in_int16_rows(x)) {
                /* no rounding or shift at scale 1, and an int16 input sums exactly in int32 */
                const VI low16 = VSET32(0xffff);
                const VI p01 = VOR(VAND(x[0], low16), VSLLI32(x[1], 16));
                const VI p23 = VOR(VAND(x[2], low16), VSLLI32(x[3], 16));
                VSTORE((pass ? hi : lo) + j, VADD32(VMADD(p01, f01), VMADD(p23, f23)));
                continue;
            }
            for (int k = 0; k < 4; k++)
                xo[k] = VSRLI64(x[k], 32);
            VI se = VMULDQ(x[0], f[0]), so = VMULDQ(xo[0], f[0]);
            for (int k = 1; k < 4; k++) {
                se = VADD64(se, VMULDQ(x[k], f[k]));
                so = VADD64(so, VMULDQ(xo[k], f[k]));
            }
            se = VSRL64(VADD64(se, vr), vs);
            so = VSRL64(VADD64(so, vr), vs);
            VSTORE((pass ? hi : lo) + j, VINTERLEAVE_LOW_HALVES(se, so));
        }
    }
    pad_row32(lo, wi);
    if (h)
        pad_row32(hi, wi);

    const int w = (wi + 1) / 2;
    const VI hr = VSET64(ls_adm_dwt_h_round[t]);
    const __m128i hs = _mm_cvtsi32_si128(ls_adm_dwt_h_shift[t]);
    if (a) {
        for (int j = 0; j < w; j += N32) {
            VI r[2];
            for (int g = 0; g < 2; g++) {
                const int jj = j + N64 * g;
                r[g] = htap123(VLOAD(lo + 2 * jj - 1), VLOAD(lo + 2 * jj + 1), flo, hr, hs);
            }
            VSTORE(a + j, VJOIN_LOW_HALVES(r[0], r[1]));
        }
    }
    if (!h)
        return;
    for (int j = d0; j < d1; j += N32) {
        VI rv[2], rh[2], rd[2];
        for (int g = 0; g < 2; g++) {
            const int jj = j + N64 * g;
            const VI l1 = VLOAD(lo + 2 * jj - 1), l2 = VLOAD(lo + 2 * jj + 1);
            const VI h1 = VLOAD(hi + 2 * jj - 1), h2 = VLOAD(hi + 2 * jj + 1);
            rv[g] = htap123(l1, l2, fhi, hr, hs);
            rh[g] = htap123(h1, h2, flo, hr, hs);
            rd[g] = htap123(h1, h2, fhi, hr, hs);
        }
        VSTORE(v + j, VJOIN_LOW_HALVES(rv[0], rv[1]));
        VSTORE(h + j, VJOIN_LOW_HALVES(rh[0], rh[1]));
        VSTORE(d + j, VJOIN_LOW_HALVES(rd[0], rd[1]));
    }
}

/* ---- CSF (adm.md §6): f = Σθ flt_θ, m = Σθ center_θ over N32 columns a step ---- */

static void FN(csf0)(const int16_t *const x[3], int c0, int c1, const uint16_t factor[3],
                     int32_t *f, int32_t *m)
{
    /* centre = (8738 |c| + 2048) >> 12 = (2 * 4369 |c| + 2048) >> 12 = (4369 |c| + 1024) >> 11:
     * one product for both terms (4369 * 2^15 fits int32) */
    const VI k30 = VSET32(4369), r12 = VSET32(2048), r11 = VSET32(1024);
    VI fac[3], rnd[3];
    __m128i sh[3];
    for (int b = 0; b < 3; b++) {
        fac[b] = VSET32(factor[b]);
        rnd[b] = VSET32(ls_adm_csf0_round[b]);
        sh[b] = _mm_cvtsi32_si128(ls_adm_csf0_shift[b]);
    }
    for (int j = c0; j < c1; j += N32) {
        VI fs = VZERO(), ms = VZERO();
        for (int b = 0; b < 3; b++) {
            const VI c = wrap16(VSRA32(VADD32(VMULLO32(VLOAD_I16(x[b] + j), fac[b]), rnd[b]), sh[b]));
            const VI p = VMULLO32(VABS32(c), k30);
            fs = VADD32(fs, wrap16(VSRAI32(VADD32(p, r12), 12)));
            ms = VADD32(ms, wrap16(VSRAI32(VADD32(p, r11), 11)));
        }
        VSTORE(f + j, fs);
        VSTORE(m + j, ms);
    }
}

static void FN(csf123)(const int32_t *const x[3], int c0, int c1, const uint32_t factor[3],
                       int32_t *f, int32_t *m)
{
    const VI k30 = VSET64(143165577), k15 = VSET64(286331153);
    VI fac[3];
    for (int b = 0; b < 3; b++)
        fac[b] = VSET64(factor[b]);
    for (int j = c0; j < c1; j += N32) {
        VI fs = VZERO(), ms = VZERO();
        for (int b = 0; b < 3; b++) {
            const VI mag = VABS32(csf123_lanes(VLOAD(x[b] + j), fac[b]));
            fs = VADD32(fs, scaled_abs_high(mag, k30));
            ms = VADD32(ms, scaled_abs_high(mag, k15));
        }
        VSTORE(f + j, fs);
        VSTORE(m + j, ms);
    }
}

/* ---- numerator (adm.md §8.1) ---- */

/* the masking threshold at columns j.. (ls_adm_threshold) */
ALWAYS_INLINE VI threshold(const int32_t *up, const int32_t *mid, const int32_t *down,
                           const int32_t *m, int j)
{
    VI s = VADD32(VADD32(VLOAD(up + j - 1), VLOAD(up + j)), VLOAD(up + j + 1));
    s = VADD32(s, VADD32(VLOAD(mid + j - 1), VLOAD(mid + j + 1)));
    s = VADD32(s, VADD32(VADD32(VLOAD(down + j - 1), VLOAD(down + j)), VLOAD(down + j + 1)));
    return VADD32(s, VLOAD(m + j));
}

static void FN(cm0)(const int16_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                    const int32_t *f_down, const int32_t *m, int j0, int j1,
                    const uint16_t factor[3], const uint32_t cs[3], const uint32_t cr[3],
                    int64_t acc[3])
{
    VI sum[3], fac[3], qr[3], crv[3];
    __m128i qs[3], csv[3], ts[3];
    for (int b = 0; b < 3; b++) {
        sum[b] = VZERO();
        fac[b] = VSET32(factor[b]);
        qr[b] = VSET64(ls_adm_cm0_sq_round[b]);
        qs[b] = _mm_cvtsi32_si128(ls_adm_cm0_sq_shift[b]);
        crv[b] = VSET64(cr[b]);
        csv[b] = _mm_cvtsi32_si128((int)cs[b]);
        ts[b] = _mm_cvtsi32_si128(ls_adm_cm0_thr_shift[b]);
    }
    for (int j = j0; j < j1; j += N32) {
        const VI thr = threshold(f_up, f_mid, f_down, m, j);
        for (int b = 0; b < 3; b++) {
            VI x = VABS32(VMULLO32(VLOAD_I16(src[b] + j), fac[b]));
            x = keep_positive(VSUB32(x, VSLL32(thr, ts[b])), j1 - j);
            if (all_zero(x)) /* masked: nothing to add */
                continue;
            sum[b] = cube_terms(sum[b], x, qr[b], qs[b], crv[b], csv[b]);
        }
    }
    for (int b = 0; b < 3; b++)
        acc[b] = hsum64(sum[b]);
}

static void FN(cm123)(const int32_t *const src[3], const int32_t *f_up, const int32_t *f_mid,
                      const int32_t *f_down, const int32_t *m, int j0, int j1,
                      const uint32_t factor[3], uint32_t cs, uint32_t cr, int64_t acc[3])
{
    VI sum[3], fac[3];
    for (int b = 0; b < 3; b++) {
        sum[b] = VZERO();
        fac[b] = VSET64(factor[b]);
    }
    const VI qr = VSET64(1 << 29), crv = VSET64(cr);
    const __m128i qs = _mm_cvtsi32_si128(30), csv = _mm_cvtsi32_si128((int)cs);
    for (int j = j0; j < j1; j += N32) {
        const VI thr = threshold(f_up, f_mid, f_down, m, j);
        for (int b = 0; b < 3; b++) {
            const VI c = csf123_lanes(VLOAD(src[b] + j), fac[b]);
            const VI x = keep_positive(VSUB32(VABS32(c), thr), j1 - j);
            if (all_zero(x))
                continue;
            sum[b] = cube_terms(sum[b], x, qr, qs, crv, csv);
        }
    }
    for (int b = 0; b < 3; b++)
        acc[b] = hsum64(sum[b]);
}

/* ---- denominator (adm.md §8.2): sums of |b|^3 per band ---- */

static void FN(den0)(const int16_t *const band[3], int j0, int j1, uint64_t acc[3])
{
    const VI zero = VZERO();
    for (int b = 0; b < 3; b++) {
        VI s = zero;
        for (int j = j0; j < j1; j += N16) {
            /* |b| as uint16 (|-32768| = 32768), |b|^2 as its low and high halves */
            const VI mag = VABS16(load_first16(band[b] + j, j1 - j));
            const VI lo = VMULLO16(mag, mag), hi = VMULHIU16(mag, mag);
            const VI sq[2] = { VUNPLO16(lo, hi), VUNPHI16(lo, hi) };
            const VI m1[2] = { VUNPLO16(mag, zero), VUNPHI16(mag, zero) };
            for (int g = 0; g < 2; g++) {
                s = VADD64(s, VMULU32(sq[g], m1[g]));
                s = VADD64(s, VMULU32(VSRLI64(sq[g], 32), VSRLI64(m1[g], 32)));
            }
        }
        acc[b] = (uint64_t)hsum64(s);
    }
}

static void FN(den123)(const int32_t *const band[3], int j0, int j1, int sq, uint32_t cs,
                       uint32_t cr, uint64_t acc[3])
{
    const VI sqr = VSET64(1ll << sq), crv = VSET64(cr);
    const __m128i sqs = _mm_cvtsi32_si128(sq), csv = _mm_cvtsi32_si128((int)cs);
    for (int b = 0; b < 3; b++) {
        VI s = VZERO();
        uint64_t tail = 0;
        for (int j = j0; j < j1; j += N32) {
            const VI v = load_first32(band[b] + j, j1 - j);
            if (any_int32_min(v)) {
                /* |INT32_MIN|^2 >> sq needs 33 bits: the reference's arithmetic */
                for (int jj = j; jj < j1 && jj < j + N32; jj++)
                    tail += ls_adm_den123_term(band[b][jj], sq, cs, cr);
                continue;
            }
            /* lanes past j1 are 0: (2^sq >> sq) * 0 + cr, below 2^cs, adds 0 */
            const VI mag = VABS32(v);
            for (int odd = 0; odd < 2; odd++) {
                const VI mm = odd ? VSRLI64(mag, 32) : mag;
                const VI q = VSRL64(VADD64(VMULU32(mm, mm), sqr), sqs);
                s = VADD64(s, VSRL64(VADD64(VMULU32(q, mm), crv), csv));
            }
        }
        acc[b] = (uint64_t)hsum64(s) + tail;
    }
}
