/* adm (integer ADM): the constants against the spec's table, the reference quirks that published
 * scores depend on (each check fails when the quirk is "fixed"), every SIMD unit against its C
 * reference (checkasm-style: random, extreme and small values, odd widths and the widths where
 * upstream's SIMD reads the wrong border, every bit depth, every option that reaches a unit;
 * exact comparison, failing parameters printed), and through the public API: the SIMD levels
 * and the plain C path agree on whole frames, the 8-bit vs (bpc-8)-shifted identity, output
 * names with option suffixes, the option semantics and the refusals with their messages.
 * usage: test_adm ADM_FILTERS_JSON [--bench] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/adm.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static int32_t rnd_range(int32_t lo, int32_t hi) /* inclusive */
{
    const uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    const uint64_t r = ((uint64_t)rnd() << 32 | rnd()) % span;
    return (int32_t)((int64_t)lo + (int64_t)r);
}

/* ---- tables against tables/adm_filters.json ---- */

/* The numbers of the first [...] list after `key` (from *pos), up to max. */
static int json_numbers(const char **pos, const char *key, double *out, int max)
{
    char quoted[96];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    const char *p = strstr(*pos, quoted);
    if (!p)
        return -1;
    p = strchr(p + strlen(quoted), '[');
    if (!p)
        return -1;
    int n = 0, depth = 0;
    for (; *p; p++) {
        if (*p == '[') {
            depth++;
        } else if (*p == ']') {
            if (--depth == 0)
                break;
        } else if ((*p == '-' || (*p >= '0' && *p <= '9')) && n < max) {
            char *end;
            out[n++] = strtod(p, &end);
            p = end - 1;
        }
    }
    *pos = p;
    return n;
}

static LsAdmOptions default_options(void)
{
    LsAdmOptions o;
    memset(&o, 0, sizeof(o));
    o.adm_enhn_gain_limit = 100.0;
    o.adm_norm_view_dist = 3.0;
    o.adm_ref_display_height = 1080;
    o.adm_csf_scale = 1.0;
    o.adm_csf_diag_scale = 1.0;
    o.adm_noise_weight = 0.03125;
    o.adm_dlm_weight = 0.5;
    return o;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    double v[16];
    const char *pos = json;
    CHECK(json_numbers(&pos, "lo", v, 16) == 4, "dwt lo taps");
    for (int k = 0; k < 4; k++)
        CHECK(v[k] == ls_adm_dwt_lo[k], "dwt lo tap %d: %d != %g", k, ls_adm_dwt_lo[k], v[k]);
    CHECK(json_numbers(&pos, "hi", v, 16) == 4, "dwt hi taps");
    for (int k = 0; k < 4; k++)
        CHECK(v[k] == ls_adm_dwt_hi[k], "dwt hi tap %d: %d != %g", k, ls_adm_dwt_hi[k], v[k]);
    pos = strstr(json, "scale123_dwt");
    static const char *const dwt_keys[4] = { "vertical_round", "vertical_shift", "horizontal_round",
                                             "horizontal_shift" };
    const int32_t *dwt_tabs[4] = { ls_adm_dwt_v_round, ls_adm_dwt_v_shift, ls_adm_dwt_h_round,
                                   ls_adm_dwt_h_shift };
    for (int t = 0; t < 4 && pos; t++) {
        const char *p = pos;
        CHECK(json_numbers(&p, dwt_keys[t], v, 16) == 3, "%s", dwt_keys[t]);
        for (int k = 0; k < 3; k++)
            CHECK(v[k] == dwt_tabs[t][k], "scale123 %s[%d] %d != %g", dwt_keys[t], k,
                  dwt_tabs[t][k], v[k]);
    }
    /* division table check values: entry[32768 + i] = floor(2^30 / i) */
    CHECK(ls_adm_div_q30(1) == 1073741824 && ls_adm_div_q30(2) == 536870912 &&
              ls_adm_div_q30(32768) == 32768 && ls_adm_div_q30(3) == 357913941,
          "division table values");
    CHECK(ls_float_bits(LS_ADM_COS_1DEG_SQ) ==
              ls_float_bits((float)(cos(3.14159265358979323846 / 180.0) *
                                    cos(3.14159265358979323846 / 180.0))),
          "cos^2(1 degree) constant");
    /* the derived defaults, and the blend tables of every (rdh, nvd) pair */
    LsAdmOptions o = default_options();
    LsAdmSetup s;
    CHECK(!ls_adm_setup(&s, &o, 1920, 1080, NULL, 0), "default setup");
    static const char *const scales[4] = { "\"scale0\"", "\"scale1\"", "\"scale2\"", "\"scale3\"" };
    for (int k = 0; k < 4; k++) {
        const char *p = strstr(json, "derived_defaults_for_checking");
        p = p ? strstr(p, scales[k]) : NULL;
        const char *hv = p ? strstr(p, "\"rfactor_hv\"") : NULL;
        const char *dd = p ? strstr(p, "\"rfactor_d\"") : NULL;
        CHECK(hv && dd, "scale %d rfactors in the table", k);
        if (!hv || !dd)
            continue;
        const float fhv = strtof(strchr(hv + 12, '"') + 1, NULL);
        const float fd = strtof(strchr(dd + 11, '"') + 1, NULL);
        CHECK(ls_float_bits(fhv) == ls_float_bits(s.scale[k].f_hv), "scale %d F1 %a != %a", k,
              s.scale[k].f_hv, fhv);
        CHECK(ls_float_bits(fd) == ls_float_bits(s.scale[k].f_d), "scale %d F2 %a != %a", k,
              s.scale[k].f_d, fd);
        const char *q = p;
        if (k > 0 && json_numbers(&q, "i32_hv_d", v, 16) == 2)
            CHECK(v[0] == s.scale[k].i32[0] && v[1] == s.scale[k].i32[2],
                  "scale %d i32 %u %u != %g %g", k, s.scale[k].i32[0], s.scale[k].i32[2], v[0],
                  v[1]);
        if (k == 0 && json_numbers(&q, "computed_i16_hv_d", v, 16) == 2)
            CHECK((uint16_t)(int32_t)(s.scale[0].f_hv * pow(2, 21)) == v[0] &&
                      (uint16_t)(int32_t)(s.scale[0].f_d * pow(2, 23)) == v[1],
                  "scale 0 computed i16 != %g %g", v[0], v[1]);
    }
    /* at 3 x 1080 in mode 0 the reference's hard-coded factors, not the computed ones */
    CHECK(s.scale[0].i16[0] == 36453 && s.scale[0].i16[1] == 36453 && s.scale[0].i16[2] == 49417,
          "hard-coded scale 0 factors: %u %u %u", s.scale[0].i16[0], s.scale[0].i16[1],
          s.scale[0].i16[2]);
    o.adm_ref_display_height = 2160;
    CHECK(!ls_adm_setup(&s, &o, 1920, 1080, NULL, 0) && s.scale[0].i16[0] != 36453,
          "rdh 2160 must use the computed factors");
    static const struct {
        const char *key;
        int rdh;
        double nvd;
    } pairs[] = {
        { "1080_3H", 1080, 3.0 }, { "1080_5H", 1080, 5.0 }, { "2160_3H", 2160, 3.0 },
        { "2160_5H", 2160, 5.0 }, { "720_3H", 720, 3.0 },   { "720_5H", 720, 5.0 },
        { "480_3H", 480, 3.0 },   { "480_5H", 480, 5.0 },   { "1080_3H", 2160, 1.5 },
    };
    for (int mode = 2; mode <= 3; mode++) {
        const char *set = strstr(json, mode == 2 ? "\"legacy\"" : "\"mae\"");
        for (unsigned i = 0; set && i < sizeof(pairs) / sizeof(pairs[0]); i++) {
            const char *p = set;
            const int n = json_numbers(&p, pairs[i].key, v, 16);
            o = default_options();
            o.adm_csf_mode = mode;
            o.adm_ref_display_height = pairs[i].rdh;
            o.adm_norm_view_dist = pairs[i].nvd;
            char msg[256] = "";
            const int err = ls_adm_setup(&s, &o, 1920, 1080, msg, sizeof(msg));
            if (pairs[i].nvd * pairs[i].rdh < 3240) { /* unreachable in the reference too */
                CHECK(err == -EINVAL && strstr(msg, "below 3 * 1080"), "mode %d %s: %s", mode,
                      pairs[i].key, msg);
                continue;
            }
            CHECK(n == 8 && !err, "mode %d %s: %d values, setup %d", mode, pairs[i].key, n, err);
            for (int k = 0; k < 4 && n == 8 && !err; k++)
                CHECK(s.scale[k].f_hv == (float)v[k] && s.scale[k].f_d == (float)v[4 + k],
                      "mode %d %s (rdh %d nvd %g) scale %d: %g %g != %g %g", mode, pairs[i].key,
                      pairs[i].rdh, pairs[i].nvd, k, s.scale[k].f_hv, s.scale[k].f_d, v[k],
                      v[4 + k]);
        }
    }
    free(json);
}

