/* The league of a teams construct, host teams and teams in a target region
 * (gcc: GOMP_teams_reg, GOMP_teams4 in the target's initial task; clang:
 * __kmpc_fork_teams): parallel_begin/end with league | invoker_runtime and
 * the call's return address in the program, one initial task per team
 * (implicit_task, ompt_task_initial, index = team number), each with
 * parallel data of its own, fresh at its begin (not the league's: a tool
 * initializing each initial task's parallel data, as LLVM's OMPT test tool
 * does, would overwrite the league's, and the league's end would carry
 * another value than its begin), and inside each team
 * ompt_get_parallel_info(0) answers the league
 * (its data, the number of teams) and ompt_get_task_info(0) the team's
 * initial task, with parallel_data NULL as for every initial task
 * (6.0 §36.15).
 * kite-test-threads: 1 2 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int marker;
static int in_program(const void* ra) {
  Dl_info a, b;
  return ra && dladdr(ra, &a) && dladdr((void*)&marker, &b) && a.dli_fbase == b.dli_fbase;
}

#define NTEAMS 3
struct seen {
  int ok;
  uint64_t pd, task;
  int size, flags;
};
static struct seen seen[NTEAMS];

static void look(void) {
  int t = omp_get_team_num();
  if (t < 0 || t >= NTEAMS) return;
  ompt_data_t* pd = NULL;
  ompt_data_t* td = NULL;
  static ompt_data_t unset;
  ompt_data_t* tpd = &unset;
  int size = 0, flags = 0;
  if (rec_get_parallel_info(0, &pd, &size) != 2 || !pd) return;
  if (rec_get_task_info(0, &flags, &td, NULL, &tpd, NULL) != 2 || !td || tpd) return;
  seen[t].pd = pd->value;
  seen[t].size = size;
  seen[t].task = td->value;
  seen[t].flags = flags;
  seen[t].ok = 1;
}

__attribute__((noinline)) void host_league(void) {
#pragma omp teams num_teams(NTEAMS)
  look();
}

__attribute__((noinline)) void target_league(void) {
#pragma omp target teams num_teams(NTEAMS)
  look();
}

static void check_league(rec_thread* me, int from, const char* what) {
  int b = rec_next(me, from, EV_PARALLEL_BEGIN);
  CHECK(b >= 0);
  if (b < 0) return;
  rec_event* pb = &me->ev[b];
  CHECK_EQ_LONG(pb->flags, ompt_parallel_league | ompt_parallel_invoker_runtime);
  CHECK_EQ_LONG(pb->n, NTEAMS);
  CHECK(in_program(pb->ra));
  CHECK(pb->enter_frame != NULL);
  int at = b;
  for (int t = 0; t < NTEAMS; ++t) {
    int ib = rec_next(me, at + 1, EV_INITIAL_BEGIN);
    CHECK(ib > at);
    if (ib < 0) return;
    rec_event* e = &me->ev[ib];
    CHECK_EQ_LONG(e->index, t);
    CHECK_EQ_LONG(e->n, NTEAMS);
    CHECK(e->have_pd);
    CHECK_EQ_LONG(e->pd_preset, 0);
    CHECK(e->parallel_id != pb->parallel_id);
    int ie = rec_next(me, ib, EV_INITIAL_END);
    CHECK(ie > ib);
    if (ie < 0) return;
    CHECK_EQ_LONG(me->ev[ie].task_id, e->task_id);
    CHECK_EQ_LONG(me->ev[ie].index, t);
    CHECK(seen[t].ok);
    CHECK_EQ_LONG(seen[t].pd, pb->parallel_id);
    CHECK_EQ_LONG(seen[t].size, NTEAMS);
    CHECK_EQ_LONG(seen[t].task, e->task_id);
    CHECK_EQ_LONG(seen[t].flags, ompt_task_initial);
    at = ie;
  }
  int pe = rec_next(me, at, EV_PARALLEL_END);
  CHECK(pe > at);
  if (pe < 0) return;
  CHECK_EQ_LONG(me->ev[pe].parallel_id, pb->parallel_id);
  CHECK_EQ_LONG(me->ev[pe].flags, ompt_parallel_league | ompt_parallel_invoker_runtime);
  CHECK_EQ_LONG(me->ev[pe].enc_task_id, pb->enc_task_id);
  CHECK(in_program(me->ev[pe].ra));
  if (kite_test_failures) fprintf(stderr, "after the %s league\n", what);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_parallel_begin], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_implicit_task], ompt_set_always);
  rec_thread* me = rec_me();
  int from = me->count;
  host_league();
  check_league(me, from, "host");

  memset(seen, 0, sizeof seen);
  from = me->count;
  target_league();
  check_league(me, from, "target");
  KITE_TEST_END();
}
