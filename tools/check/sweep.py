#!/usr/bin/env python3
"""The `kite check` sweep: every OMPT-relevant test program of a build, run
under the checker on Kite and on LLVM's libomp, with a summary per rule.

  python3 tools/check/sweep.py [--build DIR] [--runtime kite|libomp|both]
                               [--threads 1,2,4] [--filter REGEX] [--jobs N]
                               [--lanes clang|all] [--details] [--json FILE]

Programs come from the build's ctest list (`ctest --show-only=json-v1`),
with each test's environment: the gcc builds (tests/t_*), the clang builds
of the C/C++ tests (tests/clang/<suite>/*) and the clang-only LLVM-ABI
programs (tests/kmpc/*); the newer clang lanes (tests/clang19/, ...) with
--lanes. Each distinct program runs once per thread count
(OMP_NUM_THREADS replaced, unless the test sets a list). Programs that
export their own ompt_start_tool (the OMPT tests, linked -rdynamic) are
skipped: the runtime finds their tool first, so the checker would never be
attached.

On Kite the program runs as the harness links it (its RUNPATH names the
build). On libomp, LLVM's libomp (KITE_LIBOMP, default
/usr/lib/llvm-14/lib/libomp.so.5) is preloaded, so it serves both ABIs (gcc
programs through its GOMP_* layer, as bench/run does), after a small shim
(sweep_libomp_shim.c, compiled here) that answers the tests' "am I on
Kite" proof so they get past their first line. Kite itself is still
loaded (the tests link it) and serves what libomp lacks; a run where both
runtimes started the tool shows up as "two runtimes".

Exit status: 0 when no Kite run reported a violation, 1 otherwise.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIBOMP = os.environ.get("KITE_LIBOMP", "/usr/lib/llvm-14/lib/libomp.so.5")


def lane_of(rel):
    """The clang lane of a clang-built program: clang (14), clang19, clang22."""
    m = re.match(r"(?:kmpc/)?(clang\d+)/", rel)
    return m.group(1) if m else "clang"


def programs(build):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                         text=True, check=True).stdout
    seen = {}
    tests_dir = os.path.join(build, "tests") + "/"
    for t in json.loads(out)["tests"]:
        cmd = t.get("command") or []
        if len(cmd) != 1 or not cmd[0].startswith(tests_dir):
            continue
        rel = cmd[0][len(tests_dir):]
        if rel.startswith("t_"):
            group = "gcc"
        elif re.match(r"clang\d*/", rel):
            group = "clang"
        elif rel.startswith("kmpc/"):
            group = "kmpc"
        else:
            continue
        env = {}
        cwd = build
        for p in t.get("properties", []):
            if p["name"] == "ENVIRONMENT":
                env = dict(v.split("=", 1) for v in p["value"])
            elif p["name"] == "WORKING_DIRECTORY":
                cwd = p["value"]
        seen.setdefault(cmd[0], (group, rel, env, cwd))
    return seen


def own_tool(program):
    out = subprocess.run(["nm", "-D", "--defined-only", program], capture_output=True,
                         text=True).stdout
    return re.search(r" T ompt_start_tool$", out, re.M) is not None


def parse_report(text):
    rep = {"runtime": None, "events": None, "violations": None, "rules": {}, "reports": 0}
    for line in text.splitlines():
        m = re.match(r'kite check: runtime "(.*)", (\d+) threads', line)
        if m:
            rep["reports"] += 1
            rep["runtime"] = m.group(1)
            continue
        m = re.match(r"kite check: (\d+) events", line)
        if m:
            rep["events"] = int(m.group(1))
            continue
        m = re.match(r"kite check: (\d+) violations", line)
        if m:
            rep["violations"] = int(m.group(1))
            continue
        m = re.match(r"  (\S+)\s+(\d+)  first: (.*)", line)
        if m:
            rep["rules"][m.group(1)] = (int(m.group(2)), m.group(3))
    return rep


def run_one(build, job, timeout, shim, preload=None):
    runtime, group, rel, program, env_add, cwd, threads = job
    env = dict(os.environ)
    for k in ("OMP_TOOL", "LD_PRELOAD", "KITE_CHECK_TRACE"):
        env.pop(k, None)
    env.update(env_add)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    fd, path = tempfile.mkstemp(prefix="kite-sweep.", suffix=".txt")
    os.close(fd)
    env["KITE_CHECK_OUTPUT"] = path
    if runtime == "kite":
        mode = "kite"
        if preload:
            env["LD_PRELOAD"] = preload
    else:
        mode = "auto"
        env["LD_PRELOAD"] = shim + ":" + LIBOMP
        env["LD_LIBRARY_PATH"] = os.path.dirname(LIBOMP) + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    cmd = [sys.executable, os.path.join(build, "kite"), "check", "--runtime", mode, "--", program]
    # Its own session, so that a timeout kills the program too, not only
    # the `kite` driver (a hung program would keep a core busy for good).
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        status = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        status = "timeout"
    try:
        os.killpg(p.pid, signal.SIGKILL)  # whatever of the session is left
    except ProcessLookupError:
        pass
    p.wait()
    try:
        with open(path) as f:
            rep = parse_report(f.read())
    finally:
        os.unlink(path)
    rep.update(runtime=runtime, group=group, program=rel, threads=env.get("OMP_NUM_THREADS"),
               status=status, runtime_name=rep["runtime"])
    return rep


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build"))
    ap.add_argument("--runtime", choices=("kite", "libomp", "both"), default="both")
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--filter", default=None, help="regex on the program's path in tests/")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--lanes", default="clang",
                    help="clang lanes to include, comma-separated (clang = clang 14, clang19, "
                         "clang22) or 'all'")
    ap.add_argument("--preload", default=None,
                    help="a library to LD_PRELOAD in the Kite runs (tests use it to break "
                         "the event order on purpose)")
    ap.add_argument("--details", action="store_true", help="list every run with violations")
    ap.add_argument("--json", default=None, help="write every run's result to this file")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not os.path.exists(os.path.join(build, "kite")):
        sys.exit("sweep: %s has no kite command (build it first)" % build)

    shim = None
    runtimes = ["kite", "libomp"] if a.runtime == "both" else [a.runtime]
    if "libomp" in runtimes:
        if not os.path.exists(LIBOMP):
            sys.exit("sweep: %s not found (set KITE_LIBOMP)" % LIBOMP)
        shim_dir = tempfile.mkdtemp(prefix="kite-sweep-shim.")
        shim = os.path.join(shim_dir, "shim.so")
        subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", shim,
                        os.path.join(HERE, "sweep_libomp_shim.c"), "-ldl"], check=True)

    preload = os.path.abspath(a.preload) if a.preload else None
    threads = [int(x) for x in a.threads.split(",") if x]
    jobs, skipped = [], []
    for program, (group, rel, env, cwd) in sorted(programs(build).items()):
        if a.filter and not re.search(a.filter, rel):
            continue
        if group != "gcc" and a.lanes != "all" and lane_of(rel) not in a.lanes.split(","):
            continue
        if own_tool(program):
            skipped.append(rel)
            continue
        counts = threads if "," not in env.get("OMP_NUM_THREADS", "") else [None]
        for rt in runtimes:
            for n in counts:
                jobs.append((rt, group, rel, program, env, cwd, n))

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for r in pool.map(lambda j: run_one(build, j, a.timeout, shim, preload), jobs):
            results.append(r)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)

    print("kite check sweep: %d runs of %d programs, threads %s; %d programs skipped "
          "(own ompt_start_tool)" % (len(results), len({r["program"] for r in results}),
                                     a.threads, len(skipped)))
    kite_violations = 0
    for rt in runtimes:
        for group in ("gcc", "clang", "kmpc"):
            rs = [r for r in results if r["runtime"] == rt and r["group"] == group]
            if not rs:
                continue
            noreport = [r for r in rs if r["violations"] is None]
            failed = [r for r in rs if r["status"] != 0]
            two = [r for r in rs if r["reports"] > 1 or " + " in (r["runtime_name"] or "") or
                   (rt == "libomp" and r["runtime_name"] and "LLVM" not in r["runtime_name"])]
            bad = [r for r in rs if r["violations"]]
            print("\n== %s, %s programs: %d runs, %d with violations, %d without a report, "
                  "%d exit non-zero, %d two runtimes" % (rt, group, len(rs), len(bad),
                                                        len(noreport), len(failed), len(two)))
            per_rule = collections.OrderedDict()
            # Events from two runtimes in one run say nothing about either.
            for r in [r for r in rs if r not in two]:
                for rule, (count, example) in sorted(r["rules"].items()):
                    e = per_rule.setdefault(rule, [0, 0, set(), None])
                    e[0] += count
                    e[1] += 1
                    e[2].add(r["program"])
                    if e[3] is None:
                        e[3] = "%s t%s: %s" % (r["program"], r["threads"], example)
            if per_rule:
                print("  %-36s %8s %5s %5s  first example" % ("rule", "count", "runs", "progs"))
            for rule, (count, nruns, progs, example) in sorted(per_rule.items()):
                print("  %-36s %8d %5d %5d  %s" % (rule, count, nruns, len(progs), example))
            if rt == "kite":
                kite_violations += sum(r["violations"] for r in bad)
            if a.details:
                for r in bad:
                    print("    %s t%s: %s" % (r["program"], r["threads"],
                                            ", ".join("%s=%d" % (k, v[0])
                                                      for k, v in sorted(r["rules"].items()))))
                for r in two:
                    print("    two runtimes (not counted): %s t%s: %s" % (
                        r["program"], r["threads"], r["runtime_name"]))
                for r in noreport:
                    print("    no report: %s t%s (exit %s)" % (r["program"], r["threads"],
                                                              r["status"]))
    if skipped:
        print("\nskipped: " + " ".join(sorted(skipped)))
    return 1 if kite_violations else 0


if __name__ == "__main__":
    sys.exit(main())
