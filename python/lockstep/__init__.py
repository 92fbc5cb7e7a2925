"""lockstep from Python: score two videos (files, or numpy frame arrays) with the features, models
and options the command line takes, through liblockstep.so's run calls -- the code the CLI runs,
so the scores are the CLI's, bit for bit.

    import lockstep
    r = lockstep.score("ref.y4m", "dis.y4m", models=["version=vmaf_v0.6.1"],
                       features=["psnr=enable_apsnr=true"], threads=2)
    r.models["vmaf_v0.6.1"]        # the pooled score the CLI prints
    r.scores["vmaf"]               # per-frame scores (numpy float64, NaN where none)
    r.pooled["psnr_y"]["mean"]     # the report's pooled_metrics
    r.frame_scores                 # a pandas DataFrame (index: frame numbers) with pandas
    r.write("out.json", "json", precision="max")

Errors raise LockstepError with lockstep's one-line message and the CLI's exit status.
lockstep.dask runs many pairs on a Dask cluster, cut into shards (frame ranges) and merged.
"""
import ctypes
import os

import numpy as np

from . import _lib

__all__ = ["LockstepError", "Result", "score", "score_frames", "merge", "count_frames",
           "cli_args", "version"]


class LockstepError(Exception):
    """A run failed: str(e) is lockstep's message (what the CLI prints), e.status the exit status
    the CLI would give (1: usage error, 255: any other)."""

    def __init__(self, message, status=255):
        super().__init__(message)
        self.status = status


def version():
    return _lib.text(_lib.lib().vmaf_version())


