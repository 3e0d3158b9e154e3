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
