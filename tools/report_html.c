/* The HTML report (report_html.h). Numbers in the tables are formatted by the report writers'
 * own function (ls_format_score), so that they read exactly as in the JSON report of the same
 * run; the plots are SVG written here, and a short inline script only adds the values under
 * the pointer. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/output.h"
#include "report_html.h"

/* SVG geometry of a plot: the data area and its margins (axis labels) */
#define PLOT_LEFT 64.0
#define PLOT_TOP 12.0
#define PLOT_HEIGHT 180.0
#define SVG_WIDTH (PLOT_LEFT + HTML_PLOT_WIDTH + 12.0)
#define SVG_HEIGHT (PLOT_TOP + PLOT_HEIGHT + 32.0)

/* One metric's per-frame values, frames in order (subsampled frames and frames without a value
 * are absent). */
typedef struct Series {
    const char *name;      /* as the collector holds it */
    const char *label;     /* as reports show it (libvmaf's alias) */
    unsigned n;
    unsigned *frame;
    double *value;
} Series;

static void esc(FILE *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default: fputc(*s, o);
        }
    }
}

/* A score as the JSON report writes it; its null is "n/a" here. */
static const char *score_text(char *buf, size_t len, const char *fmt, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "n/a");
    else
        ls_format_score(buf, len, fmt, v);
    return buf;
}

/* The frames the JSON report lists: with --subsample N every N-th (a temporal extractor may
 * have scored the others). */
static int load_series(VmafContext *ctx, unsigned f, unsigned n_frames, unsigned subsample,
                       Series *s)
{
    s->name = lockstep_feature_name(ctx, f);
    s->label = lockstep_output_name(s->name);
    s->frame = malloc((size_t)(n_frames ? n_frames : 1) * sizeof(*s->frame));
    s->value = malloc((size_t)(n_frames ? n_frames : 1) * sizeof(*s->value));
    if (!s->frame || !s->value)
        return -ENOMEM;
    s->n = 0;
    for (unsigned i = 0; i < n_frames; i++) {
        double v;
        if ((subsample > 1 && i % subsample) || vmaf_feature_score_at_index(ctx, s->name, &v, i))
            continue;
        s->frame[s->n] = i;
        s->value[s->n] = v;
        s->n++;
    }
    return 0;
}

static bool is_model(const CliSettings *st, const char *name)
{
    for (unsigned m = 0; m < st->n_models; m++)
        if (!strcmp(st->model[m].name, name))
            return true;
    return false;
}

/* The per-frame scores of a bootstrap collection's members (<model>_0001 ...): in the pooled
 * table, not plotted (their summary, <model>_bagging and the interval, is). */
static bool is_bootstrap_member(const CliSettings *st, const char *name)
{
    for (unsigned m = 0; m < st->n_models; m++) {
        const size_t k = strlen(st->model[m].name);
        if (!strncmp(name, st->model[m].name, k) && name[k] == '_' && strlen(name + k + 1) == 4 &&
            strspn(name + k + 1, "0123456789") == 4)
            return true;
    }
    return false;
}

/* Which way a metric gets worse: -1 lower is worse, +1 higher is worse, 0 not a quality
 * (motion measures the content). */
static int worse_direction(const char *label)
{
    if (strstr(label, "motion"))
        return 0;
    if (!strncmp(label, "cambi", 5) || !strncmp(label, "speed_", 6) || !strncmp(label, "mse", 3))
        return 1;
    return -1;
}

typedef struct Ranked {
    double v;
    unsigned frame;
} Ranked;

static int rank_ascending(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->frame < y->frame ? -1 : x->frame > y->frame;
}

static void write_worst(FILE *o, const Series *s, int direction, const char *fmt)
{
    Ranked *r = malloc((size_t)(s->n ? s->n : 1) * sizeof(*r));
    if (!r)
        return;
    unsigned n = 0;
    for (unsigned i = 0; i < s->n; i++)
        if (isfinite(s->value[i]))
            r[n++] = (Ranked){ direction > 0 ? -s->value[i] : s->value[i], s->frame[i] };
    qsort(r, n, sizeof(*r), rank_ascending);
    const unsigned shown = n < HTML_WORST_FRAMES ? n : HTML_WORST_FRAMES;
    fprintf(o, "<table class=\"worst\" data-metric=\"");
    esc(o, s->label);
    fprintf(o, "\"><caption>");
    esc(o, s->label);
    fprintf(o, " (%s is worse)</caption>\n<tr><th>rank</th><th>frame</th><th>score</th></tr>\n",
            direction > 0 ? "higher" : "lower");
    char v[64];
    for (unsigned i = 0; i < shown; i++)
        fprintf(o, "<tr><td>%u</td><td class=\"frame\">%u</td><td class=\"num\">%s</td></tr>\n",
                i + 1, r[i].frame, score_text(v, sizeof(v), fmt, direction > 0 ? -r[i].v : r[i].v));
    fprintf(o, "</table>\n");
    free(r);
}

