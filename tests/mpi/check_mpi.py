#!/usr/bin/env python3
"""Runs a hybrid test program (tests/mpi/programs) under an MPI launcher with
the MPI wrapper preloaded and a Kite tool recording, then checks the raw
records every rank wrote (mpi_raw.py) against what the program's header
comment says it does.

  check_mpi.py --mpirun MPIRUN --impl openmpi|mpich --np N --wrapper LIB
               --tool LIB --kite-build DIR --program EXE --expect NAME
               [--threads T] [--skew-rank R --skew-ns S] [--mode MODE] WORKDIR

--mode record (default): the tool records; every check below.
--mode passthrough: the tool records OpenMP events but KITE_MPI_TOOL_LIB is
  unset: the program's output and exit status are those of a run without
  the wrapper, and no MPI record is written.

--libomp LIB: the program runs on LLVM's libomp instead (which loads its
tool only at its first OpenMP call: the wrapper starts it in MPI_Init).

First of all, each run proves it ran on Kite (every rank's meta names the
runtime "kite ..."), or on libomp when asked.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_raw  # noqa: E402
from mpi_raw import ANY_RANK, ANY_TAG, MPI_KINDS, call_name  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


def finish():
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)


KIND = {v: k for k, v in MPI_KINDS.items()}  # name -> number
CALL = {n: i for i, n in enumerate(mpi_raw.CALLS)}


def launch(a, env, record_dir):
    """The launcher's command: rank a.skew_rank gets the skew (MPMD form)."""
    base = [a.mpirun] + (["--oversubscribe"] if a.impl == "openmpi" else [])
    if a.skew_rank is None:
        return base + ["-np", str(a.np), a.program]
    cmd = list(base)
    var = "KITE_TEST_CLOCK_SKEW_NS"
    for r in range(a.np):
        if cmd != base:
            cmd.append(":")
        cmd += ["-np", "1"]
        if r == a.skew_rank:
            cmd += (["-x", "%s=%d" % (var, a.skew_ns)] if a.impl == "openmpi"
                    else ["-env", var, str(a.skew_ns)])
        cmd.append(a.program)
    return cmd


def run(a, workdir, with_wrapper, with_tool, mpi_tool):
    raw = os.path.join(workdir, "raw")
    shutil.rmtree(raw, ignore_errors=True)
    os.makedirs(raw)
    env = dict(os.environ)
    for k in ("OMP_TOOL_LIBRARIES", "KITE_MPI_TOOL_LIB", "LD_PRELOAD", "KITE_TRACE_DIR",
              "KITE_PROFILE_DIR", "KITE_TEST_CLOCK_SKEW_NS"):
        env.pop(k, None)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS=str(a.threads),
               LD_LIBRARY_PATH=os.path.join(a.kite_build, "gomp") + ":" +
               os.path.join(a.kite_build, "llvm"))
    preload = []
    if a.libomp:
        # LLVM's libomp in place of libgomp (as `kite --runtime libomp`): it
        # loads its tool at its first OpenMP call, after MPI_Init.
        env["LD_LIBRARY_PATH"] = os.path.dirname(a.libomp)
        preload.append(a.libomp)
    if with_tool:
        env["OMP_TOOL_LIBRARIES"] = a.tool
        if "profile" in os.path.basename(a.tool):
            env["KITE_PROFILE_DIR"] = raw
        else:
            env["KITE_TRACE_DIR"] = raw
            env["KITE_TRACE_EVENTS"] = "default"
        if mpi_tool:
            env["KITE_MPI_TOOL_LIB"] = a.tool
    if with_wrapper:
        preload.append(a.wrapper)
    if preload:
        env["LD_PRELOAD"] = ":".join(preload)
    cmd = launch(a, env, raw)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=a.timeout)
    return p, raw


def ranks_of(raw, a):
    ranks = mpi_raw.load(raw)
    check(sorted(ranks) == list(range(a.np)),
          "one process's files per rank 0..%d (found ranks %s)" % (a.np - 1, sorted(ranks)))
    want = "LLVM OMP" if a.libomp else "kite "
    ok = all(r.meta.get("runtime", "").startswith(want) for r in ranks.values())
    if not check(ok and ranks, "every rank ran on %s (meta runtime: %s)" %
                 ("LLVM's libomp" if a.libomp else "Kite",
                  sorted({r.meta.get("runtime", "?") for r in ranks.values()}))):
        finish()
    return ranks


# ---- generic checks -----------------------------------------------------------------

def intervals(rank):
    """Per thread: list of (enter, leave, call, [records inside]); checks nesting."""
    out = {}
    ok = True
    for t, recs in rank.threads.items():
        calls = []
        open_ = None
        for r in recs:
            k = MPI_KINDS.get(r[1])
            if k is None:
                continue
            if k == "kMpiEnter":
                if open_ is not None:
                    ok = False
                open_ = [r, None, r[2], []]
            elif k == "kMpiLeave":
                if open_ is None or open_[2] != r[2]:
                    ok = False
                    open_ = None
                    continue
                open_[1] = r
                calls.append(tuple(open_))
                open_ = None
            else:
                if open_ is None:
                    ok = False
                else:
                    open_[3].append(r)
        if open_ is not None:  # a call the process never left (a crash, a kill)
            calls.append((open_[0], None, open_[2], open_[3]))
        out[t] = calls
    return out, ok


