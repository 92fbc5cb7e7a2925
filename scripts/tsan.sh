#!/usr/bin/env bash
# ThreadSanitizer: the library and the CLI built with -fsanitize=thread, running what exercises
# threads on the CPU, on small inputs (TSan runs 5-15 times slower): the CLI's thread checks
# (--threads 0, 1, 2, 3, 5 against each other, every CPU extractor with worker threads, frames read
# ahead by the reader threads, skips and --frame_cnt) and its report checks (signals while the
# threads run). GPU backends are left out (no device on CI machines).
# A race ends the run that meets it with TSan's report and exit code 66, which fails the check.
# usage: scripts/tsan.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-tsan}
shift || true
shared=${LS_SHARED_DIR:-$(cd .. && pwd)/shared}
cmake -S . -B "$dir" -G Ninja -DLS_SHARED_DIR="$shared" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DLOCKSTEP_TSAN=ON -DLOCKSTEP_CUDA=OFF -DLOCKSTEP_OPENCL=OFF "$@" >/dev/null
ninja -C "$dir" lockstep_cli
tests="fixtures_decompress|cli_threads"
# any report fails the test: TSan's exit code, at the first race
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" -R "^($tests)\$"
