// Tasks created in two steps (see task_split.h).
#include "task_split.h"

#include "depend.h"
#include "ompt/events_task.h"
#include "ompt/events_ws.h"
#include "ompt/ora.h"

namespace kite {

namespace {

void nothing_to_copy(void*, void*) {}
void empty_body(void*) {}

// gcc's depend array (see depend.cpp) built from the items, in `array`
// (5 + 2 * n words): out-like first, then mutexinoutset, then in; inoutset
// and omp_all_memory items go through depend objects, which that format
// needs for them.
void** to_depend_array(const DependItem* deps, int n, void** array) {
  void** obj = array + 5 + n;  // {addr, kind} pairs for the object items
  uintptr_t nout = 0, nmtx = 0, nin = 0;
  size_t k = 5;
  for (int i = 0; i < n; ++i)
    if (deps[i].type == DependType::kOut || deps[i].type == DependType::kInout) {
      array[k++] = deps[i].addr;
      ++nout;
    }
  for (int i = 0; i < n; ++i)
    if (deps[i].type == DependType::kMutexinoutset) {
      array[k++] = deps[i].addr;
      ++nmtx;
    }
  for (int i = 0; i < n; ++i)
    if (deps[i].type == DependType::kIn) {
      array[k++] = deps[i].addr;
      ++nin;
    }
  for (int i = 0; i < n; ++i) {
    // Object kinds of depend.cpp: out 2, inout 3, inoutset 5; an out or
    // inout item on a null address is omp_all_memory.
    if (deps[i].type == DependType::kInoutset) {
      obj[0] = deps[i].addr;
      obj[1] = reinterpret_cast<void*>(uintptr_t(5));
    } else if (deps[i].type == DependType::kAllMemoryOut ||
               deps[i].type == DependType::kAllMemoryInout) {
      obj[0] = nullptr;
      obj[1] = reinterpret_cast<void*>(
          uintptr_t(deps[i].type == DependType::kAllMemoryOut ? 2 : 3));
    } else {
      continue;
    }
    array[k++] = obj;
    obj += 2;
  }
  array[0] = nullptr;
  array[1] = reinterpret_cast<void*>(uintptr_t(n));
  array[2] = reinterpret_cast<void*>(nout);
  array[3] = reinterpret_cast<void*>(nmtx);
  array[4] = reinterpret_cast<void*>(nin);
  return array;
}

}  // namespace

Task* task_create_unfilled(Thread* me, const TaskSpec& spec, void** block) {
  TaskSpec s = spec;
  s.data = nullptr;
  s.cpyfn = nothing_to_copy;  // the caller fills the block
  s.depend = nullptr;
  s.detach = nullptr;
  return task_prepare(me, s, block);
}

// The block is already laid out, so the records go apart from it; the task
// frees them with itself. `array`: 5 + 2 * ndeps words; returns the depend
// array built there.
void** attach_records(Thread* me, Task* t, const DependItem* deps, int ndeps, void** array) {
  void** depend = to_depend_array(deps, ndeps, array);
  auto* recs = static_cast<DepRecord*>(task_pool_alloc(me, sizeof(DepRecord) * size_t(ndeps)));
  depend_decode(depend, recs, size_t(ndeps));
  t->rt.records = recs;
  t->rt.nrecords = ndeps;
  t->rt.flags |= kTaskOwnRecords;
  return depend;
}

void task_hand_over(Thread* me, Task* t, const DependItem* deps, int ndeps, int priority,
                    bool if_clause, const HandOverTrace& trace) {
  if (priority > g_icv.max_task_priority) priority = g_icv.max_task_priority;
  t->rt.priority = priority > 0 ? priority : 0;
  void** depend = nullptr;
  if (ndeps > 0) {
    void** array = static_cast<void**>(__builtin_alloca(sizeof(void*) * (5 + 2 * size_t(ndeps))));
    depend = attach_records(me, t, deps, ndeps, array);
  }
  TaskSpec s{};
  s.if_clause = if_clause;
  s.priority = t->rt.priority;
  s.depend = depend;
  void* event;
  s.detach = (t->rt.flags & kTaskDetached) ? &event : nullptr;
  const bool now = task_must_run_now(me, s);
  if (KITE_UNLIKELY(ompt::active())) {
    Task* creator = me->task;
    if (trace.taskloop_chunk) {
      ompt::taskloop_task_slow(me, t, now, trace.first, trace.count, trace.codeptr_ra);
    } else {
      ompt::task_create_slow(me, t, ompt::explicit_task_flags(t, now), depend, trace.codeptr_ra,
                             trace.enter_frame);
    }
    task_start_traced(me, t, now);
    if (!trace.taskloop_chunk) ompt::clear_enter_frame(creator);
    return;
  }
  if (now)
    task_run_now(me, t);
  else
    task_submit(me, t);
}

void task_discard(Thread* me, Task* t) {
  t->rt.fn = empty_body;
  t->rt.nrecords = 0;
  task_run_now(me, t, /*silent=*/true);  // never reported as created
}

void task_undeferred_begin(Thread* me, Task* t, const void* codeptr_ra, void* enter_frame) {
  if (KITE_UNLIKELY(ompt::active())) {
    // Reported at its dependence wait already (task_undeferred_wait_depend).
    if (!(t->rt.flags & kTaskDepsWaited)) {
      ompt::task_create_slow(me, t, ompt::explicit_task_flags(t, true), nullptr, codeptr_ra,
                             enter_frame);
      ora::create_end(me, false);
    }
    ompt::inline_body_begin_slow(me, t, enter_frame);
  }
  me->task = t;
}

// The body already ran (as `t`, so its children and taskwaits are its
// own); completing it goes through the core's undeferred path with an
// empty body (which leaves a task whose detach event is pending to
// complete when the event is fulfilled).
void task_undeferred_end(Thread* me, Task* t) {
  Task* parent = t->parent;
  me->task = parent;
  t->rt.fn = empty_body;
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::inline_body_end_slow(me, t, parent,
                               (t->rt.flags & kTaskDetached) &&
                                   t->rt.detach.load(std::memory_order_acquire) > 1);
    ompt::clear_enter_frame(parent);
    task_run_now(me, t, /*silent=*/true);
    return;
  }
  task_run_now(me, t);
}