/* ---- the reference's quirks, one check each ---- */

static void test_quirks(void)
{
    /* scale 1..3 filter and threshold centre round with -2^31 (adm.md §6.3): -1 for small |c| */
    for (int32_t c = -14; c <= 14; c++)
        CHECK(ls_adm_flt123(c) == -1, "flt123(%d) = %d, the -2^31 rounding gives -1", c,
              ls_adm_flt123(c));
    CHECK(ls_adm_center123(0) == -1 && ls_adm_center123(7) == -1 && ls_adm_center123(8) == 0,
          "center123 with the -2^31 rounding: %d %d %d", ls_adm_center123(0), ls_adm_center123(7),
          ls_adm_center123(8));
    CHECK(ls_adm_flt123(30) == 0 && ls_adm_flt123(45) == 1, "flt123(30) %d, flt123(45) %d",
          ls_adm_flt123(30), ls_adm_flt123(45));
    /* the gain limit truncates toward zero in double (upstream's SIMD rounds, §11) */
    CHECK(ls_adm_restore(100, 3, 5, 100, 1, 1.3) == 3, "trunc(3 * 1.3) must be 3");
    CHECK(ls_adm_restore(100, -3, -5, -100, 1, 1.3) == -3, "trunc(-3 * 1.3) must be -3");
    CHECK(ls_adm_restore(100, 7, 5, 5, 1, 100.0) == 5, "min(700, 5) must be 5");
    CHECK(ls_adm_restore(0, 7, 5, 5, 1, 100.0) == 7, "k = 0: no limit");
    CHECK(ls_adm_restore(100, 7, 5, 5, 0, 100.0) == 7, "no angle flag: no limit");
    /* the diagonal CSF rounds with 65535, not 65536 */
    CHECK(ls_adm_csf0(2, 32768, 2) == 0 && ls_adm_csf0(2, 32768, 0) == 2, "csf0: %d %d",
          ls_adm_csf0(2, 32768, 2), ls_adm_csf0(2, 32768, 0));
    /* scale 1..3 denominator squares round with 2^sq, not 2^(sq-1) */
    CHECK(ls_adm_den123_term(1, 31, 0, 0) == 1 && ls_adm_den123_term(46341, 31, 0, 0) == 92682,
          "den123 rounding term: %" PRIu64 " %" PRIu64, ls_adm_den123_term(1, 31, 0, 0),
          ls_adm_den123_term(46341, 31, 0, 0));
    /* DWT borders: top/left reflect without repeat, bottom/right repeat the edge sample */
    CHECK(ls_adm_dwt_index(0, 0, 9) == 1 && ls_adm_dwt_index(0, 1, 9) == 0 &&
              ls_adm_dwt_index(4, 2, 9) == 8 && ls_adm_dwt_index(4, 3, 9) == 7 &&
              ls_adm_dwt_index(3, 3, 8) == 7 && ls_adm_dwt_index(4, 3, 10) == 9,
          "DWT index rule");
    /* the gain ratio of scales 1..3 rounds |o| to 15 significant bits first */
    CHECK(ls_adm_gain123(65537, 65537) == 32769 && ls_adm_gain123(98305, 3) == 1,
          "gain123: %" PRId64 " %" PRId64, ls_adm_gain123(65537, 65537), ls_adm_gain123(98305, 3));
    /* scale 0 vertical pass at 16 bits: the sums pass 2^31 in between (the reference's int32
     * wraps, lockstep's uint32 arithmetic wraps the same way and ends in range) */
    const uint32_t u[4] = { 65535, 65535, 65535, 0 };
    int16_t lo, hi;
    ls_adm_dwt0_vertical(u, 16, &lo, &hi);
    CHECK(lo == 27410 && hi == 15826, "16-bit vertical DWT: %d %d", lo, hi);
}

/* ---- SIMD units against C ---- */

enum { PADS = LS_ADM_ROW_PAD, MAXW = 2048 };

typedef struct Variant {
    const char *name;
    LsAdmDsp dsp;
} Variant;

static int n_variants;
static Variant variants[3];
static LsAdmDsp ref_dsp;
static unsigned n_cases;

