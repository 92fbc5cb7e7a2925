/* CIEDE2000 SIMD units, written once over the small vector layer that x86/ciede_avx2.c (4 lanes)
 * and x86/ciede_avx512.c (8 lanes) define before including this file. FN(name) gives each
 * variant its own symbols.
 *
 * The reference's result depends on glibc's pow, atan2, sin, cos, exp and powf, whose bits no
 * other implementation reproduces in general. Two techniques keep every output bit-identical to
 * the C reference (ciede_dsp.c) while avoiding nearly all calls:
 *
 * - A value that the reference rounds to float right after a transcendental step is computed
 *   here with a vector approximation plus a bound on its distance from glibc's value, and
 *   accepted only where every value within the bound rounds to the same float
 *   (certified_float). A lane that cannot be certified is recomputed with glibc. The bound
 *   covers the approximation's error (LS_CIEDE_APPROX_* in feature/ciede.h: several times the
 *   analysis in the comments below and over 4x the largest difference from glibc measured on
 *   dense samples, which tests/test_ciede.c checks), glibc's own error (under one ulp), and the
 *   rounding differences of the double operations in between.
 *   Certified this way: the Lab map's fx, fy, fz (floats of pow(c, 1/3) of sums of pow(b, 2.4)),
 *   a' (through G's pow(C, 7)), the hues (atan2), T (four cosines), dH' (a sine), and R_T (exp,
 *   then a sine). powf (R_T's root) is glibc's on every lane.
 * - Everything else is the reference's arithmetic in vector form, operation for operation: float
 *   operations in float lanes, double in double lanes, F() as a conversion to float. A division
 *   by 2 is a product by 0.5 here: the same value in every case (both are exact scalings).
 *
 * No FMA anywhere (-ffp-contract=off, and no fused intrinsics). */

/* ---- approximations of log, exp, sin, cos, atan2 in double ---- */

#define LN2_HI 0x1.62e42feep-1         /* ln 2 with 28 trailing zero bits: n * LN2_HI is exact */
#define LN2_LO 0x1.a39ef35793c76p-33
#define LN2_8_HI 0x1.62e42feep-4       /* ln 2 / 8, the same split */
#define LN2_8_LO 0x1.a39ef35793c76p-36
#define INV_LN2_8 0x1.71547652b82fep+3 /* 8 / ln 2 */
#define PIO2_1 0x1.921fb544p+0         /* pi / 2 to 33 bits: n * PIO2_1 is exact */
#define PIO2_1T 0x1.0b4611a626331p-34  /* pi / 2 - PIO2_1 */
#define INV_PIO2 0x1.45f306dc9c883p-1  /* 2 / pi */
/* Rounding slack of a few double operations on both sides, relative to their magnitudes. */
#define ROUNDING_BOUND 2e-15

/* log(1 + (2k + 1) / 16), 2^(k / 8) and atan((k + 0.5) / 8), k = 0..7 (Python's math.log,
 * 2.0 ** x and math.atan: glibc, under one ulp). */
static const double log_c[8] = {
    0x1.f0a30c01162a6p-5, 0x1.5ff3070a793d4p-3, 0x1.1675cababa60ep-2, 0x1.739d7f6bbd007p-2,
    0x1.c8ff7c79a9a22p-2, 0x1.0be72e4252a83p-1, 0x1.307d7334f10bep-1, 0x1.52a2d265bc5abp-1,
};
static const double exp2_k8[8] = {
    0x1.0000000000000p+0, 0x1.172b83c7d517bp+0, 0x1.306fe0a31b715p+0, 0x1.4bfdad5362a27p+0,
    0x1.6a09e667f3bcdp+0, 0x1.8ace5422aa0dbp+0, 0x1.ae89f995ad3adp+0, 0x1.d5818dcfba487p+0,
};
static const double atan_c[8] = {
    0x1.ff55bb72cfdeap-5, 0x1.7b97b4bce5b02p-3, 0x1.362773707ebccp-2, 0x1.a64eec3cc23fdp-2,
    0x1.0657e94db30d0p-1, 0x1.345f01cce37bbp-1, 0x1.5d58987169b18p-1, 0x1.819d0b7158a4dp-1,
};

/* p(z) by Horner's rule, coefficients from the highest power down */
static inline VD horner(VD z, const double *c, int n)
{
    VD p = vd(c[0]);
    for (int i = 1; i < n; i++)
        p = vd_add(vd_mul(p, z), vd(c[i]));
    return p;
}

