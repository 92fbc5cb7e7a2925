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

# run ids per family; the anchor whose portable C path is the reference for each.
FAMILIES = {
    "psnr": [("psnr", "upstream"), ("psnr:enable_mse", "upstream"), ("psnr:enable_apsnr", "upstream"),
             ("psnr:min_sse=0.5", "upstream"), ("psnr:reduced_hbd_peak", "upstream")],
    "psnr_hvs": [("psnr_hvs", "fork")],
    "ssim": [("float_ssim", "upstream"), ("float_ssim:enable_db", "upstream"),
             ("float_ssim:enable_lcs", "upstream"), ("ssim", "fork")],
    "motion": [("float_motion", "upstream"), ("float_motion:motion_force_zero", "upstream"),
               ("float_motion:motion_max_val=2", "upstream"), ("motion", "upstream")],
    # MS-SSIM and CIEDE2000: upstream only. The fork's values differ in the last digits (its
    # pyramid and one product of its CIEDE2000 are computed differently), so it is no reference
    # where upstream could not read a file (p06, p06b, p11a: covered by tests/test_ms_ssim.c and,
    # for ciede, by the 4:4:4 checks below).
    "ms_ssim": [("float_ms_ssim", "upstream")],
    "ciede": [("ciede", "upstream")],
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
    # upstream fails every frame ("scale below 1x1"); the message names the smallest size
    ("p11b", "float_ms_ssim"): ("176x176", None),
    ("p11c", "float_ms_ssim"): ("176x176", None),
    ("p11d", "float_ms_ssim"): ("176x176", None),
    ("p06", "ciede"): ("no chroma", None),
    ("p06b", "ciede"): ("no chroma", None),
}
# Goldens that are artefacts of the references' memory layout, not scores (golden/README.md,
# "Where upstream and the fork differ"): upstream's 4:2:2 CIEDE2000 reads each chroma row to the
# full luma width, past its end. They are checked another way (derived_checks).
ARTEFACTS = {("p04", "ciede")}


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


def read_y4m(path):
    """Header fields and the frames' payloads of a Y4M file."""
    data = open(path, "rb").read()
    header, rest = data.split(b"\n", 1)
    tags = {t[:1].decode(): t[1:].decode() for t in header.split()[1:]}
    w, h, c = int(tags["W"]), int(tags["H"]), tags.get("C", "420jpeg")
    depth = re.search(r"p\d+$", c)  # C420p10, C422p12, ...; none for 8 bits (C420jpeg, C444)
    frames = [f for f in rest.split(b"FRAME\n")[1:]]
    return header, w, h, c, (depth.group(0) if depth else ""), frames


def to_444(src, dst, reference_layout=False):
    """Writes src (4:2:0 or 4:2:2) as 4:4:4: luma unchanged, chroma sample (i, j) repeated from
    (i >> ss_y, j >> ss_x) of the stored planes. reference_layout (4:2:2): instead, what libvmaf's
    CIEDE2000 reads: the chroma plane as one flat array with rows padded with zeros to 32
    samples, luma (i, j) taking flat[(i >> 1) * stride + j] (ciede.md §3)."""
    header, w, h, c, depth, frames = read_y4m(src)
    bps = 2 if depth else 1
    ss_x, ss_y = 1, 1 if c.startswith("420") else 0
    cw, ch = (w + ss_x) >> ss_x, (h + ss_y) >> ss_y
    tags = [t for t in header.split() if not t.startswith(b"C") and not t.startswith(b"XYSCSS")]
    out = [b" ".join(tags + [("C444" + depth).encode()]) + b"\n"]
    for f in frames:
        y = f[:w * h * bps]
        planes = []
        for k in range(2):
            off = (w * h + k * cw * ch) * bps
            rows = [f[off + r * cw * bps:off + (r + 1) * cw * bps] for r in range(ch)]
            if reference_layout:
                stride = (cw + 31) // 32 * 32
                flat = b"".join(r + bytes((stride - cw) * bps) for r in rows) + bytes(stride * bps)
                planes.append(b"".join(flat[((i >> 1) * stride) * bps:((i >> 1) * stride + w) * bps]
                                       for i in range(h)))
                continue
            up = []
            for r in rows:
                samples = [r[x:x + bps] for x in range(0, len(r), bps)]
                up.append(b"".join(s_ + s_ for s_ in samples)[:w * bps])
            planes.append(b"".join(up[i >> ss_y] for i in range(h)))
        out.append(b"FRAME\n" + y + planes[0] + planes[1])
    with open(dst, "wb") as fo:
        fo.write(b"".join(out))


