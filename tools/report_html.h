/* --html FILE: one self-contained HTML page of a run (no network, no external scripts): the
 * inputs and settings, the pooled scores (the JSON report's numbers, in its format), the worst
 * frames of each model over every frame, and a per-frame SVG plot of every metric, drawn here.
 * Plots of more frames than their width can show are drawn per bucket of frames (minimum to
 * maximum as a band, the mean as a line); the tables are never decimated. */
#ifndef LOCKSTEP_TOOLS_REPORT_HTML_H
#define LOCKSTEP_TOOLS_REPORT_HTML_H

#include <stddef.h>

#include "cli_parse.h"
#include "input/input.h"
#include "lockstep/lockstep.h"

/* plot data area in SVG units; frames up to twice the width are drawn one point each */
#define HTML_PLOT_WIDTH 930
#define HTML_WORST_FRAMES 10

typedef struct HtmlRun {
    VmafContext *ctx;          /* flushed, the models' per-frame scores stored (scored) */
    unsigned n_frames;
    const CliSettings *s;
    const LsVideoInfo *ref, *dist;
    int argc;
    char **argv;
    double seconds;            /* wall time of reading and scoring */
} HtmlRun;

/* Writes the page to path ("-": stdout), as it is: a run writes it to a temporary file
 * (core/report_file.h). On failure returns a negative errno and describes the problem in err. */
int html_report_write(const HtmlRun *run, const char *path, char *err, size_t err_len);

#endif
