#!/usr/bin/env python3
"""The HTML report (--html) against the JSON report of the same run.

For CLI runs on fixtures (a model with psnr's aggregates, features alone with --subsample, a
bootstrap collection, a container input) and for the pages test_report_html wrote (100,000
frames, edge cases): every pooled number, every worst frame (recomputed from all the frames) and
every plotted point (its value and its place in the SVG; per bucket: first and last frame,
minimum, its frame, maximum, mean) must be the JSON report's. With --browser, each page is opened
in headless Chromium (Debian's chromium): no console message at all (errors, blocked loads), one
plot per metric, and the tooltip at each plot's middle point naming that point's frame and value.
Ends with the line `N passed, N failed`.
"""
import argparse
import html.parser
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

results = {"passed": 0, "failed": 0}
PLOT_WIDTH = 930


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail else ''}", flush=True)


class Page(html.parser.HTMLParser):
    """The tables and plots of a report page."""

    def __init__(self):
        super().__init__()
        self.pooled, self.aggregate, self.worst, self.plots = {}, {}, {}, []
        self.table = None
        self.row = None
        self.cell = None
        self.svg = None
        self.title = ""
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self.in_title = True
        if tag == "table":
            if a.get("id") == "pooled":
                self.table = ("pooled", None)
            elif a.get("id") == "aggregate":
                self.table = ("aggregate", None)
            elif a.get("class") == "worst":
                self.table = ("worst", a["data-metric"])
                self.worst[a["data-metric"]] = []
            else:
                self.table = None
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "svg" and a.get("class") == "plot":
            self.svg = dict(a)
            self.plots.append(self.svg)
        elif self.svg is not None and tag == "polyline":
            self.svg["line"] = [tuple(map(float, p.split(","))) for p in a["points"].split()]
        elif self.svg is not None and tag == "polygon":
            self.svg["band"] = [tuple(map(float, p.split(","))) for p in a["points"].split()]

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            kind, metric = self.table
            if self.row and self.row[0] not in ("metric", "aggregate", "rank"):
                if kind == "pooled":
                    self.pooled[self.row[0]] = self.row[1:]
                elif kind == "aggregate":
                    self.aggregate[self.row[0]] = self.row[1]
                else:
                    self.worst[metric].append((int(self.row[1]), self.row[2]))
            self.row = None
        elif tag == "table":
            self.table = None
        elif tag == "svg":
            self.svg = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_title:
            self.title += data


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    return p


def num(text):
    return None if text == "n/a" else float(text)


def same(a, b):
    return (a is None and b is None) or (a is not None and b is not None and a == b)


def libvmaf_format(v):
    """The reports' default number format (libvmaf 3.1+): %.6f, %.16f past six leading zeros."""
    x = abs(v)
    f = x - float(int(x))
    z = 0
    if math.isfinite(x) and x < 2147483647.0:
        while f < 1.0 and f != 0.0:
            f = f * 10.0
            z += 1
    return ("%.16f" if z > 6 else "%.6f") % v


def text_error(t):
    """How far the number a text shows can be from the double it was printed from."""
    m = re.fullmatch(r"-?\d+(?:\.(\d*))?(?:[eE]([-+]?\d+))?", t)
    if not m:
        return math.inf
    digits = len(m.group(1) or "")
    exp = int(m.group(2) or 0)
    return 0.5 * 10.0 ** (exp - digits)


def series_of(report):
    """metric -> [(frame, value or None)] in frame order, from the JSON report."""
    out = {}
    for fr in report["frames"]:
        for k, v in fr["metrics"].items():
            out.setdefault(k, []).append((fr["frameNum"], v))
    return out


def pooled_of(values):
    """ls_pool's four numbers over a series (sequential double sums, as the C code)."""
    vals = [v if v is not None else math.nan for _, v in values]
    s = isum = 0.0
    mn = mx = vals[0]
    for i, v in enumerate(vals):
        s = s + v
        isum = isum + 1.0 / (v + 1.0)
        if i == 0 or v < mn:
            mn = v
        if i == 0 or v > mx:
            mx = v
    return [mn, mx, s / len(vals), len(vals) / isum - 1.0]


