#!/usr/bin/env python3
"""Known-answer tests of `kite profile`: runs a program whose waiting is
known by construction (see the comment at the top of each program), reads
the JSON report back and checks that the blame of the expected kind comes
out within the stated tolerance of the thread time, on the expected source
line (a @mark in the program's source). Optionally loads the HTML report in
headless Chromium and checks it drew what the JSON says.

  check_profile.py --kite KITE --program EXE --source SRC --runtime kite|libomp
                   --kind KIND --mark MARK --share S [--tolerance T]
                   [--imbalance-mark MARK] [--html] WORKDIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish, marks, run_kite, runtime_prefix  # noqa: E402


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--runtime", default="kite")
    ap.add_argument("--kind", required=True)
    ap.add_argument("--mark", required=True)
    ap.add_argument("--share", type=float, required=True)
    ap.add_argument("--tolerance", type=float, default=0.15)
    ap.add_argument("--imbalance-mark")
    ap.add_argument("--html", action="store_true")
    ap.add_argument("workdir")
    a = ap.parse_args()

    r, out = run_kite(a.kite, "profile", a.runtime, a.workdir, "p", a.program)
    p = json.load(open(os.path.join(out, "profile.json")))
    want = runtime_prefix(a.runtime)
    if not check(p["runtime"].startswith(want), "ran on %s (%s)" % (want, p["runtime"])):
        return
    check(p["version"] == 1 and p["threads"] == 2 and p["samples"] > 100,
          "a version-1 profile of 2 threads with samples (%d)" % p["samples"])
    m = marks(a.source)
    line = m[a.mark]
    base = os.path.basename(a.source)
    total = p["thread_s"]
    got = p["blame_by_kind"].get(a.kind, 0.0)
    share = got / total if total else 0
    check(abs(share - a.share) <= a.tolerance,
          "%s blame is %.1f %% of thread time (expected %.0f %% +- %.0f)"
          % (a.kind, 100 * share, 100 * a.share, 100 * a.tolerance))
    mine = [b for b in p["blame"] if b["kind"] == a.kind]
    at_line = sum(b["seconds"] for b in mine
                  if os.path.basename(b["file"]) == base and b["line"] == line)
    check(got > 0 and at_line >= 0.8 * got,
          "%.0f %% of the %s blame lands on %s:%d (@%s)"
          % (100 * at_line / got if got else 0, a.kind, base, line, a.mark))
    lines = [l for l in p["lines"] if os.path.basename(l["file"]) == base and l["line"] == line]
    check(lines and lines[0]["blame_s"] > 0, "the line table shows the blame on that line")
    if a.imbalance_mark:
        # gcc -O1 puts the region's GOMP_parallel call on the enclosing
        # loop's line, a line or two above the pragma.
        rl = m[a.imbalance_mark]
        regs = [g for g in p["regions"] if os.path.basename(g["file"]) == base
                and rl - 3 <= g["line"] <= rl + 1]
        check(len(regs) == 1, "the region at @%s (or the statement enclosing it) is in the table (%s)"
              % (a.imbalance_mark, [(g["file"], g["line"]) for g in p["regions"]]))
        if regs:
            g = regs[0]
            # The region's imbalance leaves descheduled time out (it is
            # useful time per thread): compare it on the time the threads
            # could run.
            running = total - p.get("efficiency", {}).get("descheduled_s", 0.0)
            imb = g["imbalance_s"] / running if running > 0 else 0
            check(abs(imb - a.share) <= a.tolerance,
                  "its imbalance is %.1f %% of the thread time not descheduled (expected %.0f %% +- %.0f)"
                  % (100 * imb, 100 * a.share, 100 * a.tolerance))
            check(g["calls"] == 40 and abs(g["potential_gain_s"] - g["imbalance_s"] / 2) < 1e-6,
                  "40 calls, potential gain = imbalance / threads")
    # The tree: worker code under the call path that created the region.
    def find(node, fn, path):
        if node["function"].startswith(fn):
            return path + [node["function"]]
        for c in node["children"]:
            f = find(c, fn, path + [node["function"]])
            if f:
                return f
        return None
    # The region's outlined body, named by its function and construct line.
    outlined = find(p["tree"], "main (omp at line ", [])
    if a.runtime == "kite":
        check(outlined is not None and "main" in outlined[:-1],
              "the region's code sits under main in the call tree (%s)"
              % " > ".join(outlined or ["not found"]))
    if a.html:
        html = os.path.join(out, "profile.html")
        browser = chromium()
        if not check(browser is not None, "chromium is installed (scripts/setup.sh installs it)"):
            return
        d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(a.workdir, "chromium"),
                            "--dump-dom", "file://" + os.path.abspath(html)],
                           capture_output=True, text=True, timeout=120)
        body = re.search(r"<body([^>]*)>", d.stdout)
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}
        check(attrs.get("status") == "ok", "the page loads without script errors (%s)"
              % attrs.get("status"))
        check(attrs.get("regions") == str(len(p["regions"])), "one table row per region")
        check(attrs.get("thread-rows") == str(len(p["timeline"]["threads"])), "one row per thread")
        check(int(attrs.get("flame-nodes", "0")) >= 3, "the flame graph is drawn (%s boxes)"
              % attrs.get("flame-nodes"))
        rows = d.stdout.count("<tr>")
        check(rows >= 1 + len(p["regions"]), "tables have rows (%d)" % rows)
        # Views: bottom-up functions, the source view at the known hot line,
        # sortable tables, a time axis.
        check(attrs.get("functions") == str(len(p["functions"])) and p["functions"],
              "the bottom-up table lists the functions (%s)" % attrs.get("functions"))
        hot = "%s:%d" % (base, line)
        src = [x for x in p["sources"] if os.path.basename(x["file"]) == base]
        check(src and "text" in src[0], "profile.json embeds %s's source" % base)
        check(attrs.get("source-file") == base and attrs.get("source-hot") == hot,
              "the source view opens %s at its hottest line %s (%s, %s)"
              % (base, hot, attrs.get("source-file"), attrs.get("source-hot")))
        with open(a.source) as f:
            want_text = f.read().splitlines()[line - 1]
        tr = re.search(r'<tr id="src-%s-%d" class="hot">(.*?)</tr>' % (re.escape(base), line), d.stdout)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr.group(1)) if tr else []
        import html as htmllib
        check(len(cells) == 5 and htmllib.unescape(cells[4]) == want_text and float(cells[1] or 0) > 0,
              "its line %d is marked hot, with own work, and reads as the file does (%s)"
              % (line, cells[:4]))
        check(attrs.get("sortable-tables") == str(d.stdout.count("<thead>")),
              "every table sorts (%s of %d)" % (attrs.get("sortable-tables"), d.stdout.count("<thead>")))
        check(int(attrs.get("axis-ticks", "0")) >= 3, "the timeline has a time axis (%s ticks)"
              % attrs.get("axis-ticks"))
        # Shareable state: a search of the flame graph, a zoomed timeline.
        bins, bin_s = p["timeline"]["bins"], p["timeline"]["bin_s"]
        half = bins // 2 * bin_s
        q = "main (omp at line"
        d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(a.workdir, "chromium"),
                            "--dump-dom", "file://" + os.path.abspath(html) +
                            "#search=%s&zoom=0-%.9f" % (q.replace(" ", "%20"), half)],
                           capture_output=True, text=True, timeout=120)
        body = re.search(r"<body([^>]*)>", d.stdout)
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}
        def outer(node, acc):
            if node["function"].startswith(q):
                acc.append(node["total_s"])
                return acc
            for c in node["children"]:
                outer(c, acc)
            return acc
        want_s = sum(outer(p["tree"], []))
        got_s = float(attrs.get("search-seconds", "-1"))
        check(attrs.get("status") == "ok" and int(attrs.get("search-hits", "0")) >= 1
              and abs(got_s - want_s) <= 0.001 + 0.01 * want_s,
              "searching the flame graph for '%s' finds its boxes and their %.3f s (%s hits, %s s)"
              % (q, want_s, attrs.get("search-hits"), attrs.get("search-seconds")))
        check(attrs.get("zoom") == "0-%d" % (bins // 2), "the timeline zooms to the first half (bins %s)"
              % attrs.get("zoom"))
        # The blame view draws the culprits' call paths.
        d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(a.workdir, "chromium"),
                            "--dump-dom", "file://" + os.path.abspath(html) + "#blame"],
                           capture_output=True, text=True, timeout=120)
        body = re.search(r"<body([^>]*)>", d.stdout)
        attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}
        check(attrs.get("status") == "ok" and attrs.get("flame-view") == "blame",
              "the blame view loads (%s, %s)" % (attrs.get("status"), attrs.get("flame-view")))
        check(int(attrs.get("flame-nodes", "0")) >= 2, "and draws the blamed code (%s boxes)"
              % attrs.get("flame-nodes"))


if __name__ == "__main__":
    main()
    finish()
