"""Writes the raw files of a made-up MPI job (what libkite-trace.so and the
MPI wrappers would record, raw_format.h and mpi_format.h) whose every
message, collective and time is known, so the converter's merge is checked
against the truth: which send each receive matches, the ranks in each
communicator, and where a rank with a skewed clock belongs on rank 0's.

The record kinds and MPI call numbers are read from the headers, so the
files stay this build's format."""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def _enums():
    raw = open(os.path.join(ROOT, "tools", "common", "raw_format.h")).read()
    body = raw[raw.index("enum Kind : uint8_t {"):]
    body = body[:body.index("};")]
    kinds = {}
    for n, name in enumerate(re.findall(r"^\s*(k\w+)", body[body.index("{") + 1:], re.M)):
        kinds[name] = n
    mpi = open(os.path.join(ROOT, "tools", "common", "mpi_format.h")).read()
    calls_text = mpi[mpi.index("#define KITE_MPI_CALLS(X)"):]
    calls_text = calls_text[:calls_text.index("enum Call")]
    calls = {name: i + 1 for i, name in enumerate(re.findall(r"X\((\w+)\)", calls_text))}
    return kinds, calls


K, CALL = _enums()
MAGIC, VERSION = 0x4b545231, 1
ANY_RANK = 0xffffffff
WINDOW = 48 * 4096 + 16
T0 = 10 ** 12           # the job's true start, ns
STEP = 1000000          # 1 ms between operations


def rec(time, kind, sub=0, f16=0, u32=0, a=0, b=0, c=0, d=0):
    return struct.pack("<QBBHIQQQQ", time, K[kind], sub, f16, u32, a, b, c, d)


class Rank:
    def __init__(self, r):
        self.r = r
        self.main = []    # (true time, record args) on thread 0
        self.worker = []  # on thread 1


def comm_id(first_world_rank, counter):
    return ((first_world_rank + 1) << 32) | counter


def build(n, crash=False):
    """The job's operations, per rank, in true time. Returns (ranks,
    messages, collectives, comms): messages as (comm, from, to, tag, bytes)
    in send order, collectives as (rank, call, comm)."""
    ranks = [Rank(r) for r in range(n)]
    messages, collectives = [], []
    sub = comm_id(1, 0)                 # ranks 1 and 3 (or 1 alone)
    sub_members = [r for r in (1, 3) if r < n]
    comms = {sub: sub_members}
    t = T0 + STEP

    def call(rank, begin, name, records, end):
        rank.main.append((begin, ("kMpiEnter", dict(sub=CALL[name], c=0x401000 + CALL[name]))))
        for tt, kind, kw in records:
            rank.main.append((tt, (kind, kw)))
        rank.main.append((end, ("kMpiLeave", dict(sub=CALL[name]))))

    # An OpenMP parallel region of two threads on every rank.
    for rk in ranks:
        rk.main.append((t, ("kParallelBegin", dict(a=1, b=1, u32=2, c=0x401500))))
        rk.main.append((t + 10, ("kImplicitTask", dict(sub=1, a=1, b=2, u32=2, d=0))))
        rk.worker.append((t + 20, ("kImplicitTask", dict(sub=1, a=1, b=3, u32=2, d=1))))
        rk.worker.append((t + 50000, ("kImplicitTask", dict(sub=2, a=1, b=3, u32=2, d=1))))
        rk.main.append((t + 60000, ("kImplicitTask", dict(sub=2, a=1, b=2, u32=2, d=0))))
        rk.main.append((t + 60010, ("kParallelEnd", dict(a=1, b=1))))
    t += STEP
    # A ring of Sendrecv: each rank sends to the next, receives from the previous.
    for rk in ranks:
        to, frm = (rk.r + 1) % n, (rk.r - 1) % n
        b = t + rk.r * 1000
        call(rk, b, "Sendrecv", [(b + 100, "kMpiSend", dict(a=0, u32=to, b=7, d=800 + rk.r)),
                                 (t + 50000 + rk.r * 100, "kMpiRecv",
                                  dict(a=0, u32=frm, b=7, d=800 + frm))], t + 50200 + rk.r * 100)
        messages.append((0, rk.r, to, 7, 800 + rk.r))
    t += STEP
    # Nonblocking: rank 0 isends to rank 1, which posted an irecv; both wait.
    if n > 1:
        r0, r1 = ranks[0], ranks[1]
        call(r1, t, "Irecv", [(t + 50, "kMpiRecvRequest", dict(a=0, c=22, u32=0, b=3))], t + 100)
        call(r0, t + 200, "Isend", [(t + 250, "kMpiSend", dict(a=0, u32=1, b=3, d=64, c=11))], t + 300)
        call(r0, t + 400, "Wait", [(t + 500, "kMpiSendComplete", dict(a=11))], t + 600)
        call(r1, t + 400, "Wait", [(t + 20000, "kMpiRecv", dict(a=0, u32=0, b=3, d=64, c=22))],
             t + 20100)
        messages.append((0, 0, 1, 3, 64))
    t += STEP
    # Two messages on one channel (2 -> 3, tag 5), received with MPI_ANY_SOURCE:
    # they match in order (non-overtaking).
    if n > 3:
        r2, r3 = ranks[2], ranks[3]
        for k, size in enumerate((10, 20)):
            b = t + k * 100000
            call(r2, b, "Send", [(b + 100, "kMpiSend", dict(a=0, u32=3, b=5, d=size))], b + 200)
            call(r3, b + 50, "Recv", [(b + 30000, "kMpiRecv", dict(a=0, u32=2, b=5, d=size))],
                 b + 30100)
            messages.append((0, 2, 3, 5, size))
        # On the sub-communicator {1, 3}: rank 3 (its rank 1) sends to rank 1 (its rank 0).
        r1 = ranks[1]
        b = t + 300000
        call(r3, b, "Send", [(b + 100, "kMpiSend", dict(a=sub, u32=1, b=9, d=48))], b + 200)
        call(r1, b + 10, "Recv", [(b + 40000, "kMpiRecv", dict(a=sub, u32=3, b=9, d=48))], b + 40100)
        messages.append((sub, 3, 1, 9, 48))
    t += STEP
    # A broadcast on the sub-communicator, root rank 1.
    for r in sub_members:
        rk = ranks[r]
        b = t + r * 500
        call(rk, b, "Bcast", [(t + 80000, "kMpiCollective",
                               dict(sub=CALL["Bcast"], a=sub, u32=1,
                                    b=256 if r == 1 else 0, d=0 if r == 1 else 256))],
             t + 80100 + r)
        collectives.append((r, "Bcast", sub))
    t += STEP
    if crash:
        # The last rank sends a message nobody receives, then dies in the middle of it.
        rk = ranks[n - 1]
        rk.main.append((t, ("kMpiEnter", dict(sub=CALL["Send"], c=0x401000))))
        rk.main.append((t + 100, ("kMpiSend", dict(a=0, u32=0, b=99, d=4))))
        rk.crashed = True
        messages.append((0, n - 1, 0, 99, 4))
    t += STEP
    # An allreduce on MPI_COMM_WORLD.
    for rk in ranks:
        if getattr(rk, "crashed", False):
            continue
        b = t + rk.r * 700
        call(rk, b, "Allreduce", [(t + 90000, "kMpiCollective",
                                   dict(sub=CALL["Allreduce"], a=0, u32=ANY_RANK, b=8, d=8))],
             t + 90000 + 100 * rk.r)
        collectives.append((rk.r, "Allreduce", 0))
    t += STEP
    return ranks, messages, collectives, comms, t


