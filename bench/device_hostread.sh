#!/usr/bin/env bash
# The host's side of a 10-bit CUDA run, in one call of the device tool: checkasm (the packers),
# test_cuda (CUDA_TEST=1), the 10-bit parity runs and the reader's packed runs against the CPU
# (device_common.sh), host_read (bench/host_read.c: reading frame pairs from the page cache as
# the CLI's readers do, alone and then packing them, AVX-512 or AVX2, normal or streaming stores)
# on 16 threads, then end to end per frame (LOCKSTEP_CUDA_TIMING=1, 120 frames) of this tree
# against another's build (BASE: a source tree, e.g. an earlier commit's `git archive`),
# interleaved, REPS (4) times at 4K v1 and twice for 4K v0.6.1 and 1080p v1.
# usage: bench/device_hostread.sh OUTDIR   (after scripts/device_prep.sh; BUILD, ARCH as device_vmaf.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device_common.sh
device_env "${1:-}"
device_build . $b this lockstep_cli lockstep_gen checkasm host_read test_cuda || exit 1
base_cli=
if [ -n "${BASE:-}" ]; then
  device_build "$BASE" $b-base base lockstep_cli && base_cli=$b-base/tools/lockstep ||
    echo "BASE build failed"
fi
lscpu | grep -E "^Model name|^Core|^Thread" | tee "$out/cpu.txt"
device_checks
parity_10bit
packed_read_check

r=$gen/t_ref.y4m d=$gen/t_dis.y4m
make_pair 3840 2160 10 120 $r $d
hdr=$(head -1 $r | wc -c)
cat $r $d > /dev/null # in the page cache
hr() { $b/bench/host_read $r $d $((3840 * 2160 * 3)) 120 "$@" $hdr; }
{ hr 16 read; for isa in avx512 avx2; do for m in pack stream; do HOST_READ_ISA=$isa hr 16 $m; done; done; } 2>&1 |
  tee "$out/host_read.txt"

for case in "3840 2160 vmaf_v1.0.16_1d5h_2160 ${REPS:-4}" "3840 2160 vmaf_v0.6.1 2" "1920 1080 vmaf_v1.0.16_3d0h 2"; do
  set -- $case
  if [ $1 = 1920 ]; then r=$gen/s_ref.y4m d=$gen/s_dis.y4m; make_pair $1 $2 10 120 $r $d; fi
  for rep in $(seq $4); do for which in this ${base_cli:+base}; do
    c=$cli; [ $which = base ] && c=$base_cli
    t=$(LOCKSTEP_CUDA_TIMING=1 $c -r $r -d $d -m version=$3 --backend cuda --threads $jobs -q -o /dev/null 2>&1)
    echo "$1x$2 10-bit $3 $which: $(echo "$t" | grep "timing frames" | sed 's/.*device upload/device upload/;s/(wall, frame 32.s upload to the last scores) //')$(echo "$t" | grep "scoring thread" | sed 's/.*frame 32: per frame /; scoring thread /')"
  done; done
done 2>&1 | tee "$out/bench.txt"