def _option_args(options):
    """Keyword options as CLI flags: threads=2 -> --threads 2, json=True -> --json,
    frame_range=(0, 100) -> --frame_range 0:100; False and None leave a flag out."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key
        if value is True:
            args.append(flag)
        elif key == "frame_range" and not isinstance(value, str):
            first, end = value
            args += [flag, "%d:%d" % (first, end)]
        else:
            args += [flag, str(value)]
    return args


def cli_args(models=None, features=None, no_prediction=False, args=(), **options):
    """The CLI arguments (without -r/-d) that the keyword form stands for: models (-m ITEM, a bare
    model name meaning version=NAME), features (--feature NAME[=opt=val...]), -n, the options as
    flags (threads=2 -> --threads 2), then args as given."""
    out = []
    for m in [models] if isinstance(models, str) else models or []:
        out += ["-m", m if "=" in m or ":" in m else "version=" + m]
    for f in [features] if isinstance(features, str) else features or []:
        out += ["--feature", f]
    if no_prediction:
        out.append("-n")
    return out + _option_args(options) + [os.fspath(a) if isinstance(a, os.PathLike) else a
                                          for a in args]


class Result:
    """The scores of a run, a shard or a merge: per frame, pooled, aggregate and model scores,
    read from the context once; the context stays open for write() until close()."""

    def __init__(self, owner, ctx, close, models):
        self._owner, self._ctx, self._close = owner, ctx, close
        L = _lib.lib()
        n = L.lockstep_report_frames(ctx, None, 0)
        frames = (ctypes.c_uint * max(n, 1))()
        L.lockstep_report_frames(ctx, frames, n)
        self.frames = np.array(frames[:n], dtype=np.uint32)
        self.scores, self.pooled = {}, {}
        v = ctypes.c_double()
        for f in range(L.lockstep_feature_count(ctx)):
            name = L.lockstep_feature_name(ctx, f)
            out = _lib.text(L.lockstep_output_name(name))
            col = np.full(n, np.nan)
            for k, i in enumerate(self.frames):
                if not L.vmaf_feature_score_at_index(ctx, name, ctypes.byref(v), int(i)):
                    col[k] = v.value
            self.scores[out] = col
            pooled = {}
            for method, code in _lib.POOL_METHODS:
                if not L.lockstep_report_pooled(ctx, name, code, ctypes.byref(v)):
                    pooled[method] = v.value
            self.pooled[out] = pooled
        self.aggregates = {}
        a = 0
        while (name := L.lockstep_aggregate_name(ctx, a)) is not None:
            if not L.lockstep_aggregate_score(ctx, name, ctypes.byref(v)):
                self.aggregates[_lib.text(name)] = v.value
            a += 1
        # what the CLI prints: each model's mean, and a collection's bootstrap summary
        self.models = {}
        for m in models:
            label, name = _lib.text(m.label), _lib.text(m.name)
            self.models[label] = self.pooled.get(name, {}).get("mean")
            if m.collection:
                self.models[label + " bootstrap"] = {
                    key: self.pooled.get(name + suffix, {}).get("mean")
                    for key, suffix in (("bagging", "_bagging"), ("ci_p95_lo", "_ci_p95_lo"),
                                        ("ci_p95_hi", "_ci_p95_hi"), ("stddev", "_stddev"))}

    def dataframe(self):
        """The per-frame scores as a pandas DataFrame indexed by frame number."""
        import pandas
        return pandas.DataFrame(self.scores, index=pandas.Index(self.frames, name="frameNum"))

    @property
    def frame_scores(self):
        """The per-frame scores: a pandas DataFrame where pandas is installed, else the dict of
        numpy arrays (scores)."""
        try:
            return self.dataframe()
        except ImportError:
            return self.scores

    def write(self, path, format="json", precision=None):
        """Writes the report as the CLI does (-o PATH --FORMAT [--precision P])."""
        if self._ctx is None:
            raise LockstepError("the result is closed")
        L = _lib.lib()
        score_format = None
        if precision is not None:
            score_format = L.lockstep_precision_format(str(precision).encode())
            if score_format is None:
                raise LockstepError("--precision must be an integer 1..17, or one of: max, full, "
                                    "legacy (got: %s)" % precision, 1)
        if format not in _lib.OUTPUT_FORMAT:
            raise LockstepError("unknown report format %r (expected xml, json, csv or sub)"
                                % format, 1)
        if L.vmaf_write_output_with_format(self._ctx, os.fsencode(path),
                                           _lib.OUTPUT_FORMAT[format], score_format):
            raise LockstepError(_lib.text(L.lockstep_last_error()))

    def close(self):
        if self._owner is not None:
            self._close(self._owner)
            self._owner = self._ctx = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def _run_models(run):
    L = _lib.lib()
    models = []
    for i in range(L.lockstep_run_model_count(run)):
        m = _lib.ShardModel()
        L.lockstep_run_model_info(run, i, ctypes.byref(m))
        models.append(m)
    return models


def _raise(run, status):
    L = _lib.lib()
    message = _lib.text(L.lockstep_run_error(run)) if run else "out of memory"
    L.lockstep_run_close(run)
    if status == 2:
        status, message = 1, message or "an informational option (--help, --version, " \
            "--list-extractors) asks for no scores"
    raise LockstepError(message, status)


def _open(args):
    L = _lib.lib()
    run = ctypes.c_void_p()
    argc, argv = _lib.argv(["lockstep"] + args + ["-q"])
    status = L.lockstep_run_open(ctypes.byref(run), argc, argv)
    if status:
        _raise(run, status)
    return run


def score(reference, distorted, models=None, features=None, no_prediction=False, args=(),
          **options):
    """Scores two files (Y4M, or raw YUV with width/height/pixel_format/bitdepth) as
    `lockstep -r REFERENCE -d DISTORTED ...` does; with frame_range=(A, B) and output=PATH it
    writes a shard report, as the CLI does. Returns a Result."""
    a = ["-r", os.fspath(reference), "-d", os.fspath(distorted)] + \
        cli_args(models, features, no_prediction, args, **options)
    run = _open(a)
    L = _lib.lib()
    status = L.lockstep_run_files(run)
    if status:
        _raise(run, status)
    return Result(run, L.lockstep_run_context(run), L.lockstep_run_close, _run_models(run))


def count_frames(reference, distorted, models=None, features=None, no_prediction=False, args=(),
                 **options):
    """The frames a run over the two files scores (after --frame_skip_ref, at most --frame_cnt):
    what a video is cut into shards by."""
    a = ["-r", os.fspath(reference), "-d", os.fspath(distorted)] + \
        cli_args(models, features, no_prediction, args, **options)
    run = _open(a)
    L = _lib.lib()
    n = ctypes.c_uint()
    status = L.lockstep_run_count_frames(run, ctypes.byref(n))
    if status:
        _raise(run, status)
    L.lockstep_run_close(run)
    return n.value


def _planes(frames, what):
    """frames: an array (N, H, W) of luma (4:0:0), or a sequence of three arrays Y (N, H, W),
    U and V (N, h, w); uint8 for 8 bits, uint16 above. Returns the planes and the pixel format."""
    if isinstance(frames, np.ndarray):
        planes = [frames]
    else:
        planes = list(frames)
    if len(planes) not in (1, 3) or any(not isinstance(p, np.ndarray) or p.ndim != 3
                                        for p in planes):
        raise LockstepError("%s frames: expected an array (frames, height, width) of luma, or "
                            "three such arrays Y, U, V" % what, 1)
    n, h, w = planes[0].shape
    if len(planes) == 1:
        return planes, "400", (n, h, w)
    ch, cw = planes[1].shape[1:]
    fmts = {((h + 1) // 2, (w + 1) // 2): "420", (h, (w + 1) // 2): "422", (h, w): "444"}
    fmt = fmts.get((ch, cw))
    if fmt is None or planes[2].shape[1:] != (ch, cw) or planes[1].shape[0] != n or \
            planes[2].shape[0] != n:
        raise LockstepError("%s frames: chroma planes of %s and %s for luma %dx%d: expected "
                            "4:2:0, 4:2:2 or 4:4:4 sizes and as many frames as luma"
                            % (what, planes[1].shape, planes[2].shape, w, h), 1)
    return planes, fmt, (n, h, w)


def score_frames(reference, distorted, bitdepth=None, models=None, features=None,
                 no_prediction=False, args=(), **options):
    """Scores frames given as numpy arrays (see _planes: luma only, or Y, U, V), as the CLI
    scores files holding the same samples. bitdepth: 8 for uint8 (the default), 9..16 for uint16
    (required: the depth changes the scores). Returns a Result."""
    ref, fmt, shape = _planes(reference, "reference")
    dist, dfmt, dshape = _planes(distorted, "distorted")
    if (fmt, shape) != (dfmt, dshape):
        raise LockstepError("videos are incompatible: reference %s frames of %dx%d (%s), "
                            "distorted %s of %dx%d (%s)" % (shape[0], shape[2], shape[1], fmt,
                                                            dshape[0], dshape[2], dshape[1], dfmt))
    dtypes = {p.dtype for p in ref + dist}
    if len(dtypes) != 1 or dtypes.pop() not in (np.uint8, np.uint16):
        raise LockstepError("frames: expected uint8 samples (8 bits) or uint16 (9..16 bits) in "
                            "every plane of both videos", 1)
    wide = ref[0].dtype == np.uint16
    if bitdepth is None and wide:
        raise LockstepError("frames: uint16 samples need bitdepth= (9..16): the depth changes "
                            "the scores", 1)
    bpc = bitdepth if bitdepth is not None else 8
    if (bpc > 8) != wide:
        raise LockstepError("frames: bitdepth %d needs %s samples" % (bpc, "uint16" if bpc > 8
                                                                       else "uint8"), 1)
    L = _lib.lib()
    run = ctypes.c_void_p()
    argc, argv = _lib.argv(["lockstep"] + cli_args(models, features, no_prediction, args,
                                                   **options) + ["-q"])
    status = L.lockstep_run_open_frames(ctypes.byref(run), argc, argv, _lib.PIX_FMT[fmt], bpc,
                                        shape[2], shape[1])
    if status:
        _raise(run, status)
    ptrs, strides = ctypes.c_void_p * 3, ctypes.c_ssize_t * 3
    for i in range(shape[0]):
        rp = [np.ascontiguousarray(p[i]) for p in ref]
        dp = [np.ascontiguousarray(p[i]) for p in dist]
        rp += [rp[0]] * (3 - len(rp))   # 4:0:0: planes 1 and 2 are not read
        dp += [dp[0]] * (3 - len(dp))
        status = L.lockstep_run_read_frame(
            run, ptrs(*[p.ctypes.data for p in rp]), strides(*[p.strides[0] for p in rp]),
            ptrs(*[p.ctypes.data for p in dp]), strides(*[p.strides[0] for p in dp]))
        if status:
            _raise(run, status)
    status = L.lockstep_run_finish(run)
    if status:
        _raise(run, status)
    return Result(run, L.lockstep_run_context(run), L.lockstep_run_close, _run_models(run))


def merge(shards):
    """The whole video's result from its shard reports (any order), as `lockstep merge` gives it;
    refuses shards that overlap, leave a gap or come from other inputs or settings."""
    L = _lib.lib()
    paths = [os.fsencode(p) for p in shards]
    arr = (ctypes.c_char_p * max(len(paths), 1))(*paths)
    ctx = ctypes.c_void_p()
    if L.lockstep_merge_shards(ctypes.byref(ctx), arr, len(paths)):
        raise LockstepError("lockstep merge: " + _lib.text(L.lockstep_last_error()))
    models = []
    for i in range(L.lockstep_model_count(ctx)):
        m = _lib.ShardModel()
        L.lockstep_model_info(ctx, i, ctypes.byref(m))
        models.append(m)
    return Result(ctx, ctx, L.vmaf_close, models)
