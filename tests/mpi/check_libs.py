#!/usr/bin/env python3
"""The libraries of the MPI tooling, as files: each MPI wrapper defines the C
(MPI_X) and gfortran (mpi_x_) binding of every call of mpi_format.h
KITE_MPI_CALLS and needs no C++ library (it is preloaded into C and Fortran
programs); each tool library exports the recorder's entry points the
wrappers look up (recorder.h: kite_rec_external, kite_rec_meta,
kite_rec_now_ns).

  check_libs.py --wrapper LIB [--wrapper LIB...] --tool LIB [--tool LIB...]
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_raw  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def defined(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.strip()}


def needed(lib):
    out = subprocess.run(["readelf", "-d", lib], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return [l.split("[")[1].split("]")[0] for l in out.splitlines() if "(NEEDED)" in l]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wrapper", action="append", default=[])
    ap.add_argument("--tool", action="append", default=[])
    a = ap.parse_args()
    calls = mpi_raw.CALLS[1:]
    check(len(calls) > 40 and "MPI_Send" in calls, "%d calls read from mpi_format.h" % len(calls))
    for lib in a.wrapper:
        name = os.path.basename(lib)
        syms = defined(lib)
        missing_c = [c for c in calls if c not in syms]
        missing_f = [c.lower() + "_" for c in calls if c.lower() + "_" not in syms]
        check(not missing_c, "%s defines every C binding (missing: %s)" % (name, missing_c))
        check(not missing_f, "%s defines every Fortran binding (missing: %s)" % (name, missing_f))
        deps = needed(lib)
        check(not [d for d in deps if "stdc++" in d or "gfortran" in d],
              "%s needs no C++ or Fortran library (%s)" % (name, deps))
        check(any(d.startswith("libmpi") for d in deps), "%s links its MPI (%s)" % (name, deps))
        extra = sorted(s for s in syms if not s.startswith(("MPI_", "mpi_")) and s not in
                       ("_init", "_fini", "_edata", "_end", "__bss_start"))
        check(not extra, "%s exports nothing else (%s)" % (name, extra[:8]))
    for lib in a.tool:
        syms = defined(lib)
        want = ["kite_rec_external", "kite_rec_meta", "kite_rec_now_ns"]
        check(all(w in syms for w in want), "%s exports %s" % (os.path.basename(lib), want))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
