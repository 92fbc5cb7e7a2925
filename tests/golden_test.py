#!/usr/bin/env python3
"""Scores every fixture with lockstep and compares each value with the reference tools' goldens.

Every per-frame value, pooled statistic and aggregate that a golden run has must be equal to the
double lockstep writes at --precision max (the golden's `output_scalar`: the reference's portable
C path printed at %.17g). Prints the number of values compared and of differences; exit 1 on any
difference, 77 when the build has none of the family's extractors.
"""
import argparse
import json
import math
import os
import subprocess
import sys

# run ids per family; the anchor whose portable C path is the reference for each.
FAMILIES = {
    "psnr": [("psnr", "upstream"), ("psnr:enable_mse", "upstream"), ("psnr:enable_apsnr", "upstream"),
             ("psnr:min_sse=0.5", "upstream"), ("psnr:reduced_hbd_peak", "upstream")],
    "psnr_hvs": [("psnr_hvs", "fork")],
    "ssim": [("float_ssim", "upstream"), ("float_ssim:enable_db", "upstream"),
             ("float_ssim:enable_lcs", "upstream"), ("ssim", "fork")],
    "motion": [("float_motion", "upstream"), ("float_motion:motion_force_zero", "upstream"),
               ("float_motion:motion_max_val=2", "upstream"), ("motion", "upstream")],
    "vif": [("vif", "upstream"), ("vif:vif_enhn_gain_limit=1", "upstream")],
}
# Runs whose goldens also hold some of a family run's values: (family run, golden run, key prefix).
# The integer VIF of the vmaf_v0.6.1 model run is the vif extractor's (golden/README.md: upstream
# and the fork agree on it wherever both computed it).
CROSS_CHECKS = [("vif", "vmaf_v0.6.1", "integer_vif_scale")]
# 10-bit 4:0:0 (p06b) has no golden: both references refuse Cmono10. Families listed here score
# a copy of an 8-bit 4:0:0 fixture shifted to Cmono10 (samples << 2), which must give the 8-bit
# golden bit for bit (vif.md §7), and p06b itself must be scored: that checks the mono10 reader
# and the 10-bit arithmetic that p06b goes through.
MONO10_SHIFTED = {"vif": "p06"}
# Where upstream could not read a fixture (4:0:0 8-bit, odd 4:2:0 sizes), the fork's value is the
# same algorithm for these extractors (golden/README.md: identical wherever both computed).
FORK_FALLBACK = {"psnr", "float_ssim", "float_motion", "vif"}
# Deliberate refusals: lockstep errors out with a message containing the text. Where the message
# suggests options that make the input scorable, the run with them is compared on luma.
REFUSALS = {
    ("p11b", "psnr_hvs"): ("8x8 block", "enable_chroma=false"),
    ("p11d", "psnr_hvs"): ("8x8 block", None),
    ("p11c", "float_ssim"): ("11x11", None),
    ("p11d", "float_ssim"): ("11x11", None),
    # integer VIF needs 16x16 (scale 3 must be at least 2x2 for its reflect-101 border); upstream
    # and the fork read outside their buffers below that: their p11b (17x13) and p11c (8x8)
    # numbers are not VIF of those frames
    ("p11b", "vif"): ("16x16", None),
    ("p11c", "vif"): ("16x16", None),
    ("p11d", "vif"): ("16x16", None),
}


def parse_number(text):
    return float(text.lower().replace("infinity", "inf"))


def same(ours, gold):
    bad = lambda v: v is None or (isinstance(v, float) and not math.isfinite(v))
    if bad(gold) or bad(ours):
        return bad(gold) and bad(ours)
    return float(ours) == float(gold)


def compare(gold, ours, luma_only, with_aggregates):
    skip = lambda k: luma_only and (k.endswith("_cb") or k.endswith("_cr") or k == "psnr_hvs"
                                    or k.startswith("apsnr"))
    n, diffs = 0, []
    mine_frames = {f["frameNum"]: f["metrics"] for f in ours.get("frames", [])}
    for f in gold.get("frames", []):
        mine = mine_frames.get(f["frameNum"], {})
        for k, v in f["metrics"].items():
            if skip(k):
                continue
            n += 1
            if k not in mine or not same(mine[k], v):
                diffs.append(f"frame {f['frameNum']} {k}: {mine.get(k, 'missing')!r} != golden {v!r}")
    for k, stats in gold.get("pooled_metrics", {}).items():
        if skip(k):
            continue
        for s, v in stats.items():
            n += 1
            mine = ours.get("pooled_metrics", {}).get(k, {})
            if s not in mine or not same(mine[s], v):
                diffs.append(f"pooled {k}.{s}: {mine.get(s, 'missing')!r} != golden {v!r}")
    for k, v in gold.get("aggregate_metrics", {}).items() if with_aggregates else []:
        if skip(k):
            continue
        n += 1
        mine = ours.get("aggregate_metrics", {})
        if k not in mine or not same(mine[k], v):
            diffs.append(f"aggregate {k}: {mine.get(k, 'missing')!r} != golden {v!r}")
    return n, diffs


