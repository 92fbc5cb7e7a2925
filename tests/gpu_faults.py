#!/usr/bin/env python3
"""GPU faults through the CLI (LOCKSTEP_FAULT_INJECT, src/core/fault.h): the Nth driver call of a
class (alloc, copy, launch, sync) fails. Every such run must end within a minute with exit 255,
exactly one line on stderr naming the failed call of that class, and no report (an old report
stays as it was, no temporary is left). N runs 1..8, then grows by half until a run no longer
meets a call of the class: that run must succeed with the clean run's report. A frame too large
for the device (device_memory:BYTES) is refused with its sizes.

The backend's twins of every extractor it has run on p01 (4 frames); one class again with worker
threads. Exits 77 (skip), saying why, when the backend has no device here.

Sweeps run JOBS at a time (--jobs), each in its own folder (the fault counts are per process).

usage: gpu_faults.py --cli LOCKSTEP --fixtures DIR --work DIR --backend opencl|cuda [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import threading

results = {"passed": 0, "failed": 0}


lock = threading.Lock()


def check(name, ok, detail=""):
    with lock:
        results["passed" if ok else "failed"] += 1
        print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail else ''}", flush=True)


# what the failed call's line must name, per backend and class (the code is the one the switch
# gives; the call is any of the class's)
CALLS = {
    "opencl": {
        "alloc": r"clCreateBuffer(\([\w, ]+\))? failed: CL_MEM_OBJECT_ALLOCATION_FAILURE",
        "copy": r"clEnqueue(WriteBuffer|WriteBufferRect|ReadBuffer|CopyBuffer|FillBuffer|MapBuffer)"
                r"(\([\w, ]+\))? failed: (CL_OUT_OF_RESOURCES|CL_MAP_FAILURE)",
        "launch": r"clEnqueueNDRangeKernel(\(\w+\))? failed: CL_OUT_OF_RESOURCES",
        "sync": r"(clFinish|clWaitForEvents|clEnqueue(WriteBuffer|WriteBufferRect|ReadBuffer|MapBuffer))"
                r"(\([\w, ]+\))? failed: (CL_OUT_OF_RESOURCES|CL_MAP_FAILURE)",
    },
    "cuda": {
        "alloc": r"cuda: cuMem(Host)?Alloc\(.*\) failed: CUDA_ERROR_OUT_OF_MEMORY \(.+\)",
        "copy": r"cuda: cuMem(cpyHtoDAsync|cpyDtoHAsync|cpyDtoDAsync|cpyHtoD|cpyDtoH|setD8Async)\(.*\) failed: "
                r"CUDA_ERROR_ILLEGAL_ADDRESS \(.+\)",
        "launch": r"cuda: cuLaunch(Kernel|HostFunc)\(.*\) failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES \(.+\)",
        "sync": r"cuda: cu(Stream|Event)Synchronize\(.*\) failed: CUDA_ERROR_LAUNCH_FAILED \(.+\)",
    },
}
# the line is the extractor's own (init) or the context's around it (a frame, the flush)
PREFIX = (r'(problem with feature extractor "\w+" at index \d+: |problem flushing context: problem '
          r'flushing feature extractor "\w+": )?(\w+ \((opencl|cuda)\): )?')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--backend", required=True, choices=sorted(CALLS))
    ap.add_argument("--jobs", type=int, default=1, help="sweeps run at a time (each in its own folder)")
    a = ap.parse_args()
    cli, backend = a.cli, a.backend
    os.makedirs(a.work, exist_ok=True)
    old = b"old report\n"

    listing = subprocess.run([cli, "--list-extractors"], capture_output=True, text=True).stdout.split()
    twins = [listing[i][:-len(backend) - 1] for i in range(0, len(listing) - 1, 2)
             if listing[i + 1] == backend]
    feats = [w for t in twins for w in ("--feature", t)]
    base = ["-r", os.path.join(a.fixtures, "p01_ref.y4m"), "-d", os.path.join(a.fixtures, "p01_dis.y4m"),
            "-n", "--frame_cnt", "4", "--backend", backend, "-q", "--json", "--precision", "max"]

    def folder(name):
        d = os.path.join(a.work, name)
        os.makedirs(d, exist_ok=True)
        return d

    def leftovers(d):
        return [f for f in os.listdir(d) if ".lockstep-" in f]

    # The first run also builds the kernels (PoCL compiles them on the CPU and caches them for the
    # runs after it): on a slow 2-core machine with another test beside it that alone passed 60 s.
    def run(d, extra=(), spec=None, limit=60):
        out = os.path.join(d, f"faults_{backend}.json")
        with open(out, "wb") as f:
            f.write(old)
        env = dict(os.environ)
        env.pop("LOCKSTEP_FAULT_INJECT", None)
        if spec:
            env["LOCKSTEP_FAULT_INJECT"] = spec
        try:
            p = subprocess.run([cli] + base + ["-o", out] + feats + list(extra), capture_output=True,
                               text=True, timeout=limit, env=env)
        except subprocess.TimeoutExpired:
            return None, f"(no exit within {limit} s: a hang)", None
        report = open(out, "rb").read()
        return p.returncode, p.stderr, report

    rc, err, report = run(folder("clean"), limit=600)
    lines = err.splitlines()
    if rc and len(lines) == 1 and lines[0].startswith(f"backend {backend}: "):
        print(f"SKIP: no {backend} device here: {lines[0]}")
        return 77
    check(f"{backend}: the clean run of {', '.join(twins)} succeeds", rc == 0 and report != old, err.strip())
    if rc != 0:
        return 1
    clean = json.loads(report)
    clean.pop("fps")

    def failed_cleanly(d, what, rc, err, report, pattern):
        lines = err.splitlines()
        ok = (rc == 255 and len(lines) == 1 and re.fullmatch(PREFIX + pattern, lines[0]) is not None and
              report == old and not leftovers(d))
        check(what, ok, f"exit {rc}, {err.strip()!r}, report kept: {report == old}, left: {leftovers(d)}")
        return ok

    def sweep(cls, extra=(), label=""):
        d = folder(cls + label.replace(" ", "_"))
        n, failures = 1, 0
        while n < 100000:
            spec = f"{cls}:{n}"
            rc, err, report = run(d, extra, spec)
            if rc == 0:
                got = json.loads(report)
                got.pop("fps")
                check(f"{backend}{label}: {spec} is past the run's {cls} calls: the clean report",
                      got == clean and failures > 0 and not err, f"{failures} failing runs before; {err.strip()!r}")
                return
            failures += 1
            if not failed_cleanly(d, f"{backend}{label}: {spec} fails cleanly", rc, err, report,
                                  CALLS[backend][cls]):
                return
            n = n + 1 if n < 8 else n * 3 // 2
        check(f"{backend}{label}: {cls} sweep ended", False, "no run succeeded up to N = 100000")

    sweeps = [(cls, (), "") for cls in CALLS[backend]] + [("launch", ("--threads", "2"), " --threads 2")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for f in [pool.submit(sweep, *sw) for sw in sweeps]:
            f.result()

    # a frame too large for the device: refused before any allocation, with its sizes
    d = folder("too_large")
    rc, err, report = run(d, (), "device_memory:256K")
    failed_cleanly(d, f"{backend}: a 576x324 frame on a device of 256 KiB is refused", rc, err, report,
                   r".*a 576x324 frame needs .*(of device memory|device buffer).*")
    # a malformed switch is said once and changes nothing
    rc, err, report = run(d, (), "alloc:first")
    check(f"{backend}: a malformed LOCKSTEP_FAULT_INJECT is reported and ignored",
          rc == 0 and err == 'lockstep: LOCKSTEP_FAULT_INJECT="alloc:first" ignored: expected CLASS:N '
          '(alloc, copy, launch, sync; N from 1) or device_memory:BYTES, comma-separated\n', repr(err))

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
