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
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_extra  # noqa: E402

# run ids per family; the anchor whose portable C path is the reference for each. A third item
# (feature, keys) scores a model run's features alone with that extractor ("name", at its defaults,
# or "name=opt=value:..." as given) and compares those keys (a tuple of names, or a name prefix).
SPEED_V1 = "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:"
FLOAT_ADM_KEYS = ("adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3")
FAMILIES = {
    "psnr": [("psnr", "upstream"), ("psnr:enable_mse", "upstream"), ("psnr:enable_apsnr", "upstream"),
             ("psnr:min_sse=0.5", "upstream"), ("psnr:reduced_hbd_peak", "upstream")],
    "psnr_hvs": [("psnr_hvs", "fork")],
    "ssim": [("float_ssim", "upstream"), ("float_ssim:enable_db", "upstream"),
             ("float_ssim:enable_lcs", "upstream"), ("ssim", "fork")],
    "motion": [("float_motion", "upstream"), ("float_motion:motion_force_zero", "upstream"),
               ("float_motion:motion_max_val=2", "upstream"), ("motion", "upstream"),
               ("motion:motion_force_zero", "upstream")],
    # VMAF models end to end (features and scores): the run id is the model and its flags
    "vmaf": [("vmaf_v0.6.1", "upstream"), ("vmaf_v0.6.1neg", "upstream"), ("vmaf_4k_v0.6.1", "upstream"),
             ("vmaf_float_v0.6.1", "upstream"), ("vmaf_b_v0.6.3", "upstream"),
             ("vmaf_v0.6.1:disable_clip", "upstream"), ("vmaf_v0.6.1:enable_transform", "upstream")],
    "float_adm": [("float_adm", "upstream"),
                  ("vmaf_float_v0.6.1", "upstream", ("float_adm", FLOAT_ADM_KEYS))],
    # the integer VIF of the vmaf_v0.6.1 model run is the vif extractor's (upstream and the fork
    # agree on it wherever both computed it)
    "vif": [("vif", "upstream"), ("vif:vif_enhn_gain_limit=1", "upstream"),
            ("vmaf_v0.6.1", "upstream", ("vif", "integer_vif_scale"))],
    "float_vif": [("float_vif", "upstream"),
                  ("vmaf_float_v0.6.1", "upstream", ("float_vif", "vif_scale"))],
    # MS-SSIM and CIEDE2000: upstream only. The fork's values differ in the last digits (its
    # pyramid and one product of its CIEDE2000 are computed differently), so it is no reference
    # where upstream could not read a file (p06, p06b, p11a: covered by tests/test_ms_ssim.c and,
    # for ciede, by the 4:4:4 checks of golden_extra.py).
    "ms_ssim": [("float_ms_ssim", "upstream")],
    "ciede": [("ciede", "upstream")],
    # adm's values inside every model run are checked by golden_extra.adm_checks
    "adm": [("adm", "upstream"), ("adm:adm_enhn_gain_limit=1", "upstream")],
    # SpEED (upstream only: the fork predates it); its values inside the VMAF v1 runs, with the
    # three option sets of the eight models (speed.md §2.4), scored by the extractor alone
    "speed": [("speed_chroma", "upstream"), ("speed_temporal", "upstream"),
              ("vmaf_v1.0.16_3d0h", "upstream", (SPEED_V1 + "speed_max_val=45", "speed_chroma_")),
              ("vmaf_v1.0.16_3d0h_2160", "upstream",
               (SPEED_V1 + "speed_prescale=0.5:speed_prescale_method=bilinear:speed_max_val=45",
                "speed_chroma_")),
              ("vmaf_v1.0.16_5d0h", "upstream",
               (SPEED_V1 + "speed_prescale=0.6:speed_prescale_method=bilinear:speed_max_val=45",
                "speed_chroma_"))],
    # the VMAF v1 models end to end (upstream only), chroma correction included
    "vmaf_v1": [(f"vmaf_v1.0.16_{v}", "upstream") for v in
                ("3d0h", "3d0h_2160", "5d0h", "1d5h_2160", "hfr_3d0h", "hfr_3d0h_2160", "hfr_5d0h",
                 "hfr_1d5h_2160")],
    "cambi": [("cambi", "upstream"),
              # the CAMBI input of the VMAF v1 models (the same options in all eight)
              ("vmaf_v1.0.16_3d0h", "upstream",
               ("cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06",
                "cambi_"))],
}
# The extractors a model run needs; until all are built, the run is skipped (not failed).
MODEL_EXTRACTORS = {"vmaf_float_v0.6.1": {"float_adm", "float_motion", "float_vif"}}
MODEL_EXTRACTORS.update({run_id: {"cambi", "speed_chroma", "adm", "motion"}
                         for run_id, _ in FAMILIES["vmaf_v1"]})