static void setup_variants(void)
{
    const uint64_t cpu = ls_cpu_detect();
    LsAdmDsp base;
    ls_adm_dsp_init(&base, 0); /* fills the division table */
    ls_adm_dsp_init_c(&ref_dsp);
    /* each variant on top of the ones below it, as ls_adm_dsp_init installs them */
    static const struct {
        const char *name;
        uint64_t flags;
        void (*init)(LsAdmDsp *);
    } wide[] = {
        { "avx2", LS_CPU_FLAG_AVX2, ls_adm_dsp_init_avx2 },
        { "avx512", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512, ls_adm_dsp_init_avx512 },
        { "avx512vnni", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 | LS_CPU_FLAG_AVX512ICL,
          ls_adm_dsp_init_avx512vnni },
    };
    for (unsigned v = 0; v < sizeof(wide) / sizeof(wide[0]); v++) {
        if ((cpu & wide[v].flags) != wide[v].flags) {
            printf("SKIP %s: not supported by this CPU\n", wide[v].name);
            continue;
        }
        variants[n_variants].name = wide[v].name;
        ls_adm_dsp_init_c(&variants[n_variants].dsp);
        for (unsigned u = 0; u <= v; u++)
            wide[u].init(&variants[n_variants].dsp);
        n_variants++;
    }
}

/* A row with PADS samples on both sides, as adm.c gives the units. */
typedef struct Rows {
    void *mem[16];
    int n;
} Rows;

static void *new_row(Rows *rows, size_t elem, int w)
{
    uint8_t *p = calloc((size_t)(w + 2 * PADS), elem);
    rows->mem[rows->n++] = p;
    return p + PADS * elem;
}

static void free_rows(Rows *rows)
{
    for (int i = 0; i < rows->n; i++)
        free(rows->mem[i]);
    rows->n = 0;
}

/* int16/int32 band values: kind 0 small, 1 medium, 2 full range, 3 extremes, 4 zeros with a few
 * values, 5 around the int16 limits (where the SIMD decoupling changes paths) */
static int32_t band_value(int kind, bool wide)
{
    const int32_t max = wide ? INT32_MAX : 32767, min = wide ? INT32_MIN : -32768;
    switch (kind) {
    case 0:
        return rnd_range(-40, 40);
    case 1:
        return wide ? rnd_range(-(1 << 22), 1 << 22) : rnd_range(-3000, 3000);
    case 2:
        return rnd_range(min, max);
    case 3: {
        static const int32_t pick[6] = { 0, 1, -1, 0, 0, 0 };
        const uint32_t r = rnd() % 8;
        return r < 6 ? (r == 3   ? max
                        : r == 4 ? min
                        : r == 5 ? min + 1
                                 : pick[r])
                     : rnd_range(min, max);
    }
    case 4:
        return rnd() % 16 ? 0 : rnd_range(-500, 500);
    case 6: { /* wide: around INT32_MAX / egl for the integral gain limits (where rst * egl
               * leaves int32) */
        static const int32_t q[3] = { INT32_MAX / 100, INT32_MAX / 37, INT32_MAX };
        if (!wide)
            return rnd_range(-32768, 32767);
        const int32_t v = q[rnd() % 3] - rnd_range(0, 2);
        return rnd() % 2 ? v : -v - (int32_t)(rnd() % 2);
    }
    default:
        return wide ? rnd_range(-32771, 32770) : rnd_range(-32768, 32767);
    }
}

static const int widths[] = { 33,  34,  35,  36,  37,  47,  64,  68,   98,  100,
                              136, 200, 264, 272, 520, 577, 960, 1283, 1920 };
enum { N_WIDTHS = sizeof(widths) / sizeof(widths[0]) };

static void check_dwt0(const Variant *var)
{
    static const int bpcs[4] = { 8, 10, 12, 16 };
    uint8_t *tmp_c = malloc(ls_adm_dwt_tmp_size(MAXW)), *tmp_v = malloc(ls_adm_dwt_tmp_size(MAXW));
    for (int bi = 0; bi < 4; bi++) {
        const int bpc = bpcs[bi];
        const uint32_t max = (1u << bpc) - 1;
        for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
            for (int kind = 0; kind < 4; kind++) {
                const int wi = widths[wi_i], w = (wi + 1) / 2;
                Rows rows = { 0 };
                const void *in[4];
                for (int k = 0; k < 4; k++) {
                    void *row = new_row(&rows, bpc == 8 ? 1 : 2, wi);
                    for (int j = 0; j < wi; j++) {
                        uint32_t s = kind == 0   ? rnd() & max
                                     : kind == 1 ? (rnd() & 1) * max
                                     : kind == 2 ? max
                                                 : (uint32_t)(((j / 3 + k) & 1) * max);
                        if (bpc == 8)
                            ((uint8_t *)row)[j] = (uint8_t)s;
                        else
                            ((uint16_t *)row)[j] = (uint16_t)s;
                    }
                    in[k] = row;
                }
                const int d0 = kind == 3 ? (int)(rnd() % (unsigned)w) : 0;
                const int d1 = kind == 3 ? d0 + (int)(rnd() % (unsigned)(w - d0)) + 1 : w;
                int32_t *ac = new_row(&rows, 4, w), *av = new_row(&rows, 4, w);
                int16_t *bc[3], *bv[3];
                for (int b = 0; b < 3; b++) {
                    bc[b] = new_row(&rows, 2, w);
                    bv[b] = new_row(&rows, 2, w);
                }
                ref_dsp.dwt0(in, bpc, wi, d0, d1, tmp_c, ac, bc[0], bc[1], bc[2]);
                var->dsp.dwt0(in, bpc, wi, d0, d1, tmp_v, av, bv[0], bv[1], bv[2]);
                n_cases++;
                CHECK(!memcmp(ac, av, (size_t)w * 4), "%s dwt0 %d-bit wi %d kind %d: approximation",
                      var->name, bpc, wi, kind);
                for (int b = 0; b < 3; b++)
                    CHECK(!memcmp(bc[b] + d0, bv[b] + d0, (size_t)(d1 - d0) * 2),
                          "%s dwt0 %d-bit wi %d kind %d [%d, %d): band %d", var->name, bpc, wi,
                          kind, d0, d1, b);
                /* approximation only */
                var->dsp.dwt0(in, bpc, wi, 0, w, tmp_v, av, NULL, NULL, NULL);
                CHECK(!memcmp(ac, av, (size_t)w * 4), "%s dwt0 %d-bit wi %d: approximation alone",
                      var->name, bpc, wi);
                free_rows(&rows);
            }
        }
    }
    free(tmp_c);
    free(tmp_v);
}

