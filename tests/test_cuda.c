/* CUDA twins against their CPU extractors, inside one binary, through the public API: two
 * contexts fed the same synthetic frames, one with lockstep_use_backend(CUDA) before its
 * features, and every per-frame double (and aggregate) compared bit for bit. Also the device
 * ordered sum against the sequential loop, and the twins' refusals against the CPU's.
 *
 *   test_cuda            parity tests; exit 77 with "SKIP: no CUDA device: <reason>" without one
 *   test_cuda --quick    a short subset (for compute-sanitizer)
 *   test_cuda --bench [N] [W H] [FEATURE]  ms/frame of the psnr_hvs and psnr twins (and of the
 *                        CPU psnr_hvs) at 3840x2160 8-bit 4:2:0, or of FEATURE's twin alone
 *                        (set LOCKSTEP_CUDA_TIMING=1 for the per-stage split)
 * LOCKSTEP_GPU=<n> picks the device (default 0). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/backend.h"
#include "cuda/ordered_sum.h"
#include "cuda/psnr_hvs_cuda.h"
#include "input/input.h"
#include "lockstep/lockstep.h"

static int gpu;
static unsigned failures, checks;

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static const char *fmt_name(enum VmafPixelFormat f)
{
    const char *name = ls_pix_fmt_name(f);
    return name ? name : "?";
}

static void put(VmafPicture *p, unsigned c, unsigned x, unsigned y, unsigned v)
{
    if (p->bpc == 8)
        ((uint8_t *)p->data[c])[y * p->stride[c] + x] = (uint8_t)v;
    else
        ((uint16_t *)((uint8_t *)p->data[c] + y * p->stride[c]))[x] = (uint16_t)v;
}

/* Frame f of a banded pair (cambi's subject): wide steps of a slow gradient, a noisy strip on
 * the right, the distorted picture's steps shifted in places. */
static void make_banded_pair(VmafPicture *ref, VmafPicture *dis, unsigned f, uint64_t seed)
{
    const unsigned max = (1u << ref->bpc) - 1, scale = max / 255 ? max / 255 : 1;
    for (unsigned c = 0; c < 3 && ref->data[c]; c++) {
        rng = seed * 0x9e3779b97f4a7c15ull + f * 131 + c * 7 + 1;
        const unsigned w = ref->w[c], h = ref->h[c];
        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                int v = (int)(((x * 2 + y * 3) / 40 + f + c * 5) % 64 * 3 * scale + 16 * scale);
                if (x > w - w / 4)
                    v += (int)(rnd() % (3 * scale + 1));
                int d = v;
                if (((x / 37 + y / 29 + f) % 3) == 0)
                    d += (int)scale;
                if (f % 3 == 2 && (rnd() % 23) == 0)
                    d = (rnd() & 1) ? (int)max : 0;
                v = v > (int)max ? (int)max : v;
                d = d < 0 ? 0 : d > (int)max ? (int)max : d;
                put(ref, c, x, y, (unsigned)v);
                put(dis, c, x, y, (unsigned)d);
            }
        }
    }
}

/* Frame f of a synthetic pair: a textured reference; the distorted picture is noisy (amplitude
 * per frame), identical in luma only (frame 1), or identical (frame 2); frame 4 adds extremes. */
static void make_pair(VmafPicture *ref, VmafPicture *dis, unsigned f, uint64_t seed)
{
    const unsigned max = (1u << ref->bpc) - 1;
    const unsigned amp_tab[] = { 3, 9, 0, 40, 200 };
    for (unsigned c = 0; c < 3 && ref->data[c]; c++) {
        rng = seed * 0x9e3779b97f4a7c15ull + f * 131 + c * 7 + 1;
        const unsigned amp = (f == 1 && c == 0) || f == 2 ? 0 : amp_tab[f % 5] + (f / 5);
        const unsigned scale = max / 255 ? max / 255 : 1;
        for (unsigned y = 0; y < ref->h[c]; y++) {
            for (unsigned x = 0; x < ref->w[c]; x++) {
                int v = (int)(((x * 3 + y * 5 + (x * y) / 7 + f * 11 + c * 40) % 256) * scale);
                v += (int)(rnd() % (8 * scale + 1)) - (int)(4 * scale);
                if (f % 5 == 4 && rnd() % 17 == 0)
                    v = (rnd() & 1) ? (int)max : 0;
                v = v < 0 ? 0 : v > (int)max ? (int)max : v;
                int d = v;
                if (amp) {
                    d += (int)(rnd() % (2 * amp * scale + 1)) - (int)(amp * scale);
                    if (f % 5 == 4 && rnd() % 13 == 0)
                        d = (rnd() & 1) ? (int)max : 0;
                    d = d < 0 ? 0 : d > (int)max ? (int)max : d;
                }
                put(ref, c, x, y, (unsigned)v);
                put(dis, c, x, y, (unsigned)d);
            }
        }
    }
}

