#!/usr/bin/env bash
# lockstep.dask on a GPU machine (the H200 here), in one call of the device tool. That machine's
# Python (3.12) has no Dask and no network: Debian 12's python3-distributed, python3-dask and the
# pure-Python packages they need that it lacks travel in .pydask, made here by `prepare`.
#   prepare       (here, on a Debian 12 machine) apt-get download + dpkg -x into PYDASK_DIR
#                 (default .pydask in the checkout the device tool sends; git must ignore it):
#                 site/   dask, distributed, tornado, tblib, zict, partd, locket, heapdict (the
#                         device lacks them), without their tests and Dask's collections
#                 compat/ Debian's click, cloudpickle, toolz, sortedcontainers, fsspec, packaging:
#                         used only where distributed 2022.12 fails with the device's own versions
#                 C extensions (psutil, msgpack, yaml) and numpy/pandas are the device's.
#   run OUTDIR    (there) build (bench/device_vmaf.sh build: ARCH, BUILD); a real scheduler and
#                 workers on 127.0.0.1 under pytest: GPU workers (--resources GPU=1) scoring
#                 --backend cuda shards against the single CPU run (and tests/opencl_parity.py
#                 --report-bytes cuda: the order of names in short runs and shards); then
#                 bench/dask_bench.py at 1920x1080 and 3840x2160, VMAF v0.6.1: 16 one-thread CPU
#                 workers against one 16-thread CLI process per pair, and GPU workers against one
#                 CUDA CLI process per pair (pairs/min, the fixed cost of a shard, merge); then the
#                 two-worker test and the worker killed mid-run
# usage: bench/device_dask.sh prepare | run OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

