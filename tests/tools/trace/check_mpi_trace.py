"""kite-trace-convert on the raw files of an MPI job: ONE trace for all
ranks. Checks, from otf2-print (events and -G definitions), from the
Perfetto protobuf (perfetto_decode.py) and from the JSON file: one archive,
a location group per rank, every send matched by a receive with the same
bytes and tag in MPI's order, each receive ending after its send started,
collectives on every rank of their communicator, OpenMP slices still there
and nested, each location's events in time order, and, with a skewed rank,
its events moved back to where its clock's skew put them.

The raw files come from a producer (a function that returns a raw dir):
  synthetic   mpi_synth.py's made-up job, whose every message and time is known;
  mpirun      a hybrid program under mpirun with libkite-trace.so and the PMPI
              wrapper preloaded (the environment `kite trace` sets per rank).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import perfetto_decode  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1
    return cond


# ---- producers: each returns the raw dir of one run -----------------------

def produce_synthetic(work, n, crash=False, skew_rank=None, skew_ns=5 * 10 ** 9):
    import mpi_synth
    raw = os.path.join(work, "raw")
    shutil.rmtree(raw, ignore_errors=True)
    truth = mpi_synth.write(raw, n, crash=crash, skew_rank=skew_rank, skew_ns=skew_ns)
    return raw, truth


def produce_mpirun(work, mpi, n, program, lib_dir, wrapper, skew_rank=None, skew_ns=None,
                   threads=2, kite_lib_dirs=(), crash=False):
    """The program under mpirun, each rank recording with libkite-trace.so
    into one raw dir (the environment `kite trace` sets; mpirun -np N kite
    trace -o DIR -- PROG would do the same)."""
    raw = os.path.join(work, "raw")
    shutil.rmtree(raw, ignore_errors=True)
    os.makedirs(raw)
    tool = os.path.join(lib_dir, "libkite-trace.so")
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_rmaps_base_oversubscribe": "1",
                "OMP_NUM_THREADS": str(threads), "OMP_TOOL_LIBRARIES": tool,
                "KITE_MPI_TOOL_LIB": tool, "KITE_TRACE_DIR": raw, "KITE_TRACE_EVENTS": "default",
                "LD_LIBRARY_PATH": ":".join(list(kite_lib_dirs) + [env.get("LD_LIBRARY_PATH", "")]),
                "LD_PRELOAD": wrapper})
    launcher = "mpirun." + mpi
    over = ["--oversubscribe"] if mpi == "openmpi" else []
    if skew_rank is None:
        cmd = [launcher] + over + ["-np", str(n), program]
    else:
        # MPMD: the one skewed rank gets the variable through env(1).
        parts = []
        for r in range(n):
            if parts:
                parts.append(":")
            prog = [program] if r != skew_rank else \
                ["env", "KITE_TEST_CLOCK_SKEW_NS=%+d" % skew_ns, program]
            parts += ["-np", "1"] + prog
        cmd = [launcher] + over + parts
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    check((p.returncode == 0) == (not crash), "%s ran %s on %d ranks (exit %d%s): %s" % (
        launcher, os.path.basename(program), n, p.returncode, ", a rank dies" if crash else "",
        p.stderr.strip()[-300:]))
    return raw, None


def produce_kite(work, form, kite, mpi, n, program, wrapper_unused=None):
    """The job traced by the kite command, in either launch form:
      inside  mpirun -np N kite trace -o DIR -- PROG  (rank 0's kite merges)
      around  kite trace -o DIR -- mpirun -np N PROG  (one kite converts)
    kite converts; its raw files are kept (--keep-raw) for the checks that
    read them. Returns (DIR, DIR/raw)."""
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMP_NUM_THREADS": "2"})
    launcher = ["mpirun." + mpi] + (["--oversubscribe"] if mpi == "openmpi" else []) + \
        ["-np", str(n)]
    trace = [sys.executable, kite, "trace", "-q", "--keep-raw", "--format", "otf2,perfetto,json",
             "-o", out, "--"]
    cmd = launcher + trace + [program] if form == "inside" else trace + launcher + [program]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    check(p.returncode == 0, "%s ran %s on %d ranks (%s form, exit %d): %s" % (
        " ".join(cmd[:3]), os.path.basename(program), n, form, p.returncode,
        p.stderr.strip()[-300:]))
    return out, os.path.join(out, "raw")


# ---- reading the outputs ----------------------------------------------------

def convert(converter, raw, out, extra=()):
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([converter, "--format", "otf2,perfetto,json"] + list(extra) + [raw, out],
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "kite-trace-convert exits 0 (%d): %s" % (p.returncode,
                                                                     p.stderr.strip()[-400:]))
    return p


def otf2_defs(archive):
    p = subprocess.run(["otf2-print", "-G", archive], capture_output=True, text=True)
    check(p.returncode == 0, "otf2-print -G reads the archive")
    check("warning" not in p.stderr, "otf2-print -G has no warnings (%s)" % p.stderr.strip()[:300])
    d = {"groups": {}, "locations": {}, "location_groups": {}, "comms": {}, "text": p.stdout}
    for line in p.stdout.splitlines():
        m = re.match(r"^(\w+)\s+(\d+)\s+(.*)$", line)
        if not m:
            continue
        kind, ref, rest = m.group(1), int(m.group(2)), m.group(3)
        if kind == "LOCATION_GROUP":
            name = re.search(r'Name: "([^"]*)"', rest).group(1)
            typ = re.search(r"Type: (\w+)", rest).group(1)
            d["location_groups"][ref] = (name, typ)
        elif kind == "LOCATION":
            group = int(re.search(r'Group: "[^"]*" <(\d+)>', rest).group(1))
            typ = re.search(r"Type: (\w+)", rest).group(1)
            d["locations"][ref] = (group, typ, re.search(r'Name: "([^"]*)"', rest).group(1))
        elif kind == "GROUP":
            typ = re.search(r"Type: (\w+)", rest).group(1)
            para = re.search(r"Paradigm: (\w+)", rest).group(1)
            mem = re.split(r"Members?:", rest, 1)[1] if re.search(r"Members?:", rest) else ""
            if typ == "COMM_LOCATIONS":
                members = [int(x) for x in re.findall(r'" <(\d+)>', mem)]
            else:
                members = [int(x) for x in re.findall(r'(?:^|, )\s*(\d+) \(', mem)]
            d["groups"][ref] = (typ, para, members)
        elif kind == "COMM":
            group = int(re.search(r'Group: "[^"]*" <(\d+)>', rest).group(1))
            d["comms"][ref] = (re.search(r'Name: "([^"]*)"', rest).group(1), group)
    return d


def otf2_events(archive):
    p = subprocess.run(["otf2-print", archive], capture_output=True, text=True)
    check(p.returncode == 0, "otf2-print reads the archive: " + p.stderr.strip()[:200])
    evs = []
    for line in p.stdout.splitlines():
        m = re.match(r"^(\w+)\s+(\d+)\s+(\d+)\s*(.*)$", line)
        if m and m.group(1) != "Event":
            evs.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return evs


def field(rest, name):
    m = re.search(name + r": (\d+)", rest)
    return int(m.group(1)) if m else None


def comm_ref(rest):
    m = re.search(r'Communicator: "[^"]*" <(\d+)>', rest)
    return int(m.group(1)) if m else None


# ---- the checks ------------------------------------------------------------

def check_against_raw(raw, sends, recvs, collectives_per_rank, unfinished=()):
    """The merged trace holds every message and collective the ranks
    recorded (tests/mpi/mpi_raw.py reads the raw files on its own)."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "mpi"))
    import mpi_raw
    want_s, want_r, want_c = collections.Counter(), collections.Counter(), collections.Counter()
    for rank, rk in mpi_raw.load(raw).items():
        for _, r in rk.mpi():
            kind = mpi_raw.MPI_KINDS[r[1]]
            if kind == "kMpiSend":
                want_s[(rank, r[4], r[6], r[8])] += 1      # from, to, tag, bytes
            elif kind == "kMpiRecv":
                want_r[(r[4], rank, r[6], r[8])] += 1
            elif kind == "kMpiCollective":
                want_c[rank] += 1
    got_s, got_r = collections.Counter(), collections.Counter()
    for (c, frm, to, tag), l in sends.items():
        for _, b in l:
            got_s[(frm, to, tag, b)] += 1
    for (c, frm, to, tag), l in recvs.items():
        for _, b in l:
            got_r[(frm, to, tag, b)] += 1
    check(got_s == want_s and sum(want_s.values()) > 0 or not want_s and not got_s,
          "OTF2: the sends the ranks recorded, each once (%d of %d)"
          % (sum(got_s.values()), sum(want_s.values())))
    check(got_r == want_r, "OTF2: the receives the ranks recorded, each once (%d of %d)"
          % (sum(got_r.values()), sum(want_r.values())))
    # A rank that died inside a collective: OTF2 ends it where the rank's
    # records end (one more than recorded).
    ok = all(want_c[r] <= collectives_per_rank[r] <= want_c[r] + (r in unfinished)
             for r in set(want_c) | set(collectives_per_rank))
    check(ok, "OTF2: each rank's collectives as recorded (%s, %s)"
          % (dict(collectives_per_rank), dict(want_c)))


def check_job(out, n, truth=None, crashed=(), tolerance_ns=None, messages=None,
              collectives_per_rank=None, raw=None):
    """The merged outputs in OUT of an n-rank job. truth: the synthetic
    job's messages and collectives. tolerance_ns: per rank, how far a
    receive may seem to end before its send started (the clock offsets'
    uncertainty; 0 on one clock)."""
    tolerance_ns = tolerance_ns or {}
    files = sorted(f for f in os.listdir(out) if f != "raw")
    check(files == ["trace.json", "trace.otf2", "trace.perfetto-trace", "trace.summary.json"],
          "ONE trace for the job (%s)" % files)
    s = json.load(open(os.path.join(out, "trace.summary.json")))
    runtimes = [r["runtime"] for r in s["ranks"]]
    check(len(runtimes) == n and all(r.startswith("kite ") for r in runtimes),
          "every rank ran on Kite (%s)" % runtimes)
    check(s["ranks_merged"] == n and s["world_size"] == n,
          "the summary says %d ranks merged of %d (%s, %s)" % (n, n, s["ranks_merged"],
                                                             s["world_size"]))
    # A rank that did not finish maps its TSC stamps with a rate measured
    # over milliseconds (the converter gives its clock domain one rate):
    # it may disagree with the others by microseconds.
    unfinished = set()
    for r in s["ranks"]:
        if not r["finalized"]:
            wr = r.get("mpi", {}).get("world_rank", int(r["rank"] or -1))
            unfinished.add(wr)
            tolerance_ns[wr] = max(tolerance_ns.get(wr, 0), 50000)
    archive = os.path.join(out, "trace.otf2", "traces.otf2")
    defs = otf2_defs(archive)
    procs = {ref: name for ref, (name, typ) in defs["location_groups"].items() if typ == "PROCESS"}
    hosts = set(re.sub(r"^rank \d+ \((.*), pid \d+\)$", r"\1", name) for name in procs.values())
    nodes = re.findall(r'^SYSTEM_TREE_NODE\s+\d+\s+Name: "([^"]*)" <\d+>, Class: "node"', defs["text"], re.M)
    check(sorted(nodes) == sorted(hosts), "a system tree node per host (%s, %s)" % (nodes, hosts))
    check(sorted(procs) == list(range(n)) and
          all(procs[r].startswith("rank %d (" % r) for r in procs),
          "one location group per rank, numbered by world rank (%s)" % procs)
    loc_rank = {ref: g for ref, (g, typ, _) in defs["locations"].items() if typ == "CPU_THREAD"}
    check(all(len([l for l, g in loc_rank.items() if g == r]) >= 1 for r in range(n)),
          "each rank's threads are locations of its group")
    mpi_locations = [g for g in defs["groups"].values() if g[0] == "COMM_LOCATIONS" and g[1] == "MPI"]
    check(len(mpi_locations) == 1 and len(mpi_locations[0][2]) == n and
          [loc_rank.get(l) for l in mpi_locations[0][2]] == list(range(n)),
          "MPI's COMM_LOCATIONS group lists rank i's location at index i")
    # A comm ref -> its members as world ranks.
    members = {}
    self_comms = set()
    for ref, (name, group) in defs["comms"].items():
        typ, para, mem = defs["groups"][group]
        if para == "MPI" and typ == "COMM_GROUP":
            members[ref] = mem
        elif para == "MPI" and typ == "COMM_SELF":
            self_comms.add(ref)

    def world(c, peer, rank):  # a communicator's rank as a world rank
        return rank if c in self_comms else members[c][peer]
    check(any(defs["comms"][c][0] == "MPI_COMM_WORLD" and members[c] == list(range(n))
              for c in members), "MPI_COMM_WORLD is a comm of all %d ranks" % n)

    evs = otf2_events(archive)
    last = {}
    disorder = 0
    for kind, loc, t, rest in evs:
        if t < last.get(loc, 0):
            disorder += 1
        last[loc] = t
    check(disorder == 0, "each location's events are in time order (%d out of order)" % disorder)

    # Messages: per channel, the i-th send matches the i-th receive.
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    enter = {}
    collectives = collections.Counter()
    ends = []
    for kind, loc, t, rest in evs:
        rank = loc_rank.get(loc)
        if kind == "ENTER":
            enter[loc] = t
        if kind in ("MPI_SEND", "MPI_ISEND"):
            c = comm_ref(rest)
            to = world(c, field(rest, "Receiver"), rank)
            sends[(c, rank, to, field(rest, "Tag"))].append((enter[loc], field(rest, "Length")))
        elif kind in ("MPI_RECV", "MPI_IRECV"):
            c = comm_ref(rest)
            frm = world(c, field(rest, "Sender"), rank)
            recvs[(c, frm, rank, field(rest, "Tag"))].append((t, field(rest, "Length")))
        elif kind == "MPI_COLLECTIVE_END":
            op = re.search(r"Operation: (\w+)", rest).group(1)
            collectives[(rank, op, comm_ref(rest))] += 1
        elif kind == "LEAVE" and "MPI_" in rest:
            ends.append(loc)
    matched = unmatched = bad_bytes = early = 0
    for key in set(sends) | set(recvs):
        sl, rl = sends.get(key, []), recvs.get(key, [])
        for i in range(max(len(sl), len(rl))):
            if i >= len(sl) or i >= len(rl):
                unmatched += 1
                continue
            matched += 1
            if sl[i][1] != rl[i][1]:
                bad_bytes += 1
            tol = max(tolerance_ns.get(key[1], 0), tolerance_ns.get(key[2], 0))
            if rl[i][0] + tol < sl[i][0]:
                early += 1
                if early < 4:
                    print("  receive %s #%d ends at %d, its send began at %d" % (key, i, rl[i][0],
                                                                                sl[i][0]))
    if messages is not None:
        check(matched == messages, "OTF2: %d messages matched (%d)" % (messages, matched))
    elif truth is None:
        check(matched > 0, "OTF2: messages sent and received (%d matched)" % matched)
    check(bad_bytes == 0, "OTF2: each receive has its send's bytes and tag (%d differ)" % bad_bytes)
    check(early == 0, "OTF2: each receive ends after its send began (%d do not)" % early)
    if truth is not None:
        check(matched + unmatched == len(truth["messages"]),
              "OTF2: %d messages, as sent (%d)" % (len(truth["messages"]), matched + unmatched))
        lost = len([m for m in truth["messages"] if m[1] in crashed and m[3] == 99])
        check(unmatched == lost, "OTF2: %d unmatched message(s), the crashed rank's (%d)"
              % (lost, unmatched))
        ok = True
        by_key = collections.defaultdict(list)
        for comm, frm, to, tag, size in truth["messages"]:
            by_key[(frm, to, tag)].append(size)
        for (c, frm, to, tag), sl in sends.items():
            if [b for _, b in sl] != by_key.get((frm, to, tag)):
                ok = False
        check(ok, "OTF2: every message between the right world ranks with its bytes")
        want = collections.Counter((r, call) for r, call, _ in truth["collectives"])
        got = collections.Counter()
        for (rank, op, c), k in collectives.items():
            got[(rank, {"ALLREDUCE": "Allreduce", "BCAST": "Bcast"}.get(op, op))] += k
        check(got == want, "OTF2: the collectives of every rank (%s)" % dict(got))
    else:
        check(s["messages"]["unmatched_sends"] + s["messages"]["unmatched_receives"] == unmatched,
              "the summary counts the unmatched messages OTF2 shows (%d)" % unmatched)
        # Collectives: every member of a comm took part as often as the others.
        per_comm = collections.defaultdict(collections.Counter)
        for (rank, op, c), k in collectives.items():
            per_comm[(c, op)][rank] += k
        uneven = [(c, dict(v)) for c, v in per_comm.items()
                  if c[0] in members and set(v) != set(members[c[0]]) - set(crashed)]
        # When a rank crashed, the launcher may kill the others inside
        # their first collective (MPICH's hydra did, in CI): a collective is
        # recorded when it completes, so then there is none to compare.
        check((collectives or crashed) and not uneven,
              "OTF2: collectives on every rank of their communicator (%s)" % uneven[:3])
        per_rank = collections.Counter()
        for (rank, op, c), k in collectives.items():
            per_rank[rank] += k
        if collectives_per_rank is not None:
            want = [int(x) for x in str(collectives_per_rank).split(",")]
            want = want * n if len(want) == 1 else want
            check(all(per_rank[r] == want[r] for r in range(n) if r not in crashed),
                  "OTF2: %s collectives on the ranks (%s)" % (want, dict(per_rank)))
        if raw is not None:
            check_against_raw(raw, sends, recvs, per_rank, unfinished)
    check(s["messages"]["matched"] == matched,
          "the summary's matched messages are OTF2's (%d, %d)" % (s["messages"]["matched"], matched))

    # Perfetto and JSON: a process per rank, MPI slices, a flow per message.
    events, _, problems = perfetto_decode.read(os.path.join(out, "trace.perfetto-trace"))
    check(not problems, "the Perfetto trace decodes soundly (%s)" % problems[:3])
    jevents = json.load(open(os.path.join(out, "trace.json")))["traceEvents"]
    for fmt, evl in (("perfetto", events), ("json", jevents)):
        names = sorted(e["args"]["name"] for e in evl
                       if e.get("ph") == "M" and e.get("name") == "process_name")
        check(names == sorted("rank %d" % r for r in range(n)),
              "%s: a process per rank named rank R (%s)" % (fmt, names))
        pid_rank = {e["pid"]: int(e["args"]["name"].split()[1]) for e in evl
                    if e.get("ph") == "M" and e.get("name") == "process_name"}
        slices = [e for e in evl if e.get("ph") == "X"]
        mpi = [e for e in slices if e["name"].startswith("MPI_")]
        check(set(pid_rank[e["pid"]] for e in mpi) == set(range(n)),
              "%s: MPI slices on every rank (%d)" % (fmt, len(mpi)))
        omp = [e for e in slices if e["name"].startswith(("implicit task", "initial task"))]
        check(set(pid_rank[e["pid"]] for e in omp) == set(range(n)),
              "%s: OpenMP tasks on every rank (%d)" % (fmt, len(omp)))
        check_nesting(slices)
        starts = collections.defaultdict(list)
        finishes = collections.defaultdict(list)
        for e in evl:
            if e.get("ph") in ("s", "f") and e.get("cat") in ("message", "mpi"):
                (starts if e["ph"] == "s" else finishes)[e["id"]].append(e)
        pairs = [i for i in starts if i in finishes]
        check(all(len(v) == 1 for v in list(starts.values()) + list(finishes.values())),
              "%s: each message flow starts once and ends once" % fmt)
        check(len(pairs) == matched, "%s: a flow per matched message (%d, OTF2 %d)"
              % (fmt, len(pairs), matched))
        # The flow's ends: the send's slice and the receive's; bytes and order.
        def at(e):
            for sl in slices:
                if sl["pid"] == e["pid"] and sl["tid"] == e["tid"] and sl["name"].startswith("MPI_") \
                        and sl["ts"] - 0.0015 <= e["ts"] <= sl["ts"] + sl["dur"] + 0.0015:
                    return sl
            return None
        wrong = backwards = 0
        for i in pairs:
            s_ev, f_ev = starts[i][0], finishes[i][0]
            ss, fs = at(s_ev), at(f_ev)
            if ss is None or fs is None:
                wrong += 1
                continue
            one = ss["args"].get("messages", 1) == 1 and fs["args"].get("messages", 1) == 1
            if one and (ss["args"].get("bytes") != fs["args"].get("bytes") or
                        ss["args"].get("tag") != fs["args"].get("tag")):
                wrong += 1
            tol = max(tolerance_ns.get(pid_rank[s_ev["pid"]], 0),
                      tolerance_ns.get(pid_rank[f_ev["pid"]], 0)) / 1000.0
            if fs["ts"] + fs["dur"] + tol < ss["ts"]:
                backwards += 1
        check(wrong == 0, "%s: each flow joins a send's slice to a receive's with its bytes and "
              "tag (%d do not)" % (fmt, wrong))
        check(backwards == 0, "%s: each receive's slice ends after its send's began (%d do not)"
              % (fmt, backwards))
    return evs, loc_rank


def check_requests(out, raw, evs, loc_rank, icollectives=None, cancelled=None):
    """Non-blocking collectives and cancelled requests, against the raw
    records: OTF2 has a NON_BLOCKING_COLLECTIVE_REQUEST per start (its
    request id) and a NON_BLOCKING_COLLECTIVE_COMPLETE per completion (the
    operation of the blocking call, communicator, root, bytes, request id)
    after it, an MPI_REQUEST_CANCELLED per cancelled request; Perfetto and
    JSON show the start's request on the I-call's slice and count the
    completions and cancellations on the wait/test slices' args.
    icollectives: how many each rank starts; cancelled: how many requests
    each rank finds cancelled."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "mpi"))
    import mpi_raw
    want_req, want_done, want_cancel = (collections.Counter() for _ in range(3))
    for rank, rk in mpi_raw.load(raw).items():
        for _, r in rk.mpi():
            kind = mpi_raw.MPI_KINDS[r[1]]
            if kind == "kMpiCollectiveRequest":
                want_req[(rank, r[7])] += 1
            elif kind == "kMpiCollectiveComplete":
                op = mpi_raw.call_name(r[2])[len("MPI_I"):].upper()  # OTF2's name of the operation
                want_done[(rank, op, r[6], r[8], r[7])] += 1
            elif kind == "kMpiRequestCancelled":
                want_cancel[(rank, r[5])] += 1
    got_req, got_done, got_cancel = (collections.Counter() for _ in range(3))
    started_at = {}
    late = 0
    for kind, loc, t, rest in evs:
        rank = loc_rank.get(loc)
        if kind == "NON_BLOCKING_COLLECTIVE_REQUEST":
            got_req[(rank, field(rest, "Request"))] += 1
            started_at[(rank, field(rest, "Request"))] = t
        elif kind == "NON_BLOCKING_COLLECTIVE_COMPLETE":
            op = re.search(r"Operation: (\w+)", rest).group(1)
            key = (rank, op, field(rest, "Sent"), field(rest, "Received"), field(rest, "Request"))
            got_done[key] += 1
            if t < started_at.get((rank, key[4]), t + 1):
                late += 1
        elif kind == "MPI_REQUEST_CANCELLED":
            got_cancel[(rank, field(rest, "Request"))] += 1
    n_req = collections.Counter(r for r, _ in want_req.elements())
    if icollectives is not None:
        check(all(n_req[r] == icollectives for r in set(loc_rank.values())),
              "raw: %d non-blocking collectives started per rank (%s)" % (icollectives, dict(n_req)))
    check(got_req == want_req, "OTF2: a NON_BLOCKING_COLLECTIVE_REQUEST per recorded start, by "
          "request id (%d of %d)" % (sum(got_req.values()), sum(want_req.values())))
    check(got_done == want_done, "OTF2: a NON_BLOCKING_COLLECTIVE_COMPLETE per recorded "
          "completion with its operation, bytes and request id (%d of %d)"
          % (sum(got_done.values()), sum(want_done.values())))
    check(late == 0, "OTF2: each completes after its request (%d do not)" % late)
    n_cancel = collections.Counter(r for r, _ in want_cancel.elements())
    if cancelled is not None:
        check(all(n_cancel[r] == cancelled for r in set(loc_rank.values())),
              "raw: %d cancelled request(s) per rank (%s)" % (cancelled, dict(n_cancel)))
    check(got_cancel == want_cancel, "OTF2: an MPI_REQUEST_CANCELLED per recorded cancellation "
          "(%d of %d)" % (sum(got_cancel.values()), sum(want_cancel.values())))
    icalls = set(mpi_raw.CALLS[mpi_raw.CALLS.index("MPI_Ibarrier"):
                               mpi_raw.CALLS.index("MPI_Iexscan") + 1])
    events, _, _ = perfetto_decode.read(os.path.join(out, "trace.perfetto-trace"))
    jevents = json.load(open(os.path.join(out, "trace.json")))["traceEvents"]
    for fmt, evl in (("perfetto", events), ("json", jevents)):
        pid_rank = {e["pid"]: int(e["args"]["name"].split()[1]) for e in evl
                    if e.get("ph") == "M" and e.get("name") == "process_name"}
        slices = [e for e in evl if e.get("ph") == "X" and e["name"].startswith("MPI_")]
        starts = collections.Counter()
        done = collections.Counter()
        canc = collections.Counter()
        for e in slices:
            rank = pid_rank[e["pid"]]
            if e["name"] in icalls:
                starts[(rank, e["args"].get("request"))] += 1
            done[rank] += e["args"].get("collectives_completed", 0)
            canc[rank] += e["args"].get("requests_cancelled", 0)
        check(starts == want_req, "%s: each non-blocking collective's slice shows its request "
              "id (%d of %d)" % (fmt, sum(starts.values()), sum(want_req.values())))
        want_d = collections.Counter(k[0] for k in want_done.elements())
        check(+done == want_d, "%s: the wait/test slices' collectives_completed add up to the "
              "completions per rank (%s, %s)" % (fmt, dict(done), dict(want_d)))
        check(+canc == n_cancel, "%s: the wait/test slices' requests_cancelled add up per rank "
              "(%s, %s)" % (fmt, dict(canc), dict(n_cancel)))


def check_nesting(slices):
    by = collections.defaultdict(list)
    for e in slices:
        b = round(e["ts"] * 1000)
        by[(e["pid"], e["tid"])].append((b, -round(e["dur"] * 1000), b + round(e["dur"] * 1000)))
    bad = 0
    for sl in by.values():
        sl.sort()
        stack = []
        for b, _, end in sl:
            while stack and stack[-1] <= b:
                stack.pop()
            if stack and end > stack[-1]:
                bad += 1
            stack.append(end)
    check(bad == 0, "slices on each thread nest (%d overlaps)" % bad)


def rank_times(evs, loc_rank, rank):
    return [(k, loc, t) for k, loc, t, _ in evs if loc_rank.get(loc) == rank]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--converter", required=True)
    ap.add_argument("--producer", choices=("synthetic", "mpirun", "kite-inside", "kite-around"),
                    default="synthetic")
    ap.add_argument("--kite", help="the kite command (kite-inside, kite-around)")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--mpi", choices=("openmpi", "mpich"))
    ap.add_argument("--program")
    ap.add_argument("--lib-dir", help="where libkite-trace.so is")
    ap.add_argument("--wrapper", help="libkite-mpi-<mpi>.so")
    ap.add_argument("--kite-lib-dir", action="append", default=[],
                    help="Kite's runtime (gomp/, llvm/), put on LD_LIBRARY_PATH")
    ap.add_argument("--crash", action="store_true", help="synthetic: the last rank dies")
    ap.add_argument("--skew", action="store_true", help="one rank's clock 5 s ahead")
    ap.add_argument("--messages", type=int, help="how many messages the program sends")
    ap.add_argument("--collectives", help="how many collectives each rank joins (N, or N0,N1,...)")
    ap.add_argument("--icollectives", type=int,
                    help="how many non-blocking collectives each rank starts")
    ap.add_argument("--cancelled", type=int, help="how many requests each rank cancels")
    ap.add_argument("--crashed-rank", type=int, action="append", default=[],
                    help="mpirun: a rank that dies (the launcher exits non-zero)")
    ap.add_argument("work")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    skew_rank = 1 if a.skew else None
    skew_ns = 5 * 10 ** 9

    def produce(work, skew):
        if a.producer == "synthetic":
            return produce_synthetic(work, a.ranks, crash=a.crash,
                                     skew_rank=skew_rank if skew else None)
        return produce_mpirun(work, a.mpi, a.ranks, a.program, a.lib_dir, a.wrapper,
                              skew_rank=skew_rank if skew else None, skew_ns=skew_ns,
                              kite_lib_dirs=a.kite_lib_dir, crash=bool(a.crashed_rank))

    if a.producer.startswith("kite-"):
        # The kite command converts: its outputs are checked as they are.
        out, raw = produce_kite(a.work, a.producer[5:], a.kite, a.mpi, a.ranks, a.program)
        crashed = tuple(a.crashed_rank)
        check_job(out, a.ranks, None, crashed=crashed, messages=a.messages,
                  collectives_per_rank=a.collectives, raw=raw)
        print("%d check(s) failed" % failures if failures else "all checks passed")
        sys.exit(1 if failures else 0)
    raw, truth = produce(a.work, a.skew)
    out = os.path.join(a.work, "out")
    p = convert(a.converter, raw, out)
    check(re.search(r"merged %d ranks of %d" % (a.ranks, a.ranks), p.stderr) is not None,
          "the converter says what it merged (%s)" % p.stderr.strip().splitlines()[-1:])
    tolerance = {}
    if a.skew:
        s = json.load(open(os.path.join(out, "trace.summary.json")))
        corr = {c["rank"]: c for c in s["clock_corrections"]}
        check(list(corr) == [skew_rank], "a clock correction for the skewed rank only (%s)" % corr)
        c = corr.get(skew_rank, {})
        check(abs(c.get("offset_init_ns", 0) + skew_ns) < 10 ** 8,
              "its measured offset is the skew (%s ns)" % c.get("offset_init_ns"))
        tolerance[skew_rank] = max(c.get("uncertainty_init_ns", 0), c.get("uncertainty_final_ns", 0))
        check("moved to rank 0's clock" in p.stderr, "the converter says it moved rank %d's clock"
              % skew_rank)
    crashed = (a.ranks - 1,) if a.crash else tuple(a.crashed_rank)
    evs, loc_rank = check_job(out, a.ranks, truth, crashed=crashed, tolerance_ns=tolerance,
                              messages=a.messages, collectives_per_rank=a.collectives,
                              raw=raw if a.producer == "mpirun" else None)
    if a.producer == "mpirun":
        check_requests(out, raw, evs, loc_rank, a.icollectives, a.cancelled)
    if a.crash:
        check("unmatched (1 sends without a receive" in p.stderr,
              "the converter reports the crashed rank's unmatched send")
    if a.skew:
        # Where an unskewed clock puts the skewed rank's events: its own
        # conversion (--rank: its clock as recorded) less the skew.
        alone = os.path.join(a.work, "alone")
        convert(a.converter, raw, alone, ["--rank", str(skew_rank), "--quiet"])
        aarchive = os.path.join(alone, "rank%d.otf2" % skew_rank, "traces.otf2")
        adefs = otf2_defs(aarchive)  # --rank: one process, its own archive, read without warnings
        check(len(adefs["location_groups"]) == 1, "--rank %d: one location group" % skew_rank)
        aevs = otf2_events(aarchive)
        mine = [(k, t) for k, loc, t in rank_times(evs, loc_rank, skew_rank)]
        own = [(k, t) for k, loc, t, _ in aevs]
        check(sorted(k for k, _ in mine) == sorted(k for k, _ in own) and len(mine) > 0,
              "the skewed rank's events are the same in both conversions (%d, %d)"
              % (len(mine), len(own)))
        mine.sort(key=lambda e: (e[1], e[0]))
        own.sort(key=lambda e: (e[1], e[0]))
        # Drift between the two measurements is allowed for by their uncertainty
        # plus what the offsets themselves changed by.
        c = json.load(open(os.path.join(out, "trace.summary.json")))["clock_corrections"][0]
        slack = tolerance[skew_rank] + abs(c.get("offset_final_ns", c["offset_init_ns"]) -
                                           c["offset_init_ns"]) + 1000
        worst = max((abs((tm - (to - skew_ns))) for (_, tm), (_, to) in zip(mine, own)), default=-1)
        check(0 <= worst <= slack, "the skewed rank's events lie within %d ns of where its "
              "unskewed clock puts them (worst %d ns)" % (slack, worst))
        if truth is not None:
            true_t = sorted(truth["times"][skew_rank])
            merged_t = sorted(t for k, loc, t in rank_times(evs, loc_rank, skew_rank)
                              if k in ("ENTER", "LEAVE", "MPI_SEND", "MPI_RECV", "MPI_ISEND",
                                       "MPI_IRECV", "MPI_IRECV_REQUEST", "MPI_ISEND_COMPLETE",
                                       "MPI_COLLECTIVE_END") and loc == min(
                                  l for l, r in loc_rank.items() if r == skew_rank))
            missing = [t for t in true_t if not any(abs(t - m) <= 2 for m in merged_t)]
            check(not missing, "synthetic: every event of the skewed rank at its true time "
                  "(%d not: %s)" % (len(missing), missing[:3]))
    print("%d check(s) failed" % failures if failures else "all checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
