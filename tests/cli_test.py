#!/usr/bin/env python3
"""The CLI as a user meets it.

Bad input: each case must exit non-zero (not by a signal), within a time limit, with one line on
stderr naming the problem, and leave no report file. Good input: every output format, --subsample,
--frame_cnt/--frame_skip_*, and --threads N giving the same report as --threads 0.
Ends with the line `N passed, N failed`.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

results = {"passed": 0, "failed": 0}
LIGHT = False


def in_order_sum(values):
    """Left-to-right double additions, as the library pools: Python 3.12's sum() of floats is
    compensated and differs in the last bits."""
    total = 0.0
    for v in values:
        total += v
    return total


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail else ''}")


def run(cli, args, timeout=120, env=None):
    return subprocess.run([cli] + args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **env) if env else None)


def y4m_frames(path):
    """Splits a Y4M file into its header line and raw frame records (b'FRAME\\n' + payload)."""
    data = open(path, "rb").read()
    header, rest = data.split(b"\n", 1)
    frames = [b"FRAME\n" + f for f in rest.split(b"FRAME\n")[1:]]
    return header, frames


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def expect_error(cli, work, name, args, *words):
    out = os.path.join(work, "bad.json")
    if os.path.exists(out):
        os.remove(out)
    try:
        p = run(cli, args + ["-o", out, "--json", "-q"], timeout=60)
    except subprocess.TimeoutExpired:
        check(f"bad input: {name}", False, "timed out (hang)")
        return
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    msg = lines[-1] if lines else ""
    ok = (p.returncode > 0 and p.returncode != 134 and p.returncode < 256 and not os.path.exists(out)
          and len(lines) == 1 and all(w.lower() in p.stderr.lower() for w in words))
    check(f"bad input: {name}", ok, f"exit {p.returncode}: {msg}" if ok else
          f"exit {p.returncode}, {len(lines)} stderr lines, output left: {os.path.exists(out)}, "
          f"wanted {words!r}: {p.stderr.strip()!r}")


# A VMAF-like model on the motion features alone (both extractors exist in every build), so that
# -m runs end to end whatever else is built; `predict` is its arithmetic written out (model.md §5).
MOTION_MODEL = {
    "feature_names": ["VMAF_integer_feature_motion2_score", "VMAF_feature_motion2_score"],
    "slopes": [0.001, 0.10, 0.05], "intercepts": [-0.3092981927591963, 0.01, 0.02],
    "sv": [(4.0, {1: 0.65734273, 2: 0.34681232}), (-4.0, {2: 0.49612229}), (2.5, {1: 0.9})],
    "gamma": 0.04, "rho": 2.67,  # scores from about 10 to 60 on p01
}


def motion_model_json(rho=None, model_type="LIBSVMNUSVR", extra=None):
    m = MOTION_MODEL
    svs = "".join(f"{c:.17g} " + " ".join(f"{i}:{v:.17g}" for i, v in sorted(e.items())) + " \n"
                  for c, e in m["sv"])
    md = {"model_type": model_type, "norm_type": "linear_rescale", "score_clip": [0.0, 100.0],
          "feature_names": m["feature_names"], "slopes": m["slopes"], "intercepts": m["intercepts"],
          "model": f"svm_type nu_svr\nkernel_type rbf\ngamma {m['gamma']}\nnr_class 2\n"
                   f"total_sv {len(m['sv'])}\nrho {m['rho'] if rho is None else rho}\nSV\n{svs}"}
    md.update(extra or {})
    return {"param_dict": {}, "model_dict": md}


def predict(raw, rho=None):
    m = MOTION_MODEL
    x = {k + 1: m["slopes"][k + 1] * raw[k] + m["intercepts"][k + 1] for k in range(len(raw))}
    total = 0.0
    for coef, sv in m["sv"]:
        d2 = 0.0
        for i in sorted(set(x) | set(sv)):
            if i in x and i in sv:
                d2 += (x[i] - sv[i]) * (x[i] - sv[i])
            else:
                v = x.get(i, sv.get(i))
                d2 += v * v
        total += coef * math.exp(-m["gamma"] * d2)
    y = (total - (m["rho"] if rho is None else rho) - m["intercepts"][0]) / m["slopes"][0]
    return min(max(y, 0.0), 100.0)


def model_tests(cli, fx, work):
    ref, dis = os.path.join(fx, "p01_ref.y4m"), os.path.join(fx, "p01_dis.y4m")
    two = ["-r", ref, "-d", dis, "--frame_cnt", "6"]
    mpath = write(os.path.join(work, "motion_model.json"), json.dumps(motion_model_json()).encode())

    # -m syntax: usage errors, exit 1
    def usage(name, args, *words):
        p = run(cli, two + args + ["-q"])
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        ok = p.returncode == 1 and len(lines) == 1 and all(w in lines[0] for w in words)
        check(f"-m usage: {name}", ok, f"exit {p.returncode}: {p.stderr.strip()!r}")
    usage("item without a value", ["-m", "version=vmaf_v0.6.1:foo"], 'item without a value: "foo"')
    usage("unknown item", ["-m", "version=vmaf_v0.6.1:foo=1"], 'unknown item "foo"', "EXTRACTOR.OPTION=VALUE")
    usage("no version or path", ["-m", "name=x"], "version=NAME", "path=FILE")
    usage("empty path", ["-m", "path="], 'item without a value: "path"')
    usage("duplicate names", ["-m", f"path={mpath}", "-m", f"path={mpath}"],
          "Each model should be uniquely named. Set using --model via the name=... param.")
    usage("duplicate with the default name", ["-m", f"path={mpath}:name=a", "-m", f"path={mpath}:name=a"],
          "uniquely named")
    usage("33 models", [a for i in range(33) for a in ("-m", f"path={mpath}:name=m{i}")],
          "A maximum of 32 models are supported")
    usage("-n without anything to compute", ["-n"], "add --feature NAME")

    # load and registration errors: exit 255, one line, no report
    bad = lambda name, text: write(os.path.join(work, name), text.encode())
    expect_error(cli, work, "unknown built-in model", two + ["-m", "version=vmaf_v9"],
                 'problem loading model: no such built-in model: "vmaf_v9" (built in: vmaf_v0.6.1, vmaf_b_v0.6.3')
    expect_error(cli, work, "model file missing", two + ["-m", f"path={work}/none.json"],
                 f'problem loading model: could not read model from path: "{work}/none.json": No such file')
    expect_error(cli, work, "model file not JSON", two + ["-m", "path=" + bad("nj.json", "{model")],
                 f"problem loading model: {work}/nj.json: not valid JSON (line 1, column 3)")
    m = motion_model_json(extra={"slopes": [1, "x"]})
    expect_error(cli, work, "model field of the wrong type", two + ["-m", "path=" + bad("wt.json", json.dumps(m))],
                 f"problem loading model: {work}/wt.json: model_dict.slopes[1]: expected a number, found a string")
    m = motion_model_json()
    del m["model_dict"]["norm_type"]
    expect_error(cli, work, "model without a field", two + ["-m", "path=" + bad("nf.json", json.dumps(m))],
                 f'{work}/nf.json: model_dict: no "norm_type" (linear_rescale or none)')
    m = motion_model_json(extra={"score_transform": {"p0": None}})
    expect_error(cli, work, "null in score_transform", two + ["-m", "path=" + bad("null.json", json.dumps(m))],
                 f"{work}/null.json: model_dict.score_transform.p0: null is not accepted (libvmaf refuses it too)")
    m = motion_model_json(extra={"feature_names": ["VMAF_feature_nothing_score", "VMAF_feature_motion2_score"]})
    expect_error(cli, work, "model feature without an extractor", two + ["-m", "path=" + bad("nx.json", json.dumps(m))],
                 f'problem loading feature extractors from model: {work}/nx.json: no extractor in this build '
                 f'provides feature "VMAF_feature_nothing_score"')
    expect_error(cli, work, "overload of an extractor the model does not use",
                 two + ["-m", f"path={mpath}:vif.vif_enhn_gain_limit=1.0"],
                 f'problem overloading feature extractors from model: {mpath}: no feature of the model is '
                 f'computed by extractor "vif"')
    expect_error(cli, work, "overload with an unknown option", two + ["-m", f"path={mpath}:motion.bogus=1"],
                 f'problem loading feature extractors from model: {mpath}: feature "VMAF_integer_feature_motion2_score": '
                 f'motion: unknown option "bogus"')
    expect_error(cli, work, "overload with a bad value", two + ["-m", f"path={mpath}:motion.motion_max_val=-3"],
                 'motion: option "motion_max_val" value "-3" is out of range')

    # end to end: model score per frame and pooled, bit for bit the spec's arithmetic
    def score(args, fmt="json"):
        out = os.path.join(work, f"m.{fmt}")
        if os.path.exists(out):
            os.remove(out)
        p = run(cli, ["-r", ref, "-d", dis, "-q", f"--{fmt}", "--precision", "max", "-o", out] + args)
        if p.returncode:
            return None, p.stderr
        text = open(out).read()
        return (json.loads(text) if fmt == "json" else text), p.stderr
    r, e = score(["-m", f"path={mpath}"])
    ok = r is not None
    frames = r["frames"] if ok else []
    mine = [f["metrics"].get("vmaf") for f in frames]
    want = [predict([f["metrics"]["integer_motion2"], f["metrics"]["motion2"]]) for f in frames] if ok else []
    check("motion model: 48 frames, every vmaf bit-identical to the spec's arithmetic",
          ok and len(frames) == 48 and mine == want and len(set(mine)) > 10, e or f"{mine[:3]} vs {want[:3]}")
    names = list(frames[0]["metrics"]) if ok else []
    check("model score written last, features first (as libvmaf)",
          names[-1:] == ["vmaf"] and names.index("integer_motion2") < names.index("vmaf"), str(names))
    pooled = r["pooled_metrics"].get("vmaf", {}) if ok else {}
    hm = len(mine) / in_order_sum(1.0 / (v + 1.0) for v in mine) - 1.0 if ok else None
    check("pooled vmaf: mean, harmonic mean, min, max", ok and pooled.get("min") == min(mine) and
          pooled.get("max") == max(mine) and pooled.get("harmonic_mean") == hm and
          pooled.get("mean") == in_order_sum(mine) / len(mine), str(pooled))
    for fmt, needle in (("xml", '<metric name="vmaf" min="'), ("csv", ",vmaf,\n0,"), ("sub", "|vmaf: ")):
        t, e = score(["-m", f"path={mpath}"], fmt)
        check(f"model score in --{fmt}", t is not None and needle in t, e)
    t, _ = score(["-m", f"path={mpath}"], "xml")
    check("--xml frame carries vmaf", t is not None and re.search(r'<frame frameNum="47" [^>]* vmaf="', t) is not None)

    # names, flags, several models, -n, overloads that change the feature names
    r, e = score(["-m", f"path={mpath}:name=first", "-m", f"path={mpath}:name=second:disable_clip",
                  "--feature", "psnr"])
    ok = r is not None and all(f["metrics"]["first"] == f["metrics"]["second"] for f in r["frames"])
    check("two models in one run, named, disable_clip without effect inside [0, 100]", ok, e)
    rho = 40.0  # pushes the scores below 0: clipped, unless disable_clip
    m = write(os.path.join(work, "low.json"), json.dumps(motion_model_json(rho=rho)).encode())
    r, e = score(["-m", f"path={m}", "-m", f"path={m}:name=raw:disable_clip=true", "-m", f"path={m}:name=raw2:disable_clip=false"])
    ok = r is not None
    check("clip at 0; disable_clip keeps the raw score; disable_clip=false clips",
          ok and all(f["metrics"]["vmaf"] == 0.0 and f["metrics"]["raw2"] == 0.0 and
                     f["metrics"]["raw"] < 0 for f in r["frames"]), e)
    r, e = score(["-m", f"path={mpath}", "-n"])
    check("-n with -m: features extracted, no model score",
          r is not None and "integer_motion2" in r["frames"][1]["metrics"] and "vmaf" not in r["pooled_metrics"], e)
    r, e = score(["-m", f"path={mpath}:motion.motion_force_zero=true"])
    ok = r is not None and "integer_motion2_force_0" in r["frames"][1]["metrics"]
    check("overload motion.motion_force_zero=true: the model reads integer_motion2_force_0",
          ok and all(f["metrics"]["vmaf"] == predict([0.0, f["metrics"]["motion2"]]) for f in r["frames"]), e)
    r, e = score(["-m", f"path={mpath}:float_motion.motion_fps_weight=2.0:motion.motion_max_val=1e-3"])
    ok = r is not None and "motion2_mfw_2" in r["frames"][1]["metrics"] and \
        "integer_motion2_mmxv_0.001" in r["frames"][1]["metrics"]
    check("overloads of both extractors, values normalised (2.0 -> 2, 1e-3 -> 0.001)", ok,
          e or str(list(r["frames"][1]["metrics"]) if r else ""))

    # a bootstrap collection through the CLI
    entries = {str(i): motion_model_json(rho=2.67 + 0.002 * i, model_type="BOOTSTRAP_LIBSVMNUSVR")
               for i in range(5)}
    cpath = write(os.path.join(work, "coll.json"), json.dumps(entries).encode())
    r, e = score(["-m", f"path={cpath}"])
    ok = r is not None
    names = list(r["frames"][0]["metrics"]) if ok else []
    want_names = ["vmaf", "vmaf_0001", "vmaf_0002", "vmaf_0003", "vmaf_0004", "vmaf_bagging",
                  "vmaf_stddev", "vmaf_ci_p95_lo", "vmaf_ci_p95_hi"]
    check("collection: primary, members, summary in libvmaf's order",
          names[-len(want_names):] == want_names and all(n in r["pooled_metrics"] for n in want_names), str(names))
    if ok:
        f = r["frames"][7]["metrics"]
        raw = [f["integer_motion2"], f["motion2"]]
        u = sorted(predict(raw, rho=2.67 + 0.002 * i) for i in range(1, 5))  # inside [0, 100]
        check("collection members and bagging are the spec's arithmetic",
              [f[f"vmaf_000{i}"] for i in range(1, 5)] == [predict(raw, rho=2.67 + 0.002 * i) for i in range(1, 5)]
              and f["vmaf_bagging"] == in_order_sum(predict(raw, rho=2.67 + 0.002 * i) for i in range(1, 5)) / 4
              and f["vmaf"] == predict(raw, rho=2.67) and f["vmaf_ci_p95_lo"] == u[0] * (1 - 0.075) + u[1] * 0.075,
              str(f))
    r, e = score(["-m", f"path={cpath}:name=boot:motion.motion_max_val=1e-3"])
    check("collection with name= and an overload on every member",
          r is not None and "boot_0004" in r["frames"][0]["metrics"] and "boot_ci_p95_hi" in r["pooled_metrics"]
          and "integer_motion2_mmxv_0.001" in r["frames"][2]["metrics"], e)

    # the default model when neither -m nor -n is given: vmaf_v0.6.1 (needs vif and adm)
    listing = run(cli, ["--list-extractors"]).stdout.split()
    r, e = score(["--frame_cnt", "3"])
    if "adm" in listing and "vif" in listing:
        check("no -m: vmaf_v0.6.1 named vmaf", r is not None and "vmaf" in r["pooled_metrics"], e)
    else:
        check("no -m: vmaf_v0.6.1, refused while adm/vif are not built",
              r is None and 'vmaf_v0.6.1: no extractor in this build provides feature "VMAF_integer_feature_adm2_score"' in e, e)

    # without -o the pooled scores are the result, on stdout, as "<label>: %f" (version= if given,
    # else path=), whatever stderr is; -q does not hide them
    p = run(cli, ["-r", ref, "-d", dis, "--frame_cnt", "4", "-m", f"path={mpath}:name=x", "-m", f"path={cpath}", "-q"])
    check("no -o: score lines per model and collection on stdout",
          p.returncode == 0 and re.fullmatch(rf"{re.escape(mpath)}: \d+\.\d{{6}}\n{re.escape(cpath)}: \d+\.\d{{6}}\n"
                                             rf"{re.escape(cpath)}: \d+\.\d{{6}}, ci\.p95: \[\d+\.\d{{6}}, \d+\.\d{{6}}\], stddev: \d+\.\d{{6}}\n",
                                             p.stdout) is not None and not p.stderr, repr(p.stdout + p.stderr))
    p = run(cli, ["-r", ref, "-d", dis, "--frame_cnt", "4", "-m", f"path={mpath}", "--precision", "max"])
    r, _ = score(["-m", f"path={mpath}", "--frame_cnt", "4"])
    printed = lambda text: [(k, float(v)) for k, v in (l.rsplit(": ", 1) for l in text.splitlines())]
    check("no -o: the printed score is the report's pooled mean (--precision max)",
          r is not None and printed(p.stdout) == [(mpath, r["pooled_metrics"]["vmaf"]["mean"])], repr(p.stdout))
    p = run(cli, ["-r", ref, "-d", dis, "--frame_cnt", "4", "-n", "--feature", "psnr", "--feature", "motion", "--precision", "max"])
    r, _ = score(["-n", "--feature", "psnr", "--feature", "motion", "--frame_cnt", "4"])
    want = [(k, v["mean"]) for k, v in r["pooled_metrics"].items()] if r else None
    check("no -o, -n: the mean of every feature, under its report name",
          p.returncode == 0 and printed(p.stdout) == want and len(want) > 5, repr(p.stdout) + " vs " + repr(want))
    out = os.path.join(work, "quiet.json")
    p = run(cli, ["-r", ref, "-d", dis, "--frame_cnt", "4", "-m", f"path={mpath}", "-o", out])
    check("with -o and no terminal: nothing printed", p.returncode == 0 and not p.stdout and not p.stderr,
          repr(p.stdout + p.stderr))

    # with -o, a terminal shows the scores on stderr, as the vmaf tool does
    import pty
    master, slave = pty.openpty()
    p = subprocess.run([cli, "-r", ref, "-d", dis, "--frame_cnt", "4", "-m", f"path={mpath}:name=x", "-m",
                        f"path={cpath}", "-o", out], stdout=subprocess.PIPE, stderr=slave, timeout=60)
    os.close(slave)
    tty = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    os.close(master)
    text = tty.decode(errors="replace")
    check("terminal with -o: score lines per model and collection on stderr",
          p.returncode == 0 and not p.stdout and re.search(rf"{re.escape(mpath)}: \d+\.\d{{6}}\r?\n", text) is not None and
          re.search(rf"{re.escape(cpath)}: \d+\.\d{{6}}, ci\.p95: \[\d+\.\d{{6}}, \d+\.\d{{6}}\], stddev: \d+\.\d{{6}}", text)
          is not None, repr(text[-400:]))


def report_of(cli, work, args, name="r.json"):
    """The JSON report of a run at --precision max, without its fps; (None, stderr) on failure."""
    out = os.path.join(work, name)
    if os.path.exists(out):
        os.remove(out)
    p = run(cli, args + ["-q", "--json", "--precision", "max", "-o", out])
    if p.returncode:
        return None, p.stderr
    r = json.load(open(out))
    r.pop("fps")
    return r, p.stderr


def preset_tests(cli, fx, work):
    """--aom_ctc / --nflx_ctc: the models and features of cli.md §2.6, in that order, with the
    values of the single runs; a common bit depth from v6.0."""
    def usage(name, args, text):
        p = run(cli, ["-r", "a.y4m", "-d", "b.y4m"] + args)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(f"preset usage: {name}", p.returncode == 1 and len(lines) == 1 and text in lines[0],
              f"exit {p.returncode}: {p.stderr.strip()!r}")
    usage("--aom_ctc proposed", ["--aom_ctc", "proposed"], "`--aom_ctc proposed` is deprecated.")
    usage("--aom_ctc v8.0", ["--aom_ctc", "v8.0"], 'bad aom_ctc version "v8.0"')
    usage("--nflx_ctc v2.0", ["--nflx_ctc", "v2.0"], 'bad nflx_ctc version "v2.0"')
    usage("a preset's vmaf beside -m's", ["-m", "version=vmaf_v0.6.1", "--aom_ctc", "v1.0"], "uniquely named")

    aom_v1 = ["psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede",
              "float_ssim=enable_db=true:clip_db=true", "float_ms_ssim=enable_db=true:clip_db=true", "psnr_hvs"]
    aom_models = ["version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"]
    presets = {
        ("aom_ctc", "v7.0"): (aom_models, aom_v1[:2] + ["float_ssim=scale=1:enable_db=true:clip_db=true"] + aom_v1[3:] + ["cambi"]),
        ("nflx_ctc", "v1.0"): (["version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"],
                               ["psnr=enable_chroma=true:enable_apsnr=true", "float_ssim=enable_db=true:clip_db=true", "cambi"]),
    }
    big = ["-r", os.path.join(fx, "p09_ref.y4m"), "-d", os.path.join(fx, "p09_dis.y4m"), "--frame_cnt", "2"]
    for (option, version), (models, features) in presets.items():
        preset, e = report_of(cli, work, big + [f"--{option}", version], "preset.json")
        if preset is None:
            check(f"--{option} {version} at 1080p", False, e)
            continue
        singles = [report_of(cli, work, big + ["-m", m], "single.json") for m in models]
        singles += [report_of(cli, work, big + ["-n", "--feature", f], "single.json") for f in features]
        bad = [e for r, e in singles if r is None]
        merged_frames = [{} for _ in preset["frames"]]
        pooled, aggregate = {}, {}
        for r, _ in singles:
            if r is None:
                continue
            for i, fr in enumerate(r["frames"]):
                merged_frames[i].update(fr["metrics"])
            pooled.update(r["pooled_metrics"])
            aggregate.update(r.get("aggregate_metrics", {}))
        values = sum(len(f["metrics"]) for f in preset["frames"])
        same = (not bad and [f["metrics"] for f in preset["frames"]] == merged_frames and
                preset["pooled_metrics"] == pooled and preset.get("aggregate_metrics", {}) == aggregate)
        names = list(preset["frames"][0]["metrics"])
        ok = same and {"vmaf", "vmaf_neg", "psnr_y", "float_ssim", "cambi"} <= set(names)
        check(f"--{option} {version} at 1080p: {values} values, each the single run's", ok,
              "" if ok else "; ".join(bad) or str(sorted(set(names) ^ set(merged_frames[0]))))
        # the models' features first, then the preset's features in its order, the scores last
        firsts = ("psnr_y", "ciede2000", "float_ssim", "float_ms_ssim", "psnr_hvs", "cambi")
        ok = ([n for n in names if n in firsts] == [n for n in firsts if n in names] and
              names.index("integer_vif_scale3_egl_1") < names.index("psnr_y") and names[-2:] == ["vmaf", "vmaf_neg"])
        check(f"--{option} {version}: features in the preset's order", ok, "" if ok else str(names))

    # every version: the models and features of its row (cambi from v3.0)
    small = ["-r", os.path.join(fx, "p01_ref.y4m"), "-d", os.path.join(fx, "p01_dis.y4m"), "--frame_cnt", "2"]
    for v in ("v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"):
        r, e = report_of(cli, work, small + ["--aom_ctc", v], "aom.json")
        names = set(r["frames"][1]["metrics"]) if r else set()
        want = {"vmaf", "vmaf_neg", "psnr_y", "ciede2000", "float_ssim", "float_ms_ssim", "psnr_hvs"}
        ok = want <= names and ("cambi" in names) == (v >= "v3.0") and "apsnr_y" in (r or {}).get("aggregate_metrics", {})
        check(f"--aom_ctc {v}: vmaf, vmaf_neg, psnr (apsnr), ciede, float_ssim, float_ms_ssim, psnr_hvs"
              f"{', cambi' if v >= 'v3.0' else ''}", ok, "" if ok else e or str(sorted(names)))

    # v6.0+: an 8-bit reference against a 10-bit distorted video is scored at 10 bits, the 8-bit
    # samples shifted up by 2 (as a 10-bit copy of the reference would be)
    header, frames = y4m_frames(os.path.join(fx, "p01_ref.y4m"))
    frames = frames[:2]
    ten = header.replace(b"C420jpeg", b"C420p10").replace(b"XYSCSS=420JPEG", b"XYSCSS=420P10") + b"\n"
    for fr in frames:
        ten += b"FRAME\n" + b"".join((v << 2).to_bytes(2, "little") for v in fr[6:])
    ref10 = write(os.path.join(work, "p01_ref_10bit.y4m"), ten)
    dis10 = os.path.join(fx, "p02_dis.y4m")
    mixed, e1 = report_of(cli, work, ["-r", os.path.join(fx, "p01_ref.y4m"), "-d", dis10, "--frame_cnt", "2",
                                      "--aom_ctc", "v6.0"], "mixed.json")
    shifted, e2 = report_of(cli, work, ["-r", ref10, "-d", dis10, "--frame_cnt", "2", "--aom_ctc", "v6.0"], "shifted.json")
    check("--aom_ctc v6.0: 8-bit reference, 10-bit distorted = the reference shifted to 10 bits",
          mixed is not None and mixed == shifted and "vmaf_neg" in mixed["frames"][1]["metrics"], e1 + e2)
    expect_error(cli, work, "--aom_ctc v5.0 keeps the bit depths apart",
                 ["-r", os.path.join(fx, "p01_ref.y4m"), "-d", dis10, "--aom_ctc", "v5.0"], "bitdepths do not match: 8, 10")


def first_run_tests(cli, fx, work, containers):
    """What a new user meets: version, help, stdin, containers, raw sizes, bit depths."""
    ref, dis = os.path.join(fx, "p01_ref.y4m"), os.path.join(fx, "p01_dis.y4m")
    for flag in ("-v", "--version"):
        p = run(cli, [flag])
        check(f"{flag}: lockstep and its version on stderr", p.returncode == 0 and
              re.fullmatch(r"lockstep \d+\.\d+\.\d+\n", p.stderr) is not None and not p.stdout, repr(p.stderr))
    version = run(cli, ["-v"]).stderr.strip()
    r, e = report_of(cli, work, ["-r", ref, "-d", dis, "-n", "--feature", "psnr", "--frame_cnt", "2"])
    out = os.path.join(work, "v.xml")
    run(cli, ["-r", ref, "-d", dis, "-n", "--feature", "psnr", "--frame_cnt", "2", "-o", out])
    check("reports say lockstep and its version (JSON, XML)", r is not None and r["version"] == version and
          f'<VMAF version="{version}">' in open(out).read(), e)
    h = run(cli, ["--help"]).stdout
    ok = ("--threads N               worker threads (default 0" in h and
          "Exit status: 0 success, 1 usage error, 3 --parity found differences, 255 any other error." in h and
          "--aom_ctc" in h and "--nflx_ctc" in h)
    check("--help: the default thread count, the exit codes, the presets", ok, "" if ok else h[-600:])

    # a pipe on one side: the same scores as the file
    want, e = report_of(cli, work, ["-r", ref, "-d", dis, "-n", "--feature", "psnr", "--frame_cnt", "3"])
    outp = os.path.join(work, "pipe.json")
    with open(dis, "rb") as fin:
        p = subprocess.run([cli, "-r", ref, "-d", "-", "-n", "--feature", "psnr", "--frame_cnt", "3", "-q", "--json",
                            "--precision", "max", "-o", outp], stdin=fin, capture_output=True, timeout=60)
    got = json.load(open(outp)) if p.returncode == 0 else None
    if got:
        got.pop("fps")
    check("-d - reads the distorted video from stdin", got is not None and got == want, p.stderr.decode())
    p = run(cli, ["-r", "-", "-d", "-"])
    check("-r - with -d - is refused as such", p.returncode == 1 and
          "-r - and -d - cannot both read standard input: pipe one of the videos and give the other as a file" in p.stderr,
          p.stderr)

    # containers: decoded by a build with FFmpeg's libraries (tests/container_test.py), else the
    # way to decode them; a broken one is refused either way
    mp4 = write(os.path.join(work, "in.mp4"), b"\0\0\0\x18ftypmp42" + b"\0" * 4000)
    mkv = write(os.path.join(work, "in.mkv"), b"\x1a\x45\xdf\xa3" + b"\0" * 4000)
    if containers:
        expect_error(cli, work, "a broken .mp4 input", ["-r", ref, "-d", mp4],
                     f"{mp4}: FFmpeg's libraries cannot read it: Invalid data found when processing input (moov atom not found)")
        expect_error(cli, work, "a broken .mkv input, even with -w -h -p -b", ["-r", mkv, "-d", mkv, "-w", "576", "-h", "324", "-p", "420", "-b", "8"],
                     f"{mkv}: FFmpeg's libraries cannot read it: ")
        h = run(cli, ["--help"]).stdout
        check("--help: containers read through FFmpeg's libraries", "Containers: read through libavformat " in h, h[-300:])
    else:
        expect_error(cli, work, "an .mp4 input", ["-r", ref, "-d", mp4],
                     f"{mp4}: an MP4/MOV container (compressed video), not Y4M or raw YUV: decode it first, e.g. "
                     f"ffmpeg -i {mp4} -f yuv4mpegpipe -strict -1 - | lockstep -r ref.y4m -d - (this lockstep was "
                     "built without FFmpeg's libraries libavformat, libavcodec and libavutil, which would read it directly)")
        expect_error(cli, work, "an .mkv input, even with -w -h -p -b", ["-r", mkv, "-d", mkv, "-w", "576", "-h", "324", "-p", "420", "-b", "8"],
                     "a Matroska/WebM container (compressed video)", "ffmpeg -i")
        h = run(cli, ["--help"]).stdout
        check("--help: no containers in this build", "Containers: none (built without FFmpeg's libavformat, libavcodec, libavutil)" in h, h[-300:])

    # raw: a size no frame divides names the layouts that would; 8-bit data read as 10-bit
    header, frames = y4m_frames(ref)
    raw3 = write(os.path.join(work, "three.yuv"), b"".join(fr[6:] for fr in frames[:3]))
    expect_error(cli, work, "raw 4:2:0 8-bit read as 10-bit, odd frame count",
                 ["-r", raw3, "-d", raw3, "-w", "576", "-h", "324", "-p", "420", "-b", "10"],
                 "839808 bytes is not a whole number of 576x324 420 10-bit frames (559872 bytes each: 1 frame and 279936 bytes left over)",
                 "these would fit: -w 576 -h 324 -p 420 -b 8 (3 frames)")
    raw2 = write(os.path.join(work, "two.yuv"), b"".join(fr[6:] for fr in frames[:2]))
    expect_error(cli, work, "raw 8-bit read as 10-bit, even frame count (samples above 1023)",
                 ["-r", raw2, "-d", raw2, "-w", "576", "-h", "324", "-p", "420", "-b", "10", "-n", "--feature", "psnr"],
                 "frame 0: luma sample", "is above the 10-bit maximum 1023: is the file 8-bit (two samples read as one 16-bit word)? check -b")


def report_file_tests(cli, fx, work):
    """-o: the report appears whole or not at all (a temporary in the same directory, renamed when
    complete): failing writes, unwritable paths, missing inputs and signals leave no report and
    no temporary, and an existing report as it was."""
    ref, dis = os.path.join(fx, "p01_ref.y4m"), os.path.join(fx, "p01_dis.y4m")
    args = ["-r", ref, "-d", dis, "-n", "--feature", "psnr", "-q", "--json"]
    d = os.path.join(work, "reports")
    os.makedirs(d, exist_ok=True)
    out = os.path.join(d, "out.json")
    leftovers = lambda: [f for f in os.listdir(d) if ".lockstep-" in f]
    header, frames = y4m_frames(dis)
    truncated = write(os.path.join(work, "report_trunc.y4m"),
                      header + b"\n" + frames[0] + frames[1][:len(frames[1]) // 2])

    def failing(name, extra, message, preexec=None, old=b"old report\n"):
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        if old is not None:
            write(out, old)
        p = subprocess.run([cli] + args + extra, capture_output=True, text=True, timeout=60,
                           preexec_fn=preexec)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        kept = open(out, "rb").read() == old if old is not None else not os.path.exists(out)
        ok = p.returncode == 255 and lines == [message] and kept and not leftovers()
        check(f"report: {name}", ok, f"exit {p.returncode}, {p.stderr.strip()!r}, report kept: {kept}, "
              f"left: {leftovers()}")

    failing("-o /dev/full: the write error, named", ["-o", "/dev/full"],
            "cannot write the report to /dev/full: No space left on device")
    import stat
    check("report: /dev/full is still the device", stat.S_ISCHR(os.stat("/dev/full").st_mode))
    failing("a missing directory fails before scoring", ["-o", os.path.join(d, "none", "x.json")],
            f"cannot write the report to {d}/none/x.json: No such file or directory")
    failing("a path under a regular file", ["-o", os.path.join(out, "x.json")],
            f"cannot write the report to {out}/x.json: Not a directory")
    failing("a directory as the report", ["-o", d], f"cannot write the report to {d}: Is a directory")
    failing("a missing input leaves the old report", ["-o", out, "-d", os.path.join(d, "none.y4m")],
            f"{d}/none.y4m: cannot open: No such file or directory")
    failing("a missing input creates no report", ["-o", out, "-d", os.path.join(d, "none.y4m")],
            f"{d}/none.y4m: cannot open: No such file or directory", old=None)
    failing("a bad frame mid-run (truncated input) leaves the old report",
            ["-o", out, "-d", truncated], f"{truncated}: truncated frame 1: got 139965 of 279936 bytes")

    def small_files():
        import resource
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    write(out, b"old report\n")
    p = subprocess.run([cli] + args + ["-o", out], capture_output=True, text=True, timeout=60,
                       preexec_fn=small_files)
    check("report: a write that fails half-way (file size limit) leaves the old report, no temporary",
          p.returncode == 255 and p.stderr == f"cannot write the report to {out}: File too large\n" and
          open(out, "rb").read() == b"old report\n" and
          not leftovers(), f"exit {p.returncode}, {p.stderr!r}, left: {leftovers()}")

    # --html, shard reports (--frame_range) and `lockstep merge -o` go the same way
    page = os.path.join(d, "page.html")
    failing("--html /dev/full: the write error, named", ["--html", "/dev/full"],
            "cannot write the report to /dev/full: No space left on device")
    failing("--html in a missing directory fails before scoring",
            ["-o", out, "--html", os.path.join(d, "none", "p.html")],
            f"cannot write the report to {d}/none/p.html: No such file or directory")
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    write(page, b"old page\n")
    write(out, b"old report\n")
    p = subprocess.run([cli] + args + ["-o", out, "--html", page], capture_output=True, text=True,
                       timeout=60, preexec_fn=small_files)
    check("report: the page failing half-way leaves the old page and the old report, no temporary",
          p.returncode == 255 and p.stderr == f"cannot write the report to {page}: File too large\n" and
          open(page, "rb").read() == b"old page\n" and open(out, "rb").read() == b"old report\n" and
          not leftovers(), f"exit {p.returncode}, {p.stderr!r}, left: {leftovers()}")
    # a range past the video's end: a shard that merges alone
    write(page, b"old page\n")
    p = subprocess.run([cli] + args + ["-o", "/dev/full", "--html", page], capture_output=True,
                       text=True, timeout=60)
    check("report: -o failing after the page is written leaves the old page, no temporary",
          p.returncode == 255 and p.stderr == "cannot write the report to /dev/full: No space left on device\n" and
          open(page, "rb").read() == b"old page\n" and not leftovers(),
          f"exit {p.returncode}, {p.stderr!r}, left: {leftovers()}")
    failing("a shard report to /dev/full", ["--frame_range", "0:1000", "-o", "/dev/full"],
            "cannot write the report to /dev/full: No space left on device")
    shard = os.path.join(d, "shard.json")
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    write(shard, b"old shard\n")
    # psnr's mse too: a shard report above the 4 KiB limit
    shard_args = ["-r", ref, "-d", dis, "-n", "--feature", "psnr=enable_mse=true", "-q", "--frame_range",
                  "0:1000", "-o", shard]
    p = subprocess.run([cli] + shard_args, capture_output=True, text=True, timeout=60,
                       preexec_fn=small_files)
    check("report: a shard report failing half-way leaves the old one, no temporary",
          p.returncode == 255 and p.stderr == f"cannot write the report to {shard}: File too large\n" and
          open(shard, "rb").read() == b"old shard\n" and not leftovers(),
          f"exit {p.returncode}, {p.stderr!r}, left: {leftovers()}")
    p = subprocess.run([cli] + shard_args, capture_output=True, text=True, timeout=60)
    merged = os.path.join(d, "merged.json")
    write(merged, b"old report\n")
    m = subprocess.run([cli, "merge", shard, "--json", "-o", "/dev/full"], capture_output=True,
                       text=True, timeout=60)
    check("report: lockstep merge -o /dev/full: the write error, named",
          p.returncode == 0 and m.returncode == 255 and
          m.stderr == "lockstep merge: cannot write the report to /dev/full: No space left on device\n",
          f"exit {p.returncode} {m.returncode}, {p.stderr!r} {m.stderr!r}")
    m = subprocess.run([cli, "merge", shard, "--json", "-o", merged], capture_output=True, text=True,
                       timeout=60, preexec_fn=small_files)
    check("report: lockstep merge failing half-way leaves the old report, no temporary",
          m.returncode == 255 and
          m.stderr == f"lockstep merge: cannot write the report to {merged}: File too large\n" and
          open(merged, "rb").read() == b"old report\n" and not leftovers(),
          f"exit {m.returncode}, {m.stderr!r}, left: {leftovers()}")
    m = subprocess.run([cli, "merge", shard, "--json", "-o", os.path.join(d, "none", "m.json")],
                       capture_output=True, text=True, timeout=60)
    check("report: lockstep merge -o in a missing directory",
          m.returncode == 255 and m.stderr == f"lockstep merge: cannot write the report to {d}/none/m.json: "
          "No such file or directory\n", f"exit {m.returncode}, {m.stderr!r}")
    m = subprocess.run([cli, "merge", shard, "--json", "-o", merged], capture_output=True, text=True,
                       timeout=60)
    check("report: lockstep merge -o replaces the report", m.returncode == 0 and
          len(json.load(open(merged))["frames"]) == len(frames) and not leftovers(), f"{m.stderr!r}")
    write(out, b"old report\n")

    # a complete run replaces the report: the mode of a new file (umask), or of the one replaced;
    # through a symbolic link, the file it names
    os.remove(out)
    p = subprocess.run([cli] + args + ["-o", out], capture_output=True, timeout=60,
                       preexec_fn=lambda: os.umask(0o027))
    ok = p.returncode == 0 and json.load(open(out))["frames"] and (os.stat(out).st_mode & 0o777) == 0o640
    check("report: a new report has the umask's mode (0640 under 027), not the temporary's 0600", ok,
          oct(os.stat(out).st_mode))
    os.chmod(out, 0o604)
    p = subprocess.run([cli] + args + ["-o", out, "--frame_cnt", "2"], capture_output=True, timeout=60)
    ok = p.returncode == 0 and len(json.load(open(out))["frames"]) == 2 and (os.stat(out).st_mode & 0o777) == 0o604
    check("report: replacing a report keeps its mode", ok, oct(os.stat(out).st_mode))
    link = os.path.join(d, "link.json")
    os.symlink("out.json", link)
    p = subprocess.run([cli] + args + ["-o", link, "--frame_cnt", "3"], capture_output=True, timeout=60)
    check("report: through a symbolic link, the file it names is replaced",
          p.returncode == 0 and os.path.islink(link) and len(json.load(open(out))["frames"]) == 3 and
          not leftovers(), str(os.listdir(d)))
    os.remove(link)

    # signals: the run is waiting for more frames on a pipe; the temporary goes, the old report
    # stays, the process dies of the signal after one line
    import signal
    data = open(dis, "rb").read()
    for sig, text in ((signal.SIGINT, "interrupted (SIGINT)"), (signal.SIGTERM, "terminated (SIGTERM)")):
        write(out, b"old report\n")
        p = subprocess.Popen([cli, "-r", ref, "-d", "-", "-n", "--feature", "psnr", "-q", "--json", "-o", out],
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdin.write(data[:len(data) // 3])
        p.stdin.flush()
        started = time.time()
        while not leftovers() and time.time() - started < 10:
            time.sleep(0.05)
        had_temporary = bool(leftovers())
        time.sleep(0.3)
        p.send_signal(sig)
        try:
            err = p.communicate(timeout=30)[1].decode()
        except subprocess.TimeoutExpired:
            p.kill()
            err = "(hang)"
        ok = (had_temporary and p.returncode == -sig and err == f"lockstep: {text}, no report written\n" and
              open(out, "rb").read() == b"old report\n" and not leftovers())
        check(f"report: {signal.Signals(sig).name} mid-run removes the temporary, keeps the old report",
              ok, f"exit {p.returncode}, {err!r}, temporary seen: {had_temporary}, left: {leftovers()}")

    # an input cut short (inside frame 0) while the CLI scores its frames from the mapped file (the
    # run must have mapped it: /proc/PID/maps):
    # a frame not yet borrowed is read and found truncated; in one already borrowed the pages
    # past the new end are gone (SIGBUS). Either way one line says so, the temporary goes, the
    # old report stays. Not under ThreadSanitizer (--light), whose runtime takes the fault
    # signals for itself.
    if not LIGHT:
        header, frames = y4m_frames(os.path.join(os.path.dirname(ref), "p09_ref.y4m"))
        long_in = write(os.path.join(d, "long.y4m"), header + b"\n" + b"".join(frames[:4]) * 10)
        write(out, b"old report\n")
        # (under AddressSanitizer the CLI's own handler, not the runtime's, takes SIGBUS)
        asan = (os.environ.get("ASAN_OPTIONS", "") + ":handle_sigbus=0").lstrip(":")
        p = subprocess.Popen([cli, "-r", long_in, "-d", long_in, "-q", "--json", "-o", out,
                              "--threads", "1"], stderr=subprocess.PIPE,
                             env=dict(os.environ, ASAN_OPTIONS=asan))
        started = time.time()
        while not leftovers() and time.time() - started < 10:
            time.sleep(0.01)
        had_temporary = bool(leftovers())
        def mapped():
            try:
                return any(l.rstrip().endswith("/long.y4m") for l in open(f"/proc/{p.pid}/maps"))
            except OSError:
                return False
        while not mapped() and p.poll() is None and time.time() - started < 10:
            time.sleep(0.01)
        was_mapped = mapped()
        time.sleep(0.2)  # frames are being scored (40 take about a second)
        os.truncate(long_in, len(header) + 1 + len(frames[0]) // 2)
        try:
            err = p.communicate(timeout=60)[1].decode()
        except subprocess.TimeoutExpired:
            p.kill()
            err = "(hang)"
        bus = "lockstep: an input file was cut short while it was read (SIGBUS), no report written\n"
        ok = (had_temporary and was_mapped and (p.returncode == -signal.SIGBUS and err == bus or
                                 p.returncode > 0 and err.count("\n") == 1 and
                                 re.search(r"long.y4m: truncated frame \d+: got", err)) and
              open(out, "rb").read() == b"old report\n" and not leftovers())
        check("report: an input cut short mid-run says so and keeps the old report", ok,
              f"exit {p.returncode}, {err!r}, temporary seen: {had_temporary}, file mapped: "
              f"{was_mapped}, left: {leftovers()}")
        os.remove(long_in)


def thread_tests(cli, fx, work):
    """--threads N and the reader threads: the reports of the synchronous run."""
    ref, dis = os.path.join(fx, "p01_ref.y4m"), os.path.join(fx, "p01_dis.y4m")

    def report(extra, env=None, inputs=None):
        out = os.path.join(work, "t.json")
        p = run(cli, (inputs or ["-r", ref, "-d", dis]) +
                ["-q", "--json", "--precision", "max", "-o", out] +
                (["-n"] if "-m" not in extra else []) + extra, env=env)
        if p.returncode:
            return None, p.stderr
        j = json.load(open(out))
        j.pop("fps")
        return j, ""
    feats = ["--feature", "psnr=enable_apsnr=true:enable_mse=true", "--feature", "float_psnr"]
    one, e1 = report(feats + ["--threads", "0"])
    for t in ("1", "2", "5"):
        many, e2 = report(feats + ["--threads", t])
        check(f"--threads {t} report equals --threads 0", one is not None and one == many, e1 + e2)

    # Every extractor at 1080p (frames of 256 KB and more are also read ahead by several
    # threads); light (ThreadSanitizer, ten times slower): six frames of p01, read ahead too.
    big = ["-r", os.path.join(fx, "p09_ref.y4m"), "-d", os.path.join(fx, "p09_dis.y4m")]
    where, threads = "at 1080p", "2"
    if LIGHT:
        big, where, threads = ["--frame_cnt", "6"], "on 6 frames of p01", "3"
    listing = run(cli, ["--list-extractors"]).stdout.split("\n")
    every = [w for l in listing if l.endswith(" cpu") for w in ("--feature", l.split()[0])]
    one, e1 = report(big + every + ["--threads", "0"])
    many, e2 = report(big + every + ["--threads", threads])
    check(f"all {len(every) // 2} extractors: --threads {threads} equals --threads 0 {where}",
          one is not None and one == many, e1 + e2)
    # Frames borrowed from the mapped files (CPU scoring of large frames) against frames copied
    # into pool pictures (LOCKSTEP_NO_MAP=1): the same report from every extractor, at 1080p,
    # whose 4:2:0 chroma rows (960 samples) lie in the file unpadded.
    copied, e4 = report(big + every + ["--threads", threads], env={"LOCKSTEP_NO_MAP": "1"})
    check(f"all {len(every) // 2} extractors: frames borrowed from the files equal frames copied "
          f"{where}", one is not None and one == copied, e1 + e4)
    # Raw 512x512 4:2:0 frames are 96 pages each: the file ends on a page boundary, where the
    # kernels' reads past the last frame's end meet the zero pages after the mapping.
    header, frames = y4m_frames(os.path.join(fx, "p09_ref.y4m"))
    _, dframes = y4m_frames(os.path.join(fx, "p09_dis.y4m"))
    def crop(frame, w=1920, h=1080, n=512):
        data, out, off = frame[6:], [], 0
        for pw, ph, k in ((w, h, n), (w // 2, h // 2, n // 2), (w // 2, h // 2, n // 2)):
            out += [data[off + y * pw:off + y * pw + k] for y in range(k)]
            off += pw * ph
        return b"".join(out)
    raw = []
    for name, src in (("page_ref.yuv", frames), ("page_dis.yuv", dframes)):
        raw += ["-r" if not raw else "-d",
                write(os.path.join(work, name), b"".join(crop(f) for f in src[:3]))]
    raw += ["-w", "512", "-h", "512", "-p", "420", "-b", "8"]
    ends = os.path.getsize(raw[1]) % os.sysconf("SC_PAGE_SIZE") == 0
    mapped, e5 = report(every, inputs=raw)
    copied, e6 = report(every, env={"LOCKSTEP_NO_MAP": "1"}, inputs=raw)
    check(f"all {len(every) // 2} extractors on raw frames ending the file on a page boundary: "
          "borrowed equal copied", ends and mapped is not None and mapped == copied, e5 + e6)
    cut, e3 = report(big + every + ["--threads", threads, "--frame_cnt", "4", "--frame_skip_ref", "1",
                                    "--frame_skip_dist", "1"])
    check("read-ahead with skips and --frame_cnt scores frames 1..4", cut is not None and
          [f["metrics"]["psnr_y"] for f in cut["frames"]] ==
          [f["metrics"]["psnr_y"] for f in one["frames"][1:5]], e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", help="comma-separated groups to run: " + ", ".join(GROUPS) +
                    " (default: everything)")
    ap.add_argument("--light", action="store_true",
                    help="smaller inputs where a group offers them (instrumented builds)")
    ap.add_argument("--containers", type=int, default=0, help="1: built with FFmpeg's libraries")
    a = ap.parse_args()
    global LIGHT, CONTAINERS
    LIGHT = a.light
    CONTAINERS = a.containers
    cli, fx, work = a.cli, a.fixtures, a.work
    os.makedirs(work, exist_ok=True)
    if a.only:
        for group in a.only.split(","):
            GROUPS[group](cli, fx, work)
        print(f"{results['passed']} passed, {results['failed']} failed")
        return 1 if results["failed"] else 0
    ref, dis = os.path.join(fx, "p01_ref.y4m"), os.path.join(fx, "p01_dis.y4m")

    header, frames = y4m_frames(ref)
    dheader, dframes = y4m_frames(dis)
    two_ref = write(os.path.join(work, "two_ref.y4m"), header + b"\n" + b"".join(frames[:2]))
    two_dis = write(os.path.join(work, "two_dis.y4m"), dheader + b"\n" + b"".join(dframes[:2]))
    trunc = write(os.path.join(work, "trunc.y4m"), dheader + b"\n" + dframes[0] + dframes[1][:-1000])
    short = write(os.path.join(work, "short.y4m"), dheader + b"\n" + dframes[0])
    badsig = write(os.path.join(work, "badsig.y4m"), b"YUV4MPEX" + header[8:] + b"\n" + frames[0])
    noW = write(os.path.join(work, "now.y4m"), header.replace(b"W576 ", b"") + b"\n" + frames[0])
    w0 = write(os.path.join(work, "w0.y4m"), header.replace(b"W576", b"W0") + b"\n" + frames[0])
    wbig = write(os.path.join(work, "wbig.y4m"), header.replace(b"W576", b"W999999999") + b"\n" + frames[0])
    wtxt = write(os.path.join(work, "wtxt.y4m"), header.replace(b"W576", b"Wabc") + b"\n" + frames[0])
    badc = write(os.path.join(work, "badc.y4m"), header.replace(b"C420jpeg", b"C411x") + b"\n" + frames[0])
    noframe = write(os.path.join(work, "noframe.y4m"), header + b"\n" + frames[0] + b"FRAMX\n" + frames[1][6:])
    nonl = write(os.path.join(work, "nonl.y4m"), header)
    garbage = write(os.path.join(work, "garbage.bin"), b"\x00" * 1000)
    empty = write(os.path.join(work, "empty.y4m"), header + b"\n")
    f = "psnr"

    expect_error(cli, work, "truncated last frame", ["-n", "-r", two_ref, "-d", trunc, "--feature", f], "trunc")
    expect_error(cli, work, "distorted shorter than reference", ["-n", "-r", two_ref, "-d", short, "--feature", f], "ended before")
    expect_error(cli, work, "mismatched size", ["-n", "-r", ref, "-d", os.path.join(fx, "p07_dis.y4m"), "--feature", f], "dimensions")
    expect_error(cli, work, "mismatched format", ["-n", "-r", ref, "-d", os.path.join(fx, "p05_dis.y4m"), "--feature", f], "pixel format")
    expect_error(cli, work, "mismatched bit depth", ["-n", "-r", ref, "-d", os.path.join(fx, "p02_dis.y4m"), "--feature", f], "bitdepth")
    expect_error(cli, work, "corrupt Y4M signature", ["-n", "-r", badsig, "-d", two_dis, "--feature", f], "badsig.y4m")
    expect_error(cli, work, "Y4M header without width", ["-n", "-r", noW, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "zero width", ["-n", "-r", w0, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "absurd width", ["-n", "-r", wbig, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "non-numeric width", ["-n", "-r", wtxt, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "unknown chroma tag", ["-n", "-r", badc, "-d", two_dis, "--feature", f], "411x")
    expect_error(cli, work, "lost FRAME marker", ["-n", "-r", noframe, "-d", two_dis, "--feature", f], "FRAME")
    expect_error(cli, work, "header without newline", ["-n", "-r", nonl, "-d", two_dis, "--feature", f], "header")
    expect_error(cli, work, "not Y4M, no raw size", ["-n", "-r", garbage, "-d", two_dis, "--feature", f], "-w")
    expect_error(cli, work, "no frames", ["-n", "-r", empty, "-d", empty, "--feature", f], "no frames")
    expect_error(cli, work, "missing file", ["-n", "-r", os.path.join(work, "nope.y4m"), "-d", two_dis, "--feature", f], "nope.y4m")
    expect_error(cli, work, "directory as input", ["-n", "-r", work, "-d", two_dis, "--feature", f], work)
    expect_error(cli, work, "raw size mismatching the file", ["-n", "-r", garbage, "-d", garbage, "-w", "1000", "-h", "1000", "-p", "420", "-b", "8", "--feature", f],
                 "1000 bytes is not a whole number of 1000x1000 420 8-bit frames", "check -w -h -p -b")
    expect_error(cli, work, "raw without all parameters", ["-n", "-r", garbage, "-d", garbage, "-w", "16", "--feature", f], "--height")
    expect_error(cli, work, "unknown feature", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnrx"], "psnrx")
    expect_error(cli, work, "unknown option", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnr=enable_foo=true"], "enable_foo", "psnr")
    expect_error(cli, work, "option without a value", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnr=foo"], "bad option string")
    expect_error(cli, work, "option alias is not a key", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_motion=mfw=2"], "unknown option \"mfw\"")
    tiny = ["-n", "-r", os.path.join(fx, "p11d_ref.y4m"), "-d", os.path.join(fx, "p11d_dis.y4m")]
    expect_error(cli, work, "frame smaller than psnr_hvs's block", tiny + ["--feature", "psnr_hvs"], "8x8 block")
    expect_error(cli, work, "frame smaller than float_ssim's window", tiny + ["--feature", "float_ssim"], "11x11")
    p11b = ["-n", "-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m")]
    adm = ["-n", "-r", two_ref, "-d", two_dis, "--feature"]
    expect_error(cli, work, "frame smaller than adm's pyramid", p11b + ["--feature", "adm"], "adm", "17x13", "at least 33x33")
    expect_error(cli, work, "adm viewing distance below 3H at 1080", adm + ["adm=adm_norm_view_dist=1"], "adm_norm_view_dist", "below 3 * 1080")
    expect_error(cli, work, "adm blend CSF without a table", adm + ["adm=adm_csf_mode=2:adm_norm_view_dist=4"], "adm_csf_mode=2", "no CSF table")
    expect_error(cli, work, "adm Barten CSF beyond fixed point", adm + ["adm=adm_csf_mode=1"], "adm_csf_scale", "fixed-point")
    expect_error(cli, work, "adm gain limit out of range", adm + ["adm=adm_enhn_gain_limit=0.5"], "adm_enhn_gain_limit", "range")
    expect_error(cli, work, "adm option alias is not a key", adm + ["adm=egl=1"], "unknown option \"egl\"")
    expect_error(cli, work, "frame smaller than float_vif's pyramid", tiny + ["--feature", "float_vif"], "7x7", "at least 16x16")
    small = ["-n", "-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m")]
    def crop_width(header, frames, w_new):
        w, h = 576, 324
        out = [header.replace(b"W576", b"W%d" % w_new) + b"\n"]
        for fr in frames[:2]:
            data = fr[6:]
            planes = [(0, w, h), (w * h, w // 2, h // 2), (w * h * 5 // 4, w // 2, h // 2)]
            cw_new = (w_new + 1) // 2
            rows = []
            for off, pw, ph in planes:
                keep = w_new if pw == w else cw_new
                rows += [data[off + y * pw:off + y * pw + keep] for y in range(ph)]
            out.append(b"FRAME\n" + b"".join(rows))
        return b"".join(out)
    crop175_ref = write(os.path.join(work, "w175_ref.y4m"), crop_width(header, frames, 175))
    crop175_dis = write(os.path.join(work, "w175_dis.y4m"), crop_width(dheader, dframes, 175))
    expect_error(cli, work, "frame smaller than the MS-SSIM pyramid", tiny + ["--no_prediction", "--feature", "float_ms_ssim"], "float_ms_ssim", "176x176")
    expect_error(cli, work, "just below the MS-SSIM pyramid (175 wide)", ["-n", "-r", crop175_ref, "-d", crop175_dis, "--no_prediction", "--feature", "float_ms_ssim"], "175x324", "176x176")
    expect_error(cli, work, "CIEDE2000 on 4:0:0", ["-n", "-r", os.path.join(fx, "p06_ref.y4m"), "-d", os.path.join(fx, "p06_dis.y4m"), "--no_prediction", "--feature", "ciede"], "ciede", "no chroma")
    expect_error(cli, work, "ciede has no options", ["-n", "-r", two_ref, "-d", two_dis, "--no_prediction", "--feature", "ciede=enable_db=true"], "ciede", "unknown option \"enable_db\"")
    expect_error(cli, work, "float_ms_ssim has no scale option", ["-n", "-r", two_ref, "-d", two_dis, "--no_prediction", "--feature", "float_ms_ssim=scale=2"], "float_ms_ssim", "unknown option \"scale\"")
    expect_error(cli, work, "malformed MS-SSIM boolean", ["-n", "-r", two_ref, "-d", two_dis, "--no_prediction", "--feature", "float_ms_ssim=enable_lcs=1"], "enable_lcs", "1")
    expect_error(cli, work, "frame one side below float_vif's pyramid", small + ["--feature", "float_vif"], "17x13", "at least 16x16")
    expect_error(cli, work, "float_vif's pyramid with a wider kernel", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_vif=vif_kernelscale=3.71134:vif_prescale=0.1"], "vif_prescale=0.1", "at least 56x56")
    expect_error(cli, work, "unknown float_vif prescale method", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_vif=vif_prescale_method=area"], "invalid vif_prescale_method \"area\"")
    expect_error(cli, work, "kernel scale not in float_vif's list", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_vif=vif_kernelscale=1.2"], "invalid vif_kernelscale 1.2")
    expect_error(cli, work, "float_vif gain limit below 1", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_vif=vif_enhn_gain_limit=0.5"], "vif_enhn_gain_limit", "range")
    expect_error(cli, work, "float_vif alias is not a key", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_vif=egl=1"], "unknown option \"egl\"")
    expect_error(cli, work, "frame smaller than vif's pyramid (17x13)", ["-n", "-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m"), "--feature", "vif"], "vif: frame 17x13 is too small", "smallest frame it can score is 16x16")
    expect_error(cli, work, "frame smaller than vif's pyramid (7x7)", tiny + ["--feature", "vif=vif_enhn_gain_limit=1"], "vif: frame 7x7", "16x16")
    expect_error(cli, work, "vif gain limit out of range", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "vif=vif_enhn_gain_limit=0.5"], "vif_enhn_gain_limit", "range")
    expect_error(cli, work, "frame smaller than float_adm's pyramid", tiny + ["--feature", "float_adm"], "float_adm: frame 7x7", "smallest size that works is 17x17")
    expect_error(cli, work, "frame height below float_adm's pyramid", ["-n", "-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m"), "--feature", "float_adm"], "17x13", "17x17")
    expect_error(cli, work, "float_adm option out of range", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_adm=adm_csf_mode=10"], "adm_csf_mode", "range")
    expect_error(cli, work, "float_adm's omission-only default", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_adm=adm_skip_aim_scale=-1"], "adm_skip_aim_scale", "range")
    expect_error(cli, work, "float_adm alias is not a key", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_adm=egl=1"], "unknown option \"egl\"")
    expect_error(cli, work, "float_adm malformed number", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "float_adm=adm_p_norm=3x"], "adm_p_norm", "3x")
    expect_error(cli, work, "chroma smaller than psnr_hvs's block", ["-n", "-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m"), "--feature", "psnr_hvs"], "enable_chroma=false")
    expect_error(cli, work, "malformed boolean", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnr=enable_chroma=yes"], "enable_chroma", "yes")
    expect_error(cli, work, "malformed number", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnr=min_sse=1x"], "min_sse", "1x")
    expect_error(cli, work, "out-of-range value", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "psnr=min_sse=-1"], "min_sse", "range")
    expect_error(cli, work, "unknown CLI option", ["-n", "-r", two_ref, "-d", two_dis, "--feature", f, "--bogus"], "--bogus")
    expect_error(cli, work, "bad --precision", ["-n", "-r", two_ref, "-d", two_dis, "--feature", f, "--precision", "18"], "precision")
    expect_error(cli, work, "bad --threads", ["-n", "-r", two_ref, "-d", two_dis, "--feature", f, "--threads", "x"], "threads")
    expect_error(cli, work, "unknown backend", ["-n", "-r", two_ref, "-d", two_dis, "--feature", f, "--backend", "metal2"], "backend")
    # cambi: frames below its smallest size, option values it refuses, samples above the depth
    cambi = lambda opts: ["--no_prediction", "--feature", "cambi" + ("=" + opts if opts else "")]
    expect_error(cli, work, "frame smaller than cambi's 216", tiny + cambi(""), "cambi", "at least 216")
    expect_error(cli, work, "cambi: unknown EOTF", ["-r", two_ref, "-d", two_dis] + cambi("eotf=hlg"), "unknown EOTF \"hlg\"")
    expect_error(cli, work, "cambi: explicit 0 for an encoding size", ["-r", two_ref, "-d", two_dis] + cambi("enc_width=0"), "enc_width", "out of range")
    expect_error(cli, work, "cambi: window too large for the reciprocal table", ["-r", os.path.join(fx, "p09_ref.y4m"), "-d", os.path.join(fx, "p09_dis.y4m")] + cambi("window_size=127:cambi_max_val=5:src_width=2560:src_height=1440"), "gives a window of 85", "src_width/src_height")
    expect_error(cli, work, "cambi: heat maps in an uncreatable directory", ["-r", two_ref, "-d", two_dis] + cambi("heatmaps_path=/proc/cambi/x"), "cannot create the heat-map directory")
    data10 = open(os.path.join(fx, "p02_dis.y4m"), "rb").read()
    h10, rest10 = data10.split(b"\n", 1)
    f10 = rest10.split(b"FRAME\n")
    bad = bytearray(f10[2])
    bad[2 * (576 * 100 + 33)] = bad[2 * (576 * 100 + 33) + 1] = 0xff
    f10[2] = bytes(bad)
    over = write(os.path.join(work, "over10.y4m"), h10 + b"\n" + b"FRAME\n".join(f10))
    # (cambi's own check of such samples is the library's: test_cambi; the reader refuses them first)
    expect_error(cli, work, "a 10-bit sample above 1023", ["-r", os.path.join(fx, "p02_ref.y4m"), "-d", over] + cambi(""),
                 "over10.y4m: frame 1: luma sample 65535 at (33, 100) is above the 10-bit maximum 1023: the Y4M header says C420p10")

    # SpEED: option values the reference crashes on, sizes below one 5x5 block after the 16x
    # decimation (the prescaled v1 models at 320x180: upstream crashes), 4:0:0 without chroma
    speed = lambda opts: ["-n", "-r", two_ref, "-d", two_dis, "--feature", "speed_chroma=" + opts]
    expect_error(cli, work, "speed_chroma: kernel scale not in the list", speed("speed_kernelscale=0.9"), "speed_chroma: invalid speed_kernelscale 0.9 (valid: 1, 0.5, 1.5")
    expect_error(cli, work, "speed_chroma: unknown prescale method", speed("speed_prescale_method=foo"), 'speed_chroma: invalid speed_prescale_method "foo" (nearest, bilinear, bicubic or lanczos4)')
    expect_error(cli, work, "speed_chroma: weight mode 7", speed("speed_weight_var_mode=7"), 'option "speed_weight_var_mode" value "7" is out of range [0, 6]')
    expect_error(cli, work, "speed_temporal has no weight mode", ["-n", "-r", two_ref, "-d", two_dis, "--feature", "speed_temporal=speed_weight_var_mode=1"], 'unknown option "speed_weight_var_mode"')
    expect_error(cli, work, "speed_chroma on 4:0:0", ["-n", "-r", os.path.join(fx, "p06_ref.y4m"), "-d", os.path.join(fx, "p06_dis.y4m"), "--feature", "speed_chroma"], "speed_chroma: the input has no chroma (4:0:0)")
    expect_error(cli, work, "speed_temporal below one block", tiny + ["--feature", "speed_temporal"], "speed_temporal: luma 7x7 is too small; SpEED needs at least 80x80")
    expect_error(cli, work, "speed_chroma below one block", p11b + ["--feature", "speed_chroma"], "chroma plane 8x6 is too small", "a 4:2:0 frame of at least 160x160")
    expect_error(cli, work, "speed_chroma: prescale within 0.001 of 1 that resizes", ["-n", "-r", os.path.join(fx, "p07_ref.y4m"), "-d", os.path.join(fx, "p07_dis.y4m"), "--frame_cnt", "1", "--feature", "speed_chroma=speed_prescale=1.0009"], "speed_prescale 1.0009 makes the 960x540 chroma plane 961x540")

    def crop420(header, frames, w, h, w0=576, h0=324):
        """The top-left w x h of each 8-bit 4:2:0 frame."""
        out = []
        for fr in frames:
            y = fr[6:6 + w0 * h0]
            u = fr[6 + w0 * h0:6 + w0 * h0 + (w0 // 2) * (h0 // 2)]
            v = fr[6 + w0 * h0 + (w0 // 2) * (h0 // 2):]
            planes = [b"".join(y[r * w0:r * w0 + w] for r in range(h))]
            for c in (u, v):
                planes.append(b"".join(c[r * (w0 // 2):r * (w0 // 2) + w // 2] for r in range(h // 2)))
            out.append(b"FRAME\n" + b"".join(planes))
        return header.replace(b"W576", b"W%d" % w).replace(b"H324", b"H%d" % h) + b"\n" + b"".join(out)
    small_ref = write(os.path.join(work, "320x180_ref.y4m"), crop420(header, frames[:3], 320, 180))
    small_dis = write(os.path.join(work, "320x180_dis.y4m"), crop420(dheader, dframes[:3], 320, 180))
    for version, ps, need in (("3d0h_2160", "0.5", "159x159, i.e. a 4:2:0 frame of at least 318x318"),
                              ("5d0h", "0.6", "133x133, i.e. a 4:2:0 frame of at least 266x266"),
                              ("hfr_3d0h_2160", "0.5", "318x318"), ("hfr_5d0h", "0.6", "266x266")):
        out = os.path.join(work, "v1_small.json")
        if os.path.exists(out):
            os.remove(out)
        p = run(cli, ["-r", small_ref, "-d", small_dis, "-m", f"version=vmaf_v1.0.16_{version}",
                      "-q", "--json", "-o", out])
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        want = (f"speed_chroma: chroma plane 160x90 scaled to {int(160 * float(ps) + 0.5)}x"
                f"{int(90 * float(ps) + 0.5)} (speed_prescale {ps}) is too small; SpEED needs at "
                f"least 80x80 after scaling (a chroma plane of at least ")
        ok = p.returncode == 255 and len(lines) == 1 and lines[0].startswith(want) and \
            need in lines[0] and not os.path.exists(out)
        check(f"bad input: vmaf_v1.0.16_{version} at 320x180 (upstream crashes)", ok,
              f"exit {p.returncode}: {p.stderr.strip()!r}")
    for version in ("3d0h", "1d5h_2160"):  # unscaled SpEED: 160x90 chroma is one block row
        out = os.path.join(work, "v1_small.json")
        p = run(cli, ["-r", small_ref, "-d", small_dis, "-m", f"version=vmaf_v1.0.16_{version}",
                      "-q", "--json", "-o", out])
        got = json.load(open(out)) if p.returncode == 0 else {}
        ok = p.returncode == 0 and len(got.get("frames", [])) == 3 and \
            "speed_chroma_uv_mxv_45_nnf_0.1_snn_0.19_wvm_5" in got["frames"][0]["metrics"]
        check(f"vmaf_v1.0.16_{version} at 320x180 computes", ok, f"exit {p.returncode}: {p.stderr.strip()!r}")
    # speed_temporal sees every frame (temporal) also with --subsample and threads
    outs = []
    for extra in ([], ["--subsample", "3", "--threads", "2"]):
        out = os.path.join(work, f"speed_sub{len(extra)}.json")
        p = run(cli, ["-r", ref, "-d", dis, "--frame_cnt", "10", "-n", "--feature", "speed_temporal",
                      "--feature", "speed_chroma", "-q", "--json", "--precision", "max", "-o", out] + extra)
        outs.append({f["frameNum"]: f["metrics"] for f in json.load(open(out))["frames"]}
                    if p.returncode == 0 else {})
    ok = sorted(outs[1]) == [0, 3, 6, 9] and all(outs[0][k] == outs[1][k] for k in outs[1])
    check("speed_temporal with --subsample 3 --threads 2: the full run's values", ok,
          f"{sorted(outs[1])}")
    expect_error(cli, work, "v1 model with a bad speed_chroma override", ["-r", two_ref, "-d", two_dis, "-m", "version=vmaf_v1.0.16_3d0h:speed_chroma.speed_kernelscale=0.9"], "speed_chroma: invalid speed_kernelscale 0.9")

    # Output formats, at the default precision rule and at max.
    base = ["-r", ref, "-d", dis, "--feature", "psnr=enable_apsnr=true", "-q", "-n"]
    for fmt in ("xml", "json", "csv", "sub"):
        out = os.path.join(work, f"out.{fmt}")
        p = run(cli, base + [f"--{fmt}", "-o", out])
        text = open(out).read() if p.returncode == 0 and os.path.exists(out) else ""
        ok = {
            "xml": text.startswith('<VMAF version="') and '<frame frameNum="47" psnr_y="' in text
                   and '<metric name="psnr_y" min="' in text and "apsnr_cr=" in text,
            "json": '"frameNum": 47' in text and '"apsnr_y":' in text,
            "csv": text.startswith("Frame,psnr_y,psnr_cb,psnr_cr,\n0,") and len(text.splitlines()) == 49,
            "sub": text.startswith("{0}{1}frame: 0|psnr_y: ") and len(text.splitlines()) == 48,
        }[fmt]
        check(f"output --{fmt}", ok, "" if ok else text[:200] + p.stderr)
    js = json.load(open(os.path.join(work, "out.json")))
    v = js["frames"][0]["metrics"]["psnr_y"]
    check("default precision is %.6f", re.search(r'"psnr_y": \d+\.\d{6},', open(os.path.join(work, "out.json")).read()) is not None)

    def report(extra, env=None, inputs=None):
        out = os.path.join(work, "t.json")
        p = run(cli, (inputs or ["-r", ref, "-d", dis]) +
                ["-q", "--json", "--precision", "max", "-o", out] +
                (["-n"] if "-m" not in extra else []) + extra, env=env)
        if p.returncode:
            return None, p.stderr
        j = json.load(open(out))
        j.pop("fps")
        return j, ""
    listing = run(cli, ["--list-extractors"]).stdout.split("\n")

    # Parity mode and GPU backends as the CLI reports them.
    for backend in ("opencl", "cuda"):
        built = any(l.endswith(" " + backend) for l in listing)
        p = run(cli, ["-r", ref, "-d", dis, "--feature", "psnr=enable_apsnr=true", "--feature", "psnr_hvs",
                      "--parity", backend, "-q", "--frame_cnt", "6", "-n"])
        if p.returncode == 0:
            check(f"--parity {backend}: bit-identical", "parity bit-identical" in p.stdout, p.stdout)
        else:
            # no device here: a one-line refusal that names the backend, never a silent CPU run
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            ok = p.returncode == 255 and len(lines) == 1 and backend in lines[0]
            check(f"--parity {backend} without a device ({'built' if built else 'not built'}) "
                  f"is refused", ok, p.stderr.strip())
            print(f"     (SKIP {backend} parity: {lines[-1] if lines else ''})")

    # Output names with feature parameters: suffixed, except float_adm's debug name "adm".
    named, e = report(["--feature", "float_adm=adm_enhn_gain_limit=1:debug=true", "--frame_cnt", "2"])
    scales = [f"adm_scale{i}_egl_1" for i in range(4)]
    per_scale = [f"adm_{k}_scale{i}_egl_1" for i in range(4) for k in ("num", "den")]
    want = ["adm2_egl_1", "aim_egl_1", "adm3_egl_1"] + scales + ["adm", "adm_num_egl_1", "adm_den_egl_1"] + per_scale
    got = list(named["frames"][0]["metrics"]) if named else []
    check("float_adm names with adm_enhn_gain_limit=1 and debug", got == want, f"{got} {e}")
    plain, e = report(["--feature", "float_adm", "--frame_cnt", "2"])
    got = list(plain["frames"][0]["metrics"]) if plain else []
    check("float_adm default names", got == ["adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"], f"{got} {e}")

    # Frame selection.
    sub, e = report(["--feature", "psnr", "--subsample", "3"])
    check("--subsample 3 prints frames 0,3,6..", sub is not None and
          [f["frameNum"] for f in sub["frames"]] == list(range(0, 48, 3)), e)
    cnt, e = report(["--feature", "psnr", "--frame_cnt", "5", "--frame_skip_ref", "2", "--frame_skip_dist", "2"])
    full, _ = report(["--feature", "psnr"])
    check("--frame_cnt 5 with skips scores frames 2..6",
          cnt is not None and len(cnt["frames"]) == 5 and
          cnt["frames"][0]["metrics"] == full["frames"][2]["metrics"], e)

    # Raw YUV through -w -h -p -b: same scores as the Y4M.
    raw_ref = write(os.path.join(work, "r.yuv"), b"".join(fr[6:] for fr in frames[:3]))
    raw_dis = write(os.path.join(work, "d.yuv"), b"".join(fr[6:] for fr in dframes[:3]))
    rawrep, e = report(["-r", raw_ref, "-d", raw_dis, "-w", "576", "-h", "324", "-p", "420", "-b", "8", "--feature", "psnr"])
    check("raw YUV scores equal the Y4M's", rawrep is not None and rawrep["frames"] == full["frames"][:3], e)

    for group in GROUPS.values():
        group(cli, fx, work)

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


GROUPS = {"threads": thread_tests, "model": model_tests, "report": report_file_tests,
          "first_run": lambda cli, fx, work: first_run_tests(cli, fx, work, CONTAINERS),
          "presets": preset_tests}

if __name__ == "__main__":
    sys.exit(main())
