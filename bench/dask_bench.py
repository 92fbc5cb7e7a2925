#!/usr/bin/python3
"""Scale-out bench: a catalogue of generated pairs scored by one CLI process per pair, one after
another (the baseline), then by lockstep.dask on K one-thread workers (a real `dask scheduler`
and K `dask worker` processes on 127.0.0.1), cut into shards of --shard-frames frames and with
one shard per pair. Prints pairs per minute for each, and what a shard costs beyond its frames:

  ms/frame        (t(N) - t(2)) / (N - 2) of one CLI run over a pair (bench/README.md's formula)
  shard fixed     a CLI shard run's time less its frames' (process start-up, model load, the
                  context frames a shard reads around its own, the shard report)
  shard in-proc   the same for a shard scored in-process (lockstep.score, what a worker runs)
  merge           lockstep.merge of a pair's shard reports and writing the report, per pair

Every Dask report is checked against the single run's (bytes but fps) before it counts.

2-core machine:   bench/dask_bench.py --build build --workers 1 2
16 cores + GPU:   bench/dask_bench.py --build build --width 1920 --height 1080 --frames 48 \\
                      --pairs 32 --shard-frames 12 --workers 16 --cli-threads 16
                  (then --width 3840 --height 2160; and --backend cuda --workers 1 2 4 --gpus 1:
                  GPU workers declare --resources GPU=1, CUDA_VISIBLE_DEVICES round robin;
                  without python3-distributed: --executor processes, the same tasks on a pool)
"""
import argparse
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(os.path.dirname(HERE), "python")
FPS = re.compile(r'("fps": )[^,\n]*(,)')


def no_fps(text):
    return FPS.sub(r"\1FPS\2", text)


def cpu_of(usage):
    return usage.ru_utime + usage.ru_stime


def timed(fn, runs=1):
    """Median wall seconds and median CPU seconds (this process's and the children's it waited
    for) of runs calls of fn: on a shared machine the CPU time is what the work itself took."""
    walls, cpus = [], []
    for _ in range(runs):
        c0 = time.process_time() + cpu_of(resource.getrusage(resource.RUSAGE_CHILDREN))
        t0 = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() + cpu_of(resource.getrusage(resource.RUSAGE_CHILDREN))
                    - c0)
    return statistics.median(walls), statistics.median(cpus)


