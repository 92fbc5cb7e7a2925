#!/usr/bin/env bash
# Where VMAF v1's CUDA time goes at 4K, in one call of the device tool (after
# `bench/device_vmaf.sh build`, same BUILD): a short parity check, ms/frame of
# vmaf_v1.0.16_1d5h_2160 on CUDA against the floor of the same pipeline (the psnr twin: the same
# frames read and all three planes uploaded, next to no kernel time), the twins' stage times
# (LOCKSTEP_CUDA_TIMING=1), the device time per frame of the twins on resident frames, of the
# uploads alone and of both (LOCKSTEP_CUDA_REPLAY) and, where ncu works, every kernel's own
# duration. S_SERIAL=1 adds the same rows with LOCKSTEP_CUDA_SERIAL=0 (each twin on a stream of
# its own; the default is every twin on the upload stream, one after another), timed
# alternately with the default ones in the same call.
# usage: bench/device_v1speed.sh OUTDIR   (BUILD=bd; S_FRAMES=200 (4K; 1080p twice), S_REPS=2, S_NCU=1,
#   S_PARITY=1, S_PARITY_FRAMES=4 (generated pairs), S_FLOOR=1, S_CPU=1, S_SERIAL=0, S_REPLAY=100, S_BENCH=1,
#   S_WHOLE=1 (whole-process ms/frame), S_ROUNDS=1)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lockstep-device}
mkdir -p "$out"
b=${BUILD:-build-device}
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=$b/tools/lockstep
gen=$b/gen
mkdir -p $gen
jobs=$(nproc)
n=${S_FRAMES:-200}

