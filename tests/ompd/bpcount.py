# Counts, without stopping, every call of the runtime's OMPD breakpoint
# functions (sourced by run_gdb.py before the program runs); probe.py and
# run_gdb.py print the counts as "PROBE bp.<name> <n>".
import gdb

counts = {}


class Counter(gdb.Breakpoint):
    def __init__(self, name):
        super().__init__(name, internal=True)
        self.name_ = name
        counts[name] = 0

    def stop(self):
        counts[self.name_] += 1
        return False


for fn in ("parallel_begin", "parallel_end", "task_begin", "task_end", "thread_begin",
           "thread_end", "device_begin", "device_end"):
    Counter("ompd_bp_" + fn)


class PrintCounts(gdb.Command):
    def __init__(self):
        super().__init__("kite-bp-counts", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        for name, n in sorted(counts.items()):
            print("PROBE bp.%s %d" % (name[len("ompd_bp_"):], n))


PrintCounts()


# At each region's begin and end breakpoint, the binding OpenMP 5.2 §20.6.2
# gives the debugger: the current parallel region is the one beginning or
# ending, the current task the encountering one (which binds to the
# enclosing region, one level up).
binding = {"ompd_bp_parallel_begin": 0, "ompd_bp_parallel_end": 0}


def check_binding(name):
    try:
        import ompd
        import ompdModule
        aspace = ompd.addr_space.addr_space
        levels = None
        cur, more = 0, 1
        while more:
            cur, icv, scope, more = ompdModule.call_ompd_enumerate_icvs(aspace, cur)
            if icv == "levels-var":
                levels = cur
        th = ompdModule.get_thread_handle(gdb.selected_thread().ptid[1], aspace)
        par = ompdModule.call_ompd_get_curr_parallel_handle(th)
        task = ompdModule.call_ompd_get_curr_task_handle(th)
        tpar = ompdModule.call_ompd_get_task_parallel_handle(task)
        if (ompdModule.call_ompd_get_icv_from_scope(tpar, 4, levels) ==
                ompdModule.call_ompd_get_icv_from_scope(par, 4, levels) - 1):
            binding[name] += 1
    except Exception:
        pass


_count_stop = Counter.stop


def _stop_with_binding(self):
    if self.name_ in binding:
        check_binding(self.name_)
    return _count_stop(self)


Counter.stop = _stop_with_binding


class PrintBinding(gdb.Command):
    def __init__(self):
        super().__init__("kite-bp-binding", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        for name, n in sorted(binding.items()):
            print("PROBE binding.%s %d" % (name[len("ompd_bp_"):], n))


PrintBinding()
