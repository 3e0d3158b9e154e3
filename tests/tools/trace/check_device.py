#!/usr/bin/env python3
"""`kite trace` device tracks (tests/tools/trace/device.c on KITE_DEVICES=2):
runs the program through `kite trace`, then reads the Perfetto JSON, the
summary and the OTF2 definitions back. The device tracks come from OMPT
device tracing records: the kernels and transfers the program makes, each
inside a host-side target slice of the same device, slices on one track
never overlapping, and an accelerator location per track in OTF2.

  check_device.py --kite KITE --program EXE --threads N WORKDIR
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish  # noqa: E402
import perfetto_decode  # noqa: E402

ROUNDS = 6             # device.c
NOWAIT_PER_THREAD = 3  # device.c
SLACK_US = 1.0         # the JSON's microseconds have 3 decimals; conversions round


def check_events(events, threads):
    names = [e for e in events if e.get("ph") == "M" and e.get("name") == "process_name"]
    check(names and "(kite " in names[0]["args"]["name"],
          "the trace was made on Kite (%s)" % (names[0]["args"]["name"] if names else None))
    tracks = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            n = e["args"]["name"]
            if n.startswith("device "):
                tracks[e["tid"]] = int(n.split()[1])
    check(sorted(set(tracks.values())) == [0, 1], "a track for each device (%r)" % tracks)

    dev = [e for e in events if e.get("ph") == "X" and (e.get("cat") == "device" or
                                                         e["tid"] in tracks)]
    check(all(e["tid"] in tracks for e in dev), "device slices are on device tracks")
    count = collections.Counter((tracks.get(e["tid"]), e["name"]) for e in dev)
    kernels0 = ROUNDS // 2 + threads * NOWAIT_PER_THREAD
    kernels1 = ROUNDS // 2
    want = {
        (0, "kernel"): kernels0, (1, "kernel"): kernels1,
        # each round: a to the device, b back; each nowait: out[s] both ways
        (0, "copy to device"): kernels0, (0, "copy from device"): kernels0,
        (1, "copy to device"): kernels1, (1, "copy from device"): kernels1,
        # a and b allocated and freed per round, out[s] per nowait region
        (0, "alloc"): 2 * (ROUNDS // 2) + threads * NOWAIT_PER_THREAD,
        (0, "free"): 2 * (ROUNDS // 2) + threads * NOWAIT_PER_THREAD,
        (1, "alloc"): 2 * kernels1, (1, "free"): 2 * kernels1,
    }
    for k, n in want.items():
        check(count.get(k, 0) == n, "device %d: %d %s slices (%d)" % (k[0], n, k[1], count.get(k, 0)))
    check(sum(count.values()) == sum(want.values()), "no other device slices (%r)" % count)
    for e in dev:
        if e["name"].startswith("copy"):
            check(e["args"].get("bytes") in (8192, 4), "a transfer's bytes: a, b or out[s] (%r)" % e)
            check(os.path.basename(e["args"].get("file", "")) == "device.c",
                  "a transfer is attributed to its construct in device.c (%r)" % e["args"])

    # Inside the host-side target slice of the same device.
    host = [e for e in events if e.get("ph") == "X" and e.get("cat", "target") == "target"
            and e["name"].startswith("target") and "device" in e.get("args", {})]
    by_dev = collections.defaultdict(list)
    for e in host:
        by_dev[e["args"]["device"]].append((e["ts"], e["ts"] + e["dur"]))
    outside = 0
    for e in dev:
        d = tracks.get(e["tid"])
        b, en = e["ts"], e["ts"] + e["dur"]
        if not any(hb - SLACK_US <= b and en <= he + SLACK_US for hb, he in by_dev[d]):
            outside += 1
            if outside <= 3:
                print("outside any target slice of device %s: %r" % (d, e))
    check(outside == 0, "every device slice lies inside a host target slice of its device")

    # No overlap on a track.
    per_track = collections.defaultdict(list)
    for e in dev:
        per_track[e["tid"]].append((round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000)))
    overlaps = 0
    for sl in per_track.values():
        sl.sort()
        for (b0, e0), (b1, e1) in zip(sl, sl[1:]):
            if b1 < e0:
                overlaps += 1
    check(overlaps == 0, "slices of one device track never overlap (%d)" % overlaps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("workdir")
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    out = os.path.join(a.workdir, "dev")
    # The recorder's default clock (the TSC where invariant): device times,
    # on CLOCK_MONOTONIC, are placed by the clock pairs the tool records at
    # target callbacks (docs/kite-trace.md), which the containment check
    # below relies on.
    env = dict(os.environ, KITE_DEVICES="2", OMP_NUM_THREADS=str(a.threads))
    env.pop("KITE_CLOCK", None)
    r = subprocess.run([sys.executable, a.kite, "trace", "--runtime", "kite", "--format",
                        "otf2,perfetto,json", "-o", out, "--", a.program], capture_output=True, text=True, env=env)
    print(r.stdout)
    print(r.stderr)
    check(r.returncode == 0, "kite trace exits with the program's status 0 (%d)" % r.returncode)
    if r.returncode != 0:
        finish()
    words = r.stdout.split()
    threads = int(words[words.index("threads") + 1]) if "threads" in words else 0
    check("devices" in words and words[words.index("devices") + 1] == "2",
          "the program saw 2 devices")
    check(threads >= 1, "the program says how many threads ran")

    events_pb, packets, problems = perfetto_decode.read(out + "/trace.perfetto-trace")
    check(not problems, "every packet of the protobuf trace is sound (%d packets: %s)"
          % (packets, problems[:3]))
    for fmt, events in (("protobuf", events_pb),
                        ("json", json.load(open(out + "/trace.json"))["traceEvents"])):
        print("-- the %s trace" % fmt)
        check_events(events, threads)

    kernels0 = ROUNDS // 2 + threads * NOWAIT_PER_THREAD
    kernels1 = ROUNDS // 2
    summary = json.load(open(out + "/trace.summary.json"))
    devs = {d["device"]: d for d in summary.get("devices", [])}
    check(devs.get(0, {}).get("kernels") == kernels0 and devs.get(1, {}).get("kernels") == kernels1,
          "the summary counts each device's kernels (%r)" % devs)
    check(devs.get(1, {}).get("transfer_bytes") == 2 * kernels1 * 8192,
          "device 1 moved a and b each round (%r)" % devs.get(1))
    check("device 0: %d kernels" % kernels0 in r.stdout, "the printed summary names device 0")

    p = subprocess.run(["otf2-print", "-G", out + "/trace.otf2/traces.otf2"], capture_output=True,
                       text=True)
    streams = [l for l in p.stdout.splitlines() if "ACCELERATOR_STREAM" in l]
    check(p.returncode == 0 and len(streams) >= 2,
          "OTF2: an accelerator stream per device track (%d)" % len(streams))
    finish()


if __name__ == "__main__":
    main()
