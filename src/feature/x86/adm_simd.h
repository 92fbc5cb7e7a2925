/* Integer ADM scale 0 DWT for one x86 vector width: included by adm_avx2.c and adm_avx512.c
 * after they define the vector macros (VI, N16, N32, V*, FN) and pair16. One algorithm, two
 * widths: every step is madd on int16 pairs into int32 lanes, exact, so the width only sets how
 * many columns a step covers. */

static void pad_row16(int16_t *x, int n)
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
            VI sl = VADD32(VMADD(p01l, f01), VMADD(p23l, f23));
            VI sh = VADD32(VMADD(p01h, f01), VMADD(p23h, f23));
            sl = VSRA32(VADD32(sl, k), shift);
            sh = VSRA32(VADD32(sh, k), shift);
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
    return VSRAI32(VADD32(VADD32(VMADD(x1, f01), VMADD(x2, f23)), VSET32(32768)), 16);
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