if [ "${S_PARITY:-1}" = 1 ]; then
  # the short form of `bench/device_vmaf.sh v1`: four v1 models (4K and 1080p, with and without
  # speed_chroma's prescaling, the hfr motion window) on every fixture and on generated
  # 1080p/4K 8/10-bit pairs, and speed_temporal plain and prescaled
  ctest --test-dir $b -R "fixtures_decompress" >/dev/null 2>&1
  t0=$SECONDS
  models="vmaf_v1.0.16_3d0h vmaf_v1.0.16_1d5h_2160 vmaf_v1.0.16_3d0h_2160 vmaf_v1.0.16_hfr_5d0h"
  one() {
    local what=(-m version=$4)
    case $4 in feature=*) what=(--feature "${4#feature=}") ;; esac
    echo "$1 [$4]: $($cli -r $2 -d $3 "${what[@]}" --parity cuda -q --threads 2 2>&1 | tail -1)"
  }
  export -f one; export cli
  {
    for f in $(ls $b/fixtures/*_ref.y4m | sort); do
      id=$(basename $f _ref.y4m)
      for m in vmaf_v1.0.16_3d0h vmaf_v1.0.16_1d5h_2160; do echo "$id $f $b/fixtures/${id}_dis.y4m $m"; done
    done
    for size in 1920x1080 3840x2160; do for bits in 8 10; do
      q=$gen/q_${size}_$bits
      $b/tools/lockstep-gen -w ${size%x*} -h ${size#*x} -p 420 -b $bits -n ${S_PARITY_FRAMES:-4} ${q}_ref.y4m ${q}_dis.y4m
      for m in $models feature=speed_temporal \
               feature=speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_use_ref_diff=true; do
        echo "gen_${size}_${bits}bit ${q}_ref.y4m ${q}_dis.y4m $m"
      done
    done; done
  } | xargs -P 8 -L 1 bash -c 'one "$@"' _ > "$out/s_parity.log" 2>&1
  sort -o "$out/s_parity.log" "$out/s_parity.log"
  rm -f $gen/q_*.y4m
  echo "parity ($((SECONDS - t0)) s): $(grep -c "\]: " "$out/s_parity.log") runs, $(grep -c "parity bit-identical" "$out/s_parity.log") bit-identical, values compared in those: $(grep "parity bit-identical" "$out/s_parity.log" | awk '{s+=$(NF-4)} END {print s}')"
  echo "not bit-identical (refusals listed):"; grep -v "parity bit-identical" "$out/s_parity.log" | cut -c1-160 | head -12
fi
[ "${S_BENCH:-1}" = 1 ] || exit 0

. bench/device_common.sh # make_pair
r=$gen/b_ref.y4m; d=$gen/b_dis.y4m

# best whole-process time of S_REPS runs, for 2 and n frames: ms/frame = (t(n) - t(2)) / (n - 2)
bench() {
  local label=$1 n=$2; shift 2
  python3 - "$n" "${S_REPS:-2}" "$label" "$@" <<'PY'
import os, subprocess, sys, time
n, reps, label, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
# one untimed run first: the first process of a size pays start-up costs that a 2-frame run
# would otherwise carry into t(2)
subprocess.run(cmd + ["--frame_cnt", "2"], check=True)
best = {}
for t in (2, n):
    for _ in range(reps):
        s = time.perf_counter()
        subprocess.run(cmd + ["--frame_cnt", str(t)], check=True)
        e = time.perf_counter() - s
        best[t] = min(best.get(t, e), e)
print(f"{label}: {(best[n] - best[2]) * 1000 / (n - 2):.3f} ms/frame ({n} frames, whole process {best[n]:.2f} s)")
PY
}
common=(-r $r -d $d --threads $jobs -q -o /dev/null)
for spec in 3840x2160:vmaf_v1.0.16_1d5h_2160:$n 1920x1080:vmaf_v1.0.16_3d0h:$((2 * n)); do
  IFS=: read -r size model m <<< "$spec"
  make_pair ${size%x*} ${size#*x} 10 $m $r $d
  schedules=serial; [ "${S_SERIAL:-0}" = 1 ] && schedules="serial own-streams"
  [ "${S_WHOLE:-1}" = 1 ] && {
    for rep in 1 2; do
      for sch in $schedules; do
        [ $rep = 2 ] && [ "${S_SERIAL:-0}" != 1 ] && continue
        LOCKSTEP_CUDA_SERIAL=$([ $sch = serial ] && echo 1 || echo 0) \
          bench "$size 10-bit $model cuda ($sch schedule, round $rep)" $m $cli "${common[@]}" -m version=$model --backend cuda
      done
      if [ "${S_FLOOR:-1}" = 1 ]; then
        bench "$size 10-bit floor: psnr cuda (the same frames read, 3 planes uploaded, round $rep)" $m $cli "${common[@]}" -n --feature psnr --backend cuda
      fi
      [ "${S_SERIAL:-0}" = 1 ] || break
    done
    [ "${S_CPU:-1}" = 1 ] && bench "$size 10-bit $model cpu" $((m / 4)) $cli "${common[@]}" -m version=$model --backend cpu
  } 2>&1 | tee -a "$out/s_bench.txt"
  # in-process figures, S_ROUNDS rounds alternating the schedules and the floor: the end to end
  # per frame from frame 32 on (the 'frames' line), the twins' stages, the replays
  for round in $(seq ${S_ROUNDS:-1}); do
    for sch in $schedules; do
      LOCKSTEP_CUDA_SERIAL=$([ $sch = serial ] && echo 1 || echo 0) LOCKSTEP_CUDA_TIMING=1 \
        LOCKSTEP_CUDA_REPLAY=${S_REPLAY:-100} $cli "${common[@]}" -m version=$model --backend cuda 2>&1 \
        | grep -E "timing|replay" | sed "s/^/$size $model $sch (round $round): /" | tee -a "$out/s_profile.txt"
    done
    [ "${S_FLOOR:-1}" = 1 ] || continue
    LOCKSTEP_CUDA_TIMING=1 LOCKSTEP_CUDA_REPLAY=${S_REPLAY:-100} $cli "${common[@]}" -n --feature psnr --backend cuda 2>&1 \
      | grep -E "timing|replay" | sed "s/^/$size psnr (round $round): /" | tee -a "$out/s_profile.txt"
  done
  [ $size = 3840x2160 ] || continue
  if [ "${S_NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    # every kernel of the first frames on its own (ncu serialises them): the device time each costs
    timeout ${S_NCU_TIMEOUT:-40} ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      $cli -r $r -d $d -q -o /dev/null -m version=$model --backend cuda --frame_cnt 4 \
      > $gen/ncu.csv 2> $gen/ncu.err
    echo "ncu exit $?: $(tail -2 $gen/ncu.err | tr '\n' ' ' | cut -c1-200)"
    python3 - $gen/ncu.csv <<'PY' | tee "$out/s_ncu.txt"
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("ncu: no rows"); sys.exit()
head = rows[0]; k = head.index("Kernel Name"); v = head.index("Metric Value"); u = head.index("Metric Unit")
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows[1:]:
    try: x = float(r[v].replace(",", ""))
    except ValueError: continue
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
    if r[u] not in scale:
        print(f"ncu: unknown unit {r[u]!r}"); sys.exit()
    x = x * scale[r[u]]
    tot[r[k]] += x; cnt[r[k]] += 1
frames = 4
s = 0.0
for name, t in sorted(tot.items(), key=lambda e: -e[1]):
    print(f"{name[:40]:40s} {cnt[name]:4d} launches {t / frames:9.1f} us/frame")
    s += t
print(f"{'all kernels':40s} {sum(cnt.values()):4d} launches {s / frames:9.1f} us/frame")
PY
  fi
done
rm -f $r $d
