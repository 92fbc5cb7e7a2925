/* Integer VIF: constants and the log2 table against tables/vif_filters.json, the smallest
 * frame, every SIMD unit against its C reference (checkasm-style: random and extreme planes and
 * sigmas, odd widths, every level and bit depth, exact comparison, failing parameters printed), a
 * mutation check showing the sigma cases would catch wrong rounding, and through the public API:
 * output names with option suffixes, vif_skip_scale0, debug outputs, the 8-bit vs shifted
 * high-bit-depth identity and the size refusals on both sides of the limit.
 * usage: test_vif VIF_FILTERS_JSON [--bench] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/cpu.h"
#include "feature/vif.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* ---- tables ---- */

/* the integer after "key": in the JSON (searching from *pos), or -1 */
static long long json_int(const char *json, const char *key)
{
    char quoted[96];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    const char *at = strstr(json, quoted);
    if (!at)
        return -1;
    at = strchr(at + strlen(quoted), ':');
    return at ? strtoll(at + 1, NULL, 10) : -1;
}

static void test_tables(const char *path)
{
    char *json = read_file(path);
    CHECK(json != NULL, "cannot read %s", path);
    if (!json)
        return;
    /* taps of every scale */
    static const char *const names[LS_VIF_SCALES] = { "\"scale0\"", "\"scale1\"", "\"scale2\"",
                                                      "\"scale3\"" };
    for (unsigned s = 0; s < LS_VIF_SCALES; s++) {
        const char *at = strstr(json, names[s]);
        CHECK(at != NULL, "no taps of scale %u in the JSON", s);
        if (!at)
            continue;
        at = strchr(at, '[') + 1;
        unsigned sum = 0;
        for (unsigned k = 0; k < ls_vif_width(s); k++) {
            char *end;
            const long v = strtol(at, &end, 10);
            CHECK(v == ls_vif_taps[s][k], "scale %u tap %u: %ld in the JSON, %u here", s, k, v,
                  ls_vif_taps[s][k]);
            sum += ls_vif_taps[s][k];
            at = end + 1;
        }
        CHECK(sum == 65536, "scale %u taps sum to %u", s, sum);
    }
    CHECK(json_int(json, "sigma_nsq_fixed") == LS_VIF_SIGMA_NSQ, "sigma_nsq differs");
    CHECK(json_int(json, "log_den_offset") == LS_VIF_LOG_DEN_OFFSET, "log_den_offset differs");
    const char *eps = strstr(json, "\"value_hex\"");
    eps = eps ? strchr(eps + 11, '"') : NULL;
    CHECK(eps && strtod(eps + 1, NULL) == LS_VIF_EPS && LS_VIF_EPS == 65536 * 1.0e-10,
          "eps differs");

    /* the log2 table: sum, FNV-1a of the little-endian entries, spot values, the 38 entries
     * where log2 rounded to float first differs from the exact rounding */
    uint64_t sum = 0, fnv = 0xcbf29ce484222325ull;
    for (unsigned k = 0; k < 32768; k++) {
        const uint16_t v = ls_vif_log2_table[k];
        sum += v;
        fnv = (fnv ^ (v & 0xff)) * 0x100000001b3ull;
        fnv = (fnv ^ (v >> 8)) * 0x100000001b3ull;
    }
    CHECK((long long)sum == json_int(json, "sum_of_entries_32768_to_65535"),
          "log2 table sum %" PRIu64, sum);
    const char *h = strstr(json, "\"fnv1a64_of_entries_32768_to_65535_as_uint16_little_endian\"");
    h = h ? strchr(strchr(h + 10, ':'), '"') : NULL;
    CHECK(h && strtoull(h + 1, NULL, 16) == fnv, "log2 table FNV-1a %016" PRIx64, fnv);
    static const unsigned spot[][2] = { { 32768, 30720 }, { 40000, 31309 }, { 49152, 31918 },
                                        { 65534, 32768 }, { 65535, 32768 } };
    for (unsigned i = 0; i < 5; i++)
        CHECK(ls_vif_log2_table[spot[i][0] - 32768] == spot[i][1], "T[%u] = %u", spot[i][0],
              ls_vif_log2_table[spot[i][0] - 32768]);
    const char *list = strstr(json, "entries_that_differ_from_exact_round_of_log2_times_2048");
    list = list ? strstr(list, "\"list\"") : NULL;
    unsigned n_special = 0;
    while (list && (list = strstr(list, "[")) != NULL) {
        char *end;
        const long idx = strtol(list + 1, &end, 10);
        if (end == list + 1) { /* the outer bracket */
            list++;
            continue;
        }
        const long val = strtol(end + 1, &end, 10);
        if (idx < 32768 || idx > 65535)
            break;
        CHECK(ls_vif_log2_table[idx - 32768] == val, "special T[%ld] = %u, JSON %ld", idx,
              ls_vif_log2_table[idx - 32768], val);
        CHECK(ls_vif_log2_table[idx - 32768] == (uint16_t)(lround(2048.0 * log2((double)idx)) + 1),
              "T[%ld] is not one above the exact rounding", idx);
        n_special++;
        list = end;
    }
    CHECK(n_special == 38, "%u special entries read, 38 expected", n_special);
    /* LOG2 keeps the 16 leading bits: powers of two and the largest inputs */
    CHECK(ls_vif_log2(ls_vif_log2_table, 131072) == 17 * 2048, "LOG2(2^17)");
    CHECK(ls_vif_log2(ls_vif_log2_table, 0xffffffffu) == 32768 + 2048 * 16, "LOG2(2^32-1)");
    CHECK(ls_vif_log2(ls_vif_log2_table, (uint64_t)1 << 45) == 45 * 2048, "LOG2(2^45)");
    free(json);
}

