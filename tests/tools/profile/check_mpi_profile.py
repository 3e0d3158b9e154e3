#!/usr/bin/env python3
"""Known-answer tests of `kite profile` on MPI + OpenMP jobs: one report
over every rank (kite-profile-analyze on the job's raw directory), its MPI
wait states and hybrid efficiency (docs/kite-profile.md, "MPI").

Programs (tests/tools/profile/mpi_*.c; the comment at the top of each says
what it must produce):
  mpi_late_sender  rank 0's MPI_Recv waits ~300 ms for rank 1: a late
                   sender blamed on rank 1's @late line; then its MPI_Ssend
                   ~200 ms: a late receiver on rank 1's @late_recv line;
  mpi_collective   the last rank arrives ~300 ms late at MPI_Barrier, rank 0
                   ~200 ms late at MPI_Allreduce: waits at the collectives
                   blamed on the last arriver's marked line;
  mpi_halo         rank 1 works twice as long: MPI load balance (N+1)/(2N).

  check_mpi_profile.py --analyze EXE --mpi openmpi|mpich --mpirun MPIRUN --np N
                       --tools DIR --programs DIR --source DIR
                       [--launch env|kite --kite KITE] WORKDIR

--tools is the build directory holding libkite-profile.so,
libkite-mpi-<mpi>.so and gomp/ (Kite as libgomp). produce() makes a job's
raw directory: by default with the environment `kite profile` gives each
rank (--launch env), or as `mpirun -np N kite profile -o DIR -- PROG`
(--launch kite).
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish, marks  # noqa: E402

RATE = 1000  # as the efficiency tests: load balances are checked to +-0.05
HANG_S = 120  # a run of these programs takes a few seconds


def mpirun_cmd(a):
    cmd = [a.mpirun, "-np", str(a.np)]
    if a.mpi == "openmpi":
        cmd[1:1] = ["--oversubscribe"]
    return cmd


def produce(a, prog, out):
    """Runs PROG on a.np ranks with kite profile's tool; returns the raw
    directory every rank recorded into (with --launch kite, kite has made
    the job's report next to it: profile.json, profile.txt)."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMP_NUM_THREADS": "2"})
    if a.launch == "kite":
        cmd = mpirun_cmd(a) + [sys.executable, a.kite, "profile", "--rate", str(RATE), "--keep-raw",
                               "-o", out, "--", prog]
        raw = os.path.join(out, "raw")
    else:
        raw = os.path.join(out, "raw")
        os.makedirs(raw)
        lib = os.path.join(a.tools, "libkite-profile.so")
        env.update({"OMP_TOOL_LIBRARIES": lib, "KITE_MPI_TOOL_LIB": lib,
                    "KITE_PROFILE_DIR": raw, "KITE_PROFILE_RATE": str(RATE),
                    "LD_LIBRARY_PATH": os.path.join(a.tools, "gomp") + ":" +
                    os.path.join(a.tools, "llvm"),
                    # as kite profile does: SIGPROF held back while a rank
                    # is in the loader (tools/profile/loader_guard.cpp)
                    "LD_PRELOAD": os.path.join(a.tools, "libkite-profile-guard.so") + ":" +
                    os.path.join(a.tools, "libkite-mpi-%s.so" % a.mpi)})
        cmd = mpirun_cmd(a) + [prog]
    print(" ".join(cmd))
    # A job that hangs is a failure, stopped after HANG_S with where each
    # rank was. (Runs here hung in MPI_Init 1 in ~20: the profiler's
    # handler unwinding while its thread, or another, held the dynamic
    # loader's lock as Open MPI loaded its components: profile_tool.cpp and
    # loader_guard.cpp; and a rank's kite that lost the race to create DIR
    # and exited before MPI_Init.)
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out_text, err_text = p.communicate(timeout=HANG_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out_text, err_text = p.communicate()
        print(out_text)
        print(err_text)
        print("the job hung for %d s; where its ranks were:" % HANG_S)
        r = subprocess.run([a.analyze, raw], capture_output=True, text=True)
        print(r.stdout[:3000])
        check(False, "%s on %d ranks ends (it hung)" % (os.path.basename(prog), a.np))
        return raw
    print(out_text)
    print(err_text)
    check(p.returncode == 0, "%s on %d ranks exits 0 (%d)" % (os.path.basename(prog), a.np, p.returncode))
    return raw


def analyze(a, raw, name):
    """One report over the job: profile.json and the text; kite's own with
    --launch kite (it ran kite-profile-analyze on the raw directory)."""
    if a.launch == "kite":
        out = os.path.dirname(raw)
        js, txt = os.path.join(out, "profile.json"), os.path.join(out, "profile.txt")
        if not check(os.path.exists(js) and os.path.exists(txt),
                     "kite profile wrote the job's profile.json and profile.txt"):
            return None, ""
        with open(js) as f, open(txt) as t:
            return json.load(f), t.read()
    js = os.path.join(a.workdir, name + ".json")
    r = subprocess.run([a.analyze, "--json", js, raw], capture_output=True, text=True, timeout=300)
    print(r.stdout)
    print(r.stderr)
    if not check(r.returncode == 0 and os.path.exists(js), "kite-profile-analyze exits 0 (%d)" % r.returncode):
        return None, ""
    with open(js) as f:
        return json.load(f), r.stdout


def on_kite_every_rank(a, raw, p):
    """Each rank's process ran on Kite with the MPI wrapper, and the one
    report holds every rank."""
    metas = sorted(glob.glob(os.path.join(raw, "*.meta")))
    ranks = []
    for m in metas:
        kv = dict(l.rstrip("\n").split("=", 1) for l in open(m) if "=" in l)
        check(kv.get("runtime", "").startswith("kite "), "%s ran on Kite (%s)"
              % (os.path.basename(m), kv.get("runtime")))
        check(kv.get("mpi") == a.mpi, "%s: the %s wrapper recorded (mpi=%s)"
              % (os.path.basename(m), a.mpi, kv.get("mpi")))
        ranks.append(int(kv.get("mpi_world_rank", "-1")))
    check(sorted(ranks) == list(range(a.np)), "one process per rank 0..%d recorded (%s)"
          % (a.np - 1, sorted(ranks)))
    if p is None:
        return False
    check(p["runtime"].startswith("kite "), "the report says Kite (%s)" % p["runtime"])
    mpi = p.get("mpi", {})
    got = sorted(x["rank"] for x in mpi.get("processes", []))
    check(got == list(range(a.np)), "ONE report with every rank (%s)" % got)
    rows = sorted({t.get("rank") for t in p["timeline"]["threads"]})
    check(rows == list(range(a.np)), "its timeline has every rank's threads (%s)" % rows)
    e = p["efficiency"]
    check(e.get("version") == 2 and "hybrid" in e, "a version-2 efficiency object with the hybrid model")
    h = e["hybrid"]
    check(abs(h["parallel_efficiency"] - h["mpi_parallel_efficiency"] * h["openmp_parallel_efficiency"]) <= 0.01,
          "parallel efficiency %.3f = MPI %.3f x OpenMP %.3f" % (h["parallel_efficiency"],
                                                               h["mpi_parallel_efficiency"],
                                                               h["openmp_parallel_efficiency"]))
    check(abs(h["mpi_parallel_efficiency"] - h["mpi_load_balance"] * h["mpi_communication_efficiency"]) <= 0.01,
          "MPI parallel efficiency %.3f = load balance %.3f x communication efficiency %.3f"
          % (h["mpi_parallel_efficiency"], h["mpi_load_balance"], h["mpi_communication_efficiency"]))
    return True


def blamed(p, kind, rank, line, source):
    """Seconds of wait state KIND blamed on rank RANK's LINE of SOURCE."""
    return sum(b["seconds"] for b in p["mpi"]["wait_states"]["blamed"]
               if b["kind"] == kind and b["rank"] == rank and b["line"] == line and
               os.path.basename(b["file"]) == os.path.basename(source))


def late_sender(a):
    src = os.path.join(a.source, "mpi_late_sender.c")
    raw = produce(a, os.path.join(a.programs, "mpi_late_sender"), os.path.join(a.workdir, "late_sender"))
    p, text = analyze(a, raw, "late_sender")
    if not on_kite_every_rank(a, raw, p):
        return
    m = marks(src)
    ws = p["mpi"]["wait_states"]
    total = ws["kinds"]["late_sender"]["seconds"]
    check(0.27 <= total <= 0.45, "late sender: rank 0 waited %.3f s for rank 1 (~0.30)" % total)
    on_line = blamed(p, "late_sender", 1, m["late"], src)
    check(total > 0 and on_line >= 0.8 * total,
          "late sender: %.3f of %.3f s blamed on rank 1's line %d (@late)" % (on_line, total, m["late"]))
    r0 = next(x for x in ws["ranks"] if x["rank"] == 0)
    r1 = next(x for x in ws["ranks"] if x["rank"] == 1)
    check(abs(r0["waited"]["late_sender"] - total) < 1e-3 and abs(r1["caused"]["late_sender"] - total) < 1e-3,
          "late sender: rank 0 waited, rank 1 caused it")
    recv = [s for s in p["mpi"]["by_site"] if s["call"] == "MPI_Recv" and s["line"] == m["recv"]]
    check(len(recv) == 1 and recv[0]["seconds"] >= 0.27,
          "time in MPI_Recv at its call site mpi_late_sender.c:%d (%s)"
          % (m["recv"], [(s["line"], s["seconds"]) for s in recv]))
    # The late receiver: rank 0's MPI_Ssend waits ~200 ms for rank 1.
    lr = ws["kinds"]["late_receiver"]["seconds"]
    check(0.18 <= lr <= 0.32, "late receiver: rank 0's MPI_Ssend waited %.3f s for rank 1 (~0.20)" % lr)
    on_line = blamed(p, "late_receiver", 1, m["late_recv"], src)
    check(lr > 0 and on_line >= 0.8 * lr,
          "late receiver: %.3f of %.3f s blamed on rank 1's line %d (@late_recv)"
          % (on_line, lr, m["late_recv"]))
    check(abs(r0["waited"]["late_receiver"] - lr) < 1e-3 and abs(r1["caused"]["late_receiver"] - lr) < 1e-3,
          "late receiver: rank 0 waited, rank 1 caused it")
    ssend = [s for s in p["mpi"]["by_site"] if s["call"] == "MPI_Ssend"]
    check(len(ssend) == 1 and ssend[0]["line"] == m["ssend"],
          "MPI_Ssend at its call site mpi_late_sender.c:%d (%s)" % (m["ssend"], [s["line"] for s in ssend]))
    check("MPI job" in text and "late_sender" in text, "the text report has the MPI sections")
    if a.launch == "kite":
        page(a, os.path.join(os.path.dirname(raw), "profile.html"))


def page(a, html):
    """kite's HTML page of the job loads and shows its MPI sections."""
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    if not check(browser is not None, "chromium is installed (scripts/setup.sh installs it)"):
        return
    d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--user-data-dir=" + os.path.join(a.workdir, "chromium"),
                        "--dump-dom", "file://" + os.path.abspath(html)],
                       capture_output=True, text=True, timeout=120)
    body = re.search(r"<body([^>]*)>", d.stdout)
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}
    check(attrs.get("status") == "ok", "the page loads without script errors (%s)" % attrs.get("status"))
    check(attrs.get("mpi-ranks") == str(a.np) and attrs.get("mpi-metrics") == "8" and
          attrs.get("mpi-wait-kinds") == "3" and int(attrs.get("mpi-blamed", "0")) > 0,
          "the page shows the job: %s ranks, the 8 hybrid metrics, 3 wait kinds, blamed lines (%s)"
          % (attrs.get("mpi-ranks"), attrs))


