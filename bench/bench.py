#!/usr/bin/env python3
"""Times the lockstep CLI end to end (reading, scoring, writing) and prints ms/frame.

ms/frame = (t(N) - t(2)) / (N - 2), with t the median wall time of --runs runs of the whole
process on the first 2 and the first N frames: start-up, allocation and flush cancel out.
Inputs: fixtures (--fixture p01) and generated pairs (--gen 1920x1080:420:8:22), made once with
lockstep-gen into --work. Also prints the whole-process time of N frames.

--encode h264 hevc av1: each generated pair's reference is also encoded with Debian's ffmpeg
(libx264, libx265, libsvtav1) into Matroska, and the reference scored against the encode read
through FFmpeg's libraries (decoding included), beside the same frames decoded to Y4M beforehand:
the difference is what decoding costs the run.

usage: bench.py --cli build/tools/lockstep --gen-tool build/tools/lockstep-gen --work /tmp/bench
                [--fixture p01 --fixtures DIR] [--gen WxH:FMT:BITS:FRAMES ...]
                [--feature psnr_hvs ...] [--model vmaf_v1.0.16_3d0h ...] [--threads 1 2]
                [--backend cpu cuda] [--runs 5] [--encode h264 hevc av1]
                [--whole [--env NAME=VALUE] [--base-cli OTHER_BUILD/tools/lockstep]]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time


# --encode: Debian's ffmpeg encoders, at settings of a typical streaming rung
ENCODERS = {
    "h264": ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"],
    "hevc": ["-c:v", "libx265", "-preset", "fast", "-crf", "26", "-x265-params", "log-level=error"],
    "av1": ["-c:v", "libsvtav1", "-preset", "8", "-crf", "35"],
}


def timed(cmd, env=None):
    """(wall seconds, user CPU seconds, system CPU seconds) of one run of cmd, with the variables
    of env (NAME=VALUE strings) added to the environment."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, **dict(e.split("=", 1) for e in env)) if env else None)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err}")
    return dt, usage.ru_utime, usage.ru_stime


def median_time(cmd, runs):
    """Median wall and median user CPU time of `runs` runs (the machine may be shared: the user
    CPU time is what the process itself used)."""
    t = [timed(cmd) for _ in range(runs)]
    return statistics.median(w for w, _, _ in t), statistics.median(u for _, u, _ in t)


def cli_command(a, ref, dis, args, backend, threads, mask, cli=None):
    """The lockstep command line of one row (without --frame_cnt), of --cli or another build."""
    cmd = [cli or a.cli, "-r", ref, "-d", dis] + args + [
        "-q", "--backend", backend, "--threads", threads, "--json", "-o", os.path.join(a.work, "out.json")]
    return cmd + ["--cpumask", mask] if mask else cmd


