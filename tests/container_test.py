#!/usr/bin/env python3
"""Containers read through FFmpeg's libraries (src/input/av.c), as a user meets them.

Lossless encodes of fixtures (FFV1 in Matroska for every layout: 8/10/12-bit 4:2:0, 10-bit 4:2:2,
4:4:4, gray, 10-bit gray; lossless H.264 in MP4) must score bit-identically to their Y4M, every
value of the report at %.17g; a lossy H.264 encode must score as ffmpeg's own decode of it to Y4M.
Containers on either side, with --threads, skips and --frame_cnt, and on standard input. Bad input
(RGB or alpha, no video stream, a text file named .mkv, sizes/layouts/depths that differ, a file
cut short, damage the decoder would conceal: flipped bytes in checksummed FFV1 and in H.264, a
size change within a stream, interlaced video) exits non-zero with one line naming the problem and
leaves no report. The progress line on a
terminal shows frames, FPS and time left for Y4M and containers.

Skips (exit 77) when the CLI is built without FFmpeg's libraries or Debian's `ffmpeg` (which makes
the encodes) is missing. Ends with the line `N passed, N failed`.
"""
import argparse
import json
import os
import pty
import re
import shutil
import subprocess
import sys

results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail else ''}", flush=True)


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-nostdin"] + list(args), check=True)


def encoders():
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    return {line.split()[1] for line in out.splitlines()[10:] if len(line.split()) > 1}


def report(cli, work, args, stdin=None, name="r.json"):
    """The JSON report at %.17g without its fps line, or (None, stderr)."""
    out = os.path.join(work, name)
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([cli] + args + ["-q", "--json", "--precision", "max", "-o", out], stdin=stdin,
                       capture_output=True, text=True, timeout=300)
    if p.returncode:
        return None, p.stderr.strip()
    r = json.load(open(out))
    r.pop("fps", None)
    return r, ""


def values(r):
    """Every number of a report, with its place: frames, pooled, aggregates."""
    out = {}
    for f in r["frames"]:
        for k, v in f["metrics"].items():
            out[(f["frameNum"], k)] = v
    for k, m in r["pooled_metrics"].items():
        for p, v in m.items():
            out[("pooled", k, p)] = v
    for k, v in r.get("aggregate_metrics", {}).items():
        out[("aggregate", k)] = v
    return out


