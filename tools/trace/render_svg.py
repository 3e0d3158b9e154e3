#!/usr/bin/env python3
"""Draws a `kite trace` trace-event JSON file (`--format json`; the default
protobuf trace is not read here) as a self-contained SVG timeline: one lane
per thread, nested slices stacked, flow arrows for task creation and
dependences, a time axis. It is how the picture in the README and
docs/kite-trace.md is made from a real trace of the bundled example:

  build/kite trace --format json -o /tmp/demo-json -- build/examples/kite-demo
  tools/trace/render_svg.py /tmp/demo-json/trace.json docs/images/kite-trace-demo.svg

A trace of an MPI job gets a group of lanes per rank (its threads), MPI
calls in their own colour and an arrow from each send to its receive
(docs/kite-mpi.md). --window FROM TO (ms from the trace's first slice)
draws only that part of the run.
"""
import html
import json
import sys

COLORS = {"parallel": "#9ecae1", "work": "#a1d99b", "dispatch": "#c7e9c0", "sync": "#fdae6b",
          "wait": "#e6550d", "task": "#bcbddc", "mutex": "#fc9272", "target": "#fdd0a2",
          "mpi": "#c994c7"}
FLOW_COLORS = {"task": "#3182bd", "mpi": "#7a0177"}  # others: dependences, #d62728
ROW = 16
WIDTH = 1100
LEFT = 190