def collective(a):
    src = os.path.join(a.source, "mpi_collective.c")
    raw = produce(a, os.path.join(a.programs, "mpi_collective"), os.path.join(a.workdir, "collective"))
    p, _ = analyze(a, raw, "collective")
    if not on_kite_every_rank(a, raw, p):
        return
    m = marks(src)
    n = a.np
    last = n - 1
    ws = p["mpi"]["wait_states"]
    for rank, mark, ms in ((last, "last_barrier", 300), (0, "last_allreduce", 200)):
        want = (n - 1) * ms / 1000.0
        got = blamed(p, "wait_at_collective", rank, m[mark], src)
        check(0.8 * want <= got <= 1.4 * want,
              "collective wait blamed on the last arriver, rank %d line %d (@%s): %.3f s (~%.2f)"
              % (rank, m[mark], mark, got, want))
    caused = {x["rank"]: x["caused"]["wait_at_collective"] for x in ws["ranks"]}
    waited = {x["rank"]: x["waited"]["wait_at_collective"] for x in ws["ranks"]}
    check(caused.get(last, 0) >= 0.8 * (n - 1) * 0.3,
          "rank %d caused the barrier's waits (%.3f s)" % (last, caused.get(last, 0)))
    others = [r for r in range(1, n - 1)]
    check(all(waited.get(r, 0) >= 0.8 * 0.5 for r in others),
          "ranks between 0 and %d waited at both collectives (%s)" % (last, waited))


