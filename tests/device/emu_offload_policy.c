// kite-test-compilers: gcc  -- target regions through gcc's offloading ABI
/* OMP_TARGET_OFFLOAD=disabled with KITE_DEVICES=2: "as if the only device
 * is the host device" (OpenMP 5.2 §21.2.8): no device is counted and a
 * target region shares the host's memory; device routines naming a device
 * number fail as for an absent device.
 * kite-test-threads: 1
 * kite-test-env: KITE_DEVICES=2 OMP_TARGET_OFFLOAD=disabled
 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 0);
  CHECK_EQ_LONG(omp_get_initial_device(), 0);
  int x = 1, host = 0;
#pragma omp target map(to : x) map(from : host)
  {
    x = 2;
    host = omp_is_initial_device();
  }
  CHECK_EQ_LONG(x, 2);
  CHECK_EQ_LONG(host, 1);
  CHECK(omp_target_alloc(16, 1) == NULL);
  KITE_TEST_END();
}
