#!/usr/bin/env python3
# A/B whole-program timing (issue 23, third pass): the variants of the JSON
# in $ABVARIANTS (name -> environment; a value "@DIR" is a fresh directory
# per run, deleted after it) run REPS times, interleaved, the order rotated
# each repetition, OMP_NUM_THREADS=$T (default 2), Kite from $ABBUILD/gomp.
# Prints wall times per variant; then the median of the per-repetition
# ratios to the first variant with a 90 % bootstrap interval.
# usage: ABVARIANTS='{"plain": {}, ...}' ab.py REPS PROGRAM [ARGS...]
import os, subprocess, sys, time, tempfile, shutil, statistics, json, random
reps = int(sys.argv[1]); prog = sys.argv[2:]
B = os.environ.get("ABBUILD", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build"))
variants = json.loads(os.environ["ABVARIANTS"])  # name -> env dict (TRACE -> fresh dir)
res = {k: [] for k in variants}
inner = {k: [] for k in variants}
names = list(variants)
for r in range(reps):
    order = names[r % len(names):] + names[:r % len(names)]
    for n in order:
        env = dict(os.environ); env["OMP_NUM_THREADS"] = os.environ.get("T", "2")
        env["LD_LIBRARY_PATH"] = B + "/gomp"
        d = None
        for k, v in variants[n].items():
            if v == "@DIR":
                d = tempfile.mkdtemp(dir="/tmp"); env[k] = d
            else:
                env[k] = v
        t = time.time()
        p = subprocess.run(prog, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        el = time.time() - t
        if p.returncode != 0 or b"OK" not in p.stdout:
            print("FAIL", n, p.returncode, p.stderr[-300:]); 
        res[n].append(el)
        try: inner[n].append(float(p.stdout.split(b"OK ")[1].split()[0]))
        except Exception: pass
        if d: shutil.rmtree(d, ignore_errors=True)
out_lines = []
base = statistics.median(res[names[0]])
for n in names:
    m = statistics.median(res[n])
    if inner[n]: print(f"{n:12s} inner median {statistics.median(inner[n]):.2f}  all {' '.join('%.1f'%x for x in inner[n])}")
    line = f"{n:12s} median {m:.3f} s  min {min(res[n]):.3f}  (+{(m/base-1)*100:.1f}% vs {names[0]})  runs {' '.join('%.3f'%x for x in res[n])}"
    print(line)
    out_lines.append(line)
runs = {}
order = []
for line in out_lines:
    if " median " in line and "runs" in line:
        name = line.split()[0]
        vals = [float(x) for x in line.split("runs")[1].split()]
        runs[name] = vals; order.append(name)
base = order[0]
b = runs[base]
random.seed(1)
print(f"{'variant':12s} {'median s':>9s} {'vs plain (medians)':>19s} {'paired median':>14s} {'90% CI (paired)':>18s} {'min ratio':>10s}")
for n in order:
    v = runs[n]
    pr = [x / y for x, y in zip(v, b)]
    boots = sorted(statistics.median(random.choices(pr, k=len(pr))) for _ in range(2000))
    lo, hi = boots[100], boots[1899]
    print(f"{n:12s} {statistics.median(v):9.3f} {100*(statistics.median(v)/statistics.median(b)-1):+18.1f}% {100*(statistics.median(pr)-1):+13.1f}% {100*(lo-1):+8.1f}..{100*(hi-1):+.1f}% {100*(min(v)/min(b)-1):+9.1f}%")
