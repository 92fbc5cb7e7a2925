#!/usr/bin/env python3
"""FFmpeg's libvmaf filter running on lockstep: a real client, built from Debian's source.

Installs the build into a fresh prefix, fetches FFmpeg's source package (`apt-get source
ffmpeg`, 5.1 on Debian 12) through a private apt configuration that adds deb-src entries for the
system's Debian sources (nothing of the system's apt state is touched), configures a minimal
FFmpeg -- the libvmaf filter, Y4M input, the null output, nothing else -- against the installed
lockstep through PKG_CONFIG_PATH, builds it, and runs
    ffmpeg -i dis.y4m -i ref.y4m -lavfi libvmaf=log_fmt=json:log_path=... -f null -
on fixtures with several filter options. Every per-frame and pooled value of FFmpeg's log must
equal the lockstep CLI's on the same files:
  * as FFmpeg prints it by default (libvmaf's %.6f/%.16f rule): the same text as the CLI's report,
    and each value the rule applied to the CLI's --precision max value;
  * with LOCKSTEP_PRECISION=max (the library then writes %.17g): the CLI's --precision max report,
    bit for bit.
Only 8-bit fixtures: FFmpeg 5.1's filter copies w bytes per row (not w samples), so its 10-bit
pictures are half garbage whichever library scores them (fixed in later FFmpeg).

Exit 77 (ctest: skipped) when the source cannot be fetched (no network, no Debian sources).
Ends with the line `N passed, N failed`.
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    """detail: shown when the check fails"""
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail and not ok else ''}", flush=True)
    return ok


def sh(cmd, cwd=None, env=None, timeout=None):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


# ---- fetching the source ------------------------------------------------------------------

def debian_sources():
    """The system's Debian apt entries as deb-src: (one-line lines, deb822 stanzas)."""
    lines, stanzas = [], []
    one_line = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list"))
    for path in one_line:
        try:
            text = open(path).read()
        except OSError:
            continue
        for l in text.splitlines():
            l = l.strip()
            if re.match(r"deb(-src)?\s", l) and "debian" in l:
                lines.append(re.sub(r"^deb(-src)?\s", "deb-src ", l))
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        try:
            text = open(path).read()
        except OSError:
            continue
        for stanza in re.split(r"\n\s*\n", text):
            fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
            if "deb" in fields.get("Types", "").split() and "debian" in fields.get("URIs", ""):
                stanzas.append(re.sub(r"^Types:.*$", "Types: deb-src", stanza.strip(), flags=re.M))
    if not lines and not stanzas:
        keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
        signed = f" [signed-by={keyring}]" if os.path.exists(keyring) else ""
        lines = [f"deb-src{signed} http://deb.debian.org/debian bookworm main",
                 f"deb-src{signed} http://deb.debian.org/debian-security bookworm-security main"]
    return lines, stanzas


