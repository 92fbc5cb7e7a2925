"""Score many pairs on a Dask cluster: each pair is cut into shards of frames (--frame_range),
the shards run on the workers, and each pair's shard reports merge into the report that one run
over the pair writes -- byte for byte, but for fps.

    from distributed import Client
    import lockstep.dask
    client = Client("tcp://scheduler:8786")
    reports = lockstep.dask.run(client, [("ref.y4m", "dis.y4m"), ...],
                                models=["version=vmaf_v0.6.1"], shard_frames=500,
                                output_dir="/shared/reports")

Workers read the inputs by path and write the shard reports into work_dir: both must be on
storage every worker sees at the same paths (frames never travel through the scheduler, only
paths and small results do). A shard whose worker dies is run again elsewhere: Dask reschedules
the tasks of a lost worker, and where it gives up (KilledWorker) the shard is submitted again,
up to `retries` times. Reports are written under a temporary name and renamed: a report is
complete or absent, and the shard reports are removed once merged (or once the pair failed).

With backend="cuda" (or "opencl") the shards ask for the worker resource GPU=1: start the GPU
workers with `dask worker ... --resources GPU=1` (one per device, CUDA_VISIBLE_DEVICES apart).

The command line does the same (python3 -m lockstep.dask --help, or lockstep-dask).
"""
import argparse
import csv
import dataclasses
import glob
import os
import shutil
import sys
import tempfile
import uuid

import lockstep

FORMAT_EXTENSIONS = {"json": ".json", "xml": ".xml", "csv": ".csv", "sub": ".sub"}


@dataclasses.dataclass
class Pair:
    name: str
    reference: str
    distorted: str


@dataclasses.dataclass
class PairReport:
    """The outcome for one pair: the report written (report: its path) or returned (text: its
    content, when no output_dir is given), the pooled model scores as the CLI prints them, or
    the error that stopped it (lockstep's message)."""
    name: str
    reference: str
    distorted: str
    frames: int = 0
    shards: list = dataclasses.field(default_factory=list)   # [(first, end), ...]
    report: str = None
    text: str = None
    models: dict = dataclasses.field(default_factory=dict)
    error: str = None
    resubmitted: int = 0     # tasks submitted again after a worker died


def load_catalogue(path):
    """Pairs from a CSV file with a header naming the columns reference and distorted (and
    optionally name); relative paths are relative to the catalogue's folder."""
    base = os.path.dirname(os.path.abspath(path))
    pairs = []
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        missing = {"reference", "distorted"} - set(rows.fieldnames or ())
        if missing:
            raise ValueError("%s: the header must name the columns reference and distorted "
                             "(and optionally name); missing: %s"
                             % (path, ", ".join(sorted(missing))))
        for row in rows:
            ref, dist = (os.path.join(base, row[k].strip()) for k in ("reference", "distorted"))
            pairs.append(Pair((row.get("name") or "").strip() or _stem(dist), ref, dist))
    return pairs


def _stem(path):
    name = os.path.basename(path)
    return name.rsplit(".", 1)[0] if "." in name else name


