#!/usr/bin/env python3
"""The CLI as a user meets it.

Bad input: each case must exit non-zero (not by a signal), within a time limit, with one line on
stderr naming the problem, and leave no report file. Good input: every output format, --subsample,
--frame_cnt/--frame_skip_*, and --threads N giving the same report as --threads 0.
Ends with the line `N passed, N failed`.
"""
import argparse
import json
import os
import re
import subprocess
import sys

results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail else ''}")


def run(cli, args, timeout=120):
    return subprocess.run([cli] + args, capture_output=True, text=True, timeout=timeout)


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    cli, fx, work = a.cli, a.fixtures, a.work
    os.makedirs(work, exist_ok=True)
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

    expect_error(cli, work, "truncated last frame", ["-r", two_ref, "-d", trunc, "--feature", f], "trunc")
    expect_error(cli, work, "distorted shorter than reference", ["-r", two_ref, "-d", short, "--feature", f], "ended before")
    expect_error(cli, work, "mismatched size", ["-r", ref, "-d", os.path.join(fx, "p07_dis.y4m"), "--feature", f], "dimensions")
    expect_error(cli, work, "mismatched format", ["-r", ref, "-d", os.path.join(fx, "p05_dis.y4m"), "--feature", f], "pixel format")
    expect_error(cli, work, "mismatched bit depth", ["-r", ref, "-d", os.path.join(fx, "p02_dis.y4m"), "--feature", f], "bitdepth")
    expect_error(cli, work, "corrupt Y4M signature", ["-r", badsig, "-d", two_dis, "--feature", f], "badsig.y4m")
    expect_error(cli, work, "Y4M header without width", ["-r", noW, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "zero width", ["-r", w0, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "absurd width", ["-r", wbig, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "non-numeric width", ["-r", wtxt, "-d", two_dis, "--feature", f], "width")
    expect_error(cli, work, "unknown chroma tag", ["-r", badc, "-d", two_dis, "--feature", f], "411x")
    expect_error(cli, work, "lost FRAME marker", ["-r", noframe, "-d", two_dis, "--feature", f], "FRAME")
    expect_error(cli, work, "header without newline", ["-r", nonl, "-d", two_dis, "--feature", f], "header")
    expect_error(cli, work, "not Y4M, no raw size", ["-r", garbage, "-d", two_dis, "--feature", f], "-w")
    expect_error(cli, work, "no frames", ["-r", empty, "-d", empty, "--feature", f], "no frames")
    expect_error(cli, work, "missing file", ["-r", os.path.join(work, "nope.y4m"), "-d", two_dis, "--feature", f], "nope.y4m")
    expect_error(cli, work, "directory as input", ["-r", work, "-d", two_dis, "--feature", f], work)
    expect_error(cli, work, "raw size mismatching the file", ["-r", garbage, "-d", garbage, "-w", "1000", "-h", "1000", "-p", "420", "-b", "8", "--feature", f], "trunc")
    expect_error(cli, work, "raw without all parameters", ["-r", garbage, "-d", garbage, "-w", "16", "--feature", f], "--height")
    expect_error(cli, work, "unknown feature", ["-r", two_ref, "-d", two_dis, "--feature", "psnrx"], "psnrx")
    expect_error(cli, work, "unknown option", ["-r", two_ref, "-d", two_dis, "--feature", "psnr=enable_foo=true"], "enable_foo", "psnr")
    expect_error(cli, work, "option without a value", ["-r", two_ref, "-d", two_dis, "--feature", "psnr=foo"], "bad option string")
    expect_error(cli, work, "option alias is not a key", ["-r", two_ref, "-d", two_dis, "--feature", "float_motion=mfw=2"], "unknown option \"mfw\"")
    tiny = ["-r", os.path.join(fx, "p11d_ref.y4m"), "-d", os.path.join(fx, "p11d_dis.y4m")]
    expect_error(cli, work, "frame smaller than psnr_hvs's block", tiny + ["--feature", "psnr_hvs"], "8x8 block")
    expect_error(cli, work, "frame smaller than float_ssim's window", tiny + ["--feature", "float_ssim"], "11x11")
    p11b = ["-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m")]
    expect_error(cli, work, "frame smaller than adm's pyramid", p11b + ["--feature", "adm"], "adm", "17x13", "at least 33x33")
    adm = ["-r", two_ref, "-d", two_dis, "--feature"]
    expect_error(cli, work, "adm viewing distance below 3H at 1080", adm + ["adm=adm_norm_view_dist=1"], "adm_norm_view_dist", "below 3 * 1080")
    expect_error(cli, work, "adm blend CSF without a table", adm + ["adm=adm_csf_mode=2:adm_norm_view_dist=4"], "adm_csf_mode=2", "no CSF table")
    expect_error(cli, work, "adm Barten CSF beyond fixed point", adm + ["adm=adm_csf_mode=1"], "adm_csf_scale", "fixed-point")
    expect_error(cli, work, "adm gain limit out of range", adm + ["adm=adm_enhn_gain_limit=0.5"], "adm_enhn_gain_limit", "range")
    expect_error(cli, work, "adm option alias is not a key", adm + ["adm=egl=1"], "unknown option \"egl\"")
    expect_error(cli, work, "chroma smaller than psnr_hvs's block", ["-r", os.path.join(fx, "p11b_ref.y4m"), "-d", os.path.join(fx, "p11b_dis.y4m"), "--feature", "psnr_hvs"], "enable_chroma=false")
    expect_error(cli, work, "malformed boolean", ["-r", two_ref, "-d", two_dis, "--feature", "psnr=enable_chroma=yes"], "enable_chroma", "yes")
    expect_error(cli, work, "malformed number", ["-r", two_ref, "-d", two_dis, "--feature", "psnr=min_sse=1x"], "min_sse", "1x")
    expect_error(cli, work, "out-of-range value", ["-r", two_ref, "-d", two_dis, "--feature", "psnr=min_sse=-1"], "min_sse", "range")
    expect_error(cli, work, "unknown CLI option", ["-r", two_ref, "-d", two_dis, "--feature", f, "--bogus"], "--bogus")
    expect_error(cli, work, "bad --precision", ["-r", two_ref, "-d", two_dis, "--feature", f, "--precision", "18"], "precision")
    expect_error(cli, work, "bad --threads", ["-r", two_ref, "-d", two_dis, "--feature", f, "--threads", "x"], "threads")
    expect_error(cli, work, "unknown backend", ["-r", two_ref, "-d", two_dis, "--feature", f, "--backend", "metal2"], "backend")

    # Output formats, at the default precision rule and at max.
    base = ["-r", ref, "-d", dis, "--feature", "psnr=enable_apsnr=true", "-q"]
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

    # Threads: same report as the synchronous run.
    def report(extra):
        out = os.path.join(work, "t.json")
        p = run(cli, ["-r", ref, "-d", dis, "-q", "--json", "--precision", "max", "-o", out] + extra)
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

    # Every extractor at 1080p, where frames are also read ahead by several threads.
    big = ["-r", os.path.join(fx, "p09_ref.y4m"), "-d", os.path.join(fx, "p09_dis.y4m")]
    listing = run(cli, ["--list-extractors"]).stdout.split("\n")
    every = [w for l in listing if l.endswith(" cpu") for w in ("--feature", l.split()[0])]
    one, e1 = report(big + every + ["--threads", "0"])
    many, e2 = report(big + every + ["--threads", "2"])
    check(f"all {len(every) // 2} extractors: --threads 2 equals --threads 0 at 1080p",
          one is not None and one == many, e1 + e2)
    cut, e3 = report(big + every + ["--threads", "2", "--frame_cnt", "4", "--frame_skip_ref", "1",
                                    "--frame_skip_dist", "1"])
    check("read-ahead with skips and --frame_cnt scores frames 1..4", cut is not None and
          [f["metrics"]["psnr_y"] for f in cut["frames"]] ==
          [f["metrics"]["psnr_y"] for f in one["frames"][1:5]], e3)

    # Parity mode and GPU backends as the CLI reports them.
    for backend in ("opencl", "cuda"):
        built = any(l.endswith(" " + backend) for l in listing)
        p = run(cli, ["-r", ref, "-d", dis, "--feature", "psnr=enable_apsnr=true", "--feature", "psnr_hvs",
                      "--parity", backend, "-q", "--frame_cnt", "6"])
        if p.returncode == 0:
            check(f"--parity {backend}: bit-identical", "parity bit-identical" in p.stdout, p.stdout)
        else:
            # no device here: a one-line refusal that names the backend, never a silent CPU run
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            ok = p.returncode == 255 and len(lines) == 1 and backend in lines[0]
            check(f"--parity {backend} without a device ({'built' if built else 'not built'}) "
                  f"is refused", ok, p.stderr.strip())
            print(f"     (SKIP {backend} parity: {lines[-1] if lines else ''})")

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

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
