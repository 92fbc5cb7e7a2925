#!/usr/bin/env python3
"""Runs the Python package's pytest suite (python/tests) with the interpreter CI installs the
Debian packages for (/usr/bin/python3: numpy, pytest, pandas, distributed), against this build:
its liblockstep.so, CLI, lockstep-gen and fixtures. Says SKIP (77) where the interpreter lacks
numpy or pytest (scripts/deps.sh installs them)."""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--library", required=True)
ap.add_argument("--cli", required=True)
ap.add_argument("--gen", required=True)
ap.add_argument("--fixtures", required=True)
ap.add_argument("--work", required=True)
ap.add_argument("--package", required=True)
ap.add_argument("--select", help="pytest -k expression")
ap.add_argument("tests", nargs="+")
o = ap.parse_args()
try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print("SKIP: %s has no %s (scripts/deps.sh installs python3-numpy and python3-pytest)"
          % (sys.executable, e.name))
    sys.exit(77)
os.environ.update(LOCKSTEP_LIBRARY=o.library, LOCKSTEP_CLI=o.cli, LOCKSTEP_GEN=o.gen,
                  LOCKSTEP_FIXTURES=o.fixtures, LOCKSTEP_WORK=o.work)
os.environ["PYTHONPATH"] = o.package + os.pathsep + os.environ.get("PYTHONPATH", "")
sys.path.insert(0, o.package)
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", "--rootdir", o.package]
                     + (["-k", o.select] if o.select else []) + o.tests))
