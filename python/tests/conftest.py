"""What the tests run against, from the environment (tests/python.cmake sets it): the CLI
(LOCKSTEP_CLI), lockstep-gen (LOCKSTEP_GEN), the decompressed fixtures (LOCKSTEP_FIXTURES), a
work folder (LOCKSTEP_WORK); the package finds liblockstep.so through LOCKSTEP_LIBRARY."""
import json
import math
import os
import re
import struct
import subprocess

import numpy as np
import pytest


def env(name):
    value = os.environ.get(name)
    if not value:
        pytest.exit("%s is not set: run the tests through ctest (-R python)" % name, 2)
    return value


CLI = env("LOCKSTEP_CLI")
GEN = env("LOCKSTEP_GEN")
FIXTURES = env("LOCKSTEP_FIXTURES")
WORK = env("LOCKSTEP_WORK")
os.makedirs(WORK, exist_ok=True)

# what the tests compared, printed at the end of the session
SUMMARY = {"values compared bit for bit with the CLI's JSON": 0}
NOTES = []


def pytest_terminal_summary(terminalreporter):
    for key, value in SUMMARY.items():
        if value:
            terminalreporter.write_line("%s: %d" % (key, value))
    for line in NOTES:
        terminalreporter.write_line(line)


FPS = re.compile(r'(<fyi fps=")[^"]*(" />)|("fps": )[^,\n]*(,)')


def no_fps(text):
    """The report with its fps (a timing, the only field a rerun changes) blanked."""
    return FPS.sub(lambda m: (m.group(1) or m.group(3)) + "FPS" + (m.group(2) or m.group(4)), text)


def cli(args, expect=0):
    """The CLI run as `lockstep ARGS` (argv[0] "lockstep", as the package names itself)."""
    p = subprocess.run(["lockstep"] + list(args), executable=CLI, capture_output=True, text=True)
    assert p.returncode == expect, "exit %d (expected %d): lockstep %s\n%s" % (
        p.returncode, expect, " ".join(args), p.stderr)
    return p


def read(path):
    with open(path) as f:
        return f.read()


def fixture(name):
    return (os.path.join(FIXTURES, name + "_ref.y4m"), os.path.join(FIXTURES, name + "_dis.y4m"))


def generated(name, *args):
    """A lockstep-gen pair in the work folder (made once)."""
    pair = (os.path.join(WORK, name + "_ref.y4m"), os.path.join(WORK, name + "_dis.y4m"))
    if not all(os.path.exists(p) for p in pair):
        subprocess.run([GEN, *args, pair[0], pair[1]], check=True)
    return pair


def cli_report(pair, args, name, fmt="--json"):
    """The CLI's report of a pair at %.17g, as text."""
    out = os.path.join(WORK, name)
    cli(["-r", pair[0], "-d", pair[1], "-q", fmt, "--precision", "max", "-o", out] + list(args))
    return read(out)


def bits(v):
    return struct.pack("<d", v)


def assert_same_as_report(result, report):
    """Every per-frame, pooled and aggregate score of a Result against the CLI's JSON report at
    %.17g (which round-trips every double), bit for bit; null in JSON is a non-finite value.
    Returns the number of values compared."""
    data = json.loads(report)
    frames = [f["frameNum"] for f in data["frames"]]
    assert list(result.frames) == frames
    n = 0
    for k, f in enumerate(data["frames"]):
        names = [m for m in result.scores if not math.isnan(result.scores[m][k])]
        assert sorted(names) == sorted(f["metrics"]), "frame %d: metrics differ" % f["frameNum"]
        for m, v in f["metrics"].items():
            got = result.scores[m][k]
            if v is None:
                assert not math.isfinite(got), (m, f["frameNum"], got)
            else:
                assert bits(got) == bits(v), (m, f["frameNum"], got, v)
            n += 1
    assert sorted(result.pooled) == sorted(data["pooled_metrics"])
    for m, pooled in data["pooled_metrics"].items():
        assert sorted(result.pooled[m]) == sorted(pooled), m
        for method, v in pooled.items():
            got = result.pooled[m][method]
            assert (v is None and not math.isfinite(got)) or bits(got) == bits(v), (m, method)
            n += 1
    assert list(result.aggregates) == list(data["aggregate_metrics"])
    for m, v in data["aggregate_metrics"].items():
        assert (v is None and not math.isfinite(result.aggregates[m])) or \
            bits(result.aggregates[m]) == bits(v), m
        n += 1
    SUMMARY["values compared bit for bit with the CLI's JSON"] += n
    return n


# ---- Y4M in the tests (the package reads files through the library; tests need arrays) ----

_CHROMA = {"420": lambda h, w: ((h + 1) // 2, (w + 1) // 2), "422": lambda h, w: (h, (w + 1) // 2),
           "444": lambda h, w: (h, w)}


def write_y4m(path, planes, fmt, bpc):
    """planes: [Y (N, H, W)] or [Y, U, V]; uint8 or uint16 (little-endian words)."""
    n, h, w = planes[0].shape
    tag = {"420": "420", "422": "422", "444": "444", "400": "mono"}[fmt]
    if fmt == "420" and bpc == 8:
        tag = "420jpeg"
    if bpc > 8:
        tag += "p%d" % bpc if fmt != "400" else "%d" % bpc
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s\n" % (w, h, tag.encode()))
        for i in range(n):
            f.write(b"FRAME\n")
            for p in planes:
                f.write(p[i].astype("<u2" if bpc > 8 else "u1").tobytes())


def read_y4m(path):
    """(planes, fmt, bpc) of a Y4M file whose frames carry no parameters."""
    with open(path, "rb") as f:
        data = f.read()
    head, rest = data.split(b"\n", 1)
    tags = {t[:1]: t[1:].decode() for t in head.split()[1:]}
    w, h, c = int(tags[b"W"]), int(tags[b"H"]), tags.get(b"C", "420jpeg")
    fmt = "400" if c.startswith("mono") else c[:3]
    depth = re.search(r"(?:p|mono)(\d+)$", c)
    bpc = int(depth.group(1)) if depth else 8
    sizes = [(h, w)] + ([] if fmt == "400" else [_CHROMA[fmt](h, w)] * 2)
    dtype = np.dtype("<u2") if bpc > 8 else np.dtype("u1")
    frame = 6 + sum(a * b for a, b in sizes) * dtype.itemsize
    n = len(rest) // frame
    planes = [np.empty((n,) + s, dtype=np.uint16 if bpc > 8 else np.uint8) for s in sizes]
    for i in range(n):
        off = i * frame + 6
        for p, (a, b) in zip(planes, sizes):
            p[i] = np.frombuffer(rest, dtype, a * b, off).reshape(a, b)
            off += a * b * dtype.itemsize
    return planes, fmt, bpc
