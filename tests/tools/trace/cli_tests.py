#!/usr/bin/env python3
"""`kite trace` as a command: errors, exit status, crashes, memory bound,
MPI ranks. Each case is a subcommand so ctest reports them one by one.

  cli_tests.py --kite KITE --work DIR errors --omp-program EXE
  cli_tests.py --kite KITE --work DIR crash --program CRASH_EXE
  cli_tests.py --kite KITE --work DIR long --program LONG_EXE
  cli_tests.py --kite KITE --work DIR ranks --program EXE
  cli_tests.py --kite KITE --work DIR signals --program WAIT_EXE
  cli_tests.py --kite KITE --work DIR max_size --program LONG_EXE
  cli_tests.py --kite KITE --work DIR error_paths --omp-program EXE --other-tool LIB
  cli_tests.py --kite KITE --work DIR window --program PHASES_EXE --source phases.c
  cli_tests.py --kite KITE --work DIR regions --program PHASES_EXE --source phases.c
  cli_tests.py --kite KITE --work DIR convert_memory --program TASKS_EXE
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, failures, runtime_prefix  # noqa: E402
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
    check(r.returncode == 122 and "not an OpenMP program" in r.stderr and "status 5" in r.stderr,
          "non-OpenMP program: said with its status 5, kite's 122 (%d %r)" % (r.returncode, r.stderr))
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
    check(r.returncode == 122 and "not an OpenMP program" in r.stderr and "status 4" in r.stderr,
          "non-OpenMP program: says so with its status 4, exits 122 (%d %r)" % (r.returncode, r.stderr))
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
    the number of events or tasks: task-heavy runs of ~1 M and ~10 M events
    whose program keeps at most 128 tasks open at once (tasks.c: two
    threads, a taskwait every 64 tasks each) convert within the same peak
    resident size (VmHWM, from the child's rusage), 10 % apart at most.
    Both threads record alike, so in both runs each OTF2 location has filled
    its fixed buffers (OTF2's 4 MiB file buffer, the chunks): the 1 M run is
    not below the steady state."""
    convert = os.path.join(os.path.dirname(a.kite), "kite-trace-convert")
    peaks = []
    for tasks in (340000, 3400000):  # 3 events per task
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
        # What was converted: every task's creation, start and end, and the
        # few events of the threads and the region around them.
        check(c["tasks"] == tasks and 3 * tasks <= c["events"] <= 3 * tasks + 100,
              "every task converted (%d tasks, %d events)" % (c["tasks"], c["events"]))
        check(c["events"] == s["events"], "the same events as kite's own conversion (%d, %d)"
              % (c["events"], s["events"]))
        check(0 < c["tasks_alive_max"] <= 2 * 64,
              "at most 128 tasks open at once (%d)" % c["tasks_alive_max"])
        pb = os.path.getsize(os.path.join(conv, "trace.perfetto-trace"))
        otf2_dir = os.path.join(conv, "trace.otf2", "traces")
        evt = sum(os.path.getsize(os.path.join(otf2_dir, f)) for f in os.listdir(otf2_dir)
                  if f.endswith(".evt"))
        check(pb >= 8 * c["events"] and evt >= 8 * c["events"],
              "both outputs written (%d protobuf bytes, %d OTF2 event bytes for %d events)"
              % (pb, evt, c["events"]))
        peak = usage.ru_maxrss  # KiB: the child's VmHWM
        cpu = usage.ru_utime + usage.ru_stime
        print("%d events converted in %.2f s wall, %.2f s CPU (%.2f M events per CPU-second), "
              "peak resident %d KiB" % (c["events"], elapsed, cpu, c["events"] / cpu / 1e6, peak))
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
    # A launcher traced as a whole: its ranks become ONE trace.
    shutil.rmtree(os.path.join(a.work, "launcher"), ignore_errors=True)
    script = "PMI_RANK=0 %s & PMI_RANK=1 %s; wait" % (a.program, a.program)
    r = kite(a, "-q", "-o", "launcher", "--", "/bin/sh", "-c", script)
    files = sorted(f for f in os.listdir(os.path.join(a.work, "launcher"))
                   if f.endswith((".json", ".perfetto-trace")))
    check(files == ["trace.perfetto-trace", "trace.summary.json"],
          "a launcher's ranks make one trace (%s)" % files)
    if files:
        s = json.load(open(os.path.join(a.work, "launcher", "trace.summary.json")))
        ranks = sorted(x["rank"] for x in s.get("ranks", []))
        check(s.get("ranks_merged") == 2 and ranks == ["0", "1"] and
              all(x["parallel_regions"] > 0 for x in s["ranks"]),
              "its summary holds both ranks' (%s)" % ranks)


