"""Checks of the golden test for fixtures where a golden is missing or is an artefact of the
references: derived inputs (a 10-bit copy of an 8-bit file, 4:4:4 copies of subsampled chroma)
whose scores must equal a golden or lockstep's own score of the original, value for value."""
import json
import os
import re
import subprocess


def parse_number(text):
    return float(text.lower().replace("infinity", "inf"))


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


def ciede_checks(args, golden_dir, compare):
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


def adm_checks(args, manifest, golden_dir, done, compare):
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
