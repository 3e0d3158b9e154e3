// Cancellation (cancel-var, OMP_CANCELLATION): the cancel construct sets a
// flag that cancellation points, barriers and task starts observe.
//   parallel      Team::cancelled; barrier waiters are woken and leave.
//   for/sections  Team::ws_cancelled, cleared by the barrier that ends the
//                 construct.
//   taskgroup     the innermost taskgroup of the encountering task; its
//                 tasks that have not started are discarded.
#include "cancel.h"

#include "ompt/events_task.h"

namespace kite {

bool cancellation_enabled() { return g_icv.cancel != 0; }

namespace {

bool activate(Thread* me, int which) {
  if (!g_icv.cancel) return false;
  Team* team = me->team;
  if (which & (kCancelLoop | kCancelSections)) {
    // Orphaned (no team): only the encountering thread leaves the construct.
    // The kind (kCancelLoop or kCancelSections): tools report it where
    // other threads detect it.
    if (team) team->ws_cancelled.store(which & (kCancelLoop | kCancelSections), std::memory_order_release);
    return true;
  }
  if (which & kCancelTaskgroup) {
    Taskgroup* tg = me->task ? me->task->rt.taskgroup : nullptr;
    if (tg) {
      if (tg->workshare && tg->prev) tg = tg->prev;
      tg->cancelled.store(1, std::memory_order_release);
    }
    return true;
  }
  if (which & kCancelParallel) {
    if (team) {
      team->cancelled.store(1, std::memory_order_release);
      task_wake_team(team);
    }
    return true;
  }
  warn("cancel: unknown construct kind %d; nothing cancelled", which);
  return false;
}

// What a cancellation point observes: the construct kind found cancelled
// (CancelKind bits), or 0.
int observe(Thread* me, int which) {
  Team* team = me->team;
  if (which & (kCancelLoop | kCancelSections))
    return team && team->ws_cancelled.load(std::memory_order_acquire) != 0 ? which : 0;
  if (which & kCancelTaskgroup) {
    if (me->task && taskgroup_is_cancelled(me->task->rt.taskgroup)) return kCancelTaskgroup;
    // Cancelling the parallel region cancels its explicit tasks too.
  }
  return team && team->cancelled.load(std::memory_order_acquire) != 0 ? kCancelParallel : 0;
}

}  // namespace

bool cancel_activate(Thread* me, int which, const void* codeptr_ra) {
  if (!activate(me, which)) return false;
  if (KITE_UNLIKELY(ompt::active()))
    ompt::cancel_slow(me, which, ompt_cancel_activated, codeptr_ra);
  return true;
}

bool cancellation_point(Thread* me, int which, const void* codeptr_ra) {
  if (!g_icv.cancel) return false;
  int found = observe(me, which);
  if (!found) return false;
  if (KITE_UNLIKELY(ompt::active()))
    ompt::cancel_slow(me, found, ompt_cancel_detected, codeptr_ra);
  return true;
}

bool explicit_barrier_cancel(Thread* me, const void* codeptr_ra, void* enter_frame) {
  bool cancelled = explicit_barrier_cancellable(me, codeptr_ra, enter_frame);
  if (cancelled && KITE_UNLIKELY(ompt::active()))
    ompt::cancel_slow(me, kCancelParallel, ompt_cancel_detected, codeptr_ra);
  return cancelled;
}

}  // namespace kite
