/* cambi: the constants against tables/cambi.json; every AVX2 unit against its C reference
 * (checkasm-style: random, extreme and banded rows, odd and wide sizes, exact comparison, failing
 * parameters printed); the whole extractor, on the C and the dispatched paths, against a model
 * written here from the spec (brute-force window counts, the spec's selection), at every bit
 * depth and with every option; option semantics (precedences, encoding and source sizes, full_ref,
 * heat maps), output names, the init refusals and their texts; mutation checks showing that the
 * model comparison catches a reciprocal computed as 1.0f / n, counts that include unmasked pixels
 * and a pooling summed in another order.
 * usage: test_cambi CAMBI_JSON [--bench Y4M W H FRAME] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mkdtemp */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lockstep/lockstep.h"
#include "test_support.h"
#include "core/collector.h"
#include "core/cpu.h"
#include "core/extractor.h"
#include "feature/cambi.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static bool have_avx2(void) { return (ls_cpu_detect() & LS_CPU_FLAG_AVX2) != 0; }

/* ---- tables ---- */

/* The text after `"key":` from *pos on, blanks skipped, or NULL. */
static const char *json_value(const char *pos, const char *key)
{
    const char *at = json_after(pos, key);
    while (at && (*at == ' ' || *at == '\n'))
        at++;
    return at;
}

/* Integers of the array at p ("[1, 2, ...]"); returns how many. */
static int json_ints(const char *p, int *out, int max)
{
    if (!p || *p != '[')
        return -1;
    int n = 0;
    p++;
    while (n < max) {
        while (*p == ' ' || *p == '\n' || *p == ',')
            p++;
        if (*p == ']')
            break;
        char *end;
        out[n++] = (int)strtol(p, &end, 10);
        p = end;
    }
    return n;
}

static void test_tables(const char *json_path)
{
    char *json = read_file(json_path);
    CHECK(json != NULL, "cannot read %s", json_path);
    if (!json)
        return;
    /* the reciprocal table, entry by entry and by its hash */
    const char *p = json_value(strstr(json, "\"reciprocal_lut\""), "bits_hex");
    unsigned n = 0, bad = 0;
    uint64_t fnv = 0xcbf29ce484222325ull;
    while (p && n < LS_CAMBI_LUT_SIZE && (p = strchr(p, '"'))) {
        const uint32_t want = (uint32_t)strtoul(p + 1, NULL, 16);
        const uint32_t have = float_bits(ls_cambi_reciprocal[n]);
        bad += want != have;
        for (int b = 0; b < 4; b++) {
            fnv ^= (have >> (8 * b)) & 0xff;
            fnv *= 0x100000001b3ull;
        }
        n++;
        p = strchr(p + 1, '"') + 1;
    }
    CHECK(n == LS_CAMBI_LUT_SIZE && bad == 0, "reciprocal table: %u entries read, %u differ", n, bad);
    const char *h = json_value(json, "fnv1a64_of_little_endian_bits");
    CHECK(h && strtoull(h + 1, NULL, 16) == fnv, "reciprocal table hash %016" PRIx64, fnv);
    /* at the 42 exceptions the table is not 1.0f / n: a reciprocal computed in float fails */
    unsigned not_div = 0;
    for (unsigned i = 1; i < LS_CAMBI_LUT_SIZE; i++)
        not_div += float_bits(ls_cambi_reciprocal[i]) != float_bits(1.0f / (float)i);
    CHECK(not_div == 42, "%u entries differ from 1.0f / n, the spec lists 42", not_div);

    int w[LS_CAMBI_MAX_DIFFS];
    CHECK(json_ints(json_value(strstr(json, "\"contrast_weights\""), "values"), w,
                    LS_CAMBI_MAX_DIFFS) == LS_CAMBI_MAX_DIFFS &&
              !memcmp(w, ls_cambi_contrast_weights, sizeof(w)),
          "contrast weights differ from the table");
    int sw[5];
    CHECK(json_ints(json_value(strstr(json, "\"scale_weights\""), "values"), sw, 5) == 5 &&
              !memcmp(sw, ls_cambi_scale_weights, sizeof(sw)),
          "scale weights differ from the table");

    /* visibility thresholds of both EOTFs at every max_log_contrast, and vlt examples */
    static const char *const eotfs[2] = { "bt1886", "pq" };
    unsigned n_tvi = 0;
    for (int e = 0; e < 2; e++) {
        char key[32];
        snprintf(key, sizeof(key), "\"%s\"", eotfs[e]);
        const char *sec = strstr(strstr(json, "\"tvi\""), key);
        for (int mlc = 0; mlc <= 5; mlc++) {
            snprintf(key, sizeof(key), "max_log_contrast_%d", mlc);
            int want[LS_CAMBI_MAX_DIFFS];
            const int nw = json_ints(json_value(sec, key), want, LS_CAMBI_MAX_DIFFS);
            LsCambiThresholds t;
            CHECK(!ls_cambi_thresholds(&t, eotfs[e], 0.019, mlc, 0.0), "%s refused", eotfs[e]);
            CHECK(nw == t.n_diffs && !memcmp(want, t.tvi, (size_t)nw * sizeof(int)),
                  "tvi %s mlc %d differs (first %d vs %d)", eotfs[e], mlc, t.tvi[0], want[0]);
            n_tvi += (unsigned)nw;
        }
        const char *ex = json_value(sec, "vlt_luma_examples");
        const char *end = ex ? strchr(ex, '}') : NULL;
        for (const char *q = ex; q && (q = strchr(q, '"')) && q < end;) {
            const double lum = strtod(q + 1, NULL);
            q = strchr(q + 1, '"') + 1;
            const int want = (int)strtol(strchr(q, ':') + 1, (char **)&q, 10);
            LsCambiThresholds t;
            ls_cambi_thresholds(&t, eotfs[e], 0.019, 2, lum);
            CHECK(t.vlt == want, "vlt %s %g: %d, table %d", eotfs[e], lum, t.vlt, want);
        }
    }
    LsCambiThresholds t;
    CHECK(ls_cambi_thresholds(&t, "bt1886", 0.019, 2, 0.06) == 0 && t.vlt == 78,
          "vlt of the VMAF v1 value 0.06: %d, the spec says 78", t.vlt);
    CHECK(ls_cambi_thresholds(&t, "hlg", 0.019, 2, 0.0) == -1, "unknown EOTF accepted");

    /* adjusted windows and mask thresholds */
    unsigned n_win = 0;
    const char *ws = strstr(json, "\"adjusted_window_size_examples\"");
    const char *ws_end = ws ? strstr(ws, "\"mask_index_examples\"") : NULL;
    unsigned ew, eh;
    for (const char *q = ws; q && q < ws_end && (q = strchr(q + 1, '"')) && q < ws_end;) {
        if (sscanf(q, "\"%ux%u\"", &ew, &eh) != 2)
            continue;
        int want[3] = { -1, -1, -1 };
        static const char *const k3[3] = { "ws65", "ws127", "ws65_speedup" };
        for (int k = 0; k < 3; k++) {
            const char *v = json_value(q, k3[k]);
            if (v && v < strchr(q, '}'))
                want[k] = atoi(v);
        }
        CHECK(ls_cambi_adjust_window(65, ew, eh, 0) == want[0], "window %ux%u", ew, eh);
        CHECK(ls_cambi_adjust_window(127, ew, eh, 0) == want[1], "window 127 %ux%u", ew, eh);
        CHECK(want[2] < 0 || ls_cambi_adjust_window(65, ew, eh, 1) == want[2],
              "window with speed-up %ux%u", ew, eh);
        n_win++;
        q = strchr(q, '}');
    }
    unsigned n_mask = 0;
    const char *mi = json_value(json, "mask_index_examples");
    for (const char *q = mi; q && (q = strchr(q + 1, '"'));) {
        if (sscanf(q, "\"%ux%u\"", &ew, &eh) != 2)
            break;
        const int want = atoi(strchr(q, ':') + 1);
        CHECK(ls_cambi_mask_index(ew, eh) == want, "mask index %ux%u: %d != %d", ew, eh,
              ls_cambi_mask_index(ew, eh), want);
        n_mask++;
        q = strchr(q + 1, '"');
    }
    CHECK(n_win >= 6 && n_mask >= 6, "too few examples read (%u windows, %u masks)", n_win, n_mask);
    free(json);
    printf("tables: %u reciprocals (42 not 1/n), %u thresholds, %u windows, %u mask indices equal "
           "the JSON\n",
           n, n_tvi, n_win, n_mask);
}

/* ---- small helpers of the header ---- */

static void test_helpers(void)
{
    CHECK(ls_cambi_to_10bit(255, 8) == 1020 && ls_cambi_to_10bit(511, 9) == 1022 &&
              ls_cambi_to_10bit(1023, 10) == 1023 && ls_cambi_to_10bit(4095, 12) == 1024 &&
              ls_cambi_to_10bit(4093, 12) == 1023 && ls_cambi_to_10bit(65535, 16) == 1024 &&
              ls_cambi_to_10bit(2, 11) == 1 && ls_cambi_to_10bit(1, 11) == 1 &&
              ls_cambi_to_10bit(0, 11) == 0,
          "10-bit conversion");
    /* the positions accumulate in float: from the step, not from j * step */
    static const unsigned cases[][2] = { { 1920, 960 },  { 1920, 1366 }, { 1920, 1919 },
                                         { 1080, 540 },  { 577, 216 },   { 7680, 7679 },
                                         { 3840, 1280 }, { 300, 320 } };
    unsigned differs_from_product = 0;
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const unsigned in = cases[c][0], out = cases[c][1];
        int *pos = malloc(out * sizeof(int));
        ls_cambi_resample_positions(pos, in, out);
        const float step = (float)in / (float)out;
        float x = (float)((double)(step / 2) - 0.5);
        for (unsigned j = 0; j < out; j++) {
            int want = (int)((double)x + 0.5);
            want = want > (int)in - 1 ? (int)in - 1 : want;
            CHECK(pos[j] == want && pos[j] >= 0 && pos[j] < (int)in, "position %u of %u->%u", j,
                  in, out);
            const int product = (int)((double)step * j + (double)step / 2);
            differs_from_product += product != want && product < (int)in;
            x = x + step;
        }
        free(pos);
    }
    CHECK(differs_from_product > 0, "no case where accumulation and multiplication differ");
    CHECK(ls_cambi_mode3(1, 1, 2) == 1 && ls_cambi_mode3(1, 2, 1) == 1 &&
              ls_cambi_mode3(2, 1, 1) == 1 && ls_cambi_mode3(3, 1, 2) == 1 &&
              ls_cambi_mode3(5, 5, 5) == 5,
          "mode3");
    const double s[5] = { 1.5, 0.25, 3.0, 0.0, 7.0 };
    CHECK(ls_cambi_frame_score(s, 9) == ((((1.5 * 16 + 0.25 * 8) + 3.0 * 4) + 0.0) + 7.0) / 81.0,
          "frame score");
    printf("helpers: conversion, %u resampling positions that a product gets wrong, mode, score\n",
           differs_from_product);
}

