# Helpers of the device scripts (bench/device_*.sh source this from the repository root). They
# read b (the build folder: its tools/lockstep-gen), cli, gen (a scratch folder), out, jobs, r
# and d; device_env sets all but r and d.

# device_env OUTDIR: what a device script starts from: out, b (BUILD, default build-device),
# jobs, cli, gen, the CUDA tools and .dev's cJSON on the paths, and cmake_args for a CUDA build
# against .dev (ARCH: LOCKSTEP_CUDA_ARCH)
device_env() {
  out=${1:-/tmp/lockstep-device}
  mkdir -p "$out"
  b=${BUILD:-build-device}
  jobs=$(nproc)
  cli=$b/tools/lockstep
  gen=$b/gen
  export PATH=/usr/local/cuda/bin:$PATH
  export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  cmake_args=(-G Ninja -DLOCKSTEP_CUDA=ON -DLS_SHARED_DIR="$PWD/.dev/shared"
              -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include"
              -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so")
  if [ -n "${ARCH:-}" ]; then cmake_args+=(-DLOCKSTEP_CUDA_ARCH=$ARCH); fi
}

# device_build SRC DIR LOG TARGETS...: configures SRC into DIR (cmake_args) and builds TARGETS;
# logs in $out/cmake-LOG.log and $out/build-LOG.log; the errors and a failure status if not
device_build() {
  local src=$1 dir=$2 log=$3
  shift 3
  cmake -S "$src" -B "$dir" "${cmake_args[@]}" >"$out/cmake-$log.log" 2>&1 ||
    { tail -30 "$out/cmake-$log.log"; return 1; }
  mkdir -p "$dir/gen"
  ninja -C "$dir" "$@" >"$out/build-$log.log" 2>&1 ||
    { grep -E "error|FAILED" -A3 "$out/build-$log.log" | head -40; return 1; }
}

# device_checks: checkasm (and the packers' bench), then test_cuda unless CUDA_TEST=0
device_checks() {
  $b/tests/checkasm > "$out/checkasm.txt" 2>&1; echo "checkasm exit $?: $(tail -1 "$out/checkasm.txt")"
  grep -E "pack10|FAIL" "$out/checkasm.txt" | head
  $b/tests/checkasm --bench 2>&1 | grep "pack10 " | tee -a "$out/checkasm.txt"
  if [ "${CUDA_TEST:-1}" = 1 ]; then
    ctest --test-dir $b -R fixtures_decompress >/dev/null 2>&1
    $b/tests/test_cuda > "$out/test_cuda.log" 2>&1; echo "test_cuda exit $?: $(tail -1 "$out/test_cuda.log")"
    grep -v "^ok" "$out/test_cuda.log" | head -20
  fi
}

# make_pair W H BITS N REF DIS: an N-frame 4:2:0 pair made of 20 generated frames repeated
# (generating every frame would cost minutes on the device)
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

# bench_one CLI BACKEND FRAMES REPS [FEATURE ARGS...]: the best of REPS whole-process seconds of
# CLI on the pair $r, $d (the first FRAMES frames, --threads $jobs)
bench_one() {
  python3 - "$1" "$r" "$d" "$2" "$jobs" "$3" "$4" "${@:5}" <<'PY'
import subprocess, sys, time
cli, r, d, backend, jobs, t, reps = sys.argv[1:8]
best = None
for _ in range(int(reps)):
    s = time.perf_counter()
    subprocess.run([cli, "-r", r, "-d", d, "--backend", backend, "--threads", jobs, "-q",
                    "--frame_cnt", t, "-o", "/dev/null"] + sys.argv[8:], check=True)
    e = time.perf_counter() - s
    best = e if best is None or e < best else best
print(f"{best:.4f}")
PY
}

# same_report A.json B.json: whether two JSON reports hold the same frames, values (at %.17g, as
# parsed) and pooled metrics
same_report() { python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fa, fb = a["frames"], b["frames"]
n = sum(len(x["metrics"]) for x in fa)
bad = [(x["frameNum"], k) for x, y in zip(fa, fb) for k in x["metrics"] if x["metrics"][k] != y["metrics"].get(k)]
ok = len(fa) == len(fb) and n > 0 and not bad and a.get("pooled_metrics") == b.get("pooled_metrics")
print(f"{'same' if ok else 'DIFFER'}: {len(fa)} frames, {n} values{'' if ok else ', differ: ' + str(bad[:5])}")
PY
}

# parity_10bit: `--parity cuda` on 10-bit pairs that pack (1080p, 4K; 4:2:0, 4:2:2, 4:4:4) and one
# that does not (1918x1080), with VMAF v0.6.1 and v1 (a parity run packs on the host: its
# pictures are the CPU's too); counts the bit-identical runs, lines in $out/parity.log
parity_10bit() {
{
  for size in 1920x1080 3840x2160 1918x1080; do for fmt in 420 422 444; do
    [ $size = 1918x1080 ] && [ $fmt != 420 ] && continue
    w=${size%x*}; h=${size#*x}
    $b/tools/lockstep-gen -w $w -h $h -p $fmt -b 10 -n 5 $gen/p_ref.y4m $gen/p_dis.y4m
    for m in vmaf_v0.6.1 vmaf_v1.0.16_3d0h vmaf_v1.0.16_1d5h_2160; do
      local res=$(LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m -m version=$m --parity cuda -q \
            --threads $jobs 2>&1 | grep -E "parity|packed to" | sed 's/.*(\([0-9]* uploaded straight[^)]*\)).*/[\1]/' | tr '\n' ' ')
      echo "gen $size $fmt 10-bit cuda [$m]: $res"
    done
  done; done
} 2>&1 | tee "$out/parity.log" | grep -c "parity bit-identical" | sed 's/^/bit-identical parity runs: /'
echo "parity lines:"; cat "$out/parity.log" | cut -c1-260
}

# packed_read_check: the reader's packed frames, --backend cuda against the CPU's report, the
# unpacked run's (LOCKSTEP_CUDA_PACK10=0) and the run whose readers write the pictures instead of
# sending the frames to the device (LOCKSTEP_CUDA_READER_UPLOAD=0), value for value; 40 frames
# (20 generated, twice), so that most are read once the twins' sink is offered; lines in
# $out/packed_read.log
packed_read_check() {
{
  for size in 1920x1080 3840x2160 1918x1080; do
    w=${size%x*}; h=${size#*x}
    make_pair $w $h 10 40 $gen/p_ref.y4m $gen/p_dis.y4m
    for m in vmaf_v0.6.1 vmaf_v1.0.16_1d5h_2160; do
      common=(-r $gen/p_ref.y4m -d $gen/p_dis.y4m -m version=$m --threads $jobs -q --json --precision max)
      t=$(LOCKSTEP_CUDA_TIMING=1 $cli "${common[@]}" --backend cuda -o $gen/cuda.json 2>&1 | grep "timing frames" | sed 's/.*(\([0-9]* uploaded straight[^)]*\)).*/\1/')
      LOCKSTEP_CUDA_PACK10=0 $cli "${common[@]}" --backend cuda -o $gen/cuda16.json
      LOCKSTEP_CUDA_READER_UPLOAD=0 $cli "${common[@]}" --backend cuda -o $gen/cuda_host.json
      $cli "${common[@]}" -o $gen/cpu.json
      echo "$size $m cuda ($t) vs cpu: $(same_report $gen/cuda.json $gen/cpu.json); vs PACK10=0: $(same_report $gen/cuda.json $gen/cuda16.json); vs READER_UPLOAD=0: $(same_report $gen/cuda.json $gen/cuda_host.json)"
    done
  done
} 2>&1 | tee "$out/packed_read.log"
}