static void test_min_size(void)
{
    CHECK(ls_vif_min_side() == 16, "smallest side %u, expected 16", ls_vif_min_side());
    /* 16: 8 > 4 > 2 > 1 at the four scales; 15 leaves 1 at scale 3 */
    CHECK(ls_vif_scale_size(16, 3) == 2 && ls_vif_scale_size(15, 3) == 1, "scale sizes");
}

/* ---- checkasm: SIMD units against C ---- */

enum Fill { FILL_RANDOM, FILL_ZERO, FILL_MAX, FILL_ALTERNATE, FILL_SMOOTH, FILL_COUNT };
static const char *const fill_names[] = { "random", "zero", "max", "alternating", "smooth" };

/* A w x h plane of samples up to max (bytes when bytes, else uint16); dis != 0 makes the second
 * picture of a pair (inverted alternation, related smooth content). */
static void fill_plane(uint8_t *p, ptrdiff_t stride, unsigned w, unsigned h, int bytes,
                       unsigned max, enum Fill fill, int dis)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v;
            switch (fill) {
            case FILL_ZERO: v = 0; break;
            case FILL_MAX: v = max; break;
            case FILL_ALTERNATE: v = ((x + y + (unsigned)dis) & 1) ? max : 0; break;
            case FILL_SMOOTH:
                v = (unsigned)((x * 7 + y * 3) * (max / 200 + 1) +
                               (dis ? rnd() % (max / 50 + 2) : 0));
                v = v > max ? max - v % (max + 1) / 2 : v;
                break;
            default: v = rnd() % (max + 1); break;
            }
            if (bytes)
                p[y * stride + x] = (uint8_t)v;
            else
                ((uint16_t *)(void *)(p + y * stride))[x] = (uint16_t)v;
        }
}

typedef struct Variant {
    const char *name;
    uint64_t flags;
} Variant;