/* log(x) for positive normal x: x = 2^e m, m in [1, 2), c = 1 + (2k + 1) / 16 with k the top
 * three bits of m (m - c is exact), log(m / c) = 2 atanh(s), s = (m - c) / (m + c), |s| < 0.033,
 * by its series to s^11 (the rest is below 2e-18 of it). Absolute error below 1e-15 where
 * |log x| < 6; the final additions' rounding dominates. */
static inline VD log_approx(VD x)
{
    static const double series[5] = { 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3 };
    const VI bits = vd_bits(x);
    const VI m_bits = vi_or(vi_and(bits, vi(0x000fffffffffffffll)), vi(0x3ff0000000000000ll));
    const VD m = vd_from_bits(m_bits);
    const VD c = vd_from_bits(vi_or(vi_and(m_bits, vi(~((1ll << 49) - 1))), vi(1ll << 48)));
    const VI k = vi_and(VI_SRL(bits, 49), vi(7));
    const VD e = vi_to_vd(vi_sub(VI_SRL(bits, 52), vi(1023)));
    const VD s = vd_div(vd_sub(m, c), vd_add(m, c));
    const VD z = vd_mul(s, s);
    const VD two_s = vd_add(s, s);
    const VD log_m_c = vd_add(two_s, vd_mul(two_s, vd_mul(z, horner(z, series, 5))));
    return vd_add(vd_add(vd_mul(e, vd(LN2_HI)), vd_lookup8(log_c, k)),
                  vd_add(vd_mul(e, vd(LN2_LO)), log_m_c));
}

/* exp(y) for |y| < 700: y = (8 q + j) ln2 / 8 + r, |r| <= ln2 / 16 (the subtraction of
 * n * LN2_8_HI is exact), exp r by its series to r^8 (the rest is below 2e-18), times 2^(j/8)
 * and 2^q. Relative error below 6e-16 plus the input's absolute error. */
static inline VD exp_approx(VD y)
{
#ifdef LS_CIEDE_MUTANT /* to r^4: an error near 1e-9, far beyond the bounds */
    static const double series[9] = { 0.0, 0.0, 0.0, 0.0, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1.0, 1.0 };
#else
    static const double series[9] = { 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
                                      1.0 / 6,      1.0 / 2,    1.0,        1.0 };
#endif
    const VD n = vd_round(vd_mul(y, vd(INV_LN2_8)));
    const VD r = vd_sub(vd_sub(y, vd_mul(n, vd(LN2_8_HI))), vd_mul(n, vd(LN2_8_LO)));
    const VD q = vd_floor(vd_mul(n, vd(0.125)));
    const VI j = vd_to_vi(vd_sub(n, vd_mul(q, vd(8.0))));
    const VD two_q = vd_from_bits(VI_SLL(vi_add(vd_to_vi(q), vi(1023)), 52));
    return vd_mul(vd_mul(horner(r, series, 9), vd_lookup8(exp2_k8, j)), two_q);
}

/* pow(x, e) = exp(e log x) for positive normal x; relative error below 3e-15 where
 * |e log x| < 6 (the uses here). */
static inline VD pow_approx(VD x, double e)
{
    return exp_approx(vd_mul(vd(e), log_approx(x)));
}

/* pow(x, 7) by four products: relative error below 7e-16 (six roundings), for x >= 0. */
static inline VD pow7_approx(VD x)
{
    const VD x2 = vd_mul(x, x);
    const VD x3 = vd_mul(x2, x);
    return vd_mul(vd_mul(x3, x3), x);
}

/* x = n pi/2 + r, |r| <= pi/4 + tiny (x - n * PIO2_1 is exact for |x| < 1e5); sin r and cos r
 * by their series to r^15 and r^16 (the rest is below 5e-17); then by quadrant q mod 4:
 * cos r, -sin r, -cos r, sin r (q = n for the cosine, n - 1 for the sine). */
