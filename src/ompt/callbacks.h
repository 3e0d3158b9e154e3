// The callback table and the emitters the runtime core calls at each event.
//
// Every emitter starts with one test of g_active, a global that is false
// unless a tool's initializer accepted, so a program without a tool pays one
// predictable branch per event site. With a tool, an emitter still calls
// only the callbacks the tool registered.
//
// State transitions (ompt_get_state) live here too, one function per
// transition, so each state is written in exactly one place.
#pragma once

#include "core/team.h"
#include "ompt/state.h"

namespace kite {
namespace ompt {

// Registered callbacks, indexed by ompt_callbacks_t. Written only by the
// tool's initializer (through ompt_set_callback) before any event, and
// cleared at finalization.
constexpr int kMaxEvent = 37;
struct Table {
  ompt_callback_t fn[kMaxEvent + 1];
};
extern Table g_callbacks;
// A tool is attached and its initializer returned non-zero.
extern std::atomic<bool> g_active;

inline bool active() { return KITE_UNLIKELY(g_active.load(std::memory_order_relaxed)); }

template <class F>
inline F callback(ompt_callbacks_t e) {
  return reinterpret_cast<F>(g_callbacks.fn[e]);
}

// --- activation (activate.cpp) --------------------------------------------
// Looks for a tool and runs its initializer, once per process; every thread
// that needs a thread record calls it, only the first does the work.
void activate_once();
// Finalizes the tool (from ompt_finalize_tool or at process exit).
void finalize_tool();
// An OMPT tool's initializer accepted and the tool is not finalized.
bool tool_attached();

// --- entry points (entry_points.cpp) ---------------------------------------
// The lookup function handed to the tool's initializer.
ompt_interface_fn_t lookup(const char* name);
void clear_callbacks();

// --- frames (frames.cpp) -----------------------------------------------------
// Calls fn(data) with frame->exit_frame set to fn's canonical frame address
// for the duration of the call.
extern "C" void kite_ompt_call_outlined(void (*fn)(void*), void* data, ompt_frame_t* frame)
    KITE_HIDDEN;

inline void set_state(Thread* t, int s) { t->ompt.state = s; }

// --- regions -----------------------------------------------------------------
// The parallel region an initial task belongs to: the league of the teams
// construct whose team it runs, else the implicit region around it.
inline ompt_data_t* initial_task_region(Task* t) {
  return t->ompt.league ? t->ompt.league : &t->ompt.implicit_parallel_data;
}
// The region of the initial task that `t` descends from (t itself, or the
// task an included task outside any team was created by); the thread's own
// implicit region when the chain ends without one.
ompt_data_t* region_outside_teams(Thread* me, Task* t);
// The innermost parallel region (or league) of the thread's current task.
inline ompt_data_t* current_region(Thread* me) {
  return me->team ? &me->team->ompt.parallel_data : region_outside_teams(me, me->task);
}

inline void set_enter_frame(Task* task, void* cfa) {
  task->ompt.frame.enter_frame.ptr = cfa;
  task->ompt.frame.enter_frame_flags = ompt_frame_application | ompt_frame_cfa;
}
inline void clear_enter_frame(Task* task) {
  task->ompt.frame.enter_frame.ptr = nullptr;
  task->ompt.frame.enter_frame_flags = 0;
}

// A region whose outlined function the program calls itself
// (GOMP_parallel_start, __kmpc_serialized_parallel): the primary's implicit
// task begins where the encountering task entered the runtime, so that is
// its exit frame (an application frame: no runtime frame lies between),
// and the chain a tool unwinds is the one an active region gives.
inline void set_program_exit_frame(Task* task, void* cfa) {
  if (active() && cfa) {
    task->ompt.frame.exit_frame.ptr = cfa;
    task->ompt.frame.exit_frame_flags = ompt_frame_application | ompt_frame_cfa;
  }
}
inline void clear_exit_frame(Task* task) {
  task->ompt.frame.exit_frame.ptr = nullptr;
  task->ompt.frame.exit_frame_flags = 0;
}

// Runs the outlined function of an implicit task: with a tool, through the
// trampoline that records the exit frame.
inline void run_outlined(void (*fn)(void*), void* data, Task* task) {
  if (active()) {
    task->ompt.frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_cfa;
    kite_ompt_call_outlined(fn, data, &task->ompt.frame);
    task->ompt.frame.exit_frame.ptr = nullptr;
    task->ompt.frame.exit_frame_flags = 0;
  } else {
    fn(data);
  }
}

// --- threads ---------------------------------------------------------------
void on_thread_begin_slow(Thread* t, ompt_thread_t kind);
void on_thread_end_slow(Thread* t);

inline void on_worker_begin(Thread* t) {
  if (active()) on_thread_begin_slow(t, ompt_thread_worker);
}
inline void on_worker_end(Thread* t) {
  if (active()) on_thread_end_slow(t);
}

// An initial thread got its record: activates the tool on first use, then
// reports the thread and its initial task.
void on_initial_thread(Thread* t);
// An initial thread leaves (user thread exit, or process end for the first).
void on_initial_thread_end(Thread* t);

// --- parallel regions --------------------------------------------------------
// The primary enters the runtime to fork: state overhead, enter frame of the
// encountering task.
inline void on_fork_enter(Thread* me, void* enter_frame) {
  if (active()) {
    set_state(me, ompt_state_overhead);
    set_enter_frame(me->task, enter_frame);
  }
}

// Team prepared, workers not yet released.
void on_parallel_begin_slow(Thread* me, Team* team, const ForkSpec& spec);
inline void on_parallel_begin(Thread* me, Team* team, const ForkSpec& spec) {
  if (active()) on_parallel_begin_slow(me, team, spec);
}

// A thread starts its implicit task in `team` (state work_parallel).
void on_implicit_task_begin_slow(Thread* me, Team* team, int tid);
inline void on_implicit_task_begin(Thread* me, Team* team, int tid) {
  if (active()) on_implicit_task_begin_slow(me, team, tid);
}

// The barrier at the end of the region, then the end of the implicit task.
// Both run before the thread's last touch of the team.
void on_region_barrier_begin_slow(Thread* me, Team* team);
void on_region_barrier_end_slow(Thread* me, Team* team);
inline void on_region_barrier_begin(Thread* me, Team* team) {
  if (active()) on_region_barrier_begin_slow(me, team);
}
inline void on_region_barrier_end(Thread* me, Team* team) {
  if (active()) on_region_barrier_end_slow(me, team);
}

// A worker went back to waiting for work.
void on_worker_idle_slow(Thread* me);
inline void on_worker_idle(Thread* me) {
  if (active()) on_worker_idle_slow(me);
}

// Join complete; `me` is restored to the encountering task.
void on_parallel_end_slow(Thread* me, Team* team);
inline void on_parallel_end(Thread* me, Team* team) {
  if (active()) on_parallel_end_slow(me, team);
}

// --- explicit barriers -------------------------------------------------------
void on_explicit_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                              void* enter_frame);
// Whether anything fires at a barrier besides the bookkeeping: a
// sync-region callback, an ORA or draft-OMPT session, or cancellation to
// track. When nothing does (a tool that registers no barrier callback, as
// `kite profile`), a barrier keeps only what the inquiry entry points read
// at any moment (enter frame, wait id, state), inline: issue 23 measured a
// call and ~90 instructions per barrier for nothing.
// g_barrier_hooked caches the first three (refresh_barrier_hooked, called
// wherever a callback is set or cleared and an ORA or draft session starts,
// pauses or stops).
extern std::atomic<bool> g_barrier_hooked;
void refresh_barrier_hooked();
inline bool barrier_hooked() {
  return g_barrier_hooked.load(std::memory_order_relaxed) || g_icv.cancel;
}
// The bookkeeping of a barrier nothing is told about, in the order the full
// emitters keep (barrier_slow, on_explicit_barrier_slow).
inline void barrier_quiet_begin(Thread* me, int wait_state, void* enter_frame) {
  if (enter_frame) set_enter_frame(me->task, enter_frame);
  me->ompt.wait_id = me->team ? reinterpret_cast<ompt_wait_id_t>(&me->team->barrier) : 0;
  std::atomic_signal_fence(std::memory_order_release);
  set_state(me, wait_state);
}
inline void barrier_quiet_end(Thread* me) {
  set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
  me->ompt.wait_id = 0;
  clear_enter_frame(me->task);
}

inline void on_explicit_barrier(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                                void* enter_frame) {
  if (active()) {
    if (KITE_UNLIKELY(barrier_hooked()))
      on_explicit_barrier_slow(me, ep, codeptr_ra, enter_frame);
    else if (ep == ompt_scope_begin) {
      set_enter_frame(me->task, enter_frame);
      barrier_quiet_begin(me, ompt_state_wait_barrier_explicit, nullptr);
    } else {
      barrier_quiet_end(me);
    }
  }
}

}  // namespace ompt
}  // namespace kite
