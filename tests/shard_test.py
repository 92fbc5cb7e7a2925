#!/usr/bin/env python3
"""Shards and merge through the CLI: a video cut into shards (--frame_range) and merged
(lockstep merge) gives the whole run's report byte for byte but for fps, for every temporal
feature and option that changes what a frame reads (motion's five-frame window and moving
average, float_motion's one-frame delay and scale1, speed_temporal, psnr's APSNR sums), every
kind of model (integer, float, bootstrap collection, VMAF v1 and its high-frame-rate window), with
--subsample, --threads, --frame_cnt and --frame_skip_*; every frame as a shard of its own (each
frame's context at every position), several cuts per case, every output format. Then what merge
and --frame_range refuse, with their messages."""
import argparse
import os
import random
import re
import subprocess
import sys

FPS = re.compile(r'(<fyi fps=")[^"]*(" />)|("fps": )[^,\n]*(,)')


def no_fps(text):
    return FPS.sub(lambda m: (m.group(1) or m.group(3)) + "FPS" + (m.group(2) or m.group(4)), text)


class Runner:
    def __init__(self, cli, work):
        self.cli, self.work, self.n = cli, work, 0

    def run(self, args, expect=0):
        p = subprocess.run([self.cli] + args, capture_output=True, text=True)
        if p.returncode != expect:
            raise AssertionError("exit %d (expected %d): %s\n%s" % (
                p.returncode, expect, " ".join([self.cli] + args), p.stderr))
        return p

    def path(self, name):
        self.n += 1
        return os.path.join(self.work, "%04d_%s" % (self.n, name))


def read(path):
    with open(path) as f:
        return f.read()


def full(r, pair, args, fmt="--json", precision=("--precision", "max")):
    out = r.path("full")
    r.run(["-r", pair[0], "-d", pair[1], "-q", fmt, *precision, "-o", out] + args)
    return read(out)


def sharded(r, pair, args, cuts, fmt="--json", precision=("--precision", "max")):
    """cuts: the shards' first frames and, last, an end at or past the video's end."""
    shards = []
    for a, b in zip(cuts, cuts[1:]):
        out = r.path("shard_%d_%d.json" % (a, b))
        r.run(["-r", pair[0], "-d", pair[1], "-q", "--frame_range", "%d:%d" % (a, b), "-o", out]
              + args)
        shards.append(out)
    random.shuffle(shards)  # merge takes them in any order
    out = r.path("merged")
    r.run(["merge", "-q", fmt, *precision, "-o", out] + shards)
    return read(out), shards


