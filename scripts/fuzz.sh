#!/usr/bin/env bash
# libFuzzer: builds the fuzz targets of tests/libfuzzer/ with clang (the library instrumented for
# coverage, ASan and UBSan) and runs each for SECONDS (default 15) from its seed corpus and kept
# crashing inputs: a crash, a leak, a sanitizer report or a 20 s input fails its test, and the
# input is left in BUILD_DIR/tests/fuzz/. Longer campaigns: tests/libfuzzer/campaign.sh.
# usage: scripts/fuzz.sh [BUILD_DIR] [SECONDS] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-fuzz}
seconds=${2:-15}
shift $(( $# < 2 ? $# : 2 ))
shared=${LS_SHARED_DIR:-$(cd .. && pwd)/shared}
cc=$(command -v clang || command -v clang-14)
# -O1 and line tables only: the instrumented SIMD units (vif's unrolled kernels above all) take
# minutes each at -O2 -g under clang, and libFuzzer finds as much at -O1
CC=$cc cmake -S . -B "$dir" -G Ninja -DLS_SHARED_DIR="$shared" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DLOCKSTEP_FUZZ=ON -DLOCKSTEP_FUZZ_SECONDS="$seconds" -DLOCKSTEP_CUDA=OFF -DLOCKSTEP_OPENCL=OFF \
      "$@" >/dev/null
ninja -C "$dir" fuzz
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" -R '^fuzz_'
