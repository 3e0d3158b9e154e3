#!/usr/bin/env python3
"""Known-answer tests of `kite profile`'s efficiency metrics and of
`kite diff`: runs a program whose efficiency is known by construction (the
comment at the top of each eff_*.c), reads profile.json back and checks
each expected metric within the tolerance (program level, and the costliest
region's where it says so).

  check_efficiency.py --kite KITE --program EXE --runtime kite|libomp
                      [--expect METRIC=VALUE ...] [--at-least METRIC=VALUE ...]
                      [--at-most METRIC=VALUE ...] [--tolerance T] [--cpus N]
                      [--counters LIST] [--html] [--diff-balanced] WORKDIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish, runtime_prefix  # noqa: E402

METRICS = ("parallel_efficiency", "load_balance", "serialization", "runtime_overhead",
           "synchronization", "imbalance", "descheduled")


SHARES = ("parallel_efficiency", "serialization", "runtime_overhead", "synchronization",
          "imbalance")


def profile(a, name, program_args=(), options=()):
    out = os.path.join(a.workdir, name)
    rate = ["--rate", str(a.rate)] if a.rate else []
    cmd = [sys.executable, a.kite, "profile", "--runtime", a.runtime] + rate + list(options) + \
        ["-o", out, "--", a.program] + list(program_args)
    if a.cpus:
        cmd = ["taskset", "-c", ",".join(str(c) for c in range(a.cpus))] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout)
    print(r.stderr)
    check(r.returncode == 0, "kite profile exits with the program's status 0 (%d)" % r.returncode)
    p = json.load(open(os.path.join(out, "profile.json")))
    want = runtime_prefix(a.runtime)
    check(p["runtime"].startswith(want), "ran on %s (%s)" % (want, p["runtime"]))
    return r, out, p


def pairs(items):
    out = []
    for e in items or []:
        k, _, v = e.partition("=")
        out.append((k, float(v)))
    return out


def dump_dom(a, html):
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    if not check(browser is not None, "chromium is installed (scripts/setup.sh installs it)"):
        return None, {}
    d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--user-data-dir=" + os.path.join(a.workdir, "chromium"),
                        "--dump-dom", "file://" + os.path.abspath(html)],
                       capture_output=True, text=True, timeout=120)
    body = re.search(r"<body([^>]*)>", d.stdout)
    return d.stdout, dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--runtime", default="kite")
    ap.add_argument("--expect", action="append")
    ap.add_argument("--at-least", action="append")
    ap.add_argument("--at-most", action="append")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--rate", type=int, default=0, help="kite profile --rate (default: kite's)")
    ap.add_argument("--cpus", type=int, default=0)
    ap.add_argument("--counters")
    ap.add_argument("--warn-descheduled", action="store_true")
    ap.add_argument("--html", action="store_true")
    ap.add_argument("--diff-balanced", action="store_true")
    ap.add_argument("workdir")
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)

    opts = ["--counters", a.counters] if a.counters else []
    r, out, p = profile(a, "p", options=opts)
    e = p.get("efficiency")
    if not check(isinstance(e, dict) and e.get("version") == 2, "a version-2 efficiency object"):
        return
    check(e.get("cpu_clock") is True, "the samples carry the threads' CPU clocks")
    for m in METRICS:
        check(0.0 <= e.get(m, -1) <= 1.0, "%s = %.3f is in [0, 1]" % (m, e.get(m, -1)))
    parts = e["parallel_efficiency"] + e["imbalance"] + e["serialization"] + \
        e["runtime_overhead"] + e["synchronization"] + e["descheduled"] + e["other_s"] / e["thread_s"]
    check(abs(parts - 1) <= 0.02, "useful + the losses = the thread time (%.3f)" % parts)
    for g in p["regions"]:
        ok = all(0.0 <= g["efficiency"].get(m, -1) <= 1.0 for m in METRICS)
        check(ok, "region %s:%d has its efficiency object in [0, 1]" % (g["file"], g["line"]))
    # Shares of the thread time are compared with the known answers on the
    # time the threads could run (a busy machine's descheduling taken out);
    # ratios (load balance, serial fraction) as they are.
    scale = 1.0 / max(1e-9, 1.0 - e["descheduled"])
    for m, v in pairs(a.expect):
        # NAME+NAME=V: the sum of shares (a loss the construction knows
        # in total but a runtime may split between two kinds).
        names = m.split("+")
        got = None if any(e.get(n) is None for n in names) else sum(e[n] for n in names)
        if got is not None and all(n in SHARES for n in names):
            got *= scale
        check(got is not None and abs(got - v) <= a.tolerance,
              "%s = %.3f (expected %.2f +- %.2f)" % (m, got if got is not None else -1, v, a.tolerance))
    for m, v in pairs(a.at_least):
        check(e.get(m, -1) >= v, "%s = %.3f (expected at least %.2f)" % (m, e.get(m, -1), v))
    for m, v in pairs(a.at_most):
        check(e.get(m, 2) <= v, "%s = %.3f (expected at most %.2f)" % (m, e.get(m, 2), v))
    if a.warn_descheduled:
        check("descheduled" in r.stdout and "warning" in r.stdout,
              "the text report warns about descheduling")
    # Idle workers are idle: never waiting on a C library frame.
    libc = [l for l in p["lines"] if l["wait_s"] > 0 and
            (l["function"] in ("start_thread", "clone", "clone3") or "nptl" in l["file"])]
    check(not libc, "no waiting charged to a C library frame (%s)"
          % [(l["function"], l["file"], l["line"]) for l in libc])
    if a.counters:
        names = a.counters.split(",")
        hw = [n for n in names if n not in ("task-clock", "context-switches", "cpu-migrations",
                                             "page-faults")]
        got = e.get("counters", {})
        missing = e.get("counters_unavailable", [])
        for n in names:
            if n in hw and any(m.startswith(n + ":") for m in missing):
                check(n not in got and ("counters: %s:" % n) in r.stdout,
                      "%s is not available here: left out, and the report says why" % n)
            else:
                check(got.get(n, 0) > 0, "counter %s counted (%s)" % (n, got.get(n)))
    if a.html:
        dom, attrs = dump_dom(a, os.path.join(out, "profile.html"))
        if dom is not None:
            check(attrs.get("status") == "ok", "the page loads without script errors (%s)"
                  % attrs.get("status"))
            check(attrs.get("efficiency-metrics") == str(len(METRICS)),
                  "the page shows the %d efficiency metrics (%s)" % (len(METRICS),
                                                                    attrs.get("efficiency-metrics")))
            check(attrs.get("wait-kinds") == "6" and "unattributed" in dom,
                  "the page lists every waiting kind, unattributed included (%s)"
                  % attrs.get("wait-kinds"))
    if a.diff_balanced:
        _, out_b, pb = profile(a, "b", program_args=["balanced"])
        dj, dh = os.path.join(a.workdir, "d.json"), os.path.join(a.workdir, "d.html")
        d = subprocess.run([sys.executable, a.kite, "diff", "--json", dj, "--html", dh, out, out_b],
                           capture_output=True, text=True)
        print(d.stdout, d.stderr)
        check(d.returncode == 0, "kite diff exits 0 (%d)" % d.returncode)
        doc = json.load(open(dj))
        lb = doc["efficiency"]["load_balance"]["change"]
        check(lb is not None and abs(lb - 0.25) <= a.tolerance,
              "load balance change %+.3f (expected +0.25 +- %.2f)" % (lb or 0, a.tolerance))
        im = doc["efficiency"]["imbalance"]["change"]
        check(im is not None and abs(im + 0.25) <= a.tolerance,
              "imbalance change %+.3f (expected -0.25 +- %.2f)" % (im or 0, a.tolerance))
        # 80 regions, each 16 ms -> 12 ms (CPU time): 1.28 -> 0.96 s of own
        # work on the long thread's line, 0.64 -> 0.96 s on the other's.
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "eff_balance.c")
        from toolcheck import marks
        m = marks(src)
        # A line's seconds are wall time (a busy machine stretches them):
        # the signs of the changes and the ratio of the two lines in each
        # run are the known answers (2 before, 1 after).
        def line(mark):
            rows = [l for l in doc["lines"] if l["file"] == "eff_balance.c" and l["line"] == m[mark]]
            return rows[0]["self"] if rows else {"a": 0, "b": 0, "change": 0}
        w0, w1 = line("w0"), line("w1")
        check(w0["change"] < 0 < w1["change"], "own work moves from @w0 (%+.3f s) to @w1 (%+.3f s)"
              % (w0["change"], w1["change"]))
        ra = w0["a"] / w1["a"] if w1["a"] else 0
        rb = w0["b"] / w1["b"] if w1["b"] else 0
        check(abs(ra - 2) <= 0.3 and abs(rb - 1) <= 0.15,
              "@w0 / @w1 own work: %.2f before (2 by construction), %.2f after (1)" % (ra, rb))
        regs = doc["regions"]
        check(regs and regs[0]["wall"]["change"] is not None and regs[0]["wall"]["change"] < -0.16,
              "the region's wall time goes down (%s s; 0.32 s by construction)"
              % (regs[0]["wall"]["change"] if regs else None))
        dom, attrs = dump_dom(a, dh)
        if dom is not None:
            check(attrs.get("status") == "ok", "the diff page loads without script errors (%s)"
                  % attrs.get("status"))
            check(attrs.get("metrics") == str(len(METRICS)) and attrs.get("regions") == str(len(regs)),
                  "the diff page shows the metrics and regions (%s, %s)"
                  % (attrs.get("metrics"), attrs.get("regions")))
        # Bad input: one line, exit 2, nothing written.
        bad = subprocess.run([sys.executable, a.kite, "diff", out], capture_output=True, text=True)
        check(bad.returncode == 2 and bad.stderr.count("\n") == 1,
              "kite diff with one profile: exit 2 and one line (%d: %s)" % (bad.returncode, bad.stderr))
        junk = os.path.join(a.workdir, "junk.json")
        with open(junk, "w") as f:
            f.write("{\"format\": \"other\"}")
        bad = subprocess.run([sys.executable, a.kite, "diff", junk, out], capture_output=True, text=True)
        check(bad.returncode == 2 and "not a kite profile" in bad.stderr,
              "kite diff of a JSON that is no profile: exit 2 (%s)" % bad.stderr.strip())
        bad = subprocess.run([sys.executable, a.kite, "diff", "--html", dh, out, out_b],
                             capture_output=True, text=True)
        check(bad.returncode == 2 and "--force" in bad.stderr,
              "an existing --html file is not overwritten without --force")


if __name__ == "__main__":
    main()
    finish()