static inline VD sincos_reduced(VD x, VD n, VD q)
{
    static const double sin_series[7] = { -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                                          -1.0 / 39916800.0,      1.0 / 362880.0,
                                          -1.0 / 5040.0,          1.0 / 120.0,
                                          -1.0 / 6.0 };
#ifdef LS_CIEDE_MUTANT /* to r^8: an error near 2.5e-8 */
    static const double cos_series[9] = { 0.0, 0.0, 0.0, 0.0, 1.0 / 40320.0, -1.0 / 720.0,
                                          1.0 / 24.0, -1.0 / 2.0, 1.0 };
#else
    static const double cos_series[9] = { 1.0 / 20922789888000.0, -1.0 / 87178291200.0,
                                          1.0 / 479001600.0,      -1.0 / 3628800.0,
                                          1.0 / 40320.0,          -1.0 / 720.0,
                                          1.0 / 24.0,             -1.0 / 2.0,
                                          1.0 };
#endif
    const VD r = vd_sub(vd_sub(x, vd_mul(n, vd(PIO2_1))), vd_mul(n, vd(PIO2_1T)));
    const VD z = vd_mul(r, r);
    const VD sin_r = vd_add(r, vd_mul(vd_mul(r, z), horner(z, sin_series, 7)));
    const VD cos_r = horner(z, cos_series, 9);
    const VI qi = vd_to_vi(q); /* two's complement: q mod 4 from its low bits also below 0 */
    const MD odd = vi_eq(vi_and(qi, vi(1)), vi(1));
    const VI flip = vi_and(vi_add(qi, vi(1)), vi(2));
    return vd_xor(vd_select(odd, sin_r, cos_r), vd_from_bits(VI_SLL(flip, 62)));
}

/* cos(x) for |x| < 40 (the uses here): absolute error below 5e-16. */
static inline VD cos_approx(VD x)
{
    const VD n = vd_round(vd_mul(x, vd(INV_PIO2)));
    return sincos_reduced(x, n, n);
}

/* sin(x) = cos(x - pi/2), the quadrant shifted by one. *bound: its distance from glibc's sin:
 * absolute after a reduction, relative without one (n = 0: r is x itself, and both the series
 * and glibc are accurate to a few ulps of the value; sin(+-0) is exact). */
static inline VD sin_approx(VD x, VD *bound)
{
    const VD n = vd_round(vd_mul(x, vd(INV_PIO2)));
    const VD v = sincos_reduced(x, n, vd_sub(n, vd(1.0)));
    *bound = vd_select(vd_eq(n, vd(0.0)), vd_mul(vd_abs(v), vd(LS_CIEDE_APPROX_SIN_REL)),
                       vd(LS_CIEDE_APPROX_SIN_ABS));
    return v;
}

/* atan2(y, x) for (y, x) not both zero: a = min / max of |y|, |x| in [0, 1], c = (k + 0.5) / 8
 * the nearest of eight centres, atan a = atan c + atan t with t = (a - c) / (1 + a c),
 * |t| <= 1/16, by its series to t^13 (the rest is below 1e-19); then the octant. Absolute error
 * below 1.5e-15. */
static inline VD atan2_approx(VD y, VD x)
{
    static const double series[6] = { 1.0 / 13, -1.0 / 11, 1.0 / 9, -1.0 / 7, 1.0 / 5, -1.0 / 3 };
    const VD ay = vd_abs(y), ax = vd_abs(x);
    const VD a = vd_div(vd_min(ay, ax), vd_max(ay, ax));
    const VD kd = vd_min(vd_trunc(vd_mul(a, vd(8.0))), vd(7.0));
    const VD c = vd_mul(vd_add(kd, vd(0.5)), vd(0.125));
    const VD t = vd_div(vd_sub(a, c), vd_add(vd(1.0), vd_mul(a, c)));
    const VD z = vd_mul(t, t);
    const VD atan_t = vd_add(t, vd_mul(vd_mul(t, z), horner(z, series, 6)));
    VD r = vd_add(vd_lookup8(atan_c, vd_to_vi(kd)), atan_t);
    r = vd_select(vd_gt(ay, ax), vd_sub(vd(LS_CIEDE_PI / 2), r), r);
    r = vd_select(vd_lt(x, vd(0.0)), vd_sub(vd(LS_CIEDE_PI), r), r);
    return vd_or(r, vd_and(y, vd(-0.0))); /* r >= 0: the sign of y */
}

/* Lanes where every double within `bound` of v rounds to the same float as v. Rounding is
 * monotonic, so the two ends decide; they are moved out by twice the bound, which also covers
 * the rounding of v +- bound itself. Compared as bits, so that -0 and +0 differ; a zero bound
 * (an exact value, e.g. a zero sine) is certain, also for a zero v. */
static inline MD certified_float(VD v, VD bound)
{
    const VD b2 = vd_add(bound, bound);
    const VF lo = vf_from_vd(vd_sub(v, b2)), hi = vf_from_vd(vd_add(v, b2));
    return md_or(md_from_mf(vf_same_bits(lo, hi)), vd_eq(bound, vd(0.0)));
}