def check_page(name, page, report, models, fmt=None, members=()):
    """Everything the page shows against the JSON report; fmt formats recomputed numbers
    (None: the report's numbers are compared as numbers)."""
    series = series_of(report)
    bad = []
    # pooled: the JSON's, or recomputed where the JSON has none (imported scores)
    pooled = report.get("pooled_metrics")
    if not pooled or not any(pooled.values()):
        # a JSON of imported scores has no pooled numbers: ls_pool's, from the frames (where all
        # are finite: the JSON's null hides which non-finite value a frame had)
        pooled = {k: dict(zip(["min", "max", "mean", "harmonic_mean"], pooled_of(v))) for k, v in series.items()
                  if all(x is not None for _, x in v)}
        page_pooled = {k: v for k, v in page.pooled.items() if k in pooled}
    else:
        page_pooled = page.pooled
    if list(page_pooled) != list(pooled):
        bad.append(f"pooled metrics {list(page_pooled)} != {list(pooled)}")
    for k, m in pooled.items():
        shown = page.pooled.get(k, [])
        for i, p in enumerate(["min", "max", "mean", "harmonic_mean"]):
            want = m.get(p)
            if want is not None and not math.isfinite(want):
                want = None  # the JSON's null, the page's n/a
            if fmt:
                ok = i < len(shown) and shown[i] == (fmt(want) if want is not None else "n/a")
            else:
                ok = i < len(shown) and same(num(shown[i]), want)
            if not ok:
                bad.append(f"pooled {k} {p}: {shown[i] if i < len(shown) else None} != {want}")
    for k, v in report.get("aggregate_metrics", {}).items():
        if not same(num(page.aggregate.get(k, "missing")) if k in page.aggregate else "missing", v):
            bad.append(f"aggregate {k}: {page.aggregate.get(k)} != {v}")
    check(f"{name}: pooled scores and aggregates are the JSON report's", not bad,
          f"{len(pooled)} metrics" if not bad else "; ".join(bad[:4]))

    # worst frames: the models', else every quality metric's, from every frame
    bad = []
    want_tables = [k for k in series if (k in models if models else "motion" not in k)]
    if sorted(page.worst) != sorted(want_tables):
        bad.append(f"tables {sorted(page.worst)} != {sorted(want_tables)}")
    for k, rows in page.worst.items():
        higher_worse = not models and (k.startswith("cambi") or k.startswith("speed_") or k.startswith("mse"))
        finite = [(v, f) for f, v in series.get(k, []) if v is not None and math.isfinite(v)]
        finite.sort(key=lambda t: ((-t[0]) if higher_worse else t[0], t[1]))
        want = finite[:10]
        got = [(f, num(v)) for f, v in rows]
        if fmt:
            ok = [(f, v) for f, v in rows] == [(f, fmt(v)) for v, f in want]
        else:
            ok = got == [(f, v) for v, f in want]
        if not ok:
            bad.append(f"{k}: {rows[:3]} != {want[:3]}")
    check(f"{name}: worst frames are the JSON report's, over every frame", not bad,
          f"{len(page.worst)} table(s)" if not bad else "; ".join(bad[:3]))

    # plots: one per metric (bootstrap members aside), every point the JSON's value, in its place
    bad = []
    plotted = [p["data-metric"] for p in page.plots]
    want_plots = [k for k in series if k not in members]
    if sorted(plotted) != sorted(want_plots):
        bad.append(f"plots {plotted} != {want_plots}")
    points = 0
    for p in page.plots:
        vals = [(f, v) for f, v in series.get(p["data-metric"], []) if v is not None and math.isfinite(v)]
        lo, hi, top, height = (float(p[k]) for k in ("data-lo", "data-hi", "data-top", "data-height"))
        left, scale = float(p["data-left"]), float(p["data-scale"])
        y = lambda v: top + (hi - v) * (height / (hi - lo))
        x = lambda f: left + f * scale
        fs = [int(t) for t in p["data-f"].split(",")] if vals else []
        vs = p["data-v"].split(",") if vals else []
        line = p.get("line", [])
        if len(vals) <= 2 * PLOT_WIDTH:
            ok = p["data-mode"] == "frame" and int(p["data-points"]) == len(vals) == len(line) and \
                fs == [f for f, _ in vals] and all(same(num(a), b) for a, (_, b) in zip(vs, vals))
            centers = [(f, v, text_error(t)) for (f, v), t in zip(vals, vs)]
        else:
            n = len(vals)
            first, last, mins, maxs, argmins, means = [], [], [], [], [], []
            for k in range(PLOT_WIDTH):
                a, b = k * n // PLOT_WIDTH, (k + 1) * n // PLOT_WIDTH
                chunk = vals[a:b]
                first.append(chunk[0][0])
                last.append(chunk[-1][0])
                m = min(chunk, key=lambda t: (t[1], t[0]))
                mins.append(m[1])
                argmins.append(m[0])
                maxs.append(max(v for _, v in chunk))
                s = 0.0
                for _, v in chunk:
                    s += v
                means.append(s / len(chunk))
            f_ = fmt or repr
            ok = p["data-mode"] == "bucket" and int(p["data-points"]) == PLOT_WIDTH == len(line) and \
                len(p.get("band", [])) == 2 * PLOT_WIDTH and fs == first and \
                [int(t) for t in p["data-l"].split(",")] == last and \
                [int(t) for t in p["data-argmin"].split(",")] == argmins and \
                p["data-min"].split(",") == [f_(v) for v in mins] and \
                p["data-max"].split(",") == [f_(v) for v in maxs] and vs == [f_(v) for v in means]
            centers = [((a + b) / 2, m, 0.0) for a, b, m in zip(first, last, means)]
        # each vertex where its frame and value put it: coordinates are written to 0.01, and a
        # value shown with fewer digits is that far from the one drawn
        if ok:
            px_per_unit = height / (hi - lo)
            ok = all(abs(px - x(f)) <= 0.0051 and abs(py - y(v)) <= 0.0051 + e * px_per_unit
                     for (px, py), (f, v, e) in zip(line, centers))
        if not ok:
            bad.append(f"{p['data-metric']} ({p['data-mode']}, {len(line)} points, {len(vals)} values)")
        points += len(line)
    check(f"{name}: a plot per metric, every point the JSON report's value in its place", not bad,
          f"{len(page.plots)} plots, {points} points" if not bad else "; ".join(bad[:3]))


def chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browse(browser, path, name, page):
    """Opens the page with #selftest: no console output, a plot per metric, the tooltips."""
    with tempfile.TemporaryDirectory() as profile:
        t0 = time.perf_counter()
        p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                            "--disable-component-update", "--disable-sync", "--no-first-run",
                            f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                            "--window-size=1100,900", "--dump-dom", f"file://{os.path.abspath(path)}#selftest"],
                           capture_output=True, text=True, timeout=120)
        dt = time.perf_counter() - t0
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l]
    body = re.search(r"<body[^>]*\bdata-plots=\"(\d+)\"", p.stdout)
    check(f"{name}: renders in Chromium without console messages ({dt:.1f} s)",
          p.returncode == 0 and not console and body is not None and int(body.group(1)) == len(page.plots),
          f"exit {p.returncode}, {console[:2]}, data-plots {body.group(1) if body else None} of {len(page.plots)}")
    tests = re.findall(r'<svg class="plot"[^>]*?data-metric="([^"]*)"[^>]*?data-selftest="([^"]*)"', p.stdout)
    bad = []
    for svg in page.plots:
        got = dict(tests).get(svg["data-metric"].replace("&", "&amp;"))
        f, v = svg["data-f"].split(","), svg["data-v"].split(",")
        k = len(f) // 2
        if svg["data-mode"] == "frame":
            want = f"{k}|{svg['data-metric']} \u2014 frame {f[k]}: {v[k]}"
        else:
            want = (f"{k}|{svg['data-metric']} \u2014 frames {f[k]}\u2013{svg['data-l'].split(',')[k]}: mean {v[k]}, "
                    f"min {svg['data-min'].split(',')[k]} (frame {svg['data-argmin'].split(',')[k]}), "
                    f"max {svg['data-max'].split(',')[k]}")
        if got is None or html.unescape(got) != want:
            bad.append(f"{svg['data-metric']}: {got!r} != {want!r}")
    check(f"{name}: the tooltip at each plot's middle shows that point's frame and value", not bad and tests,
          f"{len(tests)} plots" if not bad else "; ".join(bad[:2]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--pages", required=True, help="test_report_html's work folder")
    ap.add_argument("--work", required=True)
    ap.add_argument("--browser", action="store_true", help="also open every page in headless Chromium")
    ap.add_argument("--screenshot", help="with --browser: a PNG of the container run's page, 1000x1400")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    fx = lambda f, kind: os.path.join(a.fixtures, f"{f}_{kind}.y4m")
    pages = []

    def run(name, args, models, members=()):
        out_json, out_html = os.path.join(a.work, f"{name}.json"), os.path.join(a.work, f"{name}.html")
        for f in (out_json, out_html):
            if os.path.exists(f):
                os.remove(f)
        p = subprocess.run([a.cli] + args + ["-q", "--json", "-o", out_json, "--html", out_html],
                           capture_output=True, text=True, timeout=300)
        if p.returncode or not os.path.exists(out_html):
            check(f"{name}: lockstep --html", False, p.stderr.strip())
            return None
        page = parse(out_html)
        check_page(name, page, json.load(open(out_json)), models, members=members)
        pages.append((out_html, name, page))
        return page

    run("p01 vmaf+psnr apsnr+ssim", ["-r", fx("p01", "ref"), "-d", fx("p01", "dis"),
                                      "--feature", "psnr=enable_apsnr=true", "--feature", "float_ssim"], ["vmaf"])
    run("p02 10-bit features, subsample 2", ["-r", fx("p02", "ref"), "-d", fx("p02", "dis"), "-n",
                                             "--feature", "psnr", "--feature", "float_ssim", "--feature", "cambi",
                                             "--subsample", "2", "--precision", "max"], [])
    members = [f"vmaf_{i:04d}" for i in range(1, 21)]
    page = run("p05 4:4:4 bootstrap collection", ["-r", fx("p05", "ref"), "-d", fx("p05", "dis"),
                                                 "-m", "version=vmaf_b_v0.6.3", "--precision", "6"], ["vmaf"], members)
    if page:
        check("the bootstrap members are in the pooled table, not plotted",
              all(m in page.pooled for m in members) and not any(p["data-metric"] in members for p in page.plots))
    help_text = subprocess.run([a.cli, "--help"], capture_output=True, text=True).stdout
    if "Containers: read through" in help_text and shutil.which("ffmpeg"):
        mkv = os.path.join(a.work, "p01_dis.mkv")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-nostdin", "-i", fx("p01", "dis"), "-c:v", "ffv1", mkv], check=True)
        page = run("p01 FFV1 .mkv distorted", ["-r", fx("p01", "ref"), "-d", mkv, "--frame_cnt", "12"], ["vmaf"])
        if page:
            text = open(os.path.join(a.work, "p01 FFV1 .mkv distorted.html")).read()
            check("the inputs table says how the container was read",
                  "matroska,webm, ffv1 video (decoder ffv1), yuv420p" in text and "Y4M C420jpeg" in text)

    # a page that cannot be written: one line, a non-zero exit, and no -o report either; the
    # pages written went through temporary files, none left
    out_json = os.path.join(a.work, "unwritable.json")
    if os.path.exists(out_json):
        os.remove(out_json)
    bad_page = os.path.join(a.work, "no", "such", "folder", "r.html")
    p = subprocess.run([a.cli, "-r", fx("p01", "ref"), "-d", fx("p01", "dis"), "--frame_cnt", "2", "-q", "--json",
                        "-o", out_json, "--html", bad_page], capture_output=True, text=True, timeout=120)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check("an unwritable --html path: one line, exit 255, no report", p.returncode == 255 and lines ==
          [f"cannot write the report to {bad_page}: No such file or directory"] and not os.path.exists(out_json),
          f"exit {p.returncode}, {lines}, report left: {os.path.exists(out_json)}")
    left = [f for f in os.listdir(a.work) if ".lockstep-" in f or ".tmp" in f]
    check("no temporary page left behind", not left, repr(left))

    # the writer's own pages: 100,000 frames (JSON at %.17g: recomputed numbers formatted as the
    # page's), and the edge cases
    big = os.path.join(a.pages, "big.html")
    page = parse(big)
    check_page("100,000 frames", page, json.load(open(os.path.join(a.pages, "big.json"))), ["vmaf"], fmt=libvmaf_format)
    pages.append((big, "100,000 frames", page))
    small = os.path.join(a.pages, "small.html")
    page = parse(small)
    check_page("5 frames, non-finite values", page, json.load(open(os.path.join(a.pages, "small.json"))), ["vmaf"])
    check("the page's title escapes the file name", page.title == "lockstep: a<b>&\"c'.y4m", repr(page.title))
    pages.append((small, "5 frames, non-finite values", page))

    if a.browser:
        browser = chromium()
        if not browser:
            print("SKIP: no chromium (scripts/deps.sh installs Debian's): the pages were not opened in a browser")
        else:
            for path, name, page in pages:
                browse(browser, path, name, page)
            shown = [path for path, name, _ in pages if "mkv" in name]
            if a.screenshot and shown:
                with tempfile.TemporaryDirectory() as profile:
                    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                    f"--user-data-dir={profile}", "--window-size=1000,1400",
                                    f"--screenshot={os.path.abspath(a.screenshot)}", f"file://{os.path.abspath(shown[0])}"],
                                   capture_output=True, timeout=120)
                check(f"screenshot of the page: {a.screenshot}", os.path.exists(a.screenshot))
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