MODEL_FAMILIES = {"vmaf", "vmaf_v1"}
INTEGER_MODEL_EXTRACTORS = {"adm", "motion", "vif"}
# Runs through float_adm's approximate reciprocal (RCPSS) carry the bits of the CPU vendor that
# made them: <id>.upstream-intel.json was made on Intel, <id>.upstream.json on AMD. Keyed by the
# extractor that scores the run, or by the model run id.
VENDOR_DEPENDENT = {"float_adm", "vmaf_float_v0.6.1"}
# Where upstream could not read a fixture and the fork's float ADM is another variant (it differs
# from upstream in most values of every fixture both computed, by up to 3.9e-7): no bit-exact
# reference. These runs are compared with the fork within that envelope, as a sanity check only.
FORK_ENVELOPE = {"float_adm": 4e-7}
# Frames smaller than the ADM/VIF pyramids (17x13, 8x8, 7x7; the references crashed): every model
# run must be refused by its extractors, exit 255, one line that says how large a frame must be.
MODEL_SIZE_REFUSALS = {"p11b", "p11c", "p11d"}
# The v1 models read speed_chroma_uv: a 4:0:0 input has no chroma to score.
NO_CHROMA = re.compile(r"speed_chroma: the input has no chroma")
SIZE_WORDS = re.compile(r"smallest|at least|minimum|too small|below|greater than|larger than", re.I)
# Where upstream could not read a fixture (4:0:0 8-bit, odd 4:2:0 sizes), the fork's value is the
# same algorithm for these extractors (golden/README.md: identical wherever both computed).
FORK_FALLBACK = {"psnr", "float_ssim", "float_motion", "cambi", "vif", "float_vif"}
# 10-bit 4:0:0 (p06b) has no golden: both references refuse Cmono10. Families listed here score
# a copy of an 8-bit 4:0:0 fixture shifted to Cmono10 (samples << 2), which must give the 8-bit
# golden bit for bit (vif.md §7), and p06b itself must be scored: that checks the mono10 reader
# and the 10-bit arithmetic that p06b goes through.
MONO10_SHIFTED = {"vif": "p06"}
# Deliberate refusals: lockstep errors out with a message containing the text. Where the message
# suggests options that make the input scorable, the run with them is compared on luma.
REFUSALS = {
    ("p11b", "psnr_hvs"): ("8x8 block", "enable_chroma=false"),
    ("p11d", "psnr_hvs"): ("8x8 block", None),
    ("p11c", "float_ssim"): ("11x11", None),
    ("p11d", "float_ssim"): ("11x11", None),
    ("p11b", "float_adm"): ("smallest size that works is 17x17", None),
    ("p11c", "float_adm"): ("smallest size that works is 17x17", None),
    ("p11d", "float_adm"): ("smallest size that works is 17x17", None),
    ("p11b", "cambi"): ("a width or a height of at least 216", None),
    ("p11c", "cambi"): ("a width or a height of at least 216", None),
    ("p11d", "cambi"): ("a width or a height of at least 216", None),
    # integer VIF needs 16x16 (scale 3 must be at least 2x2 for its reflect-101 border); upstream
    # and the fork read outside their buffers below that: their p11b (17x13) and p11c (8x8)
    # numbers are not VIF of those frames
    ("p11b", "vif"): ("16x16", None),
    ("p11c", "vif"): ("16x16", None),
    ("p11d", "vif"): ("16x16", None),
    # float_vif's pyramid needs 16x16 (upstream reads outside its buffers below, and corrupts its
    # heap at 7x7; at 17x13 the fork's scale 3 is garbage, its scales 0-2 equal ours)
    ("p11b", "float_vif"): ("16x16", None),
    ("p11c", "float_vif"): ("16x16", None),
    ("p11d", "float_vif"): ("16x16", None),
    # upstream fails every frame ("scale below 1x1"); the message names the smallest size
    ("p11b", "float_ms_ssim"): ("176x176", None),
    ("p11c", "float_ms_ssim"): ("176x176", None),
    ("p11d", "float_ms_ssim"): ("176x176", None),
    ("p06", "ciede"): ("no chroma", None),
    ("p06b", "ciede"): ("no chroma", None),
    ("p11b", "adm"): ("at least 33x33", None),
    ("p11c", "adm"): ("at least 33x33", None),
    ("p11d", "adm"): ("at least 33x33", None),
    # SpEED needs one 5x5 block after the 16x decimation: 80x80 per plane (upstream prints its
    # size error and crashes, speed.md §3.2); 4:0:0 has no chroma for speed_chroma
    # (the model-option runs prescale by 0.5 or 0.6: the message then names the scaled size and
    # the input that works)
    ("p11b", "speed_chroma"): (re.compile(
        r"^speed_chroma: chroma plane 8x6 (is too small; SpEED needs at least 80x80, i\.e\. a "
        r"4:2:0 frame of at least 160x160|scaled to \d+x\d+ \(speed_prescale 0\.[56]\) is too small; "
        r"SpEED needs at least 80x80 after scaling \(a chroma plane of at least (159x159|133x133), "
        r"i\.e\. a 4:2:0 frame of at least (318x318|266x266)\))$"), None),
    ("p11c", "speed_chroma"): (re.compile(
        r"^speed_chroma: chroma plane 8x8 (scaled to \d+x\d+ \(speed_prescale 0\.[56]\) )?is too "
        r"small; SpEED needs at least 80x80"), None),
    ("p11d", "speed_chroma"): (re.compile(
        r"^speed_chroma: chroma plane 7x7 (scaled to \d+x\d+ \(speed_prescale 0\.[56]\) )?is too "
        r"small; SpEED needs at least 80x80"), None),
    ("p11b", "speed_temporal"): (re.compile(
        r"^speed_temporal: luma 17x13 is too small; SpEED needs at least 80x80$"), None),
    ("p11c", "speed_temporal"): (re.compile(
        r"^speed_temporal: luma 8x8 is too small; SpEED needs at least 80x80$"), None),
    ("p11d", "speed_temporal"): (re.compile(
        r"^speed_temporal: luma 7x7 is too small; SpEED needs at least 80x80$"), None),
    ("p06", "speed_chroma"): ("no chroma", None),
    ("p06b", "speed_chroma"): ("no chroma", None),
}
# Goldens that are artefacts of the references' memory layout, not scores (golden/README.md,
# "Where upstream and the fork differ"): upstream's 4:2:2 CIEDE2000 reads each chroma row to the
# full luma width, past its end. They are checked another way (golden_extra.ciede_checks).
ARTEFACTS = {("p04", "ciede")}


