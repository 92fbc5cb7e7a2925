#!/usr/bin/env bash
# Whether the copy engine can take the packed bytes from the cache instead of memory: host_read
# (bench/host_read.c, built here with -DHOST_READ_CUDA and cudart) on 14 threads, as a CUDA run
# reads, in its CUDA modes: "streamdma" (the present design: pack a pair into pinned memory with
# streaming stores, then copy it) and "bounce" (pack into a small ring of pinned chunks and copy
# each as it fills) at several chunk sizes, and "chunkdma" (pack into pinned pairs with normal
# stores and copy each chunk from there as soon as it is packed); "read" and "stream" without the
# device beside them. QUICK=1: only streamdma, bounce 1 MB x 4 and chunkdma.
# usage: bench/device_bounce.sh OUTDIR   (after scripts/device_prep.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device_common.sh
device_env "${1:-}"
cmake_args=("${cmake_args[@]/-DLOCKSTEP_CUDA=ON/-DLOCKSTEP_CUDA=OFF}")
device_build . $b this lockstep_gen || exit 1
cuda=/usr/local/cuda
o=$b/bounce && mkdir -p $o
gcc -O2 -std=c11 -DHOST_READ_CUDA -Isrc -I$cuda/include -c bench/host_read.c -o $o/hr.o &&
  gcc -O2 -Isrc -c src/core/pack10.c -o $o/p.o && gcc -O2 -Isrc -c src/core/cpu.c -o $o/c.o &&
  gcc -O2 -mavx2 -Isrc -c src/core/x86/pack10_avx2.c -o $o/a2.o &&
  gcc -O2 -mavx2 -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512vbmi -Isrc \
    -c src/core/x86/pack10_avx512.c -o $o/a5.o &&
  gcc -o $o/host_read $o/*.o -L$cuda/lib64 -lcudart -lpthread -Wl,-rpath,$cuda/lib64 || exit 1
lscpu | grep -E "^Model name|^Core|^Thread|L3" | tee "$out/cpu.txt"
r=$gen/t_ref.y4m d=$gen/t_dis.y4m
make_pair 3840 2160 10 120 $r $d
hdr=$(head -1 $r | wc -c)
cat $r $d > /dev/null # in the page cache
hr() { $o/host_read $r $d $((3840 * 2160 * 3)) 120 "$@" $hdr; }
{
  for rep in 1 2; do
    for t in ${THREADS:-14 16}; do
      if [ -z "${QUICK:-}" ]; then
        hr $t read; hr $t stream
        for c in 262144 4194304; do HOST_READ_CHUNK=$c hr $t bounce; done
        HOST_READ_CHUNKS=8 HOST_READ_CHUNK=524288 hr $t bounce
        HOST_READ_BOUNCE_STREAM=1 hr $t bounce
      fi
      hr $t streamdma; hr $t bounce
      for c in 524288 1048576 2097152; do HOST_READ_CHUNK=$c hr $t chunkdma; done
    done
  done
} 2>&1 | tee "$out/bounce.txt"