/* Lanes that are not certified, as bits (0 when all are). */
static inline int uncertain(MD sure)
{
    return ~md_bits(sure) & ((1 << LANES) - 1);
}

/* ---- Lab ---- */

/* The transfer function with a bound on the distance from the reference's value. */
static inline VD linearise(VD c, VD *bound)
{
    const MD high = vd_gt(c, vd(LS_CIEDE_LIN_THRESHOLD));
    /* the low lanes' base may be negative: their result is not used */
    const VD base = vd_mul(vd_add(c, vd(LS_CIEDE_LIN_A)), vd(LS_CIEDE_LIN_D_HIGH));
    const VD p = pow_approx(vd_max(base, vd(0x1p-64)), LS_CIEDE_LIN_EXPONENT);
    *bound = vd_select(high, vd_mul(p, vd(LS_CIEDE_APPROX_POW)), vd(0.0)); /* low: exact */
    return vd_select(high, p, vd_mul(c, vd(LS_CIEDE_LIN_D_LOW)));
}

/* One of fx, fy, fz from c = (r kr + g kg + b kb) (* white), with the bounds of the linearised
 * r, g, b: its value in *f, and the lanes where its float and branch are certain. */
static inline MD lab_f(VD r, VD g, VD b, const VD lin_bound[3], double kr, double kg, double kb,
                       double white, VD *f)
{
    VD c = vd_add(vd_add(vd_mul(r, vd(kr)), vd_mul(g, vd(kg))), vd_mul(b, vd(kb)));
    if (white != 1.0)
        c = vd_mul(c, vd(white));
    const VD magnitude = vd_add(vd_add(vd_mul(vd_abs(r), vd(kr)), vd_mul(vd_abs(g), vd(kg))),
                                vd_mul(vd_abs(b), vd(kb)));
    const VD propagated = vd_add(vd_add(vd_mul(lin_bound[0], vd(kr)), vd_mul(lin_bound[1], vd(kg))),
                                 vd_mul(lin_bound[2], vd(kb)));
    /* |c - c_reference|; white <= 1.06 */
    const VD c_bound = vd_mul(vd_add(propagated, vd_mul(magnitude, vd(ROUNDING_BOUND))), vd(1.07));
    const VD eps = vd(LS_CIEDE_EPSILON);
    const MD branch_sure = md_or(vd_gt(vd_sub(c, c_bound), eps), vd_le(vd_add(c, c_bound), eps));
    const VD root = pow_approx(vd_max(c, vd(0x1p-64)), LS_CIEDE_ONE_THIRD);
    const VD linear = vd_mul(vd_add(vd_mul(vd(LS_CIEDE_KAPPA), c), vd(16.0)), vd(LS_CIEDE_INV_116));
    const VD value = vd_select(vd_gt(c, eps), root, linear);
    /* both branches have slope at most 7.79 (KAPPA / 116, and (1/3) EPSILON^(-2/3)) */
    const VD bound = vd_add(vd_add(vd_mul(c_bound, vd(7.8)),
                                   vd_mul(vd_abs(value), vd(LS_CIEDE_APPROX_POW))),
                            vd(1e-15));
    *f = value;
    return md_and(branch_sure, certified_float(value, bound));
}