/* ---- pictures ---- */

enum Kind { BANDED, NOISE, FLAT, ZERO, MAX, STEPS, N_KINDS };
static const char *const kind_names[N_KINDS] = { "banded", "noise", "flat", "zero", "max", "steps" };

/* Samples of a w x h luma plane at bpc: banded = a slow gradient over a few dozen dark levels with
 * flat patches and some noise, steps = large flat areas one level apart. */
static void make_plane(unsigned *px, unsigned w, unsigned h, unsigned bpc, enum Kind kind,
                       unsigned variant)
{
    const unsigned max = (1u << bpc) - 1;
    const double unit = (double)(1u << bpc) / 256.0;
    rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)w << 40) ^ ((uint64_t)h << 24) ^
                ((uint64_t)bpc << 16) ^ ((uint64_t)kind << 8) ^ variant; /* the same picture */
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < w; j++) {
            unsigned v = 0;
            switch (kind) {
            case BANDED: {
                const double g = 20.0 + 60.0 * ((double)j / w) * (0.7 + 0.3 * (double)i / h) +
                                 8.0 * sin((i + 3.0 * variant) * 0.05);
                v = (unsigned)(g * unit * (1.0 + 0.1 * (variant % 3)));
                if ((i / 16 + j / 16 + variant) % 7 == 0)
                    v ^= rnd() & 3;
                if ((i / 32 + j / 24) % 5 == 1)
                    v = (unsigned)(40 * unit);
                break;
            }
            case NOISE: v = rnd() & max; break;
            case FLAT: v = (unsigned)(35 * unit); break;
            case ZERO: v = 0; break;
            case MAX: v = max; break;
            case STEPS: v = (unsigned)((30 + (j * 5) / w + (i * 3) / h + variant) * unit); break;
            default: break;
            }
            px[(size_t)i * w + j] = v > max ? max : v;
        }
    }
}

static void fill_picture(VmafPicture *pic, const unsigned *px, enum VmafPixelFormat fmt,
                         unsigned bpc, unsigned w, unsigned h)
{
    memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = fmt;
    pic->bpc = bpc;
    const unsigned ss_x = fmt == VMAF_PIX_FMT_YUV420P || fmt == VMAF_PIX_FMT_YUV422P;
    const unsigned ss_y = fmt == VMAF_PIX_FMT_YUV420P;
    const unsigned planes = fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    for (unsigned p = 0; p < planes; p++) {
        pic->w[p] = p ? (w + ss_x) >> ss_x : w;
        pic->h[p] = p ? (h + ss_y) >> ss_y : h;
        /* a stride wider than the row, so that reads past a row end show */
        pic->stride[p] = (ptrdiff_t)((pic->w[p] + 7) * (bpc > 8 ? 2 : 1));
        pic->data[p] = malloc((size_t)pic->stride[p] * pic->h[p]);
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + y * pic->stride[p];
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const unsigned v = p ? (1u << (bpc - 1)) : px[(size_t)y * w + x];
                if (bpc == 8)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)v;
            }
            /* garbage after the row */
            for (unsigned x = pic->w[p]; x < pic->w[p] + 7; x++) {
                if (bpc == 8)
                    row[x] = 0xa5;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)(0xa5a5 & ((1u << bpc) - 1));
            }
        }
    }
}

static void free_picture(VmafPicture *pic)
{
    for (int p = 0; p < 3; p++)
        free(pic->data[p]);
}

/* ---- the model: cambi.md written out directly, brute force ---- */

typedef struct Model {
    unsigned in_w, in_h, bpc;
    unsigned w, h;       /* working size */
    int window_size;     /* the option */
    bool speedup, antidither;
    int n;               /* contrast steps */
    int tvi[LS_CAMBI_MAX_DIFFS], vlt;
    double topk;
    /* mutations, for the checks that the comparison can fail */
    bool divide, count_unmasked, sorted_sum;
} Model;

static int model_conv(unsigned v, unsigned bpc)
{
    if (bpc <= 8)
        return (int)(v << (10 - bpc));
    if (bpc == 9)
        return (int)(v << 1);
    const unsigned r = bpc == 10 ? 0 : 1u << (bpc - 11);
    return (int)((v + r) >> (bpc - 10));
}

static void model_positions(int *pos, unsigned in_n, unsigned out_n)
{
    const float r = (float)in_n / (float)out_n;
    const float half = r / 2;
    float x = (float)((double)half - 0.5);
    for (unsigned j = 0; j < out_n; j++) {
        const int p = (int)((double)x + 0.5);
        pos[j] = p < (int)in_n ? p : (int)in_n - 1; /* clamp: the reference reads outside */
        x = x + r;
    }
}

static int mode3_model(int a, int b, int c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    int m = a;
    if (b < m)
        m = b;
    if (c < m)
        m = c;
    return m;
}

static void model_select(float *c, int n, int k)
{
    if (n == k)
        return;
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const float piv = c[k];
        int i = lo, j = hi;
        do {
            while (c[i] > piv)
                i++;
            while (c[j] < piv)
                j--;
            if (i <= j) {
                const float x = c[i];
                c[i] = c[j];
                c[j] = x;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            lo = i;
        if (k < i)
            hi = j;
    }
}

static int by_value_desc(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

static double model_pool(const Model *m, float *c, int n)
{
    int k = (int)(m->topk * n);
    k = k < 1 ? 1 : k > n ? n : k;
    if (m->sorted_sum)
        qsort(c, (size_t)n, sizeof(float), by_value_desc);
    else
        model_select(c, n, k);
    double sum = 0;
    for (int t = 0; t < k; t++)
        sum += (double)c[t];
    return sum / k;
}

static double model_score(const Model *m, const unsigned *px)
{
    const int w = (int)m->w, h = (int)m->h;
    int *img = malloc(sizeof(int) * (size_t)w * h), *tmp = malloc(sizeof(int) * (size_t)w * h);
    int *mask = malloc(sizeof(int) * (size_t)w * h);
    float *c = malloc(sizeof(float) * (size_t)w * h);
    int *px_pos = malloc(sizeof(int) * (size_t)w), *py_pos = malloc(sizeof(int) * (size_t)h);
    model_positions(px_pos, m->in_w, m->w);
    model_positions(py_pos, m->in_h, m->h);
    const bool same = m->w == m->in_w && m->h == m->in_h;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const int y = same ? i : py_pos[i], x = same ? j : px_pos[j];
            img[i * w + j] = model_conv(px[(size_t)y * m->in_w + x], m->bpc);
        }
    if (m->antidither) {
        memcpy(tmp, img, sizeof(int) * (size_t)w * h);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const int *X = tmp;
                int v;
                if (i < h - 1 && j < w - 1)
                    v = (X[i * w + j] + X[i * w + j + 1] + X[(i + 1) * w + j] +
                         X[(i + 1) * w + j + 1]) >> 2;
                else if (i < h - 1)
                    v = (X[i * w + j] + X[(i + 1) * w + j]) >> 1;
                else if (j < w - 1)
                    v = (X[i * w + j] + X[i * w + j + 1]) >> 1;
                else
                    v = X[i * w + j];
                img[i * w + j] = v;
            }
    }
    /* spatial mask */
    unsigned nn = ((unsigned)w >> 6) * ((unsigned)h >> 6);
    int cl = 0;
    if (nn) {
        for (unsigned x = nn - 1; x; x >>= 1)
            cl++;
    }
    const int mask_index = (49 + 3 * (cl - 11) - 1) >> 1;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const int v = img[i * w + j];
            tmp[i * w + j] = (j == w - 1 || v == img[i * w + j + 1]) &&
                             (i == h - 1 || v == img[(i + 1) * w + j]);
        }
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int s = 0;
            for (int a = i - 3; a <= i + 3; a++)
                for (int b = j - 3; b <= j + 3; b++)
                    if (a >= 0 && a < h && b >= 0 && b < w)
                        s += tmp[a * w + b];
            mask[i * w + j] = s > mask_index;
        }
    unsigned ws = (((unsigned)m->window_size * (m->w + m->h)) / 375) >> 4;
    if (m->speedup)
        ws = (ws + 1) >> 1;
    const int window = (int)(ws | 1), pad = window >> 1;
    double score[5];
    int sw = w, sh = h;
    for (int scale = 0; scale < 5; scale++) {
        if (scale > 0 || m->speedup) {
            const int nw = (sw + 1) >> 1, nh = (sh + 1) >> 1;
            for (int i = 0; i < nh; i++)
                for (int j = 0; j < nw; j++) {
                    img[i * w + j] = img[2 * i * w + 2 * j];
                    mask[i * w + j] = mask[2 * i * w + 2 * j];
                }
            sw = nw;
            sh = nh;
        }
        /* mode filter: horizontal into tmp, vertical back; first and last rows untouched */
        for (int i = 0; i < sh; i++)
            for (int j = 0; j < sw; j++)
                tmp[i * w + j] = (j == 0 || j == sw - 1)
                                     ? img[i * w + j]
                                     : mode3_model(img[i * w + j - 1], img[i * w + j],
                                                   img[i * w + j + 1]);
        for (int i = 1; i < sh - 1; i++)
            for (int j = 0; j < sw; j++)
                img[i * w + j] =
                    mode3_model(tmp[(i - 1) * w + j], tmp[i * w + j], tmp[(i + 1) * w + j]);
        /* c-values */
        for (int i = 0; i < sh; i++)
            for (int j = 0; j < sw; j++) {
                float cv = 0.0f;
                const int v = img[i * w + j];
                if (mask[i * w + j]) {
                    int cnt[2 * LS_CAMBI_MAX_DIFFS + 1] = { 0 };
                    for (int a = i - pad; a <= i + pad; a++)
                        for (int b = j - pad; b <= j + pad; b++) {
                            if (a < 0 || a >= sh || b < 0 || b >= sw)
                                continue;
                            if (!mask[a * w + b] && !m->count_unmasked)
                                continue;
                            const int d = img[a * w + b] - v;
                            if (d >= -m->n && d <= m->n)
                                cnt[d + m->n]++;
                        }
                    const int p0 = cnt[m->n];
                    for (int d = 1; d <= m->n; d++) {
                        if (!(v <= m->tvi[d - 1] && v + m->n + d > m->vlt))
                            continue;
                        const int p1 = cnt[m->n + d], p2 = v - d >= 0 ? cnt[m->n - d] : 0;
                        const int pm = p1 > p2 ? p1 : p2;
                        const float r = m->divide ? 1.0f / (float)(pm + p0)
                                                  : ls_cambi_reciprocal[pm + p0];
                        const float val =
                            pm + p0 ? (float)(ls_cambi_contrast_weights[d - 1] * p0 * pm) * r
                                    : 0.0f;
                        if (val > cv)
                            cv = val;
                    }
                }
                c[i * sw + j] = cv;
            }
        score[scale] = model_pool(m, c, sw * sh);
    }
    double acc = 0;
    for (int s = 0; s < 5; s++)
        acc = acc + score[s] * ls_cambi_scale_weights[s];
    free(img);
    free(tmp);
    free(mask);
    free(c);
    free(px_pos);
    free(py_pos);
    return acc / (double)(window * window);
}

