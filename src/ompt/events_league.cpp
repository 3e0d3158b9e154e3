// The league of a teams construct nested in a target region run on the host
// (events_task.h, target_league_step_slow).
//
// gcc runs such a league in the target region's own initial task: it loops
// around GOMP_teams4, running the body once per team. A tool must still see
// one initial task per team, so while a team runs, the target task's record
// carries that team's data and answers for it (ompt_get_task_info,
// ompt_get_parallel_info see the team's task in the league); the target
// task's own data is kept in the thread's record meanwhile.
#include "ompt/events_task.h"

namespace kite {
namespace ompt {

namespace {

constexpr int kLeagueFlags = ompt_parallel_league | ompt_parallel_invoker_runtime;

void team_begin(Thread* me, int index) {
  Task* task = me->task;
  ThreadState& ts = me->ompt;
  ts.league_index = index;
  ts.league_saved_task = task->ompt.task_data;
  task->ompt.task_data = ompt_data_none;
  task->ompt.league = &ts.league;
  ts.league_team = ompt_data_none;  // the team's own, as for a host league
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_begin, &ts.league_team, &task->ompt.task_data, unsigned(me->league_size),
       unsigned(index), ompt_task_initial);
}

void team_end(Thread* me) {
  Task* task = me->task;
  ThreadState& ts = me->ompt;
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_end, nullptr, &task->ompt.task_data, 0, unsigned(ts.league_index),
       ompt_task_initial);
  task->ompt.task_data = ts.league_saved_task;
  task->ompt.league = nullptr;
}

}  // namespace

void target_league_step_slow(Thread* me, bool first, bool more, const void* codeptr_ra,
                             void* enter_frame) {
  Task* task = me->task;
  ThreadState& ts = me->ompt;
  if (first) {
    // A league already open on this thread means its compiler loop was
    // left early (it cannot be in conforming code); end it first so that
    // every begin keeps its end.
    if (ts.league_open) target_league_step_slow(me, false, false, ts.league_ra, enter_frame);
    ts.league = ompt_data_none;
    ts.league_ra = codeptr_ra;
    ts.league_open = true;
    set_enter_frame(task, enter_frame);
    auto cb = callback<ompt_callback_parallel_begin_t>(ompt_callback_parallel_begin);
    if (cb)
      cb(&task->ompt.task_data, &task->ompt.frame, &ts.league, unsigned(me->league_size),
         kLeagueFlags, codeptr_ra);
    clear_enter_frame(task);
    if (more) team_begin(me, me->league_num);
    return;
  }
  if (!ts.league_open) return;  // opened before the tool was active
  ts.league_legacy_task = nullptr;
  team_end(me);
  if (more) {
    team_begin(me, me->league_num);
    return;
  }
  ts.league_open = false;
  set_enter_frame(task, enter_frame);
  auto cb = callback<ompt_callback_parallel_end_t>(ompt_callback_parallel_end);
  if (cb) cb(&ts.league, &task->ompt.task_data, kLeagueFlags, ts.league_ra);
  clear_enter_frame(task);
}

void target_league_legacy_slow(Thread* me, const void* codeptr_ra, void* enter_frame) {
  if (me->ompt.target_depth == 0) return;
  target_league_step_slow(me, true, true, codeptr_ra, enter_frame);
  me->ompt.league_legacy_task = me->task;
}

}  // namespace ompt
}  // namespace kite