def exe_ranges(rank):
    exe = rank.meta.get("exe", "")
    ranges = []
    try:
        with open(rank.stem + ".maps") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 6 and parts[5] == exe:
                    lo, hi = parts[0].split("-")
                    ranges.append((int(lo, 16), int(hi, 16)))
    except OSError:
        pass
    return ranges


def generic(a, ranks, complete=None):
    """complete: the ranks expected to end normally (default: all)."""
    complete = set(ranks) if complete is None else complete
    for rn, rank in sorted(ranks.items()):
        m = rank.meta
        keys = ["mpi", "mpi_world_rank", "mpi_world_size", "mpi_thread_level", "mpi_host",
                "clock_domain", "mpi_clock_init"] + (["mpi_clock_final"] if rn in complete else [])
        missing = [k for k in keys if k not in m]
        check(not missing, "rank %d: meta keys present (missing: %s)" % (rn, missing))
        check(m.get("mpi") == a.impl and m.get("mpi_world_size") == str(a.np),
              "rank %d: mpi=%s, mpi_world_size=%s" % (rn, m.get("mpi"), m.get("mpi_world_size")))
        skewed = a.skew_rank == rn
        check(("+skew" in m.get("clock_domain", "")) == skewed,
              "rank %d: clock_domain %s says %s skew" % (rn, m.get("clock_domain"),
                                                        "its" if skewed else "no"))
    # Every MPI record inside an enter/leave interval of the same call; the
    # call sites are in the program.
    per_rank = {}
    for rn, rank in sorted(ranks.items()):
        iv, ok = intervals(rank)
        per_rank[rn] = iv
        check(ok, "rank %d: enter/leave pairs nest, every MPI record inside one" % rn)
        ranges = exe_ranges(rank)
        sites = [c[0][7] for calls in iv.values() for c in calls]
        inside = [s for s in sites if any(lo <= s < hi for lo, hi in ranges)]
        check(sites and len(inside) == len(sites),
              "rank %d: the %d call sites are return addresses into the program (%d are)" %
              (rn, len(sites), len(inside)))
    return per_rank


# A record: (time_ns, kind, sub, f16, u32, a, b, c, d) -- indices 0..8.
def records(ranks, kind):
    """(rank, thread, record) of one kind."""
    k = KIND[kind]
    for rn, rank in sorted(ranks.items()):
        for t, r in rank.mpi():
            if r[1] == k:
                yield rn, t, r


def messages(a, ranks):
    """Matches sends and receives; returns the matched messages
    (comm, src, dst, tag, bytes) and checks that nothing is left over."""
    sends = defaultdict(list)
    recvs = defaultdict(list)
    for rn, t, r in records(ranks, "kMpiSend"):
        sends[(r[5], rn, r[4], r[6])].append((r[0], r[8]))
    for rn, t, r in records(ranks, "kMpiRecv"):
        recvs[(r[5], r[4], rn, r[6])].append((r[0], r[8]))
    matched = []
    bad = []
    for key in set(sends) | set(recvs):
        s = sorted(sends.get(key, []))
        rv = sorted(recvs.get(key, []))
        if len(s) != len(rv):
            bad.append("%s: %d sends, %d receives" % (key, len(s), len(rv)))
            continue
        for (ts, bs), (tr, br) in zip(s, rv):
            if bs != br:
                bad.append("%s: %d bytes sent, %d received" % (key, bs, br))
            matched.append(key + (bs,))
    check(not bad, "every send has its receive (communicator, sender, receiver, tag, bytes): "
          "%d messages; %s" % (len(matched), "; ".join(bad[:5]) or "none unmatched"))
    return matched


def requests(ranks):
    bad = []
    for rn, rank in sorted(ranks.items()):
        posted_send, posted_recv, done_send, done_recv = {}, {}, [], []
        for t, r in rank.mpi():
            k = MPI_KINDS[r[1]]
            if k == "kMpiSend" and r[7]:
                posted_send[r[7]] = r
            elif k == "kMpiRecvRequest":
                posted_recv[r[7]] = r
            elif k == "kMpiSendComplete":
                done_send.append(r[5])
            elif k == "kMpiRecv" and r[7]:
                done_recv.append(r[7])
        if sorted(done_send) != sorted(posted_send):
            bad.append("rank %d: isends %s, completed %s" % (rn, sorted(posted_send), sorted(done_send)))
        if sorted(done_recv) != sorted(posted_recv):
            bad.append("rank %d: irecvs %s, completed %s" % (rn, sorted(posted_recv), sorted(done_recv)))
        for rid in done_recv:
            want = posted_recv.get(rid)
            got = [r for t, r in rank.mpi() if MPI_KINDS[r[1]] == "kMpiRecv" and r[7] == rid]
            if want and got and (want[5] != got[0][5] or
                                 (want[4] != ANY_RANK and want[4] != got[0][4]) or
                                 (want[6] != ANY_TAG and want[6] != got[0][6])):
                bad.append("rank %d: request %d asked for %s, got %s" % (rn, rid, want, got[0]))
    check(not bad, "every isend completed once (kMpiSendComplete), every irecv once (kMpiRecv "
          "with its id, matching what it asked for): %s" % ("; ".join(bad[:4]) or "yes"))