static double nice_step(double range, unsigned ticks)
{
    const double raw = range / ticks;
    const double mag = pow(10.0, floor(log10(raw)));
    const double r = raw / mag;
    return (r <= 1.0 ? 1.0 : r <= 2.0 ? 2.0 : r <= 5.0 ? 5.0 : 10.0) * mag;
}

typedef struct Axes {
    double lo, hi;         /* value range of the data area, bottom to top */
    double x_scale;        /* SVG units per frame */
} Axes;

static double plot_y(const Axes *a, double v)
{
    return PLOT_TOP + (a->hi - v) * (PLOT_HEIGHT / (a->hi - a->lo));
}

static double plot_x(const Axes *a, double frame)
{
    return PLOT_LEFT + frame * a->x_scale;
}

static void write_axes(FILE *o, const Axes *a, double step, unsigned n_frames)
{
    fprintf(o, "<rect class=\"area\" x=\"%.2f\" y=\"%.2f\" width=\"%d\" height=\"%.2f\"/>\n",
            PLOT_LEFT, PLOT_TOP, HTML_PLOT_WIDTH, PLOT_HEIGHT);
    const long k0 = lround(a->lo / step), k1 = lround(a->hi / step);
    for (long k = k0; k <= k1; k++) {
        const double t = (double)k * step, y = plot_y(a, t);
        fprintf(o, "<line class=\"grid\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\"/>"
                "<text class=\"ylab\" x=\"%.2f\" y=\"%.2f\">%.6g</text>\n",
                PLOT_LEFT, PLOT_LEFT + HTML_PLOT_WIDTH, y, y, PLOT_LEFT - 6, y + 4,
                t == 0 ? 0.0 : t);
    }
    const double last = n_frames > 1 ? n_frames - 1 : 1;
    double xstep = nice_step(last, 8);
    if (xstep < 1)
        xstep = 1;
    for (double f = 0; f <= last + 0.5; f += xstep) {
        const double x = plot_x(a, f);
        fprintf(o, "<line class=\"tick\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\"/>"
                "<text class=\"xlab\" x=\"%.2f\" y=\"%.2f\">%.0f</text>\n",
                x, x, PLOT_TOP + PLOT_HEIGHT, PLOT_TOP + PLOT_HEIGHT + 5, x,
                PLOT_TOP + PLOT_HEIGHT + 18, f);
    }
    fprintf(o, "<text class=\"xname\" x=\"%.2f\" y=\"%.2f\">frame</text>\n",
            PLOT_LEFT + HTML_PLOT_WIDTH, SVG_HEIGHT - 2);
}

/* A comma-separated attribute of one number per point. */
static void write_list_u(FILE *o, const char *attr, const unsigned *v, unsigned n)
{
    fprintf(o, " %s=\"", attr);
    for (unsigned i = 0; i < n; i++)
        fprintf(o, i ? ",%u" : "%u", v[i]);
    fputc('"', o);
}

static void write_list_d(FILE *o, const char *attr, const double *v, unsigned n, const char *fmt)
{
    char t[64];
    fprintf(o, " %s=\"", attr);
    for (unsigned i = 0; i < n; i++)
        fprintf(o, i ? ",%s" : "%s", score_text(t, sizeof(t), fmt, v[i]));
    fputc('"', o);
}

/* Plots a series: finite values only, one point per frame when they fit twice the width, else
 * HTML_PLOT_WIDTH buckets of consecutive points (each bucket: mean line, min-max band, the
 * frame of its minimum for the tooltip). */
