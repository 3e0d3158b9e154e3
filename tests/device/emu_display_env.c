// kite-test-compilers: gcc  -- a plain program; the variable is Kite's
/* OMP_DISPLAY_ENV=verbose lists the number of emulated devices among
 * Kite's own settings, and the count is what omp_get_num_devices says.
 * kite-test-threads: 1
 * kite-test-env: KITE_DEVICES=3 OMP_DISPLAY_ENV=verbose
 * kite-test-expect-stderr: KITE_DEVICES = '3'.*PASS
 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 3);
  CHECK_EQ_LONG(omp_get_initial_device(), 3);
  KITE_TEST_END();
}