static unsigned n_variants(Variant v[3])
{
    const uint64_t cpu = ls_cpu_detect();
    unsigned n = 0;
    if (cpu & LS_CPU_FLAG_AVX2)
        v[n++] = (Variant){ "AVX2", LS_CPU_FLAG_AVX2 };
    else
        printf("SKIP: AVX2 (not on this CPU)\n");
    if ((cpu & LS_CPU_FLAG_AVX2) && (cpu & LS_CPU_FLAG_AVX512))
        v[n++] = (Variant){ "AVX-512", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 };
    else
        printf("SKIP: AVX-512 (not on this CPU)\n");
    if ((cpu & LS_CPU_FLAG_AVX2) && (cpu & LS_CPU_FLAG_AVX512) && (cpu & LS_CPU_FLAG_AVX512ICL))
        v[n++] = (Variant){ "AVX-512 VNNI",
                            LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 | LS_CPU_FLAG_AVX512ICL };
    else
        printf("SKIP: AVX-512 VNNI (not on this CPU)\n");
    return n;
}

static unsigned n_cases;

static int same_acc(const LsVifAccum *a, const LsVifAccum *b)
{
    return a->num_log == b->num_log && a->den_log == b->den_log && a->num_nonlog == b->num_nonlog &&
           a->den_nonlog == b->den_nonlog;
}

/* Sigma triples that cover every branch of the per-pixel terms: around the sigma_nsq threshold,
 * sigma12 and sigma2 at and below 0, gains above the limits, the extremes of int32, and the
 * ranges the statistics produce. */
static int32_t clamp_i32(double d) { return d > 2147483647.0 ? INT32_MAX : (int32_t)d; }

static void make_sigmas(int32_t *s1, int32_t *s2, int32_t *s12, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        const unsigned kind = rnd() % 8;
        int32_t a, b, c;
        switch (kind) {
        case 0: /* threshold */
            a = LS_VIF_SIGMA_NSQ - 2 + (int32_t)(rnd() % 4);
            b = (int32_t)(rnd() % 300000) - 1000;
            c = (int32_t)(rnd() % 300000) - 1000;
            break;
        case 1: /* extremes */
            a = (rnd() & 1) ? INT32_MAX : INT32_MIN + (int32_t)(rnd() % 3);
            b = (rnd() & 1) ? INT32_MAX : (rnd() & 1) ? 0 : -1;
            c = (rnd() & 1) ? INT32_MAX : (rnd() & 1) ? 1 : INT32_MIN;
            break;
        case 2: /* strong enhancement: sigma12 > sigma1, gain above 1 and 100 */
            a = LS_VIF_SIGMA_NSQ + (int32_t)(rnd() % 1000);
            c = a * (int32_t)(1 + rnd() % 200);
            b = (int32_t)(rnd() % 0x7fffffff);
            break;
        case 3: /* sigma2 just above g * sigma12: sv_sq small, truncation decides */
            a = LS_VIF_SIGMA_NSQ + (int32_t)(rnd() % 50000000);
            c = (int32_t)(rnd() % 50000000) + 1;
            b = clamp_i32((double)c * c / ((double)a + LS_VIF_EPS) + (double)(rnd() % 5) - 2.0);
            break;
        case 4: /* small gains near the threshold: n2 stays below 2^18, where rounding
                 * g*g*sigma1 instead of truncating it moves the table index */
            a = LS_VIF_SIGMA_NSQ + (int32_t)(rnd() % 10000);
            c = 1 + (int32_t)(rnd() % 60000);
            b = (int32_t)((double)c * c / ((double)a + LS_VIF_EPS)) + (int32_t)(rnd() % 3000);
            break;
        default: /* the statistics' ranges */
            a = (int32_t)(rnd() % 1100000000u) - 1000;
            b = (int32_t)(rnd() % 1100000000u) - 1000;
            c = (int32_t)(rnd() % 1100000000u) - 550000000;
            break;
        }
        s1[j] = a;
        s2[j] = b;
        s12[j] = c;
    }
}

