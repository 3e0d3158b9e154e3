// kite-test-compilers: gcc  -- target regions through gcc's offloading ABI
/* An invalid KITE_DEVICES gets one warning naming the variable and the
 * value used instead (0: no device), and the program then runs as without
 * the variable: target regions take the host fallback.
 * kite-test-threads: 1
 * kite-test-env: KITE_DEVICES=-3
 * kite-test-expect-stderr: KITE_DEVICES='-3' is invalid.*using 0.*PASS
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
  CHECK_EQ_LONG(x, 2); /* shared memory: the host fallback */
  CHECK_EQ_LONG(host, 1);
  KITE_TEST_END();
}
