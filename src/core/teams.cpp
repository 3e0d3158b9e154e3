// The host teams construct (a teams region not nested in a target region).
//
// The league runs on the encountering thread, one team after the other, as
// libgomp runs it: teams never synchronize with each other, so running them
// in sequence is a conforming schedule, and it costs no thread. Each team's
// initial task starts its own contention group, limited by thread_limit.
#include "ompt/events_task.h"
#include "target.h"

namespace kite {

void teams(void (*fn)(void*), void* data, int num_teams, int thread_limit,
           const void* codeptr_ra, void* enter_frame) {
  Thread* me = self();
  if (num_teams < 0) {
    warn("teams construct: num_teams(%d) is not positive; using the default", num_teams);
    num_teams = 0;
  }
  if (thread_limit < 0) {
    warn("teams construct: thread_limit(%d) is not positive; using the default", thread_limit);
    thread_limit = 0;
  }
  int n = num_teams > 0 ? num_teams : (g_icv.nteams > 0 ? g_icv.nteams : 1);
  int limit = thread_limit > 0 ? thread_limit : g_icv.teams_thread_limit;
  TaskIcvs icv = me->task->icv;
  if (limit > 0) icv.thread_limit = limit;
  // Tools see the league as a parallel region of n initial tasks.
  const bool tool = ompt::active();
  ompt_data_t league = ompt_data_none;
  if (tool) ompt::league_slow(me, ompt_scope_begin, &league, n, codeptr_ra, enter_frame);
  for (int i = 0; i < n; ++i) {
    InitialTaskScope scope(me, icv);
    me->league_num = i;
    me->league_size = n;
    if (tool)
      ompt::league_task_slow(me, &league, n, i, fn, data);
    else
      fn(data);
  }
  if (tool) ompt::league_slow(me, ompt_scope_end, &league, n, codeptr_ra, enter_frame);
}

// gcc loops around GOMP_teams4 in the target region's initial task; the
// step itself lives with the target region (target.cpp).
bool teams_in_target(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                     bool first, const void* codeptr_ra, void* enter_frame) {
  bool more = teams_in_target_step(num_teams_low, num_teams_high, thread_limit, first);
  if (KITE_UNLIKELY(ompt::active()))
    ompt::target_league_step_slow(self(), first, more, codeptr_ra, enter_frame);
  return more;
}

}  // namespace kite