def halo(a):
    raw = produce(a, os.path.join(a.programs, "mpi_halo"), os.path.join(a.workdir, "halo"))
    p, _ = analyze(a, raw, "halo")
    if not on_kite_every_rank(a, raw, p):
        return
    want = (a.np + 1) / (2.0 * a.np)
    lb = p["efficiency"]["hybrid"]["mpi_load_balance"]
    check(abs(lb - want) <= 0.05, "halo: MPI load balance %.3f (expected %.3f +- 0.05)" % (lb, want))
    omp = p["efficiency"]["hybrid"]["openmp_load_balance"]
    check(omp >= 0.9, "halo: the OpenMP regions are balanced (load balance %.3f)" % omp)
    regions = p["regions"]
    check(regions and {r["rank"] for r in regions[0].get("ranks", [])} == set(range(a.np)),
          "halo: its region is one row over every rank")
    late = p["mpi"]["wait_states"]["kinds"]["late_sender"]["seconds"]
    check(late > 0.5, "halo: the ranks waiting for rank 1 are late-sender waits (%.3f s)" % late)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--analyze", required=True)
    ap.add_argument("--mpi", required=True, choices=("openmpi", "mpich"))
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--programs", required=True, help="directory of mpi_* built for this MPI")
    ap.add_argument("--source", required=True)
    ap.add_argument("--launch", default="env", choices=("env", "kite"))
    ap.add_argument("--kite")
    ap.add_argument("--only", action="append", help="late_sender, collective, halo (default: all)")
    ap.add_argument("workdir")
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    for name, fn in (("late_sender", late_sender), ("collective", collective), ("halo", halo)):
        if not a.only or name in a.only:
            print("== %s, %s, %d ranks" % (name, a.mpi, a.np))
            fn(a)
    finish()


if __name__ == "__main__":
    main()
