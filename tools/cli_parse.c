#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

static const char usage_text[] =
    "Usage: %s [options]\n"
    "\n"
    "Inputs (Y4M is detected from its signature; raw YUV needs -w -h -p -b):\n"
    "  -r, --reference PATH      reference video (.y4m, raw .yuv, or with FFmpeg's libraries a\n"
    "                            container: .mp4, .mkv, ...; - for stdin)\n"
    "  -d, --distorted PATH      distorted video\n"
    "  -w, --width N             raw YUV: luma width\n"
    "  -h, --height N            raw YUV: luma height\n"
    "  -p, --pixel_format F      raw YUV: 420, 422, 444 or 400\n"
    "  -b, --bitdepth N          raw YUV: 8..16\n"
    "Features:\n"
    "  --feature NAME[=opt=val[:opt=val...]]   add a feature extractor (repeatable, max 32)\n"
    "                            extractors: see --list-extractors\n"
    "  -m, --model ITEM[:ITEM...]  add a VMAF model (repeatable, max 32; default: version=vmaf_v0.6.1)\n"
    "                            version=NAME (built in) or path=FILE (JSON), name=NAME (default\n"
    "                            vmaf, unique per model), disable_clip, enable_transform,\n"
    "                            EXTRACTOR.OPTION=VALUE (e.g. vif.vif_enhn_gain_limit=1.0)\n"
    "  -n, --no_prediction       extract features only: no model scores (models given with -m\n"
    "                            still have their features extracted)\n"
    "  --aom_ctc v1.0..v7.0      AOM common test conditions: models vmaf and vmaf_neg, psnr, ciede,\n"
    "                            float_ssim, float_ms_ssim, psnr_hvs (v3.0+: cambi; v6.0+: inputs of\n"
    "                            different bit depths are scored at the higher one)\n"
    "  --nflx_ctc v1.0           Netflix CTC: the 4K models, psnr, float_ssim, cambi\n"
    "Built-in models (-m version=NAME):\n"
    "  vmaf_v0.6.1               the default: 1080p viewing\n"
    "  vmaf_v0.6.1neg            the same without enhancement gain\n"
    "  vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg   4K viewing\n"
    "  vmaf_b_v0.6.3             bootstrapped collection (mean, stddev, 95%% interval)\n"
    "  vmaf_float_v0.6.1, vmaf_float_v0.6.1neg, vmaf_float_4k_v0.6.1, vmaf_float_b_v0.6.3\n"
    "                            the same on the float features\n"
    "  VMAF v1 (cambi, speed_chroma, adm3, motion3, with chroma correction); H = screen height:\n"
    "  vmaf_v1.0.16_3d0h         the standard model: 1080p viewed at 3H, range 0-100\n"
    "  vmaf_v1.0.16_5d0h         phone: viewed at 5H\n"
    "  vmaf_v1.0.16_1d5h_2160    4K viewed at 1.5H, range 0-100 (the 4K default)\n"
    "  vmaf_v1.0.16_3d0h_2160    4K consumer TV viewed at 3H, range 0-110\n"
    "  vmaf_v1.0.16_hfr_3d0h     1080p at 3H, high frame rates (about 50/60 fps)\n"
    "  vmaf_v1.0.16_hfr_5d0h     phone at 5H, high frame rates\n"
    "  vmaf_v1.0.16_hfr_1d5h_2160  4K at 1.5H, high frame rates\n"
    "  vmaf_v1.0.16_hfr_3d0h_2160  4K consumer TV at 3H, high frame rates\n"
    "Output:\n"
    "  -o, --output PATH         write the report here (without it, the pooled scores are printed)\n"
    "  --xml | --json | --csv | --sub   report format (default XML; the last one wins)\n"
    "  --precision N|max|full|legacy    score format: %%.Ng, %%.17g, or %%.6f\n"
    "  --html PATH               also write a self-contained HTML page of the run: inputs,\n"
    "                            settings, pooled scores, worst frames, per-frame plots\n"
    "Frames:\n"
    "  --frame_cnt N             score at most N frame pairs\n"
    "  --frame_range A:B         score frames A..B-1 only (a shard), each as the whole run scores\n"
    "                            it (temporal features read the frames around); -o then writes a\n"
    "                            shard report (JSON, exact) for `%s merge`\n"
    "  --frame_skip_ref N        skip the first N reference frames\n"
    "  --frame_skip_dist N       skip the first N distorted frames\n"
    "  --subsample N             score every N-th frame only\n"
    "Execution:\n"
    "  --threads N               worker threads (default 0: frames are scored one after another\n"
    "                            in the calling thread); scores are identical for any N\n"
    "  -c, --cpumask N           disable SIMD levels (bit 3: AVX2 and up, bit 4: AVX-512 and up,\n"
    "                            bit 5: AVX-512 VNNI; 255: plain C)\n"
    "  --gpumask N               non-zero: no GPU\n"
    "  --backend B               auto, cpu, cuda or opencl (default cpu)\n"
    "  --gpu N|NAME              device index for the GPU backend (default 0); for OpenCL also a\n"
    "                            name (\"NVIDIA\", \"Arc\", \"pthread\") matching \"platform: device\"\n"
    "  --parity B                score on the CPU and on backend B, print per feature the\n"
    "                            largest difference and the frames that are not bit-identical\n"
    "  -q, --quiet               no progress meter\n"
    "  -v, --version             print the version and exit\n"
    "  --list-extractors         print the extractors built in, with their backend\n"
    "  --help                    this text\n"
    "\n"
    "\n"
    "%s merge [-o PATH] [--xml|--json|--csv|--sub] [--precision P] [-q] SHARD.json...\n"
    "                            the report of the whole video from its shards' reports (any\n"
    "                            order): the same bytes as one run's, but for fps\n"
    "\n"
    "Exit status: 0 success, 1 usage error, 3 --parity found differences, 255 any other error.\n"
    "Containers: %s\n";