def main():
    argv = sys.argv[1:]
    window = None
    if len(argv) == 5 and argv[2] == "--window":
        try:
            window = (float(argv[3]), float(argv[4]))
        except ValueError:
            window = None
        if window is None or window[1] <= window[0]:
            sys.stderr.write("render_svg.py: --window FROM TO: two numbers of ms, FROM < TO\n")
            return 2
        argv = argv[:2]
    if len(argv) != 2 or argv[0] in ("-h", "--help"):
        sys.stderr.write("usage: render_svg.py TRACE.json OUT.svg [--window FROM_MS TO_MS]\n")
        return 2
    sys.argv[1:] = argv
    try:
        with open(sys.argv[1], "rb") as f:
            events = json.loads(f.read())["traceEvents"]
    except OSError as e:
        sys.stderr.write("render_svg.py: cannot read %s: %s\n" % (sys.argv[1], e.strerror))
        return 1
    except (ValueError, KeyError, TypeError):
        sys.stderr.write("render_svg.py: %s is not a trace-event JSON file "
                         "(kite trace --format json writes one)\n" % sys.argv[1])
        return 1
    # A lane is a thread of a process: (pid, tid).
    procs = {e["pid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "process_name"}
    proc_order = {e["pid"]: e["args"]["sort_index"] for e in events
                  if e.get("ph") == "M" and e.get("name") == "process_sort_index"}
    names = {(e.get("pid"), e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    if len(procs) > 1:  # several processes: each lane says whose thread it is
        names = {k: "%s: %s" % (procs.get(k[0], "pid %s" % k[0]),
                                v.replace("OpenMP thread", "thread").split(" (")[0])
                 for k, v in names.items()}
    order = {(e.get("pid"), e["tid"]): (proc_order.get(e.get("pid"), 0), e["args"]["sort_index"])
             for e in events if e.get("ph") == "M" and e.get("name") == "thread_sort_index"}
    slices = [e for e in events if e.get("ph") == "X" and e["name"] != "initial task"]
    for e in events:
        if e.get("ph") in ("X", "s", "f"):
            e["tid"] = (e.get("pid"), e["tid"])
    if slices and window is not None:
        first = min(e["ts"] for e in slices)
        lo, hi = first + window[0] * 1000, first + window[1] * 1000
        kept = []
        for e in slices:
            b, f = max(e["ts"], lo), min(e["ts"] + e["dur"], hi)
            if f > b:
                e = dict(e, ts=b, dur=f - b)
                kept.append(e)
        slices = kept
        events = [e for e in events if e.get("ph") not in ("s", "f") or lo <= e["ts"] <= hi]
    if not slices:
        sys.stderr.write("render_svg.py: no slices in %s\n" % sys.argv[1])
        return 1
    t0 = min(e["ts"] for e in slices)
    t1 = max(e["ts"] + e["dur"] for e in slices)
    scale = (WIDTH - LEFT - 20) / max(t1 - t0, 1e-3)
    x = lambda t: LEFT + (t - t0) * scale

    # Depth of each slice within its thread: the number of open slices
    # enclosing it.
    lanes = sorted({e["tid"] for e in slices}, key=lambda t: (order.get(t, (1 << 30, 0)), t))
    depth, lane_depth = {}, {}
    for tid in lanes:
        mine = sorted((e for e in slices if e["tid"] == tid), key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in mine:
            while stack and stack[-1] <= e["ts"] + 1e-9:
                stack.pop()
            depth[id(e)] = len(stack)
            stack.append(e["ts"] + e["dur"])
        lane_depth[tid] = max([depth[id(e)] for e in mine] + [0]) + 1
    top, y = {}, 40
    for tid in lanes:
        top[tid] = y
        y += lane_depth[tid] * ROW + 14
    height = y + 40

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="10">' % (WIDTH, height + 16),
           '<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="3" '
           'orient="auto"><path d="M0,0 L7,3 L0,6 z" fill="#333"/></marker></defs>',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="20" font-size="13">kite trace: %s</text>'
           % html.escape(sys.argv[1].split("/")[-2] if "/" in sys.argv[1] else sys.argv[1])]
    for tid in lanes:
        out.append('<text x="10" y="%d">%s</text>'
                   % (top[tid] + 11, html.escape(names.get(tid, "tid %s" % tid[1]))))
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#ddd"/>'
                   % (LEFT, WIDTH - 20, top[tid] - 4, top[tid] - 4))
    for e in slices:
        x0, w = x(e["ts"]), max(e["dur"] * scale, 0.8)
        yy = top[e["tid"]] + depth[id(e)] * ROW
        color = COLORS.get(e.get("cat"), "#cccccc")
        a = e.get("args", {})
        where = ("%s:%s" % (a["file"].split("/")[-1], a["line"])) if "file" in a else ""
        out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" stroke="#555" '
                   'stroke-width="0.3"><title>%s %s (%.3f ms)</title></rect>'
                   % (x0, yy, w, ROW - 2, color, html.escape(e["name"]), html.escape(where),
                      e["dur"] / 1000))
        label = e["name"]
        if w > 7 * len(label) * 0.6:
            out.append('<text x="%.2f" y="%d">%s</text>' % (x0 + 2, yy + 11, html.escape(label)))
    # Flows: creation -> first run, dependence source end -> sink start.
    ends = {}
    for e in events:
        if e.get("ph") in ("s", "f"):
            ends.setdefault((e["cat"], e["id"]), {})[e["ph"]] = e
    for (cat, _), f in ends.items():
        if "s" in f and "f" in f:
            s, d = f["s"], f["f"]
            if s["tid"] not in top or d["tid"] not in top:
                continue
            out.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="%s" stroke-width="0.8" '
                       'marker-end="url(#arrow)"/>'
                       % (x(s["ts"]), top[s["tid"]] + 6, x(d["ts"]), top[d["tid"]] + 6,
                          FLOW_COLORS.get(cat, "#d62728")))
    # Time axis and legend.
    span_ms = (t1 - t0) / 1000
    step = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500,
                            1000, 2000, 5000) if span_ms / s <= 10)
    k = 0
    while k * step <= span_ms + 1e-9:
        xx = x(t0 + k * step * 1000)
        out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/>'
                   % (xx, xx, height - 34, height - 30))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%g ms</text>'
                   % (xx, height - 20, round(k * step + (window[0] if window else 0), 3)))
        k += 1
    lx = LEFT
    for cat, color in COLORS.items():
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (lx, height - 12, color))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 13, height - 3, cat))
        lx += 64
    out.append('<text x="%d" y="%d">arrows: blue task created -> run, red dependence, '
               'purple MPI message</text>' % (LEFT, height + 11))
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