/* ---- running the extractor ---- */

typedef struct Opt {
    const char *key, *value;
} Opt;

typedef struct Run {
    int err;
    char error[512];
    LsCollector *fc;
} Run;

/* Runs cambi on `frames` pictures (dist[i]; ref[i] in full-reference mode, or dist[i]). */
static Run run_cambi(const Opt *opts, unsigned n_opts, const VmafPicture *dist,
                     const VmafPicture *ref, unsigned frames, uint64_t cpu_flags)
{
    Run r = { 0 };
    ls_collector_create(&r.fc);
    LsFex fex = { .ex = &ls_fex_cambi, .cpu_flags = cpu_flags };
    fex.priv = calloc(1, ls_fex_cambi.priv_size);
    LsOptionValue values[16] = { { 0 } };
    for (unsigned i = 0; i < n_opts; i++)
        values[i] = (LsOptionValue){ opts[i].key, opts[i].value };
    r.err = ls_options_apply("cambi", ls_fex_cambi.options, fex.priv, values, n_opts, r.error,
                             sizeof(r.error));
    if (!r.err) {
        r.err = ls_fex_cambi.init(&fex, dist[0].pix_fmt, dist[0].bpc, dist[0].w[0], dist[0].h[0]);
        if (r.err) {
            snprintf(r.error, sizeof(r.error), "%s", lockstep_last_error());
        } else {
            for (unsigned i = 0; i < frames && !r.err; i++) {
                r.err = ls_fex_cambi.extract(&fex, ref ? &ref[i] : &dist[i], &dist[i], i, r.fc);
                if (r.err)
                    snprintf(r.error, sizeof(r.error), "%s", lockstep_last_error());
            }
            ls_fex_cambi.close(&fex);
        }
    }
    free(fex.priv);
    return r;
}

static void run_free(Run *r) { ls_collector_destroy(r->fc); }

static double get(const Run *r, const char *name, unsigned index)
{
    double v = NAN;
    const int err = ls_collector_get(r->fc, name, index, &v);
    CHECK(!err, "%s[%u] missing", name, index);
    return v;
}

static bool has_name(const Run *r, const char *name)
{
    for (unsigned i = 0; i < ls_collector_count(r->fc); i++)
        if (!strcmp(ls_collector_name(r->fc, i), name))
            return true;
    return false;
}

/* A model with the extractor's defaults for a w x h input at bpc. */
static Model model_default(unsigned w, unsigned h, unsigned bpc)
{
    Model m = { .in_w = w, .in_h = h, .bpc = bpc, .w = w, .h = h, .window_size = 65,
                .antidither = bpc < 10, .topk = 0.6 };
    LsCambiThresholds t;
    ls_cambi_thresholds(&t, "bt1886", 0.019, 2, 0.0);
    m.n = t.n_diffs;
    memcpy(m.tvi, t.tvi, sizeof(m.tvi));
    m.vlt = t.vlt;
    return m;
}

static void model_thresholds(Model *m, const char *eotf, double tvit, int mlc, double vlt)
{
    LsCambiThresholds t;
    ls_cambi_thresholds(&t, eotf, tvit, mlc, vlt);
    m->n = t.n_diffs;
    memcpy(m->tvi, t.tvi, sizeof(m->tvi));
    m->vlt = t.vlt;
}

/* ---- checkasm: AVX2 units against the C references ---- */

/* A row of 10-bit values from a few levels (so that runs and equal neighbours occur) or
 * extreme ones, and a mask with runs. */
static void make_row(uint16_t *vals, uint8_t *mask, unsigned w, int fill)
{
    unsigned run = 0, level = 300 + rnd() % 8;
    for (unsigned j = 0; j < w; j++) {
        if (!run) {
            run = 1 + rnd() % (fill == 1 ? 40 : 9);
            level = fill == 2 ? 1024 - (rnd() & 1) : fill == 3 ? (rnd() & 1) : 290 + rnd() % 300;
        }
        run--;
        vals[j] = (uint16_t)(fill == 4 ? rnd() % 1025 : level + (fill == 0 ? rnd() % 2 : 0));
        mask[j] = fill == 5 ? 1 : (rnd() % 8) != 0;
    }
}

