// The slow halves of the worksharing emitters (events_ws.h).
#include "ompt/events_ws.h"

#include "ompt/events_task.h"
#include "ompt/ora.h"
#include "ompt/tr2.h"

namespace kite {
namespace ompt {

namespace {

void sync(ompt_callbacks_t which, ompt_sync_region_t kind, ompt_scope_endpoint_t ep, Thread* me,
          const void* ra) {
  auto cb = callback<ompt_callback_sync_region_t>(which);
  if (cb) cb(kind, ep, current_region(me), &me->task->ompt.task_data, ra);
}

int wait_state(ompt_sync_region_t kind) {
  return kind == ompt_sync_region_barrier_implicit_workshare
             ? ompt_state_wait_barrier_implicit_workshare
             : ompt_state_wait_barrier_implementation;
}

void work_callback(Thread* me, ompt_work_t work, ompt_scope_endpoint_t ep, uint64_t count,
                   const void* ra) {
  auto cb = callback<ompt_callback_work_t>(ompt_callback_work);
  if (cb) cb(work, ep, current_region(me), &me->task->ompt.task_data, count, ra);
}

}  // namespace

int loop_work_type(int sched) {
  switch (sched) {
    case int(Sched::kStatic): return ompt_work_loop_static;
    case int(Sched::kDynamic): return ompt_work_loop_dynamic;
    case int(Sched::kGuided): return ompt_work_loop_guided;
    default: return ompt_work_loop_other;
  }
}

void work_begin_slow(Thread* me, int work, uint64_t count, const void* codeptr_ra) {
  me->ompt.work = work;
  me->ompt.work_ra = codeptr_ra;
  me->ompt.work_count = count;
  if (work == ompt_work_single_executor) ora::emit(OMP_EVENT_THR_BEGIN_SINGLE);
  auto cb = callback<ompt_callback_work_t>(ompt_callback_work);
  if (cb)
    cb(static_cast<ompt_work_t>(work), ompt_scope_begin, current_region(me),
       &me->task->ompt.task_data, count, codeptr_ra);
  tr2::work(me, work, true, codeptr_ra);
}

void work_end_slow(Thread* me) {
  int work = me->ompt.work;
  if (!work) return;
  me->ompt.work = 0;
  auto cb = callback<ompt_callback_work_t>(ompt_callback_work);
  // The end reports the begin's count: 5.2 §19.5.2.5 defines count per
  // construct, not per endpoint (the iterations of a loop, the number of
  // sections, "always 1" for a single).
  if (cb)
    cb(static_cast<ompt_work_t>(work), ompt_scope_end, current_region(me), &me->task->ompt.task_data,
       me->ompt.work_count, me->ompt.work_ra);
  if (work == ompt_work_single_executor) ora::emit(OMP_EVENT_THR_END_SINGLE);
  tr2::work(me, work, false, me->ompt.work_ra);
}

void dispatch_slow(Thread* me, uint64_t first, uint64_t iterations) {
  int work = me->ompt.work;
  if (!work) return;
  auto cb = callback<ompt_callback_dispatch_t>(ompt_callback_dispatch);
  if (!cb) return;
  ompt_data_t instance;
  if (work == ompt_work_sections) {
    // gcc gives the runtime no address per section: the instance is the
    // section's number (from 1), as GOMP_sections_next hands it out.
    instance.value = first + 1;
    cb(current_region(me), &me->task->ompt.task_data, ompt_dispatch_section, instance);
    return;
  }
  ompt_dispatch_chunk_t chunk{first, iterations};
  instance.ptr = &chunk;
  cb(current_region(me), &me->task->ompt.task_data, ompt_dispatch_ws_loop_chunk, instance);
}

void taskloop_slow(Thread* me, ompt_scope_endpoint_t ep, uint64_t count, const void* codeptr_ra,
                   void* enter_frame) {
  Task* task = me->task;
  if (ep == ompt_scope_begin && enter_frame) set_enter_frame(task, enter_frame);
  auto cb = callback<ompt_callback_work_t>(ompt_callback_work);
  if (cb) cb(ompt_work_taskloop, ep, current_region(me), &task->ompt.task_data, count, codeptr_ra);
  if (ep == ompt_scope_end) clear_enter_frame(task);
}

void taskloop_task_slow(Thread* me, Task* t, bool undeferred, uint64_t first,
                        uint64_t iterations, const void* codeptr_ra) {
  task_create_slow(me, t, explicit_task_flags(t, undeferred), nullptr, codeptr_ra, nullptr);
  auto cb = callback<ompt_callback_dispatch_t>(ompt_callback_dispatch);
  if (!cb) return;
  ompt_dispatch_chunk_t chunk{first, iterations};
  ompt_data_t instance;
  instance.ptr = &chunk;
  cb(current_region(me), &t->ompt.task_data, ompt_dispatch_taskloop_chunk, instance);
}

void barrier_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                  const void* codeptr_ra, void* enter_frame) {
  Task* task = me->task;
  if (ep == ompt_scope_begin) {
    ws_cancel_at_barrier(me, ep, codeptr_ra);
    if (enter_frame) set_enter_frame(task, enter_frame);
    sync(ompt_callback_sync_region, kind, ep, me, codeptr_ra);
    me->ompt.wait_id = me->team ? reinterpret_cast<ompt_wait_id_t>(&me->team->barrier) : 0;
    std::atomic_signal_fence(std::memory_order_release);
    set_state(me, wait_state(kind));
    ora::emit(OMP_EVENT_THR_BEGIN_IBAR);
    tr2::barrier(me, true);
    sync(ompt_callback_sync_region_wait, kind, ep, me, codeptr_ra);
  } else {
    sync(ompt_callback_sync_region_wait, kind, ep, me, codeptr_ra);
    tr2::barrier(me, false);
    set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
    me->ompt.wait_id = 0;
    ora::emit(OMP_EVENT_THR_END_IBAR);
    sync(ompt_callback_sync_region, kind, ep, me, codeptr_ra);
    clear_enter_frame(task);
    ws_cancel_at_barrier(me, ep, codeptr_ra);
  }
}

void ws_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                     void* enter_frame) {
  // A construct still open here was cancelled: the program left it for its
  // barrier without the call that ends it (clang's dynamic loops end with
  // the last __kmpc_dispatch_next, which a cancelled loop never makes). It
  // ends before its barrier, as it would have.
  if (ep == ompt_scope_begin && me->ompt.work) work_end_slow(me);
  barrier_slow(me, ompt_sync_region_barrier_implicit_workshare, ep, codeptr_ra, enter_frame);
}