/* The usage text, with the program's name and what this build decodes. */
static void print_usage(const char *name)
{
    char versions[128], containers[192];
    if (ls_input_decodes_containers(versions, sizeof(versions)))
        snprintf(containers, sizeof(containers), "read through %s", versions);
    else
        snprintf(containers, sizeof(containers),
                 "none (built without FFmpeg's libavformat, libavcodec, libavutil)");
    printf(usage_text, name, name, name, containers);
}

static const char *argv0 = "lockstep";

/* Parsing stops at the first problem: the message goes to the caller's buffer and the parse
 * returns (a long jump out of the option loop), so that a library call never exits. One parse at
 * a time (getopt's state is global anyway): callers serialise (run.c). */
static jmp_buf parse_stop;
static int parse_status;
static char *parse_err;
static size_t parse_err_len;

static void stop_parse(int status)
{
    parse_status = status;
    longjmp(parse_stop, 1);
}

static void parse_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void parse_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(parse_err, parse_err_len, fmt, ap);
    va_end(ap);
    stop_parse(CLI_PARSE_ERROR);
}

/* One line naming the problem; the full usage is one --help away. */
static void usage_error(const char *fmt, const char *arg)
{
    char msg[1400];
    snprintf(msg, sizeof(msg), fmt, arg);
    parse_fail("%s: %s (see --help)", argv0, msg);
}

static unsigned parse_unsigned(const char *arg, const char *what)
{
    char *end;
    errno = 0;
    const unsigned long v = strtoul(arg, &end, 10);
    if (!*arg || *end || errno || v > UINT_MAX || arg[0] == '-') {
        char msg[256];
        snprintf(msg, sizeof(msg), "Invalid value \"%%s\" for %s: expected a non-negative integer",
                 what);
        usage_error(msg, arg);
    }
    return (unsigned)v;
}

static enum LockstepBackend parse_backend(const char *arg)
{
    if (!strcmp(arg, "auto")) return LOCKSTEP_BACKEND_AUTO;
    if (!strcmp(arg, "cpu")) return LOCKSTEP_BACKEND_CPU;
    if (!strcmp(arg, "cuda")) return LOCKSTEP_BACKEND_CUDA;
    if (!strcmp(arg, "opencl")) return LOCKSTEP_BACKEND_OPENCL;
    usage_error("Unknown --backend value '%s' (expected: auto|cpu|cuda|opencl)", arg);
    return LOCKSTEP_BACKEND_CPU;
}

