#!/usr/bin/env bash
# The vif twin's OpenCL speed in one short device call. Builds this tree (lockstep, lockstep-gen,
# test_soft_f64; CUDA for sm_90 only) and, when BASE names another source tree (the commit before,
# e.g. `git archive <commit> | tar -x -C .dev/base`), that tree's lockstep without CUDA, both at
# once. Then: test_soft_f64 on the device; `--parity opencl` of VMAF v0.6.1 (vif with debug
# outputs and with options) on every fixture and on generated 3840x2160 pairs; at 3840x2160 8-bit
# VMAF v0.6.1 on OpenCL (BASE and this tree) and CUDA, (t(N) - t(2)) / (N - 2) best of 3
# (N = BENCH_FRAMES, 400); the twins' timing lines of VMAF and of vif alone; ptxas's registers and
# spills of the vif kernels as NVIDIA's OpenCL compiler left them (the PTX of its binary cache).
# usage: [BASE=.dev/base] bench/device_oclvif.sh OUTDIR   (fixtures in .dev/shared, cJSON in .dev/cjson)
# A helper's device call sends the session's checkout, not the helper's worktree: copy the tree
# into an ignored folder of that checkout (build-*/), carry it with .dev, and run from there with
# BASE=.. (the checkout itself, for the figures before).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lockstep-device}
mkdir -p "$out"
jobs=$(nproc)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# NVIDIA's OpenCL driver is installed without an ICD entry on these machines
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export LOCKSTEP_OPENCL_DEVICE=${LOCKSTEP_OPENCL_DEVICE:-NVIDIA}
nvidia-smi -L
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DLS_SHARED_DIR="$PWD/.dev/shared"
        -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include" -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so"
        -DLOCKSTEP_OPENCL=ON -DOPENCL_INCLUDE_DIR="$PWD/.dev/include")
b=build-oclvif
base=${BASE:-}
t0=$SECONDS
if [ -n "$base" ]; then
  { cmake -S "$base" -B build-oclvif-base "${common[@]}" -DLOCKSTEP_CUDA=OFF &&
    ninja -C build-oclvif-base lockstep_cli; } > "$out/build_base.log" 2>&1 &
fi
{ cmake -S . -B $b "${common[@]}" -DLOCKSTEP_CUDA=ON -DLOCKSTEP_CUDA_ARCH=90 &&
  ninja -C $b lockstep_cli lockstep_gen test_soft_f64; } > "$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" -A3 "$out/build.log" | head -40; exit 1; }
wait
if [ -n "$base" ] && [ ! -x build-oclvif-base/tools/lockstep ]; then
  grep -E "error|FAILED" -A3 "$out/build_base.log" | head -20; base=""
fi
rm -f "$out/build.log" "$out/build_base.log"
echo "built ($((SECONDS - t0)) s)"
cli=$b/tools/lockstep
gen=$b/gen
mkdir -p $gen
ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
fx=$b/fixtures

$b/tests/test_soft_f64 device > "$out/selftest.log" 2>&1
echo "test_soft_f64 device exit $?: $(tail -1 "$out/selftest.log")"
grep -E "^FAIL" "$out/selftest.log" | head -10

