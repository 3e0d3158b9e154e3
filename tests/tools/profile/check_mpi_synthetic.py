#!/usr/bin/env python3
"""kite-profile-analyze on a made-up MPI job whose every wait state and
efficiency is known to the nanosecond (no MPI, no program: the raw files
libkite-profile.so and the MPI wrappers would write, raw_format.h,
profile_format.h and mpi_format.h, the kinds and call numbers read from the
headers). Two ranks, one thread each, a sample every millisecond (at the
half millisecond, off every event's time):

  t (ms)     rank 0                          rank 1
  0-10       MPI_Init                        MPI_Init
  20-50      MPI_Recv from 1, tag 1          45-46 MPI_Send to 0, tag 1
             late sender: 45 - 20 = 25 ms, blamed on rank 1
  80-81      MPI_Irecv from 1, tag 2         60-90 MPI_Ssend to 0, tag 2
  85-91      MPI_Wait (completes it)         late receiver: 80.001 - 60 ms
                                             (the receive is posted when its
                                             record is, 1 us into MPI_Irecv),
                                             blamed on rank 0
  100-101    MPI_Irecv from 1, tag 3         130-131 MPI_Isend to 0, tag 3
  110-140    MPI_Wait (completes it)         132-133 MPI_Wait (completes it)
             late sender: 130 - 110 = 20 ms
  150-170    MPI_Barrier                     165-170 MPI_Barrier
             wait at the collective: 15 ms, blamed on rank 1 (last)
  180-190    MPI_Finalize                    MPI_Finalize

Between MPI_Init and MPI_Finalize (170 ms each) rank 0 spends 88 ms in MPI
calls, rank 1 38: outside MPI 82 and 132 ms. MPI load balance 107/132,
communication efficiency 132/170, MPI parallel efficiency 107/170, OpenMP
parallel efficiency 1 (every sample outside MPI works).

--skew NS: rank 1's clock reads NS ahead, in another clock domain, with
the offsets MPI_Init and MPI_Finalize would have measured: the answers are
the same. --crash: rank 1 dies at 166 ms, in its MPI_Barrier (no more
records, no end of run in its meta): the wait states are the same, and the
report says that rank 1 did not finish and that a call never returned.
kite-profile-analyze --rank 1 analyzes rank 1 alone.

  check_mpi_synthetic.py --analyze EXE [--skew NS] [--crash] WORKDIR
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
MS = 1000000
T0 = 10 ** 12
WINDOW = 48 * 4096


def enums():
    raw = open(os.path.join(ROOT, "tools", "common", "raw_format.h")).read()
    body = raw[raw.index("enum Kind : uint8_t {") + len("enum Kind : uint8_t {"):]
    body = body[:body.index("};")]
    kinds = {name: n for n, name in enumerate(re.findall(r"^\s*(k\w+)", body, re.M))}
    mpi = open(os.path.join(ROOT, "tools", "common", "mpi_format.h")).read()
    text = mpi[mpi.index("#define KITE_MPI_CALLS(X)"):]
    text = text[:text.index("enum Call")]
    calls = {name: i + 1 for i, name in enumerate(re.findall(r"X\((\w+)\)", text))}
    return kinds, calls


K, C = enums()


def rec(t, kind, sub=0, f16=0, u32=0, a=0, b=0, c=0, d=0):
    return struct.pack("<QBBHIQQQQ", t, K[kind], sub, f16, u32, a, b, c, d)


def call(ev, name, t0, t1, site, inner=()):
    """One MPI call on rank's thread 0: enter at t0 ms, its records, leave at t1."""
    ev.append((t0 * MS, rec(0, "kMpiEnter", sub=C[name], c=site)))
    for kind, fields in inner:
        ev.append((t0 * MS + 1000, rec(0, kind, **fields)))
    ev.append((t1 * MS, rec(0, "kMpiLeave", sub=C[name])))


