// The slow halves of the emitters in callbacks.h: they run only with a tool
// attached. Each fills in the OMPT state the inquiry entry points read, then
// calls the tool's callback if it registered one.
//
// Per thread, a parallel region reads (OpenMP 5.2 §19.5.2):
//   primary: parallel_begin, implicit_task begin, sync_region begin,
//            sync_region_wait begin, [barrier], sync_region_wait end,
//            sync_region end, implicit_task end, parallel_end
//   worker:  implicit_task begin, ... the same up to implicit_task end
#include "ompt/callbacks.h"
#include "ompt/events_task.h"
#include "ompt/events_ws.h"
#include "ompt/ora.h"
#include "ompt/tr2.h"
#include "ompd/runtime/debug.h"

namespace kite {
namespace ompt {

Table g_callbacks;
std::atomic<bool> g_active{false};

namespace {

// The implicit parallel region a thread is in when it is in no team.
ompt_data_t* implicit_region_data(Thread* me) {
  return &me->initial_task.ompt.implicit_parallel_data;
}

int working_state(Thread* me) {
  return me->team ? ompt_state_work_parallel : ompt_state_work_serial;
}

void sync_region(ompt_callbacks_t which, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                 ompt_data_t* parallel_data, ompt_data_t* task_data, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_sync_region_t>(which);
  if (cb) cb(kind, ep, parallel_data, task_data, codeptr_ra);
}

}  // namespace

ompt_data_t* region_outside_teams(Thread* me, Task* t) {
  while (t && t->kind != kTaskInitial) t = t->parent;
  return t ? initial_task_region(t) : implicit_region_data(me);
}

void on_thread_begin_slow(Thread* t, ompt_thread_t kind) {
  set_state(t, kind == ompt_thread_worker ? ompt_state_idle : ompt_state_work_serial);
  if (kind == ompt_thread_worker) ora::idle_begin(t);
  ompd::thread_begins(t);
  auto cb = callback<ompt_callback_thread_begin_t>(ompt_callback_thread_begin);
  if (cb) cb(kind, &t->ompt.thread_data);
  tr2::thread_begin(t, kind == ompt_thread_worker, __builtin_dwarf_cfa());
}

void on_thread_end_slow(Thread* t) {
  ora::idle_end(t);
  tr2::thread_end(t);
  auto cb = callback<ompt_callback_thread_end_t>(ompt_callback_thread_end);
  if (cb) cb(&t->ompt.thread_data);
  set_state(t, ompt_state_undefined);
  ompd::thread_ends(t);
}

void on_initial_thread(Thread* t) {
  activate_once();
  if (!active()) return;
  on_thread_begin_slow(t, ompt_thread_initial);
  // The initial task and the implicit parallel region around it: one
  // initial task (index 1) in a region of one thread.
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_begin, implicit_region_data(t), &t->initial_task.ompt.task_data, 1, 1,
       ompt_task_initial);
  tr2::initial_task(t, true);
}

void on_initial_thread_end(Thread* t) {
  if (!active()) return;
  // A scope begun outside any team whose barrier call never came ends with
  // the initial task, which is still the current task here.
  if (t->ompt.scope_team == t) scope_slow(t, ompt_scope_end, nullptr);
  // 5.2 §19.5.2.11 (ompt_callback_implicit_task_t), as 5.1 first said:
  // "The binding of the parallel_data argument is the current parallel or
  // teams region. For the implicit-task-end and the initial-task-end
  // events, this argument is NULL." Every implicit_task end Kite reports
  // (here, a region's, a team's, a target region's) passes NULL. Tools
  // written for 5.0, which passed the region, may dereference it:
  // docs/ompt.md names them (Archer 14).
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb) cb(ompt_scope_end, nullptr, &t->initial_task.ompt.task_data, 0, 1, ompt_task_initial);
  tr2::initial_task(t, false);
  on_thread_end_slow(t);
}

// Stores `v` unless the field holds it already: a hot team's workers read
// these fields in every region, and a line the primary does not write
// stays in their caches.
template <typename T>
inline void store_if_changed(T& field, T v) {
  if (field != v) field = v;
}