static void check_dwt123(const Variant *var)
{
    uint8_t *tmp_c = malloc(ls_adm_dwt_tmp_size(MAXW)), *tmp_v = malloc(ls_adm_dwt_tmp_size(MAXW));
    for (int scale = 1; scale <= 3; scale++) {
        for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
            for (int kind = 0; kind < 6; kind++) {
                const int wi = widths[wi_i] / (1 << scale) + 5, w = (wi + 1) / 2;
                Rows rows = { 0 };
                const int32_t *in[4];
                for (int k = 0; k < 4; k++) {
                    int32_t *row = new_row(&rows, 4, wi);
                    for (int j = 0; j < wi; j++)
                        row[j] = band_value(kind == 4 ? 1 : kind, true);
                    in[k] = row;
                }
                const int d0 = (int)(rnd() % (unsigned)w);
                const int d1 = kind & 1 ? w : d0 + (int)(rnd() % (unsigned)(w - d0)) + 1;
                int32_t *ac = new_row(&rows, 4, w), *av = new_row(&rows, 4, w);
                int32_t *bc[3], *bv[3];
                for (int b = 0; b < 3; b++) {
                    bc[b] = new_row(&rows, 4, w);
                    bv[b] = new_row(&rows, 4, w);
                }
                ref_dsp.dwt123(in, scale, wi, d0, d1, tmp_c, ac, bc[0], bc[1], bc[2]);
                var->dsp.dwt123(in, scale, wi, d0, d1, tmp_v, av, bv[0], bv[1], bv[2]);
                n_cases++;
                CHECK(!memcmp(ac, av, (size_t)w * 4),
                      "%s dwt scale %d wi %d kind %d: approximation", var->name, scale, wi, kind);
                for (int b = 0; b < 3; b++)
                    CHECK(!memcmp(bc[b] + d0, bv[b] + d0, (size_t)(d1 - d0) * 4),
                          "%s dwt scale %d wi %d kind %d [%d, %d): band %d", var->name, scale, wi,
                          kind, d0, d1, b);
                free_rows(&rows);
            }
        }
    }
    free(tmp_c);
    free(tmp_v);
}

static const double egls[] = { 100.0, 1.0, 1.3, 2.5, 37.0 };

static void fill_pair(void *o, void *t, size_t elem, int w, int kind, int rel)
{
    const bool wide = elem == 4;
    for (int j = 0; j < w; j++) {
        const int32_t ov = band_value(kind, wide);
        int32_t tv;
        switch (rel) { /* how t relates to o */
        case 0:
            tv = band_value(kind, wide);
            break;
        case 1:
            tv = ov;
            break;
        case 2:
            tv = wide ? (int32_t)(ov / 2 + band_value(0, true))
                      : (int32_t)(ov / 2 + rnd_range(-9, 9));
            break;
        default:
            tv = ov == INT32_MIN ? INT32_MAX : (wide ? -ov : (ov == -32768 ? 32767 : -ov));
            break;
        }
        if (wide) {
            ((int32_t *)o)[j] = ov;
            ((int32_t *)t)[j] = tv;
        } else {
            ((int16_t *)o)[j] = (int16_t)ov;
            ((int16_t *)t)[j] = (int16_t)(tv > 32767 ? 32767 : tv < -32768 ? -32768 : tv);
        }
    }
}

static void check_decouple(const Variant *var, int scale)
{
    const size_t elem = scale ? 4 : 2;
    for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
        for (int kind = 0; kind < 7; kind++) {
            for (int rel = 0; rel < 4; rel++) {
                const int w = widths[wi_i] / 2 + 1;
                const double egl = egls[(kind + rel + wi_i) % 5];
                Rows rows = { 0 };
                void *o[3], *t[3], *rc[3], *ac[3], *rv[3], *av[3];
                for (int b = 0; b < 3; b++) {
                    o[b] = new_row(&rows, elem, w);
                    t[b] = new_row(&rows, elem, w);
                    fill_pair(o[b], t[b], elem, w, kind, rel);
                }
                Rows out = { 0 };
                for (int b = 0; b < 3; b++) {
                    rc[b] = new_row(&out, elem, w);
                    ac[b] = new_row(&out, elem, w);
                    rv[b] = new_row(&out, elem, w);
                    av[b] = new_row(&out, elem, w);
                }
                const int c0 = (int)(rnd() % (unsigned)(w / 4 + 1)), c1 = w - (int)(rnd() % 3);
                if (scale) {
                    ref_dsp.decouple123((const int32_t *const *)o, (const int32_t *const *)t, c0,
                                        c1, egl, (int32_t *const *)rc, (int32_t *const *)ac);
                    var->dsp.decouple123((const int32_t *const *)o, (const int32_t *const *)t, c0,
                                         c1, egl, (int32_t *const *)rv, (int32_t *const *)av);
                } else {
                    ref_dsp.decouple0((const int16_t *const *)o, (const int16_t *const *)t, c0, c1,
                                      egl, (int16_t *const *)rc, (int16_t *const *)ac);
                    var->dsp.decouple0((const int16_t *const *)o, (const int16_t *const *)t, c0, c1,
                                       egl, (int16_t *const *)rv, (int16_t *const *)av);
                }
                n_cases++;
                for (int b = 0; b < 3; b++) {
                    const size_t off = (size_t)c0 * elem, n = (size_t)(c1 - c0) * elem;
                    CHECK(!memcmp((uint8_t *)rc[b] + off, (uint8_t *)rv[b] + off, n) &&
                              !memcmp((uint8_t *)ac[b] + off, (uint8_t *)av[b] + off, n),
                          "%s decouple scale %s w %d kind %d rel %d egl %g band %d", var->name,
                          scale ? "1..3" : "0", w, kind, rel, egl, b);
                }
                free_rows(&rows);
                free_rows(&out);
            }
        }
    }
}

static void random_factors(uint16_t f16[3], uint32_t f32[3], int which)
{
    static const uint16_t hard[3] = { 36453, 36453, 49417 };
    for (int b = 0; b < 3; b++) {
        f16[b] = which == 0 ? hard[b] : which == 1 ? (uint16_t)rnd() : 65535;
        f32[b] = which == 0 ? 137373792u + (uint32_t)b : which == 1 ? rnd() << 1 : 0xffffffffu;
    }
}