def parse_number(text):
    return float(text.lower().replace("infinity", "inf"))


def same(ours, gold):
    bad = lambda v: v is None or (isinstance(v, float) and not math.isfinite(v))
    if bad(gold) or bad(ours):
        return bad(gold) and bad(ours)
    return float(ours) == float(gold)


def compare(gold, ours, luma_only, with_aggregates, keys=None, tolerance=0.0):
    skip = lambda k: (luma_only and (k.endswith("_cb") or k.endswith("_cr") or k == "psnr_hvs"
                                     or k.startswith("apsnr"))) or (
        keys is not None and not (k.startswith(keys) if isinstance(keys, str) else k in keys))
    equal = same
    if tolerance:
        equal = lambda a, b: a is not None and b is not None and abs(float(a) - float(b)) <= tolerance
    n, diffs = 0, []
    mine_frames = {f["frameNum"]: f["metrics"] for f in ours.get("frames", [])}
    for f in gold.get("frames", []):
        mine = mine_frames.get(f["frameNum"], {})
        for k, v in f["metrics"].items():
            if skip(k):
                continue
            n += 1
            if k not in mine or not equal(mine[k], v):
                diffs.append(f"frame {f['frameNum']} {k}: {mine.get(k, 'missing')!r} != golden {v!r}")
    for k, stats in gold.get("pooled_metrics", {}).items():
        if skip(k):
            continue
        for s, v in stats.items():
            n += 1
            mine = ours.get("pooled_metrics", {}).get(k, {})
            if s not in mine or not equal(mine[s], v):
                diffs.append(f"pooled {k}.{s}: {mine.get(s, 'missing')!r} != golden {v!r}")
    for k, v in gold.get("aggregate_metrics", {}).items() if with_aggregates else []:
        if skip(k):
            continue
        n += 1
        mine = ours.get("aggregate_metrics", {})
        if k not in mine or not equal(mine[k], v):
            diffs.append(f"aggregate {k}: {mine.get(k, 'missing')!r} != golden {v!r}")
    return n, diffs


