#!/usr/bin/env bash
# A short check on a GPU machine: build, the CUDA test, and CLI parity (CUDA against the CPU) on
# every fixture and on generated 4K pairs. usage: bench/device_check.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lockstep-device}; mkdir -p "$out"
shared=${LS_SHARED_DIR:-$PWD/.dev/shared}
b=build-device
export PATH=/usr/local/cuda/bin:$PATH
incl=(); [ -d .dev/include ] && incl=(-DOPENCL_INCLUDE_DIR="$PWD/.dev/include")
cmake -S . -B $b -G Ninja -DLOCKSTEP_CUDA=ON -DLOCKSTEP_OPENCL=ON -DLS_SHARED_DIR="$shared" "${incl[@]}" >"$out/cmake.log" 2>&1 &&
  ninja -C $b >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ctest --test-dir $b -R "fixtures|^cuda$|cuda_ordered" --output-on-failure 2>&1 | grep -E "tests passed|Failed|checks"
cli=$b/tools/lockstep; fx=$b/fixtures
for f in $(ls $fx/*_ref.y4m | sort); do
  id=$(basename "$f" _ref.y4m)
  hvs=psnr_hvs; case $id in p11b|p11d) hvs=psnr_hvs=enable_chroma=false;; esac
  [ $id = p11d ] && hvs=float_psnr
  echo "$id cuda: $($cli -r "$f" -d $fx/${id}_dis.y4m --feature psnr=enable_apsnr=true:enable_mse=true --feature $hvs --parity cuda -n -q --threads 8 2>&1 | tail -1)"
done | tee "$out/parity.log"
for bits in 8 10 12; do
  $b/tools/lockstep-gen -w 3840 -h 2160 -p 420 -b $bits -n 6 /tmp/r.y4m /tmp/d.y4m
  echo "gen 3840x2160 420 $bits-bit cuda: $($cli -r /tmp/r.y4m -d /tmp/d.y4m --feature psnr --feature psnr_hvs --parity cuda -n -q --threads 8 | tail -1)"
done | tee -a "$out/parity.log"
