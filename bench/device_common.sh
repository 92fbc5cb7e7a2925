# Helpers of the device scripts (bench/device_*.sh source this from the repository root). They
# read b (the build folder: its tools/lockstep-gen), gen (a scratch folder), jobs, r and d.

# make_pair W H BITS N REF DIS: an N-frame 4:2:0 pair made of 20 generated frames repeated
# (generating every frame would cost minutes on the device)
make_pair() {
  local w=$1 h=$2 bits=$3 n=$4 r=$5 d=$6
  $b/tools/lockstep-gen -w $w -h $h -p 420 -b $bits -n 20 $gen/g_ref.y4m $gen/g_dis.y4m
  for pair in "g_ref.y4m $r" "g_dis.y4m $d"; do
    set -- $pair
    local hdr=$(head -1 $gen/$1 | wc -c)
    { cat $gen/$1; for i in $(seq 2 $((n / 20))); do tail -c +$((hdr + 1)) $gen/$1; done; } > $2
  done
  rm -f $gen/g_ref.y4m $gen/g_dis.y4m
}

# bench_one CLI BACKEND FRAMES REPS [FEATURE ARGS...]: the best of REPS whole-process seconds of
# CLI on the pair $r, $d (the first FRAMES frames, --threads $jobs)
bench_one() {
  python3 - "$1" "$r" "$d" "$2" "$jobs" "$3" "$4" "${@:5}" <<'PY'
import subprocess, sys, time
cli, r, d, backend, jobs, t, reps = sys.argv[1:8]
best = None
for _ in range(int(reps)):
    s = time.perf_counter()
    subprocess.run([cli, "-r", r, "-d", d, "--backend", backend, "--threads", jobs, "-q",
                    "--frame_cnt", t, "-o", "/dev/null"] + sys.argv[8:], check=True)
    e = time.perf_counter() - s
    best = e if best is None or e < best else best
print(f"{best:.4f}")
PY
}
