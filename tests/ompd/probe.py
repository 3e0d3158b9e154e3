# Runs inside gdb after LLVM's OMPD plugin is loaded and `ompd init` ran:
# selects the program's initial thread, runs the plugin's commands there and
# asks the OMPD library (through the plugin's ompdModule) what it knows,
# printing one "PROBE key value" line per answer for run_gdb.py to compare
# with what the program recorded about itself.
import os
import traceback

import gdb
import ompd
import ompdModule

facts = {}
with open(os.environ["KITE_OMPD_FACTS"]) as f:
    for line in f:
        k, _, v = line.strip().partition(" ")
        facts.setdefault(k, []).append(v)


def out(key, value):
    print("PROBE %s %s" % (key, value))


def is_handle(h):
    return type(h).__name__ == "PyCapsule"


def ask(fn, *args):
    """The plugin's module reports an error code through its print callback,
    which raises in gdb 13 (see docs/ompd.md): an error answer is None."""
    try:
        return fn(*args)
    except SystemError:
        return None


def fn_name(addr):
    try:
        block = gdb.block_for_pc(int(addr))
        while block and not block.function:
            block = block.superblock
        return block.function.name if block else "?"
    except Exception:
        return "?"


def plugin(cmd):
    text = gdb.execute(cmd, to_string=True)
    print("=== %s" % cmd)
    print(text)
    print("=== end")


main_lwp = int(facts["main_lwp"][0])
for t in gdb.selected_inferior().threads():
    if t.ptid[1] == main_lwp:
        t.switch()
aspace = ompd.addr_space.addr_space

try:
    # --- every thread: handle, state, wait id, tool data ---------------------
    for t in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
        lwp = t.ptid[1]
        h = ask(ompdModule.get_thread_handle, lwp, aspace)
        if not is_handle(h):
            out("thread.%d" % lwp, "none")
            continue
        st, wait = ompdModule.call_ompd_get_state(h)
        out("thread.%d" % lwp, "%d %d" % (st, wait))
        out("thread_data.%d" % lwp, ompdModule.call_ompd_get_tool_data(3, h)[0])

    th = ompdModule.get_thread_handle(main_lwp, aspace)
    icvs = {}
    cur, more = 0, 1
    while more:
        cur, name, scope, more = ompdModule.call_ompd_enumerate_icvs(aspace, cur)
        icvs[name] = (cur, scope)
    task = ompdModule.call_ompd_get_curr_task_handle(th)
    par = ompdModule.call_ompd_get_curr_parallel_handle(th)
    by_scope = {2: aspace, 3: th, 4: par, 6: task}
    for name, (ident, scope) in sorted(icvs.items()):
        # String-only ICVs through the string call: the integer call's error
        # would go through the plugin's print callback, which fails.
        if name in ("run-sched-var", "affinity-format-var", "tool-libraries-var",
                    "tool-verbose-init-var"):
            v = ompdModule.call_ompd_get_icv_string_from_scope(by_scope[scope], scope, ident)
        else:
            v = ompdModule.call_ompd_get_icv_from_scope(by_scope[scope], scope, ident)
        out("icv.%s" % name, v)
        out("icvscope.%s" % name, scope)
        out("icvstr.%s" % name, ask(ompdModule.call_ompd_get_icv_string_from_scope,
                                     by_scope[scope], scope, ident))

    # --- the parallel regions, innermost first -------------------------------
    regions = []
    p = par
    while is_handle(p):
        lv = ompdModule.call_ompd_get_icv_from_scope(p, 4, icvs["levels-var"][0])
        sz = ompdModule.call_ompd_get_icv_from_scope(p, 4, icvs["team-size-var"][0])
        regions.append("%d:%d" % (lv, sz))
        if lv == 2:
            for i in range(sz):
                st, wait = ompdModule.call_ompd_get_state(ompdModule.call_ompd_get_thread_in_parallel(p, i))
                out("inner.%d" % i, "%d %d" % (st, wait))
                it = ompdModule.call_ompd_get_task_in_parallel(p, i)
                out("inner_fn.%d" % i, fn_name(ompdModule.call_ompd_get_task_function(it)))
        p = ask(ompdModule.call_ompd_get_enclosing_parallel_handle, p)
    out("regions", ",".join(regions))

    # --- the task tree from the current task up ------------------------------
    chain = []
    t = task
    while is_handle(t):
        explicit = ompdModule.call_ompd_get_icv_from_scope(t, 6, icvs["explicit-task-var"][0])
        final = ompdModule.call_ompd_get_icv_from_scope(t, 6, icvs["final-task-var"][0])
        fr = ompdModule.call_ompd_get_task_frame(t)
        fn = ask(ompdModule.call_ompd_get_task_function, t)
        name = fn_name(fn) if isinstance(fn, int) and fn > 100 else "none"
        chain.append("%s/%d/%d" % (name, explicit, final))
        out("frame.%d" % len(chain), "enter=%#x/%#x exit=%#x/%#x" % fr)
        t = ask(ompdModule.call_ompd_get_generating_task_handle, t)
    out("tasks", ",".join(chain))
    sched = ompdModule.call_ompd_get_scheduling_task_handle(task)
    gen = ompdModule.call_ompd_get_generating_task_handle(task)
    # The user pthread that called OpenMP once: its own initial task.
    serial = int(facts["serial_lwp"][0])
    sh = ompdModule.get_thread_handle(serial, aspace)
    sp = ompdModule.call_ompd_get_curr_parallel_handle(sh)
    st = ompdModule.call_ompd_get_curr_task_handle(sh)
    out("serial.region", "%d:%d" % (
        ompdModule.call_ompd_get_icv_from_scope(sp, 4, icvs["levels-var"][0]),
        ompdModule.call_ompd_get_icv_from_scope(sp, 4, icvs["team-size-var"][0])))
    out("serial.task", "%s/%d" % (
        "none" if ask(ompdModule.call_ompd_get_task_function, st) is None else "some",
        ompdModule.call_ompd_get_icv_from_scope(st, 6, icvs["explicit-task-var"][0])))
    out("serial.generating", "none" if ask(ompdModule.call_ompd_get_generating_task_handle, st) is None else "some")
    out("serial.enclosing", "none" if ask(ompdModule.call_ompd_get_enclosing_parallel_handle, sp) is None else "some")
    out("scheduling_is_generating",
        int(ompdModule.call_ompd_get_task_function(sched) == ompdModule.call_ompd_get_task_function(gen)))
except Exception:
    traceback.print_exc()
    out("error", "exception")

for cmd in ["ompd threads", "ompd parallel", "ompd icvs", "ompd taskframes"]:
    plugin(cmd)
plugin("ompd bt on")
plugin("bt")
plugin("ompd bt off")
out("done", 1)
