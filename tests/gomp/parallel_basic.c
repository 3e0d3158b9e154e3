/* kite-test-threads: 1 2 4 8 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int count = 0, after = 0;
  for (int r = 0; r < 1000; ++r) {
#pragma omp parallel num_threads(4)
    {
      __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
      __atomic_fetch_add(&after, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(count, 4000);
  CHECK_EQ_LONG(after, 4000);
  KITE_TEST_END();
}
