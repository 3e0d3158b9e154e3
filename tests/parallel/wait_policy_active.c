// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_WAIT_POLICY=active
// kite-test-timeout: 60
/* Barrier-heavy regions with waiters that spin (active policy), including
 * 8 threads on a 2-core machine, where spinning must not starve the thread
 * being waited for. */
#include "barrier_heavy.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(barrier_heavy_run(60, 40), 0);
  KITE_TEST_END();
}
