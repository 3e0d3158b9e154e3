/* kite-test-threads: 1 2 4 8
 * kite-test-env: OMP_SCHEDULE=static */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_static);
  run_loops();
  /* Unchunked static: contiguous, balanced blocks in thread order. */
  int n = team_size(), q = N / n, r = N % n;
  for (int i = 0; i < N; ++i) {
    int t = i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
    CHECK_EQ_LONG(owner[i], t);
  }
  KITE_TEST_END();
}
