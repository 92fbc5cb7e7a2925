/* The HTML report's writer (tools/report_html.c) on scores imported into a context, no video:
 * 100,000 frames (every plot in HTML_PLOT_WIDTH buckets, the worst frames found among all of
 * them, the page's size), five frames (a point per frame, frames without a finite value, a
 * constant series, one finite point, escaping), and a path it cannot write. Leaves big.html,
 * big.json, small.html and small.json in the work folder: tests/report_test.py checks them in a
 * browser and against the JSON. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_parse.h"
#include "report_html.h"
#include "test_support.h"

static char work[1024];

static const char *work_path(const char *name)
{
    static char buf[4][1200];
    static unsigned next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof(buf[0]), "%s/%s", work, name);
    return p;
}

/* The value of attribute `name` in the element starting at `el`, into buf. */
static const char *attr(const char *el, const char *name, char *buf, size_t len)
{
    char key[64];
    snprintf(key, sizeof(key), " %s=\"", name);
    const char *end = strchr(el, '>');
    const char *a = strstr(el, key);
    buf[0] = '\0';
    if (!a || (end && a > end))
        return buf;
    a += strlen(key);
    const char *q = strchr(a, '"');
    size_t n = q ? (size_t)(q - a) : 0;
    if (n >= len)
        n = len - 1;
    memcpy(buf, a, n);
    buf[n] = '\0';
    return buf;
}

/* The plot of a metric: its <svg ...> element, or NULL. */
static const char *plot_of(const char *page, const char *metric)
{
    char key[128];
    snprintf(key, sizeof(key), "<svg class=\"plot\" viewBox=\"0 0 1006 224\" role=\"img\" "
             "data-metric=\"%s\"", metric);
    return strstr(page, key);
}

/* Points of the element's points attribute: pairs of plain numbers only (no nan, no inf). */
static long count_points(const char *el, const char *cls)
{
    char key[64];
    snprintf(key, sizeof(key), "<%s class=\"line\" points=\"", cls);
    if (strcmp(cls, "polyline"))
        snprintf(key, sizeof(key), "<polygon class=\"band\" points=\"");
    const char *p = strstr(el, key);
    const char *svg_end = strstr(el, "</svg>");
    if (!p || p > svg_end)
        return -1;
    p += strlen(key);
    long n = 0;
    for (; *p != '"'; p++) {
        if (!strchr("0123456789.,- ", *p))
            return -2;
        n += *p == ',';
    }
    return n;
}

/* Whether the work folder holds no temporary file (core/report_file.c's .NAME.lockstep-XXXXXX):
 * the writer makes none itself. */
static int no_temporary_files(void)
{
    DIR *d = opendir(work);
    int none = d != NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".lockstep-"))
            none = 0;
    if (d)
        closedir(d);
    return none;
}

static VmafContext *new_context(void)
{
    VmafContext *ctx = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
    CHECK(vmaf_init(&ctx, cfg) == 0, "vmaf_init");
    return ctx;
}

