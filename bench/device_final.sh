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
[ -x $b/tests/test_soft_f64 ] && { $b/tests/test_soft_f64 device > $out/soft_f64.log 2>&1; echo "test_soft_f64 device exit $?: $(tail -1 $out/soft_f64.log)"; }
fx=$b/fixtures; export cli fx
# bench: 4K 8-bit VMAF v0.6.1 and psnr_hvs, 4K 10-bit VMAF v1; best of 3 after an untimed run
gen=$b/gen; mkdir -p $gen
. bench/device_common.sh # make_pair
make_pair 3840 2160 8 400 $gen/b_ref.y4m $gen/b_dis.y4m
make_pair 3840 2160 10 200 $gen/v_ref.y4m $gen/v_dis.y4m
python3 - $cli $gen "${BENCH_BACKENDS:-opencl cuda cpu}" $tmp <<'PY' | tee $out/bench.txt
import json, os, subprocess, sys, time
cli, gen, backends, tmp = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
def ms(be, pair, n, feats, env):
    cmd = [cli, "-r", f"{gen}/{pair}_ref.y4m", "-d", f"{gen}/{pair}_dis.y4m", "--backend", be,
           "--threads", "16", "-q", "--frame_cnt", str(n), "--json", "-o", f"{tmp}/bench.json"] + feats
    e = dict(os.environ, **env)
    subprocess.run(cmd, check=True, env=e)
    best = wall = None
    for _ in range(3):
        s = time.perf_counter(); subprocess.run(cmd, check=True, env=e); w = time.perf_counter() - s
        f = 1000.0 / json.load(open(f"{tmp}/bench.json"))["fps"]
        best = f if best is None or f < best else best
        wall = w if wall is None or w < wall else wall
    return best, wall
rows = [("3840x2160 8-bit", "vmaf_v0.6.1", "b", 400, []),
        ("3840x2160 8-bit", "psnr_hvs", "b", 400, ["-n", "--feature", "psnr_hvs"]),
        ("3840x2160 10-bit", "vmaf_v1.0.16_1d5h_2160", "v", 200, ["-m", "version=vmaf_v1.0.16_1d5h_2160"])]
for size, name, pair, n, feats in rows:
    for be in backends:
        if be == "opencl" and name.startswith("vmaf_v1"):
            continue  # v1's features have no OpenCL twins
        for label, env in ((be, {}), ("cuda own streams", {"LOCKSTEP_CUDA_SERIAL": "0"})):
            if label == "cuda own streams" and be != "cuda":
                continue
            frames = 120 if be == "cpu" else n
            t, w = ms(be, pair, frames, feats, env)
            print(f"{size} {name} {label}: {t:.3f} ms/frame (1000/fps of {frames} frames, best of 3; whole process {w:.2f} s)", flush=True)
PY
for f in "" "-n --feature psnr_hvs"; do for be in ${BENCH_BACKENDS:-opencl cuda}; do [ $be = cpu ] && continue; LOCKSTEP_OPENCL_TIMING=1 LOCKSTEP_CUDA_TIMING=1 $cli -r $gen/b_ref.y4m -d $gen/b_dis.y4m $f --backend $be --threads 16 -q -o /dev/null --frame_cnt 240 2>&1 | grep timing; done; done >> $out/bench.txt
LOCKSTEP_CUDA_TIMING=1 LOCKSTEP_CUDA_REPLAY=100 $cli -r $gen/v_ref.y4m -d $gen/v_dis.y4m -m version=vmaf_v1.0.16_1d5h_2160 --backend cuda --threads 16 -q -o /dev/null 2>&1 | grep -E "replay|end to end" >> $out/bench.txt
grep -E "timing|replay" $out/bench.txt | cut -c1-260
rm -f $gen/*.y4m
echo "bench done ($((SECONDS-T0)) s)"
if [ "${FAULTS:-0}" = 1 ]; then # beside the parity runs: both only check, neither is timed
  BUILD=$b FAULT_JOBS=${FAULT_JOBS:-4} timeout ${FAULT_LIMIT:-200} bash bench/device_vmaf.sh faults $tmp/faults > $out/faults.txt 2>&1 &
  faults_pid=$!
fi
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
    [ $be = cuda ] && echo "$f cuda v1 -m version=vmaf_v1.0.16_3d0h" && echo "$f cuda v1_2160 -m version=vmaf_v1.0.16_1d5h_2160"
  done
done
} | xargs -P 8 -L 1 bash -c 'par "$@"' _ > $out/parity.log; sort -o $out/parity.log $out/parity.log
echo "parity: $(grep -c 'parity bit-identical' $out/parity.log) of $(wc -l < $out/parity.log) bit-identical ($((SECONDS-T0)) s)"
grep -v 'parity bit-identical' $out/parity.log | cut -c1-160 | sort | uniq | head -12
[ -n "${faults_pid:-}" ] && { wait $faults_pid; echo "faults ($((SECONDS-T0)) s):"; grep -E "exit|injected|passed" $out/faults.txt | head -12; }
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
