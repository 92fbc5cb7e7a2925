/* Integer VIF DSP units for one x86 vector width: included by vif_avx2.c and vif_avx512.c after
 * they define the vector macros (V*, N16/N32/N64, FN). One algorithm, two widths.
 *
 * Every filter runs on 16-bit lanes with madd (two products of 16-bit values added into a 32-bit
 * lane), which is exact: each value that does not fit int16 is split into 16-bit pieces, and
 * unsigned pieces are stored minus 32768 (the sum of every tap set is 65536, so each filtered
 * piece comes out exactly 2^31 low and is corrected mod 2^32, where the true sums live). The
 * scale 3 taps (43728 does not fit int16) are used halved and the sums doubled.
 *
 * Statistics of one scale run in vertical strips (a few hundred KB of pair rows each, so that
 * they stay in L2) and, in a strip, row by row: the vertical pass reads "pair rows" (rows m and
 * m+1 interleaved per column, pieces already squared), kept in a ring so that each is made once;
 * a reflected window is a run of rows that differ by one, so each of its tap pairs is a pair row,
 * with the taps swapped where it runs upwards. Its results, stored as pieces, feed the horizontal
 * pass, whose even and odd outputs come from the same loads; the sigmas of each vector of outputs
 * go straight to the per-pixel terms: the non-log sums and the denominator in registers, and the
 * lanes that need the numerator (a double division and two table reads) are packed into a batch
 * that is processed in whole vectors. Order of the pixels does not matter: every accumulation is
 * integer. The code is specialised per scale (tap counts are constants). Planes narrower than a
 * vector use the C reference; column tails reuse a vector that ends at the last column (outputs
 * already counted are masked off). */

enum { PIECES_BYTES = 5, PIECES_WORDS = 8 };

/* Index in a horizontal input row of column c0 (the strip's first output column): room for the
 * 16 reflected columns, and vertical blocks of the strips after the first (from c0 - R) aligned
 * to 64 bytes. */
static inline unsigned hbuf_margin(unsigned r) { return 32 + r; }

#define VIF_INLINE static inline __attribute__((always_inline))
/* loops over taps, pieces and halves: constant counts, unrolled so that taps are constants and
 * accumulators stay in registers */
#define UNROLL _Pragma("GCC unroll 32")

/* acc + madd(a, b) mod 2^32: one instruction with VNNI (vpdpwssd wraps like the add) */
#ifndef VDPADD
#define VDPADD(acc, a, b) VADD32(acc, VMADD(a, b))
#endif

/* T[32768 + idx] for idx < 32768: a 32-bit gather at scale 2 from the uint16 table, the
 * neighbouring entry masked off */
#ifndef VIF_TABLE_SCALAR
VIF_INLINE VI table_lookup(VI idx)
{
    return VAND(VGATHER32_SCALE2(ls_vif_log2_table, idx), VSET32(0xffff));
}
#endif

/* the tap pair (a, b) as a madd operand */
VIF_INLINE VI tap_pair(unsigned a, unsigned b) { return VSET32((int32_t)(a | (b << 16))); }

