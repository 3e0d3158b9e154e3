/* The host teams construct (GOMP_teams_reg): league size, team numbers,
 * thread_limit per contention group, and teams distribute parallel for.
 * kite-test-threads: 1 2 4
 */
#include "kite_test.h"

/* gcc rejects most API calls and atomics directly inside a teams region;
 * going through a function reads the team's initial task all the same. */
static __attribute__((noinline)) int team_thread_limit(void) { return omp_get_thread_limit(); }
static __attribute__((noinline)) void bump(int* p) { __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }

#define N 1000

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_team_num(), 0);
  CHECK_EQ_LONG(omp_get_num_teams(), 1);

  int seen[8] = {0}, sizes[8] = {0}, limits[8] = {0}, par_ok[8] = {0};
#pragma omp teams num_teams(4) thread_limit(2)
  {
    int t = omp_get_team_num();
    seen[t]++;
    sizes[t] = omp_get_num_teams();
    limits[t] = team_thread_limit();
    int bad = 0, nthr = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
    {
      /* Threads of a team's parallel region see the team's number. */
      if (omp_get_team_num() != t || omp_get_num_teams() != 4) bad++;
      if (omp_get_thread_num() == 0) nthr = omp_get_num_threads();
    }
    par_ok[t] = bad == 0 && nthr >= 1 && nthr <= 2;
  }
  for (int t = 0; t < 4; ++t) {
    CHECK_EQ_LONG(seen[t], 1);
    CHECK_EQ_LONG(sizes[t], 4);
    CHECK_EQ_LONG(limits[t], 2);
    CHECK(par_ok[t]);
  }
  CHECK_EQ_LONG(seen[4], 0);
  /* After the league: no team, and the thread limit is back. */
  CHECK_EQ_LONG(omp_get_team_num(), 0);
  CHECK_EQ_LONG(omp_get_num_teams(), 1);
  CHECK(omp_get_thread_limit() > 2);

  /* Without num_teams the league size is positive and bounded by
   * nteams-var once set. */
  int league = 0;
#pragma omp teams
  {
    if (omp_get_team_num() == 0) league = omp_get_num_teams();
  }
  CHECK(league >= 1);
  omp_set_num_teams(3);
  CHECK_EQ_LONG(omp_get_max_teams(), 3);
  int count = 0;
#pragma omp teams
  bump(&count);
  CHECK(count >= 1 && count <= 3);

  /* teams distribute parallel for covers every iteration exactly once. */
  static int hit[N];
#pragma omp teams distribute parallel for num_teams(3)
  for (int i = 0; i < N; ++i) {
#pragma omp atomic
    hit[i]++;
  }
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(hit[i], 1);

  /* distribute alone splits iterations between teams. */
  int owner[N];
  for (int i = 0; i < N; ++i) owner[i] = -1;
#pragma omp teams num_teams(5)
#pragma omp distribute
  for (int i = 0; i < N; ++i) owner[i] = omp_get_team_num();
  int used[5] = {0};
  for (int i = 0; i < N; ++i) {
    CHECK(owner[i] >= 0 && owner[i] < 5);
    if (owner[i] >= 0 && owner[i] < 5) used[owner[i]] = 1;
  }
  for (int t = 0; t < 5; ++t) CHECK(used[t]);

  /* teams-thread-limit-var applies when thread_limit is absent. */
  omp_set_teams_thread_limit(1);
  CHECK_EQ_LONG(omp_get_teams_thread_limit(), 1);
  int tl = 0;
#pragma omp teams num_teams(2)
  {
    if (omp_get_team_num() == 1) tl = team_thread_limit();
  }
  CHECK_EQ_LONG(tl, 1);
  KITE_TEST_END();
}
