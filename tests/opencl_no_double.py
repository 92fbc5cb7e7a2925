#!/usr/bin/env python3
"""The OpenCL kernels must not use binary64: the backend targets devices without it.

Every src/opencl/*.cl program is preprocessed the way an OpenCL compiler sees it (prelude.clh,
__OPENCL_VERSION__ defined, quoted includes from src/, with and without the integer-division
define) by the host C preprocessor, and the output must not contain the token `double`.
This checks the OpenCL path of shared headers (psnr_hvs_block.h keeps its binary64 threshold
behind `#if !defined(__OPENCL_VERSION__)`) and nothing else."""
import glob
import os
import re
import subprocess
import sys


def main():
    cc, src = sys.argv[1], sys.argv[2]
    kernels = sorted(glob.glob(os.path.join(src, "opencl", "*.cl")))
    if not kernels:
        print("no kernels found under", src)
        return 1
    prelude = os.path.join(src, "opencl", "prelude.clh")
    failed = 0
    for kernel in kernels:
        for defines in ([], ["-DLS_EMULATE_DIV_SQRT=1"]):
            cmd = [cc, "-E", "-P", "-undef", "-nostdinc", "-x", "c", "-D__OPENCL_VERSION__=120",
                   "-D__OPENCL_C_VERSION__=120", "-DLS_WG=256", "-I", src, "-include", prelude,
                   *defines, kernel]
            run = subprocess.run(cmd, capture_output=True, text=True)
            # an #error (a configuration the kernel refuses) still leaves the text to check
            hits = [line.strip() for line in run.stdout.splitlines()
                    if re.search(r"\bdouble\b", line)]
            label = f"{os.path.basename(kernel)} {' '.join(defines) or '(default)'}"
            if not run.stdout.strip():
                print(f"FAIL {label}: preprocessor produced nothing: {run.stderr.strip()}")
                failed = 1
            elif hits:
                print(f"FAIL {label}: `double` in the OpenCL path:")
                for h in hits[:10]:
                    print("   ", h)
                failed = 1
            else:
                print(f"ok   {label}: {len(run.stdout.splitlines())} lines, no double")
    return failed


if __name__ == "__main__":
    sys.exit(main())