/* Splits NAME=key=val:key=val. Returns the bad item on a syntax error, NULL when fine. */
static const char *split_feature(const char *arg, char *name, size_t name_len,
                                 VmafFeatureDictionary **dict, char *bad, size_t bad_len)
{
    char buf[1025];
    snprintf(buf, sizeof(buf), "%s", arg); /* libvmaf considers the first 1024 characters */
    char *opts = strchr(buf, '=');
    if (opts)
        *opts++ = 0;
    const size_t len = strlen(buf) < name_len ? strlen(buf) : name_len - 1;
    memcpy(name, buf, len);
    name[len] = 0;
    while (opts && *opts) {
        char *item = opts;
        opts = strchr(opts, ':');
        if (opts)
            *opts++ = 0;
        char *val = strchr(item, '=');
        if (!val || val == item) {
            snprintf(bad, bad_len, "%s", item);
            return bad;
        }
        *val++ = 0;
        char *third = strchr(val, '=');
        if (third)
            *third = 0;
        if (dict && vmaf_feature_dictionary_set(dict, item, val)) {
            snprintf(bad, bad_len, "%s (out of memory)", item);
            return bad;
        }
    }
    return NULL;
}

int cli_feature_options(const CliFeature *f, VmafFeatureDictionary **dict)
{
    char name[128], bad[1025];
    *dict = NULL;
    if (split_feature(f->arg, name, sizeof(name), dict, bad, sizeof(bad))) {
        vmaf_feature_dictionary_free(dict);
        return -1;
    }
    return 0;
}

static void parse_feature(CliSettings *s, const char *arg)
{
    if (s->n_features == CLI_MAX_FEATURES)
        usage_error("A maximum of %s feature extractors are supported", "32");
    CliFeature *f = &s->feature[s->n_features];
    char bad[1025];
    f->arg = arg;
    if (split_feature(arg, f->name, sizeof(f->name), NULL, bad, sizeof(bad))) {
        parse_fail("%s: Problem parsing feature \"%s\", bad option string \"%s\": expected "
                   "NAME=option=value[:option=value...] (see --help)", argv0, f->name, bad);
    }
    if (!f->name[0])
        usage_error("Problem parsing feature \"%s\": empty extractor name.", arg);
    s->n_features++;
}

static void model_error(const char *arg, const char *why, const char *item)
{
    parse_fail("%s: Problem parsing model \"%s\": %s%s%s (see --help)", argv0, arg, why,
               item ? " " : "", item ? item : "");
}

static void parse_model(CliSettings *s, const char *arg)
{
    if (s->n_models == CLI_MAX_MODELS)
        usage_error("A maximum of %s models are supported", "32");
    CliModel *m = &s->model[s->n_models];
    memset(m, 0, sizeof(*m));
    m->arg = arg;
    snprintf(m->buf, sizeof(m->buf), "%s", arg); /* libvmaf considers the first 1024 characters */
    m->name = "vmaf";
    char *next = m->buf;
    while (next) {
        char *item = next;
        next = strchr(next, ':');
        if (next)
            *next++ = 0;
        if (!*item)
            continue;
        char *val = strchr(item, '=');
        if (val) {
            *val++ = 0;
            char *third = strchr(val, '=');
            if (third)
                *third = 0;
        }
        const int is_flag = !strcmp(item, "disable_clip") || !strcmp(item, "enable_transform");
        if (!is_flag && (!val || !*val)) {
            char what[1100];
            snprintf(what, sizeof(what), "\"%s\" (expected path=FILE, version=NAME, name=NAME, "
                     "disable_clip, enable_transform or EXTRACTOR.OPTION=VALUE)", item);
            model_error(arg, "item without a value:", what);
        }
        if (!strcmp(item, "path")) {
            m->path = val;
        } else if (!strcmp(item, "version")) {
            m->version = val;
        } else if (!strcmp(item, "name")) {
            m->name = val;
        } else if (is_flag) {
            /* libvmaf: no value or "true" sets the flag, any other value leaves it off */
            if (!val || !strcmp(val, "true"))
                m->flags |= !strcmp(item, "disable_clip") ? VMAF_MODEL_FLAG_DISABLE_CLIP
                                                          : VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
        } else {
            char *dot = strchr(item, '.');
            if (!dot || dot == item || !dot[1]) {
                char what[1100];
                snprintf(what, sizeof(what), "\"%s\" (expected path=FILE, version=NAME, "
                         "name=NAME, disable_clip, enable_transform or EXTRACTOR.OPTION=VALUE)",
                         item);
                model_error(arg, "unknown item", what);
            }
            if (m->n_overloads == CLI_MAX_OVERLOADS)
                model_error(arg, "more than 32 EXTRACTOR.OPTION=VALUE items", NULL);
            *dot = 0;
            m->overload[m->n_overloads].extractor = item;
            m->overload[m->n_overloads].option = dot + 1;
            m->overload[m->n_overloads].value = val;
            m->n_overloads++;
        }
    }
    if (!m->version && !m->path)
        model_error(arg, "no model given: add version=NAME (built in) or path=FILE", NULL);
    s->n_models++;
}

