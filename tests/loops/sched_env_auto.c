/* kite-test-threads: 1 2 4
 * kite-test-env: OMP_SCHEDULE=auto */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_auto);
  run_loops();
  KITE_TEST_END();
}
