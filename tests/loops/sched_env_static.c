/* kite-test-threads: 1 2 4 8
 * kite-test-env: OMP_SCHEDULE=static,2 */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_static);
  CHECK_EQ_LONG(chunk, 2);
  run_loops();
  /* static,2 is deterministic: chunk k goes to thread k mod n. */
  int n = team_size();
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(owner[i], (i / 2) % n);
  KITE_TEST_END();
}