def comm_members(ranks):
    """comm id -> world ranks, from the metas (world: all); checks agreement."""
    members = {0: list(range(len(ranks)))}
    bad = []
    for rn, rank in ranks.items():
        for k, v in rank.meta.items():
            if k.startswith("mpi_comm."):
                cid = int(k[len("mpi_comm."):])
                ws = [int(x) for x in v.split(",")]
                if rn not in ws:
                    bad.append("rank %d writes comm %#x without itself" % (rn, cid))
                if cid in members and members[cid] != ws:
                    bad.append("comm %#x: members %s and %s" % (cid, members[cid], ws))
                members[cid] = ws
    check(not bad, "communicators' members agree across ranks: %s" % ("; ".join(bad) or "yes"))
    return members


def collectives(ranks):
    """comm -> list of instances [(call, root, {rank: (sent, received)})]; checks that every
    member took part in the same sequence, and that bytes add up."""
    members = comm_members(ranks)
    seq = defaultdict(lambda: defaultdict(list))  # comm -> rank -> [(call, root, sent, recv)]
    for rn, t, r in records(ranks, "kMpiCollective"):
        seq[r[5]][rn].append((r[2], r[4], r[6], r[8]))
    out = {}
    bad = []
    for cid, by_rank in seq.items():
        want = members.get(cid)
        if want is None:
            bad.append("comm %#x has no members in any meta" % cid)
            continue
        if sorted(by_rank) != sorted(want):
            bad.append("comm %#x: collectives on ranks %s, members %s" % (cid, sorted(by_rank), want))
            continue
        shapes = {rn: [(c, root) for c, root, s, r in v] for rn, v in by_rank.items()}
        if len({tuple(v) for v in shapes.values()}) != 1:
            bad.append("comm %#x: ranks disagree on the sequence: %s" % (cid, shapes))
            continue
        inst = []
        for i, (c, root) in enumerate(shapes[want[0]]):
            per = {rn: by_rank[rn][i][2:] for rn in want}
            sent = sum(s for s, r in per.values())
            recv = sum(r for s, r in per.values())
            if sent != recv:
                bad.append("comm %#x %s #%d: %d bytes sent, %d received" % (cid, call_name(c), i, sent, recv))
            inst.append((call_name(c), root, per))
        out[cid] = inst
    check(not bad, "collectives: every member of each communicator has the same sequence "
          "(call, root), bytes sent = bytes received: %s" % ("; ".join(bad[:3]) or "yes"))
    return out, members


def clocks(a, ranks):
    for rn, rank in sorted(ranks.items()):
        for key in ("mpi_clock_init", "mpi_clock_final"):
            v = rank.meta.get(key)
            if v is None:
                continue
            parts = v.split()
            if not check(len(parts) == 3, "rank %d: %s=%s has L O E" % (rn, key, v)):
                continue
            L, O, E = (int(x) for x in parts)
            if rn == 0:
                check(O == 0 and E == 0, "rank 0: %s offset 0, error 0" % key)
                continue
            s_r = a.skew_ns if a.skew_rank == rn else 0
            s_0 = a.skew_ns if a.skew_rank == 0 else 0
            want = s_0 - s_r
            check(abs(O - want) < E + 1000000,
                  "rank %d: %s offset %d ns, expected %d (|diff| %d < E %d + 1 ms)" %
                  (rn, key, O, want, abs(O - want), E))
            if a.skew_rank == rn:
                # The stamps are on the skewed clock: L is too.
                start = int(rank.meta.get("start_ns", 0))
                check(L >= start, "rank %d: %s measured at %d, after its start_ns %d (same clock)"
                      % (rn, key, L, start))


def sent_count(matched, src, dst, tag, nbytes, comm=0):
    return sum(1 for m in matched if m == (comm, src, dst, tag, nbytes))


# ---- the programs -----------------------------------------------------------------------

def expect_pingpong(a, ranks, iv):
    matched = messages(a, ranks)
    n07 = sent_count(matched, 0, 1, 7, 4000)
    n18 = sent_count(matched, 1, 0, 8, 4000)
    check(n07 == 10 and n18 == 10 and len(matched) == 20,
          "pingpong: 10 messages 0->1 tag 7 and 10 messages 1->0 tag 8 of 4000 bytes, nothing "
          "else (%d, %d, %d in all)" % (n07, n18, len(matched)))
    coll, _ = collectives(ranks)
    world = [c for c, root, per in coll.get(0, [])]
    check(world == ["MPI_Barrier"], "pingpong: one barrier on world on every rank (%s)" % world)
    if a.skew_rank is not None:
        # The barrier ends at about the same true time on every rank: the
        # skewed rank's stamps are skew_ns later.
        ends = {}
        for rn, calls in iv.items():
            for t, cs in calls.items():
                for enter, leave, c, inside in cs:
                    if call_name(c) == "MPI_Barrier" and leave:
                        ends[rn] = leave[0]
        d = ends[a.skew_rank] - ends[0 if a.skew_rank else 1]
        check(abs(d - a.skew_ns) < 500000000,
              "skewed rank's time stamps are %d ns off (barrier ends), skew %d" % (d, a.skew_ns))


