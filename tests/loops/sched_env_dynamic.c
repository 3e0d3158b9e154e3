/* kite-test-threads: 1 2 4 8
 * kite-test-env: OMP_SCHEDULE=dynamic,4 */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_dynamic);
  CHECK_EQ_LONG(chunk, 4);
  run_loops();
  check_chunk_runs(4, 1);
  KITE_TEST_END();
}