void scope_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (ep == ompt_scope_begin) {
    // A scope of this team still open: its closing barrier call never came
    // (GOMP_scope_start called again without one). Worksharing regions do
    // not nest in one team, so it ends here, before the new one begins.
    if (scope_pending(me)) scope_slow(me, ompt_scope_end, nullptr);
    me->ompt.scope_team = scope_key(me);
    me->ompt.scope_ra = codeptr_ra;
    work_callback(me, ompt_work_scope, ep, 1, codeptr_ra);
    return;
  }
  // The begin's codeptr_ra, as for the other constructs' work end.
  const void* ra = me->ompt.scope_ra ? me->ompt.scope_ra : codeptr_ra;
  me->ompt.scope_team = nullptr;
  me->ompt.scope_ra = nullptr;
  work_callback(me, ompt_work_scope, ep, 1, ra);
}

void distribute_begin_slow(Thread* me, uint64_t count, const void* codeptr_ra) {
  me->ompt.dist_team = scope_key(me);
  me->ompt.dist_ra = codeptr_ra;
  me->ompt.dist_count = count;
  work_callback(me, ompt_work_distribute, ompt_scope_begin, count, codeptr_ra);
}

void distribute_chunk_slow(Thread* me, uint64_t first, uint64_t iterations) {
  if (me->ompt.dist_team != scope_key(me)) return;
  auto cb = callback<ompt_callback_dispatch_t>(ompt_callback_dispatch);
  if (!cb) return;
  ompt_dispatch_chunk_t chunk{first, iterations};
  ompt_data_t instance;
  instance.ptr = &chunk;
  cb(current_region(me), &me->task->ompt.task_data, ompt_dispatch_distribute_chunk, instance);
}

void distribute_end_slow(Thread* me) {
  if (!me->ompt.dist_team || me->ompt.dist_team != scope_key(me)) return;
  const void* ra = me->ompt.dist_ra;
  me->ompt.dist_team = nullptr;
  me->ompt.dist_ra = nullptr;
  work_callback(me, ompt_work_distribute, ompt_scope_end, me->ompt.dist_count, ra);
}

void masked_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (ep == ompt_scope_begin) ora::emit(OMP_EVENT_THR_BEGIN_MASTER);
  tr2::master(me, ep == ompt_scope_begin);
  auto cb = callback<ompt_callback_masked_t>(ompt_callback_masked);
  if (cb) cb(ep, current_region(me), &me->task->ompt.task_data, codeptr_ra);
  if (ep == ompt_scope_end) ora::emit(OMP_EVENT_THR_END_MASTER);
}

void flush_slow(Thread* me, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_flush_t>(ompt_callback_flush);
  if (cb) cb(&me->ompt.thread_data, codeptr_ra);
  tr2::flush(me);
}

void doacross_slow(Thread* me, const unsigned long long* v, unsigned n,
                   ompt_dependence_type_t type) {
  auto cb = callback<ompt_callback_dependences_t>(ompt_callback_dependences);
  if (!cb || n == 0) return;
  ompt_dependence_t stack[8];
  ompt_dependence_t* deps =
      n <= 8 ? stack : static_cast<ompt_dependence_t*>(xmalloc(n * sizeof(ompt_dependence_t)));
  for (unsigned d = 0; d < n; ++d) {
    deps[d].variable.value = v[d];
    deps[d].dependence_type = type;
  }
  cb(&me->task->ompt.task_data, deps, int(n));
  if (deps != stack) xfree(deps);
}

// The thread is in work_reduction from the begin event to the end event,
// both included (waiting for the reduction's lock is part of it).
void reduction_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (ep == ompt_scope_begin) set_state(me, ompt_state_work_reduction);
  auto cb = callback<ompt_callback_sync_region_t>(ompt_callback_reduction);
  if (cb)
    cb(ompt_sync_region_reduction, ep, current_region(me), &me->task->ompt.task_data, codeptr_ra);
  if (ep == ompt_scope_end)
    set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
}

}  // namespace ompt
}  // namespace kite