def job():
    """Each rank's events (ms)."""
    r0, r1 = [], []
    site = 0x1000  # no maps: call sites are unknown addresses
    for ev in (r0, r1):
        call(ev, "Init", 0, 10, site)
        call(ev, "Finalize", 180, 190, site + 1)
    call(r0, "Recv", 20, 50, site + 2,
         [("kMpiRecv", dict(a=0, u32=1, b=1, d=4, c=0))])
    call(r1, "Send", 45, 46, site + 3, [("kMpiSend", dict(a=0, u32=0, b=1, d=4, c=0))])
    call(r0, "Irecv", 80, 81, site + 4, [("kMpiRecvRequest", dict(a=0, c=7, u32=1, b=2))])
    call(r0, "Wait", 85, 91, site + 5, [("kMpiRecv", dict(a=0, u32=1, b=2, d=4, c=7))])
    call(r1, "Ssend", 60, 90, site + 6, [("kMpiSend", dict(a=0, u32=0, b=2, d=4, c=0))])
    call(r0, "Irecv", 100, 101, site + 7, [("kMpiRecvRequest", dict(a=0, c=8, u32=1, b=3))])
    call(r0, "Wait", 110, 140, site + 8, [("kMpiRecv", dict(a=0, u32=1, b=3, d=4, c=8))])
    call(r1, "Isend", 130, 131, site + 9, [("kMpiSend", dict(a=0, u32=0, b=3, d=4, c=9))])
    call(r1, "Wait", 132, 133, site + 10, [("kMpiSendComplete", dict(a=9))])
    bar = [("kMpiCollective", dict(sub=C["Barrier"], a=0, u32=0xffffffff))]
    call(r0, "Barrier", 150, 170, site + 11, bar)
    call(r1, "Barrier", 165, 170, site + 11, bar)
    return [r0, r1]


