/* Device and teams query/set routines on a runtime whose only device is
 * the host, and the warnings bad arguments get.
 * kite-test-threads: 1 2
 * kite-test-expect-stderr: omp_set_default_device\(-3\).*omp_set_num_teams\(0\).*omp_set_teams_thread_limit\(-2\).*PASS
 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 0);
  CHECK_EQ_LONG(omp_get_initial_device(), omp_get_num_devices());
  CHECK_EQ_LONG(omp_get_device_num(), omp_get_initial_device());
  CHECK_EQ_LONG(omp_is_initial_device(), 1);
  CHECK_EQ_LONG(omp_get_default_device(), 0);

  /* default-device-var is a data-environment ICV: per task. */
  omp_set_default_device(omp_get_initial_device());
  CHECK_EQ_LONG(omp_get_default_device(), omp_get_initial_device());
  int inner = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      omp_set_default_device(0);
      inner = omp_get_default_device();
    }
  }
  CHECK_EQ_LONG(inner, 0);
  omp_set_default_device(-3); /* no such device: warned, still stored */
  CHECK_EQ_LONG(omp_get_default_device(), -3);
  int ran = 0;
#pragma omp target map(tofrom : ran)
  ran = omp_is_initial_device(); /* falls back to the host (with a warning) */
  CHECK_EQ_LONG(ran, 1);
  omp_set_default_device(0);

  /* teams ICVs */
  CHECK(omp_get_max_teams() >= 1);
  omp_set_num_teams(6);
  CHECK_EQ_LONG(omp_get_max_teams(), 6);
  omp_set_num_teams(0); /* warned, unchanged */
  CHECK_EQ_LONG(omp_get_max_teams(), 6);
  CHECK(omp_get_teams_thread_limit() >= 1);
  omp_set_teams_thread_limit(3);
  CHECK_EQ_LONG(omp_get_teams_thread_limit(), 3);
  omp_set_teams_thread_limit(-2); /* warned, unchanged */
  CHECK_EQ_LONG(omp_get_teams_thread_limit(), 3);

  /* Inside a target region: still the host device. */
  int r_init = -1, r_dev = -1, r_ndev = -1;
#pragma omp target map(from : r_init, r_dev, r_ndev)
  {
    r_init = omp_is_initial_device();
    r_dev = omp_get_device_num();
    r_ndev = omp_get_num_devices();
  }
  CHECK_EQ_LONG(r_init, 1);
  CHECK_EQ_LONG(r_dev, omp_get_initial_device());
  CHECK_EQ_LONG(r_ndev, 0);
  KITE_TEST_END();
}
