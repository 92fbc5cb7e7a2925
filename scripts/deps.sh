#!/usr/bin/env bash
# Installs what lockstep builds and tests with, from Debian's packages (uses sudo when not root).
set -euo pipefail
# pkg-config and dpkg-dev: the install test and the FFmpeg test (apt-get source unpacks with dpkg-source)
# libavformat-dev libavcodec-dev libavutil-dev: container input (.mp4, .mkv, ...; optional for a build)
# ffmpeg: the container tests' encodes; chromium: the HTML report's browser test (tests only)
# python3-*: the Python package's tests (tests/python.cmake), pip for its offline install
# clang and libclang-rt-dev: the libFuzzer targets (scripts/fuzz.sh)
pkgs="build-essential cmake ninja-build python3 xz-utils libcjson-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd pkg-config dpkg-dev
      libavformat-dev libavcodec-dev libavutil-dev ffmpeg chromium
      python3-numpy python3-pytest python3-pandas python3-distributed python3-setuptools python3-pip
      clang libclang-rt-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
