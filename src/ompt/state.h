// OMPT state carried by the runtime model: embedded in kite::Thread,
// kite::Task and kite::Team (team.h) so that the inquiry entry points answer
// from plain loads, from any thread, even inside a signal handler.
//
// This header knows nothing of the runtime model; callbacks.h joins the two.
#pragma once

#include <omp-tools.h>
#include <stdint.h>

namespace kite {
namespace ompt {

struct TargetRecord;  // a device construct in progress (events_target.h)

struct ThreadState {
  ompt_data_t thread_data;  // the tool's, ompt_data_none when the thread starts
  int state;                // ompt_state_t, written only by the thread itself
  ompt_wait_id_t wait_id;   // what the thread waits for, when state says so
  // The worksharing construct in progress (src/ompt/events_ws.cpp):
  // ompt_work_t, 0 for none, its codeptr_ra and the count its begin
  // reported (its end reports the same).
  int work;
  const void* work_ra;
  uint64_t work_count;
  // A league run by GOMP_teams4 inside a target region (events_league.cpp):
  // the league's data and codeptr_ra, the team now running in the target's
  // initial task, and that task's own data, set aside while a team's
  // initial task borrows the task record. league_open: parallel_begin was
  // reported, so the rest of the league is too. league_team: the parallel
  // data the running team's initial task is reported with (its own, not
  // the league's: see league_task_slow).
  ompt_data_t league;
  ompt_data_t league_team;
  const void* league_ra;
  ompt_data_t league_saved_task;
  int league_index;
  bool league_open;
  // A league opened by GOMP_teams (gcc <= 11), which marks no end: the
  // target region's initial task that holds it, ended with that task
  // (events_task.cpp); null for other leagues. target_depth: how many
  // target regions' initial tasks this thread is running now.
  const void* league_legacy_task;
  int target_depth;
  // A scope construct begun by GOMP_scope_start in `scope_team`: its end is
  // the thread's next barrier in that team (events_ws.cpp).
  const void* scope_team;
  const void* scope_ra;
  // A distribute construct in progress on this thread (events_ws.cpp): the
  // team it was begun in (scope_key) and its codeptr_ra; null when none.
  const void* dist_team;
  const void* dist_ra;
  uint64_t dist_count;
  // The team whose parallel region this thread has reported cancelled
  // (activated or detected), so the region's closing barrier does not
  // report it again (events.cpp); null when none.
  const void* cancel_seen_team;
  // This thread met the cancellation of its current loop or sections
  // construct (cancel construct or cancellation point), so the
  // construct's closing barrier does not report it again; the cancellation
  // it detects on arriving at that barrier, reported after the barrier's
  // events (CancelKind bits; events_task.cpp ws_cancel_at_barrier).
  bool ws_cancel_seen;
  int ws_cancel_pending;
  // The current task is at a taskyield: the first task this thread
  // switches to reports the yield (events_task.cpp run_task_body).
  bool yielding;
  // The device construct this thread encountered and has not finished,
  // for ompt_get_target_info (null outside one).
  TargetRecord* target;
  // ORA (src/ompt/ora.cpp): the team a FORK or JOIN callback is about,
  // the end event owed for the mutex wait begun, and whether the thread
  // reported THR_BEGIN_IDLE without its end yet.
  const void* ora_event_team;
  int ora_wait_end;
  bool ora_idle;
  // ORA's task intervals (ora.h task_event): the task state STATE answers
  // while one is open (0: none, the OMPT state decides), the state to go
  // back to when a task body's end interval closes, and whether the thread
  // is in a schedule interval, and in a steal interval within it.
  uint8_t ora_task_state;
  uint8_t ora_task_resume;
  bool ora_searching;
  bool ora_stealing;
  // The draft OMPT interfaces (src/ompt/tr2.cpp): the thread reported
  // idle_begin without its end yet, and the frame of its idle loop; it
  // waits for a nest lock (TR2's wait_nest_lock state).
  bool tr2_idle;
  bool tr2_nest_wait;
  void* tr2_idle_frame;
};

struct TaskState {
  ompt_data_t task_data;
  ompt_frame_t frame;
  // Only meaningful for initial tasks: the implicit parallel region that
  // encloses an initial task has no Team object, so its data lives here.
  ompt_data_t implicit_parallel_data;
  // Initial tasks of a teams construct's teams: the league, the parallel
  // region they belong to instead (null: implicit_parallel_data).
  ompt_data_t* league;
  // Explicit tasks (src/ompt/events_task.cpp): the ompt_task_flag_t bits
  // reported at creation, and the thread that runs the task (tied tasks
  // never move), for ompt_get_task_info.
  int flags;
  int thread_num;
  // Detached tasks: which of the body's end and the event's fulfillment was
  // reported first (events_task.cpp), so that the two threads agree on
  // early/late fulfill and detach/complete. Accessed with __atomic builtins.
  int fulfill_order;
  // Only meaningful for initial tasks: set on the initial task of a target
  // region, so that every thread of the region finds its construct.
  TargetRecord* target;
  // Explicit tasks: the task the thread was running when it began this one
  // (the task a debugger unwinds to, OMPD's scheduling task); null before.
  const void* scheduling_task;
};

struct TeamState {
  ompt_data_t parallel_data;
  const void* codeptr_ra;     // return address of the construct's ABI call
  unsigned requested;         // requested team size (parallel_begin)
  int flags;                  // ompt_parallel_flag_t bits of the region
  uint64_t ora_id;            // ORA's and the draft OMPTs' region id, from 1 (ora.cpp)
};

}  // namespace ompt
}  // namespace kite