static void check_pixels(const Variant *var)
{
    LsVifDsp c, v;
    ls_vif_dsp_init(&c, 0);
    ls_vif_dsp_init(&v, var->flags);
    static const unsigned lengths[] = { 0, 1, 7, 15, 16, 17, 31, 33, 100, 1921, 70000 };
    static const double limits[] = { 100.0, 1.0, 1.5 };
    for (unsigned li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++) {
        const unsigned n = lengths[li];
        int32_t *s = malloc(3 * (size_t)(n + 1) * sizeof(int32_t));
        make_sigmas(s, s + n + 1, s + 2 * (n + 1), n);
        /* every second length all in the log branch (textured areas: whole vectors of log
         * lanes take the SIMD path without packing) */
        if (li & 1)
            for (unsigned j = 0; j < n; j++)
                if (s[j] < LS_VIF_SIGMA_NSQ)
                    s[j] = LS_VIF_SIGMA_NSQ + (int32_t)(rnd() % 1000000);
        for (unsigned gi = 0; gi < 3; gi++) {
            LsVifAccum a = { 1, 2, 3, 4 }, b = { 1, 2, 3, 4 };
            c.pixels(s, s + n + 1, s + 2 * (n + 1), n, limits[gi], &a);
            v.pixels(s, s + n + 1, s + 2 * (n + 1), n, limits[gi], &b);
            n_cases++;
            CHECK(same_acc(&a, &b),
                  "%s pixels, n %u, gain limit %g: C %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
                  ", SIMD %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64,
                  var->name, n, limits[gi], a.num_log, a.den_log, a.num_nonlog, a.den_nonlog,
                  b.num_log, b.den_log, b.num_nonlog, b.den_nonlog);
        }
        free(s);
    }
}

/* the levels a picture goes through: scale 0 at every bit depth, scales 1..3 (16-bit) */
typedef struct LevelCase {
    unsigned scale, bpc;
} LevelCase;
static const LevelCase levels[] = { { 0, 8 },  { 0, 9 },  { 0, 10 }, { 0, 12 }, { 0, 16 },
                                    { 1, 8 },  { 2, 10 }, { 3, 8 },  { 1, 16 } };

static void check_planes(const Variant *var)
{
    LsVifDsp c, v;
    ls_vif_dsp_init(&c, 0);
    ls_vif_dsp_init(&v, var->flags);
    static const unsigned widths[] = { 16, 17, 33, 35, 64, 100, 1921 };
    static const unsigned heights[] = { 16, 19, 24 };
    const unsigned max_w = 1921, max_h = 24;
    const ptrdiff_t stride = 2 * (max_w + 64);
    uint8_t *pl[2] = { malloc((size_t)stride * max_h), malloc((size_t)stride * max_h) };
    void *tmp = aligned_alloc(64, (ls_vif_tmp_size(max_w) + 63) & ~(size_t)63);
    uint16_t *dc = malloc((size_t)max_w * max_h), *dv = malloc((size_t)max_w * max_h);
    for (unsigned l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
        const LsVifLevel level = ls_vif_level(levels[l].scale, levels[l].bpc);
        /* scales 1..3 hold 16-bit values whatever the input depth */
        const unsigned max = levels[l].scale ? 65535 : (1u << levels[l].bpc) - 1;
        const unsigned r = ls_vif_radius(level.scale);
        for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
            for (unsigned hi = 0; hi < sizeof(heights) / sizeof(heights[0]); hi++)
                for (int fill = 0; fill < FILL_COUNT; fill++) {
                    const unsigned w = widths[wi], h = heights[hi];
                    if (w <= r || h <= r)
                        continue;
                    if (w == 1921 && (hi > 0 || (fill != FILL_RANDOM && fill != FILL_SMOOTH)))
                        continue; /* wide rows: random content is enough, keeps it fast */
                    fill_plane(pl[0], stride, w, h, level.bytes, max, (enum Fill)fill, 0);
                    fill_plane(pl[1], stride, w, h, level.bytes, max, (enum Fill)fill, 1);
                    const LsVifPlane ref = { pl[0], stride, w, h }, dis = { pl[1], stride, w, h };
                    const double limit = (wi & 1) ? 1.0 : 100.0;
                    LsVifAccum a = { 0 }, b = { 0 };
                    c.stats(&ref, &dis, &level, limit, &a, tmp);
                    v.stats(&ref, &dis, &level, limit, &b, tmp);
                    n_cases++;
                    CHECK(same_acc(&a, &b),
                          "%s stats, scale %u %u-bit, %ux%u %s: C %" PRId64 " %" PRId64 " %" PRId64
                          " %" PRId64 ", SIMD %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64,
                          var->name, level.scale, levels[l].bpc, w, h, fill_names[fill],
                          a.num_log, a.den_log, a.num_nonlog, a.den_nonlog, b.num_log, b.den_log,
                          b.num_nonlog, b.den_nonlog);
                    if (level.scale == 3 || w <= ls_vif_radius(level.scale + 1))
                        continue;
                    memset(dc, 0xa5, (size_t)max_w * max_h);
                    memset(dv, 0x5a, (size_t)max_w * max_h);
                    c.decimate(&ref, &level, dc, tmp);
                    v.decimate(&ref, &level, dv, tmp);
                    n_cases++;
                    CHECK(!memcmp(dc, dv, (size_t)(w / 2) * (h / 2) * sizeof(uint16_t)),
                          "%s decimate, scale %u -> %u %u-bit, %ux%u %s differs", var->name,
                          level.scale, level.scale + 1, levels[l].bpc, w, h, fill_names[fill]);
                }
    }
    free(pl[0]);
    free(pl[1]);
    free(tmp);
    free(dc);
    free(dv);
}