static void test_checkasm(void)
{
    if (!have_avx2()) {
        printf("checkasm: no AVX2 on this CPU, AVX2 variants not tested (SKIP)\n");
        return;
    }
    LsCambiDsp c, v, v512;
    ls_cambi_dsp_init(&c, 0);
    ls_cambi_dsp_init(&v, LS_CPU_FLAG_AVX2);
    ls_cambi_dsp_init(&v512, LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512);
    const bool avx512 = (ls_cpu_detect() & LS_CPU_FLAG_AVX512) != 0;
    CHECK(!avx512 || (v512.antidither8 != v.antidither8 && v512.colsum != v.colsum &&
                      v512.zero_deriv != v.zero_deriv && v512.mode_h != v.mode_h &&
                      v512.mode_v != v.mode_v && v512.decimate != v.decimate &&
                      v512.runs != v.runs),
          "AVX-512 row units not installed");
    CHECK(v.zero_deriv != c.zero_deriv && v.mask_row != c.mask_row && v.mode_h != c.mode_h &&
              v.antidither8 != c.antidither8 && v.colsum != c.colsum &&
              v.mode_v != c.mode_v && v.decimate != c.decimate && v.runs != c.runs &&
              v.hist_runs != c.hist_runs && v.c_runs != c.c_runs,
          "AVX2 variants not installed");
    static const unsigned widths[] = { 1,  2,  3,  7,  15,  16,  17,  18,  31,   32,   33,
                                       34, 47, 63, 64, 65,  97,  200, 576, 1283, 1920, 8191,
                                       8192, 8193, 9000, 16417 };
    unsigned n_cases = 0, n_bad = 0;
    for (unsigned wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
        const unsigned w = widths[wi];
        uint16_t *a = malloc((w + 64) * 2), *b = malloc((w + 64) * 2), *o1 = malloc((w + 64) * 2),
                 *o2 = malloc((w + 64) * 2);
        uint8_t *m = malloc(w + 64), *z1 = malloc(w + 64), *z2 = malloc(w + 64);
        uint8_t *colsum = calloc(w + 80, 1);
        LsCambiRun *r1 = malloc((w + 1) * sizeof(*r1)), *r2 = malloc((w + 1) * sizeof(*r2));
        for (int fill = 0; fill < 6; fill++) {
            make_row(a, m, w, fill);
            make_row(b, z1, w, fill);
            /* zero derivative: right and lower neighbour, and the last row (below = row) */
            for (int last = 0; last < 2; last++) {
                const uint16_t *below = last ? a : b;
                memset(z1, 0xee, w + 64);
                memset(z2, 0xee, w + 64);
                c.zero_deriv(z1, a, below, w);
                for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                    memset(z2, 0xee, w + 64);
                    (vi ? &v512 : &v)->zero_deriv(z2, a, below, w);
                    n_cases++;
                    if (memcmp(z1, z2, w + 64)) {
                        n_bad++;
                        CHECK(0, "zero_deriv %s w %u fill %d last %d", vi ? "avx512" : "avx2", w,
                              fill, last);
                    }
                }
            }
            /* anti-dithering of 8-bit rows: random, 0, 255, a mix of both, steps; the last row
             * (below = row) */
            for (int last = 0; last < 2; last++) {
                uint8_t *r8 = malloc(w + 64), *b8 = malloc(w + 64);
                for (unsigned j = 0; j < w + 64; j++) {
                    const uint8_t x = (uint8_t)rnd(), y = (uint8_t)rnd();
                    r8[j] = fill == 2 ? 255 : fill == 3 ? 0 : fill == 5 ? (x & 1) * 255 : x;
                    b8[j] = fill == 2 ? 255 : fill == 3 ? 0 : fill == 5 ? (y & 1) * 255 : y;
                    if (fill == 1)
                        r8[j] = b8[j] = (uint8_t)(j / 7);
                }
                for (int vi = 0; vi < 2; vi++) {
                    const LsCambiDsp *d = vi ? &v512 : &v;
                    if (vi && !avx512)
                        continue;
                    memset(o1, 0xee, (w + 64) * 2);
                    memset(o2, 0xee, (w + 64) * 2);
                    c.antidither8(o1, r8, last ? r8 : b8, w);
                    d->antidither8(o2, r8, last ? r8 : b8, w);
                    n_cases++;
                    if (memcmp(o1, o2, (w + 64) * 2)) {
                        n_bad++;
                        CHECK(0, "antidither8 %s w %u fill %d last %d", vi ? "avx512" : "avx2",
                              w, fill, last);
                    }
                }
                free(r8);
                free(b8);
            }
            /* window counts: a row entering and one leaving, counts 0..7, nothing past w */
            for (int vi = 0; vi < 2; vi++) {
                const LsCambiDsp *d = vi ? &v512 : &v;
                if (vi && !avx512)
                    continue;
                uint8_t *s1 = malloc(w + 64), *s2 = malloc(w + 64);
                for (unsigned j = 0; j < w + 64; j++) {
                    z1[j] = (uint8_t)(fill == 2 ? 1 : fill == 3 ? 0 : rnd() & 1);
                    z2[j] = (uint8_t)(fill == 2 ? 1 : fill == 3 ? 0 : rnd() & 1);
                    s1[j] = (uint8_t)((fill == 2 ? 6 : rnd() % 7) + z2[j]);
                }
                memcpy(s2, s1, w + 64);
                c.colsum(s1, z1, z2, w);
                d->colsum(s2, z1, z2, w);
                n_cases++;
                if (memcmp(s1, s2, w + 64)) {
                    n_bad++;
                    CHECK(0, "colsum %s w %u fill %d", vi ? "avx512" : "avx2", w, fill);
                }
                free(s1);
                free(s2);
            }
            /* mask row from counts 0..7 */
            for (unsigned j = 0; j < w; j++)
                colsum[3 + j] = (uint8_t)(fill == 2 ? 7 : fill == 3 ? 0 : rnd() % 8);
            for (int idx = 7; idx <= 28; idx += 7) {
                memset(z1, 0xee, w + 64);
                memset(z2, 0xee, w + 64);
                c.mask_row(z1, colsum + 3, w, idx);
                v.mask_row(z2, colsum + 3, w, idx);
                n_cases++;
                if (memcmp(z1, z2, w + 64)) {
                    n_bad++;
                    CHECK(0, "mask_row w %u fill %d index %d", w, fill, idx);
                }
            }
            /* mode filter passes */
            memset(o1, 0xee, (w + 64) * 2);
            memset(o2, 0xee, (w + 64) * 2);
            c.mode_h(o1, a, w);
            for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                memset(o2, 0xee, (w + 64) * 2);
                (vi ? &v512 : &v)->mode_h(o2, a, w);
                n_cases++;
                if (memcmp(o1, o2, (w + 64) * 2)) {
                    n_bad++;
                    CHECK(0, "mode_h %s w %u fill %d", vi ? "avx512" : "avx2", w, fill);
                }
            }
            /* mode_v: a third row of other values (o2 from mode_h, or b itself), in place over
             * a row of its inputs too */
            c.mode_v(o1, a, b, o2, w);
            uint16_t *o3 = malloc((w + 64) * 2), *o4 = malloc((w + 64) * 2);
            memcpy(o3, o1, (w + 64) * 2);
            c.mode_v(o1, a, b, a, w);
            for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                const LsCambiDsp *d = vi ? &v512 : &v;
                memcpy(o4, o3, (w + 64) * 2);
                d->mode_v(o4, a, b, a, w);
                uint16_t *io = malloc((w + 64) * 2), *ir = malloc((w + 64) * 2);
                memcpy(io, b, (w + 64) * 2);
                memcpy(ir, b, (w + 64) * 2);
                c.mode_v(ir, a, ir, o2, w);
                d->mode_v(io, a, io, o2, w);
                n_cases++;
                if (memcmp(o1, o4, (w + 64) * 2) || memcmp(io, ir, (w + 64) * 2)) {
                    n_bad++;
                    CHECK(0, "mode_v %s w %u fill %d", vi ? "avx512" : "avx2", w, fill);
                }
                free(io);
                free(ir);
            }
            free(o3);
            free(o4);
            /* decimation, out of place and in place (row 0) */
            if (w >= 2) {
                const unsigned half = (w + 1) / 2;
                memset(o1, 0xee, (w + 64) * 2);
                memset(o2, 0xee, (w + 64) * 2);
                memset(z1, 0xee, w + 64);
                memset(z2, 0xee, w + 64);
                c.decimate(o1, z1, a, m, half);
                for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                    const LsCambiDsp *d = vi ? &v512 : &v;
                    memset(o2, 0xee, (w + 64) * 2);
                    memset(z2, 0xee, w + 64);
                    /* the inputs end at sample 2 * half - 2: past it, a guard of other values
                     * that no output may take */
                    uint16_t *ga = malloc((w + 64) * 2);
                    uint8_t *gm = malloc(w + 64);
                    memcpy(ga, a, (w + 64) * 2);
                    memcpy(gm, m, w + 64);
                    for (unsigned j = 2 * half - 1; j < w + 64; j++)
                        ga[j] = 0x5555, gm[j] = 0x55;
                    d->decimate(o2, z2, ga, gm, half);
                    uint16_t *ia = malloc((w + 64) * 2);
                    uint8_t *im = malloc(w + 64);
                    memcpy(ia, a, w * 2);
                    memcpy(im, m, w);
                    d->decimate(ia, im, ia, im, half);
                    n_cases++;
                    if (memcmp(o1, o2, (w + 64) * 2) || memcmp(z1, z2, w + 64) ||
                        memcmp(o1, ia, half * 2) || memcmp(z1, im, half)) {
                        n_bad++;
                        CHECK(0, "decimate %s w %u fill %d", vi ? "avx512" : "avx2", w, fill);
                    }
                    free(ga);
                    free(gm);
                    free(ia);
                    free(im);
                }
            }
            /* runs over several bands */
            static const int bands[][2] = { { 0, 1056 }, { 0, 563 }, { 300, 400 }, { 1024, 1024 } };
            for (unsigned bi = 0; bi < 4; bi++) {
                const unsigned n1 = c.runs(r1, a, m, w, bands[bi][0], bands[bi][1]);
                for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                    memset(r2, 0xee, (w + 1) * sizeof(*r2));
                    const unsigned n2 =
                        (vi ? &v512 : &v)->runs(r2, a, m, w, bands[bi][0], bands[bi][1]);
                    n_cases++;
                    if (n1 != n2 || memcmp(r1, r2, n1 * sizeof(*r1))) {
                        n_bad++;
                        CHECK(0, "runs %s w %u fill %d band %u: %u vs %u runs",
                              vi ? "avx512" : "avx2", w, fill, bi, n1, n2);
                    }
                }
            }
        }
        free(a);
        free(b);
        free(o1);
        free(o2);
        free(m);
        free(z1);
        free(z2);
        free(colsum);
        free(r1);
        free(r2);
    }

    /* the c-value pass (histograms, runs, c-values, sums) on whole scales, every window, 1, 4
     * and 32 contrast steps, against the C path: AVX2, and AVX-512 where the CPU has it */
    CHECK(!avx512 || (v512.c_runs != v.c_runs && v512.hist_runs != v.hist_runs),
          "AVX-512 variants not installed");
    const LsCambiDsp *variants[2] = { &v, &v512 };
    static const unsigned sizes[][2] = { { 1, 1 },   { 5, 3 },    { 17, 9 },   { 33, 40 },
                                         { 64, 31 }, { 131, 67 }, { 300, 97 }, { 1283, 45 } };
    static const int windows[] = { 1, 3, 9, 17, 33, 65 };
    unsigned n_pass[2] = { 0, 0 }, bad_pass[2] = { 0, 0 };
    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        const unsigned w = sizes[si][0], h = sizes[si][1];
        uint16_t *img = malloc((size_t)w * h * 2);
        uint8_t *mask = malloc((size_t)w * h);
        float *c1 = malloc((size_t)w * h * 4), *c2 = malloc((size_t)w * h * 4);
        for (int fill = 0; fill < 6; fill++) {
            for (unsigned i = 0; i < h; i++)
                make_row(img + i * w, mask + i * w, w, fill);
            const int mlc = fill % 3 == 0 ? 0 : fill % 3 == 1 ? 2 : 5;
            LsCambiThresholds t;
            ls_cambi_thresholds(&t, fill == 4 ? "pq" : "bt1886", 0.019, mlc, fill == 1 ? 1.0 : 0.0);
            for (unsigned wi = 0; wi < 6; wi++) {
                LsCambiWindowMem m1;
                ls_cambi_window_mem_alloc(&m1, &t, w, windows[wi]);
                LsCambiSums s1 = { 0 };
                ls_cambi_c_values(&c, &t, &m1, c1, img, mask, w, w, h, windows[wi], &s1);
                for (int vi = 0; vi < (avx512 ? 2 : 1); vi++) {
                    LsCambiWindowMem m2;
                    ls_cambi_window_mem_alloc(&m2, &t, w, windows[wi]);
                    LsCambiSums s2 = { 0 };
                    ls_cambi_c_values(variants[vi], &t, &m2, c2, img, mask, w, w, h, windows[wi],
                                      &s2);
                    /* the histograms (slack included) are all zero again */
                    const int band = t.hi >= t.lo ? t.hi - t.lo + 1 : 0;
                    const size_t entries = (size_t)(band + 2 * t.n_diffs) * (size_t)m2.hist_stride;
                    bool zero = true;
                    for (size_t k = 0; k < entries; k++)
                        zero = zero && !m2.mem[k] && !m1.mem[k];
                    n_pass[vi]++;
                    if (memcmp(c1, c2, (size_t)w * h * 4) || memcmp(&s1, &s2, sizeof(s1)) ||
                        !zero) {
                        bad_pass[vi]++;
                        CHECK(0, "c-value pass %s %ux%u fill %d mlc %d window %d: %s",
                              vi ? "avx512" : "avx2", w, h, fill, mlc, windows[wi],
                              zero ? "values differ" : "histograms not zero");
                    }
                    ls_cambi_window_mem_free(&m2);
                }
                ls_cambi_window_mem_free(&m1);
            }
        }
        free(img);
        free(mask);
        free(c1);
        free(c2);
    }
    printf("checkasm: row units avx2 (and avx512 but for mask_row%s) vs c: %u cases, %u "
           "differ; c-value passes avx2 vs c: %u "
           "cases, %u differ; avx512 vs c: ",
           avx512 ? "" : ": SKIP, no AVX-512", n_cases, n_bad, n_pass[0], bad_pass[0]);
    if (avx512)
        printf("%u cases, %u differ\n", n_pass[1], bad_pass[1]);
    else
        printf("SKIP (no AVX-512 on this CPU)\n");
}

/* ---- the whole extractor against the model ---- */

typedef struct Case {
    const char *what;
    unsigned w, h, bpc;
    enum Kind kind;
    Opt opts[6];
    unsigned n_opts;
} Case;

/* Scores `frames` pictures of the case with the C path and the dispatched one and compares both
 * with the model; returns the number of values compared. */
static unsigned compare_with_model(const Case *cs, Model m, unsigned frames, const char *name,
                                   unsigned *differ)
{
    VmafPicture pics[4];
    unsigned *px[4];
    for (unsigned f = 0; f < frames; f++) {
        px[f] = malloc(sizeof(unsigned) * cs->w * cs->h);
        make_plane(px[f], cs->w, cs->h, cs->bpc, cs->kind, f);
        fill_picture(&pics[f], px[f], f % 2 ? VMAF_PIX_FMT_YUV400P : VMAF_PIX_FMT_YUV420P,
                     cs->bpc, cs->w, cs->h);
    }
    unsigned n = 0;
    double want[4];
    for (unsigned f = 0; f < frames; f++)
        want[f] = model_score(&m, px[f]);
    for (int path = 0; path < 2; path++) {
        if (path && !have_avx2())
            break;
        Run r = run_cambi(cs->opts, cs->n_opts, pics, NULL, frames, path ? ls_cpu_detect() : 0);
        CHECK(!r.err, "%s: %s", cs->what, r.error);
        for (unsigned f = 0; f < frames && !r.err; f++) {
            double have = get(&r, name, f);
            n++;
            if (double_bits(have) != double_bits(want[f])) {
                (*differ)++;
                CHECK(0, "%s frame %u (%s, %s path): %.17g, model %.17g", cs->what, f,
                      kind_names[cs->kind], path ? "dispatched" : "C", have, want[f]);
            }
        }
        run_free(&r);
    }
    for (unsigned f = 0; f < frames; f++) {
        free(px[f]);
        free_picture(&pics[f]);
    }
    return n;
}