void FN(ls_ciede_lab_row)(const void *y, const void *u, const void *v, unsigned w, unsigned ss_x,
                          unsigned bpc, float *const lab[3])
{
    const double scale = (double)(1u << (bpc - 8));
    const VD y_off = vd(16.0 * scale), y_mul = vd(1.0 / (219.0 * scale));
    const VD c_off = vd(128.0 * scale), c_mul = vd(1.0 / (224.0 * scale));
    const size_t bytes = bpc > 8 ? 2 : 1;
    const double *table = bpc == 8 ? ls_ciede_lin_table_8bit() : NULL;
    unsigned x = 0;
    for (; x + LANES <= w; x += LANES) {
        const VS ys = vs_load_samples(y, x, 0, bpc);
        const VS us = vs_load_samples(u, x, ss_x, bpc), vs = vs_load_samples(v, x, ss_x, bpc);
        /* ls_ciede_normalise, ls_ciede_rgb: the same operations, so the same doubles */
        const VD yn = vd_mul(vd_sub(vd_from_vs(ys), y_off), y_mul);
        const VD un = vd_mul(vd_sub(vd_from_vs(us), c_off), c_mul);
        const VD vn = vd_mul(vd_sub(vd_from_vs(vs), c_off), c_mul);
        const VD r = vd_add(yn, vd_mul(vd(LS_CIEDE_R_V), vn));
        const VD g = vd_sub(vd_sub(yn, vd_mul(vd(LS_CIEDE_G_U), un)), vd_mul(vd(LS_CIEDE_G_V), vn));
        const VD b = vd_add(yn, vd_mul(vd(LS_CIEDE_B_U), un));
        VD lin_bound[3];
        VD lr, lb;
        if (table) { /* r and b of 8-bit samples: glibc's values from the table, exact */
            lr = vd_table(table, ys, vs);
            lb = vd_table(table + 65536, ys, us);
            lin_bound[0] = lin_bound[2] = vd(0.0);
        } else {
            lr = linearise(r, &lin_bound[0]);
            lb = linearise(b, &lin_bound[2]);
        }
        const VD lg = linearise(g, &lin_bound[1]);
        VD fx, fy, fz;
        MD sure = lab_f(lr, lg, lb, lin_bound, LS_CIEDE_XYZ_XR, LS_CIEDE_XYZ_XG, LS_CIEDE_XYZ_XB,
                        LS_CIEDE_WHITE_X, &fx);
        sure = md_and(sure, lab_f(lr, lg, lb, lin_bound, LS_CIEDE_XYZ_YR, LS_CIEDE_XYZ_YG,
                                  LS_CIEDE_XYZ_YB, 1.0, &fy));
        sure = md_and(sure, lab_f(lr, lg, lb, lin_bound, LS_CIEDE_XYZ_ZR, LS_CIEDE_XYZ_ZG,
                                  LS_CIEDE_XYZ_ZB, LS_CIEDE_WHITE_Z, &fz));
        /* ls_ciede_lab_from_f on the certified floats */
        const VD fxd = vd_from_vf(vf_from_vd(fx));
        const VD fyd = vd_from_vf(vf_from_vd(fy));
        const VD fzd = vd_from_vf(vf_from_vd(fz));
        vf_store(lab[0] + x, vf_from_vd(vd_sub(vd_mul(vd(116.0), fyd), vd(16.0))));
        vf_store(lab[1] + x, vf_from_vd(vd_mul(vd(500.0), vd_sub(fxd, fyd))));
        vf_store(lab[2] + x, vf_from_vd(vd_mul(vd(200.0), vd_sub(fyd, fzd))));
        const int redo = uncertain(sure);
        for (unsigned i = 0; redo && i < LANES; i++) {
            if (!(redo & (1 << i)))
                continue;
            float *const one[3] = { lab[0] + x + i, lab[1] + x + i, lab[2] + x + i };
            const size_t xc = (x + i) >> ss_x;
            ls_ciede_lab_row_c((const uint8_t *)y + (x + i) * bytes,
                               (const uint8_t *)u + xc * bytes, (const uint8_t *)v + xc * bytes, 1,
                               0, bpc, one);
        }
    }
    if (x < w) {
        /* x is even: the rest starts at chroma column x >> ss_x, sub-sampled the same way */
        float *const rest[3] = { lab[0] + x, lab[1] + x, lab[2] + x };
        ls_ciede_lab_row_c((const uint8_t *)y + x * bytes, (const uint8_t *)u + (x >> ss_x) * bytes,
                           (const uint8_t *)v + (x >> ss_x) * bytes, w - x, ss_x, bpc, rest);
    }
}

/* ---- dE ---- */

static inline VD sq(VF f)
{
    const VD d = vd_from_vf(f);
    return vd_mul(d, d);
}

/* a' of both colours (ls_ciede_g, ls_ciede_a_prime) through G of the mean chroma. pow(cbar, 7)
 * is four products here; a lane whose a' cannot be certified takes glibc's pow. */
