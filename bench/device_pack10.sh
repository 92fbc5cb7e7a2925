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
source bench/device_common.sh
device_env "${1:-}"
device_build . $b this ${NINJA_TARGETS:-lockstep_cli lockstep_gen checkasm test_cuda} || exit 1
device_checks
parity_10bit
packed_read_check

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
