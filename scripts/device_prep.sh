#!/usr/bin/env bash
# Fills .dev/ (git-ignored) with what a device run carries and the device machine lacks: the
# fixtures (as .dev/shared/fixtures), cJSON's headers and library, and the OpenCL headers.
# usage: scripts/device_prep.sh [SHARED_DIR]   then name .dev in the device tool's carry
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared}
mkdir -p .dev/shared .dev/cjson/include .dev/cjson/lib .dev/include
rm -rf .dev/shared/fixtures && cp -r "$shared/fixtures" .dev/shared/fixtures
cp -r /usr/include/cjson .dev/cjson/include/
cp -L /usr/lib/x86_64-linux-gnu/libcjson.so.1 .dev/cjson/lib/
cp .dev/cjson/lib/libcjson.so.1 .dev/cjson/lib/libcjson.so # a copy: links may not travel
rm -rf .dev/include/CL && cp -r /usr/include/CL .dev/include/CL
du -sh .dev