/* CTC presets (cli.md §2.6): models, then features, appended in this order. */
typedef struct CliPreset {
    const char *option, *version;
    const char *models[2];
    const char *features[6];
    bool common_bitdepth;
} CliPreset;

#define AOM_MODELS { "version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg" }
#define AOM_PSNR "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5"
#define AOM_SSIM "float_ssim=enable_db=true:clip_db=true"
#define AOM_MS_SSIM "float_ms_ssim=enable_db=true:clip_db=true"
#define AOM_V1 { AOM_PSNR, "ciede", AOM_SSIM, AOM_MS_SSIM, "psnr_hvs" }
#define AOM_V3 { AOM_PSNR, "ciede", AOM_SSIM, AOM_MS_SSIM, "psnr_hvs", "cambi" }

static const CliPreset presets[] = {
    { "aom_ctc", "v1.0", AOM_MODELS, AOM_V1, false },
    { "aom_ctc", "v2.0", AOM_MODELS, AOM_V1, false },
    { "aom_ctc", "v3.0", AOM_MODELS, AOM_V3, false },
    { "aom_ctc", "v4.0", AOM_MODELS, AOM_V3, false },
    { "aom_ctc", "v5.0", AOM_MODELS, AOM_V3, false },
    { "aom_ctc", "v6.0", AOM_MODELS, AOM_V3, true },
    { "aom_ctc", "v7.0", AOM_MODELS,
      { AOM_PSNR, "ciede", "float_ssim=scale=1:enable_db=true:clip_db=true", AOM_MS_SSIM,
        "psnr_hvs", "cambi" }, true },
    { "nflx_ctc", "v1.0",
      { "version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg" },
      { "psnr=enable_chroma=true:enable_apsnr=true", AOM_SSIM, "cambi" }, false },
};

static void apply_preset(CliSettings *s, const char *option, const char *version)
{
    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
        const CliPreset *p = &presets[i];
        if (strcmp(p->option, option) || strcmp(p->version, version))
            continue;
        for (unsigned m = 0; m < 2 && p->models[m]; m++)
            parse_model(s, p->models[m]);
        for (unsigned f = 0; f < 6 && p->features[f]; f++)
            parse_feature(s, p->features[f]);
        s->common_bitdepth |= p->common_bitdepth;
        return;
    }
    if (!strcmp(option, "aom_ctc") && !strcmp(version, "proposed"))
        usage_error("%s", "`--aom_ctc proposed` is deprecated.");
    char msg[160];
    snprintf(msg, sizeof(msg), "bad %s version \"%%s\"", option);
    usage_error(msg, version);
}

static void parse_frame_range(CliSettings *s, const char *arg);

