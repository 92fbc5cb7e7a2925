#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

static const char usage_text[] =
    "Usage: %s [options]\n"
    "\n"
    "Inputs (Y4M is detected from its signature; raw YUV needs -w -h -p -b):\n"
    "  -r, --reference PATH      reference video (.y4m or raw .yuv, - for stdin)\n"
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
    "Frames:\n"
    "  --frame_cnt N             score at most N frame pairs\n"
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
    "Exit status: 0 success, 1 usage error, 3 --parity found differences, 255 any other error.\n";

static const char *argv0 = "lockstep";

/* Parsing ends early (a usage error, --help) by jumping back into cli_parse with the exit status,
 * rather than by exit(): the parser then runs in-process many times over (the fuzzer). Nothing
 * is allocated while parsing, so the jump leaks nothing. */
static jmp_buf parse_done;
static int parse_status;

static _Noreturn void finish(int status)
{
    parse_status = status;
    longjmp(parse_done, 1);
}

/* One line naming the problem; the full usage is one --help away. */
static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", argv0);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see --help)\n");
    finish(1);
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
        fprintf(stderr, "%s: Problem parsing feature \"%s\", bad option string \"%s\": expected "
                        "NAME=option=value[:option=value...] (see --help)\n", argv0, f->name, bad);
        finish(1);
    }
    if (!f->name[0])
        usage_error("Problem parsing feature \"%s\": empty extractor name.", arg);
    s->n_features++;
}

static void model_error(const char *arg, const char *why, const char *item)
{
    fprintf(stderr, "%s: Problem parsing model \"%s\": %s%s%s (see --help)\n", argv0, arg, why,
            item ? " " : "", item ? item : "");
    finish(1);
}

static void parse_model(CliSettings *s, const char *arg)
{
    if (s->n_models == CLI_MAX_MODELS)
        usage_error("A maximum of %s models are supported", "32");
    CliModel *m = &s->model[s->n_models];
    memset(m, 0, sizeof(*m));
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

static void parse_precision(CliSettings *s, const char *arg)
{
    s->score_format = lockstep_precision_format(arg);
    if (!s->score_format) {
        fprintf(stderr,
                "%s: --precision must be an integer 1..17, or one of: max, full, legacy (got: %s)\n",
                argv0, arg);
        finish(1);
    }
}

enum {
    OPT_FEATURE = 256, OPT_XML, OPT_JSON, OPT_CSV, OPT_SUB, OPT_PRECISION, OPT_THREADS,
    OPT_FRAME_CNT, OPT_SKIP_REF, OPT_SKIP_DIST, OPT_SUBSAMPLE, OPT_GPUMASK, OPT_BACKEND, OPT_GPU,
    OPT_PARITY, OPT_HELP, OPT_LIST, OPT_AOM_CTC, OPT_NFLX_CTC,
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
    { NULL, 0, NULL, 0 },
};

int cli_parse(int argc, char **argv, CliSettings *s)
{
    if (setjmp(parse_done))
        return parse_status;
    memset(s, 0, sizeof(*s));
    argv0 = argv[0];
    s->fmt = VMAF_OUTPUT_FORMAT_XML;
    s->backend = LOCKSTEP_BACKEND_CPU;
    opterr = 0;
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
        case 'v': fprintf(stderr, "%s\n", vmaf_version()); finish(0);
        case 'c': s->cpumask = parse_unsigned(optarg, "--cpumask"); break;
        case OPT_FEATURE: parse_feature(s, optarg); break;
        case OPT_XML: s->fmt = VMAF_OUTPUT_FORMAT_XML; break;
        case OPT_JSON: s->fmt = VMAF_OUTPUT_FORMAT_JSON; break;
        case OPT_CSV: s->fmt = VMAF_OUTPUT_FORMAT_CSV; break;
        case OPT_SUB: s->fmt = VMAF_OUTPUT_FORMAT_SUB; break;
        case OPT_PRECISION: parse_precision(s, optarg); break;
        case OPT_THREADS: s->threads = parse_unsigned(optarg, "--threads"); break;
        case OPT_FRAME_CNT: s->frame_cnt = parse_unsigned(optarg, "--frame_cnt"); break;
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
        case OPT_HELP: printf(usage_text, argv0); finish(0);
        case OPT_LIST: {
            enum LockstepBackend b;
            const char *name;
            for (unsigned i = 0; (name = lockstep_extractor_name(i, &b)); i++)
                printf("%s %s\n", name, lockstep_backend_name(b));
            finish(0);
        }
        case ':': usage_error("Option %s needs a value", argv[optind - 1]); break;
        default: usage_error("Unknown option: %s", argv[optind - 1]); break;
        }
    }
    if (optind < argc)
        usage_error("Unexpected argument: %s", argv[optind]);
    if (!s->ref_path)
        usage_error("%s", "Reference .y4m or .yuv (-r/--reference) is required");
    if (!s->dist_path)
        usage_error("%s", "Distorted .y4m or .yuv (-d/--distorted) is required");
    if (!strcmp(s->ref_path, "-") && !strcmp(s->dist_path, "-"))
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
    }
    for (unsigned i = 0; i < s->n_models; i++)
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(s->model[i].name, s->model[j].name))
                usage_error("%s", "Each model should be uniquely named. Set using --model via the "
                                  "name=... param.");
    if (!s->n_features && !s->n_models)
        usage_error("%s", "Nothing to compute with -n/--no_prediction: add --feature NAME (e.g. "
                          "--feature psnr) or a model (-m)");
    return CLI_PARSE_RUN;
}