static void check_csf(const Variant *var, int scale)
{
    const size_t elem = scale ? 4 : 2;
    for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
        for (int kind = 0; kind < 6; kind++) {
            for (int which = 0; which < 3; which++) {
                const int w = widths[wi_i] / 2 + 1;
                Rows rows = { 0 };
                void *x[3];
                for (int b = 0; b < 3; b++) {
                    x[b] = new_row(&rows, elem, w);
                    for (int j = 0; j < w; j++) {
                        const int32_t v = band_value(kind, scale != 0);
                        if (scale)
                            ((int32_t *)x[b])[j] = v;
                        else
                            ((int16_t *)x[b])[j] = (int16_t)v;
                    }
                }
                uint16_t f16[3];
                uint32_t f32[3];
                random_factors(f16, f32, which);
                int32_t *fc = new_row(&rows, 4, w), *mc = new_row(&rows, 4, w);
                int32_t *fv = new_row(&rows, 4, w), *mv = new_row(&rows, 4, w);
                const int c0 = (int)(rnd() % (unsigned)(w / 4 + 1)), c1 = w - (int)(rnd() % 3);
                if (scale) {
                    ref_dsp.csf123((const int32_t *const *)x, c0, c1, f32, fc, mc);
                    var->dsp.csf123((const int32_t *const *)x, c0, c1, f32, fv, mv);
                } else {
                    ref_dsp.csf0((const int16_t *const *)x, c0, c1, f16, fc, mc);
                    var->dsp.csf0((const int16_t *const *)x, c0, c1, f16, fv, mv);
                }
                n_cases++;
                CHECK(!memcmp(fc + c0, fv + c0, (size_t)(c1 - c0) * 4) &&
                          !memcmp(mc + c0, mv + c0, (size_t)(c1 - c0) * 4),
                      "%s csf scale %s w %d kind %d factors %d", var->name, scale ? "1..3" : "0", w,
                      kind, which);
                free_rows(&rows);
            }
        }
    }
}

static void check_cm(const Variant *var, int scale)
{
    const size_t elem = scale ? 4 : 2;
    for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
        for (int kind = 0; kind < 6; kind++) {
            for (int which = 0; which < 3; which++) {
                const int w = widths[wi_i] / 2 + 1;
                Rows rows = { 0 };
                void *src[3];
                for (int b = 0; b < 3; b++) {
                    src[b] = new_row(&rows, elem, w);
                    for (int j = 0; j < w; j++) {
                        const int32_t v = band_value(kind, scale != 0);
                        if (scale)
                            ((int32_t *)src[b])[j] = v;
                        else
                            ((int16_t *)src[b])[j] = (int16_t)v;
                    }
                }
                int32_t *f[3], *m = new_row(&rows, 4, w);
                for (int r = 0; r < 3; r++) {
                    f[r] = new_row(&rows, 4, w);
                    for (int j = -1; j <= w; j++)
                        f[r][j] = kind == 3    ? band_value(3, true) / 16
                                  : which == 2 ? rnd_range(-1, 2)
                                               : rnd_range(-5, scale ? 3000 : 300);
                }
                for (int j = 0; j < w; j++)
                    m[j] = which == 2 ? -3 : rnd_range(-3, scale ? 9000 : 900);
                uint16_t f16[3];
                uint32_t f32[3];
                random_factors(f16, f32, which);
                uint32_t cs[3], cr[3];
                for (int b = 0; b < 3; b++) {
                    cs[b] = 1 + rnd() % 12;
                    cr[b] = 1u << (cs[b] - 1);
                }
                const int j0 = (int)(rnd() % (unsigned)(w / 4 + 1)), j1 = w - (int)(rnd() % 3);
                int64_t accc[3], accv[3];
                if (scale) {
                    ref_dsp.cm123((const int32_t *const *)src, f[0], f[1], f[2], m, j0, j1, f32,
                                  cs[0], cr[0], accc);
                    var->dsp.cm123((const int32_t *const *)src, f[0], f[1], f[2], m, j0, j1, f32,
                                   cs[0], cr[0], accv);
                } else {
                    ref_dsp.cm0((const int16_t *const *)src, f[0], f[1], f[2], m, j0, j1, f16, cs,
                                cr, accc);
                    var->dsp.cm0((const int16_t *const *)src, f[0], f[1], f[2], m, j0, j1, f16, cs,
                                 cr, accv);
                }
                n_cases++;
                for (int b = 0; b < 3; b++)
                    CHECK(accc[b] == accv[b],
                          "%s cm scale %s w %d [%d, %d) kind %d factors %d band %d: %" PRId64
                          " != %" PRId64,
                          var->name, scale ? "1..3" : "0", w, j0, j1, kind, which, b, accv[b],
                          accc[b]);
                free_rows(&rows);
            }
        }
    }
}

static void check_den(const Variant *var, int scale)
{
    const size_t elem = scale ? 4 : 2;
    for (int wi_i = 0; wi_i < N_WIDTHS; wi_i++) {
        for (int kind = 0; kind < 6; kind++) {
            const int w = widths[wi_i] / 2 + 1;
            Rows rows = { 0 };
            void *band[3];
            for (int b = 0; b < 3; b++) {
                band[b] = new_row(&rows, elem, w);
                for (int j = 0; j < w; j++) {
                    const int32_t v = band_value(kind, scale != 0);
                    if (scale)
                        ((int32_t *)band[b])[j] = v;
                    else
                        ((int16_t *)band[b])[j] = (int16_t)v;
                }
            }
            const int j0 = (int)(rnd() % (unsigned)(w / 4 + 1)), j1 = w - (int)(rnd() % 3);
            const int sq = 30 + (int)(rnd() % 2);
            const uint32_t cs = 1 + rnd() % 11, cr = 1u << (cs - 1);
            uint64_t accc[3], accv[3];
            if (scale) {
                ref_dsp.den123((const int32_t *const *)band, j0, j1, sq, cs, cr, accc);
                var->dsp.den123((const int32_t *const *)band, j0, j1, sq, cs, cr, accv);
            } else {
                ref_dsp.den0((const int16_t *const *)band, j0, j1, accc);
                var->dsp.den0((const int16_t *const *)band, j0, j1, accv);
            }
            n_cases++;
            for (int b = 0; b < 3; b++)
                CHECK(accc[b] == accv[b],
                      "%s den scale %s w %d [%d, %d) kind %d band %d: %" PRIu64 " != %" PRIu64,
                      var->name, scale ? "1..3" : "0", w, j0, j1, kind, b, accv[b], accc[b]);
            free_rows(&rows);
        }
    }
}

static void test_units(void)
{
    for (int i = 0; i < n_variants; i++) {
        const Variant *var = &variants[i];
        const unsigned before = n_cases;
        const int failed_before = failures;
        check_dwt0(var);
        check_dwt123(var);
        for (int scale = 0; scale <= 1; scale++) {
            check_decouple(var, scale);
            check_csf(var, scale);
            check_cm(var, scale);
            check_den(var, scale);
        }
        printf("units %s: %u cases, %s\n", var->name, n_cases - before,
               failures == failed_before ? "bit-identical with C" : "DIFFER");
    }
}

/* ---- through the public API ---- */

