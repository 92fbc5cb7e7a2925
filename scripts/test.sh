#!/usr/bin/env bash
# Builds lockstep in BUILD_DIR (default: build) and runs the whole test suite.
# usage: scripts/test.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
shared=${LS_SHARED_DIR:-$(cd .. && pwd)/shared}
cmake -S . -B "$dir" -G Ninja -DLS_SHARED_DIR="$shared" "$@" >/dev/null
ninja -C "$dir"
status=0
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" | tee "$dir/ctest-summary.log" || status=$?
# ctest lists skipped tests after its summary: end with one plain line for runners to read
summary=$(grep -E "tests passed, [0-9]+ tests? failed out of [0-9]+" "$dir/ctest-summary.log" | tail -1)
total=$(echo "$summary" | sed -E 's/.*out of ([0-9]+).*/\1/')
failed=$(echo "$summary" | sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/')
skipped=$(grep -cE "\(Skipped\)$" "$dir/ctest-summary.log" || true)
echo "$((total - failed - skipped)) passed, $failed failed, $skipped skipped"
exit $status