static inline void a_prime(VF a1, VF a2, VF cbar, VF *a1p, VF *a2p)
{
    const VD cbar_d = vd_from_vf(cbar);
    VD p7 = pow7_approx(cbar_d);
    const VD h1 = vd_from_vf(vf_mul(a1, vf(0.5f))), h2 = vd_from_vf(vf_mul(a2, vf(0.5f)));
    const VD a1d = vd_from_vf(a1), a2d = vd_from_vf(a2);
    for (int pass = 0;; pass++) {
        const VD g = vd_sqrt(vd_div(p7, vd_add(p7, vd(LS_CIEDE_POW25_7))));
        const VD one_minus_g = vd_sub(vd(1.0), g);
        const VD pre1 = vd_add(a1d, vd_mul(h1, one_minus_g));
        const VD pre2 = vd_add(a2d, vd_mul(h2, one_minus_g));
        *a1p = vf_from_vd(pre1);
        *a2p = vf_from_vd(pre2);
        if (pass)
            return;
        /* G is within 1.1e-15 of glibc's relative to G <= 1; two more roundings per side */
        const VD b1 = vd_mul(vd_add(vd_abs(a1d), vd_abs(h1)), vd(LS_CIEDE_APPROX_G));
        const VD b2 = vd_mul(vd_add(vd_abs(a2d), vd_abs(h2)), vd(LS_CIEDE_APPROX_G));
        const int redo = uncertain(md_and(certified_float(pre1, b1), certified_float(pre2, b2)));
        if (!redo)
            return;
        double p7s[LANES], cs[LANES];
        vd_store(p7s, p7);
        vd_store(cs, cbar_d);
        for (int i = 0; i < LANES; i++)
            if (redo & (1 << i))
                p7s[i] = pow(cs[i], 7.0);
        p7 = vd_load(p7s);
    }
}

/* ls_ciede_hue(x, y): atan2 approximated and certified, glibc's where it cannot be. */
static inline VF hue(VF x, VF y)
{
    const MF both_zero = mf_and(vf_eq(x, vf(0.0f)), vf_eq(y, vf(0.0f)));
    const VD angle = atan2_approx(vd_from_vf(x), vd_from_vf(y));
    VF h = vf_from_vd(angle);
    const int redo = uncertain(certified_float(angle, vd(LS_CIEDE_APPROX_ATAN2))) &
                     ~mf_bits(both_zero);
    if (redo) {
        float xs[LANES], ys[LANES], hs[LANES];
        vf_store(xs, x);
        vf_store(ys, y);
        vf_store(hs, h);
        for (int i = 0; i < LANES; i++)
            if (redo & (1 << i))
                hs[i] = (float)atan2((double)xs[i], (double)ys[i]);
        h = vf_load(hs);
    }
    h = vf_select(both_zero, vf(0.0f), h);
    return vf_select(vf_lt(h, vf(0.0f)), vf_from_vd(vd_add(vd_from_vf(h), vd(LS_CIEDE_TWO_PI))),
                     h);
}

/* ls_ciede_t: four cosines approximated and the float certified, glibc's where it cannot be. */
static inline VF t_of_hue(VF hbarp)
{
    const VD h = vd_from_vf(hbarp);
    const VD t1 = vd_sub(vd(1.0), vd_mul(vd(0.17), cos_approx(vd_sub(h, vd(LS_CIEDE_PI_OVER_6)))));
    const VD t2 = vd_add(t1, vd_mul(vd(0.24), cos_approx(vd_mul(vd(2.0), h))));
    const VD t3 = vd_add(t2, vd_mul(vd(0.32), cos_approx(vd_add(vd_mul(vd(3.0), h),
                                                                 vd(LS_CIEDE_PI_OVER_30)))));
    const VD pre = vd_sub(t3, vd_mul(vd(0.20), cos_approx(vd_sub(vd_mul(vd(4.0), h),
                                                                 vd(LS_CIEDE_7PI_OVER_20)))));
    /* the coefficients sum to 0.93; eight roundings per side on terms below 2 */
    VF t = vf_from_vd(pre);
    const int redo = uncertain(certified_float(pre, vd(0.93 * LS_CIEDE_APPROX_COS + 4e-15)));
    if (redo) {
        float hs[LANES], ts[LANES];
        vf_store(hs, hbarp);
        vf_store(ts, t);
        for (int i = 0; i < LANES; i++)
            if (redo & (1 << i))
                ts[i] = ls_ciede_t(hs[i]);
        t = vf_load(ts);
    }
    return t;
}

/* dH' = 2 sqrt(C1' C2') sin(dh' / 2): the sine approximated and the float certified. */
static inline VF big_dh(VF c1p, VF c2p, VF dhp)
{
    const VD amp = vd_mul(vd(2.0), vd_sqrt(vd_from_vf(vf_mul(c1p, c2p))));
    const VD half = vd_mul(vd_from_vf(dhp), vd(0.5));
    VD sin_bound;
    const VD pre = vd_mul(amp, sin_approx(half, &sin_bound));
    const VD bound = vd_add(vd_mul(amp, sin_bound), vd_mul(vd_abs(pre), vd(ROUNDING_BOUND)));
    const int redo = uncertain(certified_float(pre, bound));
    if (!redo)
        return vf_from_vd(pre);
    double amps[LANES], halves[LANES], pres[LANES];
    vd_store(amps, amp);
    vd_store(halves, half);
    vd_store(pres, pre);
    for (int i = 0; i < LANES; i++)
        if (redo & (1 << i))
            pres[i] = amps[i] * sin(halves[i]);
    return vf_from_vd(vd_load(pres));
}

