#!/usr/bin/env python3
"""`kite trace` as a command: errors, exit status, crashes, memory bound,
MPI ranks. Each case is a subcommand so ctest reports them one by one.

  cli_tests.py --kite KITE --work DIR errors --omp-program EXE
  cli_tests.py --kite KITE --work DIR crash --program CRASH_EXE
  cli_tests.py --kite KITE --work DIR long --program LONG_EXE
  cli_tests.py --kite KITE --work DIR ranks --program EXE
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, failures  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfetto_decode  # noqa: E402


def kite(a, *args, env=None, command="trace"):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([sys.executable, a.kite, command] + list(args), capture_output=True,
                          text=True, env=e, cwd=a.work)


def one_line_error(r, status, pattern, command="trace"):
    lines = r.stderr.strip().splitlines()
    return (r.returncode == status and len(lines) == 1
            and lines[0].startswith("kite %s: " % command)
            and re.search(pattern, lines[0]) is not None)


def profile_errors(a):
    """kite profile shares kite trace's checks; its own options too."""
    prog = a.omp_program
    p = lambda *args, **kw: kite(a, *args, command="profile", **kw)
    err = lambda r, st, pat: one_line_error(r, st, pat, "profile")
    r = p("--", "./no-such-program")
    check(err(r, 127, "no such file"), "missing program: 127 (%d %r)" % (r.returncode, r.stderr))
    r = p("--rate", "0", "--", prog)
    check(err(r, 125, "--rate 0"), "bad rate: 125 (%r)" % r.stderr)
    r = p("--bogus", "--", prog)
    check(err(r, 125, "unknown option '--bogus'"), "unknown option: 125 (%r)" % r.stderr)
    keep = os.path.join(a.work, "keep.json")
    open(keep, "w").write("precious")
    r = p("--json", keep, "--", prog)
    check(err(r, 125, "exists"), "an existing --json file is not replaced: 125 (%r)" % r.stderr)
    check(open(keep).read() == "precious", "its content stays")
    r = p("--json", "/no/such/dir/p.json", "--", prog)
    check(err(r, 125, "cannot write"), "an unwritable --json: 125 (%r)" % r.stderr)
    r = p("-o", "nonomp", "--", "/bin/sh", "-c", "exit 5")
    check(r.returncode == 5 and "not an OpenMP program" in r.stderr,
          "non-OpenMP program: said, its status 5 kept (%d %r)" % (r.returncode, r.stderr))
    r = p("-q", "-o", "prof", "--json", os.path.join(a.work, "copy.json"), "--html",
          os.path.join(a.work, "copy.html"), "--", prog, "exit3")
    check(r.returncode == 3, "the program's status 3 passes through (%d)" % r.returncode)
    files = sorted(os.listdir(os.path.join(a.work, "prof")))
    check(files == ["profile.html", "profile.json", "profile.txt"], "the reports (%s)" % files)
    j = json.load(open(os.path.join(a.work, "copy.json")))
    check(j["format"] == "kite-profile" and j["runtime"].startswith("kite "),
          "--json copy is the profile, of a run on Kite (%s)" % j.get("runtime"))
    check("kite-profile-data" in open(os.path.join(a.work, "copy.html")).read(), "--html copy")


