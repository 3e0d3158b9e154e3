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

constexpr int kLastEvent = OMP_EVENT_THR_END_ATWT;
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

}  // namespace ora
}  // namespace kite
