"""Summary, tables, chart and validation of bench/run's results.

Works on the results dictionary alone (the JSON file's content), so old
result files can be re-rendered: `python3 -c 'import report; ...'`.
"""

import json
import math

REFERENCE_RUNTIMES = ["gomp", "omp"]
# The clang build's reference: the same binary on LLVM libomp.
CLANG_REFERENCE = "clang-omp"
# Overheads below this (timer and noise level) are raised to it before a
# ratio is taken, so that two near-zero numbers do not make a huge ratio.
RATIO_FLOOR_US = 0.02
# <variant><TOOL_SUFFIX> is <variant> with an OMPT tool registering every
# callback with empty bodies (bench/tool).
TOOL_SUFFIX = "-emptytool"
# <variant><TRACE_SUFFIX> is <variant> with `kite trace`'s recording library
# (libkite-trace.so, default events) attached.
TRACE_SUFFIX = "-trace"
# <variant><PROFILE_SUFFIX> is <variant> with `kite profile`'s sampler
# (libkite-profile.so, 1000 Hz per thread) attached.
PROFILE_SUFFIX = "-profile"
SCHEMA = "kite-bench/1"


def write_results(f, data):
    """Readable header, then one compact line per run: small, and a diff of
    two result files lines up run by run."""
    head = json.dumps({k: v for k, v in data.items() if k != "runs"}, indent=1)
    runs = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in data["runs"])
    f.write(head[:-2] + ',\n "runs": [\n' + runs + "\n ]\n}\n")


# --- summary, table, chart ----------------------------------------------------------

def median(xs):
    s = sorted(xs)
    n = len(s)
    return None if n == 0 else (s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2]))


def ratio(kite, best):
    if kite is None or best is None:
        return None
    return max(kite, RATIO_FLOOR_US) / max(best, RATIO_FLOOR_US)


def variant_kinds(variants):
    """name -> (base, binary) from a results file's variants, or from
    (base, binary) pairs or bare bases (older files: all gcc builds)."""
    out = {}
    for name, v in variants.items():
        if isinstance(v, dict):
            out[name] = (v["base"], v.get("binary", "gcc"))
        elif isinstance(v, (tuple, list)):
            out[name] = (v[0], v[1])
        else:
            out[name] = (v, "gcc")
    return out


def summarize(runs, variants, threads_list, constructs, event_counts=None):
    """Median over rounds of each run's median overhead, per construct,
    thread count and variant; ratios of every Kite-based variant of the gcc
    build against the best of libgomp and libomp, and of every Kite-based
    variant of the clang build against the clang build on libomp.
    `variants`: name -> (base runtime, binary). `event_counts`: tracing
    variant -> thread count -> construct -> bench/run's count record; with
    it, each row gets what tracing costs per recorded event."""
    kinds = variant_kinds(variants)
    summary = {}
    for t in threads_list:
        per_t = {}
        for c in constructs:
            row = {}
            for name in variants:
                mine = [r for r in runs if r["threads"] == t and r["construct"] == c and r["variant"] == name]
                vals = [r["result"]["overhead_us"]["median"] for r in mine if r["status"] == "ok"]
                if vals:
                    row[name] = {"median_us": median(vals), "rounds_ok": len(vals), "rounds": len(mine)}
                else:
                    statuses = sorted({r["status"] for r in mine}) or ["not run"]
                    row[name] = {"median_us": None, "status": "/".join(statuses),
                                   "error": next((r.get("error") for r in mine if r.get("error")), None)}
            refs = [row[n]["median_us"] for n in REFERENCE_RUNTIMES if n in row and row[n]["median_us"] is not None]
            best = min(refs) if refs else None
            row["best_reference_us"] = best
            clang_ref = row.get(CLANG_REFERENCE, {}).get("median_us")
            row["clang_reference_us"] = clang_ref
            row["ratios"] = {name: ratio(row[name]["median_us"], clang_ref if binary == "clang" else best)
                             for name, (base, binary) in kinds.items() if base == "kite"}
            # What a tool costs on each runtime: the variant with the empty
            # tool over the same runtime and binary without it.
            row["tool_ratios"] = {name: ratio(row[name + TOOL_SUFFIX]["median_us"], row[name]["median_us"])
                                  for name in variants if name + TOOL_SUFFIX in row}
            row["profile_ratios"] = {name: ratio(row[name + PROFILE_SUFFIX]["median_us"], row[name]["median_us"])
                                     for name in variants if name + PROFILE_SUFFIX in row}
            row["trace"] = {name: trace_cost(row[name + TRACE_SUFFIX]["median_us"], row[name]["median_us"],
                                             ((event_counts or {}).get(name + TRACE_SUFFIX, {}).get(str(t), {})
                                              .get(c, {})).get("per_instance"), t)
                            for name in variants if name + TRACE_SUFFIX in row}
            per_t[c] = row
        summary[str(t)] = per_t
    return summary


