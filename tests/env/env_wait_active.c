/* OMP_WAIT_POLICY=active spins without a time limit, yet a team larger than
 * the machine (this runs with 4 and 8 threads on 2 cores) still makes
 * progress through barriers and joins.
 * kite-test-threads: 4 8
 * kite-test-env: OMP_WAIT_POLICY=active
 * kite-test-timeout: 60 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int n = omp_get_max_threads();
  long sum = 0;
  for (int r = 0; r < 200; ++r) {
#pragma omp parallel reduction(+ : sum)
    {
      sum += omp_get_thread_num();
#pragma omp barrier
#pragma omp barrier
    }
  }
  CHECK_EQ_LONG(sum, 200L * n * (n - 1) / 2);
  KITE_TEST_END();
}