static void test_checkasm(void)
{
    Variant var[3];
    const unsigned n = n_variants(var);
    for (unsigned i = 0; i < n; i++) {
        const int before = failures;
        const unsigned cases_before = n_cases;
        check_pixels(&var[i]);
        check_planes(&var[i]);
        printf("checkasm: %s %u cases, %s\n", var[i].name, n_cases - cases_before,
               failures == before ? "bit-identical with C" : "DIFFERS");
    }
}

/* ---- mutation check: the sigma cases see each rounding detail of the per-pixel terms ---- */

enum Mutation { MUT_ROUND_SV, MUT_ROUND_N2, MUT_CLAMP_FIRST, MUT_COUNT };
static const char *const mutation_names[] = { "sv_sq rounded instead of truncated",
                                              "g*g*sigma1 rounded instead of truncated",
                                              "gain clamped before sv_sq" };

/* ls_vif_pixel with one detail changed */
static void mutant_pixel(enum Mutation m, int32_t s1, int32_t s2, int32_t s12, double limit,
                         LsVifAccum *acc)
{
    s2 = s2 > 0 ? s2 : 0;
    if (s1 < LS_VIF_SIGMA_NSQ) {
        acc->num_nonlog += s2;
        acc->den_nonlog++;
        return;
    }
    acc->den_log += ls_vif_log2(ls_vif_log2_table, (uint32_t)LS_VIF_SIGMA_NSQ + (uint32_t)s1) -
                    LS_VIF_LOG_DEN_OFFSET;
    if (s12 <= 0 || s2 <= 0)
        return;
    double g = (double)s12 / ((double)s1 + LS_VIF_EPS);
    if (m == MUT_CLAMP_FIRST)
        g = g < limit ? g : limit;
    const double sv_d = (double)s2 - g * (double)s12;
    int32_t sv = m == MUT_ROUND_SV ? (int32_t)lround(sv_d) : ls_vif_trunc_i32(sv_d);
    sv = sv > 0 ? sv : 0;
    g = g < limit ? g : limit;
    const uint32_t n1 = (uint32_t)sv + (uint32_t)LS_VIF_SIGMA_NSQ;
    const double t = (g * g) * (double)s1;
    const int64_t n2 = (m == MUT_ROUND_N2 ? (int64_t)llround(t) : (int64_t)t) + n1;
    acc->num_log += ls_vif_log2(ls_vif_log2_table, (uint64_t)n2) -
                    ls_vif_log2(ls_vif_log2_table, n1);
}