def errors(a):
    prog = a.omp_program
    r = kite(a, "--", "./no-such-program")
    check(one_line_error(r, 127, "no such file"), "missing program: 127 and one line (%d %r)" % (r.returncode, r.stderr))
    r = kite(a, "--", "no-such-command-anywhere")
    check(one_line_error(r, 127, "command not found"), "missing command: 127 (%d %r)" % (r.returncode, r.stderr))
    plain = os.path.join(a.work, "plain.txt")
    open(plain, "w").write("not a program\n")
    r = kite(a, "--", plain)
    check(one_line_error(r, 126, "not an executable"), "not executable: 126 (%d %r)" % (r.returncode, r.stderr))
    r = kite(a, "--bogus", "--", prog)
    check(one_line_error(r, 125, "unknown option '--bogus'"), "unknown option: 125 (%d %r)" % (r.returncode, r.stderr))
    r = kite(a, "--format", "svg", "--", prog)
    check(one_line_error(r, 125, "unknown format"), "unknown format: 125 (%r)" % r.stderr)
    r = kite(a, "--events", "parallel,bogus", "--", prog)
    check(one_line_error(r, 125, "unknown event group 'bogus'"), "unknown event group: 125 (%r)" % r.stderr)
    r = kite(a, "--buffer", "12", "--", prog)
    check(one_line_error(r, 125, "--buffer"), "bad buffer size: 125 (%r)" % r.stderr)
    r = kite(a)
    check(one_line_error(r, 125, "no program"), "no program: 125 (%r)" % r.stderr)
    r = kite(a, "--help")
    check(r.returncode == 0 and "usage: kite trace" in r.stdout, "--help prints usage, exit 0")
    # An existing non-empty directory is left untouched without --force.
    full = os.path.join(a.work, "full")
    os.makedirs(full, exist_ok=True)
    keep = os.path.join(full, "trace.perfetto-trace")
    open(keep, "w").write("precious")
    r = kite(a, "-o", full, "--", prog)
    check(one_line_error(r, 125, "not empty"), "non-empty output directory: 125 (%r)" % r.stderr)
    check(open(keep).read() == "precious" and os.listdir(full) == ["trace.perfetto-trace"],
          "its files stay untouched")
    r = kite(a, "-q", "--force", "-o", full, "--", prog)
    check(r.returncode == 0 and open(keep, "rb").read() != b"precious",
          "--force replaces the trace files")
    # Unwritable: a directory below a file cannot be created.
    r = kite(a, "-o", os.path.join(plain, "sub"), "--", prog)
    check(one_line_error(r, 125, "cannot create"), "uncreatable output directory: 125 (%r)" % r.stderr)
    if os.geteuid() != 0:  # root writes anywhere
        ro = os.path.join(a.work, "readonly")
        os.makedirs(ro, exist_ok=True)
        os.chmod(ro, 0o555)
        r = kite(a, "-o", os.path.join(ro, "t"), "--", prog)
        check(one_line_error(r, 125, "cannot"), "unwritable parent: 125 (%r)" % r.stderr)
    # A program that is not an OpenMP program: said after it ran, its status kept.
    r = kite(a, "-o", "nonomp", "--", "/bin/sh", "-c", "exit 4")
    check(r.returncode == 4 and "not an OpenMP program" in r.stderr,
          "non-OpenMP program: says so, exits with its status 4 (%d %r)" % (r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(a.work, "nonomp")), "and leaves no empty directory behind")
    # The program's exit status passes through; the default directory name.
    r = kite(a, "-q", "--", prog, "exit3")
    made = [d for d in os.listdir(a.work) if d.startswith("kite-trace-" + os.path.basename(prog) + "-")]
    if made:
        s = json.load(open(os.path.join(a.work, made[0], "trace.summary.json")))
        check(s["runtime"].startswith("kite "), "the traced run was on Kite (%s)" % s["runtime"])
    check(r.returncode == 3, "the program's exit status 3 passes through (%d)" % r.returncode)
    check(len(made) == 1 and re.match(r".*-\d{8}-\d{6}$", made[0]) is not None,
          "default directory kite-trace-<program>-<YYYYmmdd-HHMMSS> (%s)" % made)
    if made:
        check(sorted(os.listdir(os.path.join(a.work, made[0]))) ==
              ["trace.otf2", "trace.perfetto-trace", "trace.summary.json"],
              "it holds the trace files, no raw/")


