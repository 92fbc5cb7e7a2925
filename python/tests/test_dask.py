"""lockstep.dask on a real cluster: a `dask scheduler` and two `dask worker` processes on
127.0.0.1. A catalogue of fixtures and generated pairs, most cut into four or more shards, gives
for every pair the report one CLI run writes, byte for byte but fps; the same through the command
line entry point; and with one worker killed in the middle of the run, the run completes with the
same reports and leaves no partial report or shard anywhere."""
import csv
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

import lockstep.dask  # noqa: E402
from conftest import NOTES, WORK, cli_report, fixture, generated, no_fps, read  # noqa: E402

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORING = ["--feature", "psnr=enable_apsnr=true", "--feature",
           "motion=motion_five_frame_window=true"]


class Cluster:
    """A scheduler and n workers (one thread each, no nanny: a killed worker stays dead)."""

    def __init__(self, name, n_workers=2):
        self.dir = os.path.join(WORK, name)
        os.makedirs(self.dir, exist_ok=True)
        self.file = os.path.join(self.dir, "scheduler.json")
        if os.path.exists(self.file):
            os.remove(self.file)
        self.env = dict(os.environ, PYTHONPATH=PACKAGE + os.pathsep +
                        os.environ.get("PYTHONPATH", ""))
        self.procs = []
        self.log = open(os.path.join(self.dir, "cluster.log"), "w")
        self.spawn(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", self.file])
        deadline = time.time() + 60
        while not os.path.exists(self.file) and time.time() < deadline:
            time.sleep(0.1)
        self.workers = [self.spawn(["worker", "--scheduler-file", self.file, "--nthreads", "1",
                                    "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                    "--name", "w%d" % i]) for i in range(n_workers)]
        self.client = distributed.Client(scheduler_file=self.file, timeout=60)
        self.client.wait_for_workers(n_workers, timeout=60)

    def spawn(self, args):
        p = subprocess.Popen([sys.executable, "-m", "dask"] + args, env=self.env,
                             stdout=self.log, stderr=subprocess.STDOUT, cwd=self.dir)
        self.procs.append(p)
        return p

    def close(self):
        self.client.close()
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.log.close()


def catalogue():
    """(name, reference, distorted, shard length): every fixture that scores in well under a
    second and generated pairs of every layout and depth."""
    pairs = []
    for name, shard in [("p01", 12), ("p02", 2), ("p03", 1), ("p04", 2), ("p05", 1), ("p06", 1),
                        ("p06b", 2), ("p10", 1), ("p11a", 1), ("p12", 24)]:
        pairs.append((name,) + fixture(name) + (shard,))
    layouts = [("420", 8), ("420", 10), ("422", 8), ("422", 12), ("444", 8), ("444", 10),
               ("400", 8), ("400", 12), ("420", 12), ("422", 10), ("444", 12), ("420", 8)]
    for k, (fmt, bpc) in enumerate(layouts):
        w, h, n = 96 + 16 * (k % 4), 72 + 8 * (k % 3), 9 + k
        name = "gen%02d_%s_%d" % (k, fmt, bpc)
        pairs.append((name,) + generated(name, "-w", str(w), "-h", str(h), "-p", fmt, "-b",
                                         str(bpc), "-n", str(n), "--seed", str(10 + k))
                     + (2 + k % 3,))
    return pairs


def single_runs(pairs):
    """The CLI's report of each pair at %.17g (the reference every report is compared with)."""
    return {name: cli_report((ref, dist), SCORING, "dask_single_%s.json" % name)
            for name, ref, dist, _ in pairs}


@pytest.fixture(scope="module")
def pairs():
    return catalogue()


@pytest.fixture(scope="module")
def expected(pairs):
    return single_runs(pairs)


def leftovers(folder):
    """Anything under folder that is not a finished report: partial files, shard folders."""
    found = []
    for root, dirs, files in os.walk(folder):
        found += [os.path.join(root, d) for d in dirs]
        found += [os.path.join(root, f) for f in files if ".part-" in f or f.startswith("shard_")]
    return found


def check_reports(reports, pairs, expected, out):
    """Every pair's report against its single run; returns (pairs, shards, bytes compared)."""
    assert [r.name for r in reports] == [p[0] for p in pairs]
    n_shards = n_bytes = 0
    for r, (name, _, _, shard) in zip(reports, pairs):
        assert r.error is None, (name, r.error)
        assert r.report == os.path.join(out, name + ".json")
        got = read(r.report)
        assert no_fps(got) == no_fps(expected[name]), name
        n_shards += len(r.shards)
        n_bytes += len(got)
    assert sorted(os.listdir(out)) == sorted(p[0] + ".json" for p in pairs)
    assert not leftovers(out)
    return len(reports), n_shards, n_bytes


def test_catalogue_on_two_workers(pairs, expected):
    cluster = Cluster("dask_cluster")
    try:
        out = os.path.join(WORK, "dask_reports")
        if os.path.isdir(out):
            for f in os.listdir(out):
                os.remove(os.path.join(out, f))
        # one call per shard length in the catalogue (a run takes one length)
        reports = {}
        for shard in sorted({p[3] for p in pairs}):
            group = [p for p in pairs if p[3] == shard]
            for r in lockstep.dask.run(cluster.client, [(ref, dist, name) for name, ref, dist, _
                                                        in group], args=SCORING,
                                       shard_frames=shard, output_dir=out, precision="max"):
                reports[r.name] = r
        ordered = [reports[p[0]] for p in pairs]
        n_pairs, n_shards, n_bytes = check_reports(ordered, pairs, expected, out)
        many = sum(1 for r in ordered if len(r.shards) >= 4)
        assert n_pairs >= 20 and many >= 10
        NOTES.append("dask: %d pairs, %d shards (%d pairs in 4 or more), %d report bytes "
                     "equal to the single runs'" % (n_pairs, n_shards, many, n_bytes))
        # reports returned rather than written, from a CSV catalogue and with relative paths
        cat = os.path.join(WORK, "dask_catalogue.csv")
        with open(cat, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["name", "reference", "distorted"])
            for name, ref, dist, _ in pairs[:4]:
                w.writerow([name, os.path.relpath(ref, WORK), os.path.relpath(dist, WORK)])
        returned = lockstep.dask.run(cluster.client, lockstep.dask.load_catalogue(cat),
                                     args=SCORING, shard_frames=3, precision="max")
        for r, (name, _, _, _) in zip(returned, pairs[:4]):
            assert r.report is None and no_fps(r.text) == no_fps(expected[name])
        # an error is the pair's, with lockstep's message; the other pairs complete
        bad = lockstep.dask.run(cluster.client, [pairs[1][1:3] + ("good",),
                                                 (pairs[0][1], pairs[1][2], "mismatch")],
                                args=SCORING, shard_frames=3, output_dir=out + "_bad",
                                precision="max")
        assert bad[0].error is None
        assert bad[1].error.startswith("videos are incompatible, 1 problem; bitdepths do not "
                                       "match: 8, 10")
        assert os.listdir(out + "_bad") == ["good.json"]
        # the command line entry point
        out_cli = os.path.join(WORK, "dask_reports_cli")
        subset = [p for p in pairs if p[3] == 2]
        cmd = [sys.executable, "-m", "lockstep.dask", "--scheduler",
               cluster.client.scheduler.address, "--output-dir", out_cli, "--shard-frames", "2",
               "--json", "--precision", "max"] + SCORING
        for _, ref, dist, _ in subset:
            cmd += ["--pair", ref, dist]
        p = subprocess.run(cmd, env=cluster.env, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        for name, ref, dist, _ in subset:
            got = read(os.path.join(out_cli, lockstep.dask._stem(dist) + ".json"))
            assert no_fps(got) == no_fps(expected[name]), name
        assert len(p.stdout.splitlines()) == len(subset)
    finally:
        cluster.close()


def test_worker_killed_mid_run(pairs, expected):
    """SIGKILL to a worker while it scores a shard: the shard runs again on the other worker and
    every report is still the single run's; no partial report or shard file is left."""
    cluster = Cluster("dask_cluster_kill")
    try:
        out = os.path.join(WORK, "dask_reports_kill")
        if os.path.isdir(out):
            for f in os.listdir(out):
                os.remove(os.path.join(out, f))
        # the long pairs in short shards: the run lasts long enough to kill a worker inside it
        group = [p for p in pairs if p[0] in ("p01", "p12", "p02", "gen05_444_10")]
        result = {}

        def run():
            result["reports"] = lockstep.dask.run(
                cluster.client, [(ref, dist, name) for name, ref, dist, _ in group], args=SCORING,
                shard_frames=4, output_dir=out, precision="max")

        runner = threading.Thread(target=run)
        runner.start()
        pids = cluster.client.run(os.getpid)
        victim = None
        deadline = time.time() + 60
        while victim is None and time.time() < deadline and runner.is_alive():
            for addr, keys in cluster.client.processing().items():
                if any(str(k).startswith("shard_task") for k in keys) and addr in pids:
                    victim = addr
                    break
            else:
                time.sleep(0.02)
        assert victim is not None and runner.is_alive(), "no shard was running to kill"
        os.kill(pids[victim], signal.SIGKILL)
        killed_at = time.time()
        runner.join(timeout=300)
        assert not runner.is_alive()
        assert time.time() > killed_at
        dead = [w for w in cluster.workers if w.poll() is not None]
        assert len(dead) == 1 and dead[0].returncode == -signal.SIGKILL
        n_pairs, n_shards, n_bytes = check_reports(result["reports"], group, expected, out)
        NOTES.append("dask, a worker killed mid-run: %d pairs, %d shards, %d report bytes equal "
                     "to the single runs', nothing partial left" % (n_pairs, n_shards, n_bytes))
        assert len(cluster.client.scheduler_info()["workers"]) == 1
    finally:
        cluster.close()