t0=$SECONDS
ocl_parity() {
  echo "$1 opencl [vmaf_v0.6.1 vif debug, vif options]: $($cli -r $fx/$1_ref.y4m -d $fx/$1_dis.y4m \
    --feature vif=debug=true --feature vif=vif_skip_scale0=true:vif_enhn_gain_limit=1.2 \
    --parity opencl -q --threads 2 2>&1 | tail -1)"
}
export -f ocl_parity; export cli fx
for f in $(ls $fx/*_ref.y4m | sort); do basename "$f" _ref.y4m; done \
  | xargs -P 8 -L 1 bash -c 'ocl_parity "$@"' _ | sort > "$out/parity.log"
for spec in 420:8 422:10 444:12; do
  IFS=: read -r fmt bits <<< "$spec"
  $b/tools/lockstep-gen -w 3840 -h 2160 -p $fmt -b $bits -n 3 $gen/p_ref.y4m $gen/p_dis.y4m
  echo "gen 3840x2160 $fmt $bits-bit opencl [vmaf_v0.6.1 vif debug]: $($cli -r $gen/p_ref.y4m \
    -d $gen/p_dis.y4m --feature vif=debug=true --parity opencl -q --threads $jobs 2>&1 | tail -1)"
done >> "$out/parity.log"
rm -f $gen/p_*.y4m
echo "parity: $(grep -c 'parity bit-identical' "$out/parity.log") of $(wc -l < "$out/parity.log") runs bit-identical, $(grep -o '[0-9]* values compared, 0 differ' "$out/parity.log" | awk '{s+=$1} END {print s}') values ($((SECONDS - t0)) s)"
grep -v "parity bit-identical" "$out/parity.log" | cut -c1-200 | head -8

. bench/device_common.sh # make_pair, bench_one
r=$gen/b_ref.y4m; d=$gen/b_dis.y4m
n=${BENCH_FRAMES:-400}
make_pair 3840 2160 8 $n $r $d
# the OpenCL binary caches apart, so that each build's vif program can be found below
export XDG_CACHE_HOME=$PWD/$b/cache
runs="opencl:$cli:opencl cuda:$cli:cuda"
[ -n "$base" ] && runs="base-opencl:build-oclvif-base/tools/lockstep:opencl $runs"
for spec in "vmaf:"; do
  name=${spec%%:*}; feats=${spec#*:}
  for run in $runs; do
    IFS=: read -r label c backend <<< "$run"
    [ $label = base-opencl ] && export XDG_CACHE_HOME=$PWD/build-oclvif-base/cache
    for t in 2 $n; do echo "3840x2160 8-bit $name $label $t $(bench_one $c $backend $t 3 $feats)"; done
    export XDG_CACHE_HOME=$PWD/$b/cache
  done
done | tee "$out/bench_raw.txt" | awk '{k=$1" "$2" "$3" "$4; if ($5==2) {t2[k]=$6} else {printf "%s: %.3f ms/frame (%d frames, whole process %.2f s, best of 3)\n", k, ($6-t2[k])*1000/($5-2), $5, $6}}' | tee "$out/bench.txt"
{
  for run in $runs; do
    IFS=: read -r label c backend <<< "$run"
    [ $label = base-opencl ] && export XDG_CACHE_HOME=$PWD/build-oclvif-base/cache
    for feats in "" "-n --feature vif"; do
      LOCKSTEP_OPENCL_TIMING=1 LOCKSTEP_CUDA_TIMING=1 $c -r $r -d $d $feats --backend $backend \
        --threads $jobs -q -o /dev/null --frame_cnt 80 2>&1 | grep -i timing | sed "s/^/$label [${feats:-vmaf}]: /"
    done
    export XDG_CACHE_HOME=$PWD/$b/cache
  done
} > "$out/profile.txt"
cat "$out/profile.txt"
rm -f $r $d

# registers and spills of the vif kernels: NVIDIA's OpenCL binaries are PTX (after the cache's
# two header lines, and with a closing NUL that ptxas refuses)
for cache in build-oclvif-base/cache/lockstep $b/cache/lockstep; do
  [ -d $cache ] || continue
  for f in $cache/*; do
    grep -q "ls_vif_stats_8" "$f" 2>/dev/null || continue
    tail -n +3 "$f" | tr -d '\000' > /tmp/vif.ptx
    [ $cache = $b/cache/lockstep ] && cp /tmp/vif.ptx "$out/vif_opencl.ptx"
    echo "--- $cache"
    ptxas -arch=sm_90 -v /tmp/vif.ptx -o /tmp/vif.cubin > /tmp/ptxas.log 2>&1 || head -2 /tmp/ptxas.log
    grep -E "Compiling entry|registers|spill" /tmp/ptxas.log | sed 's/^ptxas info *: //' | paste - - - \
      | grep -E "vif_(stats|decimate)" | cut -c1-240
  done
done 2>&1 | tee "$out/ptxas.txt"