def find_golden(golden_dir, fid, run_id, anchor, pixel_format, extractor=None):
    """(run, anchor used, luma_only) of the first anchor that computed run_id, or (None, ...).
    extractor: whose values are compared, when not the run's own (e.g. vif in a model run)."""
    for a in [anchor] + (["fork"] if anchor == "upstream" else []):
        path = os.path.join(golden_dir, f"{fid}.{a}.json")
        if not os.path.exists(path):
            continue
        g = json.load(open(path))
        run = next((r for r in g["runs"] if r["id"] == run_id), None)
        if not run:
            continue
        if a != anchor and (extractor or run["extractor"]) not in FORK_FALLBACK:
            continue
        if run.get("computed"):
            # the fork reads 8-bit mono as 4:2:0 with flat chroma: only luma is a reference
            return run, a, a == "fork" and pixel_format == "400"
    return None, anchor, False


def only_keys(out, prefix):
    """The per-frame and pooled values of a CLI JSON whose names start with prefix."""
    return {"frames": [{"frameNum": f["frameNum"],
                        "metrics": {k: v for k, v in f["metrics"].items() if k.startswith(prefix)}}
                       for f in out.get("frames", [])],
            "pooled_metrics": {k: v for k, v in out.get("pooled_metrics", {}).items()
                               if k.startswith(prefix)}}


