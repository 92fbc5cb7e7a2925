"""The Python package against the CLI: files and numpy frames scored with the CLI's arguments
give the CLI's scores bit for bit (every per-frame, pooled and aggregate value of its %.17g JSON
report, the pooled model scores it prints) and the same report bytes (but fps); errors carry the
CLI's messages; shards scored from Python merge as the CLI's do; the package installs offline."""
import os
import re
import subprocess
import sys
import zlib

import numpy as np
import pytest

import lockstep
from conftest import (CLI, WORK, assert_same_as_report, cli, cli_report, fixture, generated,
                      no_fps, read, read_y4m, write_y4m)

FILE_CASES = [
    # name, pair, CLI arguments
    ("p02 vmaf apsnr", lambda: fixture("p02"), ["--feature", "psnr=enable_apsnr=true"]),
    ("p01 float model", lambda: fixture("p01"), ["-m", "version=vmaf_float_v0.6.1"]),
    ("p04 4:2:2 10-bit bootstrap", lambda: fixture("p04"), ["-m", "version=vmaf_b_v0.6.3"]),
    ("p06 4:0:0 features", lambda: fixture("p06"),
     ["-n", "--feature", "psnr", "--feature", "float_ssim", "--feature", "motion"]),
    ("vmaf v1", lambda: generated("v1", "-w", "224", "-h", "160", "-n", "7", "--seed", "3"),
     ["-m", "version=vmaf_v1.0.16_3d0h"]),
    ("two models, subsample, threads", lambda: fixture("p01"),
     ["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg",
      "--subsample", "3", "--threads", "2",
      "--feature", "motion=motion_five_frame_window=true"]),
    ("frame skips and count", lambda: fixture("p01"),
     ["--frame_skip_ref", "2", "--frame_skip_dist", "2", "--frame_cnt", "9",
      "--feature", "ciede"]),
    ("aom ctc preset", lambda: fixture("p10"), ["--aom_ctc", "v6.0"]),
]


