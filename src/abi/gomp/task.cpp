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

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void** depend, int priority, void* detach) {
  Thread* me = self();
  Team* team = me->team;
  // task_run_solo's case: a task that runs at once in a team of one thread
  // (whatever its if clause says), with gcc's block used in place (no copy
  // function) and no clause that changes how it runs. Tested first on the
  // team size, so that a task of a larger team pays one compare for it.
  if (team && KITE_UNLIKELY(team->nthreads == 1) && !cpyfn &&
      !(flags & (kFlagFinal | kFlagDepend | kFlagPriority | kFlagDetach)) && !me->task->final &&
      !ompt::active() && !KITE_UNLIKELY(g_icv.cancel)) {
    task_run_solo(me, fn, data,
                  static_cast<uint8_t>(((flags & kFlagUntied) ? kTaskUntied : 0) |
                                       ((flags & kFlagMergeable) ? kTaskMergeable : 0)));
    return;
  }
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
  s.codeptr_ra = KITE_RETURN_ADDRESS();
  s.enter_frame = __builtin_dwarf_cfa();
  task_spawn(me, s);
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