static void parse_precision(CliSettings *s, const char *arg)
{
    s->score_format = lockstep_precision_format(arg);
    if (!s->score_format)
        parse_fail("%s: --precision must be an integer 1..17, or one of: max, full, legacy (got: %s)",
                   argv0, arg);
}

enum {
    OPT_FEATURE = 256, OPT_XML, OPT_JSON, OPT_CSV, OPT_SUB, OPT_PRECISION, OPT_THREADS,
    OPT_FRAME_CNT, OPT_SKIP_REF, OPT_SKIP_DIST, OPT_SUBSAMPLE, OPT_GPUMASK, OPT_BACKEND, OPT_GPU,
    OPT_PARITY, OPT_HELP, OPT_LIST, OPT_AOM_CTC, OPT_NFLX_CTC, OPT_FRAME_RANGE, OPT_HTML,
};

static const struct option long_opts[] = {
    { "reference", required_argument, NULL, 'r' },
    { "distorted", required_argument, NULL, 'd' },
    { "width", required_argument, NULL, 'w' },
    { "height", required_argument, NULL, 'h' },
    { "pixel_format", required_argument, NULL, 'p' },
    { "bitdepth", required_argument, NULL, 'b' },
    { "model", required_argument, NULL, 'm' },
    { "output", required_argument, NULL, 'o' },
    { "no_prediction", no_argument, NULL, 'n' },
    { "quiet", no_argument, NULL, 'q' },
    { "version", no_argument, NULL, 'v' },
    { "cpumask", required_argument, NULL, 'c' },
    { "feature", required_argument, NULL, OPT_FEATURE },
    { "xml", no_argument, NULL, OPT_XML },
    { "json", no_argument, NULL, OPT_JSON },
    { "csv", no_argument, NULL, OPT_CSV },
    { "sub", no_argument, NULL, OPT_SUB },
    { "precision", required_argument, NULL, OPT_PRECISION },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "frame_cnt", required_argument, NULL, OPT_FRAME_CNT },
    { "frame_range", required_argument, NULL, OPT_FRAME_RANGE },
    { "frame_skip_ref", required_argument, NULL, OPT_SKIP_REF },
    { "frame_skip_dist", required_argument, NULL, OPT_SKIP_DIST },
    { "subsample", required_argument, NULL, OPT_SUBSAMPLE },
    { "gpumask", required_argument, NULL, OPT_GPUMASK },
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "gpu", required_argument, NULL, OPT_GPU },
    { "parity", required_argument, NULL, OPT_PARITY },
    { "help", no_argument, NULL, OPT_HELP },
    { "list-extractors", no_argument, NULL, OPT_LIST },
    { "aom_ctc", required_argument, NULL, OPT_AOM_CTC },
    { "nflx_ctc", required_argument, NULL, OPT_NFLX_CTC },
    { "html", required_argument, NULL, OPT_HTML },
    { NULL, 0, NULL, 0 },
};

/* Frames given by the caller (lockstep_run_open_pictures) rather than read from files: what
 * only files have is refused, naming the way to do it with arrays. */
static void check_pictures_settings(const CliSettings *s)
{
    static const char *const why = "frames are given, not read from files";
    if (s->ref_path || s->dist_path)
        parse_fail("%s: -r/-d name files: %s", argv0, why);
    if (s->raw_given)
        parse_fail("%s: -w/-h/-p/-b describe raw files: %s (their geometry is the frames')",
                   argv0, why);
    if (s->skip_ref || s->skip_dist || s->frame_cnt)
        parse_fail("%s: --frame_skip_ref, --frame_skip_dist and --frame_cnt pick frames of files: "
                   "%s (give the frames to score)", argv0, why);
    if (s->sharded)
        parse_fail("%s: --frame_range reads the frames around a shard from files: %s", argv0,
                   why);
}

