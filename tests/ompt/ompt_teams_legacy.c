/* A teams construct in a target region as gcc 11 and older compile it: the
 * target body calls GOMP_teams (GOMP_4.0), which runs one team and marks no
 * end of the league. Tools still see the league, nested in the target
 * region's initial task: parallel_begin (flags league | invoker_runtime,
 * GOMP_teams's return address in the program), the team's initial task
 * (implicit_task, ompt_task_initial, index 0, with parallel data of its own,
 * ompt_data_none at its begin, not the league's), and
 * both ended when the target region ends, before its initial task's end.
 * Inside the team, ompt_get_parallel_info(0) answers the league. Called
 * here directly, as an old binary would.
 * kite-test-compilers: gcc -- GOMP_teams is gcc's entry point
 * kite-test-threads: 1 2 */
#include "kite_test.h"

#include <omp-tools.h>

extern void GOMP_teams(unsigned num_teams, unsigned thread_limit);

enum { TARGET_INITIAL_BEGIN = 1, TARGET_INITIAL_END, LEAGUE_BEGIN, LEAGUE_END, TEAM_BEGIN,
       TEAM_END, INNER_PARALLEL, TARGET_TASK_END };
#define MAXLOG 64
static int log_ev[MAXLOG], nlog;
static const void* league_ra;
static ompt_data_t* league_data;
static ompt_data_t* team_region_data;
static uint64_t team_region_value = 99;
static unsigned team_index = 99, league_requested;
static int league_flags;
static ompt_get_parallel_info_t get_parallel_info;
static __thread int in_target;

static void add(int ev) {
  if (nlog < MAXLOG) log_ev[nlog++] = ev;
}

static void on_parallel_begin(ompt_data_t* enc, const ompt_frame_t* f, ompt_data_t* pd,
                              unsigned req, int flags, const void* ra) {
  (void)enc, (void)f;
  if (!in_target) return;
  if (flags & ompt_parallel_league) {
    add(LEAGUE_BEGIN);
    league_ra = ra;
    league_data = pd;
    league_flags = flags;
    league_requested = req;
  } else {
    add(INNER_PARALLEL);
  }
}

static void on_parallel_end(ompt_data_t* pd, ompt_data_t* enc, int flags, const void* ra) {
  (void)enc, (void)ra;
  if (in_target && (flags & ompt_parallel_league) && pd == league_data) add(LEAGUE_END);
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                             unsigned n, unsigned index, int flags) {
  (void)td, (void)n;
  if (!(flags & ompt_task_initial)) return;
  if (ep == ompt_scope_begin && in_target && nlog && log_ev[nlog - 1] == LEAGUE_BEGIN) {
    add(TEAM_BEGIN);
    team_index = index;
    team_region_data = pd;
    team_region_value = pd ? pd->value : 99;
    return;
  }
  if (ep == ompt_scope_end && in_target && nlog && log_ev[nlog - 1] != TARGET_INITIAL_BEGIN &&
      index == 0) {
    add(TEAM_END);
    return;
  }
  /* The target region's own initial task (index 1) ends after the league. */
  if (ep == ompt_scope_end && in_target && index == 1) add(TARGET_TASK_END);
}

static void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep, int dev,
                          ompt_data_t* task_data, ompt_data_t* target_task_data,
                          ompt_data_t* target_data, const void* ra) {
  (void)kind, (void)dev, (void)task_data, (void)target_task_data, (void)target_data, (void)ra;
  if (ep == ompt_scope_begin) {
    in_target = 1;
    add(TARGET_INITIAL_BEGIN);
  } else {
    add(TARGET_INITIAL_END);
    in_target = 0;
  }
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_target_emi, (ompt_callback_t)on_target_emi);
}
#include "support/small_tool.h"

static int marker;
static int in_program(const void* ra) {
  Dl_info a, b;
  return ra && dladdr(ra, &a) && dladdr((void*)&marker, &b) && a.dli_fbase == b.dli_fbase;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* the tool starts before the target construct */
  ompt_get_parallel_info_t info = get_parallel_info;
  CHECK(info != NULL);
  int team = -1, nteams = -1, info_ret = 0, size = 0, inner = 0;
  ompt_data_t* pd = NULL;
#pragma omp target map(tofrom : team, nteams, info_ret, size, pd, inner) firstprivate(info)
  {
    GOMP_teams(3, 0);
    team = omp_get_team_num();
    nteams = omp_get_num_teams();
    info_ret = info(0, &pd, &size);
#pragma omp parallel num_threads(2) reduction(+ : inner)
    inner = 1;
  }
  CHECK(info_ret == 2 && pd == league_data && size == 1);
  CHECK_EQ_LONG(team, 0);
  CHECK_EQ_LONG(nteams, 1);
  CHECK(inner >= 1);
  /* target begin, league begin, team begin, the nested region, team end,
   * league end, the target's initial task end, target end. */
  int want[] = {TARGET_INITIAL_BEGIN, LEAGUE_BEGIN, TEAM_BEGIN, INNER_PARALLEL,
                TEAM_END, LEAGUE_END, TARGET_TASK_END, TARGET_INITIAL_END};
  CHECK_EQ_LONG(nlog, (long)(sizeof want / sizeof want[0]));
  for (int i = 0; i < nlog && i < (int)(sizeof want / sizeof want[0]); ++i)
    if (log_ev[i] != want[i]) {
      fprintf(stderr, "event %d: %d, expected %d\n", i, log_ev[i], want[i]);
      CHECK(0);
    }
  CHECK(in_program(league_ra));
  CHECK_EQ_LONG(league_flags, ompt_parallel_league | ompt_parallel_invoker_runtime);
  CHECK_EQ_LONG(league_requested, 1);
  CHECK_EQ_LONG(team_index, 0);
  CHECK(team_region_data != NULL && team_region_data != league_data);
  CHECK_EQ_LONG(team_region_value, 0);
  KITE_TEST_END();
}