def run_cli(args, out, ref, dis, feature):
    cmd = [args.cli, "-r", ref, "-d", dis, "--no_prediction", "--feature", feature, "-q", "--json",
           "--precision", "max", "-o", out, "--threads", args.threads, "--cpumask", args.cpumask]
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return json.load(open(out), parse_constant=parse_number), ""


def derived_checks(args, golden_dir):
    """CIEDE2000 where the goldens are layout artefacts or missing, through 4:4:4 copies:
    - p04 (10-bit 4:2:2) in the reference's layout, scored as 4:4:4, against the upstream golden:
      the same per-pixel arithmetic on the samples the reference read;
    - p04, p11a and p11b (odd 4:2:0) up-sampled from the stored chroma: lockstep on the original
      must equal lockstep on the 4:4:4 copy, every value.
    Returns (runs, values, differences, failed)."""
    runs = values = diffs = 0
    failed = False
    cases = [("p04", True), ("p04", False), ("p11a", False), ("p11b", False)]
    for fid, ref_layout in cases:
        name = f"{fid}_{'reflayout' if ref_layout else 'up'}444"
        paths = {}
        for side in ("ref", "dis"):
            src = os.path.join(args.fixtures, f"{fid}_{side}.y4m")
            paths[side] = os.path.join(args.work, f"{name}_{side}.y4m")
            if not os.path.exists(paths[side]):
                to_444(src, paths[side], ref_layout)
        ours, err = run_cli(args, os.path.join(args.work, f"{name}.json"), paths["ref"], paths["dis"], "ciede")
        if ours is None:
            print(f"{fid} ciede on {name}: lockstep failed: {err}")
            failed = True
            continue
        if ref_layout:
            g = json.load(open(os.path.join(golden_dir, f"{fid}.upstream.json")))
            gold = next(r for r in g["runs"] if r["id"] == "ciede")["output_scalar"]
            what = "upstream golden (the samples its 4:2:2 read saw, as 4:4:4)"
        else:
            gold, err = run_cli(args, os.path.join(args.work, f"{name}_orig.json"),
                                os.path.join(args.fixtures, f"{fid}_ref.y4m"),
                                os.path.join(args.fixtures, f"{fid}_dis.y4m"), "ciede")
            if gold is None:
                print(f"{fid} ciede: lockstep failed: {err}")
                failed = True
                continue
            what = "lockstep on the original"
        n, d = compare(gold, ours, False, False)
        runs += 1
        values += n
        diffs += len(d)
        print(f"{fid} ciede, 4:4:4 copy {'in the reference layout' if ref_layout else 'up-sampled'} "
              f"vs {what}: {n} values, {len(d)} differ")
        for line in d[:10]:
            print("    " + line)
        failed |= n == 0
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
            if (fid, extractor) in ARTEFACTS:
                print(f"{fid} {run_id}: golden is a layout artefact of the reference, checked below")
                continue
            opts = ":".join(f"{k}={v}" for k, v in (gold_run or {}).get("options", {}).items())
            if not gold_run and ":" in run_id:
                opts = run_id.split(":", 1)[1]
                if "=" not in opts:
                    opts += "=true"
            feature = extractor + ("=" + opts if opts else "")
            out = os.path.join(args.work, f"{fid}.{run_id.replace(':', '_').replace('=', '-')}.json")
            cmd = [args.cli, "-r", ref, "-d", dis, "--no_prediction", "--feature", feature, "-q", "--json",
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
    if args.family == "ciede" and "ciede" in built:
        r, v, d, f = derived_checks(args, golden_dir)
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