enum { N_OUT = 7, N_DEBUG = 11, MAX_FRAMES = 3 };

typedef struct ApiCase {
    unsigned w, h, bpc;
    int content; /* 0 texture + noise, 1 shifted checkerboard, 2 full-range noise, 3 flat */
    unsigned content_bits; /* sample values are (8-bit content) << (bpc - 8) when 8, else full */
    const char *opts[12];  /* key, value pairs */
    const char *suffix;    /* output-name suffix the options give */
} ApiCase;

static const char *const base_names[N_OUT + N_DEBUG] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_adm",
    "integer_adm_num",
    "integer_adm_den",
    "integer_adm_num_scale0",
    "integer_adm_den_scale0",
    "integer_adm_num_scale1",
    "integer_adm_den_scale1",
    "integer_adm_num_scale2",
    "integer_adm_den_scale2",
    "integer_adm_num_scale3",
    "integer_adm_den_scale3",
};
static const char *const alias_names[3] = { "integer_adm2", "integer_aim", "integer_adm3" };

static void output_name(char *out, size_t n, int i, const char *suffix)
{
    if (!suffix || !*suffix)
        snprintf(out, n, "%s", base_names[i]);
    else
        snprintf(out, n, "%s%s", i < 3 ? alias_names[i] : base_names[i], suffix);
}

static bool has_debug(const ApiCase *k)
{
    for (int i = 0; i < 12 && k->opts[i]; i += 2)
        if (!strcmp(k->opts[i], "debug") && !strcmp(k->opts[i + 1], "true"))
            return true;
    return false;
}

static void fill_picture(VmafPicture *pic, const ApiCase *k, unsigned f, bool dist)
{
    uint64_t st = 0x1234567ull + 7919u * f + 104729u * k->w + k->h;
    const unsigned max8 = 255, maxb = (1u << k->bpc) - 1;
    for (unsigned y = 0; y < k->h; y++) {
        for (unsigned x = 0; x < k->w; x++) {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            const unsigned noise = (unsigned)(st >> 40);
            unsigned v;
            switch (k->content) {
            case 1:
                v = ((((x + (dist ? 1 : 0)) / 10) + y / 10) & 1) ? max8 : 0;
                break;
            case 2:
                v = noise & (k->content_bits == 8 ? max8 : maxb);
                break;
            case 3:
                v = dist ? 26 : 16;
                break;
            default: {
                const int base =
                    (int)((x * 3 + y * 2 + f * 5) % 160) + (int)((x / 9 + y / 7) % 3) * 30;
                const int d = dist ? (int)(noise % 9) - 4 : 0;
                const int s = base + 20 + d;
                v = (unsigned)(s < 0 ? 0 : s > 255 ? 255 : s);
                if (k->content_bits != 8)
                    v = (v << (k->bpc - 8)) | (noise & ((1u << (k->bpc - 8)) - 1));
                break;
            }
            }
            if (k->content_bits == 8)
                v <<= k->bpc - 8;
            if (k->bpc == 8)
                ((uint8_t *)pic->data[0] + y * pic->stride[0])[x] = (uint8_t)v;
            else
                ((uint16_t *)((uint8_t *)pic->data[0] + y * pic->stride[0]))[x] = (uint16_t)v;
        }
    }
}

/* Scores `frames` pictures; out[f][i] for the outputs (debug ones too when asked). */
static int score_adm(const ApiCase *k, uint64_t cpumask, unsigned threads, unsigned frames,
                     double out[MAX_FRAMES][N_OUT + N_DEBUG])
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE,
                              .n_threads = threads,
                              .cpumask = cpumask };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    VmafFeatureDictionary *opts = NULL;
    for (int i = 0; i < 12 && k->opts[i]; i += 2)
        vmaf_feature_dictionary_set(&opts, k->opts[i], k->opts[i + 1]);
    err = vmaf_use_feature(vmaf, "adm", opts);
    for (unsigned f = 0; !err && f < frames; f++) {
        VmafPicture ref, dis;
        err = vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV400P, k->bpc, k->w, k->h);
        if (err)
            break;
        err = vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV400P, k->bpc, k->w, k->h);
        if (err) {
            vmaf_picture_unref(&ref);
            break;
        }
        fill_picture(&ref, k, f, false);
        fill_picture(&dis, k, f, true);
        err = vmaf_read_pictures(vmaf, &ref, &dis, f);
        if (err) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    const int n = N_OUT + (has_debug(k) ? N_DEBUG : 0);
    for (unsigned f = 0; !err && f < frames; f++) {
        for (int i = 0; !err && i < n; i++) {
            char name[256];
            output_name(name, sizeof(name), i, k->suffix);
            err = vmaf_feature_score_at_index(vmaf, name, &out[f][i], f);
            if (err)
                fprintf(stderr, "no score %s at %u\n", name, f);
        }
    }
    vmaf_close(vmaf);
    return err;
}

static bool same_bits(double a, double b) { return double_bits(a) == double_bits(b); }

