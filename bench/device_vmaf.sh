#!/usr/bin/env bash
# VMAF on a GPU machine (an H200 here), in one call of the device tool:
#   check  build, the CUDA test, `--parity cuda` with the VMAF models on every fixture and on
#          generated 1080p/4K pairs at 8/10/12 bit in 4:2:0, 4:2:2, 4:4:4, compute-sanitizer
#   bench  VMAF v0.6.1 ms/frame, CPU (all cores) and CUDA, and where the CUDA time goes
#   all    both
#   faults tests/gpu_faults.py on CUDA (and OpenCL when built): the Nth allocation, copy, launch or
#          synchronisation failing (LOCKSTEP_FAULT_INJECT), a frame too large for the device
#   fuzz   the libFuzzer campaign (tests/libfuzzer/campaign.sh) on the host's cores, FUZZ_SECONDS
#          (300) per target, when clang is installed: CPU seconds and execs per target
#   soak   bench/soak.py: FRAMES (100000) frames at 576x324, VMAF + psnr_hvs from pipes, on each of
#          SOAK_BACKENDS ("cuda cpu"): RSS and descriptors over the run, scores against slices
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

args=(-DLOCKSTEP_CUDA=ON -DLS_SHARED_DIR="$PWD/.dev/shared"
      -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include" -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so")
[ -n "${ARCH:-}" ] && args+=(-DLOCKSTEP_CUDA_ARCH=$ARCH)
if [ -d .dev/include ]; then args+=(-DLOCKSTEP_OPENCL=ON -DOPENCL_INCLUDE_DIR="$PWD/.dev/include"); fi
cmake -S . -B $b -G Ninja "${args[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
ninja -C $b >"$out/build.log" 2>&1 || { grep -E "error|FAILED" -A3 "$out/build.log" | head -40; exit 1; }
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

if [ "$mode" = faults ]; then
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  for backend in cuda opencl; do
    [ $backend = opencl ] && ! $cli --list-extractors | grep -q " opencl$" && continue
    log="$out/gpu_faults_$backend.log"
    timeout 500 python3 tests/gpu_faults.py --cli $cli --fixtures $b/fixtures --work $b/gpu_faults \
      --backend $backend > "$log" 2>&1
    echo "gpu_faults $backend exit $?: $(tail -1 "$log")"
    grep -v "^ok" "$log" | head -20
    for cls in alloc copy launch sync; do
      echo "$cls: $(grep -c "^ok   $backend: $cls:[0-9]* fails cleanly" "$log") faults injected, e.g. $(grep -m1 "^ok   $backend: $cls:[0-9]* fails cleanly" "$log" | sed 's/.*exit 255, //')"
    done
    grep -E "refused|--threads 2: launch:[0-9]+ is past" "$log" | cut -c1-300
  done
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

if [ "$mode" = soak ]; then
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  for backend in ${SOAK_BACKENDS:-cuda cpu}; do
    python3 bench/soak.py --cli $cli --fixtures $b/fixtures --frames ${FRAMES:-100000} \
      --backend $backend --threads $jobs --work $b/soak-$backend 2>&1 | tee "$out/soak_$backend.txt"
  done
fi

# n frames made of 20 generated ones repeated (generating every frame would cost minutes here)
make_pair() {
  local w=$1 h=$2 bits=$3 n=$4 r=$5 d=$6
  $b/tools/lockstep-gen -w $w -h $h -p 420 -b $bits -n 20 $gen/g_ref.y4m $gen/g_dis.y4m
  for pair in "g_ref.y4m $r" "g_dis.y4m $d"; do
    set -- $pair
    local hdr=$(head -1 $gen/$1 | wc -c)
    { cat $gen/$1; for i in $(seq 2 $((n / 20))); do tail -c +$((hdr + 1)) $gen/$1; done; } > $2
  done
  rm -f $gen/g_ref.y4m $gen/g_dis.y4m
}

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
