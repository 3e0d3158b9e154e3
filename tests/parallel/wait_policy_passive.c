// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_WAIT_POLICY=passive
// kite-test-timeout: 60
/* Barrier-heavy regions with waiters that sleep at once (passive policy):
 * every wake-up must be delivered, or a thread sleeps forever. */
#include "barrier_heavy.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(barrier_heavy_run(60, 40), 0);
  KITE_TEST_END();
}
