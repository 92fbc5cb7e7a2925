#!/usr/bin/env bash
# The copy engine's rate on the device, alone and with the host's reading running beside it
# (bench/h2d_probe.cu, bench/host_read.c), in one call of the device tool.
# usage: bench/device_h2d.sh OUTDIR   (after scripts/device_prep.sh; BUILD as device_vmaf.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device_common.sh
device_env "${1:-}"
cmake_args=("${cmake_args[@]/-DLOCKSTEP_CUDA=ON/-DLOCKSTEP_CUDA=OFF}")
device_build . $b this lockstep_gen host_read || exit 1
nvcc -O2 -o $b/h2d_probe bench/h2d_probe.cu || exit 1
lscpu | grep -E "^Thread|^Core|^Model name" | tee "$out/cpu.txt"
grep -o -w -E "avx512vbmi|avx512_vbmi2|avx512vnni|avx512bw" /proc/cpuinfo | sort -u | tr '\n' ' ' | tee -a "$out/cpu.txt"; echo
{
  for m in packed unpacked; do for ring in 2 16; do $b/h2d_probe $m $ring; done; done
  $b/h2d_probe packed 2 touch
  r=$gen/t_ref.y4m d=$gen/t_dis.y4m
  make_pair 3840 2160 10 120 $r $d
  hdr=$(head -1 $r | wc -c)
  cat $r $d > /dev/null
  for mode in read stream; do
    ( for i in $(seq 40); do $b/bench/host_read $r $d $((3840 * 2160 * 3)) 120 16 $mode $hdr; done ) > $gen/bg.txt &
    bg=$!
    sleep 0.5
    echo "with host_read $mode on 16 threads beside it:"
    $b/h2d_probe packed 16
    wait $bg
    head -2 $gen/bg.txt
  done
} 2>&1 | tee "$out/h2d.txt"