static void parse_settings(int argc, char **argv, CliSettings *s, bool pictures)
{
    memset(s, 0, sizeof(*s));
    argv0 = argv[0];
    s->fmt = VMAF_OUTPUT_FORMAT_XML;
    s->backend = LOCKSTEP_BACKEND_CPU;
    opterr = 0;
    optind = 0; /* glibc: 0 starts a fresh scan (a library caller parses many times) */
    int c;
    while ((c = getopt_long(argc, argv, ":r:d:w:h:p:b:m:o:nqvc:", long_opts, NULL)) != -1) {
        switch (c) {
        case 'r': s->ref_path = optarg; break;
        case 'd': s->dist_path = optarg; break;
        case 'w': s->raw.w = parse_unsigned(optarg, "--width/-w"); s->raw_given = true; break;
        case 'h': s->raw.h = parse_unsigned(optarg, "--height/-h"); s->raw_given = true; break;
        case 'p':
            s->raw_given = true;
            if (!strcmp(optarg, "420")) s->raw.fmt = VMAF_PIX_FMT_YUV420P;
            else if (!strcmp(optarg, "422")) s->raw.fmt = VMAF_PIX_FMT_YUV422P;
            else if (!strcmp(optarg, "444")) s->raw.fmt = VMAF_PIX_FMT_YUV444P;
            else if (!strcmp(optarg, "400")) s->raw.fmt = VMAF_PIX_FMT_YUV400P;
            else usage_error("Invalid argument \"%s\" for --pixel_format/-p: should be a valid pixel format (420/422/444/400)", optarg);
            break;
        case 'b':
            s->raw_given = true;
            s->raw.bpc = parse_unsigned(optarg, "--bitdepth/-b");
            if (s->raw.bpc < 8 || s->raw.bpc > 16)
                usage_error("Invalid argument \"%s\" for --bitdepth/-b: should be a valid bitdepth (8..16)", optarg);
            break;
        case 'm': parse_model(s, optarg); break;
        case 'o': s->output_path = optarg; break;
        case 'n': s->no_prediction = true; break;
        case 'q': s->quiet = true; break;
        case 'v': fprintf(stderr, "%s\n", vmaf_version()); stop_parse(CLI_PARSE_DONE); break;
        case 'c': s->cpumask = parse_unsigned(optarg, "--cpumask"); break;
        case OPT_FEATURE: parse_feature(s, optarg); break;
        case OPT_XML: s->fmt = VMAF_OUTPUT_FORMAT_XML; s->fmt_given = true; break;
        case OPT_JSON: s->fmt = VMAF_OUTPUT_FORMAT_JSON; s->fmt_given = true; break;
        case OPT_CSV: s->fmt = VMAF_OUTPUT_FORMAT_CSV; s->fmt_given = true; break;
        case OPT_SUB: s->fmt = VMAF_OUTPUT_FORMAT_SUB; s->fmt_given = true; break;
        case OPT_PRECISION: parse_precision(s, optarg); break;
        case OPT_THREADS: s->threads = parse_unsigned(optarg, "--threads"); break;
        case OPT_FRAME_CNT: s->frame_cnt = parse_unsigned(optarg, "--frame_cnt"); break;
        case OPT_FRAME_RANGE: parse_frame_range(s, optarg); break;
        case OPT_SKIP_REF: s->skip_ref = parse_unsigned(optarg, "--frame_skip_ref"); break;
        case OPT_SKIP_DIST: s->skip_dist = parse_unsigned(optarg, "--frame_skip_dist"); break;
        case OPT_SUBSAMPLE: s->subsample = parse_unsigned(optarg, "--subsample"); break;
        case OPT_GPUMASK: s->gpumask = parse_unsigned(optarg, "--gpumask"); break;
        case OPT_BACKEND: s->backend = parse_backend(optarg); break;
        case OPT_GPU:
            /* a number counts devices; anything else picks OpenCL devices by name */
            if (optarg[0] >= '0' && optarg[0] <= '9') {
                s->gpu = (int)parse_unsigned(optarg, "--gpu");
            } else {
                s->gpu = 0;
                setenv("LOCKSTEP_OPENCL_DEVICE", optarg, 1);
            }
            break;
        case OPT_PARITY:
            s->parity = true;
            s->parity_backend = parse_backend(optarg);
            break;
        case OPT_AOM_CTC: apply_preset(s, "aom_ctc", optarg); break;
        case OPT_NFLX_CTC: apply_preset(s, "nflx_ctc", optarg); break;
        case OPT_HTML: s->html_path = optarg; break;
        case OPT_HELP: print_usage(argv0); stop_parse(CLI_PARSE_DONE); break;
        case OPT_LIST: {
            enum LockstepBackend b;
            const char *name;
            for (unsigned i = 0; (name = lockstep_extractor_name(i, &b)); i++)
                printf("%s %s\n", name, lockstep_backend_name(b));
            stop_parse(CLI_PARSE_DONE);
            break;
        }
        case ':': usage_error("Option %s needs a value", argv[optind - 1]); break;
        default: usage_error("Unknown option: %s", argv[optind - 1]); break;
        }
    }
    if (optind < argc)
        usage_error("Unexpected argument: %s", argv[optind]);
    if (pictures)
        check_pictures_settings(s);
    else if (!s->ref_path)
        usage_error("%s", "Reference .y4m or .yuv (-r/--reference) is required");
    if (!pictures && !s->dist_path)
        usage_error("%s", "Distorted .y4m or .yuv (-d/--distorted) is required");
    if (!pictures && !strcmp(s->ref_path, "-") && !strcmp(s->dist_path, "-"))
        usage_error("%s", "-r - and -d - cannot both read standard input: pipe one of the videos "
                          "and give the other as a file");
    if (s->raw_given && (!s->raw.w || !s->raw.h || !s->raw.bpc || !s->raw.fmt))
        usage_error("%s", "Raw YUV input needs all of --width/-w --height/-h --pixel_format/-p "
                          "--bitdepth/-b (each non-zero)");
    if (!s->n_models && !s->no_prediction) {
        CliModel *m = &s->model[s->n_models++];
        memset(m, 0, sizeof(*m));
        m->version = "vmaf_v0.6.1";
        m->name = "vmaf";
        m->arg = "version=vmaf_v0.6.1";
    }
    for (unsigned i = 0; i < s->n_models; i++)
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(s->model[i].name, s->model[j].name))
                usage_error("%s", "Each model should be uniquely named. Set using --model via the "
                                  "name=... param.");
    if (!s->n_features && !s->n_models)
        usage_error("%s", "Nothing to compute with -n/--no_prediction: add --feature NAME (e.g. "
                          "--feature psnr) or a model (-m)");
    if (s->sharded && s->parity)
        usage_error("%s", "--frame_range and --parity cannot be combined: compare whole runs");
    if (s->sharded && s->output_path && s->fmt_given && s->fmt != VMAF_OUTPUT_FORMAT_JSON)
        usage_error("%s", "--frame_range writes a shard report (JSON): give --xml, --csv or --sub "
                          "to `lockstep merge`");
    if (s->sharded && s->output_path && s->score_format)
        usage_error("%s", "--frame_range writes every score exactly: give --precision to "
                          "`lockstep merge`");
}

