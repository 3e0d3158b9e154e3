// Host teams through the LLVM ABI (__kmpc_push_num_teams,
// __kmpc_fork_teams), distribute (league-wide static schedules) and
// distribute parallel for.
#include <omp.h>
#include <string.h>

#include "kite_test.h"

#define N 1000
static int hits[N];

int main(void) {
  KITE_TEST_BEGIN();
  int nteams = -1, limit = -1, ids = 0;
#pragma omp teams num_teams(3) thread_limit(2)
  {
    if (omp_get_team_num() == 0) {
      nteams = omp_get_num_teams();
      limit = omp_get_thread_limit();
    }
    __atomic_or_fetch(&ids, 1 << omp_get_team_num(), __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(nteams, 3);
  CHECK_EQ_LONG(limit, 2);
  CHECK_EQ_LONG(ids, 7);

  // distribute: each iteration once across the league.
  memset(hits, 0, sizeof hits);
#pragma omp teams num_teams(4)
#pragma omp distribute
  for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 1;
  CHECK_EQ_LONG(bad, 0);

  memset(hits, 0, sizeof hits);
#pragma omp teams num_teams(3)
#pragma omp distribute dist_schedule(static, 7)
  for (int i = N - 1; i >= 0; i--) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 1;
  CHECK_EQ_LONG(bad, 0);

  // distribute parallel for: teams split the loop, threads split each part.
  memset(hits, 0, sizeof hits);
  long sum = 0;
#pragma omp teams num_teams(2) thread_limit(3) reduction(+ : sum)
#pragma omp distribute parallel for reduction(+ : sum)
  for (int i = 0; i < N; i++) {
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    sum += i;
  }
  bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 1;
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(sum, (long)N * (N - 1) / 2);

  // Parallel regions inside a team.
  int total = 0;
#pragma omp teams num_teams(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      total++;
    }
  }
  CHECK_EQ_LONG(total, 4);
  KITE_TEST_END();
}