static int write_plot(FILE *o, const Series *s, unsigned n_frames, const char *fmt)
{
    unsigned *frame = malloc((size_t)(s->n ? s->n : 1) * sizeof(*frame));
    double *value = malloc((size_t)(s->n ? s->n : 1) * sizeof(*value));
    if (!frame || !value) {
        free(frame);
        free(value);
        return -ENOMEM;
    }
    unsigned n = 0;
    double min = INFINITY, max = -INFINITY;
    for (unsigned i = 0; i < s->n; i++) {
        if (!isfinite(s->value[i]))
            continue;
        frame[n] = s->frame[i];
        value[n] = s->value[i];
        if (value[n] < min)
            min = value[n];
        if (value[n] > max)
            max = value[n];
        n++;
    }
    fprintf(o, "<figure class=\"plot\"><figcaption>");
    esc(o, s->label);
    if (n < s->n)
        fprintf(o, " <span class=\"note\">(%u frame%s without a finite value, not drawn)</span>",
                s->n - n, s->n - n == 1 ? "" : "s");
    fprintf(o, "</figcaption>\n");
    if (!n) {
        fprintf(o, "<p class=\"note\">no finite values to plot</p></figure>\n");
        free(frame);
        free(value);
        return 0;
    }
    const bool bucketed = n > 2 * HTML_PLOT_WIDTH;
    const unsigned points = bucketed ? HTML_PLOT_WIDTH : n;
    unsigned *first = bucketed ? malloc(points * sizeof(*first)) : frame;
    unsigned *last = bucketed ? malloc(points * sizeof(*last)) : NULL;
    unsigned *argmin = bucketed ? malloc(points * sizeof(*argmin)) : NULL;
    double *mean = bucketed ? malloc(points * sizeof(*mean)) : value;
    double *bmin = bucketed ? malloc(points * sizeof(*bmin)) : NULL;
    double *bmax = bucketed ? malloc(points * sizeof(*bmax)) : NULL;
    int ret = 0;
    if (bucketed && (!first || !last || !argmin || !mean || !bmin || !bmax)) {
        ret = -ENOMEM;
        goto done;
    }
    for (unsigned k = 0; bucketed && k < points; k++) {
        /* bucket k: points [k n / B, (k + 1) n / B), never empty since n > B */
        const unsigned a = (unsigned)((uint64_t)k * n / points);
        const unsigned b = (unsigned)((uint64_t)(k + 1) * n / points);
        double sum = 0;
        first[k] = frame[a];
        last[k] = frame[b - 1];
        bmin[k] = bmax[k] = value[a];
        argmin[k] = frame[a];
        for (unsigned i = a; i < b; i++) {
            sum += value[i];
            if (value[i] < bmin[k]) {
                bmin[k] = value[i];
                argmin[k] = frame[i];
            }
            if (value[i] > bmax[k])
                bmax[k] = value[i];
        }
        mean[k] = sum / (double)(b - a);
    }

    double range = max - min;
    if (range <= 0)
        range = fabs(min) > 0 ? fabs(min) * 0.1 : 1.0;
    const double step = nice_step(range, 5);
    Axes axes = { floor(min / step) * step, ceil(max / step) * step, 0 };
    if (axes.hi <= axes.lo)
        axes.hi = axes.lo + step;
    axes.x_scale = HTML_PLOT_WIDTH / (n_frames > 1 ? (double)(n_frames - 1) : 1.0);

    fprintf(o, "<svg class=\"plot\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" data-metric=\"",
            SVG_WIDTH, SVG_HEIGHT);
    esc(o, s->label);
    fprintf(o, "\" data-mode=\"%s\" data-points=\"%u\" data-frames=\"%u\" data-lo=\"%.17g\" "
            "data-hi=\"%.17g\" data-top=\"%.17g\" data-height=\"%.17g\" data-left=\"%.17g\" "
            "data-scale=\"%.17g\"", bucketed ? "bucket" : "frame", points, n, axes.lo, axes.hi,
            PLOT_TOP, PLOT_HEIGHT, PLOT_LEFT, axes.x_scale);
    write_list_u(o, "data-f", first, points);
    write_list_d(o, "data-v", mean, points, fmt);
    if (bucketed) {
        write_list_u(o, "data-l", last, points);
        write_list_d(o, "data-min", bmin, points, fmt);
        write_list_d(o, "data-max", bmax, points, fmt);
        write_list_u(o, "data-argmin", argmin, points);
    }
    fprintf(o, ">\n");
    write_axes(o, &axes, step, n_frames);
    if (bucketed) {
        fprintf(o, "<polygon class=\"band\" points=\"");
        for (unsigned k = 0; k < points; k++)
            fprintf(o, "%.2f,%.2f ", plot_x(&axes, (first[k] + (double)last[k]) / 2),
                    plot_y(&axes, bmax[k]));
        for (unsigned k = points; k-- > 0;)
            fprintf(o, "%.2f,%.2f ", plot_x(&axes, (first[k] + (double)last[k]) / 2),
                    plot_y(&axes, bmin[k]));
        fprintf(o, "\"/>\n");
    }
    fprintf(o, "<polyline class=\"line\" points=\"");
    for (unsigned k = 0; k < points; k++) {
        const double x = bucketed ? (first[k] + (double)last[k]) / 2 : frame[k];
        fprintf(o, "%s%.2f,%.2f", k ? " " : "", plot_x(&axes, x), plot_y(&axes, mean[k]));
    }
    fprintf(o, "\"/>\n");
    if (n == 1)
        fprintf(o, "<circle class=\"dot\" cx=\"%.2f\" cy=\"%.2f\" r=\"3\"/>\n",
                plot_x(&axes, frame[0]), plot_y(&axes, value[0]));
    fprintf(o, "<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"%.2f\" y2=\"%.2f\" "
            "visibility=\"hidden\"/>\n</svg>\n", PLOT_TOP, PLOT_TOP + PLOT_HEIGHT);
    if (bucketed)
        fprintf(o, "<p class=\"note\">%u frames in %u buckets of %u to %u: the line is each "
                "bucket's mean, the band its minimum to maximum.</p>\n", n, points, n / points,
                (n + points - 1) / points);
    fprintf(o, "</figure>\n");
done:
    if (bucketed) {
        free(first);
        free(last);
        free(argmin);
        free(mean);
        free(bmin);
        free(bmax);
    }
    free(frame);
    free(value);
    return ret;
}