static void parse_frame_range(CliSettings *s, const char *arg)
{
    const char *colon = strchr(arg, ':');
    char first[32];
    if (!colon || (size_t)(colon - arg) >= sizeof(first))
        usage_error("Invalid value \"%s\" for --frame_range: expected FIRST:END, frame numbers "
                    "from 0 with END after FIRST (0:100 is the first 100 frames)", arg);
    memcpy(first, arg, (size_t)(colon - arg));
    first[colon - arg] = 0;
    s->range_first = parse_unsigned(first, "--frame_range's FIRST");
    s->range_end = parse_unsigned(colon + 1, "--frame_range's END");
    if (s->range_end <= s->range_first)
        usage_error("Invalid value \"%s\" for --frame_range: END must come after FIRST (the "
                    "range is FIRST..END-1)", arg);
    s->sharded = true;
}

/* Appends " FLAG VALUE" (or "FLAG VALUE" at the start) to buf; cut at len. */
static void append(char *buf, size_t len, const char *flag, const char *value)
{
    const size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s%s%s", used ? " " : "", flag, value ? " " : "",
             value ? value : "");
}

static void append_unsigned(char *buf, size_t len, const char *flag, unsigned value)
{
    char v[16];
    snprintf(v, sizeof(v), "%u", value);
    append(buf, len, flag, v);
}