@pytest.mark.parametrize("name,pair,args", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_files_as_the_cli(name, pair, args):
    pair = pair()
    tag = name.replace(" ", "_").replace(",", "").replace(":", "")
    report = cli_report(pair, args, tag + ".cli.json")
    with lockstep.score(*pair, args=args) as r:
        assert assert_same_as_report(r, report) > 0
        out = os.path.join(WORK, tag + ".py.json")
        r.write(out, "json", precision="max")
        assert no_fps(read(out)) == no_fps(report)
        # the default format (%.6f / %.16f) and another layout, as the CLI writes them
        out = os.path.join(WORK, tag + ".py.xml")
        r.write(out, "xml")
        assert no_fps(read(out)) == no_fps(cli_report_default(pair, args, tag + ".cli.xml"))
        # the pooled model scores the CLI prints (no -o)
        printed = cli(["-r", pair[0], "-d", pair[1], "-q", "--precision", "max"] + args).stdout
        if "-n" not in args and not any(a.startswith("--aom") for a in args):
            lines = printed.splitlines()
            assert len(lines) == len(r.models)
            for line in lines:
                boot = re.match(r"(.*): (\S+), ci\.p95: \[(\S+), (\S+)\], stddev: (\S+)$", line)
                if boot:    # a collection's bootstrap summary
                    got = r.models[boot.group(1) + " bootstrap"]
                    want = dict(zip(("bagging", "ci_p95_lo", "ci_p95_hi", "stddev"),
                                    map(float, boot.groups()[1:])))
                    assert got == want, line
                    continue
                label, value = line.rsplit(": ", 1)
                assert repr(r.models[label]) == repr(float(value)), line


def cli_report_default(pair, args, name):
    out = os.path.join(WORK, name)
    cli(["-r", pair[0], "-d", pair[1], "-q", "--xml", "-o", out] + list(args))
    return read(out)


def test_keyword_options_are_cli_flags():
    assert lockstep.cli_args(models="vmaf_v0.6.1", features=["psnr"], no_prediction=True,
                             threads=2, frame_range=(3, 9), json=True, quiet=False) == \
        ["-m", "version=vmaf_v0.6.1", "--feature", "psnr", "-n", "--threads", "2",
         "--frame_range", "3:9", "--json"]
    pair = fixture("p02")
    a = lockstep.score(*pair, features="psnr=enable_apsnr=true", threads=2)
    b = lockstep.score(*pair, args=["--feature", "psnr=enable_apsnr=true", "--threads", "2"])
    assert a.models == b.models and a.aggregates == b.aggregates
    assert all(np.array_equal(a.scores[k], b.scores[k], equal_nan=True) for k in a.scores)


def test_dataframe():
    pandas = pytest.importorskip("pandas")
    r = lockstep.score(*fixture("p03"), features=["psnr"])
    df = r.frame_scores
    assert isinstance(df, pandas.DataFrame)
    assert list(df.index) == [0, 1, 2] and df.index.name == "frameNum"
    assert np.array_equal(df["vmaf"].to_numpy(), r.scores["vmaf"])


def random_video(rng, n, h, w, fmt, bpc, noise):
    """A smooth moving pattern and a noisy copy: scores away from the extremes."""
    sizes = [(h, w)] + {"400": [], "420": [((h + 1) // 2, (w + 1) // 2)] * 2,
                        "422": [(h, (w + 1) // 2)] * 2, "444": [(h, w)] * 2}[fmt]
    top = (1 << bpc) - 1
    ref, dist = [], []
    for a, b in sizes:
        y, x = np.mgrid[0:a, 0:b]
        base = np.stack([(np.sin(x / 5.0 + t / 2.0) * np.cos(y / 7.0) + 1) / 2 for t in range(n)])
        base = base * 0.7 * top + 0.15 * top + rng.normal(0, top * 0.02, (n, a, b))
        r = np.clip(np.rint(base), 0, top)
        d = np.clip(np.rint(base + rng.normal(0, top * noise, (n, a, b))), 0, top)
        dtype = np.uint16 if bpc > 8 else np.uint8
        ref.append(r.astype(dtype))
        dist.append(d.astype(dtype))
    return ref, dist


FRAME_CASES = [
    # name, frames, height, width, format, depth, CLI arguments
    ("8-bit 4:2:0 vmaf", 6, 90, 120, "420", 8, ["--feature", "psnr=enable_apsnr=true"]),
    ("10-bit 4:2:2 vmaf neg", 5, 80, 112, "422", 10, ["-m", "version=vmaf_v0.6.1neg"]),
    ("12-bit 4:4:4 features", 4, 64, 72, "444", 12,
     ["-n", "--feature", "psnr=enable_chroma=true", "--feature", "float_ssim",
      "--feature", "float_motion"]),
    ("8-bit 4:0:0 vmaf", 5, 72, 96, "400", 8, []),
]


@pytest.mark.parametrize("name,n,h,w,fmt,bpc,args", FRAME_CASES, ids=[c[0] for c in FRAME_CASES])
def test_frames_as_the_cli(name, n, h, w, fmt, bpc, args):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    ref, dist = random_video(rng, n, h, w, fmt, bpc, 0.04)
    tag = name.replace(" ", "_").replace(":", "")
    paths = (os.path.join(WORK, tag + "_ref.y4m"), os.path.join(WORK, tag + "_dis.y4m"))
    write_y4m(paths[0], ref, fmt, bpc)
    write_y4m(paths[1], dist, fmt, bpc)
    report = cli_report(paths, args, tag + ".cli.json")
    with lockstep.score_frames(ref if fmt != "400" else ref[0],
                               dist if fmt != "400" else dist[0], bitdepth=bpc, args=args) as r:
        assert assert_same_as_report(r, report) > 0
        out = os.path.join(WORK, tag + ".py.json")
        r.write(out, precision="max")
        assert no_fps(read(out)) == no_fps(report)


def test_fixture_frames_as_the_cli():
    """A fixture read into arrays (10-bit 4:2:0) scores as the file does; strided views too."""
    pair = fixture("p02")
    ref, fmt, bpc = read_y4m(pair[0])
    dist, _, _ = read_y4m(pair[1])
    report = cli_report(pair, [], "p02_frames.cli.json")
    r = lockstep.score_frames(ref, dist, bitdepth=bpc)
    assert assert_same_as_report(r, report) > 0
    # the same frames as views into wider arrays (rows not contiguous)
    wide = [np.zeros(p.shape[:2] + (p.shape[2] + 8,), p.dtype) for p in ref]
    for big, p in zip(wide, ref):
        big[:, :, 3:3 + p.shape[2]] = p
    views = [big[:, :, 3:3 + p.shape[2]] for big, p in zip(wide, ref)]
    r2 = lockstep.score_frames(views, dist, bitdepth=bpc)
    assert assert_same_as_report(r2, report) > 0


@pytest.mark.parametrize("args", [
    ["--threads", "x"],
    ["--feature", "psnr=enable_chroma"],
    ["--feature", "nosuch"],
    ["-m", "version=vmaf_v9"],
    ["-m", "path=/nonexistent/model.json"],
    ["--frame_range", "5:2"],
    ["--frame_range", "100:120", "-o", os.path.join(WORK, "never.json")],
    ["--model", "name=x"],
], ids=lambda a: " ".join(a[:2]))
def test_errors_carry_the_cli_message(args):
    pair = fixture("p02")
    full = ["-r", pair[0], "-d", pair[1]] + args
    p = subprocess.run(["lockstep", "-q"] + full, executable=CLI, capture_output=True, text=True)
    assert p.returncode != 0
    with pytest.raises(lockstep.LockstepError) as e:
        lockstep.score(*pair, args=args)
    assert str(e.value) == p.stderr.strip()
    assert e.value.status == p.returncode
    assert not os.path.exists(os.path.join(WORK, "never.json"))


def test_file_errors():
    p01, p02 = fixture("p01"), fixture("p02")
    cases = [(p01[0], p02[1]), (p01[0], os.path.join(WORK, "missing.y4m"))]
    for ref, dist in cases:
        p = subprocess.run(["lockstep", "-q", "-r", ref, "-d", dist], executable=CLI,
                           capture_output=True, text=True)
        with pytest.raises(lockstep.LockstepError) as e:
            lockstep.score(ref, dist)
        assert str(e.value) == p.stderr.strip() and e.value.status == p.returncode == 255
    assert str(e.value).endswith("cannot open: No such file or directory")


def test_frame_errors():
    rng = np.random.default_rng(1)
    ref, dist = random_video(rng, 2, 48, 48, "420", 10, 0.05)
    with pytest.raises(lockstep.LockstepError, match="uint16 samples need bitdepth="):
        lockstep.score_frames(ref, dist)
    with pytest.raises(lockstep.LockstepError, match="bitdepth 8 needs uint8 samples"):
        lockstep.score_frames(ref, dist, bitdepth=8)
    bad = [p.copy() for p in dist]
    bad[2][1, 3, 5] = 1024
    with pytest.raises(lockstep.LockstepError) as e:
        lockstep.score_frames(ref, bad, bitdepth=10)
    assert str(e.value) == "frame 1: distorted Cr sample 1024 at (5, 3) is above the 10-bit " \
                           "maximum 1023"
    with pytest.raises(lockstep.LockstepError, match="videos are incompatible"):
        lockstep.score_frames(ref, [p[:1] for p in dist], bitdepth=10)
    with pytest.raises(lockstep.LockstepError) as e:
        lockstep.score_frames(ref, dist, bitdepth=10, frame_cnt=1)
    assert str(e.value) == "lockstep: --frame_skip_ref, --frame_skip_dist and --frame_cnt pick " \
                           "frames of files: frames are given, not read from files (give the " \
                           "frames to score)"
    with pytest.raises(lockstep.LockstepError, match="-r/-d name files"):
        lockstep.score_frames(ref, dist, bitdepth=10, args=["-r", "x.y4m"])


def test_shards_from_python_merge_as_the_cli():
    """Shards scored from Python merge (in Python and with lockstep merge) into the CLI's
    whole-run report; merge refuses a gap with the CLI's message."""
    pair = fixture("p01")
    args = ["--feature", "motion=motion_five_frame_window=true", "--feature",
            "psnr=enable_apsnr=true"]
    report = cli_report(pair, args, "p01_full.cli.json")
    cuts = [0, 7, 8, 20, 33, 48]
    shards = []
    for a, b in zip(cuts, cuts[1:]):
        out = os.path.join(WORK, "p01_py_shard_%d_%d.json" % (a, b))
        lockstep.score(*pair, args=args, frame_range=(a, b), output=out).close()
        shards.append(out)
    with lockstep.merge(shards[::-1]) as merged:
        assert assert_same_as_report(merged, report) > 0
        out = os.path.join(WORK, "p01_py_merged.json")
        merged.write(out, precision="max")
        assert no_fps(read(out)) == no_fps(report)
    out = os.path.join(WORK, "p01_cli_merged.json")
    cli(["merge", "-q", "--json", "--precision", "max", "-o", out] + shards)
    assert no_fps(read(out)) == no_fps(report)
    gap = shards[:2] + shards[3:]
    p = subprocess.run(["lockstep", "merge", "-o", os.path.join(WORK, "never.json")] + gap,
                       executable=CLI, capture_output=True, text=True)
    with pytest.raises(lockstep.LockstepError) as e:
        lockstep.merge(gap)
    assert str(e.value) == p.stderr.strip() and "frames 8..19 are missing" in str(e.value)


def test_count_frames():
    assert lockstep.count_frames(*fixture("p01")) == 48
    assert lockstep.count_frames(*fixture("p01"), frame_skip_ref=5, frame_skip_dist=5) == 43
    assert lockstep.count_frames(*fixture("p12"), frame_cnt=30) == 30


def test_installs_offline(tmp_path):
    """pip install --no-build-isolation (Debian's setuptools, no index) gives an importable
    package and the console script."""
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = tmp_path / "src"
    subprocess.run(["cp", "-r", source, str(build)], check=True)   # keep the checkout clean
    target = tmp_path / "site"
    p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                        "--no-index", "--no-deps", "--target", str(target), str(build)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    p = subprocess.run([sys.executable, "-c", "import lockstep, lockstep.dask; "
                        "print(lockstep.__file__); print(lockstep.version())"],
                       env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(str(target))
    assert (target / "bin" / "lockstep-dask").exists()
