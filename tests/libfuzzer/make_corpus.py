#!/usr/bin/env python3
"""Writes the seed corpora (corpus/<target>/) and dictionaries (<target>.dict) of the fuzz
targets. Seeds are small, valid or nearly valid inputs: the fuzzer mutates from there. Run it
from anywhere; it rewrites only what it generates (regress/ holds the crashing inputs found,
kept by hand)."""
import json
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def planes(w, h, fmt, bpc, seed):
    cw, ch = {"420": ((w + 1) // 2, (h + 1) // 2), "422": ((w + 1) // 2, h), "444": (w, h),
              "400": (0, 0)}[fmt]
    n = w * h + 2 * cw * ch
    vals = [(seed * 31 + i * 7) % (1 << bpc) for i in range(n)]
    return b"".join(struct.pack("<H", v) for v in vals) if bpc > 8 else bytes(vals)


def y4m(w, h, tag, fmt, bpc, frames=2, extra="", frame_params=""):
    out = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{tag}{extra}\n".encode()
    for i in range(frames):
        out += f"FRAME{frame_params}\n".encode() + planes(w, h, fmt, bpc, i)
    return out


def y4m_seeds():
    put("y4m", "420_8x6", y4m(8, 6, "420jpeg", "420", 8))
    put("y4m", "420_odd_5x3", y4m(5, 3, "420", "420", 8, 3))
    put("y4m", "422p10_4x4", y4m(4, 4, "422p10", "422", 10))
    put("y4m", "444p12_3x2", y4m(3, 2, "444p12", "444", 12))
    put("y4m", "mono16_4x2", y4m(4, 2, "mono16", "400", 16))
    put("y4m", "mono_xtag", y4m(4, 2, "mono", "400", 8, extra=" XYSCSS=MONO"))
    put("y4m", "frame_params", y4m(4, 4, "420paldv", "420", 8, frame_params=" Ixyz"))
    put("y4m", "crlf_header", y4m(4, 4, "420mpeg2", "420", 8).replace(b"C420mpeg2\n", b"C420mpeg2\r\n", 1))
    put("y4m", "no_c_tag", b"YUV4MPEG2 W4 H2\nFRAME\n" + planes(4, 2, "420", 8, 0))
    put("y4m", "truncated", y4m(8, 6, "420jpeg", "420", 8)[:-5])
    put("y4m", "interlaced", b"YUV4MPEG2 W4 H2 It C420\nFRAME\n" + planes(4, 2, "420", 8, 0))
    put("y4m", "10bit_over", b"YUV4MPEG2 W2 H2 C420p10\nFRAME\n" + b"\xff\xff" * 6)


def yuv_seeds():
    # prefix: width, height (16-bit little-endian), format (0 unknown, 1 420, 2 422, 3 444,
    # 4 400), depth, mode (bit 0: luma only after the first frame, bit 1: skip the first)
    def seed(name, w, h, fmt, bpc, mode, frames, fmt_name):
        data = b"".join(planes(w, h, fmt_name, bpc, i) for i in range(frames))
        put("yuv", name, struct.pack("<HHBBB", w, h, fmt, bpc, mode) + data)
    seed("420_4x4", 4, 4, 1, 8, 0, 2, "420")
    seed("420_5x3_luma", 5, 3, 1, 8, 1, 3, "420")
    seed("422_10_skip", 4, 2, 2, 10, 2, 3, "422")
    seed("444_16", 2, 2, 3, 16, 3, 2, "444")
    seed("400_12", 3, 3, 4, 12, 0, 2, "400")
    put("yuv", "not_whole", struct.pack("<HHBBB", 4, 4, 1, 8, 0) + b"\x10" * 30)
    put("yuv", "y4m_with_raw", struct.pack("<HHBBB", 4, 4, 1, 8, 0) + y4m(4, 4, "420", "420", 8))


def option_names():
    names = set()
    for d in ("src/feature",):
        for f in os.listdir(os.path.join(ROOT, d)):
            if f.endswith((".c", ".h")):
                text = open(os.path.join(ROOT, d, f)).read()
                for table in re.findall(r"LsOption ls_\w*options\[\] = \{(.*?)\n\};", text, re.S):
                    names.update(re.findall(r'\.name = "(\w+)"', table))
                names.update(n for n in re.findall(r'\.name = "(speed_\w+)"', text))
    return sorted(names)


EXTRACTORS = ["psnr", "float_psnr", "psnr_hvs", "ssim", "float_ssim", "float_ms_ssim", "ciede",
              "motion", "float_motion", "vif", "float_vif", "adm", "float_adm", "cambi",
              "speed_chroma", "speed_temporal"]
FEATURE_SEEDS = [
    "psnr=enable_chroma=false:enable_apsnr=true:min_sse=0.5", "psnr=reduced_hbd_peak=true",
    "float_ssim=enable_db=true:clip_db=true:scale=1", "float_ms_ssim=enable_lcs=true",
    "motion=motion_force_zero=true", "motion=motion_five_frame_window=true:motion_max_val=1e-3",
    "float_motion=motion_fps_weight=2.0", "vif=vif_enhn_gain_limit=1.0:vif_skip_scale0=true",
    "float_vif=vif_kernelscale=0.5", "adm=adm_enhn_gain_limit=1.0:adm_csf_mode=1",
    "float_adm=adm_p_norm=3:debug=true", "cambi=window_size=63:topk=0.5:eotf=pq",
    "cambi=enc_width=160:enc_height=90:src_width=320:src_height=180",
    "speed_chroma=speed_kernelscale=0.5:speed_prescale=0.5:speed_prescale_method=bicubic",
    "speed_temporal=speed_sigma_nn=0.2:speed_nn_floor=0.1",
]


def feature_seeds():
    # first byte: frame size (bits 0-2), pixel format (3-4), depth (5-6), plain C (7)
    for i, name in enumerate(EXTRACTORS):
        put("feature", f"{name}", bytes([(3 + i % 3) | (i % 4) << 3]) + name.encode())
    for i, arg in enumerate(FEATURE_SEEDS):
        put("feature", f"opts_{i:02d}", bytes([(3 + i % 3) | (i % 2) << 5 | (i % 3 == 0) << 7]) +
            arg.encode())


def model_arg_seeds():
    seeds = ["version=vmaf_v0.6.1", "version=vmaf_b_v0.6.3:name=boot",
             "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.0",
             "version=vmaf_v0.6.1neg:disable_clip:enable_transform=true",
             "version=vmaf_v1.0.16_3d0h:speed_chroma.speed_kernelscale=0.5",
             "path=model.json:name=m:motion.motion_force_zero=true",
             "version=vmaf_float_v0.6.1:float_vif.vif_kernelscale=0.5\0version=vmaf_v0.6.1:name=b",
             "version=vmaf_float_b_v0.6.3:float_adm.adm_enhn_gain_limit=1.0"]
    for i, s in enumerate(seeds):
        put("model_arg", f"seed_{i:02d}", s)


MOTION_SVM = ("svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 3\nrho 2.67\n"
              "SV\n4 1:0.65734273 2:0.34681232 \n-4 2:0.49612229 \n2.5 1:0.9 \n")


def motion_model(model_type="LIBSVMNUSVR", **extra):
    md = {"model_type": model_type, "norm_type": "linear_rescale", "score_clip": [0.0, 100.0],
          "feature_names": ["VMAF_integer_feature_motion2_score", "VMAF_feature_motion2_score"],
          "slopes": [0.001, 0.1, 0.05], "intercepts": [-0.3092981927591963, 0.01, 0.02],
          "model": MOTION_SVM}
    md.update(extra)
    return {"param_dict": {}, "model_dict": md}


def model_json_seeds():
    put("model_json", "motion", json.dumps(motion_model(), indent=1))
    put("model_json", "transform", json.dumps(motion_model(
        score_transform={"enabled": True, "p0": 1.7, "p1": 1.05, "p2": -0.0015,
                         "knots": [[0, 0], [50, 55], [100, 100]], "out_lte_in": "true"},
        feature_opts_dicts=[{"motion_force_zero": True}, {"motion_fps_weight": 2.0}])))
    put("model_json", "collection", json.dumps(
        {str(i): motion_model("BOOTSTRAP_LIBSVMNUSVR") for i in range(3)}))
    put("model_json", "norm_none", json.dumps(motion_model(norm_type="none", score_clip=None)))
    v1 = json.load(open(os.path.join(ROOT, "models", "vmaf_v1.0.16_3d0h.json")))
    put("model_json", "vmaf_v1_3d0h", json.dumps(v1))


def write_dict(target, words):
    """libFuzzer's format: one quoted word a line; backslash, quote and non-printables as \\xHH."""
    def quote(word):
        return "".join(chr(b) if 0x20 <= b < 0x7f and chr(b) not in '"\\' else f"\\x{b:02X}"
                       for b in word.encode())
    with open(os.path.join(HERE, f"{target}.dict"), "w") as f:
        for w in words:
            f.write(f'"{quote(w)}"\n')


def dicts():
    write_dict("y4m", ["YUV4MPEG2 ", "YUV4MPEG", "FRAME\n", "FRAME ", " W", " H", " F25:1",
                       " F30000:1001", " Ip", " It", " I?", " A1:1", " A0:0", " C", "420jpeg",
                       "420paldv", "420mpeg2", "420p10", "420p16", "422", "422p12", "444",
                       "444p9", "mono", "mono10", " XYSCSS=420JPEG", "\r\n", "\n"])
    opts = option_names()
    write_dict("feature", EXTRACTORS + opts + ["=", ":", "true", "false", "0", "1", "-1", "0.5",
                                               "1e308", "nan", "inf", "pq", "bt1886",
                                               "bicubic", "lanczos4", "nearest", "bilinear"])
    versions = [f[:-5] for f in sorted(os.listdir(os.path.join(ROOT, "models"))) if f.endswith(".json")]
    write_dict("model_arg", ["version=", "path=", "name=", "disable_clip", "enable_transform",
                             "=true", ":"] + versions + [e + "." for e in EXTRACTORS] + opts)
    write_dict("model_json", ["model_dict", "model_type", "norm_type", "feature_names", "slopes",
                              "intercepts", "score_clip", "score_transform", "feature_opts_dicts",
                              "model", "param_dict", "enabled", "p0", "p1", "p2", "knots",
                              "out_lte_in", "out_gte_in", "LIBSVMNUSVR", "BOOTSTRAP_LIBSVMNUSVR",
                              "RESIDUEBOOTSTRAP_LIBSVMNUSVR", "linear_rescale", "none",
                              "svm_type nu_svr\n", "kernel_type rbf\n", "kernel_type linear\n",
                              "gamma ", "nr_class 2\n", "total_sv ", "rho ", "SV\n", " 1:",
                              "VMAF_integer_feature_motion2_score", "VMAF_feature_motion2_score",
                              "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_vif_scale0_score",
                              "chroma_correction", "0", "1", "null", "true", "false", "[]", "{}"])
    long_opts = re.findall(r'\{ "([a-z_-]+)", (?:required|no)_argument',
                           open(os.path.join(ROOT, "tools", "cli_parse.c")).read())
    write_dict("cli", ["--" + o for o in long_opts] +
               ["-r", "-d", "-w", "-h", "-p", "-b", "-m", "-o", "-n", "-q", "-v", "-c", "\0",
                "420", "422", "444", "400", "10", "-", "v6.0", "v1.0", "max", "legacy", "17",
                "auto", "cuda", "opencl", "cpu", "NVIDIA", "version=vmaf_v0.6.1", "psnr",
                "psnr=enable_chroma=false"])


def cli_seeds():
    seeds = [["-r", "a.y4m", "-d", "b.y4m"],
             ["-r", "a.y4m", "-d", "-", "-n", "--feature", "psnr=enable_apsnr=true", "--json", "-o", "x.json"],
             ["-r", "a.yuv", "-d", "b.yuv", "-w", "576", "-h", "324", "-p", "420", "-b", "10", "--threads", "2"],
             ["-r", "a", "-d", "b", "--aom_ctc", "v6.0", "--precision", "max", "--csv"],
             ["-r", "a", "-d", "b", "-m", "version=vmaf_v0.6.1:name=x", "-m", "path=m.json:disable_clip",
              "--frame_cnt", "5", "--frame_skip_ref", "1", "--subsample", "2"],
             ["-r", "a", "-d", "b", "--backend", "opencl", "--gpu", "pthread", "--parity", "cpu", "-c", "255"],
             ["--nflx_ctc", "v1.0", "-r", "a", "-d", "b", "-q", "--sub", "--gpumask", "1"],
             ["--help"], ["-v"]]
    for i, argv in enumerate(seeds):
        put("cli", f"seed_{i:02d}", "\0".join(argv))


if __name__ == "__main__":
    y4m_seeds()
    yuv_seeds()
    feature_seeds()
    model_arg_seeds()
    model_json_seeds()
    cli_seeds()
    dicts()
