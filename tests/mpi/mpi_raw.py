#!/usr/bin/env python3
"""Reads the MPI records of a raw directory (tools/common/raw_format.h,
mpi_format.h) the way the converters do, without them: each rank's meta file,
its thread files (48-byte records, kind byte at offset 8, in windows of the
meta's window_bytes; the windows a crash left in <file>.tail overlaid, as
reader.h salvage_tail does, without changing the files), TSC stamps mapped to
CLOCK_MONOTONIC ns through the meta's pairs (reader.h TimeMap).

The kinds and call numbers are parsed from the headers, so the reader follows
them. `mpi_raw.py --dump DIR` prints every MPI record.
"""
import glob
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMMON = os.path.join(HERE, "..", "..", "tools", "common")
REC = struct.Struct("<QBBHIQQQQ")
assert REC.size == 48
TAIL_MAGIC = 0x4B545231


def _kinds():
    text = open(os.path.join(COMMON, "raw_format.h")).read()
    body = re.search(r"enum Kind : uint8_t \{(.*?)\};", text, re.S).group(1)
    names = []
    for line in body.splitlines():
        line = line.split("//")[0].strip()
        for word in line.split(","):
            word = word.strip()
            if not word:
                continue
            m = re.match(r"^(k\w+)(\s*=\s*(\d+))?$", word)
            if not m:
                raise SystemExit("mpi_raw.py: cannot parse raw_format.h kind '%s'" % word)
            if m.group(3):
                assert int(m.group(3)) == len(names)
            names.append(m.group(1))
    return {n: i for i, n in enumerate(names)}


def _calls():
    text = open(os.path.join(COMMON, "mpi_format.h")).read()
    body = re.search(r"#define KITE_MPI_CALLS\(X\)(.*?)\n\n", text, re.S).group(1)
    names = re.findall(r"X\((\w+)\)", body)
    return ["MPI_?"] + ["MPI_" + n for n in names]


KIND = _kinds()
CALLS = _calls()
MPI_KINDS = {KIND[k]: k for k in ("kMpiEnter", "kMpiLeave", "kMpiSend", "kMpiSendComplete",
                                  "kMpiRecvRequest", "kMpiRecv", "kMpiCollective",
                                  "kMpiCollectiveRequest", "kMpiCollectiveComplete",
                                  "kMpiRequestCancelled")}
ANY_RANK = 0xFFFFFFFF
ANY_TAG = (1 << 64) - 1
SELF_BASE = 0xFFFFFFFF << 32


def call_name(n):
    return CALLS[n] if 0 <= n < len(CALLS) else "MPI_?"


def read_meta(path):
    m = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if "=" in line:
                k, v = line.split("=", 1)
                m[k] = v
    return m


class TimeMap:
    def __init__(self, meta):
        self.tsc = meta.get("clock") == "tsc"
        if not self.tsc:
            return
        self.t0 = int(meta["tsc_start"])
        self.n0 = int(meta["ns_start"])
        t1, n1 = int(meta.get("tsc_end", 0)), int(meta.get("ns_end", 0))
        if t1 > self.t0 and n1 > self.n0:
            self.per = (n1 - self.n0) / (t1 - self.t0)
        else:
            self.per = 1e9 / float(meta["tsc_hz"])

    def ns(self, t):
        if not self.tsc:
            return t
        d = t - self.t0
        if d >= 1 << 63:
            d -= 1 << 64
        return self.n0 + int(d * self.per)


def _windows(path, window_bytes):
    """The file's windows, the tail's overlaid (reader.h salvage_tail)."""
    data = bytearray(open(path, "rb").read())
    tail = path + ".tail"
    if os.path.exists(tail):
        t = open(tail, "rb").read()
        magic, wb, slots = struct.unpack_from("<QQQ", t, 0)
        if magic == TAIL_MAGIC and wb == window_bytes and 1 <= slots <= 64:
            idx = struct.unpack_from("<%dQ" % slots, t, 24)
            for k, w in enumerate(idx):
                if w == 0:
                    continue
                chunk = t[4096 + k * wb: 4096 + (k + 1) * wb]
                if len(chunk) < wb or chunk[8] == 0:
                    continue
                at = (w - 1) * wb
                if len(data) < at + wb:
                    data.extend(b"\0" * (at + wb - len(data)))
                data[at:at + wb] = chunk
    return data