/* tap k of a scale as used in madd: 0 outside the filter, halved for scale 3 */
VIF_INLINE unsigned madd_tap(unsigned scale, int k)
{
    return k >= 0 && k < (int)ls_vif_width(scale) ? (unsigned)ls_vif_taps[scale][k] >> (scale == 3)
                                                   : 0u;
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

/* ((v + c) >> s) - 32768 as int16 lanes, for sums v that are 2^31 * biased low (mod 2^32): with
 * C = round + 2^31 * biased - 2^(15+s) the shifted value fits int32, and the arithmetic shift
 * gives the centered result in range. Valid when the unshifted result is below 2^16 (vif.md §4). */
VIF_INLINE VI centered_shift(VI v, VI c, unsigned s) { return VSRA32(VADD32(v, c), s); }

static inline VI centered_constant(uint32_t round, bool biased, unsigned s)
{
    return VSET32((int32_t)(round + (biased ? 0x80000000u : 0u) - (1u << (15 + s))));
}

/* ---- per-pixel terms ---- */

/* The log-branch pixels wait in a batch (sigma1, sigma2 clamped, sigma12: three int32 arrays of
 * BATCH_CAP + N32, room for a strip row past BATCH_CAP - LS_VIF_STRIP_COLS - 64) and are
 * processed N32 at a time, each lane doing both LOG2 terms: packing them costs less than
 * vectors half full of log lanes, and the per-pixel pass has no data-dependent branch. */
enum { BATCH_CAP = LS_VIF_BATCH };

typedef struct Batch {
    int32_t *s1, *s2, *s12;
    unsigned n;
    double gain_limit;
    int64_t num_log, den_log;
} Batch;

/* The LOG2 inputs of N64 batch entries, as doubles (all are integers below 2^53, exact):
 * nd = sigma_nsq + sigma1, n1 = sv_sq + sigma_nsq and n2 = (g*g)*sigma1 truncated + n1. Entries
 * without a numerator term come with sigma12 = 0: g = 0 and n2 = n1. */
VIF_INLINE void log2_inputs(const int32_t *p1, const int32_t *p2, const int32_t *p12, VD limit,
                            VD *nd, VD *n1, VD *n2)
{
    const VD nsq = VD_SET1((double)LS_VIF_SIGMA_NSQ);
    const VD d1 = VD_FROM_I32(VH_LOAD(p1)), d2 = VD_FROM_I32(VH_LOAD(p2));
    const VD d12 = VD_FROM_I32(VH_LOAD(p12));
    VD g = VD_DIV(d12, VD_ADD(d1, VD_SET1(LS_VIF_EPS)));
    /* sv_sq = max(trunc(sigma2 - g sigma12), 0) in double: as the int32 conversion (g >= 0
     * keeps the value below 2^31; below INT32_MIN both give 0 after the max) */
    const VD sv = VD_MAX(VD_TRUNC(VD_SUB(d2, VD_MUL(g, d12))), VD_SET1(0.0));
    g = VD_MIN(g, limit);
    *n1 = VD_ADD(sv, nsq);
    *n2 = VD_ADD(VD_TRUNC(VD_MUL(VD_MUL(g, g), d1)), *n1);
    *nd = VD_ADD(d1, nsq);
}

/* LOG2 of an integer >= 2^17 from the high 32 bits of its double (sign 0, the exponent and
 * the 20 fraction bits below the leading one, of which LOG2 reads 15) is
 * T[index] + 2048 (exponent - 1023 - 15). The table terms are summed per lane, and so are the
 * biased exponents, which batch_run scales once. */
VIF_INLINE VI log2_table_index(VI hi) { return VAND(VSRLI32(hi, 5), VSET32(0x7fff)); }

#ifndef VIF_TABLE_SCALAR
VIF_INLINE VI log2_table_term(VI hi) { return table_lookup(log2_table_index(hi)); }
#endif

VIF_INLINE VI log2_exponent(VI hi) { return VSRLI32(hi, 20); }

/* Adds the terms of the first n batch entries (n a multiple of N32). */
static void batch_run(Batch *b, unsigned n)
{
    const VD limit = VD_SET1(b->gain_limit);
    VI num_t = VZERO(), num_e = VZERO(), den_t = VZERO(), den_e = VZERO();
#ifdef VIF_TABLE_SCALAR
    int64_t num_ts = 0, den_ts = 0;
#endif
    for (unsigned j = 0; j < n; j += N32) {
        VD nda, n1a, n2a, ndb, n1b, n2b;
        log2_inputs(b->s1 + j, b->s2 + j, b->s12 + j, limit, &nda, &n1a, &n2a);
        log2_inputs(b->s1 + j + N64, b->s2 + j + N64, b->s12 + j + N64, limit, &ndb, &n1b, &n2b);
        /* the high halves of the doubles, all in the same lane order */
        const VI hd = VSHUF_ODD32(VD_BITS(nda), VD_BITS(ndb));
        const VI h1 = VSHUF_ODD32(VD_BITS(n1a), VD_BITS(n1b));
        const VI h2 = VSHUF_ODD32(VD_BITS(n2a), VD_BITS(n2b));
#ifdef VIF_TABLE_SCALAR
        den_ts += VTABLE_SUM(ls_vif_log2_table, log2_table_index(hd));
        num_ts += VTABLE_SUM(ls_vif_log2_table, log2_table_index(h2)) -
                  VTABLE_SUM(ls_vif_log2_table, log2_table_index(h1));
#else
        den_t = VADD32(den_t, log2_table_term(hd));
        num_t = VADD32(num_t, VSUB32(log2_table_term(h2), log2_table_term(h1)));
#endif
        den_e = VADD32(den_e, log2_exponent(hd));
        num_e = VADD32(num_e, VSUB32(log2_exponent(h2), log2_exponent(h1)));
    }
#ifdef VIF_TABLE_SCALAR
    b->num_log += num_ts;
    b->den_log += den_ts;
#endif
    /* per lane at most BATCH_CAP / 8 terms: table terms below 2^16, exponents below 2^11. The
     * denominator term is LOG2 - 2048*17, the exponent biases cancel in the numerator. */
    b->num_log += hsum32(num_t) + 2048 * hsum32(num_e);
    b->den_log += hsum32(den_t) + 2048 * (hsum32(den_e) - (int64_t)n * (1023 + 15 + 17));
}

/* Runs the whole vectors of the batch and keeps the rest; with all, pads the rest with entries
 * whose terms are 0 (sigmas 0: LOG2(sigma_nsq) - 2048*17 and no numerator) and runs it too. */
static void batch_flush(Batch *b, bool all)
{
    unsigned n = b->n - b->n % N32;
    if (all && n < b->n) {
        for (unsigned j = b->n; j < n + N32; j++)
            b->s1[j] = b->s2[j] = b->s12[j] = 0;
        n += N32;
    }
    batch_run(b, n);
    const unsigned rest = b->n > n ? b->n - n : 0;
    for (unsigned j = 0; j < rest; j++) {
        b->s1[j] = b->s1[n + j];
        b->s2[j] = b->s2[n + j];
        b->s12[j] = b->s12[n + j];
    }
    b->n = rest;
}

/* Vector sums of the non-log terms: sigma2 (as low and high 16 bits) and the count; below 2^31
 * per lane for 30000 vectors (PIX_FLUSH). */
typedef struct PixAcc {
    VI nonlog_lo, nonlog_hi, nonlog_count;
    unsigned vectors;
} PixAcc;

enum { PIX_FLUSH = 30000 };

static void pix_flush(PixAcc *p, LsVifAccum *acc)
{
    acc->num_nonlog += hsum32(p->nonlog_lo) + 65536 * hsum32(p->nonlog_hi);
    acc->den_nonlog += hsum32(p->nonlog_count);
    p->nonlog_lo = p->nonlog_hi = p->nonlog_count = VZERO();
    p->vectors = 0;
}

/* The terms of N32 pixels (ls_vif_pixel) whose lanes are in `valid`: the non-log ones here,
 * the log ones into the batch, which must have room for N32 more entries (the caller flushes
 * it: a call in the loops that use this would make GCC spill their vectors). */
VIF_INLINE void pixel_terms(VI s1, VI s2, VI s12, VM valid, PixAcc *p, Batch *b)
{
    s2 = VMAX32(s2, VZERO());
    const VM is_log = VM_AND(valid, VM_GT32(s1, VSET32(LS_VIF_SIGMA_NSQ - 1)));
    /* no numerator term unless sigma12 > 0 and sigma2 > 0: sigma12 = 0 in the batch */
    const VM has_num = VM_AND(VM_GT32(s12, VZERO()), VM_GT32(s2, VZERO()));
    if (VM_FULL(is_log)) { /* textured areas: every lane to the batch, as it is */
        VSTORE(b->s1 + b->n, s1);
        VSTORE(b->s2 + b->n, s2);
        VSTORE(b->s12 + b->n, VM_ZERO_OFF(s12, has_num));
        b->n += N32;
        return;
    }
    const VM nonlog = VM_ANDNOT(is_log, valid);
    p->nonlog_lo = VM_ADD32(p->nonlog_lo, nonlog, VAND(s2, VSET32(0xffff)));
    p->nonlog_hi = VM_ADD32(p->nonlog_hi, nonlog, VSRLI32(s2, 16));
    p->nonlog_count = VM_ADD32(p->nonlog_count, nonlog, VSET32(1));
    p->vectors++;
    const VCP cp = VCP_MAKE(is_log);
    VSTORE(b->s1 + b->n, VCOMPRESS(cp, s1));
    VSTORE(b->s2 + b->n, VCOMPRESS(cp, s2));
    VSTORE(b->s12 + b->n, VCOMPRESS(cp, VM_ZERO_OFF(s12, has_num)));
    b->n += VM_POPCNT(is_log);
}

static void batch_init(Batch *b, int32_t *mem, double gain_limit)
{
    b->s1 = mem;
    b->s2 = mem + BATCH_CAP + N32;
    b->s12 = mem + 2 * (BATCH_CAP + N32);
    b->n = 0;
    b->gain_limit = gain_limit;
    b->num_log = b->den_log = 0;
}

static void batch_finish(Batch *b, LsVifAccum *acc)
{
    batch_flush(b, true);
    acc->num_log += b->num_log;
    acc->den_log += b->den_log;
}

void FN(ls_vif_pixels)(const int32_t *sigma1_sq, const int32_t *sigma2_sq, const int32_t *sigma12,
                       unsigned n, double gain_limit, LsVifAccum *acc)
{
    int32_t mem[3 * (BATCH_CAP + N32)];
    Batch b;
    batch_init(&b, mem, gain_limit);
    PixAcc p = { VZERO(), VZERO(), VZERO(), 0 };
    const VM all = VM_GT32(VSET32(N32), VIOTA32());
    unsigned j = 0;
    for (; j + N32 <= n; j += N32) {
        pixel_terms(VLOAD(sigma1_sq + j), VLOAD(sigma2_sq + j), VLOAD(sigma12 + j), all, &p, &b);
        if (b.n > BATCH_CAP - N32)
            batch_flush(&b, false);
        if (p.vectors >= PIX_FLUSH)
            pix_flush(&p, acc);
    }
    pix_flush(&p, acc);
    batch_finish(&b, acc);
    for (; j < n; j++)
        ls_vif_pixel(ls_vif_log2_table, sigma1_sq[j], sigma2_sq[j], sigma12[j], gain_limit, acc);
}

/* ---- statistics of one scale ---- */

typedef struct Stats {
    const LsVifPlane *ref, *dis;
    const LsVifLevel *level;
    unsigned w, h;
    /* the strip: output columns [c0, c1), vertical blocks of N16 columns from column va (the
     * last one ends at vb) */
    unsigned c0, c1, va, vb, blocks;
    size_t slot_len;         /* int16 per pair row */
    int16_t *ring;           /* LS_VIF_RING pair rows: per block, the pieces of the low
                              * unpack halves, then of the high ones */
    int ring_row[LS_VIF_RING];
    int16_t *hbuf; /* horizontal input rows (hrow, hbuf_margin) */
    PixAcc pix;
    Batch batch;
    LsVifAccum *acc;
} Stats;

static inline const uint8_t *row_at(const LsVifPlane *pl, int i)
{
    return (const uint8_t *)pl->data + i * pl->stride;
}

/* horizontal input row k (pieces LS_VIF_HBUF_LEN apart) */
static inline int16_t *hrow(const Stats *st, unsigned k)
{
    return st->hbuf + (size_t)k * PIECES_WORDS * LS_VIF_HBUF_LEN;
}

/* piece p of the horizontal input row k rows after a given one */
static inline size_t hrow_offset(unsigned k, unsigned p)
{
    return ((size_t)k * PIECES_WORDS + p) * LS_VIF_HBUF_LEN;
}

/* The pieces of N16 columns (from column c) of one row of both pictures, natural column
 * order. */
VIF_INLINE void row_pieces(const uint8_t *ref, const uint8_t *dis, unsigned c, const bool bytes,
                           VI out[PIECES_WORDS])
{
    const VI half = VSET16(-32768);
    if (bytes) {
        const VI x = VLOAD_BYTES(ref + c);
        const VI y = VLOAD_BYTES(dis + c);
        out[0] = x;
        out[1] = y;
        out[2] = VXOR(VMULLO16(x, x), half);
        out[3] = VXOR(VMULLO16(y, y), half);
        out[4] = VXOR(VMULLO16(x, y), half);
    } else {
        const VI x = VLOAD(ref + 2 * c);
        const VI y = VLOAD(dis + 2 * c);
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

/* the pair row of rows m, m+1 of the strip (made on first use); locals, not st's fields, in
 * the loop: the vector stores may alias anything */
VIF_INLINE const int16_t *pair_row(Stats *st, int m, const bool bytes)
{
    const unsigned slot = (unsigned)m % LS_VIF_RING, np = bytes ? PIECES_BYTES : PIECES_WORDS;
    int16_t *pr = st->ring + slot * st->slot_len;
    if (st->ring_row[slot] == m)
        return pr;
    st->ring_row[slot] = m;
    const uint8_t *const x0 = row_at(st->ref, m), *const x1 = row_at(st->ref, m + 1);
    const uint8_t *const y0 = row_at(st->dis, m), *const y1 = row_at(st->dis, m + 1);
    const unsigned blocks = st->blocks, va = st->va, last = st->vb - N16;
    for (unsigned b = 0; b < blocks; b++) {
        const unsigned c = va + b * N16 < last ? va + b * N16 : last;
        VI a[PIECES_WORDS], n[PIECES_WORDS];
        row_pieces(x0, y0, c, bytes, a);
        row_pieces(x1, y1, c, bytes, n);
        int16_t *blk = pr + (size_t)2 * np * N16 * b;
        UNROLL
        for (unsigned p = 0; p < np; p++) {
            VSTORE(blk + p * N16, VUNPLO16(a[p], n[p]));
            VSTORE(blk + (np + p) * N16, VUNPHI16(a[p], n[p]));
        }
    }
    return pr;
}

/* What turns the vertical sums of a block into horizontal input pieces. */
typedef struct VertConst {
    VI m16, half, mu_c, sq_hi_c, sq_lo_c;
    unsigned mu_s, sq_s;
} VertConst;

static inline VertConst vert_const(const LsVifLevel *lv, bool bytes)
{
    VertConst k;
    k.m16 = VSET32(0xffff);
    k.half = VSET16(-32768);
    k.mu_s = lv->mu_shift;
    k.mu_c = centered_constant(lv->mu_round, !bytes, lv->mu_shift);
    /* squares of 16-bit samples: t = xx + 2^31 from the low and high piece sums (each 2^31
     * low): ((hi + 2^(15+s)) << (16 - s)) + ((lo + round) >> s) */
    k.sq_s = lv->sq_shift;
    k.sq_hi_c = VSET32((int32_t)(0x80000000u + (bytes ? 0u : (1u << (15 + lv->sq_shift)))));
    k.sq_lo_c = VSET32((int32_t)(0x80000000u + (uint32_t)lv->sq_round));
    return k;
}

/* the mu piece of a block from the sums of its two unpack halves */
VIF_INLINE VI finish_mu(const VertConst *k, VI h0, VI h1)
{
    return VPACKS32(centered_shift(h0, k->mu_c, k->mu_s), centered_shift(h1, k->mu_c, k->mu_s));
}

/* The low and high pieces of a square moment from the sums of its two unpack halves: of the
 * low and high product pieces for 16-bit samples, of the product for 8-bit ones (lo only: the
 * sum is xx - 2^31 with xx below 2^32, so its high half is the centered high piece and its low
 * half the low piece). */
VIF_INLINE void finish_sq(const VertConst *k, const bool bytes, VI lo0, VI lo1, VI hi0, VI hi1,
                          VI *piece_lo, VI *piece_hi)
{
    const VI t0 = bytes ? lo0
                        : VADD32(VSLL32(VADD32(hi0, k->sq_hi_c), 16 - k->sq_s),
                                 VSRL32(VADD32(lo0, k->sq_lo_c), k->sq_s));
    const VI t1 = bytes ? lo1
                        : VADD32(VSLL32(VADD32(hi1, k->sq_hi_c), 16 - k->sq_s),
                                 VSRL32(VADD32(lo1, k->sq_lo_c), k->sq_s));
    *piece_hi = VPACKS32(VSRAI32(t0, 16), VSRAI32(t1, 16));
    *piece_lo = VXOR(VPACKUS32(VAND(t0, k->m16), VAND(t1, k->m16)), k->half);
}

/* 16 int16 in reverse order */
static inline __m256i reverse16(__m256i v)
{
    const __m256i swap = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14,
                                          15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, swap), 0x4E);
}

/* reflect-101 at the picture's edges of a horizontal input row: 16 columns each side (R of
 * them are read; the others may mirror columns past the picture, inside the row's margin) */
static void pad_row(const Stats *st, int16_t *hrow, unsigned r)
{
    for (unsigned p = 0; p < PIECES_WORDS; p++) {
        int16_t *b = hrow + p * LS_VIF_HBUF_LEN + hbuf_margin(r) - st->c0; /* column 0 */
        if (st->c0 == 0) /* column -m = column m */
            _mm256_storeu_si256((__m256i *)(void *)(b - 16),
                                reverse16(_mm256_loadu_si256((const __m256i *)(void *)(b + 1))));
        if (st->c1 == st->w) /* column w-1+m = column w-1-m */
            _mm256_storeu_si256(
                (__m256i *)(void *)(b + st->w),
                reverse16(_mm256_loadu_si256((const __m256i *)(void *)(b + st->w - 17))));
    }
}

/* The vertical pass of output row i of the strip into the horizontal input pieces (16-bit,
 * minus 32768): mu1, mu2, then low and high halves of xx, yy, xy. Any row (reflected windows). */
VIF_INLINE void vertical(Stats *st, int i, int16_t *hrow, const unsigned scale,
                         const bool bytes)
{
    const unsigned width = ls_vif_width(scale), r = ls_vif_radius(scale), n_pairs = r + 1;
    const unsigned np = bytes ? PIECES_BYTES : PIECES_WORDS;
    const int h = (int)st->h;
    const int16_t *pr[LS_VIF_MAX_TAPS];
    VI taps[LS_VIF_MAX_TAPS];
    UNROLL
    for (unsigned t = 0; t < n_pairs; t++) {
        const int a = ls_vif_reflect(i - (int)r + 2 * (int)t, h);
        const unsigned fa = madd_tap(scale, 2 * (int)t), fb = madd_tap(scale, 2 * (int)t + 1);
        int b;
        if (2 * t + 1 < width)
            b = ls_vif_reflect(i - (int)r + 2 * (int)t + 1, h);
        else
            b = a + 1 < h ? a + 1 : a - 1; /* the last row alone: its partner gets tap 0 */
        if (a < b) {
            pr[t] = pair_row(st, a, bytes);
            taps[t] = tap_pair(fa, fb);
        } else {
            pr[t] = pair_row(st, b, bytes);
            taps[t] = tap_pair(fb, fa);
        }
    }
    const VertConst k = vert_const(st->level, bytes);
    const unsigned blocks = st->blocks, va = st->va, last = st->vb - N16;
    int16_t *const col0 = hrow + hbuf_margin(r) - st->c0; /* column 0 of piece 0 */
    for (unsigned blk = 0; blk < blocks; blk++) {
        VI a[2][PIECES_WORDS]; /* per unpack half */
        UNROLL
        for (unsigned hf = 0; hf < 2; hf++) {
            UNROLL
            for (unsigned p = 0; p < np; p++)
                a[hf][p] = VZERO();
            UNROLL
            for (unsigned t = 0; t < n_pairs; t++) {
                const int16_t *q = pr[t] + (size_t)2 * np * N16 * blk + hf * np * N16;
                UNROLL
                for (unsigned p = 0; p < np; p++)
                    a[hf][p] = VDPADD(a[hf][p], VLOAD(q + p * N16), taps[t]);
            }
            UNROLL
            for (unsigned p = 0; p < np; p++)
                a[hf][p] = VSLLI32(a[hf][p], scale == 3); /* halved taps */
        }
        int16_t *const at = col0 + (va + blk * N16 < last ? va + blk * N16 : last);
        VSTORE(at, finish_mu(&k, a[0][0], a[1][0]));
        VSTORE(at + LS_VIF_HBUF_LEN, finish_mu(&k, a[0][1], a[1][1]));
        UNROLL
        for (unsigned f = 0; f < 3; f++) {
            VI lo, hi;
            if (bytes)
                finish_sq(&k, true, a[0][2 + f], a[1][2 + f], a[0][2 + f], a[1][2 + f], &lo, &hi);
            else
                finish_sq(&k, false, a[0][2 + 2 * f], a[1][2 + 2 * f], a[0][3 + 2 * f],
                          a[1][3 + 2 * f], &lo, &hi);
            VSTORE(at + (2 + 2 * f) * LS_VIF_HBUF_LEN, lo);
            VSTORE(at + (3 + 2 * f) * LS_VIF_HBUF_LEN, hi);
        }
    }
    pad_row(st, hrow, r);
}

/* Output rows of one parity per vertical pass of the rows where no window is reflected: their
 * pair rows overlap, and each load of a pair row serves all the outputs that use it. */
enum { GROUP = LS_VIF_GROUP };

/* The sums of piece p of a block (both unpack halves) over the pair rows pr[0 .. R + GROUP) for
 * the GROUP outputs: output g uses pair rows g .. g + R with taps (2t, 2t+1), t = j - g. */
VIF_INLINE void group_piece(const int16_t *const pr[], size_t off, unsigned p, const unsigned np,
                            const unsigned scale, VI out[GROUP][2])
{
    const unsigned n_pairs = ls_vif_radius(scale) + 1, n_rows = n_pairs - 1 + GROUP;
    /* the unpack halves share no loads: with 16 registers one half at a time, so that the GROUP
     * accumulators and the tap pairs stay in registers instead of spilling */
    const unsigned together = N16 == 32 ? 2 : 1;
    UNROLL
    for (unsigned hf0 = 0; hf0 < 2; hf0 += together) {
        VI acc[GROUP][2];
        UNROLL
        for (unsigned g = 0; g < GROUP; g++)
            acc[g][0] = acc[g][1] = VZERO();
        UNROLL
        for (unsigned j = 0; j < n_rows; j++) {
            VI v[2];
            UNROLL
            for (unsigned h = 0; h < together; h++)
                v[h] = VLOAD(pr[j] + off + ((hf0 + h) * np + p) * N16);
            UNROLL
            for (unsigned g = 0; g < GROUP; g++)
                if (j >= g && j - g < n_pairs) {
                    const int t = (int)(j - g);
                    const VI tp = tap_pair(madd_tap(scale, 2 * t), madd_tap(scale, 2 * t + 1));
                    UNROLL
                    for (unsigned h = 0; h < together; h++)
                        acc[g][h] = VDPADD(acc[g][h], v[h], tp);
                }
        }
        UNROLL
        for (unsigned g = 0; g < GROUP; g++)
            UNROLL
            for (unsigned h = 0; h < together; h++)
                out[g][hf0 + h] = VSLLI32(acc[g][h], scale == 3); /* halved taps */
    }
}

/* The vertical pass of output rows i0 + 2g (g < GROUP), none reflected, into the horizontal
 * input rows hrow0 + 2g. */
VIF_INLINE void vertical_group(Stats *st, int i0, int16_t *hrow0,
                               const unsigned scale, const bool bytes)
{
    const unsigned r = ls_vif_radius(scale), n_rows = r + GROUP;
    const unsigned np = bytes ? PIECES_BYTES : PIECES_WORDS;
    const int16_t *pr[LS_VIF_MAX_TAPS + GROUP];
    UNROLL
    for (unsigned j = 0; j < n_rows; j++)
        pr[j] = pair_row(st, i0 - (int)r + 2 * (int)j, bytes);
    const VertConst k = vert_const(st->level, bytes);
    const unsigned blocks = st->blocks, va = st->va, last = st->vb - N16;
    int16_t *const col0 = hrow0 + hbuf_margin(r) - st->c0; /* column 0 of piece 0 */
    for (unsigned blk = 0; blk < blocks; blk++) {
        const size_t off = (size_t)2 * np * N16 * blk;
        int16_t *const at = col0 + (va + blk * N16 < last ? va + blk * N16 : last);
        VI lo[GROUP][2], hi[GROUP][2];
        UNROLL
        for (unsigned f = 0; f < 2; f++) {
            group_piece(pr, off, f, np, scale, lo);
            UNROLL
            for (unsigned g = 0; g < GROUP; g++)
                VSTORE(at + hrow_offset(2 * g, f), finish_mu(&k, lo[g][0], lo[g][1]));
        }
        UNROLL
        for (unsigned f = 0; f < 3; f++) {
            group_piece(pr, off, bytes ? 2 + f : 2 + 2 * f, np, scale, lo);
            if (!bytes)
                group_piece(pr, off, 3 + 2 * f, np, scale, hi);
            UNROLL
            for (unsigned g = 0; g < GROUP; g++) {
                VI plo, phi;
                if (bytes)
                    finish_sq(&k, true, lo[g][0], lo[g][1], lo[g][0], lo[g][1], &plo, &phi);
                else
                    finish_sq(&k, false, lo[g][0], lo[g][1], hi[g][0], hi[g][1], &plo, &phi);
                VSTORE(at + hrow_offset(2 * g, 2 + 2 * f), plo);
                VSTORE(at + hrow_offset(2 * g, 3 + 2 * f), phi);
            }
        }
    }
}

/* hi32(a * b + 2^31) + 2^31 per 32-bit lane (mod 2^32): adding 2^63 to the 64-bit product
 * adds 2^31 to its high half */
VIF_INLINE VI mul_round_hi_biased(VI a, VI b)
{
    const VI round = VSET64((long long)0x8000000080000000ull);
    const VI even = VSRLI64(VADD64(VMULU32(a, b), round), 32);
    const VI odd = VADD64(VMULU32(VSRLI64(a, 32), VSRLI64(b, 32)), round);
    return VBLEND_ODD32(even, odd);
}

/* sigmas from the eight filtered pieces (each 2^31 low): the second moment from its high and
 * low piece is hi + 2^31 + ((lo + 2^31 + 32768) >> 16), and the 2^31 of the high piece
 * cancels against the bias of mul_round_hi_biased */
VIF_INLINE void sigmas_from_pieces(const VI s[PIECES_WORDS], VI *s1, VI *s2, VI *s12)
{
    const VI bias = VSET32((int32_t)0x80000000u), round = VSET32((int32_t)(0x80000000u + 32768));
    const VI mx = VADD32(s[0], bias), my = VADD32(s[1], bias);
    VI v[3];
    UNROLL
    for (unsigned f = 0; f < 3; f++)
        v[f] = VADD32(s[3 + 2 * f], VSRLI32(VADD32(s[2 + 2 * f], round), 16));
    *s1 = VSUB32(v[0], mul_round_hi_biased(mx, mx));
    *s2 = VSUB32(v[1], mul_round_hi_biased(my, my));
    *s12 = VSUB32(v[2], mul_round_hi_biased(mx, my));
}

/* The horizontal sums of the four pieces from `first` at hbuf offset `at`, even output columns
 * in e and odd ones in o (when o is not NULL; else the parity `odd` in e): the load at column
 * c - R + 2m feeds even outputs with taps (2m, 2m+1) and odd outputs with taps (2m-1, 2m). Loads
 * outer, pieces inner, so that the accumulation chains advance together (named variables: GCC
 * keeps arrays of vectors in memory). Four pieces: with both parities eight accumulators and the
 * tap pairs fit 32 registers, with one parity 16. */
VIF_INLINE void horizontal_sums4(const int16_t *at, const unsigned scale, const unsigned first,
                                 const bool odd, VI e[4], VI o[4])
{
    const unsigned n_loads = ls_vif_radius(scale) + 1;
    const int16_t *b0 = at + first * LS_VIF_HBUF_LEN, *b1 = b0 + LS_VIF_HBUF_LEN;
    const int16_t *b2 = b1 + LS_VIF_HBUF_LEN, *b3 = b2 + LS_VIF_HBUF_LEN;
    VI e0 = VZERO(), e1 = VZERO(), e2 = VZERO(), e3 = VZERO();
    VI o0 = VZERO(), o1 = VZERO(), o2 = VZERO(), o3 = VZERO();
    UNROLL
    for (unsigned m = 0; m < n_loads; m++) {
        const VI te = tap_pair(madd_tap(scale, 2 * (int)m), madd_tap(scale, 2 * (int)m + 1));
        const VI to = tap_pair(madd_tap(scale, 2 * (int)m - 1), madd_tap(scale, 2 * (int)m));
        const VI t1 = odd ? to : te;
#define HSTEP(p)                                                                                 \
    {                                                                                            \
        const VI v = VLOAD(b##p + 2 * m);                                                        \
        e##p = VDPADD(e##p, v, t1);                                                              \
        if (o)                                                                                   \
            o##p = VDPADD(o##p, v, to);                                                          \
    }
        HSTEP(0) HSTEP(1) HSTEP(2) HSTEP(3)
#undef HSTEP
    }
    const unsigned d = scale == 3; /* halved taps */
    e[0] = VSLLI32(e0, d), e[1] = VSLLI32(e1, d), e[2] = VSLLI32(e2, d), e[3] = VSLLI32(e3, d);
    if (o)
        o[0] = VSLLI32(o0, d), o[1] = VSLLI32(o1, d), o[2] = VSLLI32(o2, d), o[3] = VSLLI32(o3, d);
}

/* horizontal_sums4 of all eight pieces, four at a time */
VIF_INLINE void horizontal_sums(const int16_t *at, const unsigned scale, const bool odd,
                                VI e[PIECES_WORDS], VI o[PIECES_WORDS])
{
    horizontal_sums4(at, scale, 0, odd, e, o);
    /* an opaque address: GCC would interleave the two halves and spill again */
    const int16_t *at2 = at;
    __asm__("" : "+r"(at2));
    horizontal_sums4(at2, scale, 4, odd, e + 4, o ? o + 4 : NULL);
}

/* The horizontal pass of one strip row and the per-pixel terms, per block of N16 output
 * columns. With 32 registers both parities share each load; with 16, one parity at a time. */
VIF_INLINE void horizontal(Stats *st, const int16_t *hrow, const unsigned scale)
{
    const VI lane2 = VADD32(VIOTA32(), VIOTA32());
    const unsigned r = ls_vif_radius(scale), c0 = st->c0, c1 = st->c1;
    if (st->batch.n + (c1 - c0) > BATCH_CAP)
        batch_flush(&st->batch, false); /* room for the row */
    /* in registers for the row (the vector stores may alias anything in memory) */
    PixAcc pix = st->pix;
    Batch batch = st->batch;
    const int16_t *at = hrow + hbuf_margin(r) - r; /* column c0 - R */
    for (unsigned c = c0; c < c1; c += N16, at += N16) {
        /* columns at or past c1 are not this strip's (the last block of a row may be short) */
        const VI left = VSET32((int32_t)(c1 - c));
        const VM valid_even = VM_GT32(left, lane2);
        const VM valid_odd = VM_GT32(left, VADD32(lane2, VSET32(1)));
        VI e[PIECES_WORDS], o[PIECES_WORDS], s1, s2, s12;
        if (N16 == 32) {
            horizontal_sums(at, scale, false, e, o);
        } else {
            horizontal_sums(at, scale, false, e, NULL);
            sigmas_from_pieces(e, &s1, &s2, &s12);
            pixel_terms(s1, s2, s12, valid_even, &pix, &batch);
            /* an opaque address: GCC would keep the first pass's loads for this one */
            const int16_t *at_odd = at;
            __asm__("" : "+r"(at_odd));
            horizontal_sums(at_odd, scale, true, o, NULL);
        }
        if (N16 == 32) {
            sigmas_from_pieces(e, &s1, &s2, &s12);
            pixel_terms(s1, s2, s12, valid_even, &pix, &batch);
        }
        sigmas_from_pieces(o, &s1, &s2, &s12);
        pixel_terms(s1, s2, s12, valid_odd, &pix, &batch);
    }
    st->pix = pix;
    st->batch.n = batch.n;
}

static void strip_setup(Stats *st, unsigned c0, unsigned c1, unsigned r, unsigned np)
{
    st->c0 = c0;
    st->c1 = c1;
    st->va = c0 > r ? c0 - r : 0;
    st->vb = c1 + r < st->w ? c1 + r : st->w;
    st->blocks = (st->vb - st->va + N16 - 1) / N16;
    st->slot_len = (size_t)2 * np * N16 * st->blocks;
    for (unsigned s = 0; s < LS_VIF_RING; s++)
        st->ring_row[s] = -1;
}

VIF_INLINE void stats_scale(Stats *st, const unsigned scale, const bool bytes)
{
    const unsigned r = ls_vif_radius(scale), np = bytes ? PIECES_BYTES : PIECES_WORDS;
    const unsigned n_strips = ls_vif_strips(st->w);
    const unsigned per = (st->w + n_strips - 1) / n_strips;
    const unsigned strip = (per + N16 - 1) / N16 * N16;
    for (unsigned c0 = 0, c1; c0 < st->w; c0 = c1) {
        c1 = c0 + strip + N16 <= st->w ? c0 + strip : st->w; /* no strip narrower than a vector */
        strip_setup(st, c0, c1, r, np);
        for (unsigned i = 0; i < st->h;) {
            unsigned rows = 1;
            if (i >= r && i + 2 * GROUP + r + 1 <= st->h) {
                /* rows i .. i + 2 GROUP - 1: none reflected (the last pair row of the last
                 * one is i + 2 GROUP - 1 + R) */
                vertical_group(st, (int)i, hrow(st, 0), scale, bytes);
                vertical_group(st, (int)i + 1, hrow(st, 1), scale, bytes);
                rows = 2 * GROUP;
                for (unsigned k = 0; k < rows; k++)
                    pad_row(st, hrow(st, k), r);
            } else {
                vertical(st, (int)i, hrow(st, 0), scale, bytes);
            }
            for (unsigned k = 0; k < rows; k++) {
                horizontal(st, hrow(st, k), scale);
                if (st->pix.vectors >= PIX_FLUSH)
                    pix_flush(&st->pix, st->acc);
            }
            i += rows;
        }
    }
}

void FN(ls_vif_stats)(const LsVifPlane *ref, const LsVifPlane *dis, const LsVifLevel *level,
                      double gain_limit, LsVifAccum *acc, void *tmp)
{
    if (ref->w < N16) {
        ls_vif_stats_c(ref, dis, level, gain_limit, acc, tmp);
        return;
    }
    Stats st;
    st.ref = ref;
    st.dis = dis;
    st.level = level;
    st.w = ref->w;
    st.h = ref->h;
    st.acc = acc;
    const LsVifSimdTmp layout = ls_vif_simd_tmp(ref->w);
    uint8_t *mem = tmp;
    st.ring = (int16_t *)(void *)mem;
    st.hbuf = (int16_t *)(void *)(mem + layout.hbuf);
    /* lanes of a short last block read past the strip: defined values */
    for (size_t k = 0; k < (size_t)2 * GROUP * PIECES_WORDS * LS_VIF_HBUF_LEN; k++)
        st.hbuf[k] = 0;
    batch_init(&st.batch, (int32_t *)(void *)(mem + layout.batch), gain_limit);
    st.pix = (PixAcc){ VZERO(), VZERO(), VZERO(), 0 };
    switch (level->scale) {
    case 0:
        if (level->bytes)
            stats_scale(&st, 0, true);
        else
            stats_scale(&st, 0, false);
        break;
    case 1: stats_scale(&st, 1, false); break;
    case 2: stats_scale(&st, 2, false); break;
    default: stats_scale(&st, 3, false); break;
    }
    pix_flush(&st.pix, acc);
    batch_finish(&st.batch, acc);
}

/* ---- next scale ---- */

VIF_INLINE void decimate_scale(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst,
                               int16_t *t, const unsigned scale, const bool bytes)
{
    const unsigned width = ls_vif_width(scale), r = ls_vif_radius(scale), n_pairs = r + 1;
    const unsigned w = src->w, w_out = src->w / 2, h_out = src->h / 2;
    const VI half = VSET16(-32768);
    const VI v_c = centered_constant(level->mu_round, !bytes, level->mu_shift);
    const VI h_round = VSET32((int32_t)(0x80000000u + 32768));
    for (unsigned i = 0; i < h_out; i++) {
        const void *rows[LS_VIF_MAX_TAPS];
        ls_vif_window(src, 2 * (int)i, r, rows);
        for (unsigned c0 = 0; c0 < w; c0 += N16) {
            const unsigned c = c0 + N16 <= w ? c0 : w - N16;
            VI l = VZERO(), u = VZERO();
            UNROLL
            for (unsigned m = 0; m < n_pairs; m++) {
                VI a, b;
                if (bytes) {
                    a = VLOAD_BYTES((const uint8_t *)rows[2 * m] + c);
                    b = 2 * m + 1 < width ? VLOAD_BYTES((const uint8_t *)rows[2 * m + 1] + c) : a;
                } else {
                    a = VXOR(VLOAD((const uint16_t *)rows[2 * m] + c), half);
                    b = 2 * m + 1 < width
                            ? VXOR(VLOAD((const uint16_t *)rows[2 * m + 1] + c), half)
                            : a;
                }
                const VI tp = tap_pair(madd_tap(scale, 2 * (int)m), madd_tap(scale, 2 * (int)m + 1));
                l = VDPADD(l, VUNPLO16(a, b), tp);
                u = VDPADD(u, VUNPHI16(a, b), tp);
            }
            if (scale == 3) {
                l = VSLLI32(l, 1);
                u = VSLLI32(u, 1);
            }
            VSTORE(t + r + c, VPACKS32(centered_shift(l, v_c, level->mu_shift),
                                       centered_shift(u, v_c, level->mu_shift)));
        }
        for (int m = 1; m <= (int)r; m++) {
            t[(int)r - m] = t[(int)r + m];
            t[(int)r + (int)w - 1 + m] = t[(int)r + (int)w - 1 - m];
        }
        uint16_t *out = dst + (size_t)i * w_out;
        for (unsigned j0 = 0; j0 < w_out; j0 += N16) {
            const unsigned j = j0 + N16 <= w_out ? j0 : w_out - N16;
            VI l = VZERO(), u = VZERO();
            UNROLL
            for (unsigned m = 0; m < n_pairs; m++) {
                const VI tp = tap_pair(madd_tap(scale, 2 * (int)m), madd_tap(scale, 2 * (int)m + 1));
                l = VDPADD(l, VLOAD(t + 2 * j + 2 * m), tp);
                u = VDPADD(u, VLOAD(t + 2 * j + N16 + 2 * m), tp);
            }
            if (scale == 3) {
                l = VSLLI32(l, 1);
                u = VSLLI32(u, 1);
            }
            l = VSRLI32(VADD32(l, h_round), 16);
            u = VSRLI32(VADD32(u, h_round), 16);
            VSTORE(out + j, VPACKUS16(l, u));
        }
    }
}

void FN(ls_vif_decimate)(const LsVifPlane *src, const LsVifLevel *level, uint16_t *dst, void *tmp)
{
    if (src->w / 2 < N16) {
        ls_vif_decimate_c(src, level, dst, tmp);
        return;
    }
    int16_t *t = tmp; /* column -r at index 0 */
    switch (level->scale) {
    case 0:
        if (level->bytes)
            decimate_scale(src, level, dst, t, 1, true);
        else
            decimate_scale(src, level, dst, t, 1, false);
        break;
    case 1: decimate_scale(src, level, dst, t, 2, false); break;
    default: decimate_scale(src, level, dst, t, 3, false); break;
    }
}
