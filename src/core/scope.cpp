// Scope with task reductions, and the end of a scope as tools see it
// (scope.h). The scope itself needs no runtime support; with
// reduction(task, ...) gcc calls in so that exactly one thread registers the
// reductions first and the others join its registration. The barrier that
// ends the scope is emitted by the compiler.
#include "scope.h"

#include "cancel.h"
#include "loop.h"
#include "ompt/events_ws.h"

namespace kite {

void scope_start(Thread* self, uintptr_t* reductions) {
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  if (first) {
    construct_task_reductions(self, ws, reductions, true);
    ws_publish(ws);
  } else {
    construct_task_reductions(self, ws, reductions, false);
  }
  construct_leave(self, ws);
}

void scope_enter(Thread* self, uintptr_t* reductions, const void* codeptr_ra) {
  ompt::on_scope(self, ompt_scope_begin, codeptr_ra);
  scope_start(self, reductions);
}

void scope_end_barrier(Thread* self, const void* codeptr_ra, void* enter_frame) {
  ompt::scope_slow(self, ompt_scope_end, codeptr_ra);
  workshare_barrier(self, codeptr_ra, enter_frame);
}

bool scope_end_barrier_cancellable(Thread* self, const void* codeptr_ra, void* enter_frame) {
  ompt::scope_slow(self, ompt_scope_end, codeptr_ra);
  return workshare_barrier_cancellable(self, codeptr_ra, enter_frame);
}

}  // namespace kite
