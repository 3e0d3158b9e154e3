/* A host teams construct: the league is a parallel region (flags league |
 * invoker_runtime, requested parallelism = num_teams, codeptr_ra of the
 * GOMP_teams_reg call) of one initial task per team (implicit_task with
 * ompt_task_initial, index = team number), each seen by ompt_get_task_info
 * with its exit frame set.
 * kite-test-threads: 1 2 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

#define KEEP() __asm__ volatile("" ::: "memory")
static int seen_flags[3], seen_exit[3], seen_team[3];
static uint64_t seen_task[3];

__attribute__((noinline)) void league(void) {
#pragma omp teams num_teams(3)
  {
    int t = omp_get_team_num();
    int flags = 0;
    ompt_data_t* td = NULL;
    ompt_frame_t* fr = NULL;
    if (t < 3 && rec_get_task_info(0, &flags, &td, &fr, NULL, NULL) == 2) {
      seen_flags[t] = flags;
      seen_exit[t] = fr && fr->exit_frame.ptr != NULL;
      seen_task[t] = td ? td->value : 0;
      seen_team[t] = 1;
    }
  }
  KEEP();
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  uint64_t initial = me->ev[1].task_id;
  int from = me->count;
  league();
  int b = rec_next(me, from, EV_PARALLEL_BEGIN);
  CHECK(b >= 0);
  if (b < 0) {
    KITE_TEST_END();
  }
  rec_event* pb = &me->ev[b];
  CHECK_EQ_LONG(pb->flags, ompt_parallel_league | ompt_parallel_invoker_runtime);
  CHECK_EQ_LONG(pb->n, 3);
  CHECK_EQ_LONG(pb->enc_task_id, initial);
  CHECK(returns_into(pb->ra, (void*)league));
  CHECK(pb->enter_frame != NULL);
  int at = b;
  for (int t = 0; t < 3; ++t) {
    int ib = rec_next(me, at + 1, EV_INITIAL_BEGIN);
    CHECK(ib > at);
    if (ib < 0) break;
    CHECK_EQ_LONG(me->ev[ib].index, t);
    CHECK_EQ_LONG(me->ev[ib].n, 3);
    CHECK(me->ev[ib].have_pd);
    int ie = rec_next(me, ib, EV_INITIAL_END);
    CHECK(ie > ib);
    if (ie < 0) break;
    CHECK_EQ_LONG(me->ev[ie].task_id, me->ev[ib].task_id);
    CHECK_EQ_LONG(me->ev[ie].index, t);
    CHECK(seen_team[t]);
    CHECK_EQ_LONG(seen_flags[t], ompt_task_initial);
    CHECK(seen_exit[t]);
    CHECK_EQ_LONG(seen_task[t], me->ev[ib].task_id);
    at = ie;
  }
  int e = rec_next(me, at, EV_PARALLEL_END);
  CHECK(e > at);
  if (e > at) {
    CHECK_EQ_LONG(me->ev[e].flags, ompt_parallel_league | ompt_parallel_invoker_runtime);
    CHECK_EQ_LONG(me->ev[e].enc_task_id, initial);
    CHECK(returns_into(me->ev[e].ra, (void*)league));
  }
  KITE_TEST_END();
}