static void test_model(void)
{
    unsigned n = 0, differ = 0, nonzero = 0;
    static const unsigned depths[] = { 8, 9, 10, 11, 12, 16 };
    /* defaults at every depth and kind, odd sizes, thin pictures */
    static const unsigned sizes[][2] = { { 256, 216 }, { 233, 217 }, { 216, 40 }, { 300, 30 } };
    for (unsigned si = 0; si < 4; si++) {
        for (unsigned di = 0; di < 6; di++) {
            for (int kind = 0; kind < N_KINDS; kind++) {
                if (si > 0 && kind != BANDED && kind != STEPS)
                    continue;
                const Case cs = { "defaults", sizes[si][0], sizes[si][1], depths[di],
                                  (enum Kind)kind, { { 0 } }, 0 };
                Model m = model_default(cs.w, cs.h, cs.bpc);
                n += compare_with_model(&cs, m, 2, "Cambi_feature_cambi_score", &differ);
            }
        }
    }
    /* every option, each against the model with the matching parameters */
    struct {
        Case cs;
        const char *name;
        void (*setup)(Model *);
    } cases[] = {
#define C8(what, ...) { what, 256, 216, 8, BANDED, { __VA_ARGS__ }, 0 }
        { C8("max_log_contrast 0", { "max_log_contrast", "0" }), "cambi_mlc_0", NULL },
        { C8("max_log_contrast 3", { "max_log_contrast", "3" }), "cambi_mlc_3", NULL },
        { C8("max_log_contrast 5", { "max_log_contrast", "5" }), "cambi_mlc_5", NULL },
        { C8("tvi_threshold", { "tvi_threshold", "0.005" }), "cambi_tvit_0.005", NULL },
        { C8("vis lum threshold", { "cambi_vis_lum_threshold", "1.5" }), "cambi_vlt_1.5", NULL },
        { C8("topk", { "topk", "0.25" }), "cambi_topk_0.25", NULL },
        { C8("cambi_topk", { "cambi_topk", "0.01" }), "cambi_ctpk_0.01", NULL },
        { C8("topk 1", { "cambi_topk", "1" }), "cambi_ctpk_1", NULL },
        { C8("window 15", { "window_size", "15" }), "cambi_ws_15", NULL },
        { C8("window 127", { "window_size", "127" }), "cambi_ws_127", NULL },
        { C8("pq", { "cambi_eotf", "pq" }), "cambi_ceot_pq", NULL },
        { C8("enc size", { "enc_width", "216" }, { "enc_height", "180" }), "cambi_ench_180_encw_216",
          NULL },
        { C8("enc size odd", { "enc_width", "241" }, { "enc_height", "199" }),
          "cambi_ench_199_encw_241", NULL },
        { C8("enc bitdepth 10", { "enc_bitdepth", "10" }), "cambi_encbd_10", NULL },
        { { "10-bit, enc bitdepth 8", 256, 216, 10, BANDED, { { "enc_bitdepth", "8" } }, 0 },
          "cambi_encbd_8", NULL },
        { { "12-bit, enc bitdepth 6", 256, 216, 12, STEPS, { { "enc_bitdepth", "6" } }, 0 },
          "cambi_encbd_6", NULL },
        { C8("enc size larger than the input (ignored)", { "enc_width", "400" },
             { "enc_height", "216" }),
          "cambi_ench_216_encw_400", NULL },
#undef C8
    };
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        Case cs = cases[k].cs;
        while (cs.n_opts < 6 && cs.opts[cs.n_opts].key)
            cs.n_opts++;
        Model m = model_default(cs.w, cs.h, cs.bpc);
        const char *eotf = "bt1886";
        double tvit = 0.019, vlt = 0.0;
        int mlc = 2;
        for (unsigned o = 0; o < cs.n_opts; o++) {
            const char *key = cs.opts[o].key, *val = cs.opts[o].value;
            if (!strcmp(key, "max_log_contrast"))
                mlc = atoi(val);
            else if (!strcmp(key, "tvi_threshold"))
                tvit = atof(val);
            else if (!strcmp(key, "cambi_vis_lum_threshold"))
                vlt = atof(val);
            else if (!strcmp(key, "topk") || !strcmp(key, "cambi_topk"))
                m.topk = atof(val);
            else if (!strcmp(key, "window_size"))
                m.window_size = atoi(val);
            else if (!strcmp(key, "cambi_eotf"))
                eotf = val;
            else if (!strcmp(key, "enc_width"))
                m.w = (unsigned)atoi(val);
            else if (!strcmp(key, "enc_height"))
                m.h = (unsigned)atoi(val);
            else if (!strcmp(key, "enc_bitdepth"))
                m.antidither = atoi(val) < 10;
        }
        if (m.w > cs.w || m.h > cs.h) {
            m.w = cs.w;
            m.h = cs.h;
        }
        model_thresholds(&m, eotf, tvit, mlc, vlt);
        n += compare_with_model(&cs, m, 2, cases[k].name, &differ);
    }
    /* the speed-up, active from 1920x1080 on (the goldens cover it on the 1080p fixtures): odd
     * sizes, so that the decimation made in the mask pass keeps a last odd row and column, at
     * 8 bits (anti-dithered from the input rows) and 10 */
    {
        static const struct {
            unsigned w, h, bpc;
        } big[] = { { 1921, 1081, 8 }, { 2001, 1037, 10 } };
        for (unsigned k = 0; k < 2; k++) {
            Case cs = { "speed-up", big[k].w, big[k].h, big[k].bpc, BANDED,
                        { { "cambi_high_res_speedup", "1080" } }, 1 };
            Model m = model_default(cs.w, cs.h, cs.bpc);
            m.speedup = true;
            n += compare_with_model(&cs, m, 1, "cambi_hrs_1080", &differ);
        }
    }
    /* how many of the default model scores are not 0 (the comparison must see banding) */
    {
        unsigned *px = malloc(sizeof(unsigned) * 256 * 216);
        for (unsigned di = 0; di < 6; di++) {
            make_plane(px, 256, 216, depths[di], BANDED, 0);
            Model m = model_default(256, 216, depths[di]);
            nonzero += model_score(&m, px) > 0;
        }
        free(px);
    }
    CHECK(nonzero == 6, "banded test pictures score 0 at %u of 6 depths", 6 - nonzero);
    printf("model: %u scores compared (C and dispatched paths), %u differ\n", n, differ);
}

/* The comparison with the model notices a wrong reciprocal, counts of unmasked pixels and a
 * pooling summed in another order. */
static void test_mutations(void)
{
    unsigned *px = malloc(sizeof(unsigned) * 320 * 240);
    make_plane(px, 256, 216, 8, BANDED, 1);
    Model m = model_default(256, 216, 8);
    const double good = model_score(&m, px);
    m.count_unmasked = true;
    CHECK(model_score(&m, px) != good, "counting unmasked pixels changes nothing");
    m.count_unmasked = false;
    /* 1.0f / n differs from the table at 42 indices, the first at 82 and 83: an 11x11 window
     * reaches them */
    make_plane(px, 320, 240, 8, BANDED, 2);
    Model big = model_default(320, 240, 8);
    big.window_size = 127;
    const double table = model_score(&big, px);
    big.divide = true;
    const double divided = model_score(&big, px);
    CHECK(double_bits(table) != double_bits(divided), "1.0f / n instead of the table: the same "
                                                      "score (%.17g)",
          table);
    free(px);
    /* the order of the pooled sum: with 2^18 values near 2^14 and 0.5 the double partial sums
     * pass 2^30 and round the small ones; the selection's order and a sorted order differ */
    const int n = 1 << 18;
    float *c = malloc(sizeof(float) * n), *d = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++)
        c[i] = d[i] = i % 3 ? 0x1.fffffep+13f : 0x1.000002p-1f;
    Model pm = model_default(256, 216, 8);
    pm.topk = 0.9;
    const double select_sum = model_pool(&pm, c, n);
    pm.sorted_sum = true;
    const double sorted_sum = model_pool(&pm, d, n);
    CHECK(double_bits(select_sum) != double_bits(sorted_sum),
          "summing in sorted order gives the selection's sum (%.17g)", select_sum);
    free(c);
    free(d);
    printf("mutations: unmasked counts, 1.0f / n (%.17g vs %.17g) and a sorted sum (%.17g vs "
           "%.17g) all change the result\n",
           table, divided, select_sum, sorted_sum);
}

/* ---- pooling ---- */

static void test_pool(void)
{
    LsCambiDsp dsp_c;
    ls_cambi_dsp_init(&dsp_c, 0);
    unsigned cases = 0, shortcut = 0;
    for (int round = 0; round < 200; round++) {
        const unsigned n = 1 + rnd() % 5000;
        float *a = malloc(n * 4), *b = malloc(n * 4);
        const unsigned zeros = rnd() % 100;
        const int kind = round % 5;
        for (unsigned i = 0; i < n; i++) {
            float v;
            if (rnd() % 100 < zeros)
                v = 0.0f;
            else if (kind == 0) /* c-values: w p0 pm / (p0 + pm) */
                v = ls_cambi_term(1 + (int)(rnd() % 9), 1 + (int)(rnd() % 2000),
                                  1 + (int)(rnd() % 2000));
            else if (kind == 1) /* few distinct values: ties */
                v = (float)(1 + rnd() % 4) * 0.5f;
            else if (kind == 2) /* large and fine: inexact double sums */
                v = rnd() % 2 ? 0x1.fffffep+13f : 0x1.000002p-1f;
            else if (kind == 3)
                v = ls_cambi_term(9, 2112, 2113);
            else
                v = ldexpf((float)(rnd() | 1u << 23) / (float)(1u << 24), (int)(rnd() % 14));
            a[i] = b[i] = v;
        }
        static const double topks[] = { 0.6, 0.0001, 0.3, 1.0, 0.95 };
        const double topk = topks[round % 5];
        LsCambiSums s = { 0 };
        ls_cambi_sums_add(&s, a, n);
        int k = (int)(topk * n);
        k = k < 1 ? 1 : k > (int)n ? (int)n : k;
        const double fast = ls_cambi_pool(&dsp_c, a, n, topk, &s);
        const double slow = ls_cambi_pool_select(b, n, (unsigned)k);
        shortcut += memcmp(a, b, n * 4) != 0; /* the shortcut leaves the order alone */
        cases++;
        CHECK(double_bits(fast) == double_bits(slow),
              "pool n %u topk %g kind %d: %.17g, selection %.17g", n, topk, kind, fast, slow);
        free(a);
        free(b);
    }
    /* a case where the order decides (see test_mutations): the shortcut must not be taken */
    const unsigned big = 1u << 18;
    float *c = malloc(sizeof(float) * big), *d = malloc(sizeof(float) * big);
    for (unsigned i = 0; i < big; i++)
        c[i] = d[i] = i % 3 ? 0x1.fffffep+13f : 0x1.000002p-1f;
    LsCambiSums s = { 0 };
    ls_cambi_sums_add(&s, c, big);
    CHECK(double_bits(ls_cambi_pool(&dsp_c, c, big, 0.9, &s)) ==
              double_bits(ls_cambi_pool_select(d, big, (unsigned)(0.9 * big))),
          "pool of fine and large values");
    CHECK(memcmp(c, d, sizeof(float) * big) == 0, "the inexact case did not select");
    free(c);
    free(d);
    /* the vector selection leaves the same arrangement as the reference's */
    unsigned n_sel = 0, bad_sel = 0;
    if (have_avx2()) {
        LsCambiDsp dsp_v;
        ls_cambi_dsp_init(&dsp_v, LS_CPU_FLAG_AVX2);
        for (int round = 0; round < 300; round++) {
            const unsigned n = 1 + rnd() % (round < 250 ? 3000 : 300000);
            float *a = malloc(n * 4), *b = malloc(n * 4);
            const unsigned zeros = rnd() % 101, levels = 1 + rnd() % (round % 3 ? 5 : 100000);
            for (unsigned i = 0; i < n; i++)
                a[i] = b[i] = rnd() % 100 < zeros ? 0.0f : (float)(1 + rnd() % levels) * 0.25f;
            const unsigned k = round % 7 == 0 ? n : (unsigned)(rnd() % n);
            ls_cambi_select_c(a, n, k);
            dsp_v.select(b, n, k);
            n_sel++;
            if (memcmp(a, b, n * 4)) {
                bad_sel++;
                CHECK(0, "select avx2: n %u k %u zeros %u%% levels %u", n, k, zeros, levels);
            }
            free(a);
            free(b);
        }
        /* every k of small arrays: the words at both ends of a partition */
        for (unsigned n = 1; n <= 70; n++) {
            for (unsigned k = 0; k <= n; k++) {
                float a[70], b[70];
                for (unsigned i = 0; i < n; i++)
                    a[i] = b[i] = rnd() % 3 ? (float)(rnd() % (1 + n % 5)) : 0.0f;
                ls_cambi_select_c(a, n, k);
                dsp_v.select(b, n, k);
                n_sel++;
                if (memcmp(a, b, n * 4)) {
                    bad_sel++;
                    CHECK(0, "select avx2: small n %u k %u", n, k);
                }
            }
        }
    }
    printf("pool: %u random cases equal the reference selection (%u of them by the shortcut); "
           "select avx2 vs c: %u cases, %u differ\n",
           cases, shortcut, n_sel, bad_sel);
}

