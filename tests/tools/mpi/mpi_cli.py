#!/usr/bin/env python3
"""`kite trace` and `kite profile` around MPI jobs, as commands: the two
launch forms, exit statuses, --per-rank, stale files, ranks that never
finish, MPIs kite has no wrapper for. Each case is a subcommand so ctest
reports them one by one. What the merged trace holds is checked in depth by
tests/tools/trace (MPI records, matching, clocks); here: that the forms
produce it.

  mpi_cli.py --kite KITE --work DIR forms --flavor openmpi|mpich --program EXE
  mpi_cli.py --kite KITE --work DIR files --flavor openmpi|mpich --program EXE
  mpi_cli.py --kite KITE --work DIR unfinished --omp-program EXE
  mpi_cli.py --kite KITE --work DIR unknown --omp-program EXE --fake-program EXE
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

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
from toolcheck import check, finish  # noqa: E402
sys.path.insert(0, os.path.join(here, "..", "trace"))
import perfetto_decode  # noqa: E402

ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "2", "KITE_MPI_WAIT": "60"}


def env(extra=None):
    e = dict(os.environ)
    e.update(ENV)
    for v in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "KITE_TRACE_RANK",
              "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "KITE_TRACE_SIZE"):
        e.pop(v, None)
    if extra:
        e.update(extra)
    return e


def launcher(flavor, n):
    if flavor == "openmpi":
        return ["mpirun.openmpi", "--oversubscribe", "-np", str(n)]
    return ["mpirun.mpich", "-np", str(n)]


def run(a, cmd, extra=None, timeout=240):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env(extra), cwd=a.work,
                       timeout=timeout)
    print("$ " + " ".join(cmd))
    print(r.stdout)
    print(r.stderr)
    return r


def kite_cmd(a, command, *args):
    return [sys.executable, a.kite, command] + list(args)


def merged_trace(out, n, what):
    """DIR holds one trace of the job: trace.* only, every rank a process of
    it, each with its MPI calls, all run on Kite."""
    files = sorted(os.listdir(out))
    check(files == ["trace.otf2", "trace.perfetto-trace", "trace.summary.json"],
          "%s: one trace of the job, no raw/ and no rank<R>.* (%s)" % (what, files))
    if "trace.perfetto-trace" not in files:
        return
    s = json.load(open(os.path.join(out, "trace.summary.json")))
    runtimes = [r.get("runtime", "") for r in s.get("ranks", [])]
    check(s.get("job") is True and len(runtimes) == n
          and all(r.startswith("kite ") for r in runtimes),
          "%s: every rank ran on Kite (%s)" % (what, runtimes))
    ev, _, problems = perfetto_decode.read(os.path.join(out, "trace.perfetto-trace"))
    check(not problems, "%s: the protobuf trace is sound (%s)" % (what, problems[:3]))
    procs = {e["pid"]: e["args"]["name"] for e in ev
             if e.get("ph") == "M" and e["name"] == "process_name"}
    ranks = sorted(name.split()[1] for name in procs.values() if name.startswith("rank "))
    check(ranks == [str(r) for r in range(n)],
          "%s: a process per rank (%s)" % (what, sorted(procs.values())))
    for pid, name in procs.items():
        calls = [e for e in ev if e.get("ph") == "X" and e["pid"] == pid
                 and e["name"] == "MPI_Allreduce"]
        par = [e for e in ev if e.get("ph") == "X" and e["pid"] == pid
               and e["name"].startswith("parallel")]
        check(len(calls) == 1 and len(par) == 1,
              "%s: %s has its MPI_Allreduce and its parallel region (%d, %d)"
              % (what, name, len(calls), len(par)))


def forms(a):
    n = 2
    # Each rank under its own kite (the launcher's usual form).
    out = os.path.join(a.work, "inner")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-o", out, "--", a.program))
    check(r.returncode == 0, "inner form: the job exits 0 (%d)" % r.returncode)
    merged_trace(out, n, "inner form")
    # One kite around the launcher.
    out = os.path.join(a.work, "outer")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-o", out, "--") + launcher(a.flavor, n) + [a.program])
    check(r.returncode == 0, "outer form: exits 0 (%d)" % r.returncode)
    merged_trace(out, n, "outer form")
    # 4 ranks, inner form.
    out = os.path.join(a.work, "inner4")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, 4) + kite_cmd(a, "trace", "-q", "-o", out, "--", a.program))
    check(r.returncode == 0, "inner form, 4 ranks: exits 0 (%d)" % r.returncode)
    merged_trace(out, 4, "inner form, 4 ranks")
    # The profile: one report over every rank.
    out = os.path.join(a.work, "prof")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "profile", "-q", "--rate", "1000", "-o", out,
                                                "--", a.program))
    check(r.returncode == 0, "profile, inner form: exits 0 (%d)" % r.returncode)
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check(files == ["profile.html", "profile.json", "profile.txt"],
          "profile: one report of the job (%s)" % files)
    if "profile.json" in files:
        j = json.load(open(os.path.join(out, "profile.json")))
        check(j.get("format") == "kite-profile" and str(j.get("runtime", "")).startswith("kite "),
              "profile: a run on Kite (%s)" % j.get("runtime"))
    out = os.path.join(a.work, "prof-outer")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "profile", "-q", "--rate", "1000", "-o", out, "--")
            + launcher(a.flavor, n) + [a.program])
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check(r.returncode == 0 and files == ["profile.html", "profile.json", "profile.txt"],
          "profile, outer form: one report (%d, %s)" % (r.returncode, files))


def files(a):
    n = 2
    # A rank's exit status: the launcher reports it as without kite.
    plain = run(a, launcher(a.flavor, n) + [a.program, "exit", "1:3"])
    out = os.path.join(a.work, "status")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "-o", out, "--", a.program,
                                                 "exit", "1:3"))
    check(plain.returncode != 0 and r.returncode == plain.returncode,
          "inner form: rank 1's status 3 reaches the launcher as without kite (%d, %d)"
          % (r.returncode, plain.returncode))
    check(os.path.exists(os.path.join(out, "trace.perfetto-trace")), "and the job is merged")
    out = os.path.join(a.work, "status-outer")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--") + launcher(a.flavor, n)
            + [a.program, "exit", "1:3"])
    check(r.returncode == plain.returncode,
          "outer form: kite exits with the launcher's status (%d, %d)"
          % (r.returncode, plain.returncode))
    # --per-rank: each rank's own trace.
    out = os.path.join(a.work, "per-rank")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "--per-rank", "-o", out, "--",
                                                 a.program))
    got = sorted(f for f in os.listdir(out)) if os.path.isdir(out) else []
    check(r.returncode == 0 and got == ["rank0.otf2", "rank0.perfetto-trace", "rank0.summary.json",
                                        "rank1.otf2", "rank1.perfetto-trace",
                                        "rank1.summary.json"],
          "--per-rank: rank<R>.* (%d, %s)" % (r.returncode, got))
    # A second job into the same directory would merge the first one's raw
    # files: refused without --force, each rank with one line.
    out = os.path.join(a.work, "again")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "--keep-raw", "-o", out, "--",
                                                 a.program))
    check(r.returncode == 0 and os.path.isdir(os.path.join(out, "raw")),
          "--keep-raw keeps every rank's raw files")
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "-o", out, "--", a.program))
    # Each rank's kite refuses for itself (the launcher may stop the others
    # before they say so); no rank's program runs.
    check(r.returncode != 0 and re.search(r"already holds (rank [01]'s raw files|trace\.)", r.stderr)
          and " of %d:" % n not in r.stdout,
          "a second job into it is refused, no program run (%d)" % r.returncode)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "--force", "-o", out, "--",
                                                 a.program))
    check(r.returncode == 0, "--force: the job runs into it (%d)" % r.returncode)
    merged_trace(out, n, "--force")
    # kite convert merges the raw files of every rank, or one with --rank.
    out = os.path.join(a.work, "later")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, launcher(a.flavor, n) + kite_cmd(a, "trace", "-q", "--keep-raw", "-o", out, "--",
                                                 a.program))
    for f in os.listdir(out):
        if f != "raw":
            p = os.path.join(out, f)
            shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
    r = run(a, kite_cmd(a, "convert", "-q", out))
    got = sorted(f for f in os.listdir(out) if f != "raw")
    check(r.returncode == 0 and got == ["trace.otf2", "trace.perfetto-trace", "trace.summary.json"],
          "kite convert DIR merges every rank (%d, %s)" % (r.returncode, got))
    r = run(a, kite_cmd(a, "convert", "-q", "--rank", "1", out))
    check(r.returncode == 0 and os.path.exists(os.path.join(out, "rank1.perfetto-trace")),
          "kite convert --rank 1: rank 1 alone (%d)" % r.returncode)


def unfinished(a):
    """Rank 0's kite does not wait forever for a rank that will not finish:
    ranks simulated with KITE_TRACE_RANK / KITE_TRACE_SIZE (what a launcher
    sets), an OpenMP program without MPI."""
    out = os.path.join(a.work, "gone")
    shutil.rmtree(out, ignore_errors=True)
    # Rank 1's kite runs a program that sleeps, then is killed with SIGKILL:
    # it never says its rank is done; its program dies with it (PDEATHSIG).
    r1 = subprocess.Popen(kite_cmd(a, "trace", "-q", "-o", out, "--", "/bin/sh", "-c", "sleep 60"),
                          env=env({"KITE_TRACE_RANK": "1", "KITE_TRACE_SIZE": "2"}), cwd=a.work,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(100):
        if os.path.exists(os.path.join(out, "raw", "rank1.kite")):
            break
        time.sleep(0.1)
    check(os.path.exists(os.path.join(out, "raw", "rank1.kite")), "rank 1's kite announced itself")
    r0 = subprocess.Popen(kite_cmd(a, "trace", "-o", out, "--", a.omp_program),
                          env=env({"KITE_TRACE_RANK": "0", "KITE_TRACE_SIZE": "2"}), cwd=a.work,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    check(r0.poll() is None, "rank 0's kite waits for rank 1")
    r1.send_signal(signal.SIGKILL)
    r1.wait()
    start = time.monotonic()
    o, e = r0.communicate(timeout=60)
    print(o, e)
    check(r0.returncode == 0 and time.monotonic() - start < 10,
          "once rank 1's kite died, rank 0's merges at once (%d, %.1f s)"
          % (r0.returncode, time.monotonic() - start))
    check("rank 1 did not finish (its kite ended)" in e, "and says so (%r)" % e)
    check("waiting for rank 1" in e, "it said whom it waited for")
    check(os.path.exists(os.path.join(out, "trace.perfetto-trace")), "rank 0's part is converted")
    # A rank that never starts: the quiet limit (KITE_MPI_WAIT) ends the wait.
    out = os.path.join(a.work, "never")
    shutil.rmtree(out, ignore_errors=True)
    start = time.monotonic()
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", a.omp_program),
            {"KITE_TRACE_RANK": "0", "KITE_TRACE_SIZE": "3", "KITE_MPI_WAIT": "2"})
    took = time.monotonic() - start
    check(r.returncode == 0 and "ranks 1, 2 did not finish (nothing of it changed for 2 s)"
          in r.stderr, "ranks that never start: given up on after KITE_MPI_WAIT (%r)" % r.stderr)
    check(2 <= took < 30, "after about 2 s (%.1f s)" % took)
    check(os.path.exists(os.path.join(out, "trace.perfetto-trace")), "what was recorded is converted")


def unknown(a):
    # A program linking an MPI library that is neither Open MPI nor MPICH.
    out = os.path.join(a.work, "fake")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", a.fake_program))
    check(r.returncode == 0 and "links libmpi_other.so, which is neither Open MPI nor MPICH" in r.stderr,
          "an MPI kite has no wrapper for: one warning, the trace made (%d %r)"
          % (r.returncode, r.stderr))
    check(os.path.exists(os.path.join(out, "trace.perfetto-trace")), "its OpenMP events traced")
    # A launcher kite cannot place (a script called mpirun).
    fake = os.path.join(a.work, "bin", "mpirun")
    os.makedirs(os.path.dirname(fake), exist_ok=True)
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nexec \"$@\"\n")
    os.chmod(fake, 0o755)
    # It starts a script: kite cannot see what it runs.
    script = os.path.join(a.work, "bin", "run-it")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nexec %s\n" % a.omp_program)
    os.chmod(script, 0o755)
    out = os.path.join(a.work, "fake-launcher")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", fake, script))
    check(r.returncode == 0 and "cannot tell which MPI" in r.stderr,
          "an unknown launcher starting a script: said (%d %r)" % (r.returncode, r.stderr))
    check(os.path.exists(os.path.join(out, "trace.perfetto-trace")), "its OpenMP events traced")
    # It starts a plain OpenMP program (srun ./omp_app): nothing to say.
    out = os.path.join(a.work, "fake-launcher-omp")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", fake, a.omp_program))
    check(r.returncode == 0 and "MPI" not in r.stderr,
          "an unknown launcher starting a non-MPI program: no warning (%r)" % r.stderr)
    # It starts a program of an MPI kite has no wrapper for.
    out = os.path.join(a.work, "fake-launcher-fake")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", fake, a.fake_program))
    check(r.returncode == 0 and "libmpi_other.so, which is neither" in r.stderr,
          "an unknown launcher starting another MPI's program: said (%r)" % r.stderr)
    # A plain OpenMP program: not a word about MPI.
    out = os.path.join(a.work, "plain")
    shutil.rmtree(out, ignore_errors=True)
    r = run(a, kite_cmd(a, "trace", "-q", "-o", out, "--", a.omp_program))
    check(r.returncode == 0 and "MPI" not in r.stderr, "no MPI, nothing said (%r)" % r.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=["forms", "files", "unfinished", "unknown"])
    ap.add_argument("--flavor", choices=["openmpi", "mpich"])
    ap.add_argument("--program")
    ap.add_argument("--omp-program")
    ap.add_argument("--fake-program")
    a = ap.parse_args()
    a.kite = os.path.abspath(a.kite)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    {"forms": forms, "files": files, "unfinished": unfinished, "unknown": unknown}[a.case](a)
    finish()


if __name__ == "__main__":
    main()
