#!/usr/bin/env python3
"""gdb + LLVM's OMPD plugin on Kite: a live process, then its core file.

Runs tests/ompd/src/scene.c (built by one compiler) under gdb with
OMP_DEBUG=enabled, loads the plugin, runs `ompd init` (which starts the
program), stops in stop_here(), and runs probe.py there: the plugin's
commands and the OMPD library's answers through the plugin's module. Then
it writes a core file with generate-core-file, opens the core in a second
gdb and probes again, and finally runs the C harness (ompd_harness) over
the core. Every answer is compared with what the program recorded about
itself through the OpenMP API (the facts file).

Exit 77 (skipped) only when gdb, its Python, or the plugin is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
WAIT_LOCK, WAIT_BARRIER_EXPLICIT, WORK_PARALLEL, IDLE = 0x41, 0x14, 0x01, 0x100
WAIT_CRITICAL, WAIT_BARRIER_IMPLICIT_PARALLEL, WAIT_TASKWAIT, WORK_SERIAL = 0x42, 0x11, 0x20, 0x00

# Every ICV of OpenMP 5.2 (the tables of §2.1 and §2.2), with the OMPD scope
# Kite answers it from: device and global ICVs from the address space,
# data-environment ICVs (and def-allocator-var) from a task, the region's
# derived values from a parallel handle, thread-num-var and
# place-partition-var from a thread (its current implicit task). The
# plugin's `ompd icvs` prints the scope by these names.
SPEC_ICVS = {
    "active-levels-var": "parallel", "affinity-format-var": "address_space",
    "bind-var": "task", "cancel-var": "address_space", "debug-var": "address_space",
    "def-allocator-var": "task", "default-device-var": "task",
    "display-affinity-var": "address_space", "dyn-var": "task", "explicit-task-var": "task",
    "final-task-var": "task", "levels-var": "parallel", "max-active-levels-var": "task",
    "max-task-priority-var": "address_space", "nteams-var": "address_space",
    "nthreads-var": "task", "num-procs-var": "address_space",
    "place-partition-var": "thread", "run-sched-var": "task",
    "stacksize-var": "address_space", "target-offload-var": "address_space",
    "team-size-var": "parallel", "teams-thread-limit-var": "address_space",
    "thread-limit-var": "task", "thread-num-var": "thread",
    "tool-libraries-var": "address_space", "tool-var": "address_space",
    "tool-verbose-init-var": "address_space", "wait-policy-var": "address_space",
}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run_gdb(gdb, args, env, log):
    p = subprocess.run([gdb, "-q", "-batch", "-nx"] + args, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=240)
    with open(log, "w") as f:
        f.write(p.stdout)
    return p.stdout


def probes(text):
    got = {}
    for line in text.splitlines():
        m = re.match(r"PROBE (\S+) ?(.*)$", line)
        if m:
            got[m.group(1)] = m.group(2)
    return got


def section(text, cmd):
    m = re.search(r"=== %s\n(.*?)=== end" % re.escape(cmd), text, re.S)
    return m.group(1) if m else ""


def compare(phase, text, facts, source_name):
    got = probes(text)
    check(got.get("done") == "1", "%s: probe.py finished" % phase)
    check("error" not in got, "%s: probe.py raised no exception" % phase)
    main = facts["main_lwp"][0]
    locked = facts["locked_lwp"][0]
    barrier = facts["barrier_lwp"]
    native = facts["native_lwp"][0]
    lock_addr = facts["lock_addr"][0]
    # Thread handles, states and wait ids.
    check(got.get("thread." + native) == "none",
          "%s: the native pthread has no thread handle (got %r)" % (phase, got.get("thread." + native)))
    serial = facts["serial_lwp"][0]
    check(got.get("thread." + serial) == "%d 0" % WORK_SERIAL,
          "%s: the user pthread that called OpenMP works serially (got %r)" % (phase, got.get("thread." + serial)))
    check(got.get("serial.region") == "%s:1" % facts["serial_level"][0] and
          got.get("serial.task") == "none/0" and got.get("serial.generating") == "none" and
          got.get("serial.enclosing") == "none",
          "%s: that thread is in its initial task's implicit region (%r %r %r %r)" %
          (phase, got.get("serial.region"), got.get("serial.task"), got.get("serial.generating"),
           got.get("serial.enclosing")))
    check(got.get("thread." + main) == "%d 0" % WORK_PARALLEL,
          "%s: initial thread works in parallel (got %r)" % (phase, got.get("thread." + main)))
    check(got.get("thread." + locked) == "%d %s" % (WAIT_LOCK, lock_addr),
          "%s: thread %s waits for the lock at %s (got %r)" % (phase, locked, lock_addr, got.get("thread." + locked)))
    waits = set()
    for b in barrier:
        v = got.get("thread." + b, "")
        st, _, wid = v.partition(" ")
        check(st == str(WAIT_BARRIER_EXPLICIT) and wid not in ("", "0"),
              "%s: thread %s waits at the explicit barrier (got %r)" % (phase, b, v))
        waits.add(wid)
    check(len(waits) == 1, "%s: both barrier waiters wait for one barrier (got %s)" % (phase, waits))
    for key, state, what in (("critical_lwp", WAIT_CRITICAL, "a critical section"),
                             ("taskwait_lwp", WAIT_TASKWAIT, "a taskwait")):
        t = facts[key][0]
        st, _, wid = got.get("thread." + t, "").partition(" ")
        check(st == str(state), "%s: thread %s waits in %s (got %r)" % (phase, t, what, got.get("thread." + t)))
        if state == WAIT_CRITICAL:
            check(wid not in ("", "0"), "%s: the critical wait has a wait id" % phase)
    # At the outer region's closing barrier: one thread runs the spinning
    # task (work_parallel), the other waits.
    closing = sorted(got.get("thread." + t, "").split(" ")[0] for t in facts["closing_barrier_lwp"])
    check(closing == sorted([str(WORK_PARALLEL), str(WAIT_BARRIER_IMPLICIT_PARALLEL)]),
          "%s: at the closing barrier one thread runs the task, one waits (got %s)" % (phase, closing))
    others = [k[len("thread."):] for k in got if k.startswith("thread.") and got[k] != "none"]
    waiting = facts["closing_barrier_lwp"] + [facts[k][0] for k in ("critical_lwp", "taskwait_lwp", "serial_lwp")]
    idle = [t for t in others if t not in [main, locked] + barrier + waiting]
    check(len(idle) >= 1, "%s: at least one idle pool worker (got %s)" % (phase, idle))
    for t in idle:
        check(got["thread." + t] == "%d 0" % IDLE, "%s: thread %s is idle (got %r)" % (phase, t, got["thread." + t]))
    for t in others:
        check(got.get("thread_data." + t) == "0", "%s: thread %s tool data is ompt_data_none" % (phase, t))
    # ICVs against what the program asked the OpenMP API.
    kind, chunk = facts["schedule"][0].split(",")
    kinds = {"1": "static", "2": "dynamic", "3": "guided", "4": "auto"}
    expect = {
        "levels-var": facts["level"][0], "active-levels-var": facts["active_level"][0],
        "team-size-var": facts["team_size"][0], "thread-num-var": facts["thread_num"][0],
        "final-task-var": facts["in_final"][0], "nthreads-var": facts["max_threads"][0],
        "max-active-levels-var": facts["max_active_levels"][0], "dyn-var": facts["dynamic"][0],
        "thread-limit-var": facts["thread_limit"][0], "explicit-task-var": "1",
        "implicit-task-var": "0", "run-sched-var": "%s,%s" % (kinds[kind], chunk), "debug-var": "1",
        "num-procs-var": facts["num_procs"][0],
        "place-partition-var": facts["partition_num_places"][0],
    }
    for name, want in expect.items():
        check(got.get("icv." + name) == want,
              "%s: %s is %s (got %r)" % (phase, name, want, got.get("icv." + name)))
    # The partition is a part of the place list (OMP_PLACES=threads and a
    # spread region): as text, the places the program saw.
    check(got.get("icvstr.place-partition-var") == facts["partition"][0],
          "%s: place-partition-var reads %r (got %r)" %
          (phase, facts["partition"][0], got.get("icvstr.place-partition-var")))
    check(got.get("icvstr.num-procs-var") == facts["num_procs"][0],
          "%s: num-procs-var reads %s (got %r)" % (phase, facts["num_procs"][0], got.get("icvstr.num-procs-var")))
    scopes = {"2": "address_space", "3": "thread", "4": "parallel", "6": "task"}
    for name, scope in SPEC_ICVS.items():
        check(scopes.get(got.get("icvscope." + name)) == scope,
              "%s: the library enumerates %s with scope %s (got %r)" %
              (phase, name, scope, got.get("icvscope." + name)))
    # Regions: level:size from the innermost out, ending at the initial task's.
    want = "%s:%s,1:%s,0:1" % (facts["level"][0], facts["team_size"][0], facts["outer_team_size"][0])
    check(got.get("regions") == want, "%s: regions %s (got %r)" % (phase, want, got.get("regions")))
    for i in (1, 2):
        st = got.get("inner.%d" % i, "").split(" ")[0]
        check(st == str(WAIT_BARRIER_EXPLICIT), "%s: inner thread %d at the barrier" % (phase, i))
    # Tasks: C (included, final), B (final), A, inner implicit, outer
    # implicit, initial: names/explicit/final.
    chain = got.get("tasks", "").split(",")
    check(len(chain) == 6, "%s: six tasks from the current one up (got %r)" % (phase, chain))
    if len(chain) == 6:
        explicit = [c.split("/")[1] for c in chain]
        final = [c.split("/")[2] for c in chain]
        check(explicit == ["1", "1", "1", "0", "0", "0"], "%s: explicit-task-var along the chain %s" % (phase, explicit))
        check(final == ["1", "1", "0", "0", "0", "0"], "%s: final-task-var along the chain %s" % (phase, final))
        check(chain[5].startswith("none/"), "%s: the initial task has no task function" % phase)
        names = [c.split("/")[0] for c in chain[:5]]
        check(all(n not in ("?", "none") for n in names) and len(set(names)) == 5,
              "%s: five distinct task functions of the program %s" % (phase, names))
        check(got.get("inner_fn.0") == names[3], "%s: implicit task 0 of the inner team runs %s" % (phase, names[3]))
    check(got.get("scheduling_is_generating") == "1", "%s: task C was scheduled by task B" % phase)
    # Frames: the current task has an exit frame (runtime|cfa) and no enter
    # frame; each suspended task up to the initial one an enter frame
    # (application|cfa); the initial task no exit frame.
    fr = [got.get("frame.%d" % i, "") for i in range(1, 7)]
    check(re.match(r"enter=0x0/0x0 exit=0x[0-9a-f]+/0x10$", fr[0]) is not None, "%s: frame of C %r" % (phase, fr[0]))
    for i in range(1, 5):
        check(re.match(r"enter=0x[0-9a-f]+/0x11 exit=0x[0-9a-f]+/0x10$", fr[i]) is not None,
              "%s: frame of task %d %r" % (phase, i + 1, fr[i]))
    check(re.match(r"enter=0x[0-9a-f]+/0x11 exit=0x0/0x0$", fr[5]) is not None, "%s: initial task frame %r" % (phase, fr[5]))
    # The plugin's own commands.
    par = section(text, "ompd parallel")
    check("Nesting Level 2: Team Size: 3" in par and "Nesting Level 1: Team Size: 6" in par,
          "%s: ompd parallel shows both regions" % phase)
    check(par.count("ompt_state_wait_barrier_explicit") == 2 and "ompt_state_wait_lock" in par and
          "ompt_state_wait_critical" in par and "ompt_state_wait_taskwait" in par and
          "ompt_state_wait_barrier_implicit_parallel" in par,
          "%s: ompd parallel shows the waits" % phase)
    check(source_name in par, "%s: ompd parallel names the program's outlined functions" % phase)
    icvs = section(text, "ompd icvs")
    check(re.search(r"^levels-var\s+parallel\s+2$", icvs, re.M) is not None and "debug-var" in icvs,
          "%s: ompd icvs lists every ICV" % phase)
    for name, scope in SPEC_ICVS.items():
        check(re.search(r"^%s\s+%s\s" % (re.escape(name), scope), icvs, re.M) is not None,
              "%s: ompd icvs shows %s with scope %s" % (phase, name, scope))
    for name, want in (("num-procs-var", facts["num_procs"][0]),
                       ("place-partition-var", facts["partition_num_places"][0])):
        check(re.search(r"^%s\s+\S+\s+%s$" % (re.escape(name), want), icvs, re.M) is not None,
              "%s: ompd icvs shows %s = %s" % (phase, name, want))
    check("Traceback" not in icvs, "%s: ompd icvs raised no exception" % phase)
    # The plugin walks scheduling tasks until two in a row show the same
    # (enter address, exit flags) pair: all six tasks with gcc; with clang it
    # stops at task A, whose enter frame is task B's exit frame (the
    # program calls an if(0) task's entry itself). docs/ompd.md says so.
    frames = section(text, "ompd taskframes")
    pairs = re.findall(r"^0x[0-9a-f]+ 0x[0-9a-f]+$", frames, re.M)
    check(pairs[:1] == ["0x0 0x10"] and len(pairs) >= 2, "%s: ompd taskframes walks the tasks %s" % (phase, pairs))
    bt = section(text, "bt")
    check("stop_here" in bt, "%s: ompd bt on shows the stop" % phase)
    check("Traceback" not in text.split("=== ompd bt on")[0], "%s: no Python traceback" % phase)
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdb", default="gdb")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--harness", required=True)
    ap.add_argument("--library", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--work", required=True)
    # Where the program finds libkite.so.1 first (LD_LIBRARY_PATH), e.g. a
    # stripped copy with libkite-ompd.so next to it.
    ap.add_argument("--libpath", default="")
    a = ap.parse_args()
    gdb = shutil.which(a.gdb)
    if not gdb:
        print("SKIP: no gdb")
        return SKIP
    init = os.path.join(a.plugin, "__init__.py")
    if not os.path.exists(init):
        print("SKIP: LLVM's OMPD gdb plugin not found at %s (scripts/setup.sh unpacks it)" % a.plugin)
        return SKIP
    if subprocess.run([gdb, "-q", "-batch", "-nx", "-ex", "python print(1)"], stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, text=True).stdout.strip() != "1":
        print("SKIP: this gdb has no Python")
        return SKIP
    os.makedirs(a.work, exist_ok=True)
    facts_path = os.path.join(a.work, "facts.txt")
    core = os.path.join(a.work, "scene.core")
    for p in (facts_path, core):
        if os.path.exists(p):
            os.remove(p)
    here = os.path.dirname(os.path.abspath(__file__))
    probe = os.path.join(here, "probe.py")
    # One malloc arena: the core holds no 64 MiB arena per thread.
    # OMP_PLACES: a place list, so that place-partition-var is not empty and
    # the spread region gives each thread a part of it.
    env = dict(os.environ, OMP_DEBUG="enabled", KITE_OMPD_FACTS=facts_path, MALLOC_ARENA_MAX="1",
               OMP_PLACES="threads")
    env.pop("OMP_PROC_BIND", None)
    if a.libpath:
        env["LD_LIBRARY_PATH"] = a.libpath
    env.pop("OMP_TOOL_LIBRARIES", None)
    bpcount = os.path.join(here, "bpcount.py")
    live = run_gdb(gdb, ["-ex", "set pagination off", "-ex", "set confirm off",
                         "-ex", "set args " + facts_path, "-ex", "source " + init,
                         "-ex", "ompd init", "-ex", "source " + bpcount,
                         "-ex", "break stop_here", "-ex", "continue", "-ex", "kite-bp-counts",
                         "-ex", "kite-bp-binding", "-ex", "source " + probe, "-ex", "generate-core-file " + core,
                         "-ex", "source " + os.path.join(here, "battery.py"), "-ex", "kill", a.program],
                   env, os.path.join(a.work, "live.log"))
    if not os.path.exists(facts_path):
        print(live[-3000:])
        print("FAIL: the program did not run to stop_here")
        return 1
    facts = {}
    for line in open(facts_path):
        k, _, v = line.strip().partition(" ")
        facts.setdefault(k, []).append(v)
    if "end" not in facts:
        print(live[-3000:])
        print("FAIL: the program did not record its facts")
        return 1
    source_name = "scene.c"
    compare("live", live, facts, source_name)
    # Breakpoint calls up to the stop (counted from the initial thread's
    # first call, after `ompd init` stopped it at main): regions begun by a
    # primary (the 9-thread one, the outer, the inner), ended (the first);
    # implicit tasks begun (9 + 6 + 3) and explicit task bodies (A, B, C and
    # the spinning task), ended (the first region's 9); threads begun (the
    # initial thread, the user pthread that called OpenMP and the 8
    # workers); no device.
    got = probes(live)
    want_bp = {"parallel_begin": 3, "parallel_end": 1, "task_begin": 22, "task_end": 9,
               "thread_begin": 10, "thread_end": 0, "device_begin": 0, "device_end": 0}
    for name, n in want_bp.items():
        check(got.get("bp." + name) == str(n),
              "live: ompd_bp_%s called %d times (got %r)" % (name, n, got.get("bp." + name)))
    # At each of those region breakpoints: current region = the one
    # beginning or ending, current task = the encountering one.
    for name in ("parallel_begin", "parallel_end"):
        check(got.get("binding." + name) == got.get("bp." + name),
              "live: ompd_bp_%s binding right every time (%r of %r)" %
              (name, got.get("binding." + name), got.get("bp." + name)))
    check(re.search(r"Thread \d+ \(%s\) is no OpenMP thread" % facts["native_lwp"][0],
                    section(live, "ompd threads")) is not None, "live: ompd threads: native thread is no OpenMP thread")
    check(os.path.exists(core), "live: generate-core-file wrote the core")
    # The plugin's battery (ompdtestapi): every routine runs; the only
    # failures allowed are the ICV tests that name ICVs by libompd's own
    # numbers (ICV ids are the library's to choose; docs/ompd.md).
    check(live.count("BATTERY-DONE") == 35 and "BATTERY-ERROR" not in live,
          "live: ompdtestapi ran for all 35 routines")
    header, last_test, bad = "", "", []
    for line in live.splitlines():
        if line.startswith("Testing"):
            header = line
        elif line.startswith("Test:"):
            last_test = line
        elif line.startswith("Failed"):
            if "ompd_get_icv_from_scope" not in header and "ompd_get_icv_string_from_scope" not in header:
                bad.append("%s / %s / %s" % (header, last_test, line))
    check(not bad, "live: ompdtestapi failures beyond libompd's ICV numbers: %s" % bad)
    check(live.count("\nSuccess") >= 90, "live: ompdtestapi succeeded at least 90 times")
    if os.path.exists(core):
        post = run_gdb(gdb, ["-ex", "set pagination off", "-ex", "source " + init,
                             "-ex", "ompd init", "-ex", "source " + probe, a.program, core],
                       env, os.path.join(a.work, "core.log"))
        compare("core", post, facts, source_name)
        h = subprocess.run([a.harness, a.library, core, facts_path, a.runtime], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        with open(os.path.join(a.work, "harness.log"), "w") as f:
            f.write(h.stdout)
        print(h.stdout[-4000:])
        check(h.returncode == 0, "harness: the C harness passed over the core (exit %d)" % h.returncode)
    # Without OMP_DEBUG: no breakpoint call at all, and the library says
    # thread states need it (ompd_rc_needs_state_tracking) over the core.
    plain = dict(env)
    plain.pop("OMP_DEBUG")
    nodebug = run_gdb(gdb, ["-ex", "set pagination off", "-ex", "set confirm off",
                            "-ex", "set args " + facts_path, "-ex", "source " + bpcount,
                            "-ex", "break stop_here", "-ex", "run", "-ex", "kite-bp-counts",
                            "-ex", "generate-core-file " + core, "-ex", "kill", a.program],
                      plain, os.path.join(a.work, "nodebug.log"))
    got = probes(nodebug)
    check(len(got) == 8 and all(v == "0" for v in got.values()),
          "nodebug: no ompd_bp_* call without OMP_DEBUG (got %s)" % got)
    h = subprocess.run([a.harness, a.library, core, facts_path, a.runtime, "--no-debug"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    print(h.stdout[-2000:])
    check(h.returncode == 0, "nodebug: the C harness passed over the core (exit %d)" % h.returncode)
    if os.path.exists(core):
        os.remove(core)  # tens of MiB; the logs stay
    if failures:
        print("%d check(s) failed; logs in %s" % (len(failures), a.work))
        return 1
    print("PASS: live and core file agree with the program's own account")
    return 0


if __name__ == "__main__":
    sys.exit(main())