// The implicit task's tool data and frame start empty, set by the thread
// that runs the task (its slot's line stays in its cache).
inline void clear_implicit_task_state(Task* t) {
  TaskState& ts = t->ompt;
  store_if_changed(ts.task_data.value, uint64_t(0));
  if (ts.frame.exit_frame.ptr || ts.frame.enter_frame.ptr || ts.frame.exit_frame_flags ||
      ts.frame.enter_frame_flags)
    ts.frame = ompt_frame_t{};
}

void on_parallel_begin_slow(Thread* me, Team* team, const ForkSpec& spec) {
  TeamState& ts = team->ompt;
  store_if_changed(ts.parallel_data.value, uint64_t(0));
  store_if_changed(ts.codeptr_ra, spec.codeptr_ra);
  // What the program asked for: the num_threads clause, else nthreads-var;
  // an if(false) region asks for one thread.
  int req = !spec.if_clause ? 1 : spec.num_threads > 0 ? spec.num_threads : me->task->icv.nthreads;
  store_if_changed(ts.requested, req > 0 ? unsigned(req) : 1u);
  // The workers' implicit tasks: on_implicit_task_begin_slow, by each worker.
  clear_implicit_task_state(&team->implicit[0]);
  auto cb = callback<ompt_callback_parallel_begin_t>(ompt_callback_parallel_begin);
  if (cb)
    cb(&me->task->ompt.task_data, &me->task->ompt.frame, &ts.parallel_data, ts.requested,
       ts.flags, ts.codeptr_ra);
  ora::on_fork(me, team);
  tr2::parallel(me, team, true);
}

void on_implicit_task_begin_slow(Thread* me, Team* team, int tid) {
  if (tid != 0) clear_implicit_task_state(&team->implicit[tid]);
  set_state(me, ompt_state_work_parallel);
  ora::idle_end(me);
  tr2::implicit_task(me, team, tid, true);
  me->ompt.cancel_seen_team = nullptr;
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_begin, &team->ompt.parallel_data, &team->implicit[tid].ompt.task_data,
       unsigned(team->nthreads), unsigned(tid), ompt_task_implicit);
  // ompd_bp_parallel_begin (OpenMP 5.2 §20.6.2): the debugger's current
  // region is the one beginning, its current task the encountering one.
  // Here, on the primary, the thread is in the new team already: its task
  // is set back to the encountering task for the breakpoint's duration.
  if (KITE_UNLIKELY(ompd::g_debugging) && tid == 0) {
    Task* implicit = me->task;
    me->task = team->parent_task;
    ompd_bp_parallel_begin();
    me->task = implicit;
  }
  ompd::bp_task_begin();
}

void on_region_barrier_begin_slow(Thread* me, Team* team) {
  // A scope whose closing barrier call never came (the region was
  // cancelled inside it) ends with the region, so that its begin keeps an
  // end and the team, reused later, carries no stale mark.
  if (me->ompt.scope_team == team) scope_slow(me, ompt_scope_end, nullptr);
  ompt_data_t* task_data = &team->implicit[me->tid].ompt.task_data;
  const void* ra = team->ompt.codeptr_ra;
  sync_region(ompt_callback_sync_region, ompt_sync_region_barrier_implicit_parallel,
              ompt_scope_begin, &team->ompt.parallel_data, task_data, ra);
  me->ompt.wait_id = reinterpret_cast<ompt_wait_id_t>(&team->barrier);
  std::atomic_signal_fence(std::memory_order_release);
  set_state(me, ompt_state_wait_barrier_implicit_parallel);
  ora::emit(OMP_EVENT_THR_BEGIN_IBAR);
  tr2::barrier(me, true);
  sync_region(ompt_callback_sync_region_wait, ompt_sync_region_barrier_implicit_parallel,
              ompt_scope_begin, &team->ompt.parallel_data, task_data, ra);
}