static void big_report(void)
{
    enum { N = 100000 };
    VmafContext *ctx = new_context();
    uint32_t seed = 12345;
    for (unsigned i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        const double noise = (double)(seed >> 8) / (double)(1u << 24);
        double vmaf = 80.0 + 10.0 * sin(i / 5000.0) + 4.0 * noise;
        if (i == 77777)
            vmaf = 12.5;
        if (i == 3 || i == 99999)
            vmaf = 20.25; /* a tie: the earlier frame ranks first */
        CHECK(!vmaf_import_feature_score(ctx, "vmaf", vmaf, i), "import");
        CHECK(!vmaf_import_feature_score(ctx, "psnr_y", 30.0 + 8.0 * noise, i), "import");
        CHECK(!vmaf_import_feature_score(ctx, "float_ssim", 0.9 + 0.09 * noise, i), "import");
        CHECK(!vmaf_import_feature_score(ctx, "VMAF_integer_feature_motion2_score", 5.0 * noise, i),
              "import");
    }
    char *argv[] = { "lockstep", "-r", "ref.y4m", "-d", "dist.mp4", "-m", "version=vmaf_v0.6.1",
                     "--feature", "psnr", "--html", "big.html", NULL };
    CliSettings s;
    optind = 0; /* getopt starts afresh */
    {
        char perr[512];
        CHECK(cli_parse(11, argv, &s, false, perr, sizeof(perr)) == CLI_PARSE_OK, "parse");
    }
    const LsVideoInfo ref = { .w = 1920, .h = 1080, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P,
                              .source = "Y4M C420jpeg", .fps_num = 25, .fps_den = 1 };
    const LsVideoInfo dist = { .w = 1920, .h = 1080, .bpc = 8, .fmt = VMAF_PIX_FMT_YUV420P,
                               .source = "mov,mp4,m4a,3gp,3g2,mj2, h264 video (decoder h264), yuv420p" };
    const HtmlRun run = { ctx, N, &s, &ref, &dist, 11, argv, 12.5 };
    char err[512] = "";
    const char *path = work_path("big.html");
    CHECK(html_report_write(&run, path, err, sizeof(err)) == 0, "write big.html: %s", err);
    CHECK(vmaf_write_output_with_format(ctx, work_path("big.json"), VMAF_OUTPUT_FORMAT_JSON,
                                        "%.17g") == 0, "big.json");
    char *page = read_file(path);
    CHECK(page != NULL, "read %s", path);
    if (page) {
        struct stat st;
        stat(path, &st);
        /* readable: the page stays small whatever the frame count (about 80 KB a plot) */
        CHECK(st.st_size < 1500000, "100,000 frames: page of %lld bytes", (long long)st.st_size);
        printf("100,000 frames, 4 metrics: %lld bytes\n", (long long)st.st_size);
        static const char *const metrics[] = { "vmaf", "psnr_y", "float_ssim", "integer_motion2" };
        for (unsigned m = 0; m < 4; m++) {
            const char *svg = plot_of(page, metrics[m]);
            char v[64];
            CHECK(svg != NULL, "plot of %s", metrics[m]);
            if (!svg)
                continue;
            CHECK(!strcmp(attr(svg, "data-mode", v, sizeof(v)), "bucket"), "%s: mode %s", metrics[m], v);
            CHECK(atoi(attr(svg, "data-points", v, sizeof(v))) == HTML_PLOT_WIDTH, "%s: %s points",
                  metrics[m], v);
            CHECK(atoi(attr(svg, "data-frames", v, sizeof(v))) == N, "%s: %s frames", metrics[m], v);
            CHECK(count_points(svg, "polyline") == HTML_PLOT_WIDTH, "%s: line of %ld points",
                  metrics[m], count_points(svg, "polyline"));
            CHECK(count_points(svg, "polygon") == 2 * HTML_PLOT_WIDTH, "%s: band of %ld points",
                  metrics[m], count_points(svg, "polygon"));
        }
        /* the plot's first bucket holds frames 0..106 (100000 / 930 = 107.5 a bucket), whose
         * minimum is frame 3; the worst frames come from every frame */
        const char *svg = plot_of(page, "vmaf");
        char v[64];
        CHECK(svg && !strncmp(attr(svg, "data-argmin", v, sizeof(v)), "3,", 2), "argmin %s", v);
        CHECK(svg && !strncmp(attr(svg, "data-min", v, sizeof(v)), "20.250000,", 10), "min %s", v);
        const char *worst = strstr(page, "<table class=\"worst\" data-metric=\"vmaf\">");
        CHECK(worst != NULL, "worst frames of vmaf");
        CHECK(worst && strstr(worst, "<tr><td>1</td><td class=\"frame\">77777</td><td class=\"num\">"
                                     "12.500000</td></tr>\n<tr><td>2</td><td class=\"frame\">3</td>"
                                     "<td class=\"num\">20.250000</td></tr>\n<tr><td>3</td><td "
                                     "class=\"frame\">99999</td><td class=\"num\">20.250000</td>"),
              "worst frames: 77777, 3, 99999");
        /* with a model, only the model's worst frames are listed */
        CHECK(!strstr(page, "<table class=\"worst\" data-metric=\"psnr_y\">"), "no psnr table");
        CHECK(strstr(page, "<td>dist.mp4</td>") == NULL && strstr(page, "<code>dist.mp4</code>"),
              "inputs: the distorted path");
        CHECK(strstr(page, "mov,mp4,m4a,3gp,3g2,mj2, h264 video (decoder h264), yuv420p") != NULL,
              "inputs: how the distorted video was read");
        free(page);
    }
    vmaf_close(ctx);
}

