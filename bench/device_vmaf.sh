#!/usr/bin/env bash
# VMAF on a GPU machine (an H200 here), in one call of the device tool:
#   check  build, the CUDA test, `--parity cuda` with the VMAF models on every fixture and on
#          generated 1080p/4K pairs at 8/10/12 bit in 4:2:0, 4:2:2, 4:4:4, compute-sanitizer
#   bench  VMAF v0.6.1 ms/frame, CPU (all cores) and CUDA, and where the CUDA time goes
#   all    both
#   v1     VMAF v1 (the eight vmaf_v1.0.16 models, every feature on the GPU): test_cuda, `--parity
#          cuda` with every v1 model on every fixture and on generated 1920x1080 and 3840x2160
#          4:2:0 pairs at 8 and 10 bits, then (V1_BENCH=1, the default) ms/frame of _3d0h at 1080p
#          and _1d5h_2160 at 4K, 10-bit, CUDA against the CPU on all cores; V1_PARITY=0 skips to
#          the bench
#   opencl the OpenCL twins through NVIDIA's OpenCL driver: build, test_cuda and `--parity cuda`
#          (the twins share their per-pixel headers with OpenCL), the soft binary64 and fp32
#          emulation tests on the device, `--parity opencl` with the integer VMAF models and the
#          psnr twins on every fixture and on generated 1080p/4K pairs (8/10/12 bit, 4:2:0, 4:2:2,
#          4:4:4), then psnr_hvs and VMAF v0.6.1 at 3840x2160 8-bit: OpenCL, CUDA, CPU
#   oclspeed the OpenCL speed work in one short call (build only lockstep and lockstep-gen):
#          `--parity opencl` on every fixture (vmaf_v0.6.1, psnr_hvs, ssim, float_ssim; 3 frames)
#          and on generated 3840x2160 pairs, then at 3840x2160 8-bit VMAF v0.6.1 and psnr_hvs on
#          OpenCL, CUDA and the CPU, ssim and float_ssim on OpenCL, CUDA and the CPU, each
#          (t(N) - t(2)) / (N - 2) best of 2, and the OpenCL timing breakdowns
#   oclfloat the float twins through NVIDIA's OpenCL driver, quickly (use with CUDA=OFF and
#          NINJA_TARGETS="lockstep_cli lockstep_gen test_soft_f64"): test_soft_f64 on the device,
#          then `--parity opencl` with vmaf_float_v0.6.1, float_vif and float_adm (debug, and with
#          options) on every fixture and on generated 1080p/4K pairs (8/10/12 bit, 4:2:0, 4:2:2,
#          4:4:4)
#   faults tests/gpu_faults.py on CUDA (and OpenCL when built): the Nth allocation, copy, launch or
#          synchronisation failing (LOCKSTEP_FAULT_INJECT), a frame too large for the device
#   fuzz   the libFuzzer campaign (tests/libfuzzer/campaign.sh) on the host's cores, FUZZ_SECONDS
#          (300) per target, when clang is installed: CPU seconds and execs per target
#   soak   bench/soak.py: FRAMES (100000) frames at 576x324, VMAF + psnr_hvs from pipes, on each of
#          SOAK_BACKENDS ("cuda cpu"): RSS and descriptors over the run, scores against slices
#          (SOAK_SLICES runs of SOAK_SLICE_FRAMES frames each, default all frames)
#   reliability  faults and soak at once (SOAK_PARALLEL=1 SOAK_THREADS="cuda:4 cpu:8" share the
#          cores)
# usage: bench/device_vmaf.sh MODE OUTDIR   (fixtures in .dev/shared, cJSON in .dev/cjson)
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
out=${2:-/tmp/lockstep-device}
mkdir -p "$out"
b=${BUILD:-build-device}
jobs=$(nproc)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L | tee "$out/device.txt"
# NVIDIA's OpenCL driver is installed without an ICD entry on these machines
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export LOCKSTEP_OPENCL_DEVICE=${LOCKSTEP_OPENCL_DEVICE:-NVIDIA}

args=(-DLOCKSTEP_CUDA=${CUDA:-ON} -DLS_SHARED_DIR="$PWD/.dev/shared"
      -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include" -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so")
