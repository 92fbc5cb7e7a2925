#!/usr/bin/env bash
# A longer fuzzing campaign than CI's (tests/libfuzzer.cmake): every target of a LOCKSTEP_FUZZ
# build for SECONDS of wall time each, LANES targets at a time, at nice 19 (shared machines), from
# the seed corpus and the kept crashing inputs into a work corpus that persists between campaigns.
# Prints per target the CPU seconds it used (user + system, what the campaign is measured in),
# its exec count and whether it found anything; crashing inputs are left in WORK/<target>-crash-*
# (copy them into regress/<target>/ once fixed).
# FUZZ_WORKERS=K (machines with cores to spare): each target runs K worker processes (libFuzzer's
# -fork=K), whose CPU time is counted as they finish.
# usage: tests/libfuzzer/campaign.sh BUILD_DIR SECONDS [LANES] [WORK] [TARGET...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
seconds=$2
lanes=${3:-2}
work=${4:-$build/fuzz-campaign}
shift $(( $# < 4 ? $# : 4 ))
targets=${*:-y4m yuv feature model_arg model_json cli}
mkdir -p "$work"

run_one() {
  local t=$1 dict="" seeds="$here/corpus/$1"
  [ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
  [ -d "$here/regress/$t" ] && seeds="$seeds $here/regress/$t"
  mkdir -p "$work/$t"
  # the shell's `times` would count every lane; /usr/bin/time-like figures from /proc instead
  # -timeout is wall time: at nice 19 on a loaded machine an input of half a CPU second can take
  # tens of seconds, so a hang here is FUZZ_TIMEOUT (120) seconds; CI's runs keep 20
  nice -n 19 "$build/tests/fuzz_$t" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-120}" -rss_limit_mb=2048 \
       ${FUZZ_WORKERS:+-fork=$FUZZ_WORKERS} $dict -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/$t-" \
       "$work/$t" $seeds >"$work/$t.log" 2>&1 &
  local pid=$! cpu=0
  while kill -0 $pid 2>/dev/null; do
    # utime + stime of the fuzzer and of its finished workers (fields 14-17), in clock ticks
    cpu=$(awk '{print $14 + $15 + $16 + $17}' /proc/$pid/stat 2>/dev/null || echo "$cpu")
    sleep 1
  done
  wait $pid
  local rc=$?
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
  # fork mode prints no final stats: its last status line counts the workers' execs
  [ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$work/$t.log" | tail -1)
  local found
  found=$(ls "$work" | grep -c "^$t-" || true)
  printf '%-11s cpu %6.0f s  execs %10s  exit %d  artifacts %d\n' "$t" \
         "$(awk -v c="$cpu" -v t="$(getconf CLK_TCK)" 'BEGIN{print c / t}')" "${execs:-?}" $rc "$found" | tee -a "$work/summary.txt"
}

echo "campaign $(date -u +%FT%TZ): $seconds s per target, $lanes at a time" >>"$work/summary.txt"
running=0
for t in $targets; do
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge "$lanes" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