/* SIMD levels (cpumask 0, AVX-512 off, everything off) and two threads give the same bits. */
static void test_frames(void)
{
    static const ApiCase cases[] = {
        /* the widths where upstream's SIMD reads the wrong border (adm.md §11) */
        { 136, 136, 8, 0, 8, { NULL }, NULL },
        { 68, 68, 8, 0, 8, { NULL }, NULL },
        { 100, 100, 8, 0, 8, { NULL }, NULL },
        { 200, 48, 8, 0, 8, { NULL }, NULL },
        { 264, 40, 8, 0, 8, { NULL }, NULL },
        { 272, 40, 8, 0, 8, { NULL }, NULL },
        { 520, 36, 8, 0, 8, { NULL }, NULL },
        { 98, 98, 10, 0, 10, { NULL }, NULL },
        /* smallest size, odd sizes, every depth, extremes */
        { 33, 33, 8, 0, 8, { NULL }, NULL },
        { 33, 35, 16, 2, 16, { NULL }, NULL },
        { 57, 41, 12, 0, 12, { NULL }, NULL },
        { 129, 67, 10, 2, 10, { NULL }, NULL },
        { 161, 97, 16, 0, 16, { NULL }, NULL },
        { 240, 60, 8, 1, 8, { NULL }, NULL },
        { 203, 77, 16, 1, 8, { NULL }, NULL },
        { 96, 64, 8, 2, 8, { NULL }, NULL },
        { 1283, 50, 8, 0, 8, { NULL }, NULL },
        /* options */
        { 150, 90, 8, 0, 8, { "adm_enhn_gain_limit", "1" }, "_egl_1" },
        { 150, 90, 10, 2, 10, { "adm_enhn_gain_limit", "1.3" }, "_egl_1.3" },
        { 111, 83, 8, 1, 8, { "adm_enhn_gain_limit", "2.5" }, "_egl_2.5" },
        { 150,
          90,
          8,
          0,
          8,
          { "adm_csf_mode", "1", "adm_csf_scale", "0.001", "adm_csf_diag_scale", "0.0005" },
          "_scfd_0.0005_csf_1_scf_0.001" },
        { 150,
          90,
          8,
          0,
          8,
          { "adm_csf_mode", "2", "adm_ref_display_height", "2160", "adm_norm_view_dist", "1.5" },
          "_csf_2_nvd_1.5_rdh_2160" },
        { 150, 90, 12, 0, 12, { "adm_csf_mode", "3", "adm_norm_view_dist", "5" }, "_csf_3_nvd_5" },
        { 150,
          90,
          8,
          0,
          8,
          { "adm_csf_mode", "2", "adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1", "adm_min_val",
            "0.5", "adm_noise_weight", "0.02" },
          "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02" },
        { 150,
          90,
          8,
          0,
          8,
          { "adm_ref_display_height", "2160", "adm_norm_view_dist", "4" },
          "_nvd_4_rdh_2160" },
        { 150, 90, 8, 0, 8, { "adm_skip_scale0", "true", "debug", "true" }, "_ssz" },
        { 150, 90, 8, 0, 8, { "adm_skip_aim", "true", "debug", "true" }, NULL },
        { 150, 90, 10, 3, 10, { "adm_noise_weight", "0", "debug", "true" }, "_nw_0" },
    };
    const uint64_t masks[3] = { 0, LS_CPU_FLAG_AVX512, 255 };
    unsigned n_values = 0;
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const ApiCase *k = &cases[c];
        const int n = N_OUT + (has_debug(k) ? N_DEBUG : 0);
        double v[4][MAX_FRAMES][N_OUT + N_DEBUG];
        int err = 0;
        for (int m = 0; m < 3 && !err; m++)
            err = score_adm(k, masks[m], 0, 2, v[m]);
        if (!err)
            err = score_adm(k, 0, 2, 2, v[3]);
        CHECK(!err, "%ux%u %u-bit case %u: error %d (%s)", k->w, k->h, k->bpc, c, err,
              lockstep_last_error());
        if (err)
            continue;
        for (int m = 1; m < 4; m++)
            for (unsigned f = 0; f < 2; f++)
                for (int i = 0; i < n; i++) {
                    n_values++;
                    CHECK(same_bits(v[0][f][i], v[m][f][i]),
                          "%ux%u %u-bit case %u frame %u %s: %.17g (default) != %.17g (%s)", k->w,
                          k->h, k->bpc, c, f, base_names[i], v[0][f][i], v[m][f][i],
                          m == 1   ? "AVX2"
                          : m == 2 ? "C"
                                   : "2 threads");
                }
        /* option semantics, on the values themselves */
        for (unsigned f = 0; f < 2; f++) {
            const double *o = v[0][f];
            CHECK(isfinite(o[0]) && o[0] > 0.0 && o[0] < 1.5, "case %u adm2 %.17g", c, o[0]);
            if (k->suffix && !strcmp(k->suffix, "_ssz"))
                CHECK(o[3] == 0.0 && o[11] == 1e-10f && o[10] == 0.0,
                      "skip_scale0: scale0 %.17g, den_scale0 %.17g", o[3], o[11]);
            if (k->opts[0] && !strcmp(k->opts[0], "adm_skip_aim"))
                CHECK(o[1] == 0.0 && o[2] == o[0] * 0.5 + 0.5, "skip_aim: aim %.17g adm3 %.17g",
                      o[1], o[2]);
            if (k->content == 3) /* flat reference, no noise floor: den == 0 */
                CHECK(o[9] == 0.0 && o[0] == 1.0 && o[1] == 0.0 && o[2] == 1.0,
                      "den == 0: den %.17g adm2 %.17g aim %.17g adm3 %.17g", o[9], o[0], o[1],
                      o[2]);
            if (has_debug(k))
                CHECK(same_bits(o[7], o[0]), "debug integer_adm != adm2");
            const double wgt = k->suffix && strstr(k->suffix, "dlmw_0.7") ? 0.7 : 0.5;
            const double mn = k->suffix && strstr(k->suffix, "min_0.5") ? 0.5 : 0.0;
            const double v3 = o[0] * wgt + (1.0 - o[1]) * (1.0 - wgt);
            CHECK(same_bits(o[2], v3 > mn ? v3 : mn), "case %u adm3 %.17g != %.17g", c, o[2], v3);
        }
    }
    printf("frames: %u values, SIMD levels, C and 2 threads identical\n", n_values);
}

/* 8-bit content scores the same at 10, 12 and 16 bits when shifted left by bpc - 8. */
static void test_depth_identity(void)
{
    static const unsigned sizes[][2] = { { 136, 80 }, { 97, 45 } };
    for (unsigned s = 0; s < 2; s++) {
        for (int content = 0; content < 3; content++) {
            double v[4][MAX_FRAMES][N_OUT + N_DEBUG];
            static const unsigned bpcs[4] = { 8, 10, 12, 16 };
            int err = 0;
            for (int b = 0; b < 4 && !err; b++) {
                const ApiCase k = { sizes[s][0], sizes[s][1],         bpcs[b], content,
                                    8,           { "debug", "true" }, NULL };
                err = score_adm(&k, 0, 0, 1, v[b]);
            }
            CHECK(!err, "depth identity %ux%u: error %d", sizes[s][0], sizes[s][1], err);
            for (int b = 1; b < 4 && !err; b++)
                for (int i = 0; i < N_OUT + N_DEBUG; i++)
                    CHECK(same_bits(v[0][0][i], v[b][0][i]),
                          "%ux%u content %d: %s %.17g at 8 bit, %.17g at %u bit", sizes[s][0],
                          sizes[s][1], content, base_names[i], v[0][0][i], v[b][0][i], bpcs[b]);
        }
    }
}