def kite_popen(a, *args, env=None, command="trace", **kw):
    """kite started, not waited for: stdout piped (the program's "ready")."""
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.Popen([sys.executable, a.kite, command] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=e, cwd=a.work, **kw)


def wait_ready(p):
    """The program's pid, once it printed "ready <pid>" (it has recorded)."""
    line = p.stdout.readline()
    m = re.match(r"ready (\d+)", line)
    check(m is not None, "the program ran and said it is ready (%r)" % line)
    return int(m.group(1)) if m else None


def gone(pid, within=20.0):
    """Whether process pid no longer exists (waits up to `within` seconds
    for the kernel to deliver a death signal; not a timing check)."""
    import time
    end = time.monotonic() + within
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie whose parent is gone is reaped by init in a moment.
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.05)


def partial_trace(a, out, runtime, what):
    """The converted trace of a run stopped by a signal: on the runtime
    asked for, not finalized, its region recorded."""
    path = os.path.join(a.work, out, "trace.summary.json")
    if not check(os.path.exists(path), "%s: the partial trace was converted (%s)" % (what, path)):
        return
    s = json.load(open(path))
    check(s["runtime"].startswith(runtime_prefix(runtime)), "%s: ran on %s (%s)"
          % (what, runtime, s["runtime"]))
    check(s["parallel_regions"] == 1 and not s["finalized"],
          "%s: the region recorded before the signal, the run not finalized (%d, %s)"
          % (what, s["parallel_regions"], s["finalized"]))
    check(not os.path.exists(os.path.join(a.work, out, "raw")), "%s: raw/ removed" % what)