def read_records(path, window_bytes, tmap):
    """The records of one thread file, in order: (time_ns, kind, sub, f16, u32, a, b, c, d)."""
    data = _windows(path, window_bytes)
    per = window_bytes // REC.size
    out = []
    for w in range(0, len(data), window_bytes):
        for i in range(per):
            off = w + i * REC.size
            if off + REC.size > len(data):
                return out
            r = REC.unpack_from(data, off)
            kind = r[1]
            if kind == KIND["kPad"]:
                continue
            if kind == 0 or kind >= KIND["kKindCount"]:
                return out
            out.append((tmap.ns(r[0]),) + r[1:])
    return out


class Rank:
    """One process's files: meta, and per thread file its MPI records."""

    def __init__(self, stem):
        self.stem = stem
        self.meta = read_meta(stem + ".meta")
        self.tmap = TimeMap(self.meta)
        wb = int(self.meta["window_bytes"])
        self.threads = {}  # thread file index -> list of records (all kinds)
        for path in sorted(glob.glob(stem + ".thread-*.raw")):
            m = re.search(r"\.thread-(\d+)\.raw$", path)
            if not m:
                continue  # the samples stream
            self.threads[int(m.group(1))] = read_records(path, wb, self.tmap)
        self.rank = int(self.meta.get("mpi_world_rank", self.meta.get("rank") or -1))

    def mpi(self):
        """(thread, record) of every MPI record, in each thread's order."""
        for t in sorted(self.threads):
            for r in self.threads[t]:
                if r[1] in MPI_KINDS:
                    yield t, r


def load(raw_dir):
    ranks = {}
    for meta in sorted(glob.glob(os.path.join(raw_dir, "*.meta"))):
        r = Rank(meta[:-len(".meta")])
        if r.rank in ranks:
            raise SystemExit("mpi_raw.py: two processes say they are rank %d" % r.rank)
        ranks[r.rank] = r
    return ranks


def describe(r):
    t, kind, sub, f16, u32, a, b, c, d = r
    k = MPI_KINDS[kind]
    if k == "kMpiEnter":
        return "enter %s site=%#x" % (call_name(sub), c)
    if k == "kMpiLeave":
        return "leave %s rc=%d" % (call_name(sub), u32)
    if k == "kMpiSend":
        return "send comm=%#x to=%d tag=%d bytes=%d req=%d" % (a, u32, b, d, c)
    if k == "kMpiSendComplete":
        return "send-complete req=%d" % a
    if k == "kMpiRecvRequest":
        return "recv-request comm=%#x from=%s tag=%s req=%d" % (
            a, "any" if u32 == ANY_RANK else u32, "any" if b == ANY_TAG else b, c)
    if k == "kMpiRecv":
        return "recv comm=%#x from=%d tag=%d bytes=%d req=%d" % (a, u32, b, d, c)
    if k == "kMpiRequestCancelled":
        return "request-cancelled req=%d" % a
    what = {"kMpiCollective": "collective", "kMpiCollectiveRequest": "collective-request",
            "kMpiCollectiveComplete": "collective-complete"}[k]
    return "%s %s comm=%#x root=%s sent=%d received=%d%s" % (
        what, call_name(sub), a, "none" if u32 == ANY_RANK else u32, b, d,
        " req=%d" % c if k != "kMpiCollective" else "")


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "--dump":
        print("usage: mpi_raw.py --dump RAW_DIR", file=sys.stderr)
        return 2
    for rank, r in sorted(load(sys.argv[2]).items()):
        print("rank %d (%s)" % (rank, os.path.basename(r.stem)))
        for k in sorted(r.meta):
            if k.startswith("mpi") or k == "clock_domain":
                print("  %s=%s" % (k, r.meta[k]))
        for t, rec in r.mpi():
            print("  thread %d %d %s" % (t, rec[0], describe(rec)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