typedef struct Case {
    unsigned w, h, bpc;
    enum VmafPixelFormat fmt;
    unsigned frames;
    const char *features; /* space-separated NAME or NAME=k=v:k=v */
    unsigned threads;     /* of the CUDA context */
    unsigned subsample;   /* of both contexts (0: every frame) */
    unsigned banded;      /* make_banded_pair's pictures instead of make_pair's */
} Case;

static VmafFeatureDictionary *parse_opts(const char *s)
{
    VmafFeatureDictionary *d = NULL;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        vmaf_feature_dictionary_set(&d, tok, eq + 1);
    }
    return d;
}

static void describe(const Case *c, char *out, size_t len)
{
    snprintf(out, len, "%ux%u %u-bit %s [%s] threads=%u%s", c->w, c->h, c->bpc, fmt_name(c->fmt),
             c->features, c->threads, c->subsample > 1 ? " subsample" : "");
}

/* Registers every feature of the case's list. */
static int use_features(VmafContext *ctx, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = 0;
        const int err = vmaf_use_feature(ctx, tok, eq ? parse_opts(eq + 1) : NULL);
        if (err)
            return err;
    }
    return 0;
}

/* Every feature of a case must have a CUDA twin: without one the "CUDA" context would score it on
 * the CPU and the comparison would prove nothing. */
static int all_have_twins(const char *list, char *missing, size_t len)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = 0;
        char twin[128];
        snprintf(twin, sizeof(twin), "%s_cuda", tok);
        int found = 0;
        enum LockstepBackend backend;
        for (unsigned i = 0; lockstep_extractor_name(i, &backend); i++)
            found |= backend == LOCKSTEP_BACKEND_CUDA && !strcmp(lockstep_extractor_name(i, NULL), twin);
        if (!found) {
            snprintf(missing, len, "%s", tok);
            return 0;
        }
    }
    return 1;
}

/* Runs one context over the case's frames. Returns 0 or the first error, with its message. */
static int run_context(const Case *c, int cuda, VmafContext **out, char *why, size_t why_len)
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE,
                              .n_threads = cuda ? c->threads : 0, .n_subsample = c->subsample };
    VmafContext *ctx;
    int err = vmaf_init(&ctx, cfg);
    if (err)
        return err;
    *out = ctx;
    if (cuda && (err = lockstep_use_backend(ctx, LOCKSTEP_BACKEND_CUDA, gpu)))
        goto fail;
    if ((err = use_features(ctx, c->features)))
        goto fail;
    for (unsigned f = 0; f < c->frames; f++) {
        VmafPicture ref, dis;
        if ((err = vmaf_picture_alloc(&ref, c->fmt, c->bpc, c->w, c->h)) ||
            (err = vmaf_picture_alloc(&dis, c->fmt, c->bpc, c->w, c->h)))
            goto fail;
        (c->banded ? make_banded_pair : make_pair)(&ref, &dis, f, c->w * 31 + c->h + c->bpc);
        if ((err = vmaf_read_pictures(ctx, &ref, &dis, f))) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dis);
            goto fail;
        }
    }
    if ((err = vmaf_read_pictures(ctx, NULL, NULL, 0)))
        goto fail;
    return 0;
fail:
    snprintf(why, why_len, "%s", lockstep_last_error());
    return err;
}

static void check(int ok, const char *what, const char *ctx)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s: %s\n", ctx, what);
    }
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

