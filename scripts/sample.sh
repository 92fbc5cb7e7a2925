#!/usr/bin/env bash
# Builds lockstep and scores a built-in sample (a generated 1280x720 8-bit 4:2:0 pair, 24 frames)
# with VMAF v0.6.1, the built-in default model, and the other features.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja >/dev/null
ninja -C build
mkdir -p build/sample
build/tools/lockstep-gen -w 1280 -h 720 -p 420 -b 8 -n 24 build/sample/ref.y4m build/sample/dis.y4m
build/tools/lockstep -r build/sample/ref.y4m -d build/sample/dis.y4m \
  --feature psnr --feature float_psnr --feature psnr_hvs --feature float_ssim --feature float_motion \
  --threads 2 --json -o build/sample/report.json
echo "report: build/sample/report.json"
python3 - <<'PY'
import json
r = json.load(open("build/sample/report.json"))
for name, stats in r["pooled_metrics"].items():
    print(f"{name:>14}: mean {stats['mean']:.6f}  min {stats['min']:.6f}  max {stats['max']:.6f}")
PY
