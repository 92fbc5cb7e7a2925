#!/usr/bin/env python3
"""Soak (not in CI): FRAMES frames at 576x324 through the CLI with VMAF (vmaf_v0.6.1) and
psnr_hvs, both inputs from pipes (the reference through a FIFO, the distorted on stdin), the
frames being fixture p12's 120 pairs over and over. While it runs, the CLI's resident memory and
open file descriptors are sampled every second; then the same frames are scored again in SLICES
separate runs, and every per-frame score of the long run must equal the slice run's bit for bit
(%.17g).

A slice [s, e) is run over [s-1, e+1): motion (and VMAF through it) reads the previous and the
next frame, which a slice cut exactly at s and e would not have; the extra frames are dropped
before comparing.

Resident memory: the report needs every frame's scores, so the score store grows with the frames
(9 bytes per score, in blocks that double); the figures give RSS after the warm-up, at the
end, and that store's size, so that growth beyond it (a leak) shows. Descriptors must not grow.

usage: bench/soak.py --cli build/tools/lockstep --fixtures build/fixtures [--frames 100000]
                     [--slices 10] [--backend cpu|cuda] [--threads N] [--work DIR]
Exit 0 when the scores agree and descriptors did not grow; prints the figures.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time


def y4m_frames(path):
    data = open(path, "rb").read()
    header, rest = data.split(b"\n", 1)
    return header + b"\n", [b"FRAME\n" + f for f in rest.split(b"FRAME\n")[1:]]


def rss_kb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def run(a, first, count, out, monitor=False):
    """Scores frames first .. first+count-1 of the endless sequence; returns (exit, stderr,
    samples [(seconds, frames fed, rss kB, fds)])."""
    header_r, ref = a.src_ref
    header_d, dis = a.src_dis
    fifo = os.path.join(a.work, "ref.fifo")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    cmd = [a.cli, "-r", fifo, "-d", "-", "-m", "version=vmaf_v0.6.1", "--feature", "psnr_hvs",
           "--json", "--precision", "max", "-q", "-o", out, "--threads", str(a.threads)]
    if a.backend != "cpu":
        cmd += ["--backend", a.backend]
    err_path = os.path.join(a.work, "stderr.txt")
    err_file = open(err_path, "wb")
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=err_file)
    fed = [0]

    def feed(stream, header, frames, counting):
        try:
            stream.write(header)
            for i in range(first, first + count):
                stream.write(frames[i % len(frames)])
                if counting:
                    fed[0] = i - first + 1
            stream.close()
        except (BrokenPipeError, OSError):
            pass

    def feed_fifo():
        with open(fifo, "wb", buffering=1 << 20) as f:
            feed(f, header_r, ref, False)

    threads = [threading.Thread(target=feed_fifo), threading.Thread(target=feed, args=(p.stdin, header_d, dis, True))]
    for t in threads:
        t.start()
    samples = []
    t0 = time.time()
    if monitor:
        while p.poll() is None:
            r, n = rss_kb(p.pid), fd_count(p.pid)
            if r is not None and n is not None:
                samples.append((time.time() - t0, fed[0], r, n))
            time.sleep(1)
    p.wait()
    for t in threads:
        t.join()
    err_file.close()
    err = open(err_path, errors="replace").read()
    os.remove(fifo)
    return p.returncode, err, samples


def frames_of(path):
    return [f["metrics"] for f in json.load(open(path))["frames"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--frames", type=int, default=100000)
    ap.add_argument("--slices", type=int, default=10)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--slice-frames", type=int, default=0,
                    help="frames a slice scores (default: FRAMES / SLICES, i.e. all of them); less "
                         "compares SLICES evenly spread samples of the long run")
    ap.add_argument("--reuse", action="store_true",
                    help="compare the slices with WORK/whole.json from an earlier long run")
    ap.add_argument("--warmup", type=int, default=2000, help="frames before the first RSS figure")
    ap.add_argument("--work", default="/tmp/lockstep-soak")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    a.src_ref = y4m_frames(os.path.join(a.fixtures, "p12_ref.y4m"))
    a.src_dis = y4m_frames(os.path.join(a.fixtures, "p12_dis.y4m"))
    n = a.frames
    whole_path = os.path.join(a.work, "whole.json")

    t0 = time.time()
    rc, err, samples = (0, "", []) if a.reuse else run(a, 0, n, whole_path, monitor=True)
    wall = time.time() - t0
    if rc:
        print(f"FAIL: the long run exited {rc}: {err.strip()}")
        return 1
    whole = frames_of(whole_path)
    # the end: the last sample while frames were still coming (then the report is written, through
    # one more descriptor)
    warm = next((s for s in samples if s[1] >= a.warmup), samples[0] if samples else None)
    scoring = [s for s in samples if s[1] < n] or samples
    end = scoring[-1] if scoring else None
    peak = max(s[2] for s in samples) if samples else 0
    series = len(whole[0]) if whole else 0
    # the collector's store: per series a double and a written-flag byte per frame, its capacity
    # doubling from 8 (src/core/collector.c)
    capacity = 8
    while capacity < n:
        capacity *= 2
    store_kb = series * capacity * 9 / 1024
    if a.reuse:
        print(f"soak {a.backend}: {len(whole)} frames of the long run in {whole_path}")
    else:
        print(f"soak {a.backend}: {len(whole)} frames of 576x324 (VMAF v0.6.1 + psnr_hvs, {series} scores "
          f"a frame) from pipes in {wall:.0f} s ({len(whole) / wall:.0f} fps), --threads {a.threads}")
    if warm and end:
        print(f"RSS: {samples[0][2]} kB at {samples[0][1]} frames, {warm[2]} kB after the warm-up "
              f"({warm[1]} frames), {end[2]} kB at the end ({end[1]} frames), peak {peak} kB; growth "
              f"{end[2] - warm[2]} kB against a score store of {store_kb:.0f} kB (capacity {capacity} frames)")
        print(f"open descriptors: {warm[3]} after the warm-up, {end[3]} at the end of the input "
              f"(min {min(s[3] for s in scoring)}, max {max(s[3] for s in scoring)} while scoring)")
    sys.stdout.flush()
    ok = len(whole) == n
    fds_ok = a.reuse or (bool(samples) and max(s[3] for s in scoring[scoring.index(warm):]) == warm[3])

    # the same frames in slices, each with a frame of context on both sides
    compared = mismatched = 0
    first_bad = None
    step = (n + a.slices - 1) // a.slices
    width = a.slice_frames or step
    for s in range(0, n, step):
        e = min(s + width, n)
        lo, hi = max(s - 1, 0), min(e + 1, n)
        path = os.path.join(a.work, "slice.json")
        rc, err, _ = run(a, lo, hi - lo, path)
        if rc:
            print(f"FAIL: slice {s}..{e - 1} exited {rc}: {err.strip()}")
            return 1
        part = frames_of(path)
        for k in range(s, e):
            compared += 1
            if part[k - lo] != whole[k]:
                mismatched += 1
                if first_bad is None:
                    first_bad = (k, {m: (whole[k].get(m), part[k - lo].get(m)) for m in whole[k]
                                     if whole[k].get(m) != part[k - lo].get(m)})
    print(f"slices: {len(range(0, n, step))} runs, {compared} frames compared with the long run, {mismatched} differ"
          + (f" (first: frame {first_bad[0]}: {first_bad[1]})" if first_bad else ""))
    ok = ok and fds_ok and mismatched == 0 and compared == min(n, a.slices * width)
    print("soak passed" if ok else "soak FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