def crash(a):
    # SIGKILL after 3000 regions with the smallest buffer: the threads'
    # windows went round their rings (and through the writer thread) many
    # times; whatever was not yet in the files is in the tails, which the
    # converter copies back (recorder.cpp, reader.h salvage_tail).
    for how, status, sig, regions, opts in (("segv", 128 + 11, 11, 25, []), ("x", 9, 0, 25, []),
                                            ("k", 128 + 9, 9, 3000, ["--buffer", "64K"])):
        out = "crash-" + how
        r = kite(a, "-o", out, *opts, "--", a.program, how, str(regions))
        print(r.stdout, r.stderr)
        check(r.returncode == status, "%s: exit status %d passes through (%d)" % (how, status, r.returncode))
        if sig:
            check("killed by signal %d" % sig in r.stderr, "says the program was killed")
        s = json.load(open(os.path.join(a.work, out, "trace.summary.json")))
        check(s["runtime"].startswith("kite "), "ran on Kite (%s)" % s["runtime"])
        check(not s["finalized"], "the trace knows the tool was not finalized")
        check("ended without finalizing" in r.stdout, "the summary says the run was cut short")
        check(s["parallel_regions"] == regions,
              "all %d regions recorded before the crash (%d)" % (regions, s["parallel_regions"]))
        ev, _, problems = perfetto_decode.read(os.path.join(a.work, out, "trace.perfetto-trace"))
        check(not problems, "the protobuf trace is sound (%s)" % problems[:3])
        par = [e for e in ev if e.get("ph") == "X" and e["name"].startswith("parallel @ crash.c")]
        check(len(par) == regions, "%d parallel slices on crash.c lines (%d)" % (regions, len(par)))
        r2 = subprocess.run(["otf2-print", os.path.join(a.work, out, "trace.otf2", "traces.otf2")],
                            capture_output=True, text=True)
        check(r2.returncode == 0 and r2.stdout.count("THREAD_FORK") == regions,
              "the OTF2 archive reads back")


def long_run(a):
    n = 400000  # per thread: ~5 records per iteration, 2 threads, ~4M events
    # The same run on Kite without the tool (kite trace runs it on Kite).
    gomp = os.path.join(os.path.dirname(a.kite), "gomp")
    base = subprocess.run([a.program, str(n)], capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="2", LD_LIBRARY_PATH=gomp))
    m0 = re.search(r"maxrss (\d+)", base.stdout)
    r = kite(a, "--format", "otf2", "--events", "mutex", "--buffer", "1M", "-o", "long", "--",
             a.program, str(n))
    print(r.stdout, r.stderr)
    m1 = re.search(r"maxrss (\d+)", r.stdout)
    check(r.returncode == 0 and m0 and m1, "the long run completes traced and untraced")
    if not (m0 and m1):
        return
    s = json.load(open(os.path.join(a.work, "long", "trace.summary.json")))
    check(s["runtime"].startswith("kite "), "ran on Kite (%s)" % s["runtime"])
    check(s["events"] >= 2 * n * 3, "millions of events recorded (%d)" % s["events"])
    raw_mib = s["events"] * 48 / 2**20
    grown = (int(m1.group(1)) - int(m0.group(1))) / 1024
    # Bound: one 1 MiB window per thread (3 threads at most: initial, worker,
    # a helper) plus the tool's code and slack; the raw trace is far bigger.
    check(grown < 16, "resident memory grew %.1f MiB for %.0f MiB of trace (bound 16 MiB)"
          % (grown, raw_mib))
    check(raw_mib > 4 * 16, "the trace is much larger than the bound (%.0f MiB)" % raw_mib)


