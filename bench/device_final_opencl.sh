#!/usr/bin/env bash
# after the OpenCL device-memory fix: OpenCL parity on every fixture, then 4K 8-bit VMAF / psnr_hvs OpenCL vs CUDA
set -uo pipefail
out=$1; T0=$SECONDS
export ARCH=90 BUILD=bd NINJA_TARGETS="lockstep_cli lockstep_gen"
bash bench/device_vmaf.sh build /tmp/o >/tmp/o.log 2>&1; echo "build rc $? ($((SECONDS-T0)) s)"; grep -iE "warning|error" /tmp/o/build.log | head -5
b=bd; cli=$b/tools/lockstep
export LD_LIBRARY_PATH=$PWD/.dev/cjson/lib LOCKSTEP_OPENCL_DEVICE=NVIDIA
[ -e /etc/OpenCL/vendors/nvidia.icd ] || { mkdir -p /etc/OpenCL/vendors; echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; }
ctest --test-dir $b -R fixtures_decompress >/dev/null 2>&1
fx=$b/fixtures; export cli fx
par() { local f=$1 be=$2 lab=$3; shift 3
  echo "$f $be [$lab]: $($cli -r $fx/${f}_ref.y4m -d $fx/${f}_dis.y4m "$@" --parity $be -q --threads 2 2>&1 | tail -1)"; }
export -f par
for f in $(ls $fx/*_ref.y4m | sort); do f=$(basename $f _ref.y4m)
  echo "$f opencl v061 --feature psnr_hvs --feature float_ssim --feature ssim --feature float_motion"
  echo "$f opencl float -m version=vmaf_float_v0.6.1 --feature float_adm=adm_enhn_gain_limit=1 --feature float_vif=vif_kernelscale=0.5"
done | xargs -P 8 -L 1 bash -c 'par "$@"' _ | sort > $out/parity_opencl.log
echo "opencl parity: $(grep -c 'parity bit-identical' $out/parity_opencl.log) of $(wc -l < $out/parity_opencl.log) bit-identical, $(grep -o '[0-9]* values compared' $out/parity_opencl.log | awk '{s+=$1} END {print s}') values ($((SECONDS-T0)) s)"
grep -av 'parity bit-identical' $out/parity_opencl.log | cut -c1-160 | head -8
gen=$b/gen; mkdir -p $gen
$b/tools/lockstep-gen -w 3840 -h 2160 -p 420 -b 8 -n 20 $gen/g_ref.y4m $gen/g_dis.y4m
for p in ref dis; do hdr=$(head -1 $gen/g_$p.y4m | wc -c); { cat $gen/g_$p.y4m; for i in $(seq 2 24); do tail -c +$((hdr+1)) $gen/g_$p.y4m; done; } > $gen/b_$p.y4m; done
python3 - $cli $gen/b_ref.y4m $gen/b_dis.y4m <<'PY' | tee $out/bench_opencl.txt
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
    for be in ("opencl", "cuda"):
        a, b = t(be, 2, feats), t(be, 480, feats)
        print(f"3840x2160 8-bit {name} {be}: {(b - a) * 1000 / 478:.3f} ms/frame (480 frames, whole process {b:.2f} s, 2 frames {a:.2f} s, best of 3)", flush=True)
PY
LOCKSTEP_OPENCL_TIMING=1 $cli -r $gen/b_ref.y4m -d $gen/b_dis.y4m --backend opencl --threads 16 -q -o /dev/null --frame_cnt 480 2>&1 | grep timing | cut -c1-220 | tee -a $out/bench_opencl.txt
echo "done ($((SECONDS-T0)) s)"
