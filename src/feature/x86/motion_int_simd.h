/* Integer motion SAD for one x86 vector width: included by motion_avx2.c and motion_avx512.c
 * after they define the vector macros (V*, N16, MI_FN). One algorithm, two widths. Exact, so any
 * split is fine: the 17-bit row values are split into a high and a low byte so that every
 * product fits madd. Lanes follow the in-lane unpack/pack order of both widths. */

/* acc + madd(a, b) mod 2^32: one instruction with VNNI (vpdpwssd wraps like the add) */
#ifndef VDPADD
#define VDPADD(acc, a, b) VADD32(acc, VMADD(a, b))
#endif

/* Pair (F[k], F[k+1]) in every 32-bit element, for madd. */
static inline __attribute__((always_inline)) VI mi_tap_pair(int32_t lo, int32_t hi)
{
    return VSET32((int32_t)(((uint32_t)hi << 16) | ((uint32_t)lo & 0xffff)));
}

uint64_t MI_FN(ls_int_motion_sad)(const void *prev, ptrdiff_t prev_stride, const void *cur,
                                  ptrdiff_t cur_stride, unsigned w, unsigned h, unsigned bpc,
                                  void *tmp)
{
    /* 16-bit differences leave the int16 range of madd (and the vertical sum int32) */
    if (bpc > 15)
        return ls_int_motion_sad_c(prev, prev_stride, cur, cur_stride, w, h, bpc, tmp);

    const VI f01 = mi_tap_pair(LS_INT_MOTION_F0, LS_INT_MOTION_F1);
    const VI f23 = mi_tap_pair(LS_INT_MOTION_F2, LS_INT_MOTION_F1);
    const VI f4z = mi_tap_pair(LS_INT_MOTION_F0, 0);
    const unsigned shift = bpc;
    const int32_t round = bpc == 8 ? 128 : 1 << (bpc - 1);
    const VI vround = VSET32(round);
    /* Up to 14 bits, d0 + d4 and d1 + d3 fit int16: the symmetric taps take them in one madd,
     * and the rounding rides with the centre tap on a lane of ones (round < 2^15). */
    const bool fold = bpc <= 14;
    const VI f2r = mi_tap_pair(LS_INT_MOTION_F2, round);
    const VI ones = VSET16(1);
    const __m128i vshift = _mm_cvtsi32_si128((int)shift);
    const VI low_byte = VSET32(0xff);
    const VI hround = VSET32(32768);
    const VI zero = VZERO();
    /* row value r = 256 * hi + lo, hi in [-256, 255], lo in [0, 255]; padded by 8 on the left
     * for the mirrored samples and the unaligned loads */
    int16_t *rh = (int16_t *)tmp + 8;
    int16_t *rl = rh + w + 32;
    /* prev - cur of the five rows a window reads, each made once: the rows of a window are
     * five consecutive indices (mirrored ones included), so slot yy % 5 never holds another
     * row of the same window */
    int16_t *diff[5];
    int diff_row[5];
    for (int k = 0; k < 5; k++) {
        diff[k] = rl + w + 32 + (size_t)k * (w + 32);
        diff_row[k] = -1;
    }
    const int iw = (int)w;
    uint64_t sad = 0;

    for (int i = 0; i < (int)h; i++) {
        const int16_t *dk[5];
        for (int k = 0; k < 5; k++) {
            const int yy = ls_motion_mirror(i - LS_INT_MOTION_RADIUS + k, (int)h);
            int16_t *row = diff[yy % 5];
            dk[k] = row;
            if (diff_row[yy % 5] == yy)
                continue;
            diff_row[yy % 5] = yy;
            const uint8_t *p = (const uint8_t *)prev + yy * prev_stride;
            const uint8_t *c = (const uint8_t *)cur + yy * cur_stride;
            int x = 0;
            for (; x + N16 <= iw; x += N16)
                VSTORE(row + x, bpc == 8 ? VSUB16(VLOAD_BYTES(p + x), VLOAD_BYTES(c + x))
                                         : VSUB16(VLOAD((const uint16_t *)p + x),
                                                  VLOAD((const uint16_t *)c + x)));
            for (; x < iw; x++)
                row[x] = (int16_t)(bpc == 8 ? (int)p[x] - (int)c[x]
                                            : (int)((const uint16_t *)p)[x] -
                                                  (int)((const uint16_t *)c)[x]);
        }
        VI any = zero;
        int x = 0;
        for (; x + N16 <= iw; x += N16) {
            VI d[5];
            for (int k = 0; k < 5; k++)
                d[k] = VLOAD(dk[k] + x);
            /* per 128-bit lane: acc_a holds pixels 0-3, acc_b 4-7; packs restores the order */
            VI acc_a, acc_b;
            if (fold) {
                const VI s04 = VADD16(d[0], d[4]), s13 = VADD16(d[1], d[3]);
                acc_a = VDPADD(VMADD(VUNPLO16(s04, s13), f01), VUNPLO16(d[2], ones), f2r);
                acc_b = VDPADD(VMADD(VUNPHI16(s04, s13), f01), VUNPHI16(d[2], ones), f2r);
            } else {
                acc_a = VDPADD(vround, VUNPLO16(d[0], d[1]), f01);
                acc_b = VDPADD(vround, VUNPHI16(d[0], d[1]), f01);
                acc_a = VDPADD(acc_a, VUNPLO16(d[2], d[3]), f23);
                acc_b = VDPADD(acc_b, VUNPHI16(d[2], d[3]), f23);
                acc_a = VDPADD(acc_a, VUNPLO16(d[4], zero), f4z);
                acc_b = VDPADD(acc_b, VUNPHI16(d[4], zero), f4z);
            }
            const VI row_a = VSRA32(acc_a, vshift);
            const VI row_b = VSRA32(acc_b, vshift);
            const VI hi = VPACKS32(VSRAI32(row_a, 8), VSRAI32(row_b, 8));
            const VI lo = VPACKS32(VAND(row_a, low_byte), VAND(row_b, low_byte));
            VSTORE(rh + x, hi);
            VSTORE(rl + x, lo);
            any = VOR(any, VOR(hi, lo));
        }
        int tail_nonzero = 0;
        for (; x < iw; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += (int64_t)ls_int_motion_filter[k] * dk[k][x];
            const int32_t r = ls_int_motion_vertical_round(acc, bpc);
            rh[x] = (int16_t)(r >> 8);
            rl[x] = (int16_t)(r & 0xff);
            tail_nonzero |= r;
        }
        /* an all-zero row of vertical results adds nothing */
        if (!VANY(any) && !tail_nonzero)
            continue;
        rh[-1] = rh[1], rh[-2] = rh[2], rh[iw] = rh[iw - 2], rh[iw + 1] = rh[iw - 3],
        rh[iw + 2] = 0;
        rl[-1] = rl[1], rl[-2] = rl[2], rl[iw] = rl[iw - 2], rl[iw + 1] = rl[iw - 3],
        rl[iw + 2] = 0;

        VI row_sum = zero;
        x = 0;
        for (; x + N16 <= iw; x += N16) {
            for (int odd = 0; odd < 2; odd++) {
                const int b = x - 2 + odd;
                VI hs = VMADD(VLOAD(rh + b), f01);
                VI ls = VDPADD(hround, VLOAD(rl + b), f01);
                hs = VDPADD(hs, VLOAD(rh + b + 2), f23);
                ls = VDPADD(ls, VLOAD(rl + b + 2), f23);
                hs = VDPADD(hs, VLOAD(rh + b + 4), f4z);
                ls = VDPADD(ls, VLOAD(rl + b + 4), f4z);
                /* (256 H + L + 32768) >> 16 == (H + ((L + 32768) >> 8)) >> 8 */
                const VI val = VSRAI32(VADD32(hs, VSRAI32(ls, 8)), 8);
                row_sum = VADD32(row_sum, VABS32(val));
            }
        }
        uint32_t row_sad = 0;
        for (; x < iw; x++) {
            int32_t r[5];
            for (int k = 0; k < 5; k++)
                r[k] = rh[x - 2 + k] * 256 + rl[x - 2 + k];
            const int32_t val = ls_int_motion_horizontal(r[0], r[1], r[2], r[3], r[4]);
            row_sad += (uint32_t)(val < 0 ? -val : val);
        }
        /* per lane at most 2 w / N16 values below 2^17 each: no wrap (sums mod 2^32 anyway) */
        row_sad += VHSUM32(row_sum);
        sad += row_sad;
    }
    return sad;
}
