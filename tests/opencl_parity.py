#!/usr/bin/env python3
"""`lockstep --parity opencl` (the CPU against the OpenCL twins, every value compared by its bits)
on every public fixture: the integer VMAF models (vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_b_v0.6.3:
vif, adm and motion on OpenCL), the float model vmaf_float_v0.6.1 (float_vif, float_adm and
float_motion on OpenCL) and the other twins (psnr, psnr_hvs, float_motion, ssim, float_ssim),
then vif/adm/motion/float_motion/ssim/float_ssim/float_vif/float_adm with every option of their
tables set away from its default on a few fixtures (float_vif's vif_prescale and float_adm's
adm_p_norm other than 3 are left to the CPU by the twins, which the run logs). Where the CPU refuses
an input (frames too small for the pyramids), the OpenCL run must refuse it with the same text.

usage: opencl_parity.py CLI FIXTURE_DIR [MAX_FRAMES]
Frames per fixture are capped at MAX_FRAMES (default 2; the option runs, on small fixtures, at
twice that, for motion's five-frame window) to keep CI on PoCL short; `0` scores every frame. Exit 77 (skip) with the reason when no OpenCL platform or device answers."""
import os
import re
import subprocess
import sys
import time

MODELS = ["version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg", "version=vmaf_b_v0.6.3",
          "version=vmaf_float_v0.6.1"]
TWINS = ["--feature", "psnr=enable_apsnr=true:enable_mse=true", "--feature", "psnr_hvs",
         "--feature", "float_motion", "--feature", "ssim", "--feature", "float_ssim"]
# every option of the vif, adm and motion tables, away from its default
OPTION_SETS = [
    ["--feature", "adm=debug=true:adm_enhn_gain_limit=1.2:adm_csf_mode=1:adm_csf_scale=0.001:"
                  "adm_csf_diag_scale=0.001:adm_skip_aim=true",
     "--feature", "vif=debug=true:vif_enhn_gain_limit=1.3:vif_skip_scale0=true",
     "--feature", "motion=motion_five_frame_window=true:motion_moving_average=true:debug=true",
     "--feature", "float_motion=debug=true:motion_add_uv=true:motion_filter_size=3:"
                  "motion_fps_weight=1.5", "--feature", "ssim=enable_db=true:clip_db=true",
     "--feature", "float_ssim=enable_lcs=true:enable_db=true:clip_db=true:scale=2",
     "--feature", "float_vif=debug=true:vif_enhn_gain_limit=1.3:vif_skip_scale0=true:"
                  "vif_kernelscale=0.5:vif_scale1_min_val=0.9",
     "--feature", "float_adm=debug=true:adm_enhn_gain_limit=1.2:adm_csf_mode=1:"
                  "adm_csf_scale=0.001:adm_csf_diag_scale=0.001:adm_skip_aim_scale=1"],
    ["--feature", "adm=adm_skip_scale0=true:adm_csf_mode=2:adm_noise_weight=0.05:"
                  "adm_dlm_weight=0.6:adm_min_val=0.1:adm_csf_scale=1.1:adm_csf_diag_scale=0.9",
     "--feature", "motion=motion_force_zero=true", "--feature", "float_motion=motion_force_zero=true",
     "--feature", "float_vif=debug=true:vif_kernelscale=2:vif_sigma_nsq=0.5:"
                  "vif_scale2_min_val=0.95:vif_scale3_min_val=0.97",
     "--feature", "float_adm=debug=true:adm_skip_scale0=true:adm_csf_mode=2:"
                  "adm_noise_weight=0.05:adm_dlm_weight=0.6:adm_min_val=0.1:adm_bypass_cm=1:"
                  "adm_f1s1=0.5:adm_f2s2=0.7"],
    ["--feature", "adm=adm_csf_mode=3:adm_norm_view_dist=1.5:adm_ref_display_height=2160",
     "--feature", "motion=motion_blend_factor=0.5:motion_blend_offset=10:motion_fps_weight=2:"
                  "motion_max_val=5",
     "--feature", "float_motion=motion_add_scale1=true:motion_filter_size=1:"
                  "motion_blend_factor=0.5:motion_blend_offset=10:motion_max_val=5",
     "--feature", "float_vif=vif_kernelscale=3.71134:vif_sigma_nsq=5",
     "--feature", "float_adm=adm_adm3_apply_hm=true:adm_csf_mode=3:adm_norm_view_dist=1.5:"
                  "adm_ref_display_height=2160:adm_f1s0=0.9:adm_f2s3=0.2"],
]
OPTION_FIXTURES = ["p01", "p02", "p03"]  # 8, 10 and 12 bit
NO_DEVICE = re.compile(r"no OpenCL (platform|device)|cannot load libOpenCL|libOpenCL\.so\.1 lacks")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def refusal(stderr):
    """The error line of a run (warnings, e.g. a feature left to the CPU, aside)."""
    lines = [x for x in stderr.strip().splitlines() if not x.startswith("lockstep WARNING")]
    return lines[-1] if lines else ""