def trace_cost(traced_us, plain_us, events, threads):
    """What tracing adds to one construct instance: the ratio (traced /
    plain), the extra µs, the events recorded per instance (all threads),
    and ns per event: the extra time over the events one thread records
    (events / threads: the team's threads record side by side), which at
    one thread is simply extra time / events."""
    out = {"ratio": ratio(traced_us, plain_us), "extra_us": None, "events_per_instance": events,
           "ns_per_event": None}
    if traced_us is not None and plain_us is not None:
        out["extra_us"] = traced_us - plain_us
        if events and events > 0:
            out["ns_per_event"] = out["extra_us"] * 1000.0 / (events / threads)
    return out


def fmt_us(cell):
    if cell["median_us"] is None:
        st = cell.get("status", "n/a")
        return "unsupported/failed" if st == "failed" else st
    return f"{cell['median_us']:.3f}"


def fmt_ratio(r):
    if r is None:
        return "–"
    return f"**{r:.2f}!**" if r > 1.0 else f"{r:.2f}"


def primary_variant(data, binary="gcc"):
    """The Kite variant of the overview table and the chart, for one build."""
    kite_variants = [n for n, (base, b) in variant_kinds(data["variants"]).items()
                     if base == "kite" and b == binary]
    want = "kite" if binary == "gcc" else "clang-kite"
    return want if want in kite_variants else (kite_variants[0] if kite_variants else None)


def reference_label(binary):
    return "best-of(libgomp, libomp)" if binary == "gcc" else "clang-omp"


def ratio_heading(data, binary):
    return f"{primary_variant(data, binary)} / {reference_label(binary)}"


def ratio_column(name, binary):
    return f"{name}/best" if binary == "gcc" else f"{name}/clang-omp"


def markdown_table(data):
    variants = [n for n in data["variants"]]
    kinds = variant_kinds(data["variants"])
    kite_variants = [n for n, (base, _) in kinds.items() if base == "kite"]
    lines = []
    ts = list(data["summary"].keys())
    for binary in ("gcc", "clang"):
        primary = primary_variant(data, binary)
        if primary is None:
            continue
        if lines:
            lines.append("")
        build = "the gcc build" if binary == "gcc" else "the clang build (same sources, clang -fopenmp)"
        lines.append(f"Ratio {primary} / {reference_label(binary)} of the median overhead per construct instance, "
                     f"{build} (**bold!** = {primary} slower; – = no ratio: a side failed, is unsupported "
                     f"or did not run):")
        lines.append("")
        lines.append("| construct | " + " | ".join(f"T={t}" for t in ts) + " |")
        lines.append("|---|" + "---:|" * len(ts))
        for c in data["construct_order"]:
            cells = [fmt_ratio(data["summary"][t][c]["ratios"].get(primary)) for t in ts]
            lines.append(f"| {c} | " + " | ".join(cells) + " |")
    lines += tool_table(data)
    lines += trace_table(data)
    lines += tool_table(data, PROFILE_SUFFIX, "profile_ratios",
                        "Profiling overhead: median overhead with `kite profile`'s sampler (libkite-profile.so, "
                        "1000 Hz per thread) / without it, same runtime and binary (**bold!** = above 1.15):")
    for t in ts:
        lines.append("")
        lines.append(f"Median overhead per construct instance, µs, {t} thread(s):")
        lines.append("")
        head = variants + [ratio_column(k, kinds[k][1]) for k in kite_variants]
        lines.append("| construct | " + " | ".join(head) + " |")
        lines.append("|---|" + "---:|" * len(head))
        for c in data["construct_order"]:
            row = data["summary"][t][c]
            cells = [fmt_us(row[v]) for v in variants] + [fmt_ratio(row["ratios"].get(k)) for k in kite_variants]
            lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def tool_table(data, suffix=TOOL_SUFFIX, key="tool_ratios",
               title="Tool overhead: median overhead with an OMPT tool registering every callback with empty "
                     "bodies / without a tool, same runtime and binary (**bold!** = above 1.15):"):
    """Per runtime and build: overhead with a tool (by default the empty one) / without it."""
    ts = list(data["summary"].keys())
    names = [n for n in data["variants"] if n + suffix in data["variants"]]
    if not names or not ts:
        return []
    lines = ["", title, ""]
    head = [f"{n} T={t}" for n in names for t in ts]
    lines.append("| construct | " + " | ".join(head) + " |")
    lines.append("|---|" + "---:|" * len(head))
    for c in data["construct_order"]:
        cells = []
        for n in names:
            for t in ts:
                r = data["summary"][t][c].get(key, {}).get(n)
                cells.append("–" if r is None else (f"**{r:.2f}!**" if r > 1.15 else f"{r:.2f}"))
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return lines


