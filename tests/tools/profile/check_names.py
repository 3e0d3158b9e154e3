#!/usr/bin/env python3
"""The naming rule in every output of `kite profile` (text, profile.json,
profile.html) and `kite trace` (summary text, trace.summary.json,
trace.json, the OTF2 definitions): runs a program of known functions
(names.cpp, names.f90) and checks that no compiler-made name, parameter
list or line 0 shows, that outlined bodies are named by their function and
construct line, and that an inlined helper's call sites stay apart.

  check_names.py --kite KITE --tool profile|trace --program EXE --source SRC
                 --runtime kite|libomp [--fortran] WORKDIR
"""
import argparse
import html as html_mod
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from toolcheck import check, finish, marks, run_kite, runtime_prefix  # noqa: E402

# What the compilers call outlined bodies and clones: never shown.
FORBIDDEN = ("._omp_fn", ".omp_outlined", "omp_outlined", "[clone", "_omp_cpyfn")
# A file:line with line 0 in text ("names.cpp:0", "lib.so:0 ").
LINE_ZERO = re.compile(r"[\w.+-]+\.\w+:0(?![\d.])")


def clean_text(what, text):
    bad = [f for f in FORBIDDEN if f in text]
    check(not bad, "%s holds no compiler-made name (%s)" % (what, bad))
    zero = LINE_ZERO.findall(text)
    check(not zero, "%s shows no line 0 (%s)" % (what, zero[:3]))


