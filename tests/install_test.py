#!/usr/bin/env python3
"""cmake --install, as a user of the library meets it.

Installs the build into a fresh prefix and checks: the files (CLI, liblockstep.so with its
soname, liblockstep.a, both header trees, lockstep.pc and libvmaf.pc, the licences, libvmaf.so.3
when built); that the shared libraries export the public API and nothing else (nm -D: every
defined symbol is vmaf_* or lockstep_*, and each function the installed headers declare is
there); pkg-config's answers; and a libvmaf client (install_client.c) built four ways --
<libvmaf.h> through libvmaf.pc, <libvmaf/libvmaf.h> through lockstep.pc, statically, and against
libvmaf.so.3 -- giving the same scores as each other and a report equal to the installed CLI's
on the same frames. Ends with the line `N passed, N failed`.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    """detail: shown when the check fails"""
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{(': ' + detail) if detail and not ok else ''}", flush=True)
    return ok


def sh(cmd, env=None, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)


def dynamic_symbols(lib):
    out = sh(["nm", "-D", "--defined-only", lib]).stdout.split("\n")
    return sorted(l.split()[-1] for l in out if l.strip())


def declared_functions(include_dir):
    text = " ".join(open(h).read() for h in glob.glob(os.path.join(include_dir, "lockstep", "*.h")))
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return sorted(set(re.findall(r"\b((?:vmaf|lockstep)_\w+)\s*\(", text)))


def needed(binary):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", sh(["readelf", "-d", binary]).stdout)


def soname(lib):
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.+?)\]", sh(["readelf", "-d", lib]).stdout)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="", help="extra compiler flags (the sanitizers of the build)")
    ap.add_argument("--version", required=True, help="lockstep's version (project version)")
    ap.add_argument("--libvmaf-soname", action="store_true", help="libvmaf.so.3 is built too")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    prefix = os.path.join(a.work, "prefix")
    p = sh(["cmake", "--install", a.build, "--prefix", prefix])
    if not check("cmake --install", p.returncode == 0, p.stderr.strip()):
        return 1
    pcs = glob.glob(os.path.join(prefix, "**", "pkgconfig", "lockstep.pc"), recursive=True)
    libdir = os.path.dirname(os.path.dirname(pcs[0])) if pcs else os.path.join(prefix, "lib")
    inc = os.path.join(prefix, "include")
    major = a.version.split(".")[0]
    want = [os.path.join(prefix, "bin", "lockstep"), os.path.join(libdir, "liblockstep.a"),
            os.path.join(libdir, "liblockstep.so"), os.path.join(libdir, f"liblockstep.so.{major}"),
            os.path.join(libdir, f"liblockstep.so.{a.version}"),
            os.path.join(libdir, "pkgconfig", "lockstep.pc"), os.path.join(libdir, "pkgconfig", "libvmaf.pc"),
            os.path.join(prefix, "share", "doc", "lockstep", "LICENSE"),
            os.path.join(prefix, "share", "doc", "lockstep", "LICENSE.models")]
    want += [os.path.join(inc, "lockstep", h) for h in ("lockstep.h", "feature.h", "model.h", "picture.h")]
    want += [os.path.join(inc, "libvmaf", h) for h in ("libvmaf.h", "feature.h", "model.h", "picture.h", "version.h")]
    if a.libvmaf_soname:
        want += [os.path.join(libdir, n) for n in ("libvmaf.so", "libvmaf.so.3", "libvmaf.so.3.2.0")]
    missing = [w for w in want if not os.path.exists(w)]
    check(f"installed: {len(want)} files (CLI, libraries, headers, .pc, licences)", not missing, str(missing))

    libs = [os.path.join(libdir, f"liblockstep.so.{major}")]
    sonames = [f"liblockstep.so.{major}"]
    if a.libvmaf_soname:
        libs.append(os.path.join(libdir, "libvmaf.so.3"))
        sonames.append("libvmaf.so.3")
    api = declared_functions(inc)
    for lib, name in zip(libs, sonames):
        if not os.path.exists(lib):
            continue
        check(f"{os.path.basename(lib)}: soname {name}", soname(lib) == name, str(soname(lib)))
        syms = dynamic_symbols(lib)
        foreign = [s for s in syms if not re.match(r"(vmaf|lockstep)_", s)]
        check(f"{os.path.basename(lib)}: {len(syms)} exported symbols, all vmaf_* or lockstep_*",
              syms and not foreign, f"not public: {foreign[:20]}")
        check(f"{os.path.basename(lib)}: exports exactly the {len(api)} functions of the headers",
              syms == api, f"undeclared: {sorted(set(syms) - set(api))}, missing: {sorted(set(api) - set(syms))}")

    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    pc = lambda *args: sh(["pkg-config"] + list(args), env=env)
    check("pkg-config libvmaf: version 3.2.0, satisfies libvmaf >= 2.0.0 (FFmpeg's check)",
          pc("--modversion", "libvmaf").stdout.strip() == "3.2.0" and pc("--atleast-version=2.0.0", "libvmaf").returncode == 0
          and pc("--exists", "libvmaf >= 2.0.0").returncode == 0, pc("--modversion", "libvmaf").stderr)
    check(f"pkg-config lockstep: version {a.version}", pc("--modversion", "lockstep").stdout.strip() == a.version)
    cflags = pc("--cflags", "libvmaf").stdout.split()
    check("libvmaf.pc: both include directories (<libvmaf.h> and <libvmaf/libvmaf.h>)",
          f"-I{inc}" in cflags and f"-I{os.path.join(inc, 'libvmaf')}" in cflags, str(cflags))

    # the client, four ways
    client = os.path.join(a.source, "tests", "install_client.c")
    extra = a.cflags.split()
    shared = f"liblockstep.so.{major}"
    builds = [  # what, flags, the library it must need (None: linked statically)
        ("<libvmaf.h>, pkg-config libvmaf", ["-DLOCKSTEP_SHORT_INCLUDE"] + pc("--cflags", "--libs", "libvmaf").stdout.split(),
         "libvmaf.so.3" if a.libvmaf_soname else shared),
        ("<libvmaf/libvmaf.h>, pkg-config lockstep", pc("--cflags", "--libs", "lockstep").stdout.split(), shared),
        ("static, pkg-config --static lockstep", [f if f != "-llockstep" else os.path.join(libdir, "liblockstep.a")
                                                  for f in pc("--cflags", "--static", "--libs", "lockstep").stdout.split()], None),
    ]
    if a.libvmaf_soname:
        builds.append(("libvmaf.so.3 (-lvmaf)", ["-DLOCKSTEP_SHORT_INCLUDE", f"-I{os.path.join(inc, 'libvmaf')}",
                                                 f"-L{libdir}", "-lvmaf"], "libvmaf.so.3"))
    # the reports at %.17g (LOCKSTEP_PRECISION: a libvmaf client cannot ask for a format)
    run_env = dict(os.environ, LOCKSTEP_PRECISION="max")
    runs = {}
    for i, (what, flags, want_lib) in enumerate(builds):
        exe = os.path.join(a.work, f"client{i}")
        p = sh([a.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", exe, client] + extra + flags +
               [f"-Wl,-rpath,{libdir}"])
        if not check(f"client {what}: builds without a warning", p.returncode == 0, p.stderr.strip()[-800:]):
            continue
        libs_needed = needed(exe)
        ok = (want_lib in libs_needed) if want_lib else not any("lockstep" in n or "vmaf" in n for n in libs_needed)
        check(f"client {what}: links {want_lib or 'nothing of lockstep dynamically'}", ok, str(libs_needed))
        out_prefix, report = os.path.join(a.work, f"frames{i}"), os.path.join(a.work, f"report{i}.json")
        p = sh([exe, out_prefix, report], env=run_env)
        if check(f"client {what}: runs", p.returncode == 0, p.stderr.strip()[-800:]):
            r = json.load(open(report))
            r.pop("fps")
            runs[what] = (p.stdout, r, out_prefix)
    if not runs:
        return 1
    (first, (stdout0, report0, frames0)) = next(iter(runs.items()))
    check(f"the {len(runs)} clients print the same scores and write the same report",
          all(o == stdout0 and r == report0 for o, r, _ in runs.values()), stdout0[:300])
    check("vmaf_version() and the report say lockstep", f"version lockstep {a.version}\n" in stdout0 and
          report0["version"] == f"lockstep {a.version}", stdout0.splitlines()[0])

    # the installed CLI on the client's frames: the same report, value for value
    cli_report = os.path.join(a.work, "cli.json")
    p = sh([os.path.join(prefix, "bin", "lockstep"), "-r", frames0 + "_ref.y4m", "-d", frames0 + "_dis.y4m",
            "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_b_v0.6.3:name=boot", "--feature", "psnr=enable_chroma=false",
            "--threads", "2", "--json", "--precision", "max", "-o", cli_report, "-q"])
    ok = p.returncode == 0
    r = json.load(open(cli_report)) if ok else {}
    r.pop("fps", None)
    values = sum(len(f["metrics"]) for f in r.get("frames", []))
    check(f"installed CLI on the client's frames: the client's report ({values} per-frame values)",
          ok and r == report0 and values > 100, p.stderr.strip())
    printed = [float(v) for v in re.findall(r"^frame \d+ vmaf (\S+) psnr_y", stdout0, re.M)]
    check("client's vmaf_score_at_index values are the report's, bit for bit",
          len(printed) == 5 and printed == [f["metrics"]["vmaf"] for f in r.get("frames", [])], str(printed))

    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