static const char style[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "margin:24px auto;max-width:1040px;padding:0 16px;color:#1b1f24;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}"
    "h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d8dde3}"
    "table{border-collapse:collapse;margin:6px 0 12px}"
    "td,th{padding:3px 10px;border-bottom:1px solid #eceff2;"
    "text-align:left;vertical-align:top}th{background:#f4f6f8;font-weight:600}"
    "td.num,td.frame{text-align:right;font-variant-numeric:tabular-nums;font-family:ui-monospace,"
    "'DejaVu Sans Mono',monospace}caption{text-align:left;font-weight:600;padding:2px 0}"
    "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px;"
    "word-break:break-all}"
    ".headline{font-size:28px;font-weight:600;margin:10px 0}.note{color:#57606a;font-size:12px}"
    ".worstgrid{display:flex;flex-wrap:wrap;gap:24px}"
    "figure.plot{margin:10px 0 18px}figcaption{font-weight:600}"
    "svg.plot{width:100%;height:auto;display:block}"
    "svg .area{fill:#fbfcfd;stroke:#c9d1d9}svg .grid{stroke:#e6eaee}svg .tick{stroke:#8c959f}"
    "svg text{font-size:11px;fill:#57606a}svg .ylab{text-anchor:end}svg .xlab{text-anchor:middle}"
    "svg .xname{text-anchor:end}svg .line{fill:none;stroke:#0969da;stroke-width:1.2}"
    "svg .band{fill:#0969da;fill-opacity:.18;stroke:#0969da;stroke-opacity:.35;stroke-width:.6}"
    "svg .dot{fill:#0969da}"
    "svg .cursor{stroke:#cf222e;stroke-width:1}"
    "#tip{position:fixed;display:none;pointer-events:none;background:#1b1f24;color:#fff;"
    "padding:4px 8px;border-radius:4px;font-size:12px;white-space:nowrap}";

/* Shows the values under the pointer; #selftest hovers the middle point of each plot and
 * records what the tooltip said (the report's browser test reads it back). */
static const char script[] =
    "(function(){'use strict';\n"
    "var tip=document.getElementById('tip');\n"
    "function list(s){return s?s.split(','):[];}\n"
    "var plots=document.querySelectorAll('svg.plot');\n"
    "plots.forEach(function(svg){\n"
    " var d=svg.dataset,bucket=d.mode==='bucket',f=list(d.f),l=list(d.l),v=list(d.v),\n"
    "  mn=list(d.min),mx=list(d.max),am=list(d.argmin),left=+d.left,scale=+d.scale;\n"
    " var xs=f.map(function(a,i){return left+scale*(bucket?(+a + +l[i])/2:+a);});\n"
    " var cursor=svg.querySelector('.cursor');\n"
    " function text(i){return d.metric+' \\u2014 '+\n"
    "  (bucket?'frames '+f[i]+'\\u2013'+l[i]+': mean '+v[i]+\n"
    "  ', min '+mn[i]+' (frame '+am[i]+'), max '+mx[i]:'frame '+f[i]+': '+v[i]);}\n"
    " function nearest(x){var a=0,b=xs.length-1;\n"
    "  while(b-a>1){var m=(a+b)>>1;if(xs[m]<x)a=m;else b=m;}\n"
    "  return Math.abs(xs[a]-x)<=Math.abs(xs[b]-x)?a:b;}\n"
    " function show(cx,cy){var m=svg.getScreenCTM();if(!m||!xs.length)return '';\n"
    "  var p=svg.createSVGPoint();p.x=cx;p.y=cy;p=p.matrixTransform(m.inverse());\n"
    "  var i=nearest(p.x);cursor.setAttribute('x1',xs[i]);cursor.setAttribute('x2',xs[i]);\n"
    "  cursor.setAttribute('visibility','visible');tip.textContent=text(i);\n"
    "  tip.style.display='block';\n"
    "  tip.style.left=Math.min(cx+14,window.innerWidth-tip.offsetWidth-4)+'px';\n"
    "  tip.style.top=(cy+14)+'px';\n"
    "  return tip.textContent;}\n"
    " svg.addEventListener('mousemove',function(e){show(e.clientX,e.clientY);});\n"
    " svg.addEventListener('mouseleave',function(){tip.style.display='none';\n"
    "  cursor.setAttribute('visibility','hidden');});\n"
    " if(location.hash==='#selftest'&&xs.length){\n"
    "  var k=xs.length>>1,m=svg.getScreenCTM(),p=svg.createSVGPoint();\n"
    "  p.x=xs[k];p.y=+d.top+ +d.height/2;p=p.matrixTransform(m);d.selftest=k+'|'+show(p.x,p.y);}\n"
    "});\n"
    "document.body.dataset.plots=String(plots.length);\n"
    "})();\n";

static const char *format_name(enum VmafPixelFormat f)
{
    switch (f) {
    case VMAF_PIX_FMT_YUV420P: return "4:2:0";
    case VMAF_PIX_FMT_YUV422P: return "4:2:2";
    case VMAF_PIX_FMT_YUV444P: return "4:4:4";
    case VMAF_PIX_FMT_YUV400P: return "4:0:0 (luma only)";
    default: return "?";
    }
}

static void write_input_row(FILE *o, const char *role, const char *path, const LsVideoInfo *i)
{
    fprintf(o, "<tr><td>%s</td><td><code>", role);
    esc(o, path);
    fprintf(o, "</code></td><td>");
    esc(o, i->source);
    fprintf(o, "</td><td>%ux%u</td><td>%s</td><td>%u-bit</td><td>", i->w, i->h,
            format_name(i->fmt), i->bpc);
    if (i->fps_num && i->fps_den)
        fprintf(o, "%.3f", (double)i->fps_num / i->fps_den);
    else
        fprintf(o, "&ndash;");
    fprintf(o, "</td></tr>\n");
}

static void setting(FILE *o, const char *name, const char *value)
{
    fprintf(o, "<tr><th>%s</th><td>", name);
    esc(o, value);
    fprintf(o, "</td></tr>\n");
}

static void write_settings(FILE *o, const HtmlRun *run)
{
    const CliSettings *s = run->s;
    char buf[2048];
    fprintf(o, "<table class=\"settings\">\n<tr><th>command</th><td><code>");
    for (int i = 0; i < run->argc; i++) {
        if (i)
            fputc(' ', o);
        esc(o, run->argv[i]);
    }
    fprintf(o, "</code></td></tr>\n");
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned m = 0; m < s->n_models && used < sizeof(buf); m++)
        used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s (%s)", m ? ", " : "",
                                 s->model[m].version ? s->model[m].version : s->model[m].path,
                                 s->model[m].name);
    setting(o, "models", s->n_models ? buf : s->no_prediction ? "none (-n)" : "none");
    used = 0;
    buf[0] = '\0';
    for (unsigned f = 0; f < s->n_features && used < sizeof(buf); f++)
        used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", f ? ", " : "",
                                 s->feature[f].arg);
    setting(o, "features added", s->n_features ? buf : "none (the models' own)");
    snprintf(buf, sizeof(buf), "%u%s", s->threads,
             s->threads ? "" : " (frames in the calling thread)");
    setting(o, "threads", buf);
    snprintf(buf, sizeof(buf), "%s", lockstep_backend_name(s->backend));
    setting(o, "backend", buf);
    if (s->subsample > 1) {
        snprintf(buf, sizeof(buf), "every %u-th frame scored", s->subsample);
        setting(o, "subsample", buf);
    }
    if (s->frame_cnt || s->skip_ref || s->skip_dist) {
        snprintf(buf, sizeof(buf), "at most %u, skipping %u reference and %u distorted frames",
                 s->frame_cnt, s->skip_ref, s->skip_dist);
        if (!s->frame_cnt)
            snprintf(buf, sizeof(buf), "all, skipping %u reference and %u distorted frames",
                     s->skip_ref, s->skip_dist);
        setting(o, "frames", buf);
    }
    if (s->cpumask) {
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)s->cpumask);
        setting(o, "cpumask", buf);
    }
    setting(o, "number format", s->score_format ? s->score_format : "libvmaf's (%.6f)");
    if (s->common_bitdepth)
        setting(o, "bit depth", "common: the lower-depth input shifted up");
    fprintf(o, "</table>\n");
}

