// Single: the first thread to arrive executes the block. With copyprivate,
// the executing thread publishes a pointer to its values and the others
// wait at a barrier for it.
#include "loop.h"
#include "ompt/events_ws.h"

namespace kite {

// Tools: a thread that skips a single construct begins and ends it here
// (single_other). The executor's end is not reported: gcc makes no runtime
// call where the block ends (nor at its barrier, a plain GOMP_barrier).
bool single_start(Thread* self, const void* codeptr_ra, bool executor_ends) {
  if (construct_nthreads(self) == 1) {
    if (executor_ends) ompt::on_work_begin(self, ompt_work_single_executor, 1, codeptr_ra);
    return true;
  }
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  if (first) ws_publish(ws);
  // Nothing to share: leave at once so that nowait singles can run ahead.
  construct_leave(self, ws);
  if (KITE_UNLIKELY(ompt::active())) {
    if (!first) {
      ompt::work_begin_slow(self, ompt_work_single_other, 1, codeptr_ra);
      ompt::work_end_slow(self);
    } else if (executor_ends) {
      ompt::work_begin_slow(self, ompt_work_single_executor, 1, codeptr_ra);
    }
  }
  return first;
}

void single_end(Thread* self) {
  if (KITE_UNLIKELY(ompt::active())) ompt::work_end_slow(self);
}

// With copyprivate the whole construct is seen: the executor from
// single_copy_start to single_copy_end, the others from single_copy_start
// to the barrier where they receive the values, which is the construct's
// implicit barrier for them.
void* single_copy_start(Thread* self, const void* codeptr_ra, void* enter_frame) {
  if (construct_nthreads(self) == 1) {
    ompt::on_work_begin(self, ompt_work_single_executor, 1, codeptr_ra);
    return nullptr;
  }
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  ompt::on_work_begin(self, first ? ompt_work_single_executor : ompt_work_single_other, 1,
                      codeptr_ra);
  if (first) {
    ws->copyprivate = nullptr;
    ws_publish(ws);
    self->ws_cur = ws;  // single_copy_end finds the slot here
    return nullptr;
  }
  // single_copy_end stores the data before this barrier completes.
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::work_end_slow(self);
    ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
    team_barrier(self);
    ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
  } else {
    team_barrier(self);
  }
  void* data = ws->copyprivate;
  construct_leave(self, ws);
  return data;
}

void single_copy_end(Thread* self, void* data, const void* codeptr_ra, void* enter_frame) {
  const bool tool = ompt::active();
  if (tool) ompt::work_end_slow(self);
  if (construct_nthreads(self) == 1) return;
  WorkShare* ws = self->ws_cur;
  if (!ws) return;
  ws->copyprivate = data;
  if (tool) ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
  team_barrier(self);
  if (tool) ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
  construct_leave(self, ws);
}

}  // namespace kite
