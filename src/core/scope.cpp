// Scope with task reductions. The scope itself needs no runtime support;
// with reduction(task, ...) gcc calls in so that exactly one thread
// registers the reductions first and the others join its registration.
// The barrier that ends the scope is emitted by the compiler.
#include "loop.h"

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

}  // namespace kite