/* ---- names and option semantics ---- */

/* One frame of a kind at w x h, bpc 8, through the extractor. */
static Run run_one(const Opt *opts, unsigned n_opts, unsigned w, unsigned h, unsigned bpc,
                   enum Kind kind, unsigned variant)
{
    unsigned *px = malloc(sizeof(unsigned) * w * h);
    make_plane(px, w, h, bpc, kind, variant);
    VmafPicture pic;
    fill_picture(&pic, px, VMAF_PIX_FMT_YUV420P, bpc, w, h);
    Run r = run_cambi(opts, n_opts, &pic, NULL, 1, ls_cpu_detect());
    free_picture(&pic);
    free(px);
    return r;
}

static void expect_names(const Opt *opts, unsigned n_opts, const char *const *names)
{
    Run r = run_one(opts, n_opts, 320, 240, 8, BANDED, 0);
    CHECK(!r.err, "names: %s", r.error);
    unsigned n = 0;
    for (; names[n]; n++)
        CHECK(has_name(&r, names[n]), "name %s not written (first option %s=%s)", names[n],
              n_opts ? opts[0].key : "-", n_opts ? opts[0].value : "-");
    CHECK(ls_collector_count(r.fc) == n, "%u names written, expected %u (first: %s)",
          ls_collector_count(r.fc), n, ls_collector_count(r.fc) ? ls_collector_name(r.fc, 0) : "-");
    run_free(&r);
}

static void test_names(void)
{
    expect_names(NULL, 0, (const char *[]){ "Cambi_feature_cambi_score", NULL });
    /* defaults given explicitly change nothing; full_ref and heatmaps_path are no parameters */
    expect_names((Opt[]){ { "window_size", "65" }, { "topk", "0.6" }, { "cambi_eotf", "bt1886" },
                          { "max_log_contrast", "2" }, { "cambi_max_val", "1000" } },
                 5, (const char *[]){ "Cambi_feature_cambi_score", NULL });
    expect_names((Opt[]){ { "window_size", "33" }, { "full_ref", "true" } }, 2,
                 (const char *[]){ "cambi_ws_33", "cambi_source", "cambi_full_reference", NULL });
    expect_names((Opt[]){ { "topk", "0.8" } }, 1, (const char *[]){ "cambi_topk_0.8", NULL });
    expect_names((Opt[]){ { "cambi_topk", "0.8" } }, 1, (const char *[]){ "cambi_ctpk_0.8", NULL });
    expect_names((Opt[]){ { "cambi_eotf", "pq" } }, 1, (const char *[]){ "cambi_ceot_pq", NULL });
    expect_names((Opt[]){ { "eotf", "pq" } }, 1, (const char *[]){ "cambi_eotf_pq", NULL });
    /* the VMAF v1 name: sorted by option name, aliases; the speed-up named even where inactive */
    expect_names((Opt[]){ { "cambi_vis_lum_threshold", "0.06" },
                          { "cambi_high_res_speedup", "1080" },
                          { "cambi_max_val", "17" } },
                 3, (const char *[]){ "cambi_hrs_1080_cmxv_17_vlt_0.06", NULL });
    expect_names((Opt[]){ { "enc_width", "300" }, { "enc_height", "200" }, { "enc_bitdepth", "8" },
                          { "src_width", "320" }, { "src_height", "240" },
                          { "tvi_threshold", "0.02" } },
                 6,
                 (const char *[]){ "cambi_encbd_8_ench_200_encw_300_srch_240_srcw_320_tvit_0.02",
                                   NULL });
    expect_names((Opt[]){ { "max_log_contrast", "4" }, { "cambi_high_res_speedup", "720" } }, 2,
                 (const char *[]){ "cambi_hrs_720_mlc_4", NULL });
    printf("names: done\n");
}

static double score_of(const Opt *opts, unsigned n_opts, unsigned w, unsigned h, unsigned bpc,
                       enum Kind kind)
{
    Run r = run_one(opts, n_opts, w, h, bpc, kind, 0);
    CHECK(!r.err, "%s=%s: %s", n_opts ? opts[0].key : "-", n_opts ? opts[0].value : "-", r.error);
    double v = NAN;
    if (!r.err && ls_collector_count(r.fc))
        ls_collector_get(r.fc, ls_collector_name(r.fc, 0), 0, &v);
    run_free(&r);
    return v;
}

