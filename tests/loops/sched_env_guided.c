/* kite-test-threads: 1 2 4 8
 * kite-test-env: OMP_SCHEDULE=guided,5 */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_guided);
  CHECK_EQ_LONG(chunk, 5);
  run_loops();
  /* The first chunk holds at least 5 iterations. */
  check_chunk_runs(5, 0);
  /* omp_set_schedule overrides the environment for later loops. */
  omp_set_schedule(omp_sched_static, 1);
  run_loops();
  int n = team_size();
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(owner[i], i % n);
  KITE_TEST_END();
}
