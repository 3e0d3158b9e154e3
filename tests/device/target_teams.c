/* teams nested in a target region (GOMP_teams4, gcc 12): the league runs
 * on the host, one team after the other, in the target's initial task.
 * kite-test-threads: 1 2 4
 */
#include "kite_test.h"

/* gcc rejects most API calls and atomics directly inside a teams region;
 * going through a function reads the team's initial task all the same. */
static __attribute__((noinline)) int team_thread_limit(void) { return omp_get_thread_limit(); }

#define N 4096

int main(void) {
  KITE_TEST_BEGIN();
  int runs[8] = {0}, sizes[8] = {0}, limits[8] = {0};
  int after_num = -1, after_size = -1;
#pragma omp target map(tofrom : runs, sizes, limits, after_num, after_size)
  {
#pragma omp teams num_teams(4) thread_limit(3)
    {
      int t = omp_get_team_num();
      runs[t]++;
      sizes[t] = omp_get_num_teams();
      limits[t] = team_thread_limit();
    }
    /* clang rejects statements beside the teams construct in a target
     * region (gcc runs them in the target's initial task, after the
     * league). */
#ifndef __clang__
    after_num = omp_get_team_num();
    after_size = omp_get_num_teams();
#endif
  }
  for (int t = 0; t < 4; ++t) {
    CHECK_EQ_LONG(runs[t], 1);
    CHECK_EQ_LONG(sizes[t], 4);
    CHECK_EQ_LONG(limits[t], 3);
  }
  CHECK_EQ_LONG(runs[4], 0);
#ifndef __clang__
  CHECK_EQ_LONG(after_num, 0);
  CHECK_EQ_LONG(after_size, 1);
#endif

  /* Combined construct, with a parallel region in every team. */
  int tr[8] = {0};
  int bad = 0;
#pragma omp target teams num_teams(3) map(tofrom : tr, bad)
  {
    int t = omp_get_team_num();
#pragma omp parallel num_threads(2)
    {
      if (omp_get_team_num() != t) {
#pragma omp atomic
        bad++;
      }
      if (omp_get_thread_num() == 0) tr[t] += 1;
    }
  }
  CHECK_EQ_LONG(bad, 0);
  for (int t = 0; t < 3; ++t) CHECK_EQ_LONG(tr[t], 1);

  /* target teams distribute parallel for: the usual offload loop. */
  static double x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = 1;
  }
  double a = 2.0;
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y) firstprivate(a)
  for (int i = 0; i < N; ++i) y[i] += a * x[i];
  for (int i = 0; i < N; ++i) CHECK(y[i] == 1 + 2.0 * i);

  /* Reduction across teams and threads. */
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) num_teams(4) map(tofrom : sum)
  for (int i = 1; i <= N; ++i) sum += i;
  CHECK_EQ_LONG(sum, (long)N * (N + 1) / 2);

  /* Outside every teams region the league is one team. */
  CHECK_EQ_LONG(omp_get_team_num(), 0);
  CHECK_EQ_LONG(omp_get_num_teams(), 1);
  KITE_TEST_END();
}