def random_cuts(n, pieces, rng):
    inner = sorted(rng.sample(range(1, n), min(pieces - 1, n - 1)))
    return [0] + inner + [n + rng.choice([0, 1, 7])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    o = ap.parse_args()
    os.makedirs(o.work, exist_ok=True)
    r = Runner(o.cli, o.work)
    rng = random.Random(18)
    random.seed(18)

    def fixture(name):
        return (os.path.join(o.fixtures, name + "_ref.y4m"),
                os.path.join(o.fixtures, name + "_dis.y4m"))

    def generated(name, *args):
        pair = (os.path.join(o.work, name + "_ref.y4m"), os.path.join(o.work, name + "_dis.y4m"))
        subprocess.run([o.gen, *args, pair[0], pair[1]], check=True)
        return pair

    p02 = fixture("p02")                                  # 576x324 4:2:0 10-bit, 8 frames
    small = generated("g12", "-w", "96", "-h", "80", "-n", "12")
    textured = generated("t12", "-w", "160", "-h", "160", "-n", "12", "--seed", "7")  # SpEED > 0
    hbd = generated("g10", "-w", "160", "-h", "160", "-p", "422", "-b", "12", "-n", "10",
                    "--seed", "5")
    v1 = generated("v1", "-w", "224", "-h", "160", "-n", "9", "--seed", "3")
    p01 = fixture("p01")                                  # 576x324 4:2:0 8-bit, 48 frames

    motion_all = ["-n", "--feature", "motion=motion_five_frame_window=true:motion_moving_average=true",
                  "--feature", "motion=motion_five_frame_window=true",
                  "--feature", "motion=motion_moving_average=true", "--feature", "motion=debug=true",
                  "--feature", "float_motion=motion_add_scale1=true",
                  "--feature", "float_motion=motion_filter_size=3:motion_add_uv=true",
                  "--feature", "float_motion=debug=false",
                  "--feature", "psnr=enable_apsnr=true:enable_mse=true:reduced_hbd_peak=true",
                  "--feature", "speed_temporal"]
    cases = [
        # name, pair, frames, args
        ("temporal features", textured, 12, motion_all),
        ("temporal features 4:2:2 12-bit", hbd, 10, motion_all),
        ("vmaf + apsnr", p02, 8, ["--feature", "psnr=enable_apsnr=true"]),
        ("float model", small, 12, ["-m", "version=vmaf_float_v0.6.1", "--feature", "float_motion"]),
        ("bootstrap collection", small, 12, ["-m", "version=vmaf_b_v0.6.3"]),
        ("vmaf v1", v1, 9, ["-m", "version=vmaf_v1.0.16_3d0h"]),
        ("vmaf v1 hfr", v1, 9, ["-m", "version=vmaf_v1.0.16_hfr_3d0h"]),
        ("two models", small, 12, ["-m", "version=vmaf_v0.6.1", "-m",
                                   "version=vmaf_v0.6.1neg:name=vmaf_neg"]),
        ("subsample 3", small, 12, ["--subsample", "3", "--feature", "psnr=enable_apsnr=true",
                                    "--feature", "motion=motion_five_frame_window=true"]),
        ("threads 2", small, 12, ["--threads", "2", "--feature", "float_motion",
                                  "--feature", "psnr=enable_apsnr=true"]),
        ("frame_cnt 10", small, 10, ["--frame_cnt", "10", "--feature", "float_motion"]),
        ("frame skips", v1, 7, ["--frame_skip_ref", "2", "--frame_skip_dist", "2",
                                    "-m", "version=vmaf_v1.0.16_hfr_3d0h"]),
    ]
    compared = merges = 0
    for name, pair, n, args in cases:
        want = full(r, pair, args)
        cut_lists = [list(range(n)) + [n]]                # every frame a shard of its own
        cut_lists += [random_cuts(n, k, rng) for k in (2, 4, 5)]
        for cuts in cut_lists:
            got, _ = sharded(r, pair, args, cuts)
            merges += 1
            if no_fps(got) != no_fps(want):
                sys.exit("FAIL %s: cuts %s: the merged report differs from the whole run's" %
                         (name, cuts))
            compared += 1
        print("ok %-32s %2d frames, %d cuts (%d shards)" % (
            name, n, len(cut_lists), sum(len(c) - 1 for c in cut_lists)))

    # every output format and the default precision, the printed pooled scores, a longer video
    args = ["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_b_v0.6.3:name=boot",
            "--feature", "psnr=enable_apsnr=true", "--feature", "float_motion"]
    cuts = [0, 5, 17, 18, 30, 47, 60]
    for fmt in ("--xml", "--json", "--csv", "--sub"):
        for precision in ((), ("--precision", "4"), ("--precision", "max")):
            want = full(r, p01, args, fmt, precision)
            got, shards = sharded(r, p01, args, cuts, fmt, precision)
            merges += 1
            if no_fps(got) != no_fps(want):
                sys.exit("FAIL p01 %s %s: the merged report differs" % (fmt, precision))
            compared += 1
    single = r.run(["-r", p01[0], "-d", p01[1], "-q"] + args).stdout
    merged = r.run(["merge"] + shards).stdout
    if single != merged or merged.count("vmaf_b_v0.6.3: ") != 2 or "ci.p95" not in merged:
        sys.exit("FAIL: merge prints other pooled scores than the single run:\n%s\n%s" %
                 (single, merged))
    single = r.run(["-r", p01[0], "-d", p01[1], "-q", "-n", "--feature", "psnr"]).stdout
    _, shards = sharded(r, p01, ["-n", "--feature", "psnr"], [0, 20, 48])
    if r.run(["merge"] + shards).stdout != single:
        sys.exit("FAIL: merge prints other feature means than the single run (-n)")
    print("ok formats and precisions: XML, JSON, CSV, SUB x 3; printed pooled scores")

    # the tail of a shard past the video's end, and the C API's normal report of a shard
    refusals(r, small, p02)
    print("%d merged reports identical to the whole run's (%d merges)" % (compared, merges))


def expect_error(r, args, pattern, code=255):
    p = r.run(args, expect=code)
    line = p.stderr.strip()
    if not re.search(pattern, line) or "\n" in line:
        raise AssertionError("%s\n  said: %r\n  expected: %s" % (" ".join(args), line, pattern))


def refusals(r, pair, other):
    base = ["-r", pair[0], "-d", pair[1], "-q", "-n", "--feature", "psnr"]
    shard = {}
    for a, b in ((0, 4), (4, 8), (3, 8), (8, 12), (8, 13), (6, 12)):
        shard[a, b] = r.path("r_%d_%d.json" % (a, b))
        r.run(base + ["--frame_range", "%d:%d" % (a, b), "-o", shard[a, b]])
    s = shard
    expect_error(r, ["merge", s[0, 4], s[3, 8], s[8, 12]],
                 r"r_0_4\.json \(frames 0\.\.3\) and .*r_3_8\.json \(frames 3\.\.7\) overlap in "
                 r"frames 3\.\.3$")
    expect_error(r, ["merge", s[0, 4], s[6, 12]],
                 r"frames 4\.\.5 are missing: .*r_0_4\.json ends at frame 3 and .*r_6_12\.json "
                 r"starts at frame 6$")
    expect_error(r, ["merge", s[4, 8], s[8, 12]],
                 r"no shard starts at frame 0: the first one, .*r_4_8\.json, starts at frame 4 "
                 r"\(frames 0\.\.3 are missing\)$")
    expect_error(r, ["merge", s[0, 4], s[4, 8]],
                 r"the last shard, .*r_4_8\.json \(frames 4\.\.7\), does not reach the end of the "
                 r"video: a shard from frame 8 on is missing$")
    expect_error(r, ["merge", s[0, 4], s[0, 4]], r"overlap in frames 0\.\.3$")
    # 8:12 and 8:13 both end the 12-frame video
    r.run(["merge", s[0, 4], s[4, 8], s[8, 13]])
    other_settings = r.path("other_settings.json")
    r.run(["-r", pair[0], "-d", pair[1], "-q", "-n", "--feature", "psnr=enable_apsnr=true",
           "--frame_range", "8:12", "-o", other_settings])
    expect_error(r, ["merge", s[0, 4], s[4, 8], other_settings],
                 r"come from different settings: .*--feature psnr.* against .*--feature "
                 r"psnr=enable_apsnr=true")
    sub = r.path("subsample.json")
    r.run(base + ["--subsample", "2", "--frame_range", "8:12", "-o", sub])
    expect_error(r, ["merge", s[0, 4], s[4, 8], sub], r"come from different settings")
    other_input = r.path("other_input.json")
    r.run(["-r", other[0], "-d", other[1], "-q", "-n", "--feature", "psnr", "--frame_range",
           "4:8", "-o", other_input])
    expect_error(r, ["merge", s[0, 4], other_input, s[8, 12]],
                 r"come from different (reference inputs|frame sizes)")
    notshard = r.path("whole.json")
    r.run(base + ["--json", "-o", notshard])
    expect_error(r, ["merge", notshard], r"whole\.json: not a lockstep shard report: no "
                                         r"\"lockstep_shard\" member")
    garbage = r.path("garbage.json")
    with open(garbage, "w") as f:
        f.write('{"lockstep_shard": 1, "frame_range": [0,')
    expect_error(r, ["merge", garbage], r"garbage\.json: not a lockstep shard report: it is no "
                                        r"valid JSON$")
    expect_error(r, ["merge", r.path("absent.json")], r"could not read shard report .*absent\.json")
    expect_error(r, ["merge"], r"no shard reports given", code=1)
    # --frame_range's own refusals
    for value, why in (("5:5", "END must come after FIRST"), ("7:3", "END must come after FIRST"),
                       ("abc", "expected FIRST:END"), ("3:", "non-negative integer"),
                       (":4", "non-negative integer")):
        expect_error(r, base + ["--frame_range", value], re.escape(why), code=1)
    expect_error(r, base + ["--frame_range", "0:4", "--xml", "-o", r.path("x.xml")],
                 r"--frame_range writes a shard report \(JSON\): give --xml, --csv or --sub to "
                 r"`lockstep merge`", code=1)
    expect_error(r, base + ["--frame_range", "0:4", "--precision", "3", "-o", r.path("x")],
                 r"give --precision to `lockstep merge`", code=1)
    expect_error(r, base + ["--frame_range", "0:4", "--parity", "cuda"],
                 r"--frame_range and --parity cannot be combined", code=1)
    expect_error(r, base + ["--frame_range", "12:20", "-o", r.path("past.json")],
                 r"--frame_range 12:20 starts after the last frame of the video \(frame 11\)$")
    expect_error(r, base + ["--frame_range", "40:50", "-o", r.path("far.json")],
                 r"--frame_range 40:50: the reference input has no frame after skipping 40$")
    expect_error(r, base + ["--frame_cnt", "6", "--frame_range", "6:9"],
                 r"--frame_range 6:9 starts after the last frame scored \(--frame_cnt 6\)$")
    # without -o a shard prints its own frames' pooled scores
    out = r.run(base + ["--frame_range", "2:3"]).stdout
    want = r.run(base + ["--frame_cnt", "3", "--json", "--precision", "max", "-o", "-"]).stdout
    one = re.search(r'"frameNum": 2,\s*"metrics": \{\s*"psnr_y": ([^,\n]+)', want).group(1)
    if out.splitlines()[0] != "psnr_y: %f" % float(one):
        raise AssertionError("a shard without -o prints %r, frame 2 has psnr_y %s" % (out, one))
    print("ok refusals: overlap, gap, start, end, settings, subsample, input, not a shard, "
          "bad JSON, --frame_range values and combinations")


if __name__ == "__main__":
    main()
