// libgomp ABI: explicit tasks, taskwait, taskyield, taskgroup.
#include "abi/gomp/gomp.h"
#include "ompt/callbacks.h"

using namespace kite;

namespace {

// GOMP_task / GOMP_taskloop flags (gcc's gomp-constants.h).
enum : unsigned {
  kFlagUntied = 1u << 0,
  kFlagFinal = 1u << 1,
  kFlagMergeable = 1u << 2,
  kFlagDepend = 1u << 3,
  kFlagPriority = 1u << 4,
  kFlagDetach = 1u << 13,
};

// Every task GOMP_task's fast path does not take; out of line, so that the
// fast path saves no registers it does not use.
__attribute__((noinline)) void gomp_task_general(void (*fn)(void*), void* data,
                                                 void (*cpyfn)(void*, void*), long arg_size,
                                                 long arg_align, bool if_clause, unsigned flags,
                                                 void** depend, int priority, void* detach,
                                                 const void* codeptr_ra, void* enter_frame) {
  TaskSpec s;
  s.fn = fn;
  s.data = data;
  s.cpyfn = cpyfn;
  s.arg_size = arg_size;
  s.arg_align = arg_align;
  s.if_clause = if_clause;
  s.final = (flags & kFlagFinal) != 0;
  s.untied = (flags & kFlagUntied) != 0;
  s.mergeable = (flags & kFlagMergeable) != 0;
  s.priority = (flags & kFlagPriority) ? priority : 0;
  s.depend = (flags & kFlagDepend) ? depend : nullptr;
  s.detach = (flags & kFlagDetach) ? static_cast<void**>(detach) : nullptr;
  s.codeptr_ra = codeptr_ra;
  s.enter_frame = enter_frame;
  task_spawn(self(), s);
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void** depend, int priority, void* detach) {
  // task_run_solo's case: a task that runs at once in a team of one thread
  // (whatever its if clause says), with gcc's block used in place (no copy
  // function) and no clause that changes how it runs.
  Thread* me = self();
  Team* team = me->team;
  if (!cpyfn && !(flags & (kFlagFinal | kFlagDepend | kFlagPriority | kFlagDetach)) && team &&
      team->nthreads == 1 && !me->task->final && !ompt::active() && !KITE_UNLIKELY(g_icv.cancel)) {
    task_run_solo(me, fn, data,
                  static_cast<uint8_t>(((flags & kFlagUntied) ? kTaskUntied : 0) |
                                       ((flags & kFlagMergeable) ? kTaskMergeable : 0)));
    return;
  }
  gomp_task_general(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
                    detach, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_taskwait(void) {
  taskwait(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_taskwait_depend(void** depend) {
  taskwait_depend(self(), depend, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_taskyield(void) { taskyield(self()); }

KITE_EXPORT void GOMP_taskgroup_start(void) {
  taskgroup_start(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_taskgroup_end(void) {
  taskgroup_end(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