def trace_table(data):
    """Per runtime and build: tracing (libkite-trace.so, default events) /
    no tool, the events one instance records and what each one costs."""
    ts = list(data["summary"].keys())
    names = [n for n in data["variants"] if n + TRACE_SUFFIX in data["variants"]]
    if not names or not ts:
        return []
    lines = ["", "Tracing overhead: median overhead with `kite trace`'s recording library (libkite-trace.so, "
                 "default events) / without a tool, same runtime and binary; events recorded per construct "
                 "instance (all threads); ns per event = extra time per instance / (events / threads) "
                 "(– : no count, or no events). The last row is the median ns per event over the constructs "
                 "outside the schedule sweep (a sched_* instance is 128 iterations per thread: its few events "
                 "cost less than its noise):", ""]
    head = [f"{n} T={t} {k}" for n in names for t in ts for k in ("ratio", "events", "ns/event")]
    lines.append("| construct | " + " | ".join(head) + " |")
    lines.append("|---|" + "---:|" * len(head))
    medians = {}
    for c in data["construct_order"]:
        cells = []
        for n in names:
            for t in ts:
                cost = data["summary"][t][c].get("trace", {}).get(n) or {}
                r, ev, ns = cost.get("ratio"), cost.get("events_per_instance"), cost.get("ns_per_event")
                cells += ["–" if r is None else f"{r:.2f}", "–" if ev is None else f"{ev:g}",
                          "–" if ns is None else f"{ns:.0f}"]
                if ns is not None and not c.startswith("sched_"):
                    medians.setdefault((n, t), []).append(ns)
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    cells = []
    for n in names:
        for t in ts:
            m = median(medians.get((n, t), []))
            cells += ["", "", "–" if m is None else f"**{m:.0f}**"]
    lines.append("| median ns/event | " + " | ".join(cells) + " |")
    return lines