def run_cli(cli, args):
    p = subprocess.run([cli] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise SystemExit("failed: %s %s\n%s" % (cli, " ".join(args), p.stderr))


class Cluster:
    def __init__(self, folder, n_workers, gpus, env):
        os.makedirs(folder, exist_ok=True)
        self.file = os.path.join(folder, "scheduler.json")
        if os.path.exists(self.file):
            os.remove(self.file)
        self.log = open(os.path.join(folder, "cluster.log"), "w")
        self.procs = [self.spawn(["scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", self.file], env)]
        while not os.path.exists(self.file):
            time.sleep(0.05)
        for i in range(n_workers):
            wenv = dict(env)
            extra = []
            if gpus:
                wenv["CUDA_VISIBLE_DEVICES"] = str(i % gpus)
                extra = ["--resources", "GPU=1"]
            self.procs.append(self.spawn(["worker", "--scheduler-file", self.file, "--nthreads",
                                          "1", "--no-nanny", "--no-dashboard", "--host",
                                          "127.0.0.1"] + extra, wenv))
        import distributed
        self.client = distributed.Client(scheduler_file=self.file, timeout=60)
        self.client.wait_for_workers(n_workers, timeout=120)

    def spawn(self, args, env):
        return subprocess.Popen([sys.executable, "-m", "dask"] + args, env=env, stdout=self.log,
                                stderr=subprocess.STDOUT)

    def close(self):
        """Stops the cluster; returns the CPU seconds its workers used."""
        self.client.close()
        for p in reversed(self.procs):
            p.send_signal(signal.SIGTERM)
        cpu = 0.0
        for k, p in enumerate(self.procs):
            # a worker can hang while closing: 30 s, then SIGKILL
            deadline = time.time() + 30
            while True:
                pid, _, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                if time.time() > deadline:
                    p.kill()
                    _, _, usage = os.wait4(p.pid, 0)
                    break
                time.sleep(0.05)
            p.returncode = 0
            cpu += cpu_of(usage) if k else 0.0
        self.log.close()
        return cpu


_device = None


def _pick_device(counter, gpus):
    """Pool initializer: each process takes the next device (CUDA_VISIBLE_DEVICES)."""
    with counter.get_lock():
        os.environ["CUDA_VISIBLE_DEVICES"] = str(counter.value % gpus)
        counter.value += 1


def run_processes(pairs, scoring, counting, shard_frames, k, gpus, out):
    """The Dask runner's tasks (count, shards, merge) on a pool of k processes instead of a
    cluster, for machines without python3-distributed. Returns {name: report path}."""
    import concurrent.futures
    import multiprocessing
    import lockstep.dask as ld
    os.makedirs(out, exist_ok=True)
    init, initargs = None, ()
    if gpus:
        init, initargs = _pick_device, (multiprocessing.Value("i", 0), gpus)
    reports = {}
    with concurrent.futures.ProcessPoolExecutor(k, initializer=init, initargs=initargs) as pool:
        counts = [pool.submit(ld.count_task, r, d, counting) for r, d, _ in pairs]
        shards = {}
        for (r, d, name), c in zip(pairs, counts):
            pair_dir = os.path.join(out, ".shards-" + name)
            os.makedirs(pair_dir, exist_ok=True)
            shards[name] = (pair_dir, [pool.submit(ld.shard_task, r, d, scoring, a, b,
                                                   os.path.join(pair_dir, "s%d.json" % a))
                                       for a, b in ld.shard_ranges(c.result(), shard_frames)])
        merges = {}
        for name, (pair_dir, fs) in shards.items():
            path = os.path.join(out, name + ".json")
            merges[name] = pool.submit(ld.merge_task, [f.result() for f in fs], path, "json",
                                       "max", pair_dir)
            reports[name] = (path, len(fs))
        for f in merges.values():
            f.result()
    return reports


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="the build folder (CLI, lockstep-gen, "
                                                     "liblockstep.so)")
    ap.add_argument("--work", default="/tmp/lockstep-dask-bench")
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--width", type=int, default=576)
    ap.add_argument("--height", type=int, default=324)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--shard-frames", type=int, default=10)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--cli-threads", type=int, default=0,
                    help="--threads of the baseline CLI runs (16: one 16-thread process)")
    ap.add_argument("--model", default="version=vmaf_v0.6.1")
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda", "opencl"))
    ap.add_argument("--gpus", type=int, default=0, help="GPU workers: devices to spread over")
    ap.add_argument("--runs", type=int, default=3, help="runs of the single-pair timings")
    ap.add_argument("--executor", choices=("dask", "processes"), default="dask",
                    help="processes: the runner's tasks on a pool of K processes (where "
                         "python3-distributed is missing); default dask")
    o = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)   # rows as they come, also into a pipe
    cli = os.path.abspath(os.path.join(o.build, "tools", "lockstep"))
    gen = os.path.abspath(os.path.join(o.build, "tools", "lockstep-gen"))
    lib = os.path.abspath(os.path.join(o.build, "src", "liblockstep.so"))
    os.environ.setdefault("LOCKSTEP_LIBRARY", lib)
    sys.path.insert(0, PACKAGE)
    import lockstep
    import lockstep.dask

    os.makedirs(o.work, exist_ok=True)
    pairs = []
    for k in range(o.pairs):
        name = "b%dx%d_%d_s%d" % (o.width, o.height, o.frames, k)
        ref, dist = (os.path.join(o.work, name + s) for s in ("_ref.y4m", "_dis.y4m"))
        if not (os.path.exists(ref) and os.path.exists(dist)):
            subprocess.run([gen, "-w", str(o.width), "-h", str(o.height), "-n", str(o.frames),
                            "--seed", str(100 + k), ref, dist], check=True)
        pairs.append((ref, dist, name))
    scoring = ["-m", o.model] + (["--backend", o.backend] if o.backend != "cpu" else [])
    base = scoring + (["--threads", str(o.cli_threads)] if o.cli_threads else [])
    ref, dist, _ = pairs[0]
    out = os.path.join(o.work, "out")
    os.makedirs(out, exist_ok=True)

    # single runs: the reports to compare with, and the baseline's pairs per minute
    single = {}

    def baseline():
        for r, d, name in pairs:
            path = os.path.join(out, name + ".single.json")
            run_cli(cli, ["-r", r, "-d", d, "-q", "--json", "--precision", "max", "-o", path]
                    + base)
            single[name] = no_fps(open(path).read())
    t_base, c_base = timed(baseline)

    # what one frame and one shard cost
    def cli_frames(n):
        return timed(lambda: run_cli(cli, ["-r", ref, "-d", dist, "-q", "--frame_cnt", str(n)]
                                     + base), o.runs)
    (t2, c2), (tn, cn) = cli_frames(2), cli_frames(o.frames)
    ms_frame = (tn - t2) / (o.frames - 2) * 1e3
    cpu_ms_frame = (cn - c2) / (o.frames - 2) * 1e3
    ranges = lockstep.dask.shard_ranges(o.frames, o.shard_frames)
    shard_dir = os.path.join(o.work, "shards")
    os.makedirs(shard_dir, exist_ok=True)
    paths = [os.path.join(shard_dir, "shard_%d_%d.json" % r) for r in ranges]

    def cli_shards():
        for (a, b), p in zip(ranges, paths):
            run_cli(cli, ["-r", ref, "-d", dist, "-q", "--frame_range", "%d:%d" % (a, b), "-o", p]
                    + base)

    def py_shards():
        for (a, b), p in zip(ranges, paths):
            lockstep.score(ref, dist, args=base, frame_range=(a, b), output=p).close()

    def merge():
        with lockstep.merge(paths) as m:
            m.write(os.path.join(shard_dir, "merged.json"), precision="max")
    t_cli_shards, c_cli_shards = timed(cli_shards, o.runs)
    t_py_shards, c_py_shards = timed(py_shards, o.runs)
    t_merge, c_merge = timed(merge, o.runs)
    assert no_fps(open(os.path.join(shard_dir, "merged.json")).read()) == single[pairs[0][2]]
    n = len(ranges)
    print("pairs: %d x %dx%d, %d frames, %s, backend %s; shards of %d frames (%d per pair); "
          "load average %.1f" % (o.pairs, o.width, o.height, o.frames, o.model, o.backend,
                                 o.shard_frames, n, os.getloadavg()[0]))
    print("| cost | wall | CPU |")
    print("|---|---|---|")
    print("| ms/frame, CLI%s | %.2f | %.2f |" % (
        " --threads %d" % o.cli_threads if o.cli_threads else "", ms_frame, cpu_ms_frame))
    print("| whole CLI run of a pair, s | %.3f | %.3f |" % (tn, cn))
    print("| shard fixed cost, CLI process, ms/shard | %.1f | %.1f |" % (
        (t_cli_shards * 1e3 - o.frames * ms_frame) / n,
        (c_cli_shards * 1e3 - o.frames * cpu_ms_frame) / n))
    print("| shard fixed cost, in-process, ms/shard | %.1f | %.1f |" % (
        (t_py_shards * 1e3 - o.frames * ms_frame) / n,
        (c_py_shards * 1e3 - o.frames * cpu_ms_frame) / n))
    print("| merge + report, ms/pair | %.1f | %.1f |" % (t_merge * 1e3, c_merge * 1e3))
    print()
    print("| run | workers | tasks | wall s | pairs/min | CPU s | pairs/CPU-min |")
    print("|---|---|---|---|---|---|---|")
    print("| CLI, one process per pair%s | - | %d | %.2f | %.1f | %.2f | %.1f |" % (
        " (--threads %d)" % o.cli_threads if o.cli_threads else "", o.pairs, t_base,
        o.pairs * 60 / t_base, c_base, o.pairs * 60 / c_base))
    env = dict(os.environ, PYTHONPATH=PACKAGE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if o.executor == "processes":
        counting = ["-m", o.model]
        for k in o.workers:
            for shard in (o.shard_frames, None):
                out_k = os.path.join(o.work, "proc%d_%s" % (k, shard))
                shutil.rmtree(out_k, ignore_errors=True)
                got = {}

                def work():
                    got.update(run_processes(pairs, scoring, counting, shard, k, o.gpus, out_k))
                t, cpu = timed(work)
                for name, (path, _) in got.items():
                    assert no_fps(open(path).read()) == single[name], name
                tasks = sum(n for _, n in got.values()) + 2 * o.pairs
                label = "%d processes, %s" % (k, "shards of %d" % shard if shard
                                              else "one shard per pair")
                print("| %s | %d | %d | %.2f | %.1f | %.2f | %.1f |" % (
                    label, k, tasks, t, o.pairs * 60 / t, cpu, o.pairs * 60 / cpu))
        return
    for k in o.workers:
        # the workers' start-up and idle CPU (imports, connecting), taken out of the runs'
        idle = Cluster(os.path.join(o.work, "cluster%d" % k), k, o.gpus, env).close()
        for shard in (o.shard_frames, None):
            cluster = Cluster(os.path.join(o.work, "cluster%d" % k), k, o.gpus, env)
            try:
                dask_out = os.path.join(o.work, "dask%d_%s" % (k, shard))
                shutil.rmtree(dask_out, ignore_errors=True)
                t0 = time.perf_counter()
                reports = lockstep.dask.run(cluster.client, pairs, args=scoring,
                                            shard_frames=shard, output_dir=dask_out,
                                            precision="max",
                                            backend=o.backend if o.backend != "cpu" else None)
                t = time.perf_counter() - t0
            finally:
                cpu = cluster.close()
            for r in reports:
                assert r.error is None, r.error
                assert no_fps(open(r.report).read()) == single[r.name], r.name
            tasks = sum(len(r.shards) for r in reports) + 2 * o.pairs
            label = "dask, shards of %d" % shard if shard else "dask, one shard per pair"
            cpu = max(cpu - idle, 1e-9)
            print("| %s | %d | %d | %.2f | %.1f | %.2f | %.1f |" % (
                label, k, tasks, t, o.pairs * 60 / t, cpu, o.pairs * 60 / cpu))
    print("(tasks: shards + a frame count and a merge per pair; CPU: the workers' processes "
          "less the CPU of a cluster started and stopped idle)")


if __name__ == "__main__":
    main()
