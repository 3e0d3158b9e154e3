// kite-test-threads: 8
// kite-test-timeout: 60
/* 8 threads on (typically) 2 cores hammering barriers: oversubscribed
 * waiters must yield or sleep so that the threads they wait for can run. A
 * runtime that spins blindly takes minutes here and hits the timeout. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int passes = 0, team = 0;
#pragma omp parallel num_threads(8)
  {
    if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    for (int b = 0; b < 10000; ++b) {
#pragma omp barrier
    }
    __atomic_add_fetch(&passes, 1, __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(team, 8);
  CHECK_EQ_LONG(passes, 8);
  /* And a storm of short regions. */
  int count = 0;
  for (int r = 0; r < 2000; ++r) {
#pragma omp parallel num_threads(8)
    {
#pragma omp barrier
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(count, 8 * 2000);
  KITE_TEST_END();
}
