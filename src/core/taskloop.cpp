// The taskloop construct: split the iteration space into tasks, each given
// its first and one-past-last iteration in the first two words of its data
// block (gcc's convention), inside a taskgroup unless nogroup.
#include "taskloop_parts.h"
#include "ompt/events_ws.h"
#include "team.h"

namespace kite {

namespace {

// Iterations of the loop; all arithmetic in unsigned 64 bits, which serves
// signed and unsigned bounds alike.
unsigned long long trip_count(const TaskloopSpec& s) {
  using ull = unsigned long long;
  ull start = static_cast<ull>(s.start), end = static_cast<ull>(s.end);
  ull step = static_cast<ull>(s.step);
  bool up = s.is_ull ? s.up : s.step > 0;
  if (s.is_ull ? false : s.step == 0) return 0;
  if (up) {
    bool empty = s.is_ull ? start >= end : s.start >= s.end;
    if (empty || step == 0) return 0;
    ull span = end - start;
    return span / step + (span % step != 0);
  }
  bool empty = s.is_ull ? start <= end : s.start <= s.end;
  ull mstep = 0 - step;
  if (empty || mstep == 0) return 0;
  ull span = start - end;
  return span / mstep + (span % mstep != 0);
}

}  // namespace

void taskloop(Thread* me, const TaskloopSpec& spec) {
  using ull = unsigned long long;
  Team* team = me->team;
  ull n = trip_count(spec);
  bool cancelled = g_icv.cancel && team && team->cancelled.load(std::memory_order_acquire);
  if (n == 0 || cancelled) {
    // An empty taskloop is still a taskloop region for tools.
    if (n == 0 && !cancelled && KITE_UNLIKELY(ompt::active())) {
      ompt::taskloop_slow(me, ompt_scope_begin, 0, spec.task.codeptr_ra, spec.task.enter_frame);
      ompt::taskloop_slow(me, ompt_scope_end, 0, spec.task.codeptr_ra, nullptr);
    }
    if (spec.reduction && !spec.nogroup) {
      // Tells the compiler's combining code that nothing was registered.
      uintptr_t* red = static_cast<uintptr_t**>(spec.task.data)[2];
      red[2] = 0;
    }
    return;
  }
  if (spec.nogroup && g_icv.cancel && taskgroup_is_cancelled(me->task->rt.taskgroup)) return;

  const TaskloopParts parts = taskloop_parts(n, spec.grainsize, spec.num_tasks, spec.strict,
                                             team ? team->nthreads : 1);

  const bool tool = ompt::active();
  if (tool)
    ompt::taskloop_slow(me, ompt_scope_begin, n, spec.task.codeptr_ra, spec.task.enter_frame);
  if (!spec.nogroup) {
    taskgroup_start(me, spec.task.codeptr_ra, spec.task.enter_frame);
    if (spec.reduction) task_reduction_register(me, static_cast<uintptr_t**>(spec.task.data)[2]);
  }

  ull step = static_cast<ull>(spec.step);
  ull at = static_cast<ull>(spec.start);
  for (ull i = 0; i < parts.ntasks; ++i) {
    const ull count = taskloop_part_size(parts, i);
    void* arg;
    const bool now = task_must_run_now(me, spec.task);
    Task* t = task_prepare(me, spec.task, &arg);
    ull* bounds = static_cast<ull*>(arg);
    bounds[0] = at;
    at += count * step;
    bounds[1] = at;
    if (tool) {
      ompt::taskloop_task_slow(me, t, now, bounds[0], count, spec.task.codeptr_ra);
      task_start_traced(me, t, now);
    } else if (now) {
      task_run_now(me, t);
    } else {
      task_submit(me, t);
    }
  }

  if (!spec.nogroup) taskgroup_end(me, spec.task.codeptr_ra, spec.task.enter_frame);
  if (tool) ompt::taskloop_slow(me, ompt_scope_end, n, spec.task.codeptr_ra, nullptr);
}

}  // namespace kite