static void test_semantics(void)
{
    const double base = score_of(NULL, 0, 320, 240, 8, BANDED);
    CHECK(base > 0.5, "the banded picture scores %.17g", base);
    /* the cap: min(score, cambi_max_val) */
    CHECK(score_of((Opt[]){ { "cambi_max_val", "0.5" } }, 1, 320, 240, 8, BANDED) == 0.5,
          "cambi_max_val does not cap");
    CHECK(score_of((Opt[]){ { "cambi_max_val", "1000" } }, 1, 320, 240, 8, BANDED) == base,
          "cambi_max_val 1000 changes the score");
    /* topk wins when it is not 0.6, else cambi_topk */
    const double t3 = score_of((Opt[]){ { "cambi_topk", "0.3" } }, 1, 320, 240, 8, BANDED);
    CHECK(t3 != base, "cambi_topk 0.3 changes nothing");
    CHECK(score_of((Opt[]){ { "topk", "0.3" } }, 1, 320, 240, 8, BANDED) == t3,
          "topk 0.3 differs from cambi_topk 0.3");
    CHECK(score_of((Opt[]){ { "topk", "0.3" }, { "cambi_topk", "0.9" } }, 2, 320, 240, 8, BANDED) ==
              t3,
          "topk does not take precedence");
    CHECK(score_of((Opt[]){ { "topk", "0.6" }, { "cambi_topk", "0.3" } }, 2, 320, 240, 8, BANDED) ==
              t3,
          "topk 0.6 does not yield to cambi_topk");
    /* cambi_eotf wins when it is not bt1886, else eotf */
    const double pq = score_of((Opt[]){ { "cambi_eotf", "pq" } }, 1, 320, 240, 8, BANDED);
    CHECK(pq != base, "pq changes nothing");
    CHECK(score_of((Opt[]){ { "eotf", "pq" } }, 1, 320, 240, 8, BANDED) == pq, "eotf pq");
    CHECK(score_of((Opt[]){ { "eotf", "pq" }, { "cambi_eotf", "bt1886" } }, 2, 320, 240, 8,
                   BANDED) == pq,
          "eotf pq with cambi_eotf bt1886");
    CHECK(score_of((Opt[]){ { "eotf", "bt1886" }, { "cambi_eotf", "pq" } }, 2, 320, 240, 8,
                   BANDED) == pq,
          "cambi_eotf pq with eotf bt1886");
    /* a luminance threshold above the picture's luminance: no banding is visible */
    CHECK(score_of((Opt[]){ { "cambi_vis_lum_threshold", "300" } }, 1, 320, 240, 8, BANDED) == 0,
          "vlt 300 leaves banding");
    /* enc_width/enc_height: the picture resampled to that size, then scored as it is */
    {
        unsigned *px = malloc(sizeof(unsigned) * 320 * 240), *small = malloc(sizeof(unsigned) * 250 * 200);
        make_plane(px, 320, 240, 8, BANDED, 0);
        int *cx = malloc(sizeof(int) * 250), *cy = malloc(sizeof(int) * 200);
        ls_cambi_resample_positions(cx, 320, 250);
        ls_cambi_resample_positions(cy, 240, 200);
        for (unsigned i = 0; i < 200; i++)
            for (unsigned j = 0; j < 250; j++)
                small[i * 250 + j] = px[(size_t)cy[i] * 320 + (size_t)cx[j]];
        VmafPicture a, b;
        fill_picture(&a, px, VMAF_PIX_FMT_YUV420P, 8, 320, 240);
        fill_picture(&b, small, VMAF_PIX_FMT_YUV420P, 8, 250, 200);
        Run ra = run_cambi((Opt[]){ { "enc_width", "250" }, { "enc_height", "200" } }, 2, &a, NULL,
                           1, ls_cpu_detect());
        Run rb = run_cambi(NULL, 0, &b, NULL, 1, ls_cpu_detect());
        const double resampled = get(&rb, "Cambi_feature_cambi_score", 0);
        CHECK(!ra.err && !rb.err &&
                  double_bits(get(&ra, "cambi_ench_200_encw_250", 0)) == double_bits(resampled),
              "enc size is not the resampled picture: %s %s", ra.error, rb.error);
        /* only one of the two given: the input size */
        Run rc = run_cambi((Opt[]){ { "enc_width", "250" } }, 1, &a, NULL, 1, ls_cpu_detect());
        CHECK(!rc.err && get(&rc, "cambi_encw_250", 0) == base, "enc_width alone resamples");
        run_free(&ra);
        run_free(&rb);
        run_free(&rc);
        /* full reference: the source score is the reference's own score, the difference is
         * clamped at 0 and capped; src_width/src_height resample the reference */
        Run rf = run_cambi((Opt[]){ { "full_ref", "true" } }, 1, &a, &a, 1, ls_cpu_detect());
        CHECK(!rf.err && get(&rf, "Cambi_feature_cambi_score", 0) == base &&
                  get(&rf, "cambi_source", 0) == base && get(&rf, "cambi_full_reference", 0) == 0,
              "full_ref on identical pictures: %s", rf.error);
        run_free(&rf);
        VmafPicture flat;
        unsigned *fpx = malloc(sizeof(unsigned) * 320 * 240);
        make_plane(fpx, 320, 240, 8, FLAT, 0);
        fill_picture(&flat, fpx, VMAF_PIX_FMT_YUV420P, 8, 320, 240);
        Run rg = run_cambi((Opt[]){ { "full_ref", "true" }, { "cambi_max_val", "0.75" } }, 2, &a,
                           &flat, 1, ls_cpu_detect());
        CHECK(!rg.err && get(&rg, "cambi_source", 0) == 0 &&
                  get(&rg, "cambi_cmxv_0.75", 0) == (base < 0.75 ? base : 0.75) &&
                  get(&rg, "cambi_full_reference", 0) == (base < 0.75 ? base : 0.75),
              "full_ref against a flat reference: %s", rg.error);
        run_free(&rg);
        Run rh = run_cambi((Opt[]){ { "full_ref", "true" } }, 1, &flat, &a, 1, ls_cpu_detect());
        CHECK(!rh.err && get(&rh, "cambi_source", 0) == base && get(&rh, "cambi_full_reference", 0) == 0,
              "full_ref: a negative difference is not clamped: %s", rh.error);
        run_free(&rh);
        Run ri = run_cambi((Opt[]){ { "full_ref", "true" }, { "src_width", "320" }, { "src_height", "200" },
                                    { "enc_width", "250" }, { "enc_height", "200" } },
                           5, &a, &a, 1, ls_cpu_detect());
        /* the source at 320x200 is the picture resampled vertically only */
        unsigned *tall = malloc(sizeof(unsigned) * 320 * 200);
        for (unsigned i = 0; i < 200; i++)
            for (unsigned j = 0; j < 320; j++)
                tall[i * 320 + j] = px[(size_t)cy[i] * 320 + j];
        VmafPicture t;
        fill_picture(&t, tall, VMAF_PIX_FMT_YUV420P, 8, 320, 200);
        Run rt = run_cambi(NULL, 0, &t, NULL, 1, ls_cpu_detect());
        CHECK(!ri.err && !rt.err &&
                  double_bits(get(&ri, "cambi_source", 0)) ==
                      double_bits(get(&rt, "Cambi_feature_cambi_score", 0)) &&
                  double_bits(get(&ri, "cambi_ench_200_encw_250_srch_200_srcw_320", 0)) ==
                      double_bits(resampled),
              "src size is not the resampled reference: %s %s (%.17g %.17g)", ri.error, rt.error,
              get(&ri, "cambi_source", 0), get(&rt, "Cambi_feature_cambi_score", 0));
        run_free(&ri);
        run_free(&rt);
        free_picture(&t);
        free(tall);
        free_picture(&flat);
        free(fpx);
        free_picture(&a);
        free_picture(&b);
        free(px);
        free(small);
        free(cx);
        free(cy);
    }
    /* enc_bitdepth: 10-bit samples 4x the 8-bit ones with enc_bitdepth 8 are the 8-bit picture;
     * 8-bit samples with enc_bitdepth 10 skip the anti-dithering filter, like the 10-bit ones */
    {
        unsigned *p8 = malloc(sizeof(unsigned) * 320 * 240), *p10 = malloc(sizeof(unsigned) * 320 * 240);
        make_plane(p8, 320, 240, 8, BANDED, 0);
        for (unsigned i = 0; i < 320 * 240; i++)
            p10[i] = p8[i] << 2;
        VmafPicture a, b;
        fill_picture(&a, p8, VMAF_PIX_FMT_YUV420P, 8, 320, 240);
        fill_picture(&b, p10, VMAF_PIX_FMT_YUV420P, 10, 320, 240);
        Run r8 = run_cambi(NULL, 0, &a, NULL, 1, 0);
        Run r10 = run_cambi((Opt[]){ { "enc_bitdepth", "8" } }, 1, &b, NULL, 1, ls_cpu_detect());
        Run r8n = run_cambi((Opt[]){ { "enc_bitdepth", "10" } }, 1, &a, NULL, 1, ls_cpu_detect());
        Run r10n = run_cambi(NULL, 0, &b, NULL, 1, 0);
        CHECK(!r8.err && !r10.err &&
                  double_bits(get(&r8, "Cambi_feature_cambi_score", 0)) ==
                      double_bits(get(&r10, "cambi_encbd_8", 0)),
              "10-bit with enc_bitdepth 8 is not the 8-bit picture");
        CHECK(!r8n.err && !r10n.err &&
                  double_bits(get(&r8n, "cambi_encbd_10", 0)) ==
                      double_bits(get(&r10n, "Cambi_feature_cambi_score", 0)) &&
                  get(&r8n, "cambi_encbd_10", 0) != get(&r8, "Cambi_feature_cambi_score", 0),
              "8-bit with enc_bitdepth 10 is not the 10-bit picture");
        run_free(&r8);
        run_free(&r10);
        run_free(&r8n);
        run_free(&r10n);
        free_picture(&a);
        free_picture(&b);
        free(p8);
        free(p10);
    }
    /* the speed-up applies only at its resolution and above; other values are no speed-up */
    {
        const double full = score_of(NULL, 0, 1920, 1080, 8, BANDED);
        CHECK(score_of((Opt[]){ { "cambi_high_res_speedup", "1440" } }, 1, 1920, 1080, 8, BANDED) ==
                  full,
              "speed-up 1440 active at 1080p");
        CHECK(score_of((Opt[]){ { "cambi_high_res_speedup", "720" } }, 1, 1920, 1080, 8, BANDED) ==
                  full,
              "speed-up 720 active");
        CHECK(score_of((Opt[]){ { "cambi_high_res_speedup", "1080" } }, 1, 1920, 1080, 8, BANDED) !=
                  full,
              "speed-up 1080 inactive at 1080p");
        CHECK(score_of((Opt[]){ { "cambi_high_res_speedup", "1080" } }, 1, 1920, 1078, 8, BANDED) ==
                  score_of(NULL, 0, 1920, 1078, 8, BANDED),
              "speed-up 1080 active below 1920x1080 pixels");
    }
    printf("semantics: done\n");
}

/* ---- heat maps ---- */

static void test_heatmaps(void)
{
    char dir[] = "/tmp/test_cambi_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[256];
    snprintf(path, sizeof(path), "%s/a/b", dir);
    unsigned *px = malloc(sizeof(unsigned) * 300 * 217);
    VmafPicture pics[2];
    for (int f = 0; f < 2; f++) {
        make_plane(px, 300, 217, 8, BANDED, (unsigned)f);
        fill_picture(&pics[f], px, VMAF_PIX_FMT_YUV420P, 8, 300, 217);
    }
    Run with = run_cambi((Opt[]){ { "heatmaps_path", path } }, 1, pics, NULL, 2, ls_cpu_detect());
    Run without = run_cambi(NULL, 0, pics, NULL, 2, 0);
    CHECK(!with.err && get(&with, "Cambi_feature_cambi_score", 1) ==
                           get(&without, "Cambi_feature_cambi_score", 1),
          "heat maps change the score: %s", with.error);
    unsigned w = 300, h = 217, nonzero = 0;
    for (int s = 0; s < 5; s++) {
        char file[512];
        snprintf(file, sizeof(file), "%s/cambi_heatmap_scale_%d_%ux%u_16b.gray", path, s, w, h);
        struct stat st;
        CHECK(stat(file, &st) == 0 && (size_t)st.st_size == 2u * 2 * w * h,
              "heat map %s: %lld bytes, expected %u", file, (long long)st.st_size, 4 * w * h);
        FILE *f = fopen(file, "rb");
        uint16_t *buf = malloc(4 * w * h);
        if (f && fread(buf, 2, 2 * w * h, f) == 2 * w * h)
            for (unsigned i = 0; i < 2 * w * h; i++)
                nonzero += buf[i] != 0;
        if (f)
            fclose(f);
        free(buf);
        unlink(file);
        w = (w + 1) / 2;
        h = (h + 1) / 2;
    }
    CHECK(nonzero > 0, "heat maps all zero");
    rmdir(path);
    snprintf(path, sizeof(path), "%s/a", dir);
    rmdir(path);
    /* a directory that cannot be made */
    snprintf(path, sizeof(path), "/proc/cambi_heatmaps");
    Run bad = run_cambi((Opt[]){ { "heatmaps_path", path } }, 1, pics, NULL, 1, 0);
    CHECK(bad.err == -EINVAL && strstr(bad.error, "cannot create the heat-map directory"),
          "uncreatable heat-map directory: %d %s", bad.err, bad.error);
    rmdir(dir);
    run_free(&with);
    run_free(&without);
    run_free(&bad);
    free_picture(&pics[0]);
    free_picture(&pics[1]);
    free(px);
    printf("heat maps: 5 files per run with the spec's names and sizes, scores unchanged\n");
}

/* ---- refusals ---- */

static void expect_refusal(const Opt *opts, unsigned n_opts, unsigned w, unsigned h, unsigned bpc,
                           const char *text)
{
    Run r = run_one(opts, n_opts, w, h, bpc, FLAT, 0);
    CHECK(r.err == -EINVAL && strstr(r.error, text), "%ux%u %s=%s: %d \"%s\", expected \"%s\"", w,
          h, n_opts ? opts[0].key : "-", n_opts ? opts[0].value : "-", r.err, r.error, text);
    run_free(&r);
}

static void expect_accept(const Opt *opts, unsigned n_opts, unsigned w, unsigned h)
{
    Run r = run_one(opts, n_opts, w, h, 8, BANDED, 0);
    CHECK(!r.err, "%ux%u refused: %s", w, h, r.error);
    run_free(&r);
}

