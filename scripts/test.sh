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
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
