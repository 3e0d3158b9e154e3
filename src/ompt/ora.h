// The ORA collector interface (include/omp_collector_api.h): the events it
// adds to the OMPT emitters' slow halves, and what those need to know.
//
// ORA rides on the OMPT machinery: a START makes ompt::g_active true, so
// an event site still tests one flag whether OMPT, ORA, both or neither is
// in use; the slow halves keep the states and wait ids that both
// interfaces answer from, and each ORA event costs one more test of
// g_live, made only on a slow half.
#pragma once

#include <omp_collector_api.h>

#include "core/team.h"

namespace kite {
namespace ora {

constexpr int kLastEvent = OMP_EVENT_THR_END_FINISH_TASK;
// A session was started and is not paused.
extern std::atomic<bool> g_live;
// A session was started (and not stopped): keeps the bookkeeping on.
bool started();

void emit_slow(int event);
inline void emit(int event) {
  if (KITE_UNLIKELY(g_live.load(std::memory_order_relaxed))) emit_slow(event);
}

// FORK and JOIN: the primary, with `team` the region forked or joined.
// CURRENT_PRID answers the team's id during either callback.
void on_fork(Thread* me, Team* team);
void on_join(Thread* me, Team* team);

// A worker waits for work in the pool (after its thread begins and after
// each region), and leaves the pool (a region's implicit task, or its end).
void idle_begin(Thread* me);
void idle_end(Thread* me);

// Mutex waits: the begin event of the wait state the OMPT emitter entered,
// and the matching end once the mutex is held (nothing for a thread that
// entered no wait state, as omp_test_lock).
void wait_begin(Thread* me, int ompt_wait_state);
inline void wait_end(Thread* me) {
  if (int e = me->ompt.ora_wait_end) {
    me->ompt.ora_wait_end = 0;
    emit(e);
  }
}

// --- tasks (OpenUH's events 23..35 and states 12..16) ---------------------
// The task engine reports them from its traced paths only (those it takes
// when ompt::active()), so they cost nothing without a tool or session.
// With OMPT alone they cost one test of g_tasks per site. With a session,
// the thread's task state is kept for STATE (a sampling collector may ask
// with no event registered), and the event goes out only when some task
// event has a callback (g_task_callbacks), so a session that registered
// none pays a store and a test per site.
extern std::atomic<bool> g_tasks;
void task_event_slow(Thread* me, int event, int state);
// `state`: the ORA task state from here on (0: none, STATE answers from
// the OMPT state again).
inline void task_event(Thread* me, int event, int state) {
  if (KITE_UNLIKELY(g_tasks.load(std::memory_order_relaxed))) task_event_slow(me, event, state);
}

// A task's creation: the begin where it is announced (with OMPT's
// task_create), the end once the creator runs it at once (IMM, before its
// body) or deferred it (DEL, once queued or left to its dependences).
inline void create_begin(Thread* me) {
  task_event(me, OMP_EVENT_THR_BEGIN_CREATE_TASK, THR_TASK_CREATE_STATE);
}
inline void create_end(Thread* me, bool deferred) {
  task_event(me, deferred ? OMP_EVENT_THR_END_CREATE_TASK_DEL : OMP_EVENT_THR_END_CREATE_TASK_IMM,
             0);
}

// Suspend intervals: the current task of a thread waiting at a task
// scheduling point (taskwait, taskgroup end, barrier, taskyield, a wait for
// dependences or a detach event) is set aside while the thread runs
// another task.
inline void suspend_begin(Thread* me) {
  task_event(me, OMP_EVENT_THR_BEGIN_SUSPEND_TASK, THR_TASK_SUSPEND_STATE);
}
inline void suspend_end(Thread* me) { task_event(me, OMP_EVENT_THR_END_SUSPEND_TASK, 0); }

// Schedule intervals: a thread at a task scheduling point looks for a task
// (begin, when the team has tasks to look for), turns to other threads'
// queues (steal begin, once per interval), and got one (steal end if open,
// fetched, end) or stops looking (steal end if open, end).
void search_begin_slow(Thread* me);
void steal_begin_slow(Thread* me);
void fetched_slow(Thread* me);
void search_end_slow(Thread* me);
inline void search_begin(Thread* me) {
  if (KITE_UNLIKELY(g_tasks.load(std::memory_order_relaxed)) && !me->ompt.ora_searching)
    search_begin_slow(me);
}
inline void steal_begin(Thread* me) {
  if (me->ompt.ora_searching && !me->ompt.ora_stealing) steal_begin_slow(me);
}
inline void fetched(Thread* me) {
  if (me->ompt.ora_searching) fetched_slow(me);
}
inline void search_end(Thread* me) {
  if (me->ompt.ora_searching) search_end_slow(me);
}

// A task body begins (exec) and ends (finish begin); the finish interval
// closes with finish_end once the task's end is reported. exec_begin
// answers the task state the thread had before the body, which
// finish_begin keeps for finish_end to go back to (nothing runs between
// those two on the thread, so one field holds it).
uint8_t exec_begin_slow(Thread* me);
void finish_begin_slow(Thread* me, uint8_t resume);
void finish_end_slow(Thread* me);
inline uint8_t exec_begin(Thread* me) {
  if (KITE_UNLIKELY(g_tasks.load(std::memory_order_relaxed))) return exec_begin_slow(me);
  return 0;
}
inline void finish_begin(Thread* me, uint8_t resume) {
  if (KITE_UNLIKELY(g_tasks.load(std::memory_order_relaxed))) finish_begin_slow(me, resume);
}
inline void finish_end(Thread* me) {
  if (KITE_UNLIKELY(g_tasks.load(std::memory_order_relaxed))) finish_end_slow(me);
}

}  // namespace ora
}  // namespace kite