static void test_mutations(void)
{
    const unsigned n = 1921;
    int32_t *s = malloc(3 * (size_t)n * sizeof(int32_t));
    rng_state = 12345;
    make_sigmas(s, s + n, s + 2 * n, n);
    for (int m = 0; m < MUT_COUNT; m++) {
        const double limit = m == MUT_CLAMP_FIRST ? 1.0 : 100.0;
        LsVifAccum good = { 0 }, bad = { 0 };
        ls_vif_pixels_c(s, s + n, s + 2 * n, n, limit, &good);
        for (unsigned j = 0; j < n; j++)
            mutant_pixel((enum Mutation)m, s[j], s[n + j], s[2 * n + j], limit, &bad);
        CHECK(!same_acc(&good, &bad), "mutation not seen by the sigma cases: %s",
              mutation_names[m]);
    }
    free(s);
}

/* ---- public API ---- */

/* Scores two frames of a w x h pair: 8-bit base content shifted to bpc. Values of the names at
 * frame 1; err is the init error. */
static int score(const char *const *options, unsigned bpc, unsigned w, unsigned h,
                 const char *const *names, unsigned n_names, double *values)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE, .n_threads = 0 };
    int err = vmaf_init(&vmaf, cfg);
    if (err)
        return err;
    VmafFeatureDictionary *opts = NULL;
    for (unsigned i = 0; options && options[i]; i += 2)
        vmaf_feature_dictionary_set(&opts, options[i], options[i + 1]);
    err = vmaf_use_feature(vmaf, "vif", opts);
    uint64_t seed = 777;
    for (unsigned f = 0; !err && f < 2; f++) {
        VmafPicture ref, dis;
        err = vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, bpc, w, h);
        if (err)
            break;
        err = vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, bpc, w, h);
        if (err) {
            vmaf_picture_unref(&ref);
            break;
        }
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                const unsigned noise = (unsigned)(seed >> 60);
                const unsigned r = (x * 5 + y * 9 + (x / 4) * (y / 3) * 3 + f * 17) & 255;
                /* blurred-ish, noisy and locally sharpened: gains above 1 occur */
                const unsigned d = (x & 3) == 0 ? (r * 3 / 2) & 255 : (r + noise) & 255;
                if (bpc > 8) {
                    ((uint16_t *)(void *)((uint8_t *)ref.data[0] + y * ref.stride[0]))[x] =
                        (uint16_t)(r << (bpc - 8));
                    ((uint16_t *)(void *)((uint8_t *)dis.data[0] + y * dis.stride[0]))[x] =
                        (uint16_t)(d << (bpc - 8));
                } else {
                    ((uint8_t *)ref.data[0] + y * ref.stride[0])[x] = (uint8_t)r;
                    ((uint8_t *)dis.data[0] + y * dis.stride[0])[x] = (uint8_t)d;
                }
            }
        err = vmaf_read_pictures(vmaf, &ref, &dis, f);
        if (err) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
        }
    }
    if (!err)
        err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    for (unsigned i = 0; !err && i < n_names; i++) {
        err = vmaf_feature_score_at_index(vmaf, names[i], &values[i], 1);
        CHECK(!err, "no value for %s", names[i]);
    }
    vmaf_close(vmaf);
    return err;
}

static const char *const default_names[4] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
};