/* Refusals at init, with the message the user sees. */
static void test_refusals(void)
{
    static const struct {
        unsigned w, h;
        const char *opts[6];
        const char *text;
    } bad[] = {
        { 32,
          33,
          { NULL },
          "frame 32x33 is too small: the 4-scale wavelet pyramid needs at least 33x33" },
        { 33, 32, { NULL }, "at least 33x33" },
        { 17, 13, { NULL }, "at least 33x33" },
        { 64,
          64,
          { "adm_norm_view_dist", "1.5" },
          "adm_norm_view_dist * adm_ref_display_height = 1.5 * 1080 is below 3 * 1080" },
        { 64, 64, { "adm_ref_display_height", "720" }, "below 3 * 1080" },
        { 64,
          64,
          { "adm_csf_mode", "2", "adm_norm_view_dist", "4" },
          "adm_csf_mode=2 has no CSF table for adm_ref_display_height=1080, adm_norm_view_dist=4" },
        { 64,
          64,
          { "adm_csf_mode", "3", "adm_ref_display_height", "4320" },
          "adm_csf_mode=3 has no CSF table" },
        { 64, 64, { "adm_csf_mode", "1" }, "adm_csf_mode=1 (Barten) with adm_csf_scale=1" },
        { 64, 64, { "adm_csf_mode", "1", "adm_csf_scale", "0.001" }, "adm_csf_diag_scale=1" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ApiCase k = { bad[i].w, bad[i].h, 8, 0, 8, { NULL }, NULL };
        for (int j = 0; j < 6; j++)
            k.opts[j] = bad[i].opts[j];
        double v[4][MAX_FRAMES][N_OUT + N_DEBUG];
        const int err = score_adm(&k, 0, 0, 1, v[0]);
        CHECK(err == -EINVAL && strstr(lockstep_last_error(), bad[i].text),
              "refusal %u: error %d, message \"%s\", wanted \"%s\"", i, err, lockstep_last_error(),
              bad[i].text);
    }
    const ApiCase ok = { 33, 33, 8, 0, 8, { NULL }, NULL };
    double v[4][MAX_FRAMES][N_OUT + N_DEBUG];
    CHECK(!score_adm(&ok, 0, 0, 1, v[0]), "33x33 must be scored: %s", lockstep_last_error());
}

/* ---- bench: whole frames through the API, minimum over repetitions ---- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void copy_plane(VmafPicture *dst, const VmafPicture *src)
{
    const size_t row = (size_t)src->w[0] * (src->bpc > 8 ? 2 : 1);
    for (unsigned y = 0; y < src->h[0]; y++)
        memcpy((uint8_t *)dst->data[0] + y * dst->stride[0],
               (const uint8_t *)src->data[0] + y * src->stride[0], row);
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ms per frame, wall clock, and (threads 0: scored in this thread) this thread's CPU time */
static double bench_frames(unsigned w, unsigned h, unsigned bpc, uint64_t cpumask, unsigned threads,
                           double *cpu_ms)
{
    enum { FRAMES = 6, REPS = 5 };
    const ApiCase k = { w, h, bpc, 0, bpc, { NULL }, NULL };
    VmafPicture tref[FRAMES], tdis[FRAMES];
    for (unsigned f = 0; f < FRAMES; f++) {
        vmaf_picture_alloc(&tref[f], VMAF_PIX_FMT_YUV400P, bpc, w, h);
        vmaf_picture_alloc(&tdis[f], VMAF_PIX_FMT_YUV400P, bpc, w, h);
        fill_picture(&tref[f], &k, f, false);
        fill_picture(&tdis[f], &k, f, true);
    }
    double best = 1e9, best_cpu = 1e9;
    for (int rep = 0; rep < REPS; rep++) {
        VmafContext *vmaf = NULL;
        VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE,
                                  .n_threads = threads,
                                  .cpumask = cpumask };
        if (vmaf_init(&vmaf, cfg) || vmaf_use_feature(vmaf, "adm", NULL))
            return -1;
        VmafPicture ref[FRAMES], dis[FRAMES];
        for (unsigned f = 0; f < FRAMES; f++) {
            vmaf_picture_alloc(&ref[f], VMAF_PIX_FMT_YUV400P, bpc, w, h);
            vmaf_picture_alloc(&dis[f], VMAF_PIX_FMT_YUV400P, bpc, w, h);
            copy_plane(&ref[f], &tref[f]);
            copy_plane(&dis[f], &tdis[f]);
        }
        /* the first frame sets up; time the others */
        vmaf_read_pictures(vmaf, &ref[0], &dis[0], 0);
        if (threads)
            vmaf_read_pictures(vmaf, &ref[1], &dis[1], 1);
        const unsigned first = threads ? 2 : 1;
        const double t0 = now_s(), c0 = cpu_s();
        for (unsigned f = first; f < FRAMES; f++)
            vmaf_read_pictures(vmaf, &ref[f], &dis[f], f);
        vmaf_read_pictures(vmaf, NULL, NULL, 0);
        const double t = (now_s() - t0) / (FRAMES - first), c = (cpu_s() - c0) / (FRAMES - first);
        best = t < best ? t : best;
        best_cpu = c < best_cpu ? c : best_cpu;
        vmaf_close(vmaf);
    }
    for (unsigned f = 0; f < FRAMES; f++) {
        vmaf_picture_unref(&tref[f]);
        vmaf_picture_unref(&tdis[f]);
    }
    *cpu_ms = threads ? 0.0 : best_cpu * 1e3;
    return best * 1e3;
}

static void bench(void)
{
    static const struct {
        unsigned w, h, bpc;
    } sizes[] = {
        { 1920, 1080, 8 },
        { 1920, 1080, 10 },
        { 3840, 2160, 8 },
        { 576, 324, 8 },
    };
    static const struct {
        const char *name;
        uint64_t mask;
    } levels[] = {
        { "best", 0 },
        { "avx2", LS_CPU_FLAG_AVX512 },
        { "c", 255 },
    };
    printf("| input | SIMD | threads | ms/frame, wall (min of 5) | ms/frame, CPU of the scoring "
           "thread |\n|---|---|---|---|---|\n");
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (unsigned l = 0; l < 3; l++)
            for (unsigned th = 0; th <= 2; th += 2) {
                if (th && l)
                    continue;
                double cpu;
                const double wall =
                    bench_frames(sizes[i].w, sizes[i].h, sizes[i].bpc, levels[l].mask, th, &cpu);
                if (th)
                    printf("| %ux%u %u-bit | %s | %u | %.2f | - |\n", sizes[i].w, sizes[i].h,
                           sizes[i].bpc, levels[l].name, th, wall);
                else
                    printf("| %ux%u %u-bit | %s | 1 | %.2f | %.2f |\n", sizes[i].w, sizes[i].h,
                           sizes[i].bpc, levels[l].name, wall, cpu);
                fflush(stdout);
            }
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[2], "--bench")) {
        setup_variants();
        bench();
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: test_adm ADM_FILTERS_JSON [--bench]\n");
        return 2;
    }
    setup_variants();
    test_tables(argv[1]);
    test_quirks();
    test_units();
    test_frames();
    test_depth_identity();
    test_refusals();
    if (failures)
        printf("%d FAILED\n", failures);
    else
        printf("all passed\n");
    return failures ? 1 : 0;
}