[ -n "${ARCH:-}" ] && args+=(-DLOCKSTEP_CUDA_ARCH=$ARCH)
if [ -d .dev/include ]; then args+=(-DLOCKSTEP_OPENCL=ON -DOPENCL_INCLUDE_DIR="$PWD/.dev/include"); fi
cmake -S . -B $b -G Ninja "${args[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
ninja -C $b ${NINJA_TARGETS:-} >"$out/build.log" 2>&1 || { grep -E "error|FAILED" -A3 "$out/build.log" | head -40; exit 1; }
cli=$b/tools/lockstep
gen=$b/gen
mkdir -p $gen

if [ "$mode" = cudatest ]; then
  $b/tests/test_cuda > "$out/test_cuda.log" 2>&1; echo "test_cuda exit $?: $(tail -1 "$out/test_cuda.log")"
  grep -v "^ok" "$out/test_cuda.log" | head -30
fi

if [ "$mode" = check ] || [ "$mode" = all ]; then
  for cu in src/cuda/*.cu; do
    nvcc -cubin -arch=sm_90 --fmad=false --prec-div=true --prec-sqrt=true -ftz=false -Xptxas -v \
      -Isrc -Iinclude "$cu" -o /tmp/ptxas.cubin 2>&1 | grep -E "Compiling entry|spill|registers" | sed 's/^ptxas info *: //'
  done > "$out/ptxas.txt" 2>&1
  echo "ptxas: $(grep -c 'Compiling entry' "$out/ptxas.txt") kernels, $(grep -c ' 0 bytes spill stores, 0 bytes spill loads' "$out/ptxas.txt") with 0 spill stores/loads"
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  $b/tests/test_cuda > "$out/test_cuda.log" 2>&1; echo "test_cuda exit $?: $(tail -1 "$out/test_cuda.log")"
  grep -v "^ok" "$out/test_cuda.log" | head -30
  fx=$b/fixtures
  {
    for f in $(ls $fx/*_ref.y4m | sort); do
      id=$(basename "$f" _ref.y4m)
      for m in "version=vmaf_v0.6.1" "version=vmaf_v0.6.1neg" "version=vmaf_b_v0.6.3" "version=vmaf_float_v0.6.1"; do
        r=$($cli -r "$f" -d $fx/${id}_dis.y4m -m $m --parity cuda -q --threads $jobs 2>&1 | tail -1)
        echo "$id cuda [$m]: $r"
      done
      r=$($cli -r "$f" -d $fx/${id}_dis.y4m -n --feature psnr=enable_apsnr=true --feature psnr_hvs \
            --feature float_motion --feature motion=motion_five_frame_window=true --feature float_ssim \
            --feature ssim=enable_db=true --parity cuda -q --threads $jobs 2>&1 | tail -1)
      echo "$id cuda [psnr psnr_hvs float_motion motion float_ssim ssim]: $r"
    done
    for size in 1920x1080 3840x2160; do for fmt in 420 422 444; do for bits in 8 10 12; do
      w=${size%x*}; h=${size#*x}
      $b/tools/lockstep-gen -w $w -h $h -p $fmt -b $bits -n 5 $gen/p_ref.y4m $gen/p_dis.y4m
      r=$($cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m --feature psnr --parity cuda -q --threads $jobs 2>&1 | tail -1)
      echo "gen ${size} ${fmt} ${bits}-bit cuda [vmaf_v0.6.1 psnr]: $r"
    done; done; done
  } 2>&1 | tee "$out/parity.log" | grep -c "parity bit-identical" | sed 's/^/bit-identical parity runs: /'
  echo "runs not bit-identical:"; grep -v "parity bit-identical" "$out/parity.log" | head -20
  $cli -r $fx/p01_ref.y4m -d $fx/p01_dis.y4m --parity cuda -q > "$out/parity_p01_vmaf.txt" 2>&1
  cat "$out/parity_p01_vmaf.txt"
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool $cli -r $fx/p02_ref.y4m -d $fx/p02_dis.y4m --feature psnr --feature psnr_hvs \
        --feature float_motion --backend cuda -q --frame_cnt 3 -o /dev/null 2>&1 | tail -1 | sed "s/^/$tool: /" | tee -a "$out/sanitizer.txt"
    done
  fi
fi

faults_one() {
  local backend=$1 log="$out/gpu_faults_$1.log"
  timeout 500 python3 tests/gpu_faults.py --cli $cli --fixtures $b/fixtures --work $b/gpu_faults_$backend \
    --backend $backend --jobs ${FAULT_JOBS:-5} > "$log" 2>&1
  echo "gpu_faults $backend exit $?: $(tail -1 "$log")"
  grep -v "^ok" "$log" | head -20
  for cls in alloc copy launch sync; do
    echo "$cls: $(grep -c "^ok   $backend: $cls:[0-9]* fails cleanly" "$log") faults injected, e.g. $(grep -m1 "^ok   $backend: $cls:[0-9]* fails cleanly" "$log" | sed 's/.*exit 255, //')"
  done
  grep -E "refused|--threads 2: launch:[0-9]+ is past" "$log" | cut -c1-300
}
# the backends' sweeps at once (each sweep its own process and folder); the summaries in order
faults() {
  local backends=cuda
  $cli --list-extractors | grep -q " opencl$" && backends="cuda opencl"
  for backend in $backends; do faults_one $backend > "$out/faults_$backend.txt" 2>&1 & done
  wait
  for backend in $backends; do cat "$out/faults_$backend.txt"; rm -f "$out/faults_$backend.txt"; done
}
# SOAK_THREADS: "cuda:4 cpu:8" gives each backend its threads (default: all cores each, in turn);
# SOAK_PARALLEL=1 runs the backends at once
soak() {
  local pids=""
  for backend in ${SOAK_BACKENDS:-cuda cpu}; do
    local t=$jobs
    for bt in ${SOAK_THREADS:-}; do [ "${bt%%:*}" = $backend ] && t=${bt#*:}; done
    python3 bench/soak.py --cli $cli --fixtures $b/fixtures --frames ${FRAMES:-100000} \
      --slices ${SOAK_SLICES:-10} --slice-frames ${SOAK_SLICE_FRAMES:-0} --backend $backend --threads $t \
      --work $b/soak-$backend > "$out/soak_$backend.txt" 2>&1 &
    pids="$pids $!"
    [ "${SOAK_PARALLEL:-0}" = 1 ] || wait $!
  done
  wait $pids
  for backend in ${SOAK_BACKENDS:-cuda cpu}; do cat "$out/soak_$backend.txt"; done
}

if [ "$mode" = faults ] || [ "$mode" = soak ] || [ "$mode" = reliability ]; then
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
fi
[ "$mode" = faults ] && faults
[ "$mode" = soak ] && soak
# both at once: the fault sweeps and the soaks share the machine (SOAK_THREADS divides the cores)
if [ "$mode" = reliability ]; then
  faults > $b/faults.txt 2>&1 &
  soak > $b/soak.txt 2>&1
  wait
  cat $b/faults.txt $b/soak.txt
fi

if [ "$mode" = fuzz ]; then
  cc=$(command -v clang || command -v clang-14 || true)
  if [ -z "$cc" ]; then
    echo "fuzz: no clang on this machine"
  else
    CC=$cc cmake -S . -B build-fuzz -G Ninja -DLOCKSTEP_FUZZ=ON -DLOCKSTEP_CUDA=OFF -DLOCKSTEP_OPENCL=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLS_SHARED_DIR="$PWD/.dev/shared" \
      -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include" -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so" \
      >"$out/fuzz_cmake.log" 2>&1 && ninja -C build-fuzz fuzz >"$out/fuzz_build.log" 2>&1 &&
    FUZZ_WORKERS=$(( jobs > 6 ? jobs / 6 : 1 )) tests/libfuzzer/campaign.sh build-fuzz ${FUZZ_SECONDS:-300} 6 \
      /tmp/lockstep-fuzz >/dev/null 2>&1
    cp /tmp/lockstep-fuzz/summary.txt "$out/fuzz_summary.txt" 2>/dev/null
    cat "$out/fuzz_summary.txt" 2>/dev/null || tail -20 "$out/fuzz_build.log"
    ls /tmp/lockstep-fuzz | grep -E -- "-(crash|leak|timeout|oom)-" | head
  fi
fi

. bench/device_common.sh # make_pair, bench_one

v1_models="vmaf_v1.0.16_3d0h vmaf_v1.0.16_5d0h vmaf_v1.0.16_1d5h_2160 vmaf_v1.0.16_3d0h_2160
  vmaf_v1.0.16_hfr_3d0h vmaf_v1.0.16_hfr_5d0h vmaf_v1.0.16_hfr_1d5h_2160 vmaf_v1.0.16_hfr_3d0h_2160"
# one parity run: "<label>: <summary line>", and "<label>: CPU FALLBACK ..." where a twin gave up
v1_parity() {
  local label=$1 r=$2 d=$3 m=$4 log
  local what=(-m version=$m)
  case $m in feature=*) what=(--feature "${m#feature=}") ;; esac
  log=$($cli -r "$r" -d "$d" "${what[@]}" --parity cuda -q --threads 2 2>&1)
  echo "$label [$m]: $(echo "$log" | tail -1)"
  echo "$log" | grep -i "runs on the CPU" | head -2 | sed "s|^|$label [$m]: CPU FALLBACK |"
}
export -f v1_parity
export cli

if [ "$mode" = v1 ] && [ "${V1_PARITY:-1}" = 1 ]; then
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  t0=$SECONDS
  # V1_TEST=quick: test_cuda's short subset (still every new twin and the v1 feature set)
  # (V1_TEST=none: not run)
  if [ "${V1_TEST:-}" != none ]; then
  $b/tests/test_cuda ${V1_TEST:+--$V1_TEST} > "$out/test_cuda.log" 2>&1; echo "test_cuda ${V1_TEST:-full} exit $? ($((SECONDS - t0)) s): $(tail -1 "$out/test_cuda.log")"
  grep -aE "^FAIL|^  " "$out/test_cuda.log" | cut -c1-300 | head -15
  grep -aE "speed|cambi" "$out/test_cuda.log" | grep -c "^ok" | sed 's/^/test_cuda speed\/cambi cases ok: /'
  fi
  fx=$b/fixtures
  t0=$SECONDS
  {
    for f in $(ls $fx/*_ref.y4m | sort); do
      id=$(basename "$f" _ref.y4m)
      for m in $v1_models; do echo "$id $f $fx/${id}_dis.y4m $m"; done
    done
    for size in 1920x1080 3840x2160; do for bits in 8 10; do
      w=${size%x*}; h=${size#*x}
      $b/tools/lockstep-gen -w $w -h $h -p 420 -b $bits -n 4 $gen/v_${size}_${bits}_ref.y4m $gen/v_${size}_${bits}_dis.y4m
      for m in $v1_models; do echo "gen_${size}_${bits}bit $gen/v_${size}_${bits}_ref.y4m $gen/v_${size}_${bits}_dis.y4m $m"; done
      # speed_temporal (no v1 model has it), plain and prescaled
      for m in feature=speed_temporal feature=speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_use_ref_diff=true; do
        echo "gen_${size}_${bits}bit $gen/v_${size}_${bits}_ref.y4m $gen/v_${size}_${bits}_dis.y4m $m"
      done
    done; done
    for id in p01 p04; do echo "$id $fx/${id}_ref.y4m $fx/${id}_dis.y4m feature=speed_temporal"; done
    # other speed_chroma options on 12-bit, 4:2:2 and 4:4:4 fixtures
    for id in p03 p04 p05; do
      for o in speed_kernelscale=2:speed_weight_var_mode=6 \
               speed_prescale=1.6:speed_prescale_method=bilinear:speed_kernelscale=0.5:speed_weight_var_mode=4; do
        echo "$id $fx/${id}_ref.y4m $fx/${id}_dis.y4m feature=speed_chroma=$o"
      done
    done
  } | xargs -P 8 -L 1 bash -c 'v1_parity "$@"' _ > "$out/v1_parity.log" 2>&1
  sort -o "$out/v1_parity.log" "$out/v1_parity.log"
  echo "v1 parity runs: $(grep -c "\]: " "$out/v1_parity.log"), bit-identical: $(grep -c "parity bit-identical" "$out/v1_parity.log") ($((SECONDS - t0)) s)"
  echo "values compared in the bit-identical runs: $(grep "parity bit-identical" "$out/v1_parity.log" | awk '{s+=$(NF-4)} END {print s}')"
  echo "not bit-identical or on the CPU:"; grep -v "parity bit-identical" "$out/v1_parity.log" | cut -c1-200 | head -20
  # every v1 feature on the GPU: the twins' own timing lines
  LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/v_1920x1080_10_ref.y4m -d $gen/v_1920x1080_10_dis.y4m -m version=vmaf_v1.0.16_3d0h \
    --backend cuda -q -o /dev/null 2>&1 | grep "timing" | sed 's/, per frame.*//' | tee "$out/v1_twins.txt"
  rm -f $gen/v_*.y4m