static void small_report(void)
{
    VmafContext *ctx = new_context();
    const double vmaf[5] = { 90.5, 91.25, NAN, 89.0, INFINITY };
    for (unsigned i = 0; i < 5; i++) {
        vmaf_import_feature_score(ctx, "vmaf", vmaf[i], i);
        vmaf_import_feature_score(ctx, "psnr_y", 40.0, i);            /* constant */
        vmaf_import_feature_score(ctx, "float_ssim", i == 1 ? 0.95 : NAN, i); /* one finite */
    }
    char *argv[] = { "lockstep", "-r", "ref.y4m", "-d", "a<b>&\"c'.y4m", "--precision", "max",
                     "--html", "small.html", NULL };
    CliSettings s;
    optind = 0;
    {
        char perr[512];
        CHECK(cli_parse(9, argv, &s, false, perr, sizeof(perr)) == CLI_PARSE_OK, "parse");
    }
    const LsVideoInfo info = { .w = 64, .h = 48, .bpc = 10, .fmt = VMAF_PIX_FMT_YUV444P,
                               .source = "Y4M C444p10" };
    const HtmlRun run = { ctx, 5, &s, &info, &info, 9, argv, 0.5 };
    char err[512] = "";
    CHECK(html_report_write(&run, work_path("small.html"), err, sizeof(err)) == 0, "small: %s", err);
    CHECK(vmaf_write_output_with_format(ctx, work_path("small.json"), VMAF_OUTPUT_FORMAT_JSON,
                                        "%.17g") == 0, "small.json");
    char *page = read_file(work_path("small.html"));
    CHECK(page != NULL, "read small.html");
    if (page) {
        char v[64];
        const char *svg = plot_of(page, "vmaf");
        CHECK(svg && !strcmp(attr(svg, "data-mode", v, sizeof(v)), "frame"), "mode %s", v);
        CHECK(svg && !strcmp(attr(svg, "data-f", v, sizeof(v)), "0,1,3"), "frames %s", v);
        CHECK(svg && !strcmp(attr(svg, "data-v", v, sizeof(v)), "90.5,91.25,89"), "values %s", v);
        CHECK(svg && count_points(svg, "polyline") == 3, "3 points: %ld", count_points(svg, "polyline"));
        CHECK(strstr(page, "vmaf <span class=\"note\">(2 frames without a finite value, not drawn)") != NULL,
              "the frames not drawn are said");
        const char *flat = plot_of(page, "psnr_y");
        CHECK(flat && count_points(flat, "polyline") == 5, "a constant series is drawn");
        const char *one = plot_of(page, "float_ssim");
        CHECK(one && count_points(one, "polyline") == 1 && strstr(one, "<circle class=\"dot\""),
              "a single finite value is a dot");
        const char *worst = strstr(page, "<table class=\"worst\" data-metric=\"vmaf\">");
        CHECK(worst && strstr(worst, "<tr><td>3</td><td class=\"frame\">1</td><td class=\"num\">91.25"
                                     "</td></tr>\n</table>"),
              "worst frames: the finite values only");
        CHECK(strstr(page, "<tr data-metric=\"vmaf\"><td>vmaf</td><td class=\"num\">89</td>"
                           "<td class=\"num\">n/a</td>") != NULL, "pooled: min 89, max n/a (inf)");
        CHECK(strstr(page, "<title>lockstep: a&lt;b&gt;&amp;&quot;c&#39;.y4m</title>") != NULL &&
                  !strstr(page, "a<b>"),
              "the file name is escaped");
        CHECK(!strstr(page, "nan") && !strstr(page, "inf\""), "no nan or inf written");
        free(page);
    }
    /* a path it cannot write: an error, and no file */
    const char *bad = work_path("no/such/dir/r.html");
    const int r = html_report_write(&run, bad, err, sizeof(err));
    CHECK(r == -ENOENT && strstr(err, "could not open file: ") && strstr(err, "No such file"),
          "unwritable path: %d %s", r, err);
    /* a folder at path: an error, and the folder as it was (the run's temporary file and its
     * rename are core/report_file.c's, checked through the CLI in cli_test.py) */
    const char *folder = work_path("folder.html");
    mkdir(folder, 0755);
    const int r2 = html_report_write(&run, folder, err, sizeof(err));
    struct stat st;
    CHECK(r2 == -EISDIR && strstr(err, "could not open file: ") && stat(folder, &st) == 0 &&
              S_ISDIR(st.st_mode),
          "path is a folder: %d %s", r2, err);
    CHECK(no_temporary_files(), "no temporary file left in %s", work);
    vmaf_close(ctx);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s WORK_DIR\n", argv[0]);
        return 2;
    }
    snprintf(work, sizeof(work), "%s", argv[1]);
    mkdir(work, 0755);
    big_report();
    small_report();
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("report_html: all checks passed\n");
    return failures ? 1 : 0;
}