if [ "$mode" = prepare ]; then
  set -e
  dest=${PYDASK_DIR:-$PWD/.pydask}
  debs=$(mktemp -d)
  (cd "$debs" && apt-get download python3-dask python3-distributed python3-tornado python3-tblib \
     python3-zict python3-partd python3-locket python3-heapdict python3-click python3-cloudpickle \
     python3-toolz python3-sortedcontainers python3-fsspec python3-packaging >/dev/null)
  unpacked=$debs/root
  for f in "$debs"/*.deb; do dpkg -x "$f" "$unpacked"; done
  src=$unpacked/usr/lib/python3/dist-packages
  rm -rf "$dest"
  mkdir -p "$dest/site" "$dest/compat"
  for p in dask distributed tornado tblib zict partd locket heapdict.py; do
    mv "$src/$p" "$dest/site/"
  done
  # the egg-info folders carry the entry points `python3 -m dask scheduler|worker` looks up
  mv "$src"/{dask,distributed,tornado,tblib,zict,partd,locket,HeapDict}-*.egg-info "$dest/site/"
  mv "$src"/* "$dest/compat/"
  find "$dest" -depth -type d \( -name tests -o -name test -o -name __pycache__ \) -exec rm -rf {} +
  # Dask's collections: lockstep.dask submits plain tasks (the device call carries 64 MiB at most)
  rm -rf "$dest"/site/dask/{array,bag,dataframe}
  rm -rf "$debs"
  du -sh "$dest"
  exit 0
fi

out=${2:-/tmp/lockstep-device-dask}
mkdir -p "$out"
b=${BUILD:-build-device}
export BUILD=$b
t0=$SECONDS
# what the bench needs (no test programs: the Dask tests use the CLI, lockstep-gen and the library)
# (SKIP_BUILD=1: BUILD is built already, e.g. a trial of this script on a machine without a GPU
# with GPU_BACKEND=opencl and small SIZES)
if [ -z "${SKIP_BUILD:-}" ]; then
  NINJA_TARGETS="lockstep_cli lockstep_gen lockstep_shared" bench/device_vmaf.sh build "$out" \
    > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
  echo "build: $((SECONDS - t0)) s"
  rm -f "$out/cmake.log" "$out/build.log"   # room for the 8 files that come back
fi
py=${PY:-$(command -v python3)}
site=$PWD/.pydask/site
# distributed 2022.12 reads GPU names as bytes from pynvml; the device's newer nvidia-ml-py gives
# str, which breaks a worker's start-up information: its GPU diagnostics are the dashboard's only
export DASK_DISTRIBUTED__DIAGNOSTICS__NVML=False PYTHONUNBUFFERED=1
export PYTHONPATH=$site
smoke() {
  timeout 60 "$py" - <<'PY'
import os, subprocess, sys, tempfile, time
import dask, distributed
d = tempfile.mkdtemp()
f = os.path.join(d, "s.json")
procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                           "--port", "0", "--no-dashboard", "--scheduler-file", f])]
while not os.path.exists(f):
    time.sleep(0.05)
procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file", f,
                               "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host",
                               "127.0.0.1", "--resources", "GPU=1"]))
with distributed.Client(scheduler_file=f, timeout=30) as c:
    c.wait_for_workers(1, timeout=30)
    assert c.submit(sum, [1, 2], resources={"GPU": 1}, pure=False).result() == 3
for p in procs:
    p.terminate()
    p.wait()
print("dask %s, distributed %s on Python %s" % (dask.__version__, distributed.__version__,
                                              sys.version.split()[0]))
PY
}
t0=$SECONDS
if ! smoke > "$out/smoke.txt" 2>&1; then
  echo "with the device's own click/cloudpickle/toolz/...: failed"; tail -5 "$out/smoke.txt"
  export PYTHONPATH=$site:$PWD/.pydask/compat
  smoke > "$out/smoke.txt" 2>&1 || { echo "with Debian's too: failed"; tail -30 "$out/smoke.txt"; exit 1; }
fi
echo "PYTHONPATH=${PYTHONPATH//$PWD\//}: $(tail -1 "$out/smoke.txt") ($((SECONDS - t0)) s)"
"$py" -c "import click, cloudpickle, toolz, msgpack, psutil, tornado, numpy
print(' '.join('%s %s' % (m.__name__, getattr(m, '__version__', '?')) for m in (click, cloudpickle, toolz, msgpack, psutil, tornado, numpy)))"

# Most telling first (a call cut short still reports what ran; about 150 s in all on the H200
# after its start: build 25 s, the first tests 15-20 s, the bench 60-70 s, the last tests 30 s):
# the Dask test of GPU workers (--resources GPU=1, --backend cuda shards) on a real scheduler,
# beside it the CUDA reports of short runs and merged shards against the CPU's, byte for byte,
# and the bench's pairs being made (none of the three is timed); then the bench; then the
# two-worker and worker-killed tests
ctest --test-dir $b -R fixtures_decompress > /dev/null 2>&1
gpu=${GPU_BACKEND:-cuda}
sizes=()
for size in ${SIZES:-1920x1080:48 3840x2160:48}; do sizes+=(--size $size); done
bench=("$py" bench/dask_bench.py --build $b --work /tmp/lockstep-dask-bench "${sizes[@]}"
       --pairs ${PAIRS:-12} --distinct ${DISTINCT:-4} --shard-frames ${SHARD:-12}
       --workers ${WORKERS:-16} --cli-threads $(nproc) --gpu-workers ${GPU_WORKERS:-4} --gpus 1
       --gpu-backend $gpu
       --gpu-baseline-pairs ${GPU_BASELINE_PAIRS:-4} --runs ${RUNS:-1})
dask_tests() {  # pytest -k EXPRESSION, log file, seconds
  local t0=$SECONDS
  LOCKSTEP_DASK_GPU_BACKEND=$gpu PYTEST_ADDOPTS=--durations=3 timeout $3 "$py" tests/python_test.py \
    --library $b/src/liblockstep.so --cli $b/tools/lockstep --gen $b/tools/lockstep-gen \
    --fixtures $b/fixtures --package python --work $b/python_dask --select "$1" \
    python/tests/test_dask.py > "$2" 2>&1
  echo "dask tests [$1] exit $? ($((SECONDS - t0)) s):"
  grep -E "passed|failed|error|^dask|SKIP|s (call|setup) " "$2" | tail -8
}
"$py" tests/opencl_parity.py --report-bytes $gpu $b/tools/lockstep $b/fixtures > "$out/report_bytes.txt" 2>&1 &
checks=$!
"${bench[@]}" --make-pairs > "$out/make_pairs.txt" 2>&1 &
pairs=$!
dask_tests gpu_workers "$out/dask_gpu_test.txt" ${GPU_TEST_TIMEOUT:-90}
wait $checks; echo "report bytes exit $?: $(tail -1 "$out/report_bytes.txt")"
grep FAIL "$out/report_bytes.txt" | head -5
wait $pairs || { echo "making the pairs failed:"; tail -5 "$out/make_pairs.txt"; }
rm -f "$out/make_pairs.txt"

# the bench: CPU workers, then GPU workers (one H200: the GPU workers share it)
t0=$SECONDS
"${bench[@]}" 2>&1 | tee "$out/dask_bench.txt"
echo "bench: $((SECONDS - t0)) s"

dask_tests "not gpu_workers" "$out/dask_tests.txt" ${TEST_TIMEOUT:-120}
