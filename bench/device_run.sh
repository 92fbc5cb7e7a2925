#!/usr/bin/env bash
# What lockstep runs on a GPU machine (an H200 here): build with every backend, the whole test
# suite, CPU-vs-GPU parity on every fixture and on generated 1080p/4K pairs, and the bench table.
# usage: bench/device_run.sh test|bench OUTDIR   (shared/ data in $LS_SHARED_DIR, default .dev/shared)
set -uo pipefail
cd "$(dirname "$0")/.."
mode=$1
out=${2:-/tmp/lockstep-device}
mkdir -p "$out"
shared=${LS_SHARED_DIR:-$PWD/.dev/shared}
b=build-device
gen=$b/gen
jobs=$(nproc)
export PATH=/usr/local/cuda/bin:$PATH

# NVIDIA's OpenCL driver is installed without an ICD entry on these machines
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export LOCKSTEP_OPENCL_DEVICE=${LOCKSTEP_OPENCL_DEVICE:-NVIDIA}

nvidia-smi -L | tee "$out/device.txt"
incl=()
[ -d .dev/include ] && incl=(-DOPENCL_INCLUDE_DIR="$PWD/.dev/include")
cmake -S . -B $b -G Ninja -DLOCKSTEP_CUDA=ON -DLOCKSTEP_OPENCL=ON -DLS_SHARED_DIR="$shared" "${incl[@]}" >"$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
ninja -C $b >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
# register use and spills of every kernel, as ptxas reports them for sm_90
for cu in src/cuda/*.cu; do
  nvcc -cubin -arch=sm_90 --fmad=false --prec-div=true --prec-sqrt=true -ftz=false -Xptxas -v \
    -Isrc -Iinclude "$cu" -o /tmp/ptxas.cubin 2>&1 | grep -E "Compiling entry|spill|registers" | sed 's/^ptxas info *: //'
done > "$out/ptxas.txt" 2>&1
echo "ptxas: $(grep -c 'Compiling entry' "$out/ptxas.txt") kernels, $(grep -c ' 0 bytes spill stores, 0 bytes spill loads' "$out/ptxas.txt") with 0 spill stores/loads"

if [ "$mode" = test ]; then
  ctest --test-dir $b -j"$jobs" --output-on-failure >"$out/ctest.log" 2>&1
  grep -E "tests passed|Failed|\*\*\*|SKIP" "$out/ctest.log"
  for t in cuda opencl; do ctest --test-dir $b -R "^$t\$" -V 2>&1 | grep -E "passed|failed|PASS|FAIL|device|platform" | tail -8; done

  # parity through the CLI: every fixture, then generated pairs
  cli=$b/tools/lockstep
  fx=$b/fixtures
  {
    for f in $(ls $fx/*_ref.y4m | sort); do
      id=$(basename "$f" _ref.y4m)
      for backend in cuda opencl; do
        for feats in "psnr=enable_mse=true:enable_apsnr=true psnr_hvs" "psnr=min_sse=0.5:reduced_hbd_peak=true psnr_hvs=enable_chroma=false"; do
          args=(); for x in $feats; do args+=(--feature "$x"); done
          r=$($cli -r "$f" -d $fx/${id}_dis.y4m "${args[@]}" --parity $backend -n -q --threads $jobs 2>&1 | tail -1)
          echo "$id $backend [$feats]: $r"
        done
      done
    done
    mkdir -p $gen
    for size in 1920x1080 3840x2160; do for fmt in 420 422 444; do for bits in 8 10 12; do
      w=${size%x*}; h=${size#*x}
      $b/tools/lockstep-gen -w $w -h $h -p $fmt -b $bits -n 4 $gen/p_${size}_${fmt}_${bits}_ref.y4m $gen/p_${size}_${fmt}_${bits}_dis.y4m
      for backend in cuda opencl; do
        r=$($cli -r $gen/p_${size}_${fmt}_${bits}_ref.y4m -d $gen/p_${size}_${fmt}_${bits}_dis.y4m --feature psnr=enable_apsnr=true --feature psnr_hvs --parity $backend -n -q --threads $jobs 2>&1 | tail -1)
        echo "gen ${size} ${fmt} ${bits}-bit $backend: $r"
      done
      rm -f $gen/p_${size}_${fmt}_${bits}_*.y4m
    done; done; done
  } 2>&1 | tee "$out/parity.log" | grep -c "parity bit-identical" | sed 's/^/bit-identical parity runs: /'
  grep -v "parity bit-identical" "$out/parity.log" | head -20
  $cli -r $fx/p01_ref.y4m -d $fx/p01_dis.y4m --feature psnr=enable_apsnr=true --feature psnr_hvs --parity cuda -n -q > "$out/parity_p01_cuda.txt"
  cat "$out/parity_p01_cuda.txt"
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool $cli -r $fx/p02_ref.y4m -d $fx/p02_dis.y4m --feature psnr --feature psnr_hvs --backend cuda -n -q --frame_cnt 3 -o /dev/null 2>&1 | tail -2 | tee -a "$out/sanitizer.txt"
    done
  fi
fi

if [ "$mode" = bench ]; then
  cli=$b/tools/lockstep
  [ -n "${SKIP_CHECKS:-}" ] || ctest --test-dir $b -R "fixtures|^psnr_hvs$|^motion$|^ssim$|^cuda$|cuda_ordered" --output-on-failure 2>&1 | tail -4
  [ -n "${SKIP_CHECKS:-}" ] || for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool $cli -r $b/fixtures/p02_ref.y4m -d $b/fixtures/p02_dis.y4m --feature psnr --feature psnr_hvs --backend cuda -n -q --frame_cnt 3 -o /dev/null 2>&1 | tail -1 | tee -a "$out/sanitizer.txt"
  done
  mkdir -p $gen
  # many frames: start-up (GPU context, pinning the picture pool) varies by a few 100 ms
  python3 bench/bench.py --cli $cli --gen-tool $b/tools/lockstep-gen --work $gen \
    --gen 1920x1080:420:8:240 \
    --gen 1920x1080:420:10:240 --gen 3840x2160:420:8:240 --gen 3840x2160:420:10:240 \
    --feature psnr --feature psnr_hvs --backend cpu cuda opencl \
    --threads $jobs --runs 3 | tee "$out/bench.md"
  echo "--- where the time goes (psnr_hvs, CUDA, 3840x2160 8-bit, 240 frames)"
  LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/gen_3840x2160_420_8_240_ref.y4m -d $gen/gen_3840x2160_420_8_240_dis.y4m \
    --feature psnr_hvs --backend cuda -n -q -o /dev/null 2>&1 | tee "$out/profile.txt"
  for t in 2 240; do
    /usr/bin/time -f "psnr twin, reading + upload bound ($t frames): %e s" $cli -r $gen/gen_3840x2160_420_8_240_ref.y4m -d $gen/gen_3840x2160_420_8_240_dis.y4m \
      --feature psnr --backend cuda -n -q --frame_cnt $t -o /dev/null
  done 2>&1 | tee -a "$out/profile.txt"
fi