static void test_refusals(void)
{
    expect_refusal(NULL, 0, 17, 13, 8,
                   "cambi: frame 17x13 is too small: CAMBI needs a width or a height of at least 216");
    expect_refusal(NULL, 0, 215, 215, 8, "a width or a height of at least 216");
    expect_accept(NULL, 0, 216, 17);
    expect_accept(NULL, 0, 17, 216);
    /* thin pictures: every scale needs more than the half window */
    expect_refusal(NULL, 0, 216, 16, 8,
                   "cambi: frame 216x16 is too small for its 3-sample window: scale 4 is 14x1, and "
                   "every scale needs more than 1 rows and columns; 216x17 works");
    expect_refusal(NULL, 0, 3840, 20, 8,
                   "cambi: frame 3840x20 is too small for its 41-sample window: scale 0 is 3840x20, "
                   "and every scale needs more than 20 rows and columns; 3840x353 works");
    expect_refusal(NULL, 0, 20, 3840, 8, "scale 0 is 20x3840, and every scale needs more than 20 "
                                        "rows and columns; 353x3840 works");
    expect_refusal((Opt[]){ { "enc_width", "3840" }, { "enc_height", "150" } }, 2, 3840, 240, 8,
                   "cambi: enc_width x enc_height 3840x150 is too small for its 43-sample window");
    expect_refusal((Opt[]){ { "enc_width", "200" }, { "enc_height", "200" } }, 2, 320, 240, 8,
                   "cambi: enc_width x enc_height 200x200 is too small: CAMBI needs a width or a "
                   "height of at least 216");
    /* windows beyond the reciprocal table: 4K is the limit of the default window */
    expect_refusal((Opt[]){ { "window_size", "127" } }, 1, 2560, 1440, 8,
                   "cambi: window_size 127 at 2560x1440 (frame) gives a window of 85, larger than "
                   "the 65 that the reciprocal table allows");
    expect_refusal(NULL, 0, 5120, 2880, 8, "use cambi_high_res_speedup=1080, a smaller "
                                          "window_size, or enc_width/enc_height and "
                                          "src_width/src_height of at most 3840x2160");
    expect_accept((Opt[]){ { "cambi_high_res_speedup", "1080" } }, 1, 7680, 4320);
    expect_refusal((Opt[]){ { "enc_width", "3840" }, { "enc_height", "2160" } }, 2, 5120, 2880, 8,
                   "cambi: window_size 65 at 5120x2880 (frame) gives a window of 87, larger than the "
                   "65 that the reciprocal table allows (window_size 65 works up to width + height "
                   "= 6092); use cambi_high_res_speedup=1080, a smaller window_size, or "
                   "src_width/src_height of at most 3840x2160");
    expect_refusal((Opt[]){ { "src_width", "7680" }, { "src_height", "4320" } }, 2, 3840, 2160, 8,
                   "src_width x src_height) gives a window of 131, larger than the 65 that the "
                   "reciprocal table allows (window_size 65 works up to width + height = 6092); "
                   "use cambi_high_res_speedup=1080, a smaller window_size, or "
                   "src_width/src_height of at most 3840x2160");
    expect_refusal((Opt[]){ { "enc_width", "960" }, { "enc_height", "540" }, { "src_width", "2560" },
                            { "src_height", "1440" }, { "window_size", "127" } },
                   5, 1920, 1080, 8, "(src_width x src_height) gives a window of 85, larger than "
                                     "the 65 that the reciprocal table allows (window_size 65 works "
                                     "up to width + height = 6092); use a smaller window_size, or "
                                     "src_width/src_height of at most 3840x2160");
    /* full reference: a source larger than the input, and sizes larger in one direction only */
    expect_refusal((Opt[]){ { "full_ref", "true" }, { "src_width", "400" }, { "src_height", "300" } },
                   3, 320, 240, 8, "src_width x src_height 400x300 is larger than the input 320x240");
    expect_refusal((Opt[]){ { "src_width", "400" }, { "src_height", "200" } }, 2, 320, 240, 8,
                   "the source size 400x200 and the encoding size 320x240 must not be larger in one "
                   "dimension and smaller in the other");
    expect_refusal((Opt[]){ { "eotf", "hlg" } }, 1, 320, 240, 8, "cambi: unknown EOTF \"hlg\"");
    expect_refusal((Opt[]){ { "cambi_eotf", "PQ" } }, 1, 320, 240, 8, "unknown EOTF \"PQ\"");
    /* option ranges: the int defaults 0 cannot be given */
    expect_refusal((Opt[]){ { "enc_width", "0" } }, 1, 320, 240, 8,
                   "option \"enc_width\" value \"0\" is out of range [180, 7680]");
    expect_refusal((Opt[]){ { "window_size", "14" } }, 1, 320, 240, 8, "\"window_size\"");
    expect_refusal((Opt[]){ { "topk", "0" } }, 1, 320, 240, 8, "\"topk\"");
    expect_refusal((Opt[]){ { "max_log_contrast", "6" } }, 1, 320, 240, 8, "\"max_log_contrast\"");
    expect_refusal((Opt[]){ { "cambi_high_res_speedup", "4320" } }, 1, 320, 240, 8,
                   "\"cambi_high_res_speedup\"");
    /* samples above the bit depth fail the frame, at every depth but 8 and 16 */
    for (unsigned bpc = 9; bpc <= 15; bpc++) {
        unsigned *px = malloc(sizeof(unsigned) * 320 * 240);
        make_plane(px, 320, 240, bpc, FLAT, 0);
        px[320 * 100 + 17] = 1u << bpc;
        VmafPicture pic;
        fill_picture(&pic, px, VMAF_PIX_FMT_YUV420P, bpc, 320, 240);
        Run r = run_cambi(NULL, 0, &pic, NULL, 1, ls_cpu_detect());
        char text[160];
        snprintf(text, sizeof(text),
                 "cambi: invalid input: a luma sample is %u, above %u, the largest %u-bit value",
                 1u << bpc, (1u << bpc) - 1, bpc);
        CHECK(r.err == -EINVAL && strstr(r.error, text), "bpc %u: %d %s", bpc, r.err, r.error);
        run_free(&r);
        /* resampled (the whole input is checked first) and anti-dithered (row by row) */
        r = run_cambi((Opt[]){ { "enc_width", "250" }, { "enc_height", "200" } }, 2, &pic, NULL, 1,
                      ls_cpu_detect());
        CHECK(r.err == -EINVAL && strstr(r.error, text), "bpc %u resampled: %d %s", bpc, r.err,
              r.error);
        run_free(&r);
        r = run_cambi((Opt[]){ { "enc_bitdepth", "8" } }, 1, &pic, NULL, 1, ls_cpu_detect());
        CHECK(r.err == -EINVAL && strstr(r.error, text), "bpc %u anti-dithered: %d %s", bpc,
              r.err, r.error);
        run_free(&r);
        free_picture(&pic);
        free(px);
    }
    printf("refusals: done\n");
}

/* ---- bench ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Times the stages of scale 0 on one 8-bit frame of a Y4M file (minimum of repetitions). */
static int bench(const char *path, unsigned w, unsigned h, unsigned frame)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 2;
    char line[512];
    if (!fgets(line, sizeof(line), f))
        return 2;
    const size_t frame_bytes = (size_t)w * h * 3 / 2;
    for (unsigned k = 0; k < frame; k++) {
        if (!fgets(line, sizeof(line), f) || fseek(f, (long)frame_bytes, SEEK_CUR))
            return 2;
    }
    uint8_t *y = malloc((size_t)w * h);
    if (!fgets(line, sizeof(line), f) || fread(y, 1, (size_t)w * h, f) != (size_t)w * h)
        return 2;
    fclose(f);
    uint16_t *img0 = malloc((size_t)w * h * 2), *img = malloc((size_t)w * h * 2);
    uint8_t *mask = malloc((size_t)w * h);
    float *c = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h; i++)
        img0[i] = (uint16_t)(y[i] << 2);
    LsCambiThresholds t;
    ls_cambi_thresholds(&t, "bt1886", 0.019, 2, 0.0);
    const int window = ls_cambi_adjust_window(65, w, h, 0);
    void *tmp = malloc(ls_cambi_mask_tmp_size(w) + 6 * (size_t)w);
    static const char *const names[3] = { "c", "avx2", "avx512" };
    const uint64_t flags[3] = { 0, LS_CPU_FLAG_AVX2, LS_CPU_FLAG_AVX2 | LS_CPU_FLAG_AVX512 };
    for (int v = 0; v < 3; v++) {
        if ((ls_cpu_detect() & flags[v]) != flags[v])
            continue;
        LsCambiDsp d;
        ls_cambi_dsp_init(&d, flags[v]);
        LsCambiWindowMem m;
        ls_cambi_window_mem_alloc(&m, &t, w, window);
        double best[4] = { 1e9, 1e9, 1e9, 1e9 };
        for (int r = 0; r < 10; r++) {
            LsCambiSums sums = { 0 };
            memcpy(img, img0, (size_t)w * h * 2);
            const double t0 = now();
            ls_cambi_spatial_mask(&d, img, mask, w, w, h, ls_cambi_mask_index(w, h), false, NULL,
                                  NULL, tmp);
            const double t1 = now();
            ls_cambi_mode_filter(&d, img, w, w, h, tmp);
            const double t2 = now();
            ls_cambi_c_values(&d, &t, &m, c, img, mask, w, w, h, window, &sums);
            const double t3 = now();
            volatile double s = ls_cambi_pool(&d, c, w * h, 0.6, &sums);
            (void)s;
            const double t4 = now();
            const double dt[4] = { t1 - t0, t2 - t1, t3 - t2, t4 - t3 };
            for (int k = 0; k < 4; k++)
                best[k] = dt[k] < best[k] ? dt[k] : best[k];
        }
        printf("bench %s %ux%u frame %u, scale 0, ms: mask %.3f, mode %.3f, c-values %.3f, "
               "pool %.3f\n",
               names[v], w, h, frame, best[0] * 1e3, best[1] * 1e3, best[2] * 1e3,
               best[3] * 1e3);
        ls_cambi_window_mem_free(&m);
    }
    free(y);
    free(img0);
    free(img);
    free(mask);
    free(c);
    free(tmp);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cambi CAMBI_JSON [--bench Y4M W H FRAME]\n");
        return 2;
    }
    if (argc > 6 && !strcmp(argv[2], "--bench"))
        return bench(argv[3], (unsigned)atoi(argv[4]), (unsigned)atoi(argv[5]),
                     (unsigned)atoi(argv[6]));
    test_tables(argv[1]);
    test_helpers();
    test_checkasm();
    test_pool();
    test_model();
    test_mutations();
    test_names();
    test_semantics();
    test_heatmaps();
    test_refusals();
    if (failures)
        fprintf(stderr, "test_cambi: %d failures\n", failures);
    else
        printf("test_cambi: all passed\n");
    return failures ? 1 : 0;
}