void* task_allow_completion_event(Task* t) {
  if (!(t->rt.flags & kTaskDetached)) {
    t->rt.flags |= kTaskDetached;
    t->rt.detach.store(2, std::memory_order_relaxed);
  }
  return t;
}

void task_undeferred_wait_depend(Thread* me, Task* t, const DependItem* deps, int ndeps,
                                 const void* codeptr_ra, void* enter_frame) {
  if (ndeps <= 0 || t->rt.nrecords) return;
  void** array = static_cast<void**>(__builtin_alloca(sizeof(void*) * (5 + 2 * size_t(ndeps))));
  void** depend = attach_records(me, t, deps, ndeps, array);
  // Undeferred from here: the sibling whose completion makes it ready must
  // leave it to this thread, not queue it.
  t->rt.flags |= kTaskDepsWaited | kTaskUndeferred;
  const bool tool = ompt::active();
  if (tool) {
    ompt::task_create_slow(me, t, ompt::explicit_task_flags(t, true), depend, codeptr_ra,
                           enter_frame);
    ora::create_end(me, false);  // before its wait: the program's body runs it
  }
  if (t->team)
    task_wait_own_dependences(me, t);
  else
    t->rt.nrecords = 0;  // no team: nothing to wait for, nothing to release
  if (tool) ompt::clear_enter_frame(me->task);
}

void task_wait_depend(Thread* me, const DependItem* deps, int ndeps, const void* codeptr_ra,
                      void* enter_frame) {
  if (ndeps <= 0) return;
  void** array = static_cast<void**>(__builtin_alloca(sizeof(void*) * (5 + 2 * size_t(ndeps))));
  taskwait_depend(me, to_depend_array(deps, ndeps, array), codeptr_ra, enter_frame);
}

}  // namespace kite
