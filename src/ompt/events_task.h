// Emitters for explicit tasks, their dependences, and the synchronization
// of taskwait and taskgroup (OpenMP 5.2 §19.5.2.7-8, 19.5.2.13).
//
// The core calls the inline halves; each costs one test of active() when no
// tool is attached. Task execution itself is routed by the core: it checks
// active() once per task and, with a tool, runs the body through
// run_task_body(), which brackets it with task_schedule events.
#pragma once

#include "ompt/callbacks.h"

namespace kite {
namespace ompt {

// --- creation ----------------------------------------------------------------
// `t` exists and is about to be queued or run; flags are ompt_task_flag_t
// bits; `depend` is the libgomp depend array (or null). The encountering
// task's enter frame is set to `enter_frame` for the call and left set:
// the creator clears it with clear_enter_frame() when it leaves the runtime.
void task_create_slow(Thread* me, Task* t, int flags, void** depend, const void* codeptr_ra,
                      void* enter_frame);

// The ompt_task_flag_t bits of explicit task `t`.
inline int explicit_task_flags(const Task* t, bool undeferred) {
  // Task types are exclusive: a target task is not also explicit.
  int f = (t->rt.flags & kTaskTarget) ? ompt_task_target : ompt_task_explicit;
  if (undeferred) f |= ompt_task_undeferred;
  if (t->rt.flags & kTaskUntied) f |= ompt_task_untied;
  if (t->rt.flags & kTaskMergeable) f |= ompt_task_mergeable;
  if (t->final) f |= ompt_task_final;
  return f;
}

// An edge pred -> succ was added between sibling tasks.
void task_dependence_slow(Task* pred, Task* succ);
inline void on_task_dependence(Task* pred, Task* succ) {
  if (active()) task_dependence_slow(pred, succ);
}

// --- execution ---------------------------------------------------------------
// Runs the body of `t` on `me` (me->task is the prior task): task_schedule
// prior -> t (ompt_task_switch), the body with t's exit frame set, then
// task_schedule t -> prior with `end_status()`'s answer. The caller restores
// me->task afterwards, as it does without a tool.
void run_task_body(Thread* me, Task* t);
// The status a task's body end is reported with: complete, or detach when
// its event is still unfulfilled. Called after the body returned, before
// the caller drops the body's completion condition.
void task_body_end(Thread* me, Task* t, Task* prior, bool event_pending);

// An undeferred task whose body the program calls itself between two
// runtime calls (the LLVM ABI's if(0) tasks). Begin: task_schedule prior ->
// t (switch), t's exit frame set to `exit_frame`; the caller makes t
// current. End: the exit frame cleared, task_schedule t -> prior.
void inline_body_begin_slow(Thread* me, Task* t, void* exit_frame);
void inline_body_end_slow(Thread* me, Task* t, Task* prior, bool event_pending);

// A task bound to a cancelled region or taskgroup is discarded unstarted:
// `which` (kite::CancelKind) names the construct. The thread switches to it
// (task_schedule prior -> t, switch), reports cancel (that construct's kind
// | ompt_cancel_discarded_task) in its context, and leaves it with
// ompt_task_cancel (t -> prior).
void task_discarded_slow(Thread* me, Task* t, int which);

// The current task of `me` yields at a taskyield construct (begin) or is
// back from it (end): a task the thread switches to in between is
// reported as scheduled at a yield (ompt_task_yield), not a plain switch.
inline void on_taskyield(Thread* me, bool begin) { me->ompt.yielding = begin; }

// ompt_callback_cancel for the current task of `me`: `which` in
// kite::CancelKind bits, `how` ompt_cancel_activated or _detected.
void cancel_slow(Thread* me, int which, int how, const void* codeptr_ra);
// A loop or sections construct another thread cancelled (Team::ws_cancelled
// holds its kind until a barrier of the team completes): a thread that
// arrives at its closing barrier (a worksharing barrier, or the plain
// barrier gcc ends an inline static loop with) without having met the
// cancellation at a cancel construct or cancellation point detects it
// there. Called at the barrier's begin (reads) and end (reports, after the
// barrier's events). A cancellation activated while the thread already
// waits is not one it detects.
// Without cancellation (cancel-var false) no construct is ever cancelled
// nor its cancellation met, so there is nothing to track: no call.
void ws_cancel_at_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra);
inline void ws_cancel_at_barrier(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (g_icv.cancel) ws_cancel_at_barrier_slow(me, ep, codeptr_ra);
}

// omp_fulfill_event on `t`: early (its body still runs) or late.
void task_fulfill_slow(Task* t, bool body_done);

// --- host teams ----------------------------------------------------------------
// The league of a teams construct: parallel_begin (flags league |
// invoker_runtime, requested n) with the encountering task's enter frame,
// or parallel_end.
void league_slow(Thread* me, ompt_scope_endpoint_t ep, ompt_data_t* league, int n,
                 const void* codeptr_ra, void* enter_frame);
// Runs team `index`'s body in the initial task me->task (already set up):
// implicit_task begin/end (ompt_task_initial) around it, exit frame set.
void league_task_slow(Thread* me, ompt_data_t* league, int n, int index, void (*fn)(void*),
                      void* data);

// A league of teams run by GOMP_teams4 inside a target region: the target's
// initial task runs the teams one after the other, in the compiler's loop
// around GOMP_teams4. Called after each step of that loop: `first` for the
// call that opened the league, `more` when a team (me->league_num) starts
// now. Reports the league (parallel_begin/end as for a host league, the
// GOMP_teams4 call's return address and enter frame) and each team's
// initial task (implicit_task, ompt_task_initial): the team borrows the
// target task's record, whose own data comes back when the league ends.
void target_league_step_slow(Thread* me, bool first, bool more, const void* codeptr_ra,
                             void* enter_frame);
// The same league entered through GOMP_teams (gcc 11 and older), which runs
// one team and marks no end: the league (of me->league_size teams, one) and
// its team's initial task begin here and end when the target region's
// initial task does, before its own implicit_task end. Nothing is reported
// outside a target region (no end would come).
void target_league_legacy_slow(Thread* me, const void* codeptr_ra, void* enter_frame);

// Runs a target region's body (on the host) in its initial task me->task:
// implicit_task begin/end (ompt_task_initial, parallelism 1, index 1, its
// own implicit parallel region) around it, exit frame set.
void target_initial_task_slow(Thread* me, void (*fn)(void*), void* data);

// --- taskwait, taskgroup -------------------------------------------------------
// sync_region begin/end of kind `kind` for the current task of `me`; the
// begin sets the task's enter frame, the end clears it.
void sync_task_region_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           const void* codeptr_ra, void* enter_frame);
// A taskgroup's sync_region begin at the group's start: the enter frame is
// set for the callback only, since the task goes back to its body.
void taskgroup_begin_slow(Thread* me, const void* codeptr_ra, void* enter_frame);
// The waiting part only: sync_region_wait and the waiting state.
void sync_task_wait_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                         const void* codeptr_ra);

}  // namespace ompt
}  // namespace kite
