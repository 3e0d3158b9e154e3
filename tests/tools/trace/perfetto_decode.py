"""Reads a Perfetto protobuf trace as kite-trace-convert writes it (the
messages of tools/trace/perfetto_trace.proto), with a wire-format decoder of
its own, and checks every packet on the way: sequence ids and flags, the
clock snapshot before the first time stamp, every interned id defined on
its sequence before use, every track described, every slice end matching a
begin. Returns the events in the shape of the JSON trace's (ph X slices
with ts and dur in microseconds, ph i instants, ph s / f flow ends, ph M
thread names), so the same checks apply to both."""
import struct


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of one message; value is an int
    for varints and fixed64, bytes for length-delimited fields."""
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(b, i)
        elif wire == 1:
            v = struct.unpack_from("<Q", b, i)[0]
            i += 8
        elif wire == 2:
            n, i = _varint(b, i)
            v = bytes(b[i:i + n])
            if len(v) != n:
                raise ValueError("truncated field %d" % num)
            i += n
        elif wire == 5:
            v = struct.unpack_from("<I", b, i)[0]
            i += 4
        else:
            raise ValueError("wire type %d of field %d" % (wire, num))
        yield num, wire, v


def message(b):
    """field number -> list of values."""
    out = {}
    for num, _, v in fields(b):
        out.setdefault(num, []).append(v)
    return out


def one(m, num, default=None):
    return m[num][-1] if num in m else default


class Sequence:
    def __init__(self):
        self.cleared = False
        self.clock = None      # the incremental clock's current value, ns
        self.clock_id = None   # the default clock (TracePacketDefaults)
        self.track = None      # the default track
        self.names, self.locations, self.annotation_names = {}, {}, {}


def read(path):
    """Returns (events, packets, problems): problems lists what breaks the
    rules above (empty when the trace is sound)."""
    data = open(path, "rb").read()
    problems = []
    events = []
    seqs = {}
    tracks = {}   # uuid -> (pid, tid or None, name)
    open_slices = {}  # track uuid -> stack of (ts_ns, name, args, flows in)
    packets = 0
    pid = None
    task_flows = set()  # flows that start at a task's creation

    def bad(what):
        if len(problems) < 20:
            problems.append("packet %d: %s" % (packets, what))

    for num, wire, pb in fields(data):
        if num != 1 or wire != 2:
            bad("a Trace field other than packet (%d)" % num)
            continue
        packets += 1
        p = message(pb)
        seq_id = one(p, 10)
        flags = one(p, 13, 0)
        if 60 in p:  # track descriptor
            d = message(one(p, 60))
            uuid = one(d, 1)
            if 3 in d:
                pd = message(one(d, 3))
                pid = one(pd, 1)
                tracks[uuid] = (pid, None, one(pd, 6, b"").decode())
                events.append({"ph": "M", "pid": pid, "name": "process_name",
                               "args": {"name": one(pd, 6, b"").decode()}})
            elif 4 in d:
                td = message(one(d, 4))
                name = one(td, 5, b"").decode()
                tracks[uuid] = (one(td, 1), one(td, 2), name)
                events.append({"ph": "M", "pid": one(td, 1), "tid": one(td, 2),
                               "name": "thread_name", "args": {"name": name}})
            else:
                if one(d, 5) not in tracks:
                    bad("track %s's parent %s is not described before it" % (uuid, one(d, 5)))
                tracks[uuid] = (pid, uuid, one(d, 2, b"").decode())
                events.append({"ph": "M", "pid": pid, "tid": uuid, "name": "thread_name",
                               "args": {"name": one(d, 2, b"").decode()}})
            continue
        if seq_id is None:
            bad("no trusted_packet_sequence_id")
            continue
        s = seqs.setdefault(seq_id, Sequence())
        if flags & 1:
            s.__init__()
            s.cleared = True
        elif not s.cleared:
            bad("sequence %d used before its incremental state is cleared" % seq_id)
        if 59 in p:
            d = message(one(p, 59))
            s.clock_id = one(d, 58)
            if 11 in d:
                s.track = one(message(one(d, 11)), 11)
        if 6 in p:  # clock snapshot
            clocks = [message(c) for c in message(one(p, 6)).get(1, [])]
            for c in clocks:
                if one(c, 1) == s.clock_id:
                    if not one(c, 3):
                        bad("the sequence's clock is not incremental")
                    s.clock = one(c, 2)
            if not any(one(c, 1) == 3 for c in clocks):
                bad("the clock snapshot does not anchor CLOCK_MONOTONIC")
        if 12 in p:  # interned data, defined before the event that uses it
            d = message(one(p, 12))
            for e in d.get(2, []):
                e = message(e)
                s.names[one(e, 1)] = one(e, 2, b"").decode()
            for e in d.get(3, []):
                e = message(e)
                s.annotation_names[one(e, 1)] = one(e, 2, b"").decode()
            for e in d.get(4, []):
                e = message(e)
                s.locations[one(e, 1)] = (one(e, 2, b"").decode(), one(e, 3, b"").decode(),
                                          one(e, 4, 0))
        if 11 not in p:
            continue
        if not flags & 2:
            bad("a track event without SEQ_NEEDS_INCREMENTAL_STATE")
        if s.clock is None or 8 not in p:
            bad("a track event without a time stamp on the sequence's clock")
            continue
        s.clock += one(p, 8)
        ts = s.clock
        ev = message(one(p, 11))
        track = one(ev, 11, s.track)
        if track not in tracks:
            bad("event on the undescribed track %s" % track)
            continue
        typ = one(ev, 9)
        flows = ev.get(36, []) + ev.get(47, [])
        terminating = ev.get(42, []) + ev.get(48, [])
        stack = open_slices.setdefault(track, [])
        if typ == 2:
            if not stack:
                bad("a slice end with no slice open on track %s" % track)
                continue
            b, name, args, tin, bout = stack.pop()
            tid = tracks[track][1]
            tpid = tracks[track][0]
            events.append({"ph": "X", "pid": tpid, "tid": tid, "ts": b / 1000.0,
                           "dur": (ts - b) / 1000.0, "name": name, "args": args})
            for f in tin:
                events.append({"ph": "f", "cat": "task" if f in task_flows else "dependence",
                               "id": f, "pid": tpid, "tid": tid, "ts": b / 1000.0})
            # A slice's begin that starts flows (an MPI send), its end that
            # ends them (the receive that completed there).
            for f in bout:
                events.append({"ph": "s", "cat": "message", "id": f, "pid": tpid, "tid": tid,
                               "ts": b / 1000.0})
            for f in terminating:
                events.append({"ph": "f", "cat": "message", "id": f, "pid": tpid, "tid": tid,
                               "ts": ts / 1000.0})
            for f in flows:  # at a slice's end: a dependence's source ends
                events.append({"ph": "s", "cat": "message" if f >> 62 else "dependence",
                               "id": f, "pid": tpid, "tid": tid, "ts": ts / 1000.0})
            continue
        if typ not in (1, 3):
            bad("track event type %s" % typ)
            continue
        n = one(ev, 10)
        if n not in s.names:
            bad("name iid %s not interned on sequence %d" % (n, seq_id))
            continue
        args = {}
        loc = one(ev, 34)
        if loc is not None:
            if loc not in s.locations:
                bad("source location iid %s not interned on sequence %d" % (loc, seq_id))
            else:
                f, fn, line = s.locations[loc]
                if f:
                    args["file"] = f
                    args["line"] = line
                if fn:
                    # "function [inlined chain]", as OTF2 regions say it
                    if " [" in fn and fn.endswith("]"):
                        fn, inl = fn.split(" [", 1)
                        args["inlined"] = inl[:-1]
                    args["function"] = fn
        for a in ev.get(4, []):
            a = message(a)
            an = one(a, 1)
            if an not in s.annotation_names:
                bad("annotation name iid %s not interned on sequence %d" % (an, seq_id))
                continue
            key = s.annotation_names[an]
            if 7 in a:
                args[key] = hex(one(a, 7))
            elif 4 in a:
                v = one(a, 4)
                args[key] = v - (1 << 64) if v >= 1 << 63 else v
            elif 2 in a:
                args[key] = bool(one(a, 2))
            else:
                args[key] = one(a, 3)
        if typ == 3:
            tid = tracks[track][1]
            events.append({"ph": "i", "pid": tracks[track][0], "tid": tid, "ts": ts / 1000.0,
                           "name": s.names[n], "args": args})
            for f in flows:  # an instant that starts flows: a task's creation
                task_flows.add(f)
                events.append({"ph": "s", "cat": "task", "id": f, "tid": tid, "ts": ts / 1000.0})
            continue
        stack.append((ts, s.names[n], args, terminating, flows))
    for track, stack in open_slices.items():
        if stack:
            problems.append("%d slice(s) never end on track %s" % (len(stack), track))
    return events, packets, problems