def main():
    cli, fixtures = sys.argv[1], sys.argv[2]
    max_frames = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    ids = sorted(f[:-len("_ref.y4m")] for f in os.listdir(fixtures) if f.endswith("_ref.y4m"))
    if not ids:
        print("FAIL: no fixtures in", fixtures)
        return 1
    probe = run([cli, "-r", os.path.join(fixtures, ids[0] + "_ref.y4m"),
                 "-d", os.path.join(fixtures, ids[0] + "_dis.y4m"), "-n", "--feature", "psnr",
                 "--backend", "opencl", "--frame_cnt", "1", "-q", "-o", os.devnull])
    if probe.returncode != 0:
        reason = (probe.stderr.strip().splitlines() or ["(no message)"])[-1]
        if NO_DEVICE.search(probe.stderr):
            print("SKIP: no OpenCL device:", reason)
            return 77
        print("FAIL: the OpenCL probe run failed:", reason)
        return 1
    cap = ["--frame_cnt", str(max_frames)] if max_frames else []
    option_cap = ["--frame_cnt", str(2 * max_frames)] if max_frames else []
    failed = runs = values = refusals = 0
    start = time.time()
    jobs = [(i, ["-m", m] + cap) for i in ids for m in MODELS]
    jobs += [(i, ["-n"] + TWINS + cap) for i in ids]
    jobs += [(i, ["-n"] + o + option_cap) for i in OPTION_FIXTURES if i in ids for o in OPTION_SETS]
    for fid, args in jobs:
        pair = ["-r", os.path.join(fixtures, fid + "_ref.y4m"),
                "-d", os.path.join(fixtures, fid + "_dis.y4m")]
        label = f"{fid} {' '.join(args)}"
        r = run([cli] + pair + args + ["--parity", "opencl", "-q"])
        runs += 1
        last = (r.stdout.strip().splitlines() or [""])[-1]
        m = re.match(r"parity bit-identical: (\d+) values compared, 0 differ", last)
        if r.returncode == 0 and m:
            values += int(m.group(1))
            continue
        # a refusal: the CPU's and the OpenCL run's messages and exit codes must agree
        cpu = run([cli] + pair + args + ["-q", "-o", os.devnull])
        gpu = run([cli] + pair + args + ["--backend", "opencl", "-q", "-o", os.devnull])
        if cpu.returncode != 0 and cpu.returncode == gpu.returncode and \
                refusal(cpu.stderr) and refusal(cpu.stderr) == refusal(gpu.stderr):
            refusals += 1
            continue
        failed += 1
        print(f"FAIL {label}: exit {r.returncode}: {last or r.stderr.strip()[-300:]}")
        if r.returncode == 3:
            print(r.stdout[-2000:])
        elif cpu.returncode != 0:
            print(f"     cpu: {cpu.stderr.strip()[-200:]}\n     opencl: {gpu.stderr.strip()[-200:]}")
    print(f"{runs} parity runs on {len(ids)} fixtures ({max_frames or 'all'} frames at most): "
          f"{values} values compared, {failed} runs with differences or errors, {refusals} "
          f"refusals identical on both ({time.time() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
