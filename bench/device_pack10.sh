#!/usr/bin/env bash
# 10-bit frames sent packed to the GPU (core/pack10.h), in one call of the device tool: checkasm
# (the packers, the frame packer's helper threads), test_cuda, `--parity cuda` on 10-bit pairs
# that pack (1080p, 4K; 4:2:0, 4:2:2, 4:4:4) and one that does not (1918x1080), with VMAF v0.6.1
# and v1 (a parity run packs on the host: its pictures are the CPU's too); the same pairs on
# `--backend cuda`, where the reader packs, against the CPU's report and the unpacked run's
# (LOCKSTEP_CUDA_PACK10=0), every value at %.17g; then end to end per frame
# (LOCKSTEP_CUDA_TIMING=1, 120 frames) packed and not, interleaved, REPS (3) times each.
# usage: bench/device_pack10.sh OUTDIR   (after scripts/device_prep.sh; BUILD, ARCH as device_vmaf.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lockstep-device}
mkdir -p "$out"
b=${BUILD:-build-device}
jobs=$(nproc)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
args=(-DLOCKSTEP_CUDA=ON -DLS_SHARED_DIR="$PWD/.dev/shared"
      -DCJSON_INCLUDE_DIR="$PWD/.dev/cjson/include" -DCJSON_LIBRARY="$PWD/.dev/cjson/lib/libcjson.so")
[ -n "${ARCH:-}" ] && args+=(-DLOCKSTEP_CUDA_ARCH=$ARCH)
cmake -S . -B $b -G Ninja "${args[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
ninja -C $b ${NINJA_TARGETS:-lockstep_cli lockstep_gen checkasm test_cuda} >"$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" -A3 "$out/build.log" | head -40; exit 1; }
cli=$b/tools/lockstep
gen=$b/gen
mkdir -p $gen
source bench/device_common.sh

$b/tests/checkasm > "$out/checkasm.txt" 2>&1; echo "checkasm exit $?: $(tail -1 "$out/checkasm.txt")"
grep -E "pack10|FAIL" "$out/checkasm.txt" | head
$b/tests/checkasm --bench 2>&1 | grep "pack10 " | tee -a "$out/checkasm.txt"
if [ "${CUDA_TEST:-1}" = 1 ]; then
  ctest --test-dir $b -R fixtures_decompress >/dev/null 2>&1
  $b/tests/test_cuda > "$out/test_cuda.log" 2>&1; echo "test_cuda exit $?: $(tail -1 "$out/test_cuda.log")"
  grep -v "^ok" "$out/test_cuda.log" | head -20
fi

{
  for size in 1920x1080 3840x2160 1918x1080; do for fmt in 420 422 444; do
    [ $size = 1918x1080 ] && [ $fmt != 420 ] && continue
    w=${size%x*}; h=${size#*x}
    $b/tools/lockstep-gen -w $w -h $h -p $fmt -b 10 -n 5 $gen/p_ref.y4m $gen/p_dis.y4m
    for m in vmaf_v0.6.1 vmaf_v1.0.16_3d0h vmaf_v1.0.16_1d5h_2160; do
      r=$(LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m -m version=$m --parity cuda -q \
            --threads $jobs 2>&1 | grep -E "parity|packed to" | sed 's/.*(\([0-9]* uploaded straight[^)]*\)).*/[\1]/' | tr '\n' ' ')
      echo "gen $size $fmt 10-bit cuda [$m]: $r"
    done
  done; done
} 2>&1 | tee "$out/parity.log" | grep -c "parity bit-identical" | sed 's/^/bit-identical parity runs: /'
echo "parity lines:"; cat "$out/parity.log" | cut -c1-260

# the reader's packed frames: --backend cuda against the CPU and the unpacked run, value for value
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
{
  for size in 1920x1080 3840x2160 1918x1080; do
    w=${size%x*}; h=${size#*x}
    $b/tools/lockstep-gen -w $w -h $h -p 420 -b 10 -n 8 $gen/p_ref.y4m $gen/p_dis.y4m
    for m in vmaf_v0.6.1 vmaf_v1.0.16_1d5h_2160; do
      common=(-r $gen/p_ref.y4m -d $gen/p_dis.y4m -m version=$m --threads $jobs -q --json --precision max)
      t=$(LOCKSTEP_CUDA_TIMING=1 $cli "${common[@]}" --backend cuda -o $gen/cuda.json 2>&1 | grep "timing frames" | sed 's/.*(\([0-9]* uploaded straight[^)]*\)).*/\1/')
      LOCKSTEP_CUDA_PACK10=0 $cli "${common[@]}" --backend cuda -o $gen/cuda16.json
      $cli "${common[@]}" -o $gen/cpu.json
      echo "$size $m cuda ($t) vs cpu: $(same_report $gen/cuda.json $gen/cpu.json); vs PACK10=0: $(same_report $gen/cuda.json $gen/cuda16.json)"
    done
  done
} 2>&1 | tee "$out/packed_read.log"

r=$gen/t_ref.y4m d=$gen/t_dis.y4m
for case in "3840 2160 vmaf_v1.0.16_1d5h_2160" "3840 2160 vmaf_v0.6.1" "1920 1080 vmaf_v1.0.16_3d0h"; do
  set -- $case
  make_pair $1 $2 10 120 $r $d
  for rep in $(seq ${REPS:-3}); do for pk in 1 0; do
    t=$(LOCKSTEP_CUDA_PACK10=$pk LOCKSTEP_CUDA_TIMING=1 $cli -r $r -d $d -m version=$3 --backend cuda \
          --threads $jobs -q -o /dev/null 2>&1 | grep "timing frames")
    echo "$1x$2 10-bit $3 PACK10=$pk: $(echo "$t" | sed 's/.*per frame //')"
  done; done
done 2>&1 | tee "$out/bench.txt"