def _pairs(pairs):
    out = []
    for p in pairs:
        if isinstance(p, Pair):
            out.append(p)
        elif isinstance(p, dict):
            out.append(Pair(p.get("name") or _stem(p["distorted"]), os.fspath(p["reference"]),
                            os.fspath(p["distorted"])))
        else:
            ref, dist, *name = p
            out.append(Pair(name[0] if name else _stem(dist), os.fspath(ref), os.fspath(dist)))
    names = [p.name for p in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError("pairs named alike would write the same report: %s (give names)"
                         % ", ".join(dupes))
    return out


def shard_ranges(frames, shard_frames):
    """[first, end) ranges of at most shard_frames frames covering 0 .. frames - 1 (one range
    when shard_frames is None or 0)."""
    step = shard_frames or frames
    return [(a, min(a + step, frames)) for a in range(0, frames, step)]


# ---- the tasks (run on the workers; they read and write by path) ----

def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def count_task(reference, distorted, args):
    return lockstep.count_frames(reference, distorted, args=args)


def shard_task(reference, distorted, args, first, end, path):
    """Scores frames first .. end - 1 into the shard report at path (written whole or not at
    all: under a temporary name, then renamed)."""
    part = "%s.part-%s" % (path, uuid.uuid4().hex)
    try:
        lockstep.score(reference, distorted, args=list(args) + [
            "--frame_range", "%d:%d" % (first, end), "-o", part]).close()
        os.replace(part, path)
    finally:
        _remove(part)
    return path


def merge_task(shards, output, fmt, precision, pair_dir):
    """Merges a pair's shard reports into output (None: returns the report's text), then
    removes the shard reports."""
    try:
        with lockstep.merge(shards) as merged:
            target = output or os.path.join(pair_dir, "report" + FORMAT_EXTENSIONS[fmt])
            part = "%s.part-%s" % (target, uuid.uuid4().hex)
            try:
                merged.write(part, fmt, precision)
                os.replace(part, target)
            finally:
                _remove(part)
            text = None
            if output is None:
                with open(target) as f:
                    text = f.read()
            return {"models": merged.models, "text": text}
    finally:
        shutil.rmtree(pair_dir, ignore_errors=True)


def _worker_lost(exc):
    """A task that failed because its worker went away, not because of what it scored."""
    try:
        from distributed.scheduler import KilledWorker
    except ImportError:  # pragma: no cover
        from distributed import KilledWorker
    from distributed.comm.core import CommClosedError
    return isinstance(exc, (KilledWorker, CommClosedError))


def run(client, pairs, models=None, features=None, no_prediction=False, args=(),
        shard_frames=None, output_dir=None, fmt="json", precision=None, work_dir=None,
        backend=None, retries=3, **options):
    """Scores every pair (Pair, (reference, distorted[, name]), or dict; see load_catalogue for a
    CSV) with the CLI's scoring arguments (models, features, no_prediction, args and options
    as lockstep.score takes them), cut into shards of shard_frames frames (None: one shard per
    pair). Writes output_dir/NAME.FORMAT per pair, or returns the reports' text (output_dir
    None). work_dir holds the shard reports until merged (default: output_dir/.lockstep-shards,
    else a temporary folder, which only workers on this machine see). Returns a PairReport per
    pair, in order; a pair that failed has its error set and no report."""
    pairs = _pairs(pairs)
    if fmt not in FORMAT_EXTENSIONS:
        raise ValueError("fmt must be one of %s" % ", ".join(FORMAT_EXTENSIONS))
    # counting opens the inputs on any worker: on the CPU, whatever the shards run on
    counting = lockstep.cli_args(models, features, no_prediction, args, **options)
    if backend:
        options["backend"] = backend
    scoring = lockstep.cli_args(models, features, no_prediction, args, **options)
    resources = {"GPU": 1} if backend in ("cuda", "opencl") else None
    made_work_dir = work_dir is None
    if work_dir is None:
        if output_dir is not None:
            os.makedirs(output_dir, exist_ok=True)
            work_dir = tempfile.mkdtemp(prefix=".lockstep-shards-", dir=output_dir)
        else:
            work_dir = tempfile.mkdtemp(prefix="lockstep-shards-")
    else:
        os.makedirs(work_dir, exist_ok=True)
    if output_dir is not None:
        os.makedirs(output_dir, exist_ok=True)
    run_id = uuid.uuid4().hex[:8]
    reports = [PairReport(p.name, p.reference, p.distorted) for p in pairs]
    pair_dirs = [os.path.join(work_dir, "%s-%04d" % (run_id, i)) for i in range(len(pairs))]

    from distributed import as_completed
    pending = as_completed()
    tasks = {}          # future key -> (kind, pair index, task arguments, attempt)
    done_shards = [dict() for _ in pairs]

    def submit(kind, i, fn_args, attempt=0):
        fn = {"count": count_task, "shard": shard_task, "merge": merge_task}[kind]
        future = client.submit(fn, *fn_args, pure=False, resources=resources
                               if kind == "shard" else None)
        tasks[future.key] = (kind, i, fn_args, attempt)
        pending.add(future)

    for i, p in enumerate(pairs):
        submit("count", i, (p.reference, p.distorted, counting))
    for future in pending:
        kind, i, fn_args, attempt = tasks.pop(future.key)
        rep, p = reports[i], pairs[i]
        if future.status != "finished":
            lost = future.status in ("cancelled", "lost")
            exc = None if lost else future.exception()
            future.release()
            if (lost or _worker_lost(exc)) and attempt < retries:
                rep.resubmitted += 1
                submit(kind, i, fn_args, attempt + 1)
            elif rep.error is None:
                if lost:
                    rep.error = "the task's worker was lost"
                elif isinstance(exc, lockstep.LockstepError):
                    rep.error = str(exc)
                else:
                    rep.error = "%s: %s" % (type(exc).__name__, exc)
                shutil.rmtree(pair_dirs[i], ignore_errors=True)
            continue
        value = future.result()
        future.release()
        if rep.error is not None:
            continue    # another task of the pair failed: its shards are gone
        if kind == "count":
            rep.frames = value
            if not value:
                rep.error = "no frames to score in \"%s\"" % p.reference
                continue
            rep.shards = shard_ranges(value, shard_frames)
            os.makedirs(pair_dirs[i], exist_ok=True)
            for a, b in rep.shards:
                path = os.path.join(pair_dirs[i], "shard_%d_%d.json" % (a, b))
                submit("shard", i, (p.reference, p.distorted, scoring, a, b, path))
        elif kind == "shard":
            done_shards[i][fn_args[3]] = value
            if len(done_shards[i]) == len(rep.shards):
                output = None if output_dir is None else \
                    os.path.join(output_dir, p.name + FORMAT_EXTENSIONS[fmt])
                shards = [done_shards[i][a] for a, _ in rep.shards]
                submit("merge", i, (shards, output, fmt, precision, pair_dirs[i]))
        else:
            rep.models, rep.text = value["models"], value["text"]
            rep.report = None if output_dir is None else \
                os.path.join(output_dir, p.name + FORMAT_EXTENSIONS[fmt])
    # what tasks of a lost worker left: their shard folders, and a merge's partial report
    for d in pair_dirs:
        shutil.rmtree(d, ignore_errors=True)
    for p in pairs if output_dir is not None else ():
        report = os.path.join(output_dir, p.name + FORMAT_EXTENSIONS[fmt])
        for stale in glob.glob(glob.escape(report) + ".part-*"):
            _remove(stale)
    if made_work_dir:
        shutil.rmtree(work_dir, ignore_errors=True)
    return reports


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m lockstep.dask",
        description="Score pairs on a Dask cluster, cut into shards and merged: one report per "
                    "pair, the bytes one lockstep run writes (but fps). Other arguments are "
                    "lockstep's scoring options (-m, --feature, -n, --threads, --subsample...).")
    ap.add_argument("--scheduler", required=True, help="the scheduler's address, tcp://HOST:PORT")
    ap.add_argument("--catalogue", help="a CSV of pairs: columns reference, distorted[, name]")
    ap.add_argument("--pair", nargs=2, action="append", default=[], metavar=("REF", "DIST"),
                    help="a pair (repeatable)")
    ap.add_argument("--output-dir", required=True, help="where the reports go: NAME.FORMAT")
    ap.add_argument("--shard-frames", type=int, default=0,
                    help="frames per shard (default: one shard per pair)")
    ap.add_argument("--work-dir", help="shard reports until merged (default: a hidden folder in "
                                       "the output folder); every worker must see it")
    ap.add_argument("--backend", choices=("cpu", "cuda", "opencl"), default=None,
                    help="cuda/opencl: shards run on workers with the resource GPU=1")
    ap.add_argument("--retries", type=int, default=3,
                    help="times a task is submitted again after its worker died (default 3)")
    for f in FORMAT_EXTENSIONS:
        ap.add_argument("--" + f, dest="fmt", action="store_const", const=f)
    ap.add_argument("--precision", help="score format of the reports, as lockstep's")
    o, scoring = ap.parse_known_args(argv)
    pairs = [Pair(_stem(d), r, d) for r, d in o.pair]
    if o.catalogue:
        pairs = load_catalogue(o.catalogue) + pairs
    if not pairs:
        ap.error("no pairs: give --catalogue CSV or --pair REF DIST")
    from distributed import Client
    with Client(o.scheduler) as client:
        reports = run(client, pairs, args=scoring, shard_frames=o.shard_frames or None,
                      output_dir=o.output_dir, fmt=o.fmt or "json", precision=o.precision,
                      work_dir=o.work_dir, backend=o.backend, retries=o.retries)
    failed = 0
    for r in reports:
        if r.error:
            failed += 1
            print("%s: %s" % (r.name, r.error), file=sys.stderr)
            continue
        scores = ", ".join("%s %s" % (k, v) for k, v in r.models.items() if not isinstance(v, dict))
        print("%s: %d frames, %d shards%s -> %s" % (r.name, r.frames, len(r.shards),
                                                    ", " + scores if scores else "", r.report))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