def convert_memory(a):
    """The converter's peak memory follows what is open at one moment, not
    the number of events or tasks: a task-heavy run of ~1 M and of ~10 M
    events convert within the same peak resident size (VmHWM, from the
    child's rusage), 10 % apart at most."""
    convert = os.path.join(os.path.dirname(a.kite), "kite-trace-convert")
    peaks = []
    for tasks in (340000, 3400000):  # ~3 events per task
        out = "mem%d" % tasks
        shutil.rmtree(os.path.join(a.work, out), ignore_errors=True)
        r = kite(a, "-q", "--keep-raw", "--format", "otf2", "--events", "tasks", "-o", out,
                 "--", a.program, str(tasks))
        check(r.returncode == 0, "the task-heavy run of %d tasks is traced (%d %r)"
              % (tasks, r.returncode, r.stderr[-300:]))
        s = json.load(open(os.path.join(a.work, out, "trace.summary.json")))
        check(s["runtime"].startswith("kite "), "ran on Kite (%s)" % s["runtime"])
        check(s["tasks"] == tasks, "every task recorded (%d of %d)" % (s["tasks"], tasks))
        raw = os.path.join(a.work, out, "raw")
        conv = os.path.join(a.work, out, "conv")
        t0 = time.time()
        errf = os.path.join(a.work, out + ".stderr")
        with open(errf, "wb") as ef:
            child = subprocess.Popen([convert, "--format", "otf2,perfetto", raw, conv],
                                     stdout=subprocess.DEVNULL, stderr=ef)
            _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage
        elapsed = time.time() - t0
        se = open(errf, "rb").read()
        check(os.waitstatus_to_exitcode(status) == 0, "the converter converts it (%r)" % se[-300:])
        c = json.load(open(os.path.join(conv, "trace.summary.json")))
        peak = usage.ru_maxrss  # KiB: the child's VmHWM
        print("%d events converted in %.2f s (%.2f M events/s), peak resident %d KiB"
              % (c["events"], elapsed, c["events"] / elapsed / 1e6, peak))
        peaks.append((c["events"], peak))
        if elapsed > 4:  # long enough that a progress line is due (not a timing check)
            check(b"events/s" in se, "a conversion longer than 2 s reports its progress (%r)"
                  % se[-200:])
        # --quiet: nothing on stdout, not even the summary.
        q = subprocess.run([convert, "--quiet", "--format", "perfetto", raw, conv + "-q"],
                           capture_output=True, text=True)
        check(q.returncode == 0 and q.stdout == "" and q.stderr == "",
              "kite-trace-convert --quiet prints nothing (%r %r)" % (q.stdout[:100], q.stderr[:100]))
        shutil.rmtree(os.path.join(a.work, out), ignore_errors=True)
    (e1, p1), (e2, p2) = peaks
    check(e1 >= 1000000 and e2 >= 10000000, "runs of 1 M and 10 M events (%d, %d)" % (e1, e2))
    check(abs(p2 - p1) <= 0.1 * p1, "the same peak memory for 1 M and 10 M events "
          "(%d KiB, %d KiB)" % (p1, p2))


def ranks(a):
    out = "ranks"
    for rank in ("0", "1"):
        r = kite(a, "-q", "-o", out, "--", a.program, env={"PMI_RANK": rank})
        check(r.returncode == 0, "rank %s traced (%d %r)" % (rank, r.returncode, r.stderr))
    files = sorted(os.listdir(os.path.join(a.work, out)))
    check(files == ["rank0.otf2", "rank0.perfetto-trace", "rank0.summary.json",
                    "rank1.otf2", "rank1.perfetto-trace", "rank1.summary.json"],
          "one trace per rank in the same directory (%s)" % files)
    for rank in ("0", "1"):
        s = json.load(open(os.path.join(a.work, out, "rank%s.summary.json" % rank)))
        check(s["runtime"].startswith("kite "), "rank %s ran on Kite (%s)" % (rank, s["runtime"]))
        check(s["rank"] == rank and s["parallel_regions"] > 0, "rank %s's own trace" % rank)
    r = kite(a, "-q", "-o", out, "--", a.program, env={"PMI_RANK": "1"})
    check(one_line_error(r, 125, "rank1"), "a rank's existing trace is not clobbered (%r)" % r.stderr)
    # A launcher traced as a whole: each of its processes by its rank.
    shutil.rmtree(os.path.join(a.work, "launcher"), ignore_errors=True)
    script = "PMI_RANK=0 %s & PMI_RANK=1 %s; wait" % (a.program, a.program)
    r = kite(a, "-q", "-o", "launcher", "--", "/bin/sh", "-c", script)
    files = sorted(f for f in os.listdir(os.path.join(a.work, "launcher"))
                   if f.endswith((".json", ".perfetto-trace")))
    check(files == ["rank0.perfetto-trace", "rank0.summary.json", "rank1.perfetto-trace",
                    "rank1.summary.json"],
          "a launcher's ranks each get their trace (%s)" % files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=["errors", "crash", "long", "ranks", "profile_errors",
                                     "convert_memory"])
    ap.add_argument("--program")
    ap.add_argument("--omp-program")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    a.work = os.path.abspath(a.work)
    a.kite = os.path.abspath(a.kite)
    for attr in ("program", "omp_program"):
        if getattr(a, attr):
            setattr(a, attr, os.path.abspath(getattr(a, attr)))
    {"errors": errors, "crash": crash, "long": long_run, "ranks": ranks,
     "profile_errors": profile_errors, "convert_memory": convert_memory}[a.case](a)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