static void test_api(void)
{
    double base[4], v[16];
    int err = score(NULL, 8, 67, 45, default_names, 4, base);
    CHECK(!err, "default names: error %d (%s)", err, lockstep_last_error());
    for (unsigned s = 0; s < 4; s++)
        CHECK(isfinite(base[s]) && base[s] > 0.0 && (double)(float)base[s] == base[s],
              "scale %u score %.17g is not a positive float", s, base[s]);

    /* 8-bit content shifted to every depth: the same bits (vif.md §7) */
    static const unsigned depths[] = { 9, 10, 12, 16 };
    for (unsigned i = 0; i < 4; i++) {
        err = score(NULL, depths[i], 67, 45, default_names, 4, v);
        for (unsigned s = 0; !err && s < 4; s++)
            CHECK(double_bits(v[s]) == double_bits(base[s]),
                  "%u-bit shifted, scale %u: %.17g, 8-bit %.17g", depths[i], s, v[s], base[s]);
        CHECK(!err, "%u-bit: error %d", depths[i], err);
    }

    /* gain limit: suffixed names; scales where gains above 1 occur change */
    static const char *const egl[] = { "vif_enhn_gain_limit", "1.0", NULL };
    static const char *const egl_names[4] = {
        "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1",
        "integer_vif_scale3_egl_1",
    };
    err = score(egl, 8, 67, 45, egl_names, 4, v);
    CHECK(!err, "egl names: error %d", err);
    int lower = 0;
    for (unsigned s = 0; !err && s < 4; s++) {
        CHECK(v[s] <= base[s], "egl=1 raised scale %u: %.17g > %.17g", s, v[s], base[s]);
        lower += v[s] < base[s];
    }
    CHECK(err || lower > 0, "vif_enhn_gain_limit=1 changed no scale of sharpened content");

    /* skip scale 0: 0 there, scales 1..3 unchanged; debug names and values */
    static const char *const skip[] = { "vif_skip_scale0", "true", "debug", "true", NULL };
    static const char *const skip_names[11] = {
        "integer_vif_scale0_ssclz", "integer_vif_scale1_ssclz", "integer_vif_scale2_ssclz",
        "integer_vif_scale3_ssclz", "integer_vif_ssclz", "integer_vif_num_ssclz",
        "integer_vif_den_ssclz", "integer_vif_num_scale0_ssclz", "integer_vif_den_scale0_ssclz",
        "integer_vif_num_scale3_ssclz", "integer_vif_den_scale3_ssclz",
    };
    err = score(skip, 8, 67, 45, skip_names, 11, v);
    CHECK(!err, "skip_scale0: error %d (%s)", err, lockstep_last_error());
    if (!err) {
        CHECK(v[0] == 0.0, "skip_scale0: scale 0 is %.17g", v[0]);
        for (unsigned s = 1; s < 4; s++)
            CHECK(double_bits(v[s]) == double_bits(base[s]), "skip_scale0 changed scale %u", s);
        CHECK(v[7] == 0.0 && v[8] == -1.0, "skip_scale0 debug: num %.17g den %.17g", v[7], v[8]);
        CHECK(v[4] == v[5] / v[6], "skip_scale0: integer_vif is not num/den");
        CHECK(double_bits(v[9] / v[10]) != 0 && (float)v[9] / (float)v[10] == (float)base[3],
              "skip_scale0: scale 3 num/den do not give its score");
    }
    /* debug alone: long names stay, debug names unsuffixed; num = ((n0 + n1) + n2) + n3 */
    static const char *const dbg[] = { "debug", "true", NULL };
    static const char *const dbg_names[12] = {
        "VMAF_integer_feature_vif_scale0_score", "integer_vif", "integer_vif_num",
        "integer_vif_den",
        "integer_vif_num_scale0", "integer_vif_den_scale0", "integer_vif_num_scale1",
        "integer_vif_den_scale1", "integer_vif_num_scale2", "integer_vif_den_scale2",
        "integer_vif_num_scale3", "integer_vif_den_scale3",
    };
    err = score(dbg, 8, 67, 45, dbg_names, 12, v);
    CHECK(!err, "debug: error %d", err);
    if (!err) {
        CHECK(double_bits(v[0]) == double_bits(base[0]), "debug changed scale 0");
        CHECK(v[2] == ((v[4] + v[6]) + v[8]) + v[10] && v[3] == ((v[5] + v[7]) + v[9]) + v[11],
              "debug sums are not in scale order");
        CHECK(v[1] == v[2] / v[3], "integer_vif is not num/den");
        for (unsigned s = 0; s < 4; s++)
            CHECK((double)((float)v[4 + 2 * s] / (float)v[5 + 2 * s]) == base[s],
                  "debug num/den of scale %u do not give its score", s);
    }
    /* both feature parameters: sorted by option name */
    static const char *const both[] = { "vif_skip_scale0", "true", "vif_enhn_gain_limit", "1",
                                        NULL };
    static const char *const both_names[1] = { "integer_vif_scale2_egl_1_ssclz" };
    err = score(both, 8, 67, 45, both_names, 1, v);
    CHECK(!err, "both options: error %d", err);
}

