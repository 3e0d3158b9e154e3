/* A target region's initial task and each team's initial task start new
 * contention groups: their thread limit is counted afresh, not against the
 * threads of the group that encountered the construct.
 * kite-test-threads: 2
 * kite-test-env: OMP_THREAD_LIMIT=2 OMP_DYNAMIC=false
 */
#include "kite_test.h"

static __attribute__((noinline)) int team_threads(int want) {
  int got = 0;
#pragma omp parallel num_threads(want)
  if (omp_get_thread_num() == 0) got = omp_get_num_threads();
  return got;
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_thread_limit(), 2);
  CHECK_EQ_LONG(team_threads(4), 2);

  /* Both threads of a full group (2 of 2 busy) start target regions, each
   * of which may again use 2 threads. (clang without offload targets
   * compiles a target region as plain host code that never calls the
   * runtime: the region stays in the encountering group.) */
#ifndef __clang__
  int inner[2] = {0, 0}, outer = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num(), got = 0;
    if (omp_get_thread_num() == 0) outer = omp_get_num_threads();
#pragma omp target map(from : got)
    got = team_threads(2);
    inner[me] = got;
  }
  CHECK_EQ_LONG(outer, 2);
  CHECK_EQ_LONG(inner[0], 2);
  CHECK_EQ_LONG(inner[1], 2);
#endif

  /* The encountering group's count is intact afterwards. */
  CHECK_EQ_LONG(team_threads(4), 2);

  /* Host teams: each team is a group of its own with the thread_limit
   * clause as its limit, even above OMP_THREAD_LIMIT. */
  int per_team[3] = {0, 0, 0};
#pragma omp teams num_teams(3) thread_limit(3)
  per_team[omp_get_team_num()] = team_threads(3);
  for (int t = 0; t < 3; ++t) CHECK_EQ_LONG(per_team[t], 3);
  CHECK_EQ_LONG(omp_get_thread_limit(), 2);
  CHECK_EQ_LONG(team_threads(4), 2);
  KITE_TEST_END();
}