def objects(node):
    """Every JSON object under node."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from objects(v)
    elif isinstance(node, list):
        for v in node:
            yield from objects(v)


def clean_json(what, doc):
    zero = [o for o in objects(doc) if o.get("file") and o.get("line") == 0]
    check(not zero, "%s: no entry with a file and line 0 (%s)" % (what, zero[:2]))
    params = [o["function"] for o in objects(doc)
              if isinstance(o.get("function"), str) and re.search(r"\((?!omp at line|anonymous)[^)]*\)$", o["function"])
              and "lambda" not in o["function"] and "operator()" not in o["function"]]
    check(not params, "%s: no parameter list in a function name (%s)" % (what, params[:3]))


def near(line, mark, slack=1):
    return mark - slack <= line <= mark + slack


def outlined_name(fn, prefix, mark):
    m = re.match(re.escape(prefix) + r" \(omp at line (\d+)\)$", fn or "")
    return bool(m) and near(int(m.group(1)), mark)


def profile_checks(a, m, base):
    r, out = run_kite(a.kite, "profile", a.runtime, a.workdir, "p", a.program)
    p = json.load(open(os.path.join(out, "profile.json")))
    want = runtime_prefix(a.runtime)
    if not check(p["runtime"].startswith(want), "ran on %s (%s)" % (want, p["runtime"])):
        return
    html = open(os.path.join(out, "profile.html")).read()
    raw = open(os.path.join(out, "profile.json")).read()
    # The source view embeds the program's own text, which may say anything
    # (names.cpp's comment spells the compilers' names): names are checked
    # everywhere but there.
    names_only = dict(p, sources=[{k: v for k, v in s.items() if k != "text"} for s in p["sources"]])
    embedded = raw.replace("</", "<\\/")
    check(embedded in html, "profile.html embeds profile.json")
    clean_text("the text report", r.stdout)
    clean_text("profile.json", json.dumps(names_only))
    clean_text("profile.html", html.replace(embedded, json.dumps(names_only)))
    clean_json("profile.json", p)
    nodes = list(objects(p["tree"]))
    fns = set(n["function"] for n in nodes)
    if a.fortran:
        check(any(outlined_name(f, "physics::relax", m["fortran_region"]) for f in fns),
              "the module procedure's region is physics::relax (omp at line %d) (%s)"
              % (m["fortran_region"], sorted(fns)[:12]))
        check("names_f" in fns, "the main program is named names_f")
        return
    check(any(outlined_name(f, "physics::relax<double>", m["template"]) for f in fns),
          "the template's region is physics::relax<double> (omp at line %d) (%s)"
          % (m["template"], sorted(fns)[:20]))
    lam = [f for f in fns if f.startswith("main::") and "operator()" in f
           and re.search(r"\(omp at line (\d+)\)$", f)]
    check(any(near(int(re.search(r"line (\d+)\)$", f).group(1)), m["lambda"]) for f in lam),
          "the lambda's region is main::<lambda>::operator() (omp at line %d) (%s)" % (m["lambda"], lam))
    sigs = [n.get("signature", "") for n in nodes if n["function"].startswith("physics::relax<double>")]
    check(any("(double)" in s for s in sigs), "the full signature is kept apart in JSON (%s)" % sigs[:2])
    # The inlined helper: its two call sites are two regions, told apart.
    inl = [g for g in p["regions"] if g["function"] == "smooth" and near(g["line"], m["inlined"], 3)]
    sites = sorted(g.get("inlined_at", "") for g in inl)
    want_sites = ["%s:%d" % (base, m["site1"]), "%s:%d" % (base, m["site2"])]
    check(sites == want_sites, "the inlined helper's regions name their call sites %s (%s)"
          % (want_sites, sites))
    # In the call tree, the inlined helper is a level of its own under each
    # call site's line of main.
    def under(node, acc):
        for c in node["children"]:
            if node.get("function") == "main" and c["function"] == "smooth":
                acc.add(node["line"])
            under(c, acc)
        return acc
    lines = under(p["tree"], set())
    check({m["site1"], m["site2"]} <= lines, "main calls smooth at lines %d and %d in the tree (%s)"
          % (m["site1"], m["site2"], sorted(lines)))
    # The page: names without parameters in its cells, the signature on hover.
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(b)), None)
    if check(browser is not None, "chromium is installed (scripts/setup.sh installs it)"):
        d = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(a.workdir, "chromium"), "--dump-dom",
                            "file://" + os.path.abspath(os.path.join(out, "profile.html"))],
                           capture_output=True, text=True, timeout=120)
        cells = [(html_mod.unescape(t), html_mod.unescape(v))
                 for t, v in re.findall(r'<td class="l" title="([^"]*)">([^<]*)</td>', d.stdout)]
        hover = [(t, v) for t, v in cells if v.startswith("physics::relax<double>")]
        check(hover and all("(double)" in t and "(double)" not in v for t, v in hover),
              "the page names physics::relax<double> in its cells and shows its signature on hover (%s)"
              % hover[:2])


def trace_checks(a, m, base):
    r, out = run_kite(a.kite, "trace", a.runtime, a.workdir, "t", a.program,
                      ("--format", "otf2,perfetto,json"))
    summary = json.load(open(os.path.join(out, "trace.summary.json")))
    want = runtime_prefix(a.runtime)
    if not check(summary["runtime"].startswith(want), "ran on %s (%s)" % (want, summary["runtime"])):
        return
    trace = json.load(open(os.path.join(out, "trace.json")))
    clean_text("the summary text", r.stdout)
    clean_text("trace.summary.json", json.dumps(summary))
    clean_text("trace.json", json.dumps(trace))
    # The protobuf holds its names as plain UTF-8 strings (interned names
    # and source locations): none may be a compiler-made one.
    pb = open(os.path.join(out, "trace.perfetto-trace"), "rb").read()
    check(b"physics::relax" in pb, "the protobuf trace names physics::relax")
    bad = [f for f in FORBIDDEN if f.encode() in pb]
    check(not bad, "trace.perfetto-trace holds no compiler-made name (%s)" % bad)
    clean_json("trace.summary.json", summary)
    clean_json("trace.json", trace)
    defs = subprocess.run(["otf2-print", "-G", os.path.join(out, "trace.otf2", "traces.otf2")],
                          capture_output=True, text=True)
    if defs.returncode == 0:
        clean_text("the OTF2 definitions", defs.stdout)
    evs = trace["traceEvents"]
    fns = set(e.get("args", {}).get("function") for e in evs if e.get("ph") == "X")
    if a.fortran:
        par = [e for e in evs if e.get("ph") == "X" and e["name"].startswith("parallel @")]
        check(par and all(e["args"].get("function") == "physics::relax" for e in par),
              "parallel slices name physics::relax (%s)" % sorted(set(e["args"].get("function") for e in par)))
        return
    check("physics::relax<double>" in fns, "a slice names physics::relax<double> (%s)" % sorted(f for f in fns if f)[:12])
    check(any(outlined_name(f, "physics::relax<double>", m["template"]) for f in fns if f),
          "the barrier inside the template's region names physics::relax<double> (omp at line %d)"
          % m["template"])
    smooth = [e for e in evs if e.get("ph") == "X" and e["name"].startswith("parallel @")
              and e["args"].get("function") == "smooth"]
    inl = sorted(set(re.sub(r".*inlined at ", "", e["args"].get("inlined", "")).rstrip(")") for e in smooth))
    want_sites = ["%s:%d" % (base, m["site1"]), "%s:%d" % (base, m["site2"])]
    check(inl == want_sites, "the inlined helper's parallel slices name their call sites %s (%s)"
          % (want_sites, inl))
    listed = sorted(re.findall(r"smooth \(inlined at ([\w.]+:\d+)\)", r.stdout))
    check(listed == want_sites, "the summary lists the inlined helper's regions by call site (%s)" % listed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kite", required=True)
    ap.add_argument("--tool", choices=("profile", "trace"), required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--runtime", default="kite")
    ap.add_argument("--fortran", action="store_true")
    ap.add_argument("workdir")
    a = ap.parse_args()
    m = marks(a.source)
    base = os.path.basename(a.source)
    if a.tool == "profile":
        profile_checks(a, m, base)
    else:
        trace_checks(a, m, base)


if __name__ == "__main__":
    main()
    finish()
