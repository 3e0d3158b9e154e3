#!/usr/bin/env python3
"""libkite-profile.so's unwinding under the dynamic loader's lock
(profile_tool.cpp on_sigprof: libunwind's global cache behind the tool's
unwind gate): runs unwind_gate.c on Kite in the environment `kite profile`
gives a program (the sampler, its loader guard preloaded) at 5 kHz while
its threads load, unload and walk libraries, so that handlers look new
code up while other threads hold the loader's lock. Checks that the run
ends (a handler waiting for another forever would hang it), that the
samples taken in leaf() carry the call path through middle() (the handlers
unwound), and that the tool wrote how many unwinds it skipped at a closed
gate: a small part of the samples.

  check_unwind_gate.py --lib LIBKITE_PROFILE --guard LIBKITE_PROFILE_GUARD
                       --analyze ANALYZER --runtime-dir KITE_GOMP_DIR
                       --program EXE WORKDIR
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--guard", required=True)
    ap.add_argument("--analyze", required=True)
    ap.add_argument("--runtime-dir", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--rate", default="5000")
    ap.add_argument("workdir")
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    raw = os.path.join(a.workdir, "raw")
    os.makedirs(raw)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, KITE_PROFILE_DIR=raw,
               KITE_PROFILE_RATE=a.rate, OMP_NUM_THREADS="4",
               LD_LIBRARY_PATH=a.runtime_dir, LD_PRELOAD=a.guard)
    try:
        r = subprocess.run([a.program, "1.5"], env=env, capture_output=True, text=True,
                           timeout=90)
    except subprocess.TimeoutExpired:
        check(False, "the sampled program ends within 90 s (a handler waits forever)")
        finish()
    print(r.stdout)
    print(r.stderr)
    if not check(r.returncode == 0 and "OK" in r.stdout, "the program ends and prints OK"):
        finish()
    check("runtime: kite" in r.stdout, "it ran on Kite")
    check("threads: 4" in r.stdout, "with 4 threads")
    loads = int(r.stdout.split("loads: ")[1].split()[0])
    check(loads > 100, "its threads loaded, unloaded and walked libraries (%d)" % loads)

    metas = glob.glob(os.path.join(raw, "*.meta"))
    if not check(len(metas) == 1, "one meta file (%s)" % metas):
        finish()
    meta = dict(line.split("=", 1) for line in open(metas[0]).read().splitlines() if "=" in line)
    if not check("unwinds_skipped" in meta, "the meta file says how many unwinds were skipped"):
        finish()
    skipped = int(meta["unwinds_skipped"])

    out = os.path.join(a.workdir, "profile.json")
    p = subprocess.run([a.analyze, "--json", out, raw], capture_output=True, text=True)
    print(p.stdout[-2000:])
    print(p.stderr[-2000:])
    if not check(p.returncode == 0, "the analyzer reads it"):
        finish()
    prof = json.load(open(out))
    samples = prof["samples"]
    check(samples > 1000, "samples were taken (%d)" % samples)
    check(skipped <= 0.05 * samples, "at most 5 %% of the unwinds were skipped (%d of %d)"
          % (skipped, samples))
    leaf = [f for f in prof["functions"] if f["function"] == "leaf"]
    if check(len(leaf) == 1 and leaf[0]["total_s"] > 0, "samples fell in leaf()"):
        through = sum(c["total_s"] for c in leaf[0]["callers"] if c["function"] == "middle")
        check(through >= 0.9 * leaf[0]["total_s"],
              "leaf()'s samples carry its caller middle() (%.3f of %.3f s)"
              % (through, leaf[0]["total_s"]))
    finish()


if __name__ == "__main__":
    main()
