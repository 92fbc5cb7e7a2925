#!/usr/bin/python3
"""Scale-out bench: catalogues of generated pairs (one per --size) scored by one CLI process per
pair, one after another (the baseline), then by lockstep.dask on clusters of K one-thread workers
(a real `dask scheduler` and K `dask worker` processes on 127.0.0.1), and of K GPU workers
(--resources GPU=1, shards with --backend cuda), each cluster started once for every catalogue;
cut into shards of SHARD frames and with one shard per pair. Prints pairs per minute for each, and
what a shard costs beyond its frames:

  ms/frame        (t(N) - t(2)) / (N - 2) of one CLI run over a pair (bench/README.md's formula)
  shard fixed     a CLI shard run's time less its frames' (process start-up, model load, the
                  context frames a shard reads around its own, the shard report)
  shard in-proc   the same for a shard scored in-process (lockstep.score, what a worker runs)
  merge           lockstep.merge of a pair's shard reports and writing the report, per pair

Every report is checked against the single CPU run's (bytes but fps) before it counts, the GPU
baseline's too.

2-core machine:   bench/dask_bench.py --build build --workers 1 2
16 cores + GPU:   bench/dask_bench.py --build build --size 1920x1080:48 --size 3840x2160:24 \\
                      --pairs 16 --distinct 4 --shard-frames 12 --workers 16 --cli-threads 16 \\
                      --gpu-workers 1 4 --gpus 1        (bench/device_dask.sh run does this)
                  (GPU workers: CUDA_VISIBLE_DEVICES round robin over --gpus devices; without
                  python3-distributed: --executor processes, the same tasks on a process pool)
"""
import argparse
import concurrent.futures
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
            # a worker can hang while closing: 10 s, then SIGKILL
            deadline = time.time() + 10
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


def worker_cpu():
    """CPU seconds of the process it runs in (client.run on every worker)."""
    return cpu_of(resource.getrusage(resource.RUSAGE_SELF))


def parse_size(spec, shard_frames):
    """WxH:FRAMES[:SHARD] -> (w, h, frames, shard)."""
    size, frames, *shard = spec.split(":")
    w, h = size.split("x")
    return int(w), int(h), int(frames), int(shard[0]) if shard else shard_frames


def make_pairs(gen, work, w, h, frames, n_pairs, distinct):
    """n_pairs pairs of generated w x h frames; with distinct D < n_pairs, pair k is a hard link
    to pair k % D (generated once; the cluster reads them by path as any other pair)."""
    distinct = distinct or n_pairs
    names = ["b%dx%d_%d_s%d" % (w, h, frames, k) for k in range(n_pairs)]
    paths = [tuple(os.path.join(work, n + s) for s in ("_ref.y4m", "_dis.y4m")) for n in names]

    def generate(k):
        if not all(os.path.exists(p) for p in paths[k]):
            subprocess.run([gen, "-w", str(w), "-h", str(h), "-n", str(frames), "--seed",
                            str(100 + k), *paths[k]], check=True)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(generate, range(distinct)))
    for k in range(distinct, n_pairs):
        for src, dst in zip(paths[k % distinct], paths[k]):
            if not os.path.exists(dst):
                os.link(src, dst)
    return [(r, d, n) for (r, d), n in zip(paths, names)]


