// Single: the first thread to arrive executes the block. With copyprivate,
// the executing thread publishes a pointer to its values and the others
// wait at a barrier for it.
#include "loop.h"

namespace kite {

bool single_start(Thread* self) {
  if (construct_nthreads(self) == 1) return true;
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  if (first) ws_publish(ws);
  // Nothing to share: leave at once so that nowait singles can run ahead.
  construct_leave(self, ws);
  return first;
}

void* single_copy_start(Thread* self) {
  if (construct_nthreads(self) == 1) return nullptr;
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  if (first) {
    ws->copyprivate = nullptr;
    ws_publish(ws);
    self->ws_cur = ws;  // single_copy_end finds the slot here
    return nullptr;
  }
  // single_copy_end stores the data before this barrier completes.
  team_barrier(self);
  void* data = ws->copyprivate;
  construct_leave(self, ws);
  return data;
}

void single_copy_end(Thread* self, void* data) {
  if (construct_nthreads(self) == 1) return;
  WorkShare* ws = self->ws_cur;
  if (!ws) return;
  ws->copyprivate = data;
  team_barrier(self);
  construct_leave(self, ws);
}

}  // namespace kite
