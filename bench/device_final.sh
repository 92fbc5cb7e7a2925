#!/usr/bin/env bash
# Final device check of merged main: build, test_cuda, `--parity` on every fixture for each backend
# of BACKENDS (default "cuda opencl"), the 4K 8-bit VMAF v0.6.1 / psnr_hvs bench on BENCH_BACKENDS
# (default "opencl cuda cpu"), then, where carried, a fuzz campaign (.fuzz: the clang-built
# targets, xz'd) and the Dask run (.pydask). An OpenCL-only recheck:
#   BACKENDS=opencl BENCH_BACKENDS="opencl cuda" bench/device_final.sh OUTDIR
set -uo pipefail
out=$1; tmp=/tmp/o; mkdir -p $tmp
export ARCH=90 BUILD=bd
T0=$SECONDS
bash bench/device_vmaf.sh build $tmp >$tmp/build_mode.log 2>&1; echo "build rc $? ($((SECONDS-T0)) s)"; tail -3 $tmp/build_mode.log
b=bd; cli=$b/tools/lockstep
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$PWD/.dev/cjson/lib
[ -e /etc/OpenCL/vendors/nvidia.icd ] || { mkdir -p /etc/OpenCL/vendors; echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; }
export LOCKSTEP_OPENCL_DEVICE=NVIDIA
ctest --test-dir $b -R fixtures_decompress >/dev/null 2>&1
$b/tests/test_cuda --quick > $out/test_cuda.log 2>&1; echo "test_cuda exit $?: $(tail -1 $out/test_cuda.log)"
fx=$b/fixtures; export cli fx
par() { # fixture backend label args...
  local f=$1 be=$2 lab=$3; shift 3
  echo "$f $be [$lab]: $($cli -r $fx/${f}_ref.y4m -d $fx/${f}_dis.y4m "$@" --parity $be -q --threads 2 2>&1 | tail -1)"
}
export -f par
{
for f in $(ls $fx/*_ref.y4m | sort); do f=$(basename $f _ref.y4m)
  for be in ${BACKENDS:-cuda opencl}; do
    echo "$f $be v061 --feature psnr_hvs --feature float_ssim --feature ssim --feature float_motion"
    echo "$f $be float -m version=vmaf_float_v0.6.1 --feature float_adm=adm_enhn_gain_limit=1 --feature float_vif=vif_kernelscale=0.5"
    [ $be = cuda ] && echo "$f cuda v1 -m version=vmaf_v1.0.16_3d0h"
  done
done
} | xargs -P 8 -L 1 bash -c 'par "$@"' _ | sort > $out/parity.log
echo "parity: $(grep -c 'parity bit-identical' $out/parity.log) of $(wc -l < $out/parity.log) bit-identical ($((SECONDS-T0)) s)"
grep -v 'parity bit-identical' $out/parity.log | cut -c1-160 | sort | uniq | head -12
# bench: 4K 8-bit VMAF v0.6.1 and psnr_hvs, OpenCL/CUDA/CPU, best of 3 after an untimed run
gen=$b/gen; mkdir -p $gen
$b/tools/lockstep-gen -w 3840 -h 2160 -p 420 -b 8 -n 20 $gen/g_ref.y4m $gen/g_dis.y4m
for p in ref dis; do hdr=$(head -1 $gen/g_$p.y4m | wc -c); { cat $gen/g_$p.y4m; for i in $(seq 2 24); do tail -c +$((hdr+1)) $gen/g_$p.y4m; done; } > $gen/b_$p.y4m; done
python3 - $cli $gen/b_ref.y4m $gen/b_dis.y4m "${BENCH_BACKENDS:-opencl cuda cpu}" <<'PY' | tee $out/bench.txt
import subprocess, sys, time
cli, r, d = sys.argv[1:4]
def t(be, n, feats):
    best = None
    cmd = [cli, "-r", r, "-d", d, "--backend", be, "--threads", "16", "-q", "--frame_cnt", str(n), "-o", "/dev/null"] + feats
    subprocess.run(cmd, check=True)
    for _ in range(3):
        s = time.perf_counter(); subprocess.run(cmd, check=True); e = time.perf_counter() - s
        best = e if best is None or e < best else best
    return best
for name, feats in (("vmaf_v0.6.1", []), ("psnr_hvs", ["-n", "--feature", "psnr_hvs"])):
    for be in sys.argv[4].split():
        n = 120 if be == "cpu" else 480
        a, b = t(be, 2, feats), t(be, n, feats)
        print(f"3840x2160 8-bit {name} {be}: {(b - a) * 1000 / (n - 2):.3f} ms/frame ({n} frames, whole process {b:.2f} s, 2 frames {a:.2f} s, best of 3)", flush=True)
PY
for f in "" "-n --feature psnr_hvs"; do for be in ${BENCH_BACKENDS:-opencl cuda}; do [ $be = cpu ] && continue; LOCKSTEP_OPENCL_TIMING=1 LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/b_ref.y4m -d $gen/b_dis.y4m $f --backend $be --threads 16 -q -o /dev/null --frame_cnt 240 2>&1 | grep timing; done; done >> $out/bench.txt
grep timing $out/bench.txt | cut -c1-220
rm -f $gen/*.y4m
echo "bench done ($((SECONDS-T0)) s)"
if [ -d .fuzz ]; then
  t1=$SECONDS; mkdir -p /tmp/fzb && tar xJf .fuzz/fz.tar.xz -C /tmp/fzb
  FUZZ_WORKERS=${FUZZ_WORKERS:-3} bash tests/libfuzzer/campaign.sh /tmp/fzb ${FUZZ_SECONDS:-100} 6 /tmp/fz >/dev/null 2>&1
  cp /tmp/fz/summary.txt $out/fuzz_summary.txt; cat $out/fuzz_summary.txt
  ls /tmp/fz | grep -E -- "-(crash|leak|timeout|oom|slow-unit)-" | head; echo "fuzz ($((SECONDS-t1)) s wall)"
  for f in $(ls /tmp/fz | grep -E -- "-(crash|leak|timeout|oom)-" | head -3); do base64 -w0 /tmp/fz/$f > $out/artifact_$f.b64; done
fi
if [ -d .pydask ]; then
  SKIP_BUILD=1 timeout ${DASK_LIMIT:-200} bash bench/device_dask.sh run $tmp/dask > $out/dask.log 2>&1; echo "dask rc $? ($((SECONDS-T0)) s)"; tail -40 $out/dask.log; cat $tmp/dask/*bench*.txt 2>/dev/null | tail -30 > $out/dask_bench.txt
fi