def expect_halo(a, ranks, iv):
    matched = messages(a, ranks)
    n = a.np
    ok = len(matched) == 10 * n
    for r in range(n):
        right, left = (r + 1) % n, (r - 1 + n) % n
        ok = ok and sent_count(matched, r, right, 1, 800) == 5
        ok = ok and sent_count(matched, r, left, 2, 800) == 5
    check(ok, "halo: from each rank 5 messages of 800 bytes to the right (tag 1) and 5 to the "
          "left (tag 2), %d in all (found %d)" % (10 * n, len(matched)))
    coll, _ = collectives(ranks)
    world = coll.get(0, [])
    check([c for c, root, per in world] == ["MPI_Allreduce"] and
          all(p == (8 * n, 8 * n) for p in world[0][2].values()),
          "halo: one allreduce of 1 double on world (sent = received = 8 * N bytes)")


def expect_nonblocking(a, ranks, iv):
    matched = messages(a, ranks)
    n = a.np
    ok = True
    for r in range(n):
        right, left = (r + 1) % n, (r - 1 + n) % n
        ok = ok and sent_count(matched, r, right, 10, 1024) == 5
        ok = ok and sent_count(matched, r, left, 11, 1024) == 5
    ok = ok and sent_count(matched, 0, 1, 20, 32) == 1
    check(ok, "nonblocking: 5 + 5 ring messages of 1024 bytes per rank (tags 10, 11) and one "
          "of 32 bytes 0->1 tag 20")
    self_ok = all(sent_count(matched, r, r, 40, 8, mpi_raw.SELF_BASE + r) == 300 for r in range(n))
    check(self_ok and len(matched) == 10 * n + 1 + 300 * n,
          "nonblocking: 300 messages of 8 bytes per rank to itself on its MPI_COMM_SELF (id "
          "kSelfBase + rank), nothing else (%d in all)" % len(matched))
    requests(ranks)
    # Who completed what: each ring isend / irecv in a Waitall; the tag 20
    # receive in an MPI_Test, its send in an MPI_Wait.
    where = defaultdict(set)
    for rn, calls in iv.items():
        for t, cs in calls.items():
            for enter, leave, c, inside in cs:
                for r in inside:
                    k = MPI_KINDS[r[1]]
                    if k in ("kMpiSendComplete", "kMpiRecv"):
                        tag = r[6] if k == "kMpiRecv" else None
                        where[(rn, call_name(c), k, tag)].add(r[7] if k == "kMpiRecv" else r[5])
    check(len(where.get((1, "MPI_Test", "kMpiRecv", 20), ())) == 1,
          "nonblocking: rank 1's tag-20 receive completed inside MPI_Test")
    check(len(where.get((0, "MPI_Wait", "kMpiSendComplete", None), ())) == 1,
          "nonblocking: rank 0's tag-20 isend completed inside MPI_Wait")
    ok = all(len(where.get((r, "MPI_Waitall", "kMpiSendComplete", None), ())) == 310 and
             len(where.get((r, "MPI_Waitall", "kMpiRecv", 10), ())) == 5 and
             len(where.get((r, "MPI_Waitall", "kMpiRecv", 11), ())) == 5 and
             len(where.get((r, "MPI_Waitall", "kMpiRecv", 40), ())) == 300 for r in range(n))
    check(ok, "nonblocking: on every rank 310 isends and 310 irecvs completed inside MPI_Waitall")
    any_src = [r for rn, t, r in records(ranks, "kMpiRecvRequest") if rn == 1 and r[6] == 20]
    check(len(any_src) == 1 and any_src[0][4] == ANY_RANK,
          "nonblocking: rank 1's irecv of tag 20 asked for any source")