def compare(name, want, got, err):
    """Same keys and the same text of every value (json keeps the %.17g digits as floats)."""
    if want is None or got is None:
        check(name, False, err)
        return 0
    a, b = values(want), values(got)
    differ = [k for k in a if k not in b or repr(a[k]) != repr(b[k])] + [k for k in b if k not in a]
    check(name, not differ and len(a) > 0, f"{len(a)} values identical" if not differ else
          f"{len(differ)} of {len(a)} differ, e.g. {differ[:3]}")
    return len(a) if not differ else 0


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def flip(data):
    """data with every 97th of 2000 bytes from a third of the way in changed."""
    b = bytearray(data)
    for i in range(len(b) // 3, len(b) // 3 + 2000, 97):
        b[i] ^= 0x5A
    return bytes(b)


def compare_quiet(want, got):
    """Whether two (report, stderr) results are the same report."""
    return want[0] is not None and got[0] is not None and values(want[0]) == values(got[0])


def expect_error(cli, work, name, args, *words, stdin=None):
    out = os.path.join(work, "bad.json")
    if os.path.exists(out):
        os.remove(out)
    try:
        p = subprocess.run([cli] + args + ["-o", out, "--json", "-q"], stdin=stdin, capture_output=True,
                           text=True, timeout=120)
    except subprocess.TimeoutExpired:
        check(f"bad input: {name}", False, "timed out (hang)")
        return
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    ok = (0 < p.returncode < 128 or p.returncode == 255) and not os.path.exists(out) and len(lines) == 1 \
        and all(w in p.stderr for w in words)
    check(f"bad input: {name}", ok, lines[-1] if ok else
          f"exit {p.returncode}, {len(lines)} stderr lines, report left: {os.path.exists(out)}, "
          f"wanted {words!r}: {p.stderr.strip()!r}")


def progress_line(cli, args):
    """What the CLI writes to a terminal's stderr while it scores (stdout to a pipe)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([cli] + args, stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=120)
    os.close(master)
    return p.returncode, b"".join(chunks).decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--quick", action="store_true",
                    help="sanitizer builds: the first 6 frames of each fixture, fewer variants")
    a = ap.parse_args()
    cli, fx, work = a.cli, a.fixtures, a.work
    os.makedirs(work, exist_ok=True)
    if "Containers: read through" not in subprocess.run([cli, "--help"], capture_output=True, text=True).stdout:
        print("SKIP: lockstep is built without FFmpeg's libraries")
        return 77
    if not shutil.which("ffmpeg"):
        print("SKIP: Debian's ffmpeg (which makes the test encodes) is not installed (scripts/deps.sh)")
        return 77
    have = encoders()
    y4m = lambda f, kind: os.path.join(fx, f"{f}_{kind}.y4m")
    limit = ["--frame_cnt", "6"] if a.quick else []
    scored = 0

    # lossless FFV1 in Matroska: every layout; the model, and features that read every plane
    features = ["--feature", "psnr", "--feature", "float_ssim"]
    for f in ["p01", "p02", "p03", "p04", "p05", "p06", "p06b"]:
        mkv = {}
        for kind in ("ref", "dis"):
            mkv[kind] = os.path.join(work, f"{f}_{kind}.mkv")
            ffmpeg("-i", y4m(f, kind), "-c:v", "ffv1", mkv[kind])
        want, e = report(cli, work, ["-r", y4m(f, "ref"), "-d", y4m(f, "dis")] + features + limit)
        got, e2 = report(cli, work, ["-r", y4m(f, "ref"), "-d", mkv["dis"]] + features + limit)
        scored += compare(f"{f}: Y4M reference, FFV1 .mkv distorted = Y4M", want, got, e or e2)
        if a.quick and f not in ("p01", "p05"):
            continue
        got, e2 = report(cli, work, ["-r", mkv["ref"], "-d", mkv["dis"]] + features + limit)
        scored += compare(f"{f}: both FFV1 .mkv = Y4M", want, got, e or e2)

    ref, dis = y4m("p01", "ref"), y4m("p01", "dis")
    mkv = os.path.join(work, "p01_dis.mkv")
    # threads, skips and counts as with Y4M (the container decoded ahead in its own thread)
    for extra in (["--threads", "2"], ["--frame_skip_ref", "3", "--frame_skip_dist", "3", "--frame_cnt", "7"],
                  ["--subsample", "4", "--frame_cnt", "12"]):
        want, e = report(cli, work, ["-r", ref, "-d", dis] + extra)
        got, e2 = report(cli, work, ["-r", ref, "-d", mkv] + extra)
        scored += compare(f"p01 .mkv with {' '.join(extra)} = Y4M", want, got, e or e2)
    # standard input
    want, e = report(cli, work, ["-r", ref, "-d", dis] + limit)
    with open(mkv, "rb") as fin:
        got, e2 = report(cli, work, ["-r", ref, "-d", "-"] + limit, stdin=fin)
    scored += compare("p01 .mkv on standard input = Y4M", want, got, e or e2)

    # H.264: lossless in MP4 = the Y4M; lossy = ffmpeg's decode of it
    if "libx264" in have:
        mp4 = os.path.join(work, "p01_lossless.mp4")
        ffmpeg("-i", dis, "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", mp4)
        got, e2 = report(cli, work, ["-r", ref, "-d", mp4] + limit)
        scored += compare("p01 lossless H.264 .mp4 = Y4M", want, got, e or e2)
        lossy = os.path.join(work, "p01_crf35.mp4")
        ffmpeg("-i", ref, "-c:v", "libx264", "-crf", "35", "-preset", "veryfast", lossy)
        decoded = os.path.join(work, "p01_crf35.y4m")
        ffmpeg("-i", lossy, "-f", "yuv4mpegpipe", "-strict", "-1", decoded)
        want2, e = report(cli, work, ["-r", ref, "-d", decoded] + features + limit)
        got, e2 = report(cli, work, ["-r", ref, "-d", lossy] + features + limit)
        scored += compare("p01 lossy H.264 .mp4 = ffmpeg's decode of it to Y4M", want2, got, e or e2)
        vm = want2["pooled_metrics"]["vmaf"]["mean"] if want2 else None
        check("the lossy encode scores below the lossless one", vm is not None and vm < want["pooled_metrics"]["vmaf"]["mean"],
              f"{vm} < {want['pooled_metrics']['vmaf']['mean'] if want else None}")
    else:
        print("note: no libx264 encoder in this ffmpeg: the H.264 cases are left out")
    print(f"{scored} values compared, all bit-identical" if results["failed"] == 0 else
          f"{scored} values compared in the identical cases")

    # bad input: one line naming the problem
    rgb = os.path.join(work, "rgb.mkv")
    ffmpeg("-i", y4m("p05", "dis"), "-c:v", "ffv1", "-pix_fmt", "bgr0", rgb)
    expect_error(cli, work, "RGB video", ["-r", y4m("p05", "ref"), "-d", rgb],
                 f"{rgb}: its ffv1 video decodes to bgr0, which lockstep does not score",
                 f"ffmpeg -i {rgb} -pix_fmt yuv444p -f yuv4mpegpipe")
    alpha = os.path.join(work, "alpha.mkv")
    ffmpeg("-i", dis, "-frames:v", "2", "-c:v", "ffv1", "-pix_fmt", "yuva420p", alpha)
    expect_error(cli, work, "video with alpha", ["-r", ref, "-d", alpha], "decodes to yuva420p", "-pix_fmt yuv420p ")
    audio = os.path.join(work, "audio.mka")
    ffmpeg("-f", "lavfi", "-i", "anullsrc", "-t", "0.2", audio)
    expect_error(cli, work, "no video stream", ["-r", ref, "-d", audio], f"{audio}: no video stream in this matroska,webm file (1 stream)")
    expect_error(cli, work, "container of another size", ["-r", y4m("p07", "ref"), "-d", mkv],
                 "videos are incompatible, 1 problem; dimensions do not match: 1920x1080, 576x324",
                 "-vf scale=1920:1080 -pix_fmt yuv420p")
    expect_error(cli, work, "container of another chroma layout", ["-r", y4m("p05", "ref"), "-d", mkv],
                 "pixel formats do not match: 444, 420", "-pix_fmt yuv444p")
    expect_error(cli, work, "container of another depth", ["-r", ref, "-d", os.path.join(work, "p02_dis.mkv")],
                 "bitdepths do not match: 8, 10")
    short = os.path.join(work, "short.mkv")
    ffmpeg("-i", dis, "-frames:v", "5", "-c:v", "ffv1", short)
    expect_error(cli, work, "shorter container", ["-r", ref, "-d", short],
                 "the distorted input ended before the reference one (after 5 frames)")
    expect_error(cli, work, "raw parameters contradicting the container",
                 ["-r", os.path.join(work, "p01_ref.mkv"), "-d", mkv, "-w", "576", "-h", "324", "-p", "420", "-b", "10"],
                 "decodes to 576x324 420 8-bit", "but the raw parameters say -w 576 -h 324 -p 420 -b 10")
    # damage: a cut file, flipped bytes in checksummed FFV1 (level 3 has slice CRCs; level 1 has
    # none, and its damage cannot be told from pixels) and in H.264 (concealed by the decoder
    # unless refused); the frame named depends on how far the decoder's threads ran ahead
    data = open(mkv, "rb").read()
    cut = write(os.path.join(work, "cut.mkv"), data[:len(data) // 2])
    expect_error(cli, work, "a truncated .mkv", ["-r", ref, "-d", cut],
                 f"{cut}: the video is damaged or truncated after frame ", "(File ended prematurely): lockstep "
                 "scores only what decodes without errors")
    crc = os.path.join(work, "crc.mkv")
    ffmpeg("-i", dis, "-c:v", "ffv1", "-level", "3", "-slicecrc", "1", crc)
    check("FFV1 level 3 with slice CRCs scores as the Y4M (before it is damaged)",
          compare_quiet(report(cli, work, ["-r", ref, "-d", dis] + limit), report(cli, work, ["-r", ref, "-d", crc] + limit)))
    damaged = write(os.path.join(work, "crc_damaged.mkv"), flip(open(crc, "rb").read()))
    expect_error(cli, work, "a damaged FFV1 .mkv", ["-r", ref, "-d", damaged],
                 f"{damaged}: the video is damaged or truncated at frame ", "(slice CRC mismatch")
    notes = write(os.path.join(work, "notes.mkv"), b"not a video, only a name ending in .mkv\n")
    expect_error(cli, work, "a text file named .mkv", ["-r", ref, "-d", notes],
                 f"{notes}: FFmpeg's libraries cannot read it: Invalid data found when processing input (EBML header parsing failed)")
    wav = os.path.join(work, "audio.wav")
    ffmpeg("-f", "lavfi", "-i", "anullsrc", "-t", "0.2", "-c:a", "pcm_s16le", wav)
    expect_error(cli, work, "a .wav file", ["-r", wav, "-d", mkv], f"{wav}: no video stream in this wav file (1 stream)")
    garbage = os.path.join(work, "garbage.bin")
    with open(garbage, "wb") as g:
        g.write(bytes(range(256)) * 64)
    with open(garbage, "rb") as gin:
        expect_error(cli, work, "garbage on standard input", ["-r", ref, "-d", "-"],
                     "<stdin>: not a Y4M stream (no YUV4MPEG2 signature), no raw size given (-w -h -p -b), "
                     "and FFmpeg's libraries cannot read it", stdin=gin)
    if "libx264" in have:
        # a size change within the stream: two Annex B streams back to back
        parts = []
        for i, scale in enumerate(("576:324", "288:162")):
            parts.append(os.path.join(work, f"part{i}.h264"))
            ffmpeg("-i", dis, "-frames:v", "4", "-vf", f"scale={scale}", "-c:v", "libx264", "-preset", "ultrafast", parts[-1])
        joined = os.path.join(work, "joined.h264")
        with open(joined, "wb") as out:
            for p in parts:
                out.write(open(p, "rb").read())
        expect_error(cli, work, "size change within a video", ["-r", ref, "-d", joined, "-n", "--feature", "psnr"],
                     f"{joined}: frame 4 decodes to 288x162 yuv420p, the frames before it to 576x324 yuv420p")
        h264 = os.path.join(work, "p01.mp4")
        ffmpeg("-i", dis, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", h264)
        damaged = write(os.path.join(work, "p01_damaged.mp4"), flip(open(h264, "rb").read()))
        expect_error(cli, work, "a damaged H.264 .mp4", ["-r", ref, "-d", damaged],
                     f"{damaged}: ", "frame ", "(error while decoding MB ")
        inter = os.path.join(work, "interlaced.mp4")
        ffmpeg("-i", dis, "-frames:v", "4", "-c:v", "libx264", "-preset", "ultrafast", "-flags", "+ildct+ilme",
               "-x264-params", "interlaced=1", inter)
        expect_error(cli, work, "interlaced video", ["-r", ref, "-d", inter],
                     f"{inter}: interlaced video (top field first) is not supported; deinterlace it first")

    # progress on a terminal: frames done of the total, FPS, time left (a Matroska file's count
    # comes from its duration: marked as an estimate)
    for label, d, total in (("Y4M", dis, r"48"), ("FFV1 .mkv", mkv, r"~?48")):
        rc, text = progress_line(cli, ["-r", ref, "-d", d, "-n", "--feature", "psnr"])
        updates = [u.replace("\x1b[K", "").strip() for u in text.split("\r")]
        updates = [u for u in updates if u]
        last = updates[-1] if updates else ""
        ok = rc == 0 and re.search(rf"\r1/{total} frames [0-9.]+ FPS, ~?\d+:\d\d left", text) is not None and \
            re.fullmatch(rf"48/{total} frames [0-9.]+ FPS, ~?0:00 left", last) is not None
        check(f"progress on a terminal, {label}: frames done, FPS, time left", ok, repr(last) if ok else repr(text[-400:]))

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
