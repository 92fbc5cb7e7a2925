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
    "adm": [("adm", "upstream"), ("adm:adm_enhn_gain_limit=1", "upstream")],
}
# Where upstream could not read a fixture (4:0:0 8-bit, odd 4:2:0 sizes), the fork's value is the
# same algorithm for these extractors (golden/README.md: identical wherever both computed).
FORK_FALLBACK = {"psnr", "float_ssim", "float_motion"}
# Deliberate refusals: lockstep errors out with a message containing the text. Where the message
# suggests options that make the input scorable, the run with them is compared on luma.
REFUSALS = {
    ("p11b", "psnr_hvs"): ("8x8 block", "enable_chroma=false"),
    ("p11d", "psnr_hvs"): ("8x8 block", None),
    ("p11c", "float_ssim"): ("11x11", None),
    ("p11d", "float_ssim"): ("11x11", None),
    ("p11b", "adm"): ("at least 33x33", None),
    ("p11c", "adm"): ("at least 33x33", None),
    ("p11d", "adm"): ("at least 33x33", None),
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


# ---- adm: the ADM values inside the model runs, and the fixtures upstream could not read ----

# output-name alias -> option, to rebuild a model's ADM option set from its feature names
ADM_ALIASES = {"egl": "adm_enhn_gain_limit", "nvd": "adm_norm_view_dist",
               "rdh": "adm_ref_display_height", "csf": "adm_csf_mode", "scf": "adm_csf_scale",
               "scfd": "adm_csf_diag_scale", "nw": "adm_noise_weight", "dlmw": "adm_dlm_weight",
               "min": "adm_min_val"}
ADM_PREFIXES = ("integer_adm", "integer_aim")
# Upstream's and the fork's integer ADM differ in the last digits (golden/README.md: up to 2.1e-7
# on every fixture both computed). Where only the fork read a fixture (p06 8-bit mono, p11a odd
# 4:2:0) its values bound ours; a wrong band size, region or border would move them by ~1e-4.
ADM_FORK_BOUND = 5e-7


def run_adm(args, ref, dis, opts, out):
    feature = "adm" + ("=" + ":".join(f"{k}={v}" for k, v in opts) if opts else "")
    cmd = [args.cli, "-r", ref, "-d", dis, "--feature", feature, "-n", "-q", "--json",
           "--precision", "max", "-o", out, "--threads", args.threads, "--cpumask", args.cpumask]
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip()
    return json.load(open(out), parse_constant=parse_number), ""


def adm_options_of(name):
    """The option set behind an ADM output name such as integer_adm2_csf_2_..._rdh_2160."""
    suffix = name[len("integer_adm2"):].strip("_")
    toks = suffix.split("_") if suffix else []
    return tuple((ADM_ALIASES[toks[i]], toks[i + 1]) for i in range(0, len(toks), 2))


def only_keys(output, keys):
    return {"frames": [{"frameNum": f["frameNum"], "metrics": {k: v for k, v in f["metrics"].items()
                                                                 if k in keys}}
                       for f in output.get("frames", [])],
            "pooled_metrics": {k: v for k, v in output.get("pooled_metrics", {}).items() if k in keys}}


def y4m_as_420(src, dst):
    """The luma of a 4:0:0 Y4M in a 4:2:0 file with mid-grey chroma."""
    data = open(src, "rb").read()
    header, rest = data.split(b"\n", 1)
    fields = header.split(b" ")
    w = int(next(f for f in fields if f.startswith(b"W"))[1:])
    h = int(next(f for f in fields if f.startswith(b"H"))[1:])
    tag = next(f for f in fields if f.startswith(b"C"))
    deep = tag != b"Cmono"
    grey = (512).to_bytes(2, "little") if deep else b"\x80"
    chroma = grey * (2 * ((w + 1) // 2) * ((h + 1) // 2))
    out = [header.replace(tag, b"C420p10" if deep else b"C420jpeg") + b"\n"]
    out += [b"FRAME\n" + f + chroma for f in rest.split(b"FRAME\n")[1:]]
    open(dst, "wb").write(b"".join(out))


def adm_option_key(opts):
    """Option pairs with numbers in one spelling: ("adm_enhn_gain_limit", "1.0") == (.., "1")."""
    def norm(v):
        try:
            return f"{float(v):g}"
        except ValueError:
            return v
    return tuple(sorted((k, norm(v)) for k, v in opts))


def adm_extras(args, manifest, golden_dir, done):
    """done: {(fixture, option key): lockstep output} of the adm runs already made."""
    runs = values = diffs = 0
    failed = False
    cache = {key: (out, "") for key, out in done.items()}
    for fx in manifest["fixtures"]:
        fid = fx["id"]
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        path = os.path.join(golden_dir, f"{fid}.upstream.json")
        if not os.path.exists(path):
            continue
        # the model runs' ADM features, each against one adm run with the model's options
        for run in json.load(open(path))["runs"]:
            if not run["id"].startswith("vmaf_") or not run.get("computed"):
                continue
            gold = run["output_scalar"]
            keys = {k for k in gold["frames"][0]["metrics"] if k.startswith(ADM_PREFIXES)}
            adm2 = [k for k in keys if k.startswith("integer_adm2")]
            if not adm2:
                continue
            opts = adm_options_of(adm2[0])
            key = (fid, adm_option_key(opts))
            if key not in cache:
                out = os.path.join(args.work, f"{fid}.model-adm{len(cache)}.json")
                cache[key] = run_adm(args, ref, dis, opts, out)
            ours, err = cache[key]
            if ours is None:
                failed = True
                print(f"{fid} {run['id']} ADM: lockstep failed: {err}")
                continue
            n, d = compare(only_keys(gold, keys), only_keys(ours, keys), False, False)
            runs += 1
            values += n
            diffs += len(d)
            print(f"{fid} {run['id']} ADM features (adm{'=' if opts else ''}"
                  f"{':'.join(f'{k}={v}' for k, v in opts)}): {n} values, {len(d)} differ")
            for line in d[:10]:
                print("    " + line)
    for fid in ("p06", "p06b"):
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        if not os.path.exists(ref):
            continue
        # 4:0:0: the luma alone must score as the same luma inside a 4:2:0 file
        ref420 = os.path.join(args.work, f"{fid}_ref_as420.y4m")
        dis420 = os.path.join(args.work, f"{fid}_dis_as420.y4m")
        y4m_as_420(ref, ref420)
        y4m_as_420(dis, dis420)
        for opts in ((), (("adm_enhn_gain_limit", "1"),)):
            mono, e1 = run_adm(args, ref, dis, opts, os.path.join(args.work, f"{fid}.mono.json"))
            yuv, e2 = run_adm(args, ref420, dis420, opts, os.path.join(args.work, f"{fid}.420.json"))
            if mono is None or yuv is None:
                failed = True
                print(f"{fid} 4:0:0 vs 4:2:0: lockstep failed: {e1} {e2}")
                continue
            n, d = compare(yuv, mono, False, False)
            values += n
            diffs += len(d)
            name = "adm" + ("=" + ":".join(f"{k}={v}" for k, v in opts) if opts else "")
            print(f"{fid} {name}: 4:0:0 equals its luma in 4:2:0: {n} values, {len(d)} differ")
    for fid in ("p06", "p11a"):
        path = os.path.join(golden_dir, f"{fid}.fork.json")
        if not os.path.exists(path):
            continue
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        for run in json.load(open(path))["runs"]:
            if run["extractor"] != "adm" or not run.get("computed"):
                continue
            opts = tuple((k, str(float(v)).rstrip("0").rstrip(".")) for k, v in run.get("options", {}).items())
            ours, err = run_adm(args, ref, dis, opts, os.path.join(args.work, f"{fid}.forkcheck.json"))
            if ours is None:
                failed = True
                print(f"{fid} {run['id']} vs fork: lockstep failed: {err}")
                continue
            mine = {f["frameNum"]: f["metrics"] for f in ours["frames"]}
            worst, n = 0.0, 0
            for f in run["output_scalar"]["frames"]:
                for k, v in f["metrics"].items():
                    n += 1
                    worst = max(worst, abs(mine[f["frameNum"]][k] - v))
            ok = worst <= ADM_FORK_BOUND
            failed |= not ok
            print(f"{fid} {run['id']} (no upstream golden) vs the fork: {n} values, largest "
                  f"difference {worst:.3g} ({'within' if ok else 'BEYOND'} {ADM_FORK_BOUND:g})")
    return runs, values, diffs, failed


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
    adm_done = {}
    failed = False
    for fx in manifest["fixtures"]:
        fid = fx["id"]
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        for run_id, anchor in FAMILIES[args.family]:
            gold_run = None
            luma_only = False
            used = anchor
            for a in [anchor] + (["fork"] if anchor == "upstream" else []):
                path = os.path.join(golden_dir, f"{fid}.{a}.json")
                if not os.path.exists(path):
                    continue
                g = json.load(open(path))
                run = next((r for r in g["runs"] if r["id"] == run_id), None)
                if not run:
                    continue
                if a != anchor and run["extractor"] not in FORK_FALLBACK:
                    continue
                if run.get("computed"):
                    gold_run = run
                    used = a
                    # the fork reads 8-bit mono as 4:2:0 with flat chroma: only luma is a reference
                    luma_only = a == "fork" and fx["pixel_format"] == "400"
                    break
            extractor = run_id.split(":")[0]
            if extractor not in built:
                missing.add(extractor)
                continue
            refusal, workaround = REFUSALS.get((fid, extractor), (None, None))
            if not gold_run and not refusal:
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
            if extractor == "adm" and not workaround:
                adm_done[(fid, adm_option_key((gold_run or {}).get("options", {}).items()))] = ours
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
    if args.family == "adm" and "adm" in built:
        r, v, d, f = adm_extras(args, manifest, golden_dir, adm_done)
        runs_done += r
        total_values += v
        total_diffs += d
        failed |= f
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
