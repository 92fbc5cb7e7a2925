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
    # a third and fourth field: a model run whose scores with this key prefix come from this
    # extractor at its defaults (the model's other inputs belong to other families)
    "float_vif": [("float_vif", "upstream"),
                  ("vmaf_float_v0.6.1", "upstream", "float_vif", "vif_scale")],
}
# Runs that go through float_adm's RCPSS, whose bits depend on the CPU vendor: on Intel their
# reference is <fixture>.upstream-intel.json (golden/README.md).
INTEL_RUNS = {"float_adm", "vmaf_float_v0.6.1"}
# Where upstream could not read a fixture (4:0:0 8-bit, odd 4:2:0 sizes), the fork's value is the
# same algorithm for these extractors (golden/README.md: identical wherever both computed).
FORK_FALLBACK = {"psnr", "float_ssim", "float_motion", "float_vif"}
# Deliberate refusals: lockstep errors out with a message containing the text. Where the message
# suggests options that make the input scorable, the run with them is compared on luma.
REFUSALS = {
    ("p11b", "psnr_hvs"): ("8x8 block", "enable_chroma=false"),
    ("p11d", "psnr_hvs"): ("8x8 block", None),
    ("p11c", "float_ssim"): ("11x11", None),
    ("p11d", "float_ssim"): ("11x11", None),
    # float_vif's pyramid needs 16x16 (upstream reads outside its buffers below, and corrupts its
    # heap at 7x7; at 17x13 the fork's scale 3 is garbage, its scales 0-2 equal ours)
    ("p11b", "float_vif"): ("16x16", None),
    ("p11c", "float_vif"): ("16x16", None),
    ("p11d", "float_vif"): ("16x16", None),
}


def parse_number(text):
    return float(text.lower().replace("infinity", "inf"))


def same(ours, gold):
    bad = lambda v: v is None or (isinstance(v, float) and not math.isfinite(v))
    if bad(gold) or bad(ours):
        return bad(gold) and bad(ours)
    return float(ours) == float(gold)


def compare(gold, ours, luma_only, with_aggregates, key_prefix=None):
    skip = lambda k: (luma_only and (k.endswith("_cb") or k.endswith("_cr") or k == "psnr_hvs"
                                     or k.startswith("apsnr"))
                      or (key_prefix is not None and not k.startswith(key_prefix)))
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
    intel = "GenuineIntel" in open("/proc/cpuinfo").read()
    golden_dir = os.path.join(args.shared, "golden")

    total_values = total_diffs = runs_done = refusals = 0
    outputs = {}  # (fixture, --feature argument) -> lockstep's output of that run
    missing = set()
    failed = False
    for fx in manifest["fixtures"]:
        fid = fx["id"]
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        for run_id, anchor, *subset in FAMILIES[args.family]:
            subset_extractor, key_prefix = subset if subset else (None, None)
            gold_run = None
            luma_only = False
            used = anchor
            for a in [anchor] + (["fork"] if anchor == "upstream" else []):
                variant = "upstream-intel" if a == "upstream" and intel and run_id in INTEL_RUNS else a
                path = os.path.join(golden_dir, f"{fid}.{variant}.json")
                if not os.path.exists(path):
                    continue
                g = json.load(open(path))
                run = next((r for r in g["runs"] if r["id"] == run_id), None)
                if not run:
                    continue
                if a != anchor and (subset_extractor or run["extractor"]) not in FORK_FALLBACK:
                    continue
                if run.get("computed"):
                    gold_run = run
                    used = a
                    # the fork reads 8-bit mono as 4:2:0 with flat chroma: only luma is a reference
                    luma_only = a == "fork" and fx["pixel_format"] == "400"
                    break
            extractor = subset_extractor or run_id.split(":")[0]
            if extractor not in built:
                missing.add(extractor)
                continue
            refusal, workaround = REFUSALS.get((fid, extractor), (None, None))
            if subset and refusal:
                continue  # the extractor's own run checks the refusal
            if not gold_run and not refusal:
                continue  # no reference computed this run (e.g. 10-bit mono)
            opts = "" if subset else ":".join(f"{k}={v}" for k, v in (gold_run or {}).get("options", {}).items())
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
            if (fid, feature) in outputs and not refusal:
                out = outputs[(fid, feature)]  # the same run for another golden run's scores
                p = subprocess.CompletedProcess(cmd, 0)
            else:
                p = subprocess.run(cmd, capture_output=True, text=True)
                outputs[(fid, feature)] = out
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
            n, diffs = compare(gold_run["output_scalar"], ours, luma_only, used == anchor and not subset,
                               key_prefix)
            runs_done += 1
            total_values += n
            total_diffs += len(diffs)
            print(f"{fid} {run_id}{f' {key_prefix}* by {extractor}' if subset else ''} ({used}"
                  f"{'-intel' if used == 'upstream' and intel and run_id in INTEL_RUNS else ''}"
                  f"{', luma only' if luma_only else ''}): {n} values, {len(diffs)} differ")
            for d in diffs[:10]:
                print("    " + d)
            if n == 0:
                failed = True
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