def write(raw, skew, crash):
    os.makedirs(raw)
    for rank, ev in enumerate(job()):
        shift = skew if rank == 1 else 0
        dies = crash and rank == 1
        if dies:
            ev = [e for e in ev if e[0] < 166 * MS]
        stem = os.path.join(raw, "rank%d.pid%d" % (rank, 100 + rank))
        start, end = T0 + shift, T0 + 200 * MS + shift
        meta = ["format=1", "pid=%d" % (100 + rank), "rank=%d" % rank, "exe=/synthetic",
                "runtime=kite 0.1.0", "start_ns=%d" % start, "window_bytes=%d" % WINDOW,
                "clock=ns", "rate_hz=1000", "period_ns=1000000",
                "clock_domain=%s" % ("boot-a" if rank == 0 or not skew else "boot-b"),
                "mpi=openmpi", "mpi_world_rank=%d" % rank, "mpi_world_size=2", "mpi_host=synthetic",
                "mpi_clock_init=%d %d 100" % (T0 + 5 * MS + shift, -shift),
                "mpi_clock_final=%d %d 100" % (T0 + 185 * MS + shift, -shift),
                "end_ns=%d" % end, "threads=1"]
        if dies:
            meta = [m for m in meta if not m.startswith(("end_ns=", "threads=", "mpi_clock_final="))]
        with open(stem + ".meta", "w") as f:
            f.write("\n".join(meta) + "\n")
        open(stem + ".maps", "w").close()
        recs = [rec(start, "kHeader", sub=1, a=0, b=1000 + rank, u32=0x4b545231, c=1),
                rec(start, "kThreadBegin", sub=1)]
        for t, r in sorted(ev, key=lambda e: e[0]):
            recs.append(struct.pack("<Q", T0 + t + shift) + r[8:])
        with open(stem + ".thread-0.raw", "wb") as f:
            f.write(b"".join(recs))
        # Samples: work_serial (0), weight 1, no frames, no extras.
        with open(stem + ".thread-0.samples.raw", "wb") as f:
            for k in range(166 if dies else 200):
                f.write(rec(T0 + k * MS + MS // 2 + shift, "kSample", f16=0, d=1))


def near(got, want, what, tol=1e-6):
    return check(got is not None and abs(got - want) <= tol, "%s: %.6f (expected %.6f)"
                 % (what, got if got is not None else -1, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--analyze", required=True)
    ap.add_argument("--skew", type=int, default=0)
    ap.add_argument("--crash", action="store_true")
    ap.add_argument("workdir")
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    raw = os.path.join(a.workdir, "raw")
    write(raw, a.skew, a.crash)
    js = os.path.join(a.workdir, "profile.json")
    r = subprocess.run([a.analyze, "--json", js, raw], capture_output=True, text=True)
    print(r.stdout)
    print(r.stderr)
    if not check(r.returncode == 0, "kite-profile-analyze exits 0 (%d)" % r.returncode):
        finish()
    p = json.load(open(js))
    check(p["runtime"].startswith("kite ") and sorted(x["rank"] for x in p["mpi"]["processes"]) == [0, 1],
          "one report of the made-up job's two ranks")
    check(p["mpi"]["one_clock"] == (a.skew == 0), "clocks: one domain unless skewed (%s)"
          % p["mpi"]["one_clock"])
    ws = p["mpi"]["wait_states"]
    for kind, s, n in (("late_sender", 0.045, 2), ("late_receiver", 0.020001, 1),
                       ("wait_at_collective", 0.015, 1)):
        near(ws["kinds"][kind]["seconds"], s, kind)
        check(ws["kinds"][kind]["calls"] == n, "%s in %d call(s) (%d)" % (kind, n, ws["kinds"][kind]["calls"]))
    ranks = {x["rank"]: x for x in ws["ranks"]}
    near(ranks[0]["waited"]["late_sender"], 0.045, "rank 0 waited for a late sender")
    near(ranks[1]["caused"]["late_sender"], 0.045, "rank 1 caused it")
    near(ranks[1]["waited"]["late_receiver"], 0.020001, "rank 1 waited for a late receiver")
    near(ranks[0]["caused"]["late_receiver"], 0.020001, "rank 0 caused it")
    near(ranks[0]["waited"]["wait_at_collective"], 0.015, "rank 0 waited at the barrier")
    near(ranks[1]["caused"]["wait_at_collective"], 0.015, "rank 1 arrived last")
    if a.crash:
        notes = " ".join(p["mpi"]["notes"])
        check("rank 1 ended without finalizing" in notes and "rank 1: 1 MPI call(s) never returned" in notes
              and "rank 0 ended" not in notes, "the report says rank 1 died in an MPI call (%s)" % notes)
        check(not p["finalized"], "the report is not a finalized run's")
        finish()
    by_call = {x["call"]: x for x in p["mpi"]["by_call"]}
    near(by_call["MPI_Wait"]["seconds"], 0.037, "time in MPI_Wait (6 + 30 + 1 ms)")
    check(by_call["MPI_Wait"]["calls"] == 3, "3 MPI_Wait calls")
    near(by_call["MPI_Recv"]["sampled_s"], 0.030, "rank 0's samples in MPI_Recv")
    h = p["efficiency"]["hybrid"]
    near(h["mpi_load_balance"], 107 / 132, "MPI load balance", 1e-3)
    near(h["mpi_communication_efficiency"], 132 / 170, "MPI communication efficiency", 1e-3)
    near(h["mpi_parallel_efficiency"], 107 / 170, "MPI parallel efficiency", 1e-3)
    near(h["openmp_parallel_efficiency"], 1.0, "OpenMP parallel efficiency", 1e-3)
    near(h["parallel_efficiency"], 107 / 170, "parallel efficiency", 1e-3)
    pr = {x["rank"]: x for x in p["efficiency"]["ranks"]}
    near(pr[0]["mpi_s"], 0.088, "rank 0's time in MPI between Init and Finalize")
    near(pr[1]["mpi_s"], 0.038, "rank 1's")
    # One rank alone (kite profile --per-rank's analysis) stays a process's profile.
    js1 = os.path.join(a.workdir, "rank1.json")
    r = subprocess.run([a.analyze, "--json", js1, "--rank", "1", raw], capture_output=True, text=True)
    print(r.stdout)
    if check(r.returncode == 0, "--rank 1 exits 0"):
        q = json.load(open(js1))
        check("mpi" not in q and q["rank"] == "1" and q["samples"] == 200,
              "--rank 1: rank 1's own profile, no job report (%s, %d samples)" % (q["rank"], q["samples"]))
    finish()


if __name__ == "__main__":
    main()