static void run_case(const Case *c)
{
    char name[256], why_cpu[1024] = "", why_gpu[1024] = "";
    describe(c, name, sizeof(name));
    char missing[128];
    if (!all_have_twins(c->features, missing, sizeof(missing))) {
        char msg[256];
        snprintf(msg, sizeof(msg), "%s has no CUDA twin", missing);
        check(0, msg, name);
        return;
    }
    VmafContext *cpu = NULL, *gpu_ctx = NULL;
    const int err_cpu = run_context(c, 0, &cpu, why_cpu, sizeof(why_cpu));
    const int err_gpu = run_context(c, 1, &gpu_ctx, why_gpu, sizeof(why_gpu));
    if (err_cpu || err_gpu) {
        /* a refusal must be the CPU's refusal, word for word */
        char msg[2300];
        snprintf(msg, sizeof(msg), "errors differ: cpu %d \"%s\" / cuda %d \"%s\"", err_cpu,
                 why_cpu, err_gpu, why_gpu);
        check(err_cpu == err_gpu && !strcmp(why_cpu, why_gpu), msg, name);
        if (err_cpu && err_cpu == err_gpu && !strcmp(why_cpu, why_gpu))
            printf("ok   %s: both refuse: %s\n", name, why_cpu);
        vmaf_close(cpu);
        vmaf_close(gpu_ctx);
        return;
    }
    const unsigned n = lockstep_feature_count(cpu);
    check(n == lockstep_feature_count(gpu_ctx), "feature counts differ", name);
    unsigned values = 0, differ = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *fname = lockstep_feature_name(cpu, i);
        for (unsigned f = 0; f < c->frames; f++) {
            double a, b;
            const int ea = vmaf_feature_score_at_index(cpu, fname, &a, f);
            const int eb = vmaf_feature_score_at_index(gpu_ctx, fname, &b, f);
            if (ea && eb && ea == eb)
                continue; /* neither wrote it (a frame --subsample skips) */
            values++;
            if (ea || eb || bits(a) != bits(b)) {
                differ++;
                if (differ <= 5)
                    printf("  %s frame %u: cpu %.17g (%d) cuda %.17g (%d)\n", fname, f, a, ea, b,
                           eb);
            }
        }
    }
    static const char *const aggregates[] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    for (unsigned i = 0; i < 3; i++) {
        double a, b;
        const int ea = lockstep_aggregate_score(cpu, aggregates[i], &a);
        const int eb = lockstep_aggregate_score(gpu_ctx, aggregates[i], &b);
        if (ea && eb)
            continue;
        values++;
        if (ea || eb || bits(a) != bits(b)) {
            differ++;
            printf("  %s: cpu %.17g (%d) cuda %.17g (%d)\n", aggregates[i], a, ea, b, eb);
        }
    }
    char msg[128];
    snprintf(msg, sizeof(msg), "%u of %u values differ", differ, values);
    check(differ == 0 && values > 0, msg, name);
    if (!differ && values)
        printf("ok   %s: %u values (%u features x %u frames) identical\n", name, values, n,
               c->frames);
    vmaf_close(cpu);
    vmaf_close(gpu_ctx);
}

/* ---- the device ordered sum against the sequential loop ---- */

static float sequential(const float *t, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++)
        s = s + t[i];
    return s;
}

static void ordered_sum_tests(int quick)
{
    const size_t sizes[] = { 1, 8191, 8193, 100003, 16200000 };
    const unsigned n_sizes = quick ? 3 : 5;
    float *t = malloc(16200000 * sizeof(*t));
    if (!t) {
        check(0, "out of memory", "ordered sum");
        return;
    }
    static const char *const kinds[] = { "uniform", "squares", "halves", "quarters_big", "sparse",
                                         "tiny", "zeros" };
    for (unsigned k = 0; k < 7; k++) {
        for (unsigned si = 0; si < n_sizes; si++) {
            const size_t n = sizes[si];
            rng = 0x1234567ull + k * 1000 + si;
            for (size_t i = 0; i < n; i++) {
                const float u = (float)(rnd() >> 8) * 0x1p-24f;
                switch (k) {
                case 0: t[i] = u; break;
                case 1: t[i] = (rnd() & 7) ? (u * 64.0f) * (u * 64.0f) : 0.0f; break;
                case 2: t[i] = (float)(rnd() % 8) * 0.5f; break;
                case 3: t[i] = i == 0 ? 0x1p24f : (float)(rnd() % 16) * 0.25f + 1.0f; break;
                case 4: t[i] = (i < n / 3 || (rnd() & 63)) ? 0.0f : u * 1000.0f; break;
                case 5: t[i] = (rnd() & 1) ? ls_os_float(rnd() % 0x800000u) : u * 0x1p-120f; break;
                default: t[i] = 0.0f; break;
                }
            }
            const float want = sequential(t, n);
            float got = -1.0f;
            char why[512] = "", ctx[128];
            const int err = ls_cuda_ordered_sum(gpu, t, n, &got, why, sizeof(why));
            snprintf(ctx, sizeof(ctx), "ordered sum %s n=%zu", kinds[k], n);
            char msg[700];
            snprintf(msg, sizeof(msg), "device %a, sequential %a (%s)", got, want,
                     err ? why : "no error");
            check(!err && ls_os_bits(got) == ls_os_bits(want), msg, ctx);
            if (!err && ls_os_bits(got) == ls_os_bits(want) && n == 16200000)
                printf("ok   %s: %a\n", ctx, got);
        }
    }
    free(t);
}

