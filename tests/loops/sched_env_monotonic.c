/* kite-test-threads: 1 2 4
 * kite-test-env: OMP_SCHEDULE=monotonic:dynamic,3 */
#include "sched_env.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind & ~omp_sched_monotonic, omp_sched_dynamic);
  CHECK_EQ_LONG(chunk, 3);
  run_loops();
  check_chunk_runs(3, 1);
  /* Monotonic: each thread sees its iterations in increasing order. */
  int bad = 0;
#pragma omp parallel
  {
    int last = -1;
#pragma omp for schedule(runtime)
    for (int i = 0; i < N; ++i) {
      if (i <= last) __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
      last = i;
    }
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