/* The plots of the models' scores (models) or of everything else, in the report's order; a
 * bootstrap collection's members are left out. Returns whether there were members. */
static bool write_plots(FILE *o, const HtmlRun *run, const Series *series, unsigned n_series,
                        bool models)
{
    bool members = false;
    for (unsigned i = 0; i < n_series; i++) {
        if (is_bootstrap_member(run->s, series[i].name))
            members = true;
        else if (is_model(run->s, series[i].name) == models)
            write_plot(o, &series[i], run->n_frames, run->s->score_format);
    }
    return members;
}

static void write_page(FILE *o, const HtmlRun *run, Series *series, unsigned n_series)
{
    const CliSettings *s = run->s;
    const char *fmt = s->score_format;
    char v[64];
    fprintf(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>lockstep: ");
    esc(o, s->dist_path);
    fprintf(o, "</title>\n<style>%s</style></head>\n<body>\n<h1>lockstep report</h1>\n"
            "<p class=\"note\">%s, %u frame%s scored in %.2f s (%.2f frames/s)</p>\n",
            style, vmaf_version(), run->n_frames, run->n_frames == 1 ? "" : "s", run->seconds,
            run->seconds > 0 ? run->n_frames / run->seconds : 0.0);
    for (unsigned m = 0; m < s->n_models; m++) {
        double mean;
        if (vmaf_feature_score_pooled(run->ctx, s->model[m].name, VMAF_POOL_METHOD_MEAN, &mean, 0,
                                      run->n_frames - 1))
            continue;
        fprintf(o, "<p class=\"headline\">");
        esc(o, s->model[m].name);
        fprintf(o, " <span class=\"num\" data-metric=\"");
        esc(o, s->model[m].name);
        fprintf(o, "\">%s</span></p>\n", score_text(v, sizeof(v), fmt, mean));
    }

    /* the models' curves first, under their pooled score */
    write_plots(o, run, series, n_series, true);

    fprintf(o, "<h2>Inputs</h2>\n<table class=\"inputs\">\n"
            "<tr><th></th><th>file</th><th>read as</th>"
            "<th>size</th><th>chroma</th><th>depth</th><th>fps</th></tr>\n");
    write_input_row(o, "reference", s->ref_path, run->ref);
    write_input_row(o, "distorted", s->dist_path, run->dist);
    fprintf(o, "</table>\n<h2>Settings</h2>\n");
    write_settings(o, run);

    fprintf(o, "<h2>Pooled scores</h2>\n<table id=\"pooled\">\n<tr><th>metric</th><th>min</th>"
            "<th>max</th><th>mean</th><th>harmonic_mean</th></tr>\n");
    static const enum VmafPoolingMethod methods[] = { VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX,
                                                      VMAF_POOL_METHOD_MEAN,
                                                      VMAF_POOL_METHOD_HARMONIC_MEAN };
    for (unsigned i = 0; i < n_series; i++) {
        fprintf(o, "<tr data-metric=\"");
        esc(o, series[i].label);
        fprintf(o, "\"><td>");
        esc(o, series[i].label);
        fprintf(o, "</td>");
        for (unsigned m = 0; m < 4; m++) {
            double p;
            if (run->n_frames && !vmaf_feature_score_pooled(run->ctx, series[i].name, methods[m],
                                                            &p, 0, run->n_frames - 1))
                fprintf(o, "<td class=\"num\">%s</td>", score_text(v, sizeof(v), fmt, p));
            else
                fprintf(o, "<td class=\"num\"></td>");
        }
        fprintf(o, "</tr>\n");
    }
    fprintf(o, "</table>\n");
    /* the aggregates some extractors write at flush (psnr's enable_apsnr) */
    static const char *const aggregates[] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    bool any = false;
    for (unsigned a = 0; a < sizeof(aggregates) / sizeof(aggregates[0]); a++) {
        double p;
        if (lockstep_aggregate_score(run->ctx, aggregates[a], &p))
            continue;
        if (!any)
            fprintf(o, "<table id=\"aggregate\">\n<tr><th>aggregate</th><th>value</th></tr>\n");
        any = true;
        fprintf(o, "<tr data-metric=\"%s\"><td>%s</td><td class=\"num\">%s</td></tr>\n",
                aggregates[a], aggregates[a], score_text(v, sizeof(v), fmt, p));
    }
    if (any)
        fprintf(o, "</table>\n");

    /* the models' worst frames; without a model, every quality metric's */
    fprintf(o, "<h2>Worst frames</h2>\n<div class=\"worstgrid\">\n");
    for (unsigned i = 0; i < n_series; i++) {
        const int dir = s->n_models ? (is_model(s, series[i].name) ? -1 : 0)
                                    : worse_direction(series[i].label);
        if (dir)
            write_worst(o, &series[i], dir, fmt);
    }
    fprintf(o, "</div>\n<h2>Per-frame scores</h2>\n");
    if (write_plots(o, run, series, n_series, false))
        fprintf(o, "<p class=\"note\">The bootstrap models' own per-frame scores are in the "
                "pooled table and the JSON report; their summary is plotted above.</p>\n");
    fprintf(o, "<div id=\"tip\"></div>\n<script>\n%s</script>\n</body></html>\n", script);
}

/* The page goes straight to path: the run writes it to its report's temporary file
 * (core/report_file.h), renamed once the whole run's reports are written. */
int html_report_write(const HtmlRun *run, const char *path, char *err, size_t err_len)
{
    const unsigned n_series = lockstep_feature_count(run->ctx);
    Series *series = calloc(n_series ? n_series : 1, sizeof(*series));
    int ret = series ? 0 : -ENOMEM;
    for (unsigned f = 0; !ret && f < n_series; f++)
        ret = load_series(run->ctx, f, run->n_frames, run->s->subsample, &series[f]);
    const bool to_stdout = !strcmp(path, "-");
    FILE *o = NULL;
    if (ret) {
        snprintf(err, err_len, "out of memory writing the HTML report");
    } else if (!(o = to_stdout ? stdout : fopen(path, "w"))) {
        ret = -errno;
        snprintf(err, err_len, "could not open file: %s: %s", path, strerror(-ret));
    }
    if (o) {
        write_page(o, run, series, n_series);
        /* errno of the write that failed (ENOSPC, EFBIG...); fclose sets it when it fails */
        int reason = ferror(o) ? (errno ? errno : EIO) : 0;
        if (to_stdout ? fflush(o) : fclose(o))
            reason = errno ? errno : EIO;
        if (reason) {
            ret = -reason;
            snprintf(err, err_len, "could not write %s: %s", path, strerror(reason));
        }
    }
    for (unsigned f = 0; series && f < n_series; f++) {
        free(series[f].frame);
        free(series[f].value);
    }
    free(series);
    return ret;
}