static void test_refusals(void)
{
    static const struct { unsigned w, h; int ok; } sizes[] = {
        { 16, 16, 1 }, { 17, 16, 1 }, { 16, 35, 1 }, { 15, 16, 0 }, { 16, 15, 0 },
        { 17, 13, 0 }, { 8, 8, 0 },   { 7, 7, 0 },   { 1000, 15, 0 },
    };
    double v[4];
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const int err =
            score(NULL, 8, sizes[i].w, sizes[i].h, default_names, sizes[i].ok ? 4 : 0, v);
        CHECK((err == 0) == sizes[i].ok, "%ux%u: %s", sizes[i].w, sizes[i].h,
              err ? lockstep_last_error() : "accepted");
        if (!sizes[i].ok && err) {
            char expected[160];
            snprintf(expected, sizeof(expected),
                     "vif: frame %ux%u is too small for the 4-scale pyramid; the smallest frame "
                     "it can score is 16x16",
                     sizes[i].w, sizes[i].h);
            CHECK(strstr(lockstep_last_error(), expected) != NULL, "%ux%u refused with \"%s\"",
                  sizes[i].w, sizes[i].h, lockstep_last_error());
        }
        for (unsigned s = 0; sizes[i].ok && !err && s < 4; s++)
            CHECK(isfinite(v[s]), "%ux%u scale %u: %.17g", sizes[i].w, sizes[i].h, s, v[s]);
    }
    printf("refused as expected: %s\n", lockstep_last_error());
}

/* ---- bench ---- */

/* CPU time of this thread: the machine may be shared */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench(void)
{
    const unsigned w = 1920, h = 1080;
    const ptrdiff_t stride = w;
    uint8_t *pl[2] = { malloc((size_t)w * h), malloc((size_t)w * h) };
    fill_plane(pl[0], stride, w, h, 1, 255, FILL_SMOOTH, 0);
    fill_plane(pl[1], stride, w, h, 1, 255, FILL_SMOOTH, 1);
    void *tmp = aligned_alloc(64, (ls_vif_tmp_size(w) + 63) & ~(size_t)63);
    uint16_t *half = malloc((size_t)w * h);
    const LsVifPlane ref = { pl[0], stride, w, h }, dis = { pl[1], stride, w, h };
    const LsVifLevel level = ls_vif_level(0, 8);
    static const struct { const char *name; uint64_t flags; } vs[4] = {
        { "C", 0 },
        { "AVX2", LS_CPU_FLAG_AVX2 },
        { "AVX-512", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 },
        { "VNNI", LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 | LS_CPU_FLAG_AVX512ICL },
    };
    for (unsigned i = 0; i < 4; i++) {
        if ((vs[i].flags & ls_cpu_detect()) != vs[i].flags)
            continue;
        LsVifDsp d;
        ls_vif_dsp_init(&d, vs[i].flags);
        LsVifAccum acc = { 0 };
        const unsigned reps = i ? 5 : 1;
        double t0 = now();
        for (unsigned r = 0; r < reps; r++)
            d.stats(&ref, &dis, &level, 100.0, &acc, tmp);
        const double t_stats = (now() - t0) / reps;
        t0 = now();
        for (unsigned r = 0; r < reps; r++)
            d.decimate(&ref, &level, half, tmp);
        const double t_dec = (now() - t0) / reps;
        printf("%-8s 1920x1080 8-bit scale 0: stats %.2f ms, decimate %.2f ms\n", vs[i].name,
               t_stats * 1e3, t_dec * 1e3);
    }
    free(pl[0]);
    free(pl[1]);
    free(tmp);
    free(half);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        bench();
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: test_vif VIF_FILTERS_JSON [--bench]\n");
        return 2;
    }
    test_tables(argv[1]);
    test_min_size();
    test_checkasm();
    test_mutations();
    test_api();
    test_refusals();
    printf("%s\n", failures ? "FAILED" : "all vif tests passed");
    return failures ? 1 : 0;
}