def whole_rows(cmds, runs):
    """--whole: per (command, environment), (best, median) of user+sys CPU seconds and the best
    wall seconds of the whole process over `runs` runs, interleaved run by run (on a shared or
    noisy machine a slow spell then falls on every command alike)."""
    t = [[] for _ in cmds]
    for _ in range(runs):
        for i, (cmd, env) in enumerate(cmds):
            t[i].append(timed(cmd, env))
    return [(min(u + s for _, u, s in r), statistics.median(u + s for _, u, s in r),
             min(w for w, _, _ in r)) for r in t]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--gen-tool")
    ap.add_argument("--work", default="/tmp/lockstep-bench")
    ap.add_argument("--fixtures")
    ap.add_argument("--fixture", action="append", default=[])
    ap.add_argument("--gen", action="append", default=[])
    ap.add_argument("--feature", action="append", default=[])
    ap.add_argument("--model", action="append", default=[],
                    help="a built-in model version (e.g. vmaf_v1.0.16_3d0h), scored end to end")
    ap.add_argument("--threads", nargs="+", default=["1"])
    ap.add_argument("--backend", nargs="+", default=["cpu"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpumask", default=None, help="also time with this --cpumask (e.g. 255: plain C)")
    ap.add_argument("--whole", action="store_true",
                    help="instead of ms/frame: user+sys CPU time of the whole process on all the "
                         "frames, best (median) of --runs, the --threads counts interleaved")
    ap.add_argument("--env", action="append", default=[],
                    help="with --whole: each row also with this NAME=VALUE in the environment, "
                         "interleaved with it (e.g. LOCKSTEP_NO_MAP=1: frames copied, not borrowed)")
    ap.add_argument("--base-cli", default=None,
                    help="with --whole: each row also with this other build of the CLI (e.g. of an "
                         "earlier commit), interleaved with it: an A/B of two builds in one call")
    ap.add_argument("--encode", nargs="+", default=[], choices=sorted(ENCODERS),
                    help="also time each generated reference against an encode of it (a container input)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)

    inputs = []
    for fx in a.fixture:
        ref = os.path.join(a.fixtures, f"{fx}_ref.y4m")
        n = sum(1 for _ in open(ref, "rb").read().split(b"FRAME")) - 1
        inputs.append((fx, ref, os.path.join(a.fixtures, f"{fx}_dis.y4m"), n))
    for g in a.gen:
        size, fmt, bits, frames = g.split(":")
        w, h = size.split("x")
        ref = os.path.join(a.work, f"gen_{size}_{fmt}_{bits}_{frames}_ref.y4m")
        dis = os.path.join(a.work, f"gen_{size}_{fmt}_{bits}_{frames}_dis.y4m")
        if not os.path.exists(dis):
            subprocess.run([a.gen_tool, "-w", w, "-h", h, "-p", fmt, "-b", bits, "-n", frames, ref, dis],
                           check=True)
        inputs.append((f"{size} {fmt} {bits}-bit", ref, dis, int(frames)))
        for codec in a.encode:
            enc = ref.replace(".y4m", f"_{codec}.mkv")
            dec = ref.replace(".y4m", f"_{codec}.y4m")
            if not os.path.exists(dec):
                subprocess.run(["ffmpeg", "-v", "error", "-y", "-nostdin", "-i", ref] + ENCODERS[codec] + [enc],
                               check=True)
                subprocess.run(["ffmpeg", "-v", "error", "-y", "-nostdin", "-i", enc, "-f", "yuv4mpegpipe",
                                "-strict", "-1", dec], check=True)
            inputs.append((f"{size} {fmt} {bits}-bit, {codec} .mkv ({os.path.getsize(enc) // 1024} KiB)", ref, enc,
                           int(frames)))
            inputs.append((f"{size} {fmt} {bits}-bit, {codec} decoded to Y4M", ref, dec, int(frames)))

    print(f"# lockstep bench, {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}, "
          f"{os.cpu_count()} CPUs, {platform.processor() or platform.machine()}")
    if a.whole:
        print("| input | feature | backend | threads | cpumask | user+sys, whole process: best (median) "
              "| wall, best |")
        print("|---|---|---|---|---|---|---|")
    else:
        print("| input | feature | backend | threads | cpumask | ms/frame | user CPU ms/frame | "
              "N frames, whole process (s) |")
        print("|---|---|---|---|---|---|---|---|")
    masks = [None] + ([a.cpumask] if a.cpumask else [])
    what = [(f, ["--feature", f, "-n"]) for f in a.feature] + \
           [(m, ["--model", f"version={m}"]) for m in a.model]
    for name, ref, dis, n in inputs:
        for label, args in what:
            for backend in a.backend:
                if a.whole:
                    # (CLI, environment, what the backend column adds)
                    variants = [(None, [], [])] + ([(None, a.env, a.env)] if a.env else []) + \
                               ([(a.base_cli, [], ["(--base-cli)"])] if a.base_cli else [])
                    for mask in masks:
                        rows = [(t, v) for t in a.threads for v in variants]
                        cmds = [(cli_command(a, ref, dis, args, backend, t, mask, cli) +
                                 ["--frame_cnt", str(n)], env) for t, (cli, env, _) in rows]
                        for (threads, (_, _, note)), (best, med, wall) in zip(rows, whole_rows(cmds, a.runs)):
                            print(f"| {name}, {n} frames | {label} | {' '.join([backend] + note)} | {threads} | "
                                  f"{mask or '-'} | {best:.3f} s ({med:.3f}) | {wall:.3f} s |", flush=True)
                    continue
                for threads in a.threads:
                    for mask in masks:
                        cmd = cli_command(a, ref, dis, args, backend, threads, mask)
                        t2, u2 = median_time(cmd + ["--frame_cnt", "2"], a.runs)
                        tn, un = median_time(cmd + ["--frame_cnt", str(n)], a.runs)
                        ms = (tn - t2) / (n - 2) * 1e3
                        user_ms = (un - u2) / (n - 2) * 1e3
                        print(f"| {name} | {label} | {backend} | {threads} | {mask or '-'} | "
                              f"{ms:.2f} | {user_ms:.2f} | {tn:.3f} ({n}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