def cpu_vendor():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("vendor_id"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def anchor_file(anchor, what, rcp):
    """The golden file suffix of an anchor for this extractor or model run on this machine."""
    if anchor != "upstream" or what not in VENDOR_DEPENDENT:
        return anchor
    intel = rcp == "intel" or (rcp == "host" and cpu_vendor() == "GenuineIntel")
    return "upstream-intel" if intel else "upstream"


def model_args(run_id):
    """`vmaf_v0.6.1:disable_clip` -> the --model argument the goldens were made with."""
    version, _, flag = run_id.partition(":")
    return ["--model", f"version={version}" + (f":{flag}=true" if flag else "")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--family", required=True, choices=sorted(FAMILIES))
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", default="0")
    ap.add_argument("--cpumask", default="0", help="255: the plain C paths")
    ap.add_argument("--rcp", default="host", choices=["host", "intel", "divide"],
                    help="float_adm's reciprocal in this build (CMake LOCKSTEP_RCP)")
    args = ap.parse_args()
    if args.family == "float_adm" and args.rcp == "divide":
        print("SKIP: float_adm divides here (LOCKSTEP_RCP=DIVIDE); the goldens carry x86 RCPSS bits")
        return 77
    os.makedirs(args.work, exist_ok=True)

    listing = subprocess.run([args.cli, "--list-extractors"], capture_output=True, text=True, check=True)
    built = {line.split()[0] for line in listing.stdout.splitlines() if line.endswith(" cpu")}
    manifest = json.load(open(os.path.join(args.shared, "fixtures", "MANIFEST.json")))
    golden_dir = os.path.join(args.shared, "golden")

    total_values = total_diffs = runs_done = refusals = skipped = envelope_runs = envelope_values = 0
    missing = set()
    failed = False
    models = args.family in MODEL_FAMILIES
    scored = {}
    adm_done = {}
    for fx in manifest["fixtures"]:
        fid = fx["id"]
        ref = os.path.join(args.fixtures, f"{fid}_ref.y4m")
        dis = os.path.join(args.fixtures, f"{fid}_dis.y4m")
        for entry in FAMILIES[args.family]:
            run_id, anchor = entry[0], entry[1]
            feature_spec, keys = entry[2] if len(entry) > 2 else (None, None)
            extractor = (feature_spec or run_id).split(":")[0].split("=")[0]
            vendor_key = run_id if models or run_id in VENDOR_DEPENDENT else extractor
            gold_run = None
            luma_only = False
            tolerance = 0.0
            used = anchor
            for a in [anchor] + (["fork"] if anchor == "upstream" and not models else []):
                path = os.path.join(golden_dir, f"{fid}.{anchor_file(a, vendor_key, args.rcp)}.json")
                if not os.path.exists(path):
                    continue
                g = json.load(open(path))
                run = next((r for r in g["runs"] if r["id"] == run_id), None)
                if not run:
                    continue
                if a != anchor and extractor not in FORK_FALLBACK:
                    if extractor not in FORK_ENVELOPE:
                        continue
                    tolerance = FORK_ENVELOPE[extractor]
                if run.get("computed"):
                    gold_run = run
                    used = a
                    # the fork reads 8-bit mono as 4:2:0 with flat chroma: only luma is a reference
                    luma_only = a == "fork" and fx["pixel_format"] == "400"
                    break
                tolerance = 0.0
            if models:
                need = MODEL_EXTRACTORS.get(run_id, INTEGER_MODEL_EXTRACTORS) - built
                if need:
                    missing |= need
                    skipped += 1
                    continue
            elif extractor not in built:
                missing.add(extractor)
                continue
            refusal, workaround = REFUSALS.get((fid, extractor), (None, None))
            if models and fid in MODEL_SIZE_REFUSALS:
                refusal = SIZE_WORDS
            elif models and "speed_chroma" in MODEL_EXTRACTORS.get(run_id, ()) and \
                    fx["pixel_format"] == "400":
                refusal = NO_CHROMA  # upstream's reader crashed or refused (p06, p06b)
            if (fid, extractor) in ARTEFACTS:
                print(f"{fid} {run_id}: golden is a layout artefact of the reference, checked below")
                continue
            if not gold_run and not refusal:
                if fx["pixel_format"] == "400" and args.family in MONO10_SHIFTED and not keys:
                    # no reference: scored without one, checked through the shifted copy below
                    p = subprocess.run([args.cli, "-r", ref, "-d", dis, "--feature", extractor,
                                        "-n", "-q", "--threads", args.threads, "--cpumask",
                                        args.cpumask], capture_output=True, text=True)
                    print(f"{fid} {run_id}: no golden; scored (exit {p.returncode})")
                    failed = failed or p.returncode != 0
                continue  # no reference computed this run (e.g. 10-bit mono)
            opts = ":".join(f"{k}={v}" for k, v in (gold_run or {}).get("options", {}).items()
                            if keys is None)
            if not gold_run and ":" in run_id:
                opts = run_id.split(":", 1)[1]
                if "=" not in opts:
                    opts += "=true"
            feature = (feature_spec if feature_spec and "=" in feature_spec
                       else extractor + ("=" + opts if opts else ""))
            out = os.path.join(args.work, f"{fid}.{run_id.replace(':', '_').replace('=', '-')}.json")
            what = ((gold_run["cli_args"] if gold_run else model_args(run_id)) if models
                    else ["--feature", feature, "-n"])
            cmd = [args.cli, "-r", ref, "-d", dis] + what + ["-q", "--json", "--precision", "max",
                                                            "-o", out, "--threads", args.threads,
                                                            "--cpumask", args.cpumask]
            if (fid, feature) in scored and not models:  # a model run's keys, scored by its extractor
                p, out = scored[(fid, feature)]
            else:
                if os.path.exists(out):
                    os.remove(out)
                p = subprocess.run(cmd, capture_output=True, text=True)
                scored[(fid, feature)] = (p, out)
            if refusal:
                lines = [l for l in p.stderr.splitlines() if l.strip()]
                said = refusal.search(p.stderr) if isinstance(refusal, re.Pattern) else refusal in p.stderr
                generic_ok = not isinstance(refusal, re.Pattern) or (p.returncode == 255 and len(lines) == 1)
                if p.returncode != 0 and said and generic_ok and not os.path.exists(out):
                    refusals += 1
                    print(f"{fid} {run_id}: refused as intended: {p.stderr.strip().splitlines()[-1]}")
                else:
                    failed = True
                    wanted = (f"exit 255 and one line matching {refusal.pattern!r}"
                              if isinstance(refusal, re.Pattern) else f"a refusal mentioning {refusal!r}")
                    print(f"{fid} {run_id}: expected {wanted}, got exit {p.returncode}: {p.stderr.strip()}")
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
            if extractor == "adm" and not workaround and not keys and not models:
                adm_done[(fid, golden_extra.adm_option_key((gold_run or {}).get("options", {}).items()))] = ours
            # the fork's APSNR is its own variant (psnr.md §3.5): its aggregates are no reference
            n, diffs = compare(gold_run["output_scalar"], ours, luma_only, used == anchor, keys,
                               tolerance)
            if tolerance:
                envelope_runs += 1
                envelope_values += n
                failed = failed or bool(diffs)
                print(f"{fid} {run_id} ({used}, no bit-exact reference: within {tolerance:g}): "
                      f"{n} values, {len(diffs)} outside")
                for d in diffs[:10]:
                    print("    " + d)
                continue
            runs_done += 1
            total_values += n
            total_diffs += len(diffs)
            what_keys = (f" via {feature}, keys {keys if isinstance(keys, str) else ','.join(keys)}"
                         if keys else "")
            print(f"{fid} {run_id}{what_keys} ({anchor_file(used, vendor_key, args.rcp)}"
                  f"{', luma only' if luma_only else ''}): {n} values, {len(diffs)} differ")
            for d in diffs[:10]:
                print("    " + d)
            if n == 0:
                failed = True
    src = MONO10_SHIFTED.get(args.family)
    if src and not missing:
        files = []
        for side in ("ref", "dis"):
            files.append(os.path.join(args.work, f"{src}_mono10_{side}.y4m"))
            golden_extra.write_mono10_from_mono8(os.path.join(args.fixtures, f"{src}_{side}.y4m"), files[-1])
        fx = next(f for f in manifest["fixtures"] if f["id"] == src)
        for entry in FAMILIES[args.family]:
            run_id, anchor = entry[0], entry[1]
            if len(entry) > 2:
                continue
            gold_run = None
            for a in (anchor, "fork"):
                path = os.path.join(golden_dir, f"{src}.{a}.json")
                run = next((r for r in json.load(open(path))["runs"] if r["id"] == run_id), None)
                if run and run.get("computed"):
                    gold_run, used = run, a
                    break
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
            n, diffs = compare(gold_run["output_scalar"], ours, used == "fork", used == anchor)
            runs_done += 1
            total_values += n
            total_diffs += len(diffs)
            print(f"{src} shifted to Cmono10, {run_id} against the 8-bit golden ({used}): {n} values, "
                  f"{len(diffs)} differ")
            for d in diffs[:10]:
                print("    " + d)
            failed = failed or n == 0
    if args.family == "adm" and "adm" in built:
        r, v, d, f = golden_extra.adm_checks(args, manifest, golden_dir, adm_done, compare)
        runs_done += r
        total_values += v
        total_diffs += d
        failed |= f
    if args.family == "ciede" and "ciede" in built:
        r, v, d, f = golden_extra.ciede_checks(args, golden_dir, compare)
        runs_done += r
        total_values += v
        total_diffs += d
        failed |= f
    if missing:
        print(f"not in this build: {', '.join(sorted(missing))}"
              + (f" ({skipped} model runs skipped)" if models else ""))
    if runs_done == 0 and refusals == 0:
        print(f"SKIP: no {args.family} extractor in this build" if not models else
              f"SKIP: the model runs need extractors not in this build: {', '.join(sorted(missing))}")
        return 77
    envelope = (f", {envelope_runs} runs ({envelope_values} values) only within the fork's "
                f"envelope" if envelope_runs else "")
    print(f"golden {args.family}: {runs_done} runs, {total_values} values compared, "
          f"{total_diffs} differ, {refusals} deliberate refusals{envelope}")
    return 1 if failed or total_diffs or (missing and not models) else 0


if __name__ == "__main__":
    sys.exit(main())