def write_mono10_from_mono8(src, dst):
    """A Cmono10 Y4M whose samples are the Cmono (8-bit) file's shifted left by 2."""
    data = open(src, "rb").read()
    head, rest = data.split(b"\n", 1)
    fields = head.split(b" ")
    assert b"Cmono" in fields, src
    w = int(next(f for f in fields if f.startswith(b"W"))[1:])
    h = int(next(f for f in fields if f.startswith(b"H"))[1:])
    out = [b" ".join(b"Cmono10" if f == b"Cmono" else f for f in fields) + b"\n"]
    n = w * h
    pos = 0
    while pos < len(rest):
        assert rest.startswith(b"FRAME\n", pos)
        pos += 6
        frame = rest[pos:pos + n]
        pos += n
        out.append(b"FRAME\n")
        out.append(b"".join((v << 2).to_bytes(2, "little") for v in frame))
    open(dst, "wb").write(b"".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--family", required=True, choices=sorted(FAMILIES))
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", default="0")
    ap.add_argument("--cpumask", default="0", help="255: the plain C paths")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    listing = subprocess.run([args.cli, "--list-extractors"], capture_output=True, text=True, check=True)
    built = {line.split()[0] for line in listing.stdout.splitlines() if line.endswith(" cpu")}
    manifest = json.load(open(os.path.join(args.shared, "fixtures", "MANIFEST.json")))
    golden_dir = os.path.join(args.shared, "golden")

    total_values = total_diffs = runs_done = refusals = 0
    missing = set()
    failed = False
    for fx in manifest["fixtures"]:
        fid = fx["id"]
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        for run_id, anchor in FAMILIES[args.family]:
            gold_run, used, luma_only = find_golden(golden_dir, fid, run_id, anchor,
                                                    fx["pixel_format"])
            extractor = run_id.split(":")[0]
            if extractor not in built:
                missing.add(extractor)
                continue
            refusal, workaround = REFUSALS.get((fid, extractor), (None, None))
            if not gold_run and not refusal:
                if fx["pixel_format"] == "400" and args.family in MONO10_SHIFTED:
                    # no reference: scored without one, checked through the shifted copy below
                    p = subprocess.run([args.cli, "-r", ref, "-d", dis, "--feature", extractor,
                                        "-n", "-q", "--threads", args.threads, "--cpumask",
                                        args.cpumask], capture_output=True, text=True)
                    print(f"{fid} {run_id}: no golden; scored (exit {p.returncode})")
                    failed = failed or p.returncode != 0
                continue  # no reference computed this run (e.g. 10-bit mono)
            opts = ":".join(f"{k}={v}" for k, v in (gold_run or {}).get("options", {}).items())
            if not gold_run and ":" in run_id:
                opts = run_id.split(":", 1)[1]
                if "=" not in opts:
                    opts += "=true"
            feature = extractor + ("=" + opts if opts else "")
            out = os.path.join(args.work, f"{fid}.{run_id.replace(':', '_').replace('=', '-')}.json")
            cmd = [args.cli, "-r", ref, "-d", dis, "--feature", feature, "-n", "-q", "--json",
                   "--precision", "max", "-o", out, "--threads", args.threads, "--cpumask", args.cpumask]
            if os.path.exists(out):
                os.remove(out)
            p = subprocess.run(cmd, capture_output=True, text=True)
            if refusal:
                if p.returncode != 0 and refusal in p.stderr and not os.path.exists(out):
                    refusals += 1
                    print(f"{fid} {run_id}: refused as intended: {p.stderr.strip().splitlines()[-1]}")
                else:
                    failed = True
                    print(f"{fid} {run_id}: expected a refusal mentioning {refusal!r}, got exit "
                          f"{p.returncode}: {p.stderr.strip()}")
                if not workaround or not gold_run:
                    continue
                cmd[cmd.index("--feature") + 1] = feature + (":" if opts else "=") + workaround
                p = subprocess.run(cmd, capture_output=True, text=True)
                luma_only = True
                run_id += f" with {workaround}"
            if p.returncode != 0:
                failed = True
                print(f"{fid} {run_id}: lockstep failed (exit {p.returncode}): {p.stderr.strip()}")
                continue
            ours = json.load(open(out), parse_constant=parse_number)
            # the fork's APSNR is its own variant (psnr.md §3.5): its aggregates are no reference
            n, diffs = compare(gold_run["output_scalar"], ours, luma_only, used == anchor)
            runs_done += 1
            total_values += n
            total_diffs += len(diffs)
            print(f"{fid} {run_id} ({used}"
                  f"{', luma only' if luma_only else ''}): {n} values, {len(diffs)} differ")
            for d in diffs[:10]:
                print("    " + d)
            if n == 0:
                failed = True
            for family_run, cross_run, prefix in CROSS_CHECKS:
                if family_run != run_id:
                    continue
                cross, cross_used, _ = find_golden(golden_dir, fid, cross_run, anchor,
                                                   fx["pixel_format"], extractor)
                if not cross:
                    continue
                n, diffs = compare(only_keys(cross["output_scalar"], prefix), ours, False, False)
                runs_done += 1
                total_values += n
                total_diffs += len(diffs)
                print(f"{fid} {run_id} against the {prefix}* values of {cross_run} ({cross_used}): "
                      f"{n} values, {len(diffs)} differ")
                for d in diffs[:10]:
                    print("    " + d)
                if n == 0:
                    failed = True
    src = MONO10_SHIFTED.get(args.family)
    if src and not missing:
        files = []
        for side in ("ref", "dis"):
            files.append(os.path.join(args.work, f"{src}_mono10_{side}.y4m"))
            write_mono10_from_mono8(os.path.join(args.fixtures, f"{src}_{side}.y4m"), files[-1])
        fx = next(f for f in manifest["fixtures"] if f["id"] == src)
        for run_id, anchor in FAMILIES[args.family]:
            gold_run, used, luma_only = find_golden(golden_dir, src, run_id, anchor,
                                                    fx["pixel_format"])
            opts = ":".join(f"{k}={v}" for k, v in gold_run.get("options", {}).items())
            out = os.path.join(args.work, f"{src}_mono10.{run_id.replace(':', '_').replace('=', '-')}.json")
            p = subprocess.run([args.cli, "-r", files[0], "-d", files[1], "--feature",
                                run_id.split(":")[0] + ("=" + opts if opts else ""), "-n", "-q",
                                "--json", "--precision", "max", "-o", out, "--threads",
                                args.threads, "--cpumask", args.cpumask],
                               capture_output=True, text=True)
            if p.returncode != 0:
                failed = True
                print(f"{src} as Cmono10 {run_id}: lockstep failed: {p.stderr.strip()}")
                continue
            ours = json.load(open(out), parse_constant=parse_number)
            n, diffs = compare(gold_run["output_scalar"], ours, luma_only, used == anchor)
            runs_done += 1
            total_values += n
            total_diffs += len(diffs)
            print(f"{src} shifted to Cmono10, {run_id} against the 8-bit golden ({used}): {n} values, "
                  f"{len(diffs)} differ")
            for d in diffs[:10]:
                print("    " + d)
            failed = failed or n == 0
    if missing:
        print(f"not in this build: {', '.join(sorted(missing))}")
    if runs_done == 0 and refusals == 0:
        print(f"SKIP: no {args.family} extractor in this build")
        return 77
    print(f"golden {args.family}: {runs_done} runs, {total_values} values compared, "
          f"{total_diffs} differ, {refusals} deliberate refusals")
    return 1 if failed or total_diffs or missing else 0


if __name__ == "__main__":
    sys.exit(main())