void cli_shard_settings(const CliSettings *s, char *buf, size_t len)
{
    buf[0] = 0;
    for (unsigned i = 0; i < s->n_models; i++)
        append(buf, len, "-m", s->model[i].arg);
    for (unsigned i = 0; i < s->n_features; i++)
        append(buf, len, "--feature", s->feature[i].arg);
    if (s->no_prediction)
        append(buf, len, "-n", NULL);
    if (s->subsample > 1)
        append_unsigned(buf, len, "--subsample", s->subsample);
    if (s->skip_ref)
        append_unsigned(buf, len, "--frame_skip_ref", s->skip_ref);
    if (s->skip_dist)
        append_unsigned(buf, len, "--frame_skip_dist", s->skip_dist);
    if (s->frame_cnt)
        append_unsigned(buf, len, "--frame_cnt", s->frame_cnt);
    if (s->common_bitdepth)
        append(buf, len, "--common_bitdepth", NULL);
    if (s->raw_given) {
        const char *fmt = ls_pix_fmt_name(s->raw.fmt);
        append_unsigned(buf, len, "-w", s->raw.w);
        append_unsigned(buf, len, "-h", s->raw.h);
        append(buf, len, "-p", fmt ? fmt : "?");
        append_unsigned(buf, len, "-b", s->raw.bpc);
    }
}

static void parse_merge_settings(int argc, char **argv, CliMergeSettings *m)
{
    static const struct option merge_opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "quiet", no_argument, NULL, 'q' },
        { "xml", no_argument, NULL, OPT_XML },
        { "json", no_argument, NULL, OPT_JSON },
        { "csv", no_argument, NULL, OPT_CSV },
        { "sub", no_argument, NULL, OPT_SUB },
        { "precision", required_argument, NULL, OPT_PRECISION },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    memset(m, 0, sizeof(*m));
    argv0 = "lockstep merge";
    m->fmt = VMAF_OUTPUT_FORMAT_XML;
    opterr = 0;
    optind = 0;
    CliSettings precision = { 0 };
    int c;
    while ((c = getopt_long(argc, argv, ":o:q", merge_opts, NULL)) != -1) {
        switch (c) {
        case 'o': m->output_path = optarg; break;
        case 'q': m->quiet = true; break;
        case OPT_XML: m->fmt = VMAF_OUTPUT_FORMAT_XML; break;
        case OPT_JSON: m->fmt = VMAF_OUTPUT_FORMAT_JSON; break;
        case OPT_CSV: m->fmt = VMAF_OUTPUT_FORMAT_CSV; break;
        case OPT_SUB: m->fmt = VMAF_OUTPUT_FORMAT_SUB; break;
        case OPT_PRECISION: parse_precision(&precision, optarg); break;
        case OPT_HELP:
            print_usage("lockstep");
            stop_parse(CLI_PARSE_DONE);
            break;
        case ':': usage_error("Option %s needs a value", argv[optind - 1]); break;
        default: usage_error("Unknown option: %s", argv[optind - 1]); break;
        }
    }
    m->score_format = precision.score_format;
    m->shards = (const char *const *)argv + optind;
    m->n_shards = (unsigned)(argc - optind);
    if (!m->n_shards)
        usage_error("%s", "no shard reports given: lockstep merge [-o PATH] SHARD.json...");
}


int cli_parse(int argc, char **argv, CliSettings *s, bool pictures, char *err, size_t err_len)
{
    parse_err = err;
    parse_err_len = err_len;
    err[0] = 0;
    if (setjmp(parse_stop))
        return parse_status;
    parse_settings(argc, argv, s, pictures);
    return CLI_PARSE_OK;
}

int cli_parse_merge(int argc, char **argv, CliMergeSettings *m, char *err, size_t err_len)
{
    parse_err = err;
    parse_err_len = err_len;
    err[0] = 0;
    if (setjmp(parse_stop))
        return parse_status;
    parse_merge_settings(argc, argv, m);
    return CLI_PARSE_OK;
}