fi

if [ "$mode" = v1 ] && [ "${V1_BENCH:-1}" = 1 ]; then
  # V1_BACKENDS="cuda cpu" (default), V1_REPS=3 runs each (best kept), V1_FRAMES="400 200" (1080p, 4K)
  read -r n1080 n2160 <<< "${V1_FRAMES:-400 200}"
  for spec in 1920x1080:10:$n1080:vmaf_v1.0.16_3d0h 3840x2160:10:$n2160:vmaf_v1.0.16_1d5h_2160; do
    IFS=: read -r size bits n model <<< "$spec"; w=${size%x*}; h=${size#*x}
    r=$gen/b_ref.y4m; d=$gen/b_dis.y4m
    make_pair $w $h $bits $n $r $d
    for backend in ${V1_BACKENDS:-cuda cpu}; do
      m=$n; [ $backend = cpu ] && m=$((n / 4))
      for t in 2 $m; do
        best=$(python3 - "$cli" "$r" "$d" "$backend" "$jobs" "$t" "$model" "${V1_REPS:-3}" <<'PY'
import subprocess, sys, time
cli, r, d, backend, jobs, t, model, reps = sys.argv[1:]
best = None
for _ in range(int(reps)):
    s = time.perf_counter()
    subprocess.run([cli, "-r", r, "-d", d, "-m", "version=" + model, "--backend", backend,
                    "--threads", jobs, "-q", "--frame_cnt", t, "-o", "/dev/null"], check=True)
    e = time.perf_counter() - s
    best = e if best is None or e < best else best
print(f"{best:.4f}")
PY
)
        echo "$size $bits-bit $model $backend $t $best"
      done
    done
    LOCKSTEP_CUDA_TIMING=1 $cli -r $r -d $d -m version=$model --backend cuda --threads $jobs -q -o /dev/null 2>&1 \
      | grep timing | sed "s/^/$size: /" >> "$out/v1_profile.txt"
    rm -f $r $d
  done | tee "$out/v1_bench_raw.txt" | awk '{k=$1" "$2" "$3" "$4; if ($5==2) {t2[k]=$6} else {printf "%s: %.3f ms/frame (%d frames, whole process %.2f s)\n", k, ($6-t2[k])*1000/($5-2), $5, $6}}' | tee "$out/v1_bench.txt"
  cat "$out/v1_profile.txt"
fi

if [ "$mode" = bench ] || [ "$mode" = all ] || [ "$mode" = cudatest ]; then
  for spec in 3840x2160:8:400 3840x2160:10:200 1920x1080:8:800 1920x1080:10:400; do
    IFS=: read -r size bits n <<< "$spec"; w=${size%x*}; h=${size#*x}
    r=$gen/b_ref.y4m; d=$gen/b_dis.y4m
    make_pair $w $h $bits $n $r $d
    for backend in cuda cpu; do
      m=$n; [ $backend = cpu ] && m=$((n / 2))
      for t in 2 $m; do
        # best of 3 wall times of the whole process
        best=$(python3 - "$cli" "$r" "$d" "$backend" "$jobs" "$t" <<'PY'
import subprocess, sys, time
cli, r, d, backend, jobs, t = sys.argv[1:]
best = None
for _ in range(3):
    s = time.perf_counter()
    subprocess.run([cli, "-r", r, "-d", d, "--backend", backend, "--threads", jobs, "-q",
                    "--frame_cnt", t, "-o", "/dev/null"], check=True)
    e = time.perf_counter() - s
    best = e if best is None or e < best else best
print(f"{best:.4f}")
PY
)
        echo "$size $bits-bit $backend $t $best"
      done
    done
    if [ "$size" = 3840x2160 ] && [ $bits = 8 ]; then
      LOCKSTEP_CUDA_TIMING=1 $cli -r $r -d $d --backend cuda --threads $jobs -q -o /dev/null 2> "$out/profile.txt"
      for f in vif adm motion; do  # each twin alone: no other twin's kernels inflate its times
        echo "--- $f alone" >> "$out/profile.txt"
        LOCKSTEP_CUDA_TIMING=1 $cli -r $r -d $d -n --feature $f --backend cuda --threads $jobs -q -o /dev/null 2>> "$out/profile.txt"
      done
    fi
    rm -f $r $d
  done | tee "$out/bench_raw.txt" | awk '{k=$1" "$2" "$3; if ($4==2) {t2[k]=$5} else {printf "%s: %.3f ms/frame (%d frames, whole process %.2f s, best of 3)\n", k, ($5-t2[k])*1000/($4-2), $4, $5}}' | tee "$out/bench.txt"
  cat "$out/profile.txt"
fi

# OpenCL, most telling first (every step logs under OUTDIR, so a run cut short still reports):
# the emulation tests on the device, --parity opencl on every fixture, the 4K bench against CUDA
# and the CPU, --parity cuda (the CUDA twins share vif.h/adm.h/motion_filter.h), test_cuda, and
# --parity opencl on generated pairs
if [ "$mode" = opencl ]; then
  rm -f "$out/cmake.log" "$out/build.log" "$out/device.txt" # built: room for the 8 files back
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  fx=$b/fixtures
  for t in "test_soft_f64 device" "test_opencl_fp32 device"; do
    $b/tests/$t >> "$out/selftest.log" 2>&1; echo "$t exit $?: $(tail -1 "$out/selftest.log")"
  done
  grep -E "^FAIL" "$out/selftest.log" | head -10
  python3 tests/opencl_parity.py $cli $fx 0 > "$out/parity_opencl.log" 2>&1
  echo "opencl_parity.py exit $?"; tail -12 "$out/parity_opencl.log"
  $cli -r $fx/p01_ref.y4m -d $fx/p01_dis.y4m --parity opencl -q 2>&1 | tail -3

  r=$gen/b_ref.y4m; d=$gen/b_dis.y4m
  n=${BENCH_FRAMES:-240}
  make_pair 3840 2160 8 $n $r $d
  for spec in "vmaf:" "psnr_hvs:-n --feature psnr_hvs"; do
    name=${spec%%:*}; feats=${spec#*:}
    for backend in opencl opencl-syncpack cuda cpu; do
      m=$n; [ $backend = cpu ] && m=$((n / 2))
      for t in 2 $m; do
        best=$(python3 - "$cli" "$r" "$d" "$backend" "$jobs" "$t" $feats <<'PY'
import os, subprocess, sys, time
cli, r, d, backend, jobs, t = sys.argv[1:7]
env = dict(os.environ)
if backend == "opencl-syncpack":  # the frame copy in the caller, for comparison
    backend, env["LOCKSTEP_OPENCL_PACK"] = "opencl", "sync"
best = None
for _ in range(2):
    s = time.perf_counter()
    subprocess.run([cli, "-r", r, "-d", d, "--backend", backend, "--threads", jobs, "-q",
                    "--frame_cnt", t, "-o", "/dev/null"] + sys.argv[7:], check=True, env=env)
    e = time.perf_counter() - s
    best = e if best is None or e < best else best
print(f"{best:.4f}")
PY
)
        echo "3840x2160 8-bit $name $backend $t $best"
      done
    done
  done | tee "$out/bench_raw.txt" | awk '{k=$1" "$2" "$3" "$4; if ($5==2) {t2[k]=$6} else {printf "%s: %.3f ms/frame (%d frames, whole process %.2f s, best of 2)\n", k, ($6-t2[k])*1000/($5-2), $5, $6}}' | tee "$out/bench.txt"
  LOCKSTEP_OPENCL_TIMING=1 $cli -r $r -d $d --backend opencl --threads $jobs -q -o /dev/null 2> "$out/profile.txt"
  LOCKSTEP_OPENCL_TIMING=1 $cli -r $r -d $d -n --feature psnr_hvs --backend opencl --threads $jobs -q -o /dev/null 2>> "$out/profile.txt"
  cat "$out/profile.txt"
  rm -f $r $d

  {
    for f in $(ls $fx/*_ref.y4m | sort); do
      id=$(basename "$f" _ref.y4m)
      for m in "version=vmaf_v0.6.1" "version=vmaf_v0.6.1neg"; do
        r=$($cli -r "$f" -d $fx/${id}_dis.y4m -m $m --parity cuda -q --threads $jobs 2>&1 | tail -1)
        echo "$id cuda [$m]: $r"
      done
    done
  } > "$out/parity_cuda.log" 2>&1
  echo "cuda parity: $(grep -c 'parity bit-identical' "$out/parity_cuda.log") of $(wc -l < "$out/parity_cuda.log") runs bit-identical (the rest: refusals, listed)"
  grep -v "parity bit-identical" "$out/parity_cuda.log" | cut -c1-150 | head -8
  $b/tests/test_cuda > "$out/test_cuda.log" 2>&1; echo "test_cuda exit $?: $(tail -1 "$out/test_cuda.log")"
  {
    for size in 1920x1080 3840x2160; do for fmt in 420 422 444; do for bits in 8 10 12; do
      w=${size%x*}; h=${size#*x}
      $b/tools/lockstep-gen -w $w -h $h -p $fmt -b $bits -n 3 $gen/p_ref.y4m $gen/p_dis.y4m
      r=$($cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m --feature psnr --feature psnr_hvs --feature float_motion=motion_add_scale1=true --parity opencl -q --threads $jobs 2>&1 | tail -1)
      echo "gen ${size} ${fmt} ${bits}-bit opencl [vmaf_v0.6.1 psnr psnr_hvs float_motion]: $r"
    done; done; done
  } > "$out/parity_gen.log" 2>&1
  echo "generated pairs: $(grep -c 'parity bit-identical' "$out/parity_gen.log") of 18 bit-identical"
  grep -v "parity bit-identical" "$out/parity_gen.log" | cut -c1-200 | head -5
fi

if [ "$mode" = oclspeed ]; then
  rm -f "$out/cmake.log" "$out/build.log" "$out/device.txt" # built: room for the 8 files back
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  fx=$b/fixtures
  t0=$SECONDS
  ocl_parity() {
    echo "$1 opencl [vmaf_v0.6.1 psnr_hvs ssim float_ssim]: $($cli -r $fx/$1_ref.y4m -d $fx/$1_dis.y4m \
      --feature psnr_hvs --feature ssim --feature float_ssim=enable_lcs=true --parity opencl -q \
      --threads 2 --frame_cnt 3 2>&1 | tail -1)"
  }
  export -f ocl_parity; export cli fx
  for f in $(ls $fx/*_ref.y4m | sort); do basename "$f" _ref.y4m; done \
    | xargs -P ${PARITY_JOBS:-8} -L 1 bash -c 'ocl_parity "$@"' _ | sort > "$out/parity.log"
  echo "fixture parity: $(grep -c 'parity bit-identical' "$out/parity.log") of $(wc -l < "$out/parity.log") bit-identical ($((SECONDS - t0)) s)"
  grep -v "parity bit-identical" "$out/parity.log" | cut -c1-200 | head -5
  r=$gen/b_ref.y4m; d=$gen/b_dis.y4m
  n=${BENCH_FRAMES:-160}
  size=${BENCH_SIZE:-3840x2160}
  make_pair ${size%x*} ${size#*x} 8 $n $r $d
  for spec in "vmaf:$n:" "psnr_hvs:$n:-n --feature psnr_hvs" "ssim:$((n / 2)):-n --feature ssim" \
              "float_ssim:$((n / 2)):-n --feature float_ssim"; do
    IFS=: read -r name m0 feats <<< "$spec"
    for backend in opencl cuda cpu; do
      m=$m0; [ $backend = cpu ] && m=$((m0 / 2))
      for t in 2 $m; do echo "$size 8-bit $name $backend $t $(bench_one $cli $backend $t 2 $feats)"; done
    done
  done | tee "$out/bench_raw.txt" | awk '{k=$1" "$2" "$3" "$4; if ($5==2) {t2[k]=$6} else {printf "%s: %.3f ms/frame (%d frames, whole process %.2f s, best of 2)\n", k, ($6-t2[k])*1000/($5-2), $5, $6}}' | tee "$out/bench.txt"
  for feats in "" "-n --feature psnr_hvs" "-n --feature ssim" "-n --feature float_ssim"; do
    LOCKSTEP_OPENCL_TIMING=1 $cli -r $r -d $d $feats --backend opencl --threads $jobs -q -o /dev/null --frame_cnt 80 2>&1 | grep timing
  done > "$out/profile.txt"
  cat "$out/profile.txt"
  rm -f $r $d
  t0=$SECONDS
  for spec in 420:8 422:10 444:12; do
    IFS=: read -r fmt bits <<< "$spec"
    $b/tools/lockstep-gen -w 3840 -h 2160 -p $fmt -b $bits -n 3 $gen/p_ref.y4m $gen/p_dis.y4m
    echo "gen 3840x2160 $fmt $bits-bit opencl [vmaf_v0.6.1 psnr_hvs ssim float_ssim]: $($cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m --feature psnr_hvs --feature ssim --feature float_ssim --parity opencl -q --threads $jobs 2>&1 | tail -1)"
  done | tee "$out/parity_gen.log"
  echo "generated 4K parity ($((SECONDS - t0)) s)"
fi

if [ "$mode" = oclfloat ]; then
  rm -f "$out/cmake.log" "$out/build.log"
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  fx=$b/fixtures
  $b/tests/test_soft_f64 device > "$out/selftest.log" 2>&1
  echo "test_soft_f64 device exit $?: $(tail -1 "$out/selftest.log")"
  feats=(-m version=vmaf_float_v0.6.1 --feature float_vif=debug=true --feature float_adm=debug=true
         --feature float_vif=vif_kernelscale=2:vif_enhn_gain_limit=1.3:vif_sigma_nsq=0.5
         --feature float_adm=adm_enhn_gain_limit=1.2:adm_csf_mode=1:adm_bypass_cm=1)
  s0=$(date +%s.%N)
  {
    for f in $(ls $fx/*_ref.y4m | sort); do
      id=$(basename "$f" _ref.y4m)
      r=$($cli -r "$f" -d $fx/${id}_dis.y4m "${feats[@]}" --parity opencl -q --threads $jobs 2>&1 | tail -1)
      echo "$id opencl [vmaf_float_v0.6.1 float_vif float_adm]: $r"
    done
    for spec in 1920x1080:420:8 1920x1080:422:10 1920x1080:444:12 3840x2160:420:10 3840x2160:422:12 3840x2160:444:8; do
      IFS=: read -r size fmt bits <<< "$spec"
      $b/tools/lockstep-gen -w ${size%x*} -h ${size#*x} -p $fmt -b $bits -n 3 $gen/p_ref.y4m $gen/p_dis.y4m
      r=$($cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m "${feats[@]}" --parity opencl -q --threads $jobs 2>&1 | tail -1)
      echo "gen ${size} ${fmt} ${bits}-bit opencl [vmaf_float_v0.6.1 float_vif float_adm]: $r"
    done
  } > "$out/parity_oclfloat.log" 2>&1
  echo "parity runs: $(grep -c 'parity bit-identical' "$out/parity_oclfloat.log") of $(wc -l < "$out/parity_oclfloat.log") bit-identical, $(grep -o '[0-9]* values compared, 0 differ' "$out/parity_oclfloat.log" | awk '{s+=$1} END {print s}') values, $(awk -v a=$s0 -v b=$(date +%s.%N) 'BEGIN { printf "%.1f", b - a }') s"
  grep -v "parity bit-identical" "$out/parity_oclfloat.log" | cut -c1-200 | head -8
fi