/* ---- timing ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int bench_one(const char *feature, enum LockstepBackend backend, unsigned frames,
                     unsigned w, unsigned h)
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING };
    VmafContext *ctx;
    if (vmaf_init(&ctx, cfg))
        return 1;
    if (backend != LOCKSTEP_BACKEND_CPU && lockstep_use_backend(ctx, backend, gpu)) {
        printf("bench: %s\n", lockstep_last_error());
        vmaf_close(ctx);
        return 1;
    }
    vmaf_use_feature(ctx, feature, NULL);
    /* The loop hands every picture to the library, which frees it. Freeing the first large
     * blocks of a process unmaps them (about 1.6 ms per 4K picture here) until glibc raises its
     * mmap threshold: free one such block first, so the loop measures the twin, not munmap. */
    VmafPicture prime;
    if (!vmaf_picture_alloc(&prime, VMAF_PIX_FMT_YUV420P, 8, w, h))
        vmaf_picture_unref(&prime);
    VmafPicture *ref = calloc(frames, sizeof(*ref)), *dis = calloc(frames, sizeof(*dis));
    const unsigned distinct = 4;
    for (unsigned f = 0; f < frames; f++) {
        vmaf_picture_alloc(&ref[f], VMAF_PIX_FMT_YUV420P, 8, w, h);
        vmaf_picture_alloc(&dis[f], VMAF_PIX_FMT_YUV420P, 8, w, h);
        if (f < distinct) {
            make_pair(&ref[f], &dis[f], f == 1 || f == 2 ? f + 2 : f, 99);
        } else {
            for (unsigned c = 0; c < 3; c++) {
                memcpy(ref[f].data[c], ref[f % distinct].data[c], ref[f].stride[c] * ref[f].h[c]);
                memcpy(dis[f].data[c], dis[f % distinct].data[c], dis[f].stride[c] * dis[f].h[c]);
            }
        }
    }
    const unsigned warm = 2;
    double t0 = 0.0, first = now_ms();
    int err = 0;
    for (unsigned f = 0; f < frames && !err; f++) {
        if (f == warm)
            t0 = now_ms();
        err = vmaf_read_pictures(ctx, &ref[f], &dis[f], f);
    }
    if (!err)
        err = vmaf_read_pictures(ctx, NULL, NULL, 0);
    const double t1 = now_ms();
    printf("bench %s on %s, %ux%u 8-bit 4:2:0: %.3f ms/frame over %u frames (first %u frames incl. "
           "init: %.1f ms)%s\n",
           feature, lockstep_backend_name(backend), w, h, (t1 - t0) / (frames - warm),
           frames - warm, warm, t0 - first, err ? " ERROR" : "");
    if (err)
        printf("bench error: %s\n", lockstep_last_error());
    for (unsigned f = 0; f < frames; f++) {
        if (ref[f].ref)
            vmaf_picture_unref(&ref[f]);
        if (dis[f].ref)
            vmaf_picture_unref(&dis[f]);
    }
    free(ref);
    free(dis);
    vmaf_close(ctx); /* the twin prints its stage times here (LOCKSTEP_CUDA_TIMING=1) */
    return err != 0;
}