def write(raw, n, crash=False, skew_rank=None, skew_ns=5 * 10 ** 9, drift_ppm=2.0, host="nodeA"):
    """Writes the job into raw; returns the truth (messages, collectives,
    comms, per rank the list of true times of its thread 0's records)."""
    os.makedirs(raw, exist_ok=True)
    ranks, messages, collectives, comms, end = build(n, crash)

    for rk in ranks:
        skewed = rk.r == skew_rank

        def local(t):  # this rank's clock at true time t
            if not skewed:
                return t
            return t + skew_ns + int((t - T0) * drift_ppm / 1e6)

        # The skewed rank runs on a host of its own, where its pid is rank 0's.
        pid = 5000 + (0 if skewed else rk.r)
        stem = "rank%d.pid%d" % (rk.r, pid)
        crashed = getattr(rk, "crashed", False)
        init_t, final_t = T0 + 500, end + 500
        meta = ["format=1", "pid=%d" % pid, "rank=%d" % rk.r, "exe=/synthetic/mpi_job",
                "runtime=kite synthetic", "start_ns=%d" % local(T0), "window_bytes=%d" % WINDOW,
                "runtime_module=/synthetic/libkite.so", "mpi=openmpi",
                "mpi_world_rank=%d" % rk.r, "mpi_world_size=%d" % n,
                "mpi_thread_level=3", "mpi_host=%s" % ("nodeB" if skewed else host),
                "clock_domain=%s" % ("skewed-%d" % rk.r if skewed else "boot-1")]
        for cid, members in comms.items():
            if rk.r in members:
                meta.append("mpi_comm.%d=%s" % (cid, ",".join(map(str, members))))
        meta.append("mpi_clock_init=%d %d %d" % (local(init_t), init_t - local(init_t),
                                                  0 if rk.r == 0 else 1500))
        if not crashed:
            meta.append("mpi_clock_final=%d %d %d" % (local(final_t), final_t - local(final_t),
                                                       0 if rk.r == 0 else 1700))
            meta.append("end_ns=%d" % local(end + 1000))
        open(os.path.join(raw, stem + ".meta"), "w").write("\n".join(meta) + "\n")

        for index, (events, tid, type_) in enumerate(((rk.main, pid, 1), (rk.worker, pid + 1, 2))):
            out = [rec(local(T0 + 100 + index), "kHeader", sub=type_, a=index, b=tid, u32=MAGIC, c=VERSION),
                   rec(local(T0 + 100 + index), "kThreadBegin", sub=type_)]
            if index == 0:
                out.append(rec(local(T0 + 200), "kImplicitTask", sub=1, f16=1, a=0, b=1, u32=1))
            for t, (kind, kw) in sorted(events, key=lambda e: e[0]):
                out.append(rec(local(t), kind, **kw))
            if not crashed:
                if index == 0:
                    out.append(rec(local(end), "kImplicitTask", sub=2, f16=1, a=0, b=1, u32=1))
                out.append(rec(local(end + 100), "kThreadEnd"))
            data = b"".join(out) + b"\0" * 48
            open(os.path.join(raw, "%s.thread-%d.raw" % (stem, index)), "wb").write(data)
    truth_times = {rk.r: sorted(t for t, _ in rk.main) for rk in ranks}
    return {"messages": messages, "collectives": collectives, "comms": comms,
            "times": truth_times, "origin": T0}