def svg_chart(data, variant=None):
    """One panel per build (gcc: Kite / best-of(libgomp, libomp); clang:
    clang-kite / clang-omp), stacked; `variant` draws only that one."""
    panels = []
    for binary in ("gcc", "clang"):
        name = primary_variant(data, binary)
        if name is not None and (variant is None or variant == name):
            panels.append((name, reference_label(binary)))
    if variant is not None and not panels:
        panels.append((variant, reference_label("gcc")))
    ts = list(data["summary"].keys())
    cons = data["construct_order"]
    bar_h, gap, label_w, plot_w, top = 6, 6, 170, 560, 70
    panel_h = top + (bar_h * len(ts) + gap) * len(cons) + 40
    width = label_w + plot_w + 50
    height = panel_h * len(panels)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for k, (name, ref) in enumerate(panels):
        out += svg_panel(data, name, ref, k * panel_h)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_panel(data, variant, reference, y_off):
    """Horizontal bars of log2(ratio), one row per construct, one bar per
    thread count; the axis at ratio 1 splits faster (left) from slower."""
    ts = list(data["summary"].keys())
    colors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"]
    cons = data["construct_order"]
    bar_h, gap, label_w, plot_w, top = 6, 6, 170, 560, 70 + y_off
    row_h = bar_h * len(ts) + gap
    bottom = top + row_h * len(cons) + 40
    lo, hi = -3.0, 3.0  # log2 range: 1/8x .. 8x
    x_of = lambda v: label_w + (v - lo) / (hi - lo) * plot_w
    out = [f'<text x="10" y="{y_off + 18}" font-size="14" font-weight="bold">{esc(variant)} / {esc(reference)}: '
           f'construct overhead ratio (log scale)</text>',
           f'<text x="10" y="{y_off + 34}" fill="#555">{esc(data["machine"]["cpu_model"])}, '
           f'{data["machine"]["cores"]} cores, {esc(data["placement"]["description"])}, '
           f'{data["settings"]["rounds"]} interleaved rounds, {esc(data["date"])}</text>']
    for k, t in enumerate(ts):
        x = label_w + k * 70
        out.append(f'<rect x="{x}" y="{y_off + 44}" width="10" height="10" fill="{colors[k % len(colors)]}"/>'
                   f'<text x="{x + 14}" y="{y_off + 53}">T={t}</text>')
    out.append(f'<text x="{label_w + 300}" y="{y_off + 53}" fill="#555">× = failed/unsupported</text>')
    for g in range(int(lo), int(hi) + 1):
        x = x_of(g)
        label = f"{2 ** g:g}x" if g >= 0 else f"1/{2 ** -g:g}x"
        out.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{bottom - 34}" '
                   f'stroke="{"#000" if g == 0 else "#ddd"}" stroke-width="{1.5 if g == 0 else 1}"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom - 20}" text-anchor="middle">{label}</text>')
    out.append(f'<text x="{x_of(0.1):.1f}" y="{bottom - 6}" fill="#a00">slower →</text>'
               f'<text x="{x_of(-0.1):.1f}" y="{bottom - 6}" text-anchor="end" fill="#070">← faster</text>')
    for i, c in enumerate(cons):
        y0 = top + i * row_h
        out.append(f'<text x="{label_w - 6}" y="{y0 + row_h / 2 + 2:.1f}" text-anchor="end">{esc(c)}</text>')
        for k, t in enumerate(ts):
            r = data["summary"][t][c]["ratios"].get(variant)
            y = y0 + k * bar_h
            color = colors[k % len(colors)]
            if r is None:
                out.append(f'<text x="{x_of(0) + 3:.1f}" y="{y + bar_h:.1f}" font-size="8" '
                           f'fill="{color}">×</text>')
                continue
            v = max(lo, min(hi, math.log2(r)))
            x0, x1 = sorted((x_of(0), x_of(v)))
            out.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 0.8):.1f}" height="{bar_h - 1}" '
                       f'fill="{color}"><title>{esc(c)} T={t}: {r:.2f}</title></rect>')
            if math.log2(r) > hi:  # off the scale: say by how much
                out.append(f'<text x="{x_of(hi) + 3:.1f}" y="{y + bar_h:.1f}" font-size="7" '
                           f'fill="{color}">{r:.0f}x</text>')
            elif math.log2(r) < lo:
                out.append(f'<text x="{x_of(lo) + 2:.1f}" y="{y + bar_h - 1:.1f}" font-size="6" '
                           f'fill="white">{r:.3f}x</text>')
    return out


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- validation (used by the smoke test) -------------------------------------------------