/* R_T (ls_ciede_rotation): exp and sin approximated and the angle's and R_T's floats certified,
 * glibc's ls_ciede_rotation_sin where they cannot be; powf is glibc's on every lane. */
static inline VF rotation(VF cbarp, VF hbarp)
{
    float cs[LANES], p7[LANES];
    vf_store(cs, cbarp);
    for (int i = 0; i < LANES; i++)
        p7[i] = powf(cs[i], 7.0f);
    const VF p7v = vf_load(p7);
    const VD root = vd_sqrt(vd_from_vf(vf_div(p7v, vf_add(p7v, vf(LS_CIEDE_POWF25_7)))));
    const VD neg_two_root = vd_mul(vd(-2.0), root);

    const VF deg = vf_from_vd(vd_mul(vd_from_vf(hbarp), vd(LS_CIEDE_RAD_TO_DEG)));
    const VF z = vf_from_vd(vd_mul(vd_sub(vd_from_vf(deg), vd(275.0)), vd(LS_CIEDE_ONE_OVER_25)));
    const VD e = exp_approx(vd_xor(vd_from_vf(vf_mul(z, z)), vd(-0.0)));
    const VD ang_pre = vd_mul(vd(60.0), e);
    const MD ang_sure = certified_float(ang_pre, vd_mul(ang_pre, vd(LS_CIEDE_APPROX_EXP)));
    const VF ang = vf_from_vd(ang_pre);
    const VF rad = vf_from_vd(vd_mul(vd_from_vf(ang), vd(LS_CIEDE_DEG_TO_RAD)));
    VD sin_bound;
    VD rot_sin = sin_approx(vd_from_vf(rad), &sin_bound);
    const VD pre = vd_mul(neg_two_root, rot_sin);
    const VD bound = vd_add(vd_mul(vd_abs(neg_two_root), sin_bound),
                            vd_mul(vd_abs(pre), vd(ROUNDING_BOUND)));
    const int redo = uncertain(md_and(ang_sure, certified_float(pre, bound)));
    if (!redo)
        return vf_from_vd(pre);
    float hs[LANES];
    double sines[LANES];
    vf_store(hs, hbarp);
    vd_store(sines, rot_sin);
    for (int i = 0; i < LANES; i++)
        if (redo & (1 << i))
            sines[i] = ls_ciede_rotation_sin(hs[i]);
    rot_sin = vd_load(sines);
    return vf_from_vd(vd_mul(neg_two_root, rot_sin));
}