int main(int argc, char **argv)
{
    const char *g = getenv("LOCKSTEP_GPU");
    gpu = g ? atoi(g) : 0;
    char why[512];
    if (ls_cuda_probe(gpu, why, sizeof(why))) {
        printf("SKIP: no CUDA device: %s\n", why);
        return 77;
    }
    if (argc > 1 && !strcmp(argv[1], "--bench")) {
        const unsigned frames = argc > 2 ? (unsigned)atoi(argv[2]) : 40;
        const unsigned w = argc > 4 ? (unsigned)atoi(argv[3]) : 3840;
        const unsigned h = argc > 4 ? (unsigned)atoi(argv[4]) : 2160;
        if (argc > 5)
            return bench_one(argv[5], LOCKSTEP_BACKEND_CUDA, frames, w, h);
        int err = bench_one("psnr_hvs", LOCKSTEP_BACKEND_CUDA, frames, w, h);
        err |= bench_one("psnr", LOCKSTEP_BACKEND_CUDA, frames, w, h);
        err |= bench_one("psnr_hvs", LOCKSTEP_BACKEND_CPU, 6, w, h);
        return err;
    }
    const int quick = argc > 1 && !strcmp(argv[1], "--quick");

    static const enum VmafPixelFormat fmts[] = { VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                                 VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const unsigned sizes[][2] = { { 97, 61 }, { 331, 243 } };
    Case cases[320];
    unsigned n = 0;
    char opts[64][128];
    unsigned n_opts = 0;
#define FEATURES(...) (snprintf(opts[n_opts], sizeof(opts[0]), __VA_ARGS__), opts[n_opts++])
    /* every format and depth, defaults (psnr_hvs with and without chroma) */
    for (unsigned s = 0; s < (quick ? 1u : 2u); s++)
        for (unsigned fi = 0; fi < 4; fi++)
            for (unsigned di = 0; di < 4; di++)
                cases[n++] = (Case){ sizes[s][0], sizes[s][1], depths[di], fmts[fi], quick ? 2 : 5,
                                     depths[di] > 12 ? "psnr motion float_motion vif adm"
                                     : (fi + di + s) & 1 ? "psnr psnr_hvs motion float_motion vif adm"
                                     : "psnr psnr_hvs=enable_chroma=false motion float_motion vif adm",
                                     0, 0, 0 };
    /* every psnr option */
    static const char *const psnr_opts[] = {
        "enable_mse=true:enable_apsnr=true",
        "reduced_hbd_peak=true:enable_mse=true:enable_apsnr=true",
        "min_sse=0.5",
        "min_sse=0.5:uncapped=true:enable_mse=true",
        "min_sse=1e-12:enable_apsnr=true",
        "uncapped=true:enable_apsnr=true",
        "enable_chroma=false:enable_apsnr=true:enable_mse=true",
        "enable_chroma=true:enable_mse=false:enable_apsnr=false:reduced_hbd_peak=false",
    };
    for (unsigned o = 0; o < (quick ? 2u : 8u); o++) {
        const char *f = FEATURES("psnr=%s", psnr_opts[o]);
        cases[n++] = (Case){ 97, 61, 8, VMAF_PIX_FMT_YUV420P, 5, f, 0, 0, 0 };
        cases[n++] = (Case){ 173, 99, 10 + 2 * (o & 1), fmts[o % 4], 5, f, 0, 0, 0 };
        if (!quick)
            cases[n++] = (Case){ 64, 33, 16, fmts[(o + 1) % 4], 5, f, 0, 0, 0 };
    }
    /* every motion option (float_motion's and integer motion's tables) */
    static const char *const motion_opts[] = {
        "float_motion=motion_force_zero=true motion=motion_force_zero=true",
        "float_motion=debug=true motion=debug=true",
        "float_motion=motion_fps_weight=2.5:motion_max_val=3 motion=motion_fps_weight=0.5:motion_max_val=2",
        "float_motion=motion_blend_factor=0.5:motion_blend_offset=2 motion=motion_blend_factor=0.25:motion_blend_offset=1",
        "float_motion=motion_filter_size=3 motion=motion_five_frame_window=true",
        "float_motion=motion_filter_size=1 motion=motion_five_frame_window=true:motion_moving_average=true",
        "float_motion=motion_add_scale1=true motion=motion_moving_average=true",
        "float_motion=motion_add_uv=true",
        "float_motion=motion_add_uv=true:motion_add_scale1=true:motion_filter_size=3",
    };
    for (unsigned o = 0; o < (quick ? 3u : 9u); o++) {
        cases[n++] = (Case){ 97, 61, 8, o == 8 ? VMAF_PIX_FMT_YUV444P : VMAF_PIX_FMT_YUV420P, 7,
                             motion_opts[o], 0, 0, 0 };
        cases[n++] = (Case){ 171, 98, 10 + 2 * (o & 1), o >= 7 ? VMAF_PIX_FMT_YUV444P : fmts[o % 3],
                             6, motion_opts[o], 2, 0, 0 };
    }
    /* every vif and adm option (the CPU's tables), at odd and even sizes and several depths */
    static const char *const vif_adm_opts[] = {
        "vif=vif_enhn_gain_limit=1 adm=adm_enhn_gain_limit=1",
        "vif=vif_skip_scale0=true:debug=true adm=adm_skip_scale0=true:debug=true",
        "vif=vif_enhn_gain_limit=1.5 adm=adm_skip_aim=true:adm_enhn_gain_limit=1.3",
        "adm=adm_csf_mode=2:adm_norm_view_dist=3:adm_ref_display_height=1080:adm_dlm_weight=0.7",
        "adm=adm_csf_mode=3:adm_norm_view_dist=5:adm_ref_display_height=2160:adm_min_val=0.5",
        "adm=adm_norm_view_dist=5:adm_ref_display_height=2160:adm_noise_weight=0.02",
        "adm=adm_csf_mode=1:adm_csf_scale=0.001:adm_csf_diag_scale=0.001",
        "adm=adm_noise_weight=0:debug=true vif=debug=true",
    };
    for (unsigned o = 0; o < (quick ? 2u : 8u); o++) {
        cases[n++] = (Case){ 97, 61, 8, VMAF_PIX_FMT_YUV420P, 3, vif_adm_opts[o], 0, 0, 0 };
        cases[n++] = (Case){ 171, 98, 10 + 2 * (o & 1), fmts[o % 4], 3, vif_adm_opts[o], 2, 0, 0 };
        if (!quick)
            cases[n++] = (Case){ 65, 33, 16 - 7 * (o & 1), fmts[(o + 1) % 4], 2, vif_adm_opts[o], 0,
                                 0, 0 };
    }
    /* every float_ssim and ssim option */
    static const char *const ssim_opts[] = {
        "float_ssim ssim",
        "float_ssim=enable_lcs=true ssim=enable_db=true",
        "float_ssim=enable_db=true:clip_db=true ssim=enable_db=true:clip_db=true",
        "float_ssim=scale=2:enable_lcs=true",
        "float_ssim=scale=1:enable_db=true",
    };
    for (unsigned o = 0; o < (quick ? 2u : 5u); o++) {
        cases[n++] = (Case){ 97, 61, 8, VMAF_PIX_FMT_YUV420P, 3, ssim_opts[o], 0, 0, 0 };
        cases[n++] = (Case){ 171, 98, o & 1 ? 16 : 10, fmts[o % 4], 3, ssim_opts[o], 2, 0, 0 };
    }
    cases[n++] = (Case){ 11, 11, 12, VMAF_PIX_FMT_YUV400P, 2, "float_ssim ssim", 0, 0, 0 };
    cases[n++] = (Case){ 10, 10, 8, VMAF_PIX_FMT_YUV420P, 1, "float_ssim", 0, 0, 0 };
    cases[n++] = (Case){ 3, 2, 9, VMAF_PIX_FMT_YUV420P, 2, "ssim", 0, 0, 0 };
    /* every float_vif and float_adm option a twin computes (vif_prescale != 1 and adm_p_norm != 3
     * run on the CPU by design) */
    static const char *const float_opts[] = {
        "float_vif float_adm",
        "float_vif=vif_enhn_gain_limit=1:debug=true float_adm=adm_enhn_gain_limit=1:debug=true",
        "float_vif=vif_kernelscale=0.5:vif_sigma_nsq=1.5 float_adm=adm_csf_mode=1:adm_norm_view_dist=5",
        "float_vif=vif_skip_scale0=true:vif_scale1_min_val=0.5 float_adm=adm_skip_scale0=true:adm_bypass_cm=1",
        "float_vif=vif_kernelscale=2 float_adm=adm_f1s0=0.5:adm_f2s1=0.25:adm_min_val=0.3:adm_dlm_weight=0.2",
    };
    for (unsigned o = 0; o < (quick ? 2u : 5u); o++) {
        cases[n++] = (Case){ 97, 61, 8, VMAF_PIX_FMT_YUV420P, 3, float_opts[o], 0, 0, 0 };
        cases[n++] = (Case){ 171, 98, o & 1 ? 12 : 10, fmts[o % 4], 3, float_opts[o], 2, 0, 0 };
    }
    cases[n++] = (Case){ 17, 17, 8, VMAF_PIX_FMT_YUV420P, 2, "float_adm", 0, 0, 0 };
    cases[n++] = (Case){ 16, 17, 8, VMAF_PIX_FMT_YUV420P, 1, "float_adm", 0, 0, 0 };
    cases[n++] = (Case){ 16, 16, 16, VMAF_PIX_FMT_YUV400P, 2, "float_vif", 0, 0, 0 };
    cases[n++] = (Case){ 15, 16, 8, VMAF_PIX_FMT_YUV420P, 1, "float_vif", 0, 0, 0 };
    /* vif's and adm's smallest frames and refusals */
    cases[n++] = (Case){ 33, 33, 8, VMAF_PIX_FMT_YUV420P, 3, "vif adm", 0, 0, 0 };
    cases[n++] = (Case){ 16, 16, 10, VMAF_PIX_FMT_YUV400P, 3, "vif", 0, 0, 0 };
    cases[n++] = (Case){ 15, 40, 8, VMAF_PIX_FMT_YUV420P, 1, "vif", 0, 0, 0 };
    cases[n++] = (Case){ 40, 32, 8, VMAF_PIX_FMT_YUV420P, 1, "adm", 0, 0, 0 };
    cases[n++] = (Case){ 64, 64, 8, VMAF_PIX_FMT_YUV420P, 1, "adm=adm_csf_mode=1", 0, 0, 0 };
    /* psnr_hvs block-walk edges and refusals (compared with the CPU's messages) */
    cases[n++] = (Case){ 8, 8, 8, VMAF_PIX_FMT_YUV400P, 3, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 15, 15, 10, VMAF_PIX_FMT_YUV420P, 3, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 16, 16, 12, VMAF_PIX_FMT_YUV422P, 3, "psnr_hvs=enable_chroma=false", 0, 0, 0 };
    cases[n++] = (Case){ 22, 15, 8, VMAF_PIX_FMT_YUV444P, 3, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 14, 14, 8, VMAF_PIX_FMT_YUV420P, 1, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 7, 20, 8, VMAF_PIX_FMT_YUV444P, 1, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 64, 64, 16, VMAF_PIX_FMT_YUV420P, 1, "psnr_hvs", 0, 0, 0 };
    cases[n++] = (Case){ 64, 64, 13, VMAF_PIX_FMT_YUV420P, 1, "psnr", 0, 0, 0 };
    /* motion's minimum sizes and refusals */
    cases[n++] = (Case){ 3, 3, 8, VMAF_PIX_FMT_YUV420P, 4, "motion float_motion", 0, 0, 0 };
    cases[n++] = (Case){ 2, 9, 8, VMAF_PIX_FMT_YUV420P, 2, "motion", 0, 0, 0 };
    cases[n++] = (Case){ 9, 2, 10, VMAF_PIX_FMT_YUV444P, 2, "float_motion", 0, 0, 0 };
    cases[n++] = (Case){ 5, 5, 8, VMAF_PIX_FMT_YUV400P, 2, "float_motion=motion_add_uv=true", 0, 0, 0 };
    /* worker threads in the CUDA context (twins run serially in the caller), subsampling */
    cases[n++] = (Case){ 640, 360, 10, VMAF_PIX_FMT_YUV420P, 6,
                         "psnr=enable_apsnr=true psnr_hvs motion float_motion vif adm", 4, 0, 0 };
    cases[n++] = (Case){ 320, 240, 8, VMAF_PIX_FMT_YUV420P, 9,
                         "psnr psnr_hvs motion float_motion vif adm", 2, 3, 0 };
    /* speed_chroma and speed_temporal: every option, the weighting modes, the prescale methods
     * (bilinear on the device; the others run on the CPU by design), odd sizes, refusals */
    static const char *const speed_opts[] = {
        "speed_chroma speed_temporal",
        "speed_chroma=speed_weight_var_mode=5:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_max_val=45",
        "speed_chroma=speed_weight_var_mode=1:speed_kernelscale=0.5 speed_temporal=speed_kernelscale=0.5",
        "speed_chroma=speed_weight_var_mode=2:speed_prescale=0.5:speed_prescale_method=bilinear "
        "speed_temporal=speed_prescale=0.6:speed_prescale_method=bilinear",
        "speed_chroma=speed_weight_var_mode=3:speed_kernelscale=1.5 speed_temporal=speed_use_ref_diff=true",
        "speed_chroma=speed_weight_var_mode=4:speed_prescale=1.6:speed_prescale_method=bilinear "
        "speed_temporal=speed_sigma_nn=0.5:speed_nn_floor=0.3",
        "speed_chroma=speed_weight_var_mode=6:speed_kernelscale=2 speed_temporal=speed_kernelscale=2",
        "speed_chroma=speed_prescale=0.5:speed_prescale_method=lanczos4 "
        "speed_temporal=speed_prescale=0.5",
    };
    for (unsigned o = 0; o < (quick ? 2u : 8u); o++) {
        cases[n++] = (Case){ 176, 168, 8, VMAF_PIX_FMT_YUV420P, 4, speed_opts[o], 0, 0, 0 };
        cases[n++] = (Case){ 331, 243, 10 + 2 * (o & 1), fmts[o % 3], 4, speed_opts[o], 2, 0, 0 };
        if (!quick)
            cases[n++] = (Case){ 211, 175, o & 1 ? 16 : 10, fmts[(o + 1) % 3], 3, speed_opts[o],
                                 0, 0, o & 1 };
    }
    cases[n++] = (Case){ 160, 160, 8, VMAF_PIX_FMT_YUV420P, 3, "speed_chroma speed_temporal", 0, 0, 0 };
    cases[n++] = (Case){ 158, 170, 8, VMAF_PIX_FMT_YUV420P, 1, "speed_chroma", 0, 0, 0 };
    cases[n++] = (Case){ 96, 96, 10, VMAF_PIX_FMT_YUV400P, 1, "speed_chroma", 0, 0, 0 };
    cases[n++] = (Case){ 79, 96, 8, VMAF_PIX_FMT_YUV400P, 1, "speed_temporal", 0, 0, 0 };
    cases[n++] = (Case){ 320, 240, 8, VMAF_PIX_FMT_YUV420P, 7, "speed_temporal speed_chroma", 2, 3, 0 };
    /* cambi: every option the twin computes (full_ref and heatmaps_path run on the CPU by
     * design), the speed-up, encode-side sizes and depths, pooling with and without the
     * selection, refusals */
    static const char *const cambi_opts[] = {
        "cambi",
        "cambi=cambi_vis_lum_threshold=0.06:cambi_max_val=17",
        "cambi=topk=0.01:max_log_contrast=3",
        "cambi=cambi_topk=0.2:tvi_threshold=0.05:window_size=31",
        "cambi=eotf=pq:max_log_contrast=0:topk=1",
        "cambi=enc_width=320:enc_height=240:enc_bitdepth=8",
        "cambi=cambi_eotf=pq:max_log_contrast=5:cambi_vis_lum_threshold=1",
        "cambi=full_ref=true",
    };
    for (unsigned o = 0; o < (quick ? 2u : 8u); o++) {
        cases[n++] = (Case){ 331, 243, 8, VMAF_PIX_FMT_YUV420P, 3, cambi_opts[o], 0, 0, 1 };
        cases[n++] = (Case){ 400, 300, 9 + (o % 4), fmts[o % 4], 3, cambi_opts[o], 2, 0, 1 };
        if (!quick)
            cases[n++] = (Case){ 640, 360, o & 1 ? 16 : 10, fmts[(o + 1) % 4], 2, cambi_opts[o], 0,
                                 0, o & 1 };
    }
    cases[n++] = (Case){ 216, 100, 10, VMAF_PIX_FMT_YUV420P, 2, "cambi", 0, 0, 1 };
    cases[n++] = (Case){ 215, 215, 8, VMAF_PIX_FMT_YUV420P, 1, "cambi", 0, 0, 1 };
    /* the VMAF v1 feature set */
    static const char *const v1 =
        "cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17 "
        "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45 "
        "adm=adm_csf_mode=2:adm_norm_view_dist=3:adm_ref_display_height=1080:adm_dlm_weight=0.7:"
        "adm_noise_weight=0.02:adm_min_val=0.5:adm_enhn_gain_limit=1 "
        "motion=motion_max_val=18:motion_five_frame_window=true:motion_moving_average=true";
    cases[n++] = (Case){ 640, 360, 10, VMAF_PIX_FMT_YUV420P, 6, v1, 2, 0, 1 };
    if (!quick) {
        cases[n++] = (Case){ 1920, 1080, 10, VMAF_PIX_FMT_YUV420P, 4, v1, 0, 0, 1 };
        cases[n++] = (Case){ 1920, 1080, 8, VMAF_PIX_FMT_YUV420P, 3, v1, 0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 10, VMAF_PIX_FMT_YUV420P, 3, v1, 0, 0, 1 };
        cases[n++] = (Case){ 3840, 2160, 12, VMAF_PIX_FMT_YUV444P, 2,
                             "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear "
                             "speed_temporal cambi=cambi_high_res_speedup=2160",
                             0, 0, 0 };
    }
    if (!quick) {
        /* long float chains */
        cases[n++] = (Case){ 1920, 1080, 10, VMAF_PIX_FMT_YUV420P, 3,
                             "psnr=enable_mse=true psnr_hvs motion float_motion vif adm float_ssim ssim",
                             0, 0, 0 };
        cases[n++] = (Case){ 1280, 720, 8, VMAF_PIX_FMT_YUV420P, 3,
                             "float_ssim=scale=1:enable_lcs=true ssim", 0, 0, 0 };
        cases[n++] = (Case){ 1921, 1081, 8, VMAF_PIX_FMT_YUV444P, 3,
                             "vif adm motion float_vif float_adm float_motion", 0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 8, VMAF_PIX_FMT_YUV420P, 5,
                             "psnr=enable_apsnr=true psnr_hvs motion float_motion vif adm float_ssim",
                             0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 12, VMAF_PIX_FMT_YUV422P, 3,
                             "vif=vif_enhn_gain_limit=1 adm=adm_enhn_gain_limit=1 motion", 0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 8, VMAF_PIX_FMT_YUV420P, 3, "float_vif float_adm float_motion",
                             0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 10, VMAF_PIX_FMT_YUV422P, 2, "psnr psnr_hvs", 0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 12, VMAF_PIX_FMT_YUV444P, 3,
                             "psnr psnr_hvs=enable_chroma=false float_motion=motion_add_uv=true", 0, 0, 0 };
        cases[n++] = (Case){ 3840, 2160, 16, VMAF_PIX_FMT_YUV400P, 2, "psnr=enable_mse=true", 0, 0, 0 };
    }
#undef FEATURES
    for (unsigned i = 0; i < n; i++)
        run_case(&cases[i]);
    ordered_sum_tests(quick);
    printf("%u/%u checks passed\n", checks - failures, checks);
    return failures ? 1 : 0;
}