void on_region_barrier_end_slow(Thread* me, Team* team) {
  int tid = me->tid;
  ompt_data_t* task_data = &team->implicit[tid].ompt.task_data;
  const void* ra = team->ompt.codeptr_ra;
  // "For the barrier-end event at the end of a parallel region this
  // argument is NULL" (5.1 and 5.2, ompt_callback_sync_region_t;
  // 6.0 §34.7.4): past the barrier the primary may already have ended the
  // region and the tool freed its data. Both ends of the barrier (the
  // wait's and the region's) are such events.
  sync_region(ompt_callback_sync_region_wait, ompt_sync_region_barrier_implicit_parallel,
              ompt_scope_end, nullptr, task_data, ra);
  tr2::barrier(me, false);
  set_state(me, ompt_state_overhead);
  me->ompt.wait_id = 0;
  ora::emit(OMP_EVENT_THR_END_IBAR);
  sync_region(ompt_callback_sync_region, ompt_sync_region_barrier_implicit_parallel,
              ompt_scope_end, nullptr, task_data, ra);
  // The region's closing barrier is a cancellation point: a thread that
  // finds the region cancelled here without having met the cancellation
  // before (its own cancel, a cancellation point, a cancellable barrier)
  // detects it here. After the barrier every thread of the team sees the
  // flag, set before its setter reached the barrier.
  if (g_icv.cancel && team->cancelled.load(std::memory_order_acquire) &&
      me->ompt.cancel_seen_team != team) {
    auto ccb = callback<ompt_callback_cancel_t>(ompt_callback_cancel);
    if (ccb) ccb(task_data, ompt_cancel_parallel | ompt_cancel_detected, ra);
  }
  me->ompt.cancel_seen_team = nullptr;
  // The implicit task's end: no parallel data, no parallelism (5.2
  // §19.5.2.11, quoted at on_initial_thread_end).
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb) cb(ompt_scope_end, nullptr, task_data, 0, unsigned(tid), ompt_task_implicit);
  tr2::implicit_task(me, team, tid, false);
  ompd::bp_task_end();
}

void on_parallel_end_slow(Thread* me, Team* team) {
  // ompd_bp_parallel_end: the current region is the one ending, the current
  // task the encountering one, which the thread is back in already.
  if (KITE_UNLIKELY(ompd::g_debugging)) {
    Team* outer = me->team;
    me->team = team;
    ompd_bp_parallel_end();
    me->team = outer;
  }
  Task* enc = me->task;
  auto cb = callback<ompt_callback_parallel_end_t>(ompt_callback_parallel_end);
  if (cb) cb(&team->ompt.parallel_data, &enc->ompt.task_data, team->ompt.flags, team->ompt.codeptr_ra);
  clear_enter_frame(enc);
  set_state(me, working_state(me));
  ora::on_join(me, team);
  tr2::parallel(me, team, false);
}

void on_worker_idle_slow(Thread* me) {
  set_state(me, ompt_state_idle);
  ora::idle_begin(me);
  tr2::idle(me, true);
}

void on_explicit_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                              void* enter_frame) {
  Task* task = me->task;
  ompt_data_t* pd = current_region(me);
  if (ep == ompt_scope_begin) {
    ws_cancel_at_barrier(me, ep, codeptr_ra);
    set_enter_frame(task, enter_frame);
    sync_region(ompt_callback_sync_region, ompt_sync_region_barrier_explicit, ep, pd,
                &task->ompt.task_data, codeptr_ra);
    me->ompt.wait_id = me->team ? reinterpret_cast<ompt_wait_id_t>(&me->team->barrier) : 0;
    std::atomic_signal_fence(std::memory_order_release);
    set_state(me, ompt_state_wait_barrier_explicit);
    ora::emit(OMP_EVENT_THR_BEGIN_EBAR);
    tr2::barrier(me, true);
    sync_region(ompt_callback_sync_region_wait, ompt_sync_region_barrier_explicit, ep, pd,
                &task->ompt.task_data, codeptr_ra);
  } else {
    sync_region(ompt_callback_sync_region_wait, ompt_sync_region_barrier_explicit, ep, pd,
                &task->ompt.task_data, codeptr_ra);
    tr2::barrier(me, false);
    set_state(me, working_state(me));
    me->ompt.wait_id = 0;
    ora::emit(OMP_EVENT_THR_END_EBAR);
    sync_region(ompt_callback_sync_region, ompt_sync_region_barrier_explicit, ep, pd,
                &task->ompt.task_data, codeptr_ra);
    clear_enter_frame(task);
    ws_cancel_at_barrier(me, ep, codeptr_ra);
  }
}

}  // namespace ompt
}  // namespace kite