void FN(ls_ciede_delta_e_row)(const float *const ref[3], const float *const dis[3], unsigned w,
                              float *de)
{
    const VD pi = vd(LS_CIEDE_PI), two_pi = vd(LS_CIEDE_TWO_PI);
    unsigned x = 0;
    for (; x + LANES <= w; x += LANES) {
        const VF l1 = vf_load(ref[0] + x), a1 = vf_load(ref[1] + x), b1 = vf_load(ref[2] + x);
        const VF l2 = vf_load(dis[0] + x), a2 = vf_load(dis[1] + x), b2 = vf_load(dis[2] + x);
        /* identical colours give exactly +0: every term is 0 and R_T is finite */
        const MF same = mf_and(mf_and(vf_same_bits(l1, l2), vf_same_bits(a1, a2)),
                               vf_same_bits(b1, b2));
        if (mf_bits(same) == (1 << LANES) - 1) {
            vf_store(de + x, vf(0.0f));
            continue;
        }
        const VF dl = vf_sub(l2, l1);
        const VF lbar = vf_mul(vf_add(l1, l2), vf(0.5f));
        const VF c1 = vf_from_vd(vd_sqrt(vd_add(sq(a1), sq(b1))));
        const VF c2 = vf_from_vd(vd_sqrt(vd_add(sq(a2), sq(b2))));
        VF a1p, a2p;
        a_prime(a1, a2, vf_mul(vf_add(c1, c2), vf(0.5f)), &a1p, &a2p);
        const VF c1p = vf_from_vd(vd_sqrt(vd_add(sq(a1p), sq(b1))));
        const VF c2p = vf_from_vd(vd_sqrt(vd_add(sq(a2p), sq(b2))));
        const VF cbarp = vf_mul(vf_add(c1p, c2p), vf(0.5f));
        const VF dcp = vf_sub(c2p, c1p);
        const VF t = vf_sub(lbar, vf(50.0f));
        const VF sl = vf_from_vd(vd_add(vd(1.0), vd_div(vd_mul(vd(0.015), sq(t)),
                                                        vd_sqrt(vd_add(vd(20.0), sq(t))))));
        const VF sc = vf_from_vd(vd_add(vd(1.0), vd_mul(vd(0.045), vd_from_vf(cbarp))));
        const VF h1p = hue(b1, a1p), h2p = hue(b2, a2p);

        /* ls_ciede_delta_h */
        const VF d = vf_sub(h2p, h1p);
        const MD near = vd_le(vd_from_vf(vf_abs(vf_sub(h1p, h2p))), pi);
        const VF wrapped = vf_select(vf_le(h2p, h1p), vf_from_vd(vd_add(vd_from_vf(d), two_pi)),
                                     vf_from_vd(vd_sub(vd_from_vf(d), two_pi)));
        const MF no_chroma = mf_or(vf_eq(c1, vf(0.0f)), vf_eq(c2, vf(0.0f)));
        const VF dhp = vf_select(no_chroma, vf(0.0f), vf_select(mf_from_md(near), d, wrapped));

        /* ls_ciede_mean_hue */
        const VD hsum = vd_from_vf(vf_add(h1p, h2p));
        const MD far = vd_gt(vd_abs(vd_from_vf(vf_sub(h1p, h2p))), pi);
        const VF hbarp = vf_from_vd(vd_mul(vd_select(far, vd_add(hsum, two_pi), hsum), vd(0.5)));

        /* ls_ciede_pair_finish */
        const VF dhp_big = big_dh(c1p, c2p, dhp);
        const VF sh = vf_from_vd(vd_add(vd(1.0), vd_mul(vd_mul(vd(0.015), vd_from_vf(cbarp)),
                                                        vd_from_vf(t_of_hue(hbarp)))));
        const VF rt = rotation(cbarp, hbarp);
        const VF lt = vf_div(dl, vf_mul(vf(LS_CIEDE_KL), sl));
        const VF ch = vf_div(dcp, vf_mul(vf(LS_CIEDE_KC), sc));
        const VF hu = vf_div(dhp_big, vf_mul(vf(LS_CIEDE_KH), sh));
        const VF result = vf_from_vd(vd_sqrt(vd_add(vd_add(vd_add(sq(lt), sq(ch)), sq(hu)),
                                                    vd_from_vf(vf_mul(vf_mul(rt, ch), hu)))));
        vf_store(de + x, vf_select(same, vf(0.0f), result));
    }
    if (x < w) {
        const float *const r_rest[3] = { ref[0] + x, ref[1] + x, ref[2] + x };
        const float *const d_rest[3] = { dis[0] + x, dis[1] + x, dis[2] + x };
        ls_ciede_delta_e_row_c(r_rest, d_rest, w - x, de + x);
    }
}

/* ---- the approximations on arrays, for tests/test_ciede.c (n a multiple of LANES) ---- */

void FN(ls_ciede_approx)(enum LsCiedeApprox fn, const double *x, const double *y, double *out,
                         unsigned n)
{
    for (unsigned i = 0; i + LANES <= n; i += LANES) {
        const VD a = vd_load(x + i), b = y ? vd_load(y + i) : vd(0.0);
        VD r, unused;
        switch (fn) {
        case LS_CIEDE_APPROX_FN_LOG: r = log_approx(a); break;
        case LS_CIEDE_APPROX_FN_EXP: r = exp_approx(a); break;
        case LS_CIEDE_APPROX_FN_POW_LIN: r = pow_approx(a, LS_CIEDE_LIN_EXPONENT); break;
        case LS_CIEDE_APPROX_FN_POW_THIRD: r = pow_approx(a, LS_CIEDE_ONE_THIRD); break;
        case LS_CIEDE_APPROX_FN_POW7: r = pow7_approx(a); break;
        case LS_CIEDE_APPROX_FN_COS: r = cos_approx(a); break;
        case LS_CIEDE_APPROX_FN_SIN: r = sin_approx(a, &unused); break;
        default: r = atan2_approx(a, b); break;
        }
        vd_store(out + i, r);
    }
}