def expect_collectives(a, ranks, iv):
    n = a.np
    coll, members = collectives(ranks)
    world = coll.get(0, [])
    want = ["MPI_Allreduce", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Gather",
            "MPI_Scatter", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Allgather"]
    check([c for c, root, per in world] == want, "collectives: world's sequence %s" %
          [c for c, root, per in world])
    if len(world) == len(want):
        roots = [root for c, root, per in world]
        check(roots[2] == 0 and roots[3] == n - 1 and roots[4] == 0 and roots[5] == 0 and
              roots[0] == ANY_RANK, "collectives: roots (bcast 0, reduce N-1, gather 0, "
              "scatter 0, none for allreduce): %s" % roots)
        bcast = world[2][2]
        check(bcast[0] == (40 * n, 40) and all(bcast[r] == (0, 40) for r in range(1, n)),
              "collectives: bcast bytes (root sends 40 * N, every rank receives 40): %s" % bcast)
        a2av = world[7][2]
        tri = 4 * n * (n + 1) // 2
        check(all(a2av[r] == (4 * (r + 1) * n, tri) for r in range(n)),
              "collectives: alltoallv bytes (rank r sends 4(r+1)N, receives 4N(N+1)/2): %s" % a2av)
    others = {cid: inst for cid, inst in coll.items() if cid != 0}
    halves = [cid for cid, inst in others.items() if [c for c, r, p in inst] ==
              ["MPI_Allreduce", "MPI_Barrier"]]
    dups = [cid for cid, inst in others.items() if [c for c, r, p in inst] == ["MPI_Bcast"]]
    pairs = [cid for cid, inst in others.items() if [c for c, r, p in inst] == ["MPI_Barrier"]]
    check(len(pairs) == 1 and members[pairs[0]] == [0, 1],
          "collectives: MPI_Comm_create's communicator has world ranks 0 and 1 (%s)" %
          [members.get(c) for c in pairs])
    parity = sorted(tuple(members[c]) for c in halves)
    want_par = sorted(tuple(range(p, n, 2)) for p in (0, 1) if p < n)
    check(parity == want_par, "collectives: the split's two halves are the even and odd ranks "
          "(%s)" % parity)
    check(len(dups) == 1 and members[dups[0]] == list(range(n)) and others[dups[0]][0][1] == 1,
          "collectives: the dup has every rank and its bcast root is world rank 1")
    ids = halves + dups + pairs
    check(all(c >> 32 in range(1, n + 1) for c in ids) and len(set(ids)) == len(ids),
          "collectives: new communicators' ids are ((rank 0's world rank)+1)<<32 | n, distinct: %s"
          % [hex(c) for c in ids])
    per_rank = defaultdict(int)
    for rn, t, r in records(ranks, "kMpiCollective"):
        per_rank[rn] += 1
    check(all(per_rank[r] == (13 if r < 2 else 12) for r in range(n)),
          "collectives: 13 collective operations on ranks 0 and 1, 12 on the others (%s)" %
          dict(per_rank))
    # The ring of MPI_Cart_create: not seen made; its id from its members.
    matched = messages(a, ranks)
    ring = {m[0] for m in matched if m[3] == 30}
    check(len(ring) == 1 and next(iter(ring)) >> 32 == 0xfffffffe and
          members.get(next(iter(ring))) == list(range(n)) and
          all(sent_count(matched, r, (r + 1) % n, 30, 4, next(iter(ring))) == 1 for r in range(n)),
          "collectives: the cartesian ring (made unwrapped) has an id kUnseenBase | hash, the "
          "same on every rank, all ranks as members, and its %d messages match (%s)" %
          (n, [hex(c) for c in ring]))
    check(len(matched) == n, "collectives: no other point-to-point message (%d)" % len(matched))


def expect_multiple(a, ranks, iv):
    matched = messages(a, ranks)
    T = a.threads
    ok = len(matched) == 3 * T * a.np
    for r in range(a.np):
        for t in range(T):
            ok = ok and sent_count(matched, r, r ^ 1, 100 + t, 64) == 3
    check(ok, "multiple: per rank and thread t, 3 messages of 64 bytes to the partner with tag "
          "100 + t (%d in all)" % len(matched))
    for rn, rank in sorted(ranks.items()):
        check(rank.meta.get("mpi_thread_level") == "3",
              "rank %d: mpi_thread_level=3 (MPI_THREAD_MULTIPLE)" % rn)
        files = defaultdict(set)
        for t, r in rank.mpi():
            if MPI_KINDS[r[1]] == "kMpiSend":
                files[r[6]].add(t)
        check(len(files) == T and all(len(v) == 1 for v in files.values()) and
              len({min(v) for v in files.values()}) == T,
              "rank %d: each thread's tag sent from one thread file, %d different files: %s" %
              (rn, T, dict((k, sorted(v)) for k, v in files.items())))
    requests(ranks)


def expect_late_sender(a, ranks, iv):
    matched = messages(a, ranks)
    check(matched == [(0, 1, 0, 5, 4)], "late_sender: one message 1->0 tag 5 of 4 bytes")
    recv = [(e, l) for t, cs in iv[0].items() for e, l, c, ins in cs if call_name(c) == "MPI_Recv"]
    send = [(e, l) for t, cs in iv[1].items() for e, l, c, ins in cs if call_name(c) == "MPI_Send"]
    if check(len(recv) == 1 and len(send) == 1 and recv[0][1], "late_sender: rank 0's recv, rank 1's send"):
        waited = recv[0][1][0] - recv[0][0][0]
        check(waited >= 200000000, "late_sender: rank 0 waited %.0f ms in MPI_Recv (>= 200)" % (waited / 1e6))
        check(send[0][0][0] - recv[0][0][0] >= 200000000,
              "late_sender: rank 1 entered MPI_Send %.0f ms after rank 0 entered MPI_Recv" %
              ((send[0][0][0] - recv[0][0][0]) / 1e6))


def expect_crash(a, ranks, iv):
    r1 = ranks.get(1)
    if not check(r1 is not None, "crash: rank 1 left files"):
        return
    got = defaultdict(int)
    for t, r in r1.mpi():
        k = MPI_KINDS[r[1]]
        if k in ("kMpiSend", "kMpiRecv"):
            got[(k, r[4], r[6], r[8])] += 1
    check(got[("kMpiRecv", 0, 3, 16)] == 3 and got[("kMpiSend", 0, 4, 16)] == 3,
          "crash: rank 1's files hold its 3 receives (tag 3) and 3 sends (tag 4) of 16 bytes: %s"
          % dict(got))
    fin = [c for t, cs in iv[1].items() for e, l, c, ins in cs if call_name(c) == "MPI_Finalize"]
    check(not fin, "crash: rank 1 never called MPI_Finalize")
    sends0 = sum(1 for rn, t, r in records(ranks, "kMpiSend") if rn == 0 and r[6] == 3)
    check(sends0 == 3, "crash: rank 0 recorded its 3 sends of tag 3 (%d)" % sends0)



def where_recorded(iv):
    """(rank, record) -> the call it is recorded in, for every MPI record."""
    out = {}
    for rn, calls in iv.items():
        for t, cs in calls.items():
            for enter, leave, c, inside in cs:
                for r in inside:
                    out[(rn, r)] = call_name(c)
    return out


ICALLS = ["MPI_Ibarrier", "MPI_Ibcast", "MPI_Iallreduce", "MPI_Ireduce", "MPI_Igather",
          "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv", "MPI_Iallgather", "MPI_Iallgatherv",
          "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
          "MPI_Iscan", "MPI_Iexscan"]


def icollectives(a, ranks, iv, calls, completed_in):
    """Non-blocking collectives: on every rank `calls` started in this order (each in its
    own call), every one completed once in the call completed_in names (by I-call), with
    the start's fields; over the ranks bytes sent = bytes received per operation.
    Returns {rank: [(call, root, sent, received)]}."""
    where = where_recorded(iv)
    bad = []
    per_rank = {}
    for rn, rank in sorted(ranks.items()):
        starts = [r for t, r in rank.mpi() if MPI_KINDS[r[1]] == "kMpiCollectiveRequest"]
        dones = [r for t, r in rank.mpi() if MPI_KINDS[r[1]] == "kMpiCollectiveComplete"]
        names = [call_name(r[2]) for r in starts]
        if names != calls:
            bad.append("rank %d started %s" % (rn, names))
            continue
        if any(where[(rn, r)] != call_name(r[2]) for r in starts):
            bad.append("rank %d: a start recorded outside its own call" % rn)
        ids = [r[7] for r in starts]
        if len(set(ids)) != len(ids) or 0 in ids:
            bad.append("rank %d: request ids %s not distinct and non-zero" % (rn, ids))
        by_id = {r[7]: r for r in starts}
        done_ids = sorted(r[7] for r in dones)
        if done_ids != sorted(ids):
            bad.append("rank %d: started %s, completed %s" % (rn, sorted(ids), done_ids))
            continue
        for r in dones:
            st = by_id[r[7]]
            if r[2] != st[2] or r[4:7] != st[4:7] or r[8] != st[8]:
                bad.append("rank %d: completion %s differs from its start %s" % (rn, r, st))
            want = completed_in.get(call_name(st[2]))
            if want and where[(rn, r)] != want:
                bad.append("rank %d: %s completed in %s, not %s" %
                           (rn, call_name(st[2]), where[(rn, r)], want))
        per_rank[rn] = [(call_name(r[2]), r[4], r[6], r[8]) for r in starts]
    if not bad:
        for i, c in enumerate(calls):
            sent = sum(v[i][2] for v in per_rank.values())
            recv = sum(v[i][3] for v in per_rank.values())
            if sent != recv:
                bad.append("%s: %d bytes sent, %d received over the ranks" % (c, sent, recv))
    check(not bad, "non-blocking collectives: %d per rank started in their calls (%s ...), each "
          "completed once with its start's fields in the expected wait/test call, bytes sent = "
          "received: %s" % (len(calls), ", ".join(calls[:3]), "; ".join(bad[:4]) or "yes"))
    return per_rank


def expect_requests(a, ranks, iv):
    n = a.np
    matched = messages(a, ranks)
    ok = len(matched) == 14 * n
    counts = []
    for r in range(n):
        right = (r + 1) % n
        got = [sent_count(matched, r, right, tag, nb) for tag, nb in
               ((50, 1024), (51, 1024), (52, 1024), (53, 1024), (60, 8), (62, 8), (61, 8))]
        counts.append(got)
        ok = ok and got == [4, 3, 2, 2, 1, 1, 1]
    check(ok, "requests: from each rank to its right 4, 3, 2, 2 persistent messages of 1024 "
          "bytes (tags 50..53), one freed isend (tag 60), one isend (tag 62) and one send "
          "(tag 61) of 8 bytes, nothing else (per rank %s, %d in all)" % (counts, len(matched)))
    where = where_recorded(iv)
    bad = []
    for rn, rank in sorted(ranks.items()):
        recs = [r for t, r in rank.mpi()]
        kind = lambda r: MPI_KINDS[r[1]]  # noqa: E731
        psends = [r for r in recs if kind(r) == "kMpiSend" and 50 <= r[6] <= 53]
        pposts = [r for r in recs if kind(r) == "kMpiRecvRequest" and 50 <= r[6] <= 53]
        if len(psends) != 11 or len(pposts) != 11:
            bad.append("rank %d: %d persistent send starts, %d receive starts (11 each)" %
                       (rn, len(psends), len(pposts)))
            continue
        for r in psends + pposts:
            want = "MPI_Startall" if r[6] == 50 else "MPI_Start"
            if where[(rn, r)] != want:
                bad.append("rank %d: tag %d start recorded in %s" % (rn, r[6], where[(rn, r)]))
        ids = [r[7] for r in psends + pposts]
        if len(set(ids)) != 22 or 0 in ids:
            bad.append("rank %d: the 22 starts' request ids are not distinct: %s" % (rn, ids))
        send_done = [r[5] for r in recs if kind(r) == "kMpiSendComplete"]
        # Completed: the persistent sends' starts and the tag-62 isend.
        want_done = sorted([r[7] for r in psends] +
                           [r[7] for r in recs if kind(r) == "kMpiSend" and r[6] == 62])
        if sorted(send_done) != want_done:
            bad.append("rank %d: send starts and the tag-62 isend %s, completed %s" %
                       (rn, want_done, sorted(send_done)))
        freed = [r for r in recs if kind(r) == "kMpiSend" and r[6] == 60]
        if len(freed) != 1 or not freed[0][7] or freed[0][7] in send_done:
            bad.append("rank %d: the freed tag-60 isend: %s (an id, never completed)" % (rn, freed))
        send62 = [r for r in recs if kind(r) == "kMpiSend" and r[6] == 62]
        done62 = [r for r in recs if kind(r) == "kMpiSendComplete" and
                  where[(rn, r)] == "MPI_Wait" and send62 and r[5] == send62[0][7]]
        if len(send62) != 1 or not send62[0][7] or len(done62) != 1:
            bad.append("rank %d: the tag-62 isend after the free %s is not completed by its own "
                       "id in MPI_Wait (send completions %s)" % (rn, send62, send_done))
        recv_by_id = defaultdict(list)
        for r in recs:
            if kind(r) == "kMpiRecv" and r[7]:
                recv_by_id[r[7]].append(r)
        left = (rn - 1 + n) % n
        for p in pposts:
            got = recv_by_id.get(p[7], [])
            if len(got) != 1 or got[0][4] != left or got[0][6] != p[6] or got[0][8] != 1024:
                bad.append("rank %d: receive start %d (tag %d) completed by %s" % (rn, p[7], p[6], got))
            elif where[(rn, got[0])] != {50: "MPI_Waitall", 51: "MPI_Wait", 52: "MPI_Waitall",
                                         53: "MPI_Test"}[p[6]]:
                bad.append("rank %d: tag %d received in %s" % (rn, p[6], where[(rn, got[0])]))
        post61 = [r for r in recs if kind(r) == "kMpiRecvRequest" and r[6] == 61]
        got61 = [r for r in recs if kind(r) == "kMpiRecv" and r[6] == 61]
        if len(post61) != 1 or len(got61) != 1 or got61[0][7] != post61[0][7] or \
                where[(rn, got61[0])] != "MPI_Wait":
            bad.append("rank %d: tag 61 irecv %s completed by %s" % (rn, post61, got61))
        post99 = [r for r in recs if kind(r) == "kMpiRecvRequest" and r[6] == 99]
        cancelled = [r for r in recs if kind(r) == "kMpiRequestCancelled"]
        if len(post99) != 1 or post99[0][4] != ANY_RANK or len(cancelled) != 1 or \
                cancelled[0][5] != post99[0][7] or where[(rn, cancelled[0])] != "MPI_Wait" or \
                recv_by_id.get(post99[0][7]):
            bad.append("rank %d: the cancelled irecv %s: cancelled records %s, received %s" %
                       (rn, post99, cancelled, recv_by_id.get(post99[0][7] if post99 else -1)))
        completed = send_done + [i for i, v in recv_by_id.items() for _ in v]
        if len(completed) != len(set(completed)):
            bad.append("rank %d: a request completed twice" % rn)
    check(not bad, "requests: every persistent start has a fresh id and is completed once in "
          "the expected call, the freed isend never, the isend after it (same handle) and "
          "the irecv after the frees by their own ids, "
          "the cancelled irecv by kMpiRequestCancelled in MPI_Wait and no receive: %s" %
          ("; ".join(bad[:4]) or "yes"))
    per = icollectives(a, ranks, iv, ICALLS,
                       dict({"MPI_Ibarrier": "MPI_Wait", "MPI_Ibcast": "MPI_Wait",
                             "MPI_Iallreduce": "MPI_Test"},
                            **{c: "MPI_Waitall" for c in ICALLS[3:]}))
    if per:
        ok = all(v[1] == ("MPI_Ibcast", 0, 400 * n if rn == 0 else 0, 400) and
                 v[2] == ("MPI_Iallreduce", ANY_RANK, 8 * n, 8 * n) and
                 v[3][1] == n - 1 for rn, v in per.items())
        check(ok, "requests: MPI_Ibcast of 400 bytes from root 0, MPI_Iallreduce of 8 bytes, "
              "MPI_Ireduce to root N-1, as the blocking operations count them")
    coll, _ = collectives(ranks)
    world = [c for c, root, p in coll.get(0, [])]
    check(world == ["MPI_Barrier"] * 3, "requests: 3 blocking barriers on world (%s)" % world)


def expect_persistent_f(a, ranks, iv):
    n = a.np
    matched = messages(a, ranks)
    ok = len(matched) == 4 * n and all(
        sent_count(matched, r, (r + 1) % n, 50, 1024) == 4 for r in range(n))
    check(ok, "persistent (Fortran): 4 messages of 1024 bytes (tag 50) from each rank to its "
          "right, nothing else (%d in all)" % len(matched))
    where = where_recorded(iv)
    bad = []
    for rn, rank in sorted(ranks.items()):
        recs = [r for t, r in rank.mpi()]
        starts = [r for r in recs if MPI_KINDS[r[1]] in ("kMpiSend", "kMpiRecvRequest")]
        ids = [r[7] for r in starts]
        if len(starts) != 8 or len(set(ids)) != 8 or 0 in ids or \
                any(where[(rn, r)] != "MPI_Startall" for r in starts):
            bad.append("rank %d: starts %s" % (rn, [(where[(rn, r)], r[7]) for r in starts]))
        done = sorted([r[5] for r in recs if MPI_KINDS[r[1]] == "kMpiSendComplete"] +
                      [r[7] for r in recs if MPI_KINDS[r[1]] == "kMpiRecv"])
        if done != sorted(ids):
            bad.append("rank %d: started %s, completed %s" % (rn, sorted(ids), done))
        frees = sum(1 for t, calls in iv[rn].items() for c in calls
                    if call_name(c[2]) == "MPI_Request_free")
        if frees != 2:
            bad.append("rank %d: %d MPI_Request_free calls (2)" % (rn, frees))
    check(not bad, "persistent (Fortran): 8 starts per rank in MPI_Startall with distinct "
          "ids, each completed once; 2 MPI_Request_free: %s" % ("; ".join(bad[:4]) or "yes"))
    per = icollectives(a, ranks, iv, ["MPI_Ibarrier", "MPI_Iallreduce"],
                       {"MPI_Ibarrier": "MPI_Wait", "MPI_Iallreduce": "MPI_Waitall"})
    check(per and all(v[1] == ("MPI_Iallreduce", ANY_RANK, 8 * n, 8 * n) for v in per.values()),
          "persistent (Fortran): MPI_Iallreduce of 8 bytes per rank")
    coll, _ = collectives(ranks)
    world = [c for c, root, p in coll.get(0, [])]
    check(world == ["MPI_Barrier"], "persistent (Fortran): one blocking barrier (%s)" % world)


EXPECT = {"pingpong": expect_pingpong, "halo": expect_halo, "nonblocking": expect_nonblocking,
          "collectives": expect_collectives, "multiple": expect_multiple,
          "late_sender": expect_late_sender, "crash": expect_crash,
          "requests": expect_requests, "persistent_f": expect_persistent_f}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--impl", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--wrapper", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--kite-build", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--expect", required=True, choices=sorted(EXPECT))
    ap.add_argument("--skew-rank", type=int)
    ap.add_argument("--skew-ns", type=int, default=0)
    ap.add_argument("--mode", default="record", choices=["record", "passthrough"])
    ap.add_argument("--timeout", type=int, default=100)
    ap.add_argument("--libomp", help="run on this LLVM libomp.so.5 instead of Kite")
    ap.add_argument("workdir")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)

    if a.mode == "passthrough":
        plain, _ = run(a, a.workdir, with_wrapper=False, with_tool=True, mpi_tool=False)
        wrapped, raw = run(a, a.workdir, with_wrapper=True, with_tool=True, mpi_tool=False)
        ranks = ranks_of(raw, a)
        check(plain.returncode == 0, "the program alone exits 0 (%d): %s" % (plain.returncode, plain.stderr[-500:]))
        check(wrapped.returncode == plain.returncode,
              "with the wrapper preloaded, the same exit status (%d)" % wrapped.returncode)
        check(sorted(wrapped.stdout.splitlines()) == sorted(plain.stdout.splitlines()),
              "with the wrapper preloaded, the same output lines")
        check("kite-mpi" not in wrapped.stderr, "the wrapper says nothing without KITE_MPI_TOOL_LIB")
        mpi = sum(1 for r in ranks.values() for _ in r.mpi())
        check(mpi == 0, "no MPI record without KITE_MPI_TOOL_LIB (%d)" % mpi)
        omp = sum(len(recs) for r in ranks.values() for recs in r.threads.values())
        check(omp > 0, "the tool recorded OpenMP events (%d records)" % omp)
        # The wrapper was in the process: a KITE_MPI_TOOL_LIB naming no loaded
        # library makes it say so once per rank, and the program still runs.
        p, _ = run_missing_tool(a)
        check(p.returncode == plain.returncode and
              sorted(p.stdout.splitlines()) == sorted(plain.stdout.splitlines()),
              "with KITE_MPI_TOOL_LIB naming a tool not loaded: same output and status")
        check(p.stderr.count("kite-mpi: KITE_MPI_TOOL_LIB=") == a.np,
              "... and one warning per rank from the wrapper (%d)" % p.stderr.count("kite-mpi:"))
        finish()

    p, raw = run(a, a.workdir, with_wrapper=True, with_tool=True, mpi_tool=True)
    if a.expect == "crash":
        check(p.returncode != 0, "crash: the launcher exits non-zero (%d)" % p.returncode)
    elif not check(p.returncode == 0, "the run exits 0 (%d): %s" % (p.returncode, p.stderr[-2000:])):
        finish()
    check("kite-mpi" not in p.stderr, "no warning from the wrapper: %s" %
          [l for l in p.stderr.splitlines() if "kite-mpi" in l][:2])
    ranks = ranks_of(raw, a)
    complete = set(ranks) if a.expect != "crash" else {r for r in ranks if r != 1}
    iv = generic(a, ranks, complete if a.expect != "crash" else set())
    clocks(a, ranks)
    EXPECT[a.expect](a, ranks, iv)
    finish()


def run_missing_tool(a):
    """The program with the wrapper and KITE_MPI_TOOL_LIB set, but no tool loaded."""
    env = dict(os.environ)
    for k in ("OMP_TOOL_LIBRARIES", "KITE_TRACE_DIR", "KITE_PROFILE_DIR"):
        env.pop(k, None)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=str(a.threads), KITE_MPI_TOOL_LIB=a.tool, LD_PRELOAD=a.wrapper,
               LD_LIBRARY_PATH=os.path.join(a.kite_build, "gomp") + ":" +
               os.path.join(a.kite_build, "llvm"))
    p = subprocess.run(launch(a, env, None), env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=a.timeout)
    return p, None


if __name__ == "__main__":
    main()