def children(pid):
    """Pids of pid's child processes (/proc/PID/task/PID/children)."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid) as f:
            return f.read().replace("\0", " ")
    except OSError:
        return ""


def signals(a):
    import time
    for runtime in ("kite", "libomp"):
        if runtime == "libomp" and not os.path.exists(os.environ.get("KITE_LIBOMP", "")):
            check(False, "KITE_LIBOMP is set to an existing libomp for the libomp cases")
            continue
        rt = ["--runtime", runtime]
        # timeout -s TERM on kite: forwarded, converted, 128+15.
        out = "term-" + runtime
        # (--preserve-status: timeout's own status would be 124.)
        r = subprocess.run(["timeout", "--preserve-status", "-s", "TERM", "4", sys.executable, a.kite, "trace"] + rt +
                           ["-o", out, "--", a.program], capture_output=True, text=True, cwd=a.work)
        print(r.stdout, r.stderr)
        m = re.search(r"ready (\d+)", r.stdout)
        check(r.returncode == 143, "timeout -s TERM: kite exits 143 (%d)" % r.returncode)
        check("SIGTERM" in r.stderr and "partial" in r.stderr, "it says the trace is partial")
        check(m is not None and gone(int(m.group(1))), "the program is gone (pid %s)"
              % (m and m.group(1)))
        partial_trace(a, out, runtime, "TERM on kite (%s)" % runtime)

        # TERM on the whole process group: the program dies of it too, kite
        # still converts.
        out = "group-" + runtime
        p = kite_popen(a, *rt, "-o", out, "--", a.program, start_new_session=True)
        pid = wait_ready(p)
        os.killpg(p.pid, signal.SIGTERM)
        o, e = p.communicate()
        print(o, e)
        check(p.returncode == 143, "TERM on the process group: 143 (%d)" % p.returncode)
        check(pid is not None and gone(pid), "the program is gone (pid %s)" % pid)
        partial_trace(a, out, runtime, "TERM on the group (%s)" % runtime)

        # SIGHUP on kite alone.
        out = "hup-" + runtime
        p = kite_popen(a, *rt, "-o", out, "--", a.program)
        pid = wait_ready(p)
        p.send_signal(signal.SIGHUP)
        o, e = p.communicate()
        print(o, e)
        check(p.returncode == 129 and "SIGHUP" in e, "SIGHUP: 129, said (%d %r)" % (p.returncode, e))
        check(pid is not None and gone(pid), "the program is gone (pid %s)" % pid)
        partial_trace(a, out, runtime, "HUP on kite (%s)" % runtime)

    # SIGINT twice: the first stops the program, the second the conversion
    # (made to start late by the test-only KITE_TEST_CONVERT_PAUSE, so the
    # second surely comes during it); raw/ stays, the printed command
    # converts it.
    out = "int"
    p = kite_popen(a, "-o", out, "--", a.program, "20000", env={"KITE_TEST_CONVERT_PAUSE": "60"})
    pid = wait_ready(p)
    p.send_signal(signal.SIGINT)
    conv = None
    for _ in range(2000):
        found = [c for c in children(p.pid) if "kite-trace-convert" in cmdline(c)]
        if found:
            conv = found[0]
            break
        time.sleep(0.01)
    check(conv is not None, "the conversion started after the first SIGINT")
    p.send_signal(signal.SIGINT)
    o, e = p.communicate()
    print(o, e)
    check(p.returncode == 130, "SIGINT twice: 130 (%d)" % p.returncode)
    check(pid is not None and gone(pid) and conv is not None and gone(conv),
          "neither the program (%s) nor the converter (%s) is left" % (pid, conv))
    raw = os.path.join(a.work, out, "raw")
    check(os.path.isdir(raw) and any(f.endswith(".meta") for f in os.listdir(raw)),
          "raw/ stays")
    check(sorted(os.listdir(os.path.join(a.work, out))) == ["raw"], "no half-written trace file")
    m = re.search(r"convert it with: (.*)$", e.strip())
    check(m is not None and m.group(1).split()[-2:] == ["convert", out],
          "one command to convert later (%r)" % e)
    if m:
        cmd = m.group(1).split()
        r = subprocess.run([sys.executable] + cmd, capture_output=True, text=True, cwd=a.work)
        print(r.stdout, r.stderr)
        check(r.returncode == 0, "`kite convert %s` converts it (%d %r)" % (out, r.returncode, r.stderr))
        s = json.load(open(os.path.join(a.work, out, "trace.summary.json")))
        check(s["runtime"].startswith("kite ") and s["events"] > 4 * 20000,
              "the whole raw trace, of a run on Kite (%s, %d events)" % (s["runtime"], s["events"]))
        r = subprocess.run([sys.executable] + cmd, capture_output=True, text=True, cwd=a.work)
        check(one_line_error(r, 125, "already holds", "convert"),
              "converting again does not overwrite (%r)" % r.stderr)
        r = subprocess.run([sys.executable] + cmd[:-1] + ["-q", "--force", out],
                           capture_output=True, text=True, cwd=a.work)
        check(r.returncode == 0 and r.stdout == "", "--force -q converts again, quietly (%r)" % r.stdout)
    r = kite(a, "nowhere", command="convert")
    check(one_line_error(r, 125, "no raw trace", "convert"), "kite convert: no raw/ (%r)" % r.stderr)
    r = kite(a, "--bogus", out, command="convert")
    check(one_line_error(r, 125, "unknown option '--bogus'", "convert"), "kite convert: bad option")

    # kite profile shares it: SIGTERM forwarded, the partial samples analyzed.
    p = kite_popen(a, "-o", "profile-term", "--", a.program, command="profile")
    pid = wait_ready(p)
    p.send_signal(signal.SIGTERM)
    o, e = p.communicate()
    print(o, e)
    check(p.returncode == 143 and "profile is partial" in e, "kite profile, SIGTERM: 143, said "
          "(%d %r)" % (p.returncode, e))
    path = os.path.join(a.work, "profile-term", "profile.json")
    j = json.load(open(path)) if os.path.exists(path) else {}
    check(j.get("format") == "kite-profile" and j.get("runtime", "").startswith("kite "),
          "the partial profile was analyzed, of a run on Kite (%s)" % j.get("runtime"))
    check(pid is not None and gone(pid), "the program is gone (pid %s)" % pid)

    # kite killed outright (SIGKILL: nothing to forward): the program must
    # not outlive it (PR_SET_PDEATHSIG).
    p = kite_popen(a, "-o", "killed", "--", a.program)
    pid = wait_ready(p)
    p.kill()
    p.communicate()
    check(pid is not None and gone(pid), "SIGKILL of kite: the program is gone too (pid %s)" % pid)

    # Ignored on entry (nohup): SIGHUP stays ignored, kite and program go on.
    p = subprocess.Popen(["nohup", sys.executable, a.kite, "trace", "-q", "-o", "nohup", "--",
                          a.program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=a.work)
    pid = wait_ready(p)
    p.send_signal(signal.SIGHUP)
    p.send_signal(signal.SIGTERM)
    o, e = p.communicate()
    check(p.returncode == 143 and "SIGHUP" not in e, "under nohup, SIGHUP is ignored; TERM "
          "stops it (%d %r)" % (p.returncode, e))


def error_paths(a):
    prog = a.omp_program
    # The same program on Kite, libomp, and the system's GNU libgomp.
    for runtime in ("kite", "libomp"):
        rt = ["--runtime", runtime]
        # First proof it ran on the runtime asked for, and the plurals.
        r = kite(a, *rt, "-o", "plural-" + runtime, "--", prog)
        s = json.load(open(os.path.join(a.work, "plural-" + runtime, "trace.summary.json")))
        check(r.returncode == 0 and s["runtime"].startswith(runtime_prefix(runtime)),
              "%s: traced (%s)" % (runtime, s["runtime"]))
        check(", 1 parallel region, 0 tasks," in r.stdout and "1 parallel regions" not in r.stdout,
              "%s: one region is 1 parallel region (%r)" % (runtime, r.stdout))
        # Another tool, started by the runtime instead of kite's: the
        # program's wrapper script sets OMP_TOOL_LIBRARIES, or the tool is
        # preloaded. (kite sees only the wrapper, so for libomp the wrapper
        # preloads libomp itself, as a script running a gcc program on
        # libomp does.)
        libomp = ("export LD_PRELOAD=%s:$LD_PRELOAD; " % os.environ["KITE_LIBOMP"]
                  if runtime == "libomp" else "")
        wrapper = ["/bin/sh", "-c", libomp + 'export OMP_TOOL_LIBRARIES=%s; exec "$0" "$@"'
                   % a.other_tool, prog]
        for how, args, env in (
                ("OMP_TOOL_LIBRARIES set by the program's wrapper", wrapper, None),
                ("a preloaded tool", [prog], {"LD_PRELOAD": a.other_tool})):
            r = kite(a, *rt, "-o", "other", "--", *args, "exit3", env=env)
            check(r.returncode == 122 and "another tool is active: %s" % a.other_tool in r.stderr,
                  "%s, %s: 122, the tool named (%d %r)" % (runtime, how, r.returncode, r.stderr))
            check("threads 2" in r.stdout and "exited with status 3" in r.stderr,
                  "%s: the program's output and status shown" % runtime)
            check(not os.path.exists(os.path.join(a.work, "other")), "no directory left")
        off = ["/bin/sh", "-c", libomp + 'export OMP_TOOL=disabled; exec "$0" "$@"', prog]
        r = kite(a, *rt, "-o", "off", "--", *off)
        check(r.returncode == 122 and "OMP_TOOL=disabled" in r.stderr,
              "%s: OMP_TOOL=disabled said (%d %r)" % (runtime, r.returncode, r.stderr))
        r = kite(a, *rt, "-o", "p-off", "--", *off, command="profile")
        check(r.returncode == 122 and "OMP_TOOL=disabled" in r.stderr,
              "%s: kite profile says it too (%d %r)" % (runtime, r.returncode, r.stderr))
        r = subprocess.run([sys.executable, a.kite, "check"] + rt + ["--"] + wrapper,
                           capture_output=True, text=True)
        check(r.returncode == 122 and "another tool is active" in r.stderr,
              "%s: kite check says it too (%d %r)" % (runtime, r.returncode, r.stderr))
    r = kite(a, "--runtime", "auto", "-o", "gnu", "--", prog)
    check(r.returncode == 122 and "GNU libgomp" in r.stderr,
          "the system's libgomp: no tools interface, said (%d %r)" % (r.returncode, r.stderr))
    # Not an OpenMP program: kite's own status, the program's output and status shown.
    r = kite(a, "-o", "nonomp", "--", "/bin/sh", "-c", "echo hello; exit 4")
    check(r.returncode == 122 and "no OpenMP runtime" in r.stderr and "status 4" in r.stderr
          and r.stdout.startswith("hello"), "not OpenMP: 122 (%d %r %r)" % (r.returncode, r.stdout, r.stderr))
    # kite check: its own help, unknown options, the not-OpenMP status.
    r = kite(a, "--help", command="check")
    check(r.returncode == 0 and r.stdout.startswith("usage: kite check"), "kite check --help")
    r = kite(a, "--rate", "5", "--", "/bin/true", command="check")
    check(one_line_error(r, 125, "unknown option '--rate'", "check"),
          "kite check --rate: unknown option, 125 (%d %r)" % (r.returncode, r.stderr))
    r = kite(a, "--", "/bin/true", command="check")
    check(r.returncode == 122 and "no OpenMP runtime" in r.stderr, "kite check of /bin/true: 122")
    for c in ("profile", "convert"):
        r = kite(a, "--help", command=c)
        check(r.returncode == 0 and r.stdout.startswith("usage: kite %s" % c), "kite %s --help" % c)
    # Sizes: K, M and G, the limits said as they are.
    r = kite(a, "-q", "--keep-raw", "--buffer", "1G", "-o", "big", "--", prog)
    meta = [f for f in os.listdir(os.path.join(a.work, "big", "raw")) if f.endswith(".meta")]
    check(r.returncode == 0 and len(meta) == 1 and "buffer_bytes=1073741824\n" in
          open(os.path.join(a.work, "big", "raw", meta[0])).read(), "--buffer 1G is 1 GiB")
    r = kite(a, "--buffer", "2G", "--", prog)
    check(one_line_error(r, 125, "from 64K to 1G"), "--buffer 2G: the real limits (%r)" % r.stderr)
    r = kite(a, "--buffer", "64k", "-q", "-o", "small-buffer", "--", prog)
    check(r.returncode == 0, "--buffer 64k")
    # The recorder's own parser, given the value directly.
    lib = os.path.join(os.path.dirname(a.kite), "libkite-trace.so")
    gomp = os.path.join(os.path.dirname(a.kite), "gomp")
    for value, expect, warned in (("1g", 1 << 30, False), ("512K", 512 << 10, False),
                                  ("1500M", 1 << 20, True), ("2x", 1 << 20, True)):
        d = os.path.join(a.work, "direct-" + value)
        os.makedirs(d)
        r = subprocess.run([prog], capture_output=True, text=True, env=dict(
            os.environ, OMP_TOOL_LIBRARIES=lib, KITE_TRACE_DIR=d, KITE_TRACE_BUFFER=value,
            LD_LIBRARY_PATH=gomp))
        meta = [f for f in os.listdir(d) if f.endswith(".meta")]
        text = open(os.path.join(d, meta[0])).read() if meta else ""
        check("runtime=kite " in text and "buffer_bytes=%d\n" % expect in text,
              "KITE_TRACE_BUFFER=%s on Kite: %d bytes" % (value, expect))
        check(("from 64K to 1G" in r.stderr) == warned, "warned: %s (%r)" % (warned, r.stderr))
    # Two runs in the same second both trace: the name of this second (and
    # the next few) taken, then two at once.
    import time
    base = "kite-trace-" + os.path.basename(prog) + "-"
    now = time.time()
    for dt in range(0, 6):
        os.makedirs(os.path.join(a.work, base + time.strftime("%Y%m%d-%H%M%S",
                                                              time.localtime(now + dt))))
    before = set(os.listdir(a.work))
    r = kite(a, "-q", "--", prog)
    made = sorted(set(os.listdir(a.work)) - before)
    check(r.returncode == 0 and len(made) == 1 and made[0].startswith(base) and
          made[0].endswith("-2"), "a taken name gets the suffix -2 (%s)" % made)
    before = set(os.listdir(a.work))
    ps = [kite_popen(a, "-q", "--", prog) for _ in range(2)]
    codes = [p.wait() for p in ps]
    for p in ps:
        p.communicate()
    made = sorted(set(os.listdir(a.work)) - before)
    check(codes == [0, 0] and len(made) == 2, "two runs at once: both trace (%s %s)" % (codes, made))
    for d in made:
        s = json.load(open(os.path.join(a.work, d, "trace.summary.json")))
        check(s["runtime"].startswith("kite "), "%s: a trace of a run on Kite" % d)


def max_size(a):
    """--max-size: recording stops at the size, the program runs on, the
    summary says how much was not recorded; on Kite and libomp."""
    for runtime in ("kite", "libomp"):
        max_size_on(a, runtime)
    for bad in ("12", "1X", "-1M"):
        r = kite(a, "--max-size", bad, "--", a.program, "1")
        check(one_line_error(r, 125, "--max-size"), "--max-size %s refused (%r)" % (bad, r.stderr))


def max_size_on(a, runtime):
    n = 100000  # lock pairs per thread: 3 mutex events each, 2 threads
    rt = ["--runtime", runtime]
    out = "limited-" + runtime
    r = kite(a, *rt, "--max-size", "1M", "--buffer", "64K", "--events", "mutex", "--keep-raw",
             "-o", out, "--", a.program, str(n))
    print(r.stdout, r.stderr)
    s = json.load(open(os.path.join(a.work, out, "trace.summary.json")))
    check(s["runtime"].startswith(runtime_prefix(runtime)), "ran on %s (%s)" % (runtime, s["runtime"]))
    check(r.returncode == 0 and "count %d " % (2 * n) in r.stdout,
          "the program ran to its end (%d)" % r.returncode)
    raw = os.path.join(a.work, out, "raw")
    files = [f for f in os.listdir(raw) if f.endswith(".raw")]
    size = sum(os.path.getsize(os.path.join(raw, f)) for f in files)
    check(size <= (1 << 20) + len(files) * (64 << 10),
          "raw data %d bytes: at most 1M plus a first window per thread (%d threads)"
          % (size, len(files)))
    m = re.search(r"recording stopped at --max-size 1048576 bytes: (\d+) events not recorded", r.stdout)
    check(m is not None, "the summary says recording stopped")
    if m:
        check(s["events"] + int(m.group(1)) >= 2 * n * 3,
              "recorded %d + not recorded %s cover all %d mutex events" % (s["events"], m.group(1), 6 * n))
        check(int(m.group(1)) > 0 and s["events"] < 2 * n * 3, "some were not recorded")
    # Without the limit: everything, and no such line.
    r = kite(a, *rt, "--buffer", "64K", "--events", "mutex", "-o", "whole-" + runtime, "--",
             a.program, str(n))
    s = json.load(open(os.path.join(a.work, "whole-" + runtime, "trace.summary.json")))
    check(s["events"] >= 2 * n * 3 and "recording stopped" not in r.stdout,
          "without --max-size every event is recorded (%d)" % s["events"])

def phases_trace(a, runtime, out, *options):
    """Runs the phases program under kite trace with OPTIONS: (summary,
    JSON events, Perfetto events, stdout+stderr), after checking the run."""
    r = kite(a, "--runtime", runtime, "--format", "json,perfetto", "-o", out, *options, "--",
             a.program)
    print(r.stdout, r.stderr)
    s = json.load(open(os.path.join(a.work, out, "trace.summary.json")))
    check(s["runtime"].startswith(runtime_prefix(runtime)), "ran on %s (%s)" % (runtime, s["runtime"]))
    check(r.returncode == 0 and "tasks " in r.stdout, "the program ran to its end (%d)" % r.returncode)
    d = json.load(open(os.path.join(a.work, out, "trace.json")))
    events = d["traceEvents"] if isinstance(d, dict) else d
    pevents, _, problems = perfetto_decode.read(os.path.join(a.work, out, "trace.perfetto-trace"))
    check(problems == [], "the protobuf trace is sound: every slice end matches a begin (%s)"
          % problems[:3])
    return s, events, pevents, r.stdout + r.stderr


def slices(events, cat=None):
    return [e for e in events if e.get("ph") == "X" and (cat is None or e.get("cat") == cat)]


def region_lines(events):
    """The lines the trace names for the phases' regions, found by time in a
    whole run: A holds 0.3 s, B 0.9 s, C 1.35 s after the start; nested: the
    regions that begin inside B on a line of their own."""
    par = [e for e in slices(events, "parallel") if e["name"].startswith("parallel")]
    holds = lambda t: [p for p in par if p["ts"] < t * 1e6 < p["ts"] + p["dur"]]
    lines = {}
    for name, t in (("A", 0.3), ("B", 0.9), ("C", 1.35)):
        found = {p["args"].get("line") for p in holds(t)}
        check(len(found) == 1, "one region line holds %.2f s (%s)" % (t, found))
        lines[name] = found.pop() if found else None
    b = [p for p in holds(0.9) if p["args"].get("line") == lines["B"]]
    nested = {p["args"].get("line") for p in par if b and b[0]["ts"] <= p["ts"] <= b[0]["ts"] + b[0]["dur"]
              and p["args"].get("line") != lines["B"]}
    check(len(nested) == 1, "one nested region line in B (%s)" % nested)
    lines["nested"] = nested.pop() if nested else None
    return lines


def window(a):
    """--start-after 0.3 --duration 0.5 on the phases program (A 0-0.6 s,
    B 0.6-1.2 s, C 1.2-1.5 s): only events of the window, A cut at its start,
    B at its end, no C; on Kite and libomp."""
    for runtime in ("kite", "libomp"):
        _, whole, _, _ = phases_trace(a, runtime, "whole-" + runtime)
        lines = region_lines(whole)
        s, events, pevents, text = phases_trace(a, runtime, "window-" + runtime,
                                                "--start-after", "0.3", "--duration", "0.5")
        f = s.get("filter", {})
        check(f.get("start_after_s") == 0.3 and f.get("duration_s") == 0.5,
              "the summary says which window (%s)" % f)
        ws, we = f.get("window_start_us", 0), f.get("window_end_us", 0)
        check(250e3 < ws < 400e3 and we - ws > 0.49e6, "the window is 0.3 s to 0.8 s (%s, %s)" % (ws, we))
        xs = slices(events)
        outside = [e for e in xs if e["ts"] < ws - 0.002 or e["ts"] + e["dur"] > we + 0.002]
        check(len(xs) > 100 and not outside, "json: every slice (%d) lies in the window (%s)"
              % (len(xs), outside[:2]))
        # The protobuf's times are the clock's own: its slices span the window at most.
        px = slices(pevents)
        span = max(e["ts"] + e["dur"] for e in px) - min(e["ts"] for e in px) if px else 0
        check(len(px) > 100 and span <= we - ws + 0.002,
              "perfetto: slices (%d) within the window's length (%.3f us)" % (len(px), span))
        par = [e for e in slices(events, "parallel") if e["name"].startswith("parallel")]
        by_line = {}
        for p in par:
            by_line.setdefault(p["args"].get("line"), []).append(p)
        a_par = by_line.get(lines["A"], [])
        check(len(a_par) == 1 and abs(a_par[0]["ts"] - ws) < 0.002,
              "region A, open at the window's start, is shown from it (%s)" % a_par)
        b_par = by_line.get(lines["B"], [])
        check(len(b_par) == 1 and b_par[0]["ts"] > ws + 0.2e6
              and abs(b_par[0]["ts"] + b_par[0]["dur"] - we) < 0.002,
              "region B begins inside the window and is closed at its end (%s)" % b_par)
        check(lines["C"] not in by_line, "region C (after the window) is not there")
        crit = [e for e in slices(events, "mutex") if e["ts"] < 0.55e6]
        check(len(crit) > 10, "A's critical sections inside the window are there (%d)" % len(crit))
        check(f.get("left_out_before_window", 0) > 0 and f.get("left_out_after_window", 0) > 0,
              "the summary counts the events before and after it (%s)" % f)
        check(f.get("open_at_window_start", 0) >= 3 and f.get("closed_at_window_end", 0) >= 2,
              "and what was open at its edges (%s)" % f)
        check(re.search(r"window: recorded from 0\.3 s after the start for 0\.5 s", text)
              and re.search(r"not recorded: \d+ events before it, \d+ events after it", text),
              "the text summary says it")
    for bad in (("--start-after", "-1"), ("--start-after", "soon"), ("--duration", "0"),
                ("--duration", "1e3x")):
        r = kite(a, *bad, "--", a.program)
        check(one_line_error(r, 125, bad[0]), "%s %s refused (%r)" % (bad + (r.stderr,)))


def regions(a):
    """--regions B's line: only B, its nested regions, its tasks and its
    lock, on every thread of its teams; on Kite and libomp."""
    base = os.path.basename(a.source)
    for runtime in ("kite", "libomp"):
        _, whole, _, _ = phases_trace(a, runtime, "whole-" + runtime)
        lines = region_lines(whole)
        spec = "%s:%s" % (base, lines["B"])
        s, events, pevents, text = phases_trace(a, runtime, "regions-" + runtime, "--regions", spec)
        f = s.get("filter", {})
        check(f.get("regions") == spec and f.get("region_code_ranges", 0) > 0
              and f.get("regions_without_code") == "", "the summary names the region (%s)" % f)
        check(f.get("left_out_outside_regions", 0) > 0, "and counts what it left out (%s)" % f)
        for what, evs in (("json", events), ("perfetto", pevents)):
            par_lines = {e["args"].get("line") for e in slices(evs) if e.get("name", "").startswith("parallel")}
            check(par_lines == {lines["B"], lines["nested"]},
                  "%s: only region B and its nested region (%s)" % (what, par_lines))
        xs = slices(events)
        b = [e for e in slices(events, "parallel")
             if e["name"].startswith("parallel") and e["args"].get("line") == lines["B"]]
        check(len(b) == 1, "region B once (%d)" % len(b))
        if b:
            lo, hi = b[0]["ts"], b[0]["ts"] + b[0]["dur"]
            # Begins only: libomp reports a nested team worker's barrier end
            # when the thread is next used (here: at its end).
            out = [e for e in xs if e["name"] != "initial task" and not lo - 0.002 <= e["ts"] <= hi]
            check(not out, "every slice begins inside region B's time (%s)" % out[:2])
        nested_threads = {e["tid"] for e in xs if e["name"].startswith("implicit task")
                          and e["args"].get("line") == lines["nested"]}
        check(len(nested_threads) >= 3, "the nested region's implicit tasks on its teams' threads (%s)"
              % nested_threads)
        task_lines = {e["args"].get("line") for e in slices(events, "task") if e["name"].startswith("task")}
        check(len(task_lines) == 1 and None not in task_lines, "B's tasks are there (%s)" % task_lines)
        locks = [e for e in slices(events, "mutex") if e["name"].startswith("lock")]
        crit = [e for e in slices(events, "mutex") if "critical" in e["name"]]
        check(len(locks) > 10 and not crit, "B's lock is there, A's and C's critical sections are not "
              "(%d locks, %d critical)" % (len(locks), len(crit)))
        check(re.search(r"regions: only %s \(\d+ ranges? of code\): \d+ events outside them not recorded"
                        % re.escape(spec), text), "the text summary says it")
        # A line with no code: a warning, nothing recorded but the threads.
        s, events, _, text = phases_trace(a, runtime, "nocode-" + runtime, "--regions", base + ":1")
        check("no code at that line" in text and "no code found at %s:1" % base in text,
              "a line without code is said")
        check(s["parallel_regions"] == 0 and not slices(events, "parallel"),
              "and no region is recorded (%d)" % s["parallel_regions"])
    for bad in ("phases.c", "phases.c:0", ":12", "phases.c:x"):
        r = kite(a, "--regions", bad, "--", a.program)
        check(one_line_error(r, 125, "--regions"), "--regions %s refused (%r)" % (bad, r.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=["errors", "crash", "long", "ranks", "profile_errors",
                                     "convert_memory", "signals", "error_paths", "max_size",
                                     "window", "regions"])
    ap.add_argument("--source")
    ap.add_argument("--other-tool")
    ap.add_argument("--program")
    ap.add_argument("--omp-program")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    a.work = os.path.abspath(a.work)
    a.kite = os.path.abspath(a.kite)
    for attr in ("program", "omp_program", "other_tool"):
        if getattr(a, attr):
            setattr(a, attr, os.path.abspath(getattr(a, attr)))
    {"errors": errors, "crash": crash, "long": long_run, "ranks": ranks,
     "profile_errors": profile_errors, "convert_memory": convert_memory, "signals": signals,
     "error_paths": error_paths, "max_size": max_size, "window": window,
     "regions": regions}[a.case](a)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
