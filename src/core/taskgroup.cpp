// Taskgroup regions: a counter of the group's incomplete tasks (descendant
// tasks created inside the group count too, since they inherit it), waited
// for at the end of the region while running tasks.
#include <new>

#include "ompt/events_task.h"
#include "team.h"

namespace kite {

Taskgroup* taskgroup_new(Thread* me, Taskgroup* prev) {
  Taskgroup* tg = static_cast<Taskgroup*>(task_pool_alloc(me, sizeof(Taskgroup)));
  tg->prev = prev;
  new (&tg->pending) std::atomic<long>(0);
  new (&tg->cancelled) std::atomic<int>(0);
  tg->workshare = false;
  tg->announced = false;
  tg->reductions = prev ? prev->reductions : nullptr;
  return tg;
}

void taskgroup_free(Thread* me, Taskgroup* tg) { task_pool_free(me, tg); }

bool taskgroup_is_cancelled(const Taskgroup* tg) {
  if (!tg) return false;
  if (tg->cancelled.load(std::memory_order_acquire)) return true;
  // A worksharing construct's implicit group stands for the group around it.
  return tg->workshare && tg->prev && tg->prev->cancelled.load(std::memory_order_acquire);
}

void taskgroup_start(Thread* me, const void* codeptr_ra, void* enter_frame) {
  Task* cur = me->task;
  Taskgroup* tg = taskgroup_new(me, cur->rt.taskgroup);
  cur->rt.taskgroup = tg;
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::taskgroup_begin_slow(me, codeptr_ra, enter_frame);
    tg->announced = true;
  }
}

// The group's sync_region began at its start (taskgroup_start), so that a
// tool sees every task of the group created inside it; the waiting for the
// group's tasks happens here, at its end. A group opened without a report
// (a worksharing construct's implicit group, or a tool that came later)
// gets its begin here.
void taskgroup_end(Thread* me, const void* codeptr_ra, void* enter_frame) {
  Task* cur = me->task;
  Taskgroup* tg = cur->rt.taskgroup;
  if (!tg) {
    warn("taskgroup end without a matching taskgroup start; ignored");
    return;
  }
  const bool tool = ompt::active();
  if (tool) {
    if (tg->announced) {
      if (enter_frame) ompt::set_enter_frame(cur, enter_frame);
    } else {
      ompt::sync_task_region_slow(me, ompt_sync_region_taskgroup, ompt_scope_begin, codeptr_ra,
                                  enter_frame);
    }
  }
  if (tg->pending.load(std::memory_order_acquire) != 0) {
    if (tool)
      ompt::sync_task_wait_slow(me, ompt_sync_region_taskgroup, ompt_scope_begin, codeptr_ra);
    task_wait_until(
        me, me->team,
        [](void* c) {
          return static_cast<Taskgroup*>(c)->pending.load(std::memory_order_acquire) == 0;
        },
        tg);
    if (tool) ompt::sync_task_wait_slow(me, ompt_sync_region_taskgroup, ompt_scope_end, codeptr_ra);
  }
  if (tool)
    ompt::sync_task_region_slow(me, ompt_sync_region_taskgroup, ompt_scope_end, codeptr_ra, nullptr);
  cur->rt.taskgroup = tg->prev;
  taskgroup_free(me, tg);
}

}  // namespace kite