def fetch_source(work):
    """apt-get source ffmpeg into work/src; returns (source dir, None) or (None, why)."""
    apt = os.path.join(work, "apt")
    parts = os.path.join(apt, "sources.list.d")
    os.makedirs(parts)
    for d in ("lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(apt, d))
    lines, stanzas = debian_sources()
    with open(os.path.join(apt, "sources.list"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if stanzas:
        with open(os.path.join(parts, "debian-src.sources"), "w") as f:
            f.write("\n\n".join(stanzas) + "\n")
    opts = ["-o", f"Dir::Etc::SourceList={apt}/sources.list", "-o", f"Dir::Etc::SourceParts={parts}",
            "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::Cache={apt}/cache",
            "-o", "Acquire::Retries=2", "-o", "Acquire::http::Timeout=30"]
    if os.geteuid() == 0:
        opts += ["-o", "APT::Sandbox::User=root"]  # the private folders are root's
    if not shutil.which("dpkg-source"):
        return None, "dpkg-source not found (apt-get install dpkg-dev)"
    p = sh(["apt-get"] + opts + ["update"], timeout=600)
    if p.returncode:
        return None, f"apt-get update failed: {(p.stderr or p.stdout).strip()[-300:]}"
    src = os.path.join(work, "src")
    os.makedirs(src)
    p = sh(["apt-get"] + opts + ["source", "ffmpeg"], cwd=src, timeout=900)
    dirs = [d for d in glob.glob(os.path.join(src, "ffmpeg-*")) if os.path.isdir(d)]
    if p.returncode or not dirs:
        return None, f"apt-get source ffmpeg failed: {(p.stderr or p.stdout).strip()[-300:]}"
    return dirs[0], None


# ---- comparing ----------------------------------------------------------------------------

def libvmaf_format(v):
    """libvmaf's default score format (pooling_and_output.md §4.1): %.6f, or %.16f when the
    fraction has more than six leading zeros. Python's % rounds correctly, as glibc's printf."""
    if v is None:
        return None
    x = abs(v)
    f = x - float(int(x)) if math.isfinite(x) and x < 2147483647.0 else 0.0
    z = 0
    if math.isfinite(x) and x < 2147483647.0:
        while f < 1.0 and f != 0.0:
            f *= 10.0
            z += 1
    return ("%.16f" if z > 6 else "%.6f") % v


def load_text_values(path):
    """The report with every number kept as the text written."""
    doc = json.load(open(path), parse_float=str, parse_int=str)
    doc.pop("fps", None)
    return doc


def values(doc):
    """(where, text) for every per-frame, pooled and aggregate value."""
    out = []
    for fr in doc.get("frames", []):
        out += [(f"frame {fr['frameNum']} {k}", v) for k, v in fr["metrics"].items()]
    for k, pools in doc.get("pooled_metrics", {}).items():
        out += [(f"pooled {k} {m}", v) for m, v in pools.items()]
    out += [(f"aggregate {k}", v) for k, v in doc.get("aggregate_metrics", {}).items()]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--models", required=True, help="the model JSON files (models/ of the source tree)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--source", help="an unpacked FFmpeg source tree (default: apt-get source ffmpeg)")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    prefix = os.path.join(a.work, "prefix")
    p = sh(["cmake", "--install", a.build, "--prefix", prefix])
    if not check("cmake --install", p.returncode == 0, p.stderr.strip()):
        return 1
    pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig", "libvmaf.pc"), recursive=True)
    libdir = os.path.dirname(os.path.dirname(pcs[0]))
    cli = os.path.join(prefix, "bin", "lockstep")

    t0 = time.monotonic()
    src, why = (a.source, None) if a.source else fetch_source(a.work)
    t_fetch = time.monotonic() - t0
    if not src:
        print(f"SKIP: FFmpeg's source could not be fetched: {why}")
        return 77
    version = re.sub(r"^ffmpeg-", "", os.path.basename(src.rstrip("/")))
    check(f"FFmpeg {version} source ({t_fetch:.1f} s)", os.path.exists(os.path.join(src, "libavfilter", "vf_libvmaf.c")))

    # the filter and what its command line needs, nothing else
    build = os.path.join(a.work, "ffmpeg-build")
    os.makedirs(build)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    configure = [os.path.join(src, "configure"), "--disable-everything", "--disable-autodetect", "--disable-doc",
                 "--disable-debug", "--disable-programs", "--enable-ffmpeg", "--disable-avdevice",
                 "--disable-swresample", "--disable-swscale", "--disable-postproc", "--disable-network",
                 "--disable-x86asm", "--enable-libvmaf", "--enable-filter=libvmaf", "--enable-demuxer=yuv4mpegpipe",
                 "--enable-decoder=rawvideo", "--enable-muxer=null", "--enable-encoder=wrapped_avframe",
                 "--enable-protocol=file,pipe", f"--extra-ldflags=-Wl,-rpath,{libdir}"]
    t0 = time.monotonic()
    p = sh(["nice", "-n", "19"] + configure, cwd=build, env=env)
    t_conf = time.monotonic() - t0
    if not check(f"configure --enable-libvmaf against the installed lockstep ({t_conf:.1f} s)", p.returncode == 0,
                 (p.stdout + p.stderr).strip()[-1500:]):
        cfg_log = os.path.join(build, "ffbuild", "config.log")
        if os.path.exists(cfg_log):
            print(open(cfg_log).read()[-3000:])
        return 1
    t0 = time.monotonic()
    p = sh(["nice", "-n", "19", "make", f"-j{a.jobs}"], cwd=build, env=env)
    t_make = time.monotonic() - t0
    ffmpeg = os.path.join(build, "ffmpeg")
    if not check(f"make -j{a.jobs} ({t_make:.1f} s)", p.returncode == 0 and os.path.exists(ffmpeg),
                 (p.stdout + p.stderr).strip()[-1500:]):
        return 1
    print(f"FFmpeg {version}: source {t_fetch:.1f} s, configure {t_conf:.1f} s, build {t_make:.1f} s (make -j{a.jobs})")
    libs = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", sh(["readelf", "-d", ffmpeg]).stdout)
    lib = next((l for l in libs if "vmaf" in l or "lockstep" in l), None)
    soname_build = os.path.exists(os.path.join(libdir, "libvmaf.so.3"))
    check(f"ffmpeg links {lib}", lib == ("libvmaf.so.3" if soname_build else "liblockstep.so.0"), str(libs))

    fx = lambda name: os.path.join(a.fixtures, name)
    cases = [  # name, fixture, libvmaf filter options, the CLI's equivalent, the models' names
        ("default model", "p01", "", [], ["vmaf"]),
        ("feature=name=psnr|name=float_ssim", "p01", "feature=name=psnr|name=float_ssim",
         ["--feature", "psnr", "--feature", "float_ssim"], ["vmaf"]),
        ("model=version=vmaf_v0.6.1neg", "p01", "model=version=vmaf_v0.6.1neg", ["-m", "version=vmaf_v0.6.1neg"], ["vmaf"]),
        ("n_threads=2", "p01", "n_threads=2", ["--threads", "2"], ["vmaf"]),
        ("model=path=... (vmaf_model_load_from_path)", "p01", f"model=path={a.models}/vmaf_v0.6.1neg.json",
         ["-m", f"path={a.models}/vmaf_v0.6.1neg.json"], ["vmaf"]),
        ("feature overloads (vmaf_model_feature_overload)", "p01",
         r"model=version=vmaf_v0.6.1\\:vif.vif_enhn_gain_limit=1.0\\:adm.adm_enhn_gain_limit=1.0",
         ["-m", "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.0"], ["vmaf"]),
        ("two models, named", "p01", r"model=version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_v0.6.1neg\\:name=vmaf_neg",
         ["-m", "version=vmaf_v0.6.1:name=vmaf", "-m", "version=vmaf_v0.6.1neg:name=vmaf_neg"], ["vmaf", "vmaf_neg"]),
        ("4:4:4 with psnr_hvs and ciede", "p05", "feature=name=psnr_hvs|name=ciede",
         ["--feature", "psnr_hvs", "--feature", "ciede"], ["vmaf"]),
        ("odd size 1283x721", "p11a", "feature=name=float_ms_ssim|name=cambi",
         ["--feature", "float_ms_ssim", "--feature", "cambi"], ["vmaf"]),
        ("1080p, n_threads=2", "p09", "n_threads=2:feature=name=float_vif|name=float_adm",
         ["--threads", "2", "--feature", "float_vif", "--feature", "float_adm"], ["vmaf"]),
        ("scene cut, n_subsample=3", "p12", "n_subsample=3", ["--subsample", "3"], ["vmaf"]),
    ]
    compared = 0
    for case, (name, fixture, opts, cli_args, models) in enumerate(cases):
        ref, dis = fx(f"{fixture}_ref.y4m"), fx(f"{fixture}_dis.y4m")
        got = {}
        for precision in ("default", "max"):
            log = os.path.join(a.work, f"ffmpeg_{case}_{fixture}_{precision}.json")
            filt = "libvmaf=" + ":".join(o for o in (opts, "log_fmt=json", f"log_path={log}") if o)
            run_env = dict(os.environ)
            run_env.pop("LOCKSTEP_PRECISION", None)
            if precision == "max":
                run_env["LOCKSTEP_PRECISION"] = "max"
            cmd = [ffmpeg, "-nostdin", "-hide_banner", "-i", dis, "-i", ref, "-lavfi", filt, "-f", "null", "-"]
            p = sh(cmd, env=run_env, timeout=600)
            if p.returncode or not os.path.exists(log):
                check(f"{name}: ffmpeg runs", False, (p.stdout + p.stderr).strip()[-800:])
                break
            score = re.findall(r"VMAF score: (\S+)", p.stderr)
            got[precision] = (load_text_values(log), score)
            if name == "default model" and precision == "default":
                print("$ " + " ".join(cmd))
                print("\n".join(p.stderr.strip().splitlines()[-2:]))
            out = os.path.join(a.work, f"cli_{case}_{fixture}_{precision}.json")
            args = [cli, "-r", ref, "-d", dis, "--json", "-o", out, "-q"] + cli_args
            if precision == "max":
                args += ["--precision", "max"]
            p = sh(args)
            if p.returncode:
                check(f"{name}: lockstep CLI runs", False, p.stderr.strip())
                break
            got[precision + "_cli"] = load_text_values(out)
        if len(got) != 4:
            continue
        ff_default, ff_max, cli_default, cli_max = (got["default"][0], got["max"][0], got["default_cli"],
                                                     got["max_cli"])
        n = len(values(cli_max))
        frames = len(cli_max["frames"])
        check(f"{name} ({fixture}, {frames} frames): FFmpeg's log with LOCKSTEP_PRECISION=max is the CLI's "
              f"--precision max report, {n} values bit for bit", ff_max == cli_max and n > 0,
              str([(w, v, dict(values(cli_max)).get(w)) for w, v in values(ff_max) if dict(values(cli_max)).get(w) != v][:5]))
        rule = [(w, libvmaf_format(None if v is None else float(v))) for w, v in values(cli_max)]
        check(f"{name}: FFmpeg's default log is the CLI's report, and each of its {n} values is libvmaf's "
              f"format of the CLI's exact value", ff_default == cli_default and values(ff_default) == rule,
              str([x for x in zip(values(ff_default), rule) if x[0] != x[1]][:5]))
        compared += n
        # FFmpeg logs "VMAF score: %f" per model: the pooled mean
        means = ["%f" % float(cli_max["pooled_metrics"][m]["mean"]) for m in models]
        check(f"{name}: FFmpeg's 'VMAF score' lines are the CLI's pooled means", got["default"][1] == means,
              f"{got['default'][1]} vs {means}")

    # the XML writer through FFmpeg too
    log = os.path.join(a.work, "ffmpeg.xml")
    p = sh([ffmpeg, "-nostdin", "-i", fx("p01_dis.y4m"), "-i", fx("p01_ref.y4m"), "-lavfi",
            f"libvmaf=log_fmt=xml:log_path={log}", "-f", "null", "-"])
    out = os.path.join(a.work, "cli.xml")
    q = sh([cli, "-r", fx("p01_ref.y4m"), "-d", fx("p01_dis.y4m"), "--xml", "-o", out, "-q"])
    strip = lambda path: re.sub(r'<fyi fps="[^"]*" />', "", open(path).read()) if os.path.exists(path) else None
    check("log_fmt=xml: the CLI's XML report (fps aside)", p.returncode == 0 and q.returncode == 0 and
          strip(log) == strip(out) and strip(out).count("<frame ") == 48, p.stderr[-300:] + q.stderr)

    print(f"{compared} values compared between FFmpeg's libvmaf filter and the lockstep CLI (each at both precisions)")
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
