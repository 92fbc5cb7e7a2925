#!/usr/bin/env bash
# The readers send packed 10-bit frames to the device themselves (core/upload_sink.h; the CUDA
# frame pipeline's mirrors of the pinned pictures), in one call of the device tool: checkasm,
# test_cuda, ctest's gpu_faults_cuda, `--parity cuda` on 10-bit pairs, the reader-sent runs
# against the CPU's report, the unpacked run's and the run whose readers write the pictures
# (LOCKSTEP_CUDA_READER_UPLOAD=0), every value at %.17g; then end to end per frame
# (LOCKSTEP_CUDA_TIMING=1, 120 frames) with the readers sending and not, interleaved, REPS (3)
# times each (SERIALS="1 0": with LOCKSTEP_CUDA_SERIAL=1 and 0 too). FAULTS=0, PARITY=0,
# PACKED=0, CUDA_TEST=0 leave those checks out; CASES: "W H MODEL;W H MODEL..."
# usage: bench/device_upload.sh OUTDIR   (after scripts/device_prep.sh; BUILD, ARCH as device_vmaf.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device_common.sh
device_env "${1:-}"
device_build . $b this ${NINJA_TARGETS:-lockstep_cli lockstep_gen checkasm test_cuda} || exit 1
device_checks
if [ "${FAULTS:-1}" = 1 ]; then
  ctest --test-dir $b -R "^gpu_faults_cuda$" --output-on-failure > "$out/gpu_faults.log" 2>&1
  echo "gpu_faults_cuda: $(grep -E "tests passed|tests failed" "$out/gpu_faults.log")"; grep -E "^FAIL" "$out/gpu_faults.log" | head
fi
[ "${PARITY:-1}" = 1 ] && parity_10bit
[ "${PACKED:-1}" = 1 ] && packed_read_check

r=$gen/t_ref.y4m d=$gen/t_dis.y4m
IFS=';' read -ra cases <<< "${CASES:-3840 2160 vmaf_v1.0.16_1d5h_2160;3840 2160 vmaf_v0.6.1;1920 1080 vmaf_v1.0.16_3d0h}"
for case in "${cases[@]}"; do
  set -- $case
  make_pair $1 $2 10 120 $r $d
  for rep in $(seq ${REPS:-3}); do for serial in ${SERIALS:-1}; do for up in 1 0; do
    t=$(LOCKSTEP_CUDA_SERIAL=$serial LOCKSTEP_CUDA_READER_UPLOAD=$up LOCKSTEP_CUDA_TIMING=1 \
          $cli -r $r -d $d -m version=$3 --backend cuda --threads $jobs -q -o /dev/null 2>&1 |
          grep -E "timing (frames|scoring)")
    echo "$1x$2 10-bit $3 SERIAL=$serial READER_UPLOAD=$up: $(echo "$t" | grep "timing frames" | sed 's/.*(\([0-9]* uploaded straight[^)]*\)).*per frame /(\1) /'); $(echo "$t" | grep scoring | sed 's/.*: from frame/from frame/')"
  done; done; done
done 2>&1 | tee "$out/bench.txt"

[ "${FAULTS:-1}" = 1 ] || exit 0
# a copy that fails while the readers send frames: one line, exit 255, no hang (1080p v1, 40
# frames: the readers' copies are most of the run's)
make_pair 1920 1080 10 40 $gen/p_ref.y4m $gen/p_dis.y4m
for n in 60 120 180 240 300; do
  LOCKSTEP_FAULT_INJECT=copy:$n timeout 60 $cli -r $gen/p_ref.y4m -d $gen/p_dis.y4m -m version=vmaf_v1.0.16_3d0h \
    --backend cuda --threads $jobs -q -o $gen/fault.json 2> $gen/fault.err
  echo "copy:$n exit $? lines $(wc -l < $gen/fault.err): $(head -c 300 $gen/fault.err)"
done 2>&1 | tee "$out/reader_faults.txt"
