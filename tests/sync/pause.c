/* omp_pause_resource(_all): 0 for the host with a valid kind, non-zero for
 * an invalid device or kind; parallel regions work again after each pause.
 * kite-test-threads: 1 2 4
 */
#include "kite_test.h"

static int run_region(void) {
  int count = 0;
#pragma omp parallel reduction(+ : count)
  count += 1;
  return count;
}

/* omp_initial_device (OpenMP 5.2; not in gcc 12's omp.h) names the host too. */
enum { kInitialDevice = -1 };

int main(void) {
  KITE_TEST_BEGIN();
  const int n = run_region();
  CHECK(n == omp_get_max_threads());

  CHECK_EQ_LONG(omp_pause_resource(omp_pause_soft, omp_get_initial_device()), 0);
  CHECK_EQ_LONG(run_region(), n);
  CHECK_EQ_LONG(omp_pause_resource(omp_pause_hard, kInitialDevice), 0);
  CHECK_EQ_LONG(run_region(), n);
  CHECK_EQ_LONG(omp_pause_resource_all(omp_pause_soft), 0);
  CHECK_EQ_LONG(run_region(), n);
  CHECK_EQ_LONG(omp_pause_resource_all(omp_pause_hard), 0);
  CHECK_EQ_LONG(run_region(), n);

  /* No such device. */
  CHECK(omp_pause_resource(omp_pause_soft, omp_get_num_devices() + 5) != 0);
  CHECK(omp_pause_resource(omp_pause_soft, -7) != 0);
  /* No such kind. */
  CHECK(omp_pause_resource((omp_pause_resource_t)7, omp_get_initial_device()) != 0);
  CHECK(omp_pause_resource_all((omp_pause_resource_t)0) != 0);
  CHECK_EQ_LONG(run_region(), n);
  KITE_TEST_END();
}