def validate(path, required=()):
    """Checks that a results file has the promised shape and that the
    reference runtime produced real numbers; each variant in `required`
    must have run (and, when it traces, counted its events)."""
    with open(path) as f:
        data = json.load(f)
    problems = []
    for key in ("schema", "date", "machine", "placement", "settings", "variants", "runs", "summary",
                "construct_order"):
        if key not in data:
            problems.append(f"missing key {key}")
    if problems:
        return problems
    if data["schema"] != SCHEMA:
        problems.append(f"schema {data['schema']!r} != {SCHEMA!r}")
    for key in ("cores", "cpu_model", "kernel"):
        if not data["machine"].get(key):
            problems.append(f"machine.{key} missing")
    if "description" not in data["placement"]:
        problems.append("placement.description missing")
    gomp = [r for r in data["runs"] if r["variant"] == "gomp"]
    if not gomp:
        problems.append("no libgomp runs")
    if not any(r["status"] == "ok" for r in gomp):
        problems.append("no libgomp run succeeded")
    for r in gomp:
        if r["status"] == "skipped":
            continue  # --deadline: the run was cut short, not wrong
        if r["status"] != "ok":
            problems.append(f"libgomp {r['construct']} T={r['threads']}: {r['status']} {r.get('error', '')}")
        elif not isinstance(r["result"]["overhead_us"]["median"], (int, float)):
            problems.append(f"libgomp {r['construct']}: no numeric median")
    for name, v in data["variants"].items():
        # A tool variant may lack its tool (e.g. OMPT headers in flux); Kite itself must run.
        # The clang build may be missing (no clang here): then no clang variant runs.
        if v.get("binary") == "clang" and str(v["unavailable"]).startswith("no clang build"):
            continue
        if v["base"] == "kite" and v["unavailable"] and not v.get("expect_stderr") and not v.get("trace") \
                and not v.get("profile"):
            problems.append(f"Kite variant {name} could not run: {v['unavailable']}")
    for name in required:
        v = data["variants"].get(name)
        if v is None:
            problems.append(f"required variant {name} is not in the file")
            continue
        if v["unavailable"]:
            problems.append(f"required variant {name} could not run: {v['unavailable']}")
        if not any(r["variant"] == name and r["status"] == "ok" for r in data["runs"]):
            problems.append(f"required variant {name}: no run succeeded")
        if v.get("trace") and not any(rec["status"] == "ok" for per_c in data.get("event_counts", {}).get(name, {}).values()
                                      for rec in per_c.values()):
            problems.append(f"required variant {name}: no event count succeeded")
    for name, per_t in data.get("event_counts", {}).items():
        for t, per_c in per_t.items():
            for c, rec in per_c.items():
                if rec["status"] == "ok" and not (isinstance(rec.get("per_instance"), (int, float))
                                                  and len(rec.get("events", [])) == 2):
                    problems.append(f"event count {name} T={t} {c}: malformed {rec}")
    for name, v in data["variants"].items():
        if v.get("trace") and not v["unavailable"] and name not in data.get("event_counts", {}):
            problems.append(f"tracing variant {name} ran but has no event counts")
    expected = len(data["construct_order"]) * len(data["settings"]["threads"]) * data["settings"]["rounds"]
    for name, v in data["variants"].items():
        n = len([r for r in data["runs"] if r["variant"] == name])
        if n != expected:
            problems.append(f"variant {name}: {n} records, expected {expected} (one per construct, thread count, round)")
    return problems


def fmt_load(load):
    return "/".join(f"{x:.2f}" for x in load) if load else "?"


def machine_header(data):
    m = data["machine"]
    lines = [f"Machine: {m['cpu_model']}, {m['cores']} cores, kernel {m['kernel']}, {m['os']}, "
             f"load average at start {fmt_load(m.get('loadavg_at_start'))}, at end {fmt_load(m.get('loadavg_at_end'))}",
             f"Compiler: {m['compiler']} (-fopenmp -O2, linked against the system libgomp)",
             f"Clang build: {m.get('clang', 'none')} (-fopenmp -O2, linked against LLVM libomp): "
             f"{data['settings'].get('clang_build', 'not built')}",
             f"Kite source: {data['settings'].get('source_revision', '?')}, built in {data['settings'].get('kite_build')}",
             f"Thread placement: {data['placement']['description']}",
             f"Background load: {data['settings'].get('background_load', 0)} busy process(es) during every measurement"
             " (bench/run --load)",
             f"Rounds: {data['settings']['rounds']} interleaved ({data['settings']['interleaving']}); "
             f"thread counts {data['settings']['threads']} (more threads than {m['cores']} cores = oversubscribed)",
             "Runtimes:"]
    for name, v in data["variants"].items():
        ident = v["identity"] or {}
        state = f"UNAVAILABLE: {v['unavailable']}" if v["unavailable"] else f"{ident.get('runtime')} from {ident.get('library')}"
        if ident.get("proof"):
            state += f" ({ident['proof']})"
        lines.append(f"  {name:<15} {state}  [{v['note']}]")
    return "\n".join(lines) + "\n"