class Catalogue:
    """One size: its pairs, the single CPU runs' reports, and per backend the baseline and what
    a frame, a shard and a merge cost."""

    def __init__(self, o, cli, gen, w, h, frames, shard):
        import lockstep
        import lockstep.dask
        self.o, self.cli, self.w, self.h, self.frames, self.shard = o, cli, w, h, frames, shard
        self.pairs = make_pairs(gen, o.work, w, h, frames, o.pairs, o.distinct)
        self.out = os.path.join(o.work, "out%dx%d" % (w, h))
        os.makedirs(self.out, exist_ok=True)
        self.single = {}
        self.costs, self.rows = [], []
        self.ranges = lockstep.dask.shard_ranges(frames, shard)
        self.lockstep = lockstep

    def scoring(self, backend):
        return ["-m", self.o.model] + (["--backend", backend] if backend != "cpu" else [])

    def measure(self, backend):
        o, cli, lockstep = self.o, self.cli, self.lockstep
        base = self.scoring(backend) + (["--threads", str(o.cli_threads)] if o.cli_threads
                                        else [])
        got = {}
        # a GPU CLI process starts a GPU context: --gpu-baseline-pairs times fewer of them
        pairs = self.pairs if backend == "cpu" else self.pairs[:o.gpu_baseline_pairs or None]

        def baseline():
            for r, d, name in pairs:
                path = os.path.join(self.out, "%s.%s.json" % (name, backend))
                run_cli(cli, ["-r", r, "-d", d, "-q", "--json", "--precision", "max", "-o", path]
                        + base)
                got[name] = no_fps(open(path).read())
        t_base, c_base = timed(baseline)
        if backend == "cpu":
            self.single = got
        for name, text in got.items():
            assert text == self.single[name], (backend, name)
        label = "CLI, one process per pair" + "".join(" " + a for a in base[2:])
        self.rows.append("| %s | - | %d | %.2f | %.1f | %.2f | %.1f |" % (
            label, len(pairs), t_base, len(pairs) * 60 / t_base, c_base,
            len(pairs) * 60 / c_base))

        ref, dist, _ = self.pairs[0]

        def cli_frames(n):
            return timed(lambda: run_cli(cli, ["-r", ref, "-d", dist, "-q", "--frame_cnt",
                                               str(n)] + base), o.runs)
        (t2, c2), (tn, cn) = cli_frames(2), cli_frames(self.frames)
        ms_frame = (tn - t2) / (self.frames - 2) * 1e3
        cpu_ms_frame = (cn - c2) / (self.frames - 2) * 1e3
        shard_dir = os.path.join(o.work, "shards%dx%d" % (self.w, self.h))
        os.makedirs(shard_dir, exist_ok=True)
        paths = [os.path.join(shard_dir, "shard_%d_%d.json" % r) for r in self.ranges]

        def cli_shards():
            for (a, b), p in zip(self.ranges, paths):
                run_cli(cli, ["-r", ref, "-d", dist, "-q", "--frame_range", "%d:%d" % (a, b),
                              "-o", p] + base)

        def py_shards():
            for (a, b), p in zip(self.ranges, paths):
                lockstep.score(ref, dist, args=base, frame_range=(a, b), output=p).close()

        def merge():
            with lockstep.merge(paths) as m:
                m.write(os.path.join(shard_dir, "merged.json"), precision="max")
        t_cli_shards, c_cli_shards = timed(cli_shards, o.runs)
        t_py_shards, c_py_shards = timed(py_shards, o.runs)
        t_merge, c_merge = timed(merge, o.runs)
        assert no_fps(open(os.path.join(shard_dir, "merged.json")).read()) == \
            self.single[self.pairs[0][2]]
        n, f = len(self.ranges), self.frames
        c = self.costs
        c.append("| %s: ms/frame, CLI%s | %.2f | %.2f |" % (
            backend, "".join(" " + a for a in base[2:]), ms_frame, cpu_ms_frame))
        c.append("| %s: whole CLI run of a pair, s | %.3f | %.3f |" % (backend, tn, cn))
        c.append("| %s: shard fixed cost, CLI process, ms/shard | %.1f | %.1f |" % (
            backend, (t_cli_shards * 1e3 - f * ms_frame) / n,
            (c_cli_shards * 1e3 - f * cpu_ms_frame) / n))
        c.append("| %s: shard fixed cost, in-process, ms/shard | %.1f | %.1f |" % (
            backend, (t_py_shards * 1e3 - f * ms_frame) / n,
            (c_py_shards * 1e3 - f * cpu_ms_frame) / n))
        c.append("| %s: merge + report, ms/pair | %.1f | %.1f |" % (
            backend, t_merge * 1e3, c_merge * 1e3))
        print("\n".join("  %dx%d %s" % (self.w, self.h, row) for row in c[-5:] + self.rows[-1:]))

    def run_dask(self, cluster, k, backend):
        o = self.o
        for shard in (self.shard, None):
            out = os.path.join(o.work, "dask%dx%d_%s%d_%s" % (self.w, self.h, backend, k, shard))
            shutil.rmtree(out, ignore_errors=True)
            cpu0 = sum(cluster.client.run(worker_cpu).values())
            t0 = time.perf_counter()
            reports = self.lockstep.dask.run(cluster.client, self.pairs, args=["-m", o.model],
                                             shard_frames=shard, output_dir=out,
                                             precision="max",
                                             backend=backend if backend != "cpu" else None)
            t = time.perf_counter() - t0
            cpu = max(sum(cluster.client.run(worker_cpu).values()) - cpu0, 1e-9)
            for r in reports:
                assert r.error is None, r.error
                assert no_fps(open(r.report).read()) == self.single[r.name], r.name
            tasks = sum(len(r.shards) for r in reports) + 2 * o.pairs
            label = "dask, %s%s" % ("GPU workers (%s), " % backend if backend != "cpu" else "",
                                    "shards of %d" % shard if shard else "one shard per pair")
            self.rows.append("| %s | %d | %d | %.2f | %.1f | %.2f | %.1f |" % (
                label, k, tasks, t, o.pairs * 60 / t, cpu, o.pairs * 60 / cpu))
            print("  %dx%d %s" % (self.w, self.h, self.rows[-1]))

    def run_processes(self, k, gpus):
        o = self.o
        for shard in (self.shard, None):
            out = os.path.join(o.work, "proc%dx%d_%d_%s" % (self.w, self.h, k, shard))
            shutil.rmtree(out, ignore_errors=True)
            got = {}

            def work():
                got.update(run_processes(self.pairs, self.scoring("cpu"), ["-m", o.model],
                                         shard, k, gpus, out))
            t, cpu = timed(work)
            for name, (path, _) in got.items():
                assert no_fps(open(path).read()) == self.single[name], name
            tasks = sum(n for _, n in got.values()) + 2 * o.pairs
            label = "%d processes, %s" % (k, "shards of %d" % shard if shard
                                          else "one shard per pair")
            self.rows.append("| %s | %d | %d | %.2f | %.1f | %.2f | %.1f |" % (
                label, k, tasks, t, o.pairs * 60 / t, cpu, o.pairs * 60 / cpu))

    def report(self, backends):
        o = self.o
        print()
        print("pairs: %d x %dx%d (%d distinct), %d frames, %s, backends %s; shards of %d frames "
              "(%d per pair); load average %.1f" % (
                  o.pairs, self.w, self.h, o.distinct or o.pairs, self.frames, o.model,
                  " ".join(backends), self.shard, len(self.ranges), os.getloadavg()[0]))
        print("| cost | wall | CPU |")
        print("|---|---|---|")
        print("\n".join(self.costs))
        print()
        print("| run | workers | tasks | wall s | pairs/min | CPU s | pairs/CPU-min |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(self.rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="the build folder (CLI, lockstep-gen, "
                                                     "liblockstep.so)")
    ap.add_argument("--work", default="/tmp/lockstep-dask-bench")
    ap.add_argument("--size", action="append", metavar="WxH:FRAMES[:SHARD]",
                    help="a catalogue of generated pairs (repeatable; default 576x324:40)")
    ap.add_argument("--pairs", type=int, default=12, help="pairs per catalogue")
    ap.add_argument("--distinct", type=int, default=0,
                    help="pairs generated per catalogue, the others hard links to them "
                         "(default: all)")
    ap.add_argument("--shard-frames", type=int, default=10)
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2],
                    help="clusters of K one-thread CPU workers (none: no CPU rows)")
    ap.add_argument("--cli-threads", type=int, default=0,
                    help="--threads of the baseline CLI runs (16: one 16-thread process)")
    ap.add_argument("--model", default="version=vmaf_v0.6.1")
    ap.add_argument("--gpu-workers", type=int, nargs="*", default=[],
                    help="clusters of K workers with the resource GPU=1 scoring --backend "
                         "GPU_BACKEND shards")
    ap.add_argument("--gpu-backend", default="cuda", choices=("cuda", "opencl"))
    ap.add_argument("--gpus", type=int, default=1, help="GPU workers: devices to spread over")
    ap.add_argument("--gpu-baseline-pairs", type=int, default=0,
                    help="pairs of the GPU baseline (one CLI process each; default: all)")
    ap.add_argument("--runs", type=int, default=3, help="runs of the single-pair timings")
    ap.add_argument("--make-pairs", action="store_true",
                    help="only generate the catalogues' pairs (a later run finds them made)")
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
    os.makedirs(o.work, exist_ok=True)

    backends = (["cpu"] if o.workers else []) + ([o.gpu_backend] if o.gpu_workers else [])
    if o.make_pairs:
        for spec in o.size or ["576x324:40"]:
            w, h, frames, _ = parse_size(spec, o.shard_frames)
            make_pairs(gen, o.work, w, h, frames, o.pairs, o.distinct)
        return
    cats = []
    for spec in o.size or ["576x324:40"]:
        t0 = time.perf_counter()
        cat = Catalogue(o, cli, gen, *parse_size(spec, o.shard_frames))
        t1 = time.perf_counter()
        for backend in ["cpu"] + [b for b in backends if b != "cpu"]:
            cat.measure(backend)
        print("%s: pairs made in %.1f s, single runs and costs in %.1f s" % (
            spec, t1 - t0, time.perf_counter() - t1))
        cats.append(cat)
    env = dict(os.environ, PYTHONPATH=PACKAGE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if o.executor == "processes":
        for k in o.workers:
            for cat in cats:
                cat.run_processes(k, 0)
    else:
        for gpus, backend, counts in ((0, "cpu", o.workers), (o.gpus, o.gpu_backend,
                                                               o.gpu_workers)):
            for k in counts:
                t0 = time.perf_counter()
                cluster = Cluster(os.path.join(o.work, "cluster%s%d" % (backend, k)), k, gpus,
                                  env)
                print("cluster of %d %s workers up in %.1f s" % (
                    k, backend, time.perf_counter() - t0))
                try:
                    for cat in cats:
                        cat.run_dask(cluster, k, backend)
                finally:
                    cluster.close()
    for cat in cats:
        cat.report(backends)
    print("(tasks: shards + a frame count and a merge per pair; CPU: of the baseline's CLI "
          "processes, of the workers' processes during the run)")


if __name__ == "__main__":
    main()
