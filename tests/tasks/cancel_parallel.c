// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_CANCELLATION=true
/* cancel parallel: threads waiting in a barrier leave, cancellation points
 * report it, queued tasks are discarded, and the region ends cleanly; the
 * next region is unaffected. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 20; ++rep) {
    int reached_end = 0, tasks_ran = 0;
#pragma omp parallel shared(reached_end, tasks_ran)
    {
      if (omp_get_thread_num() == 0) {
        for (int i = 0; i < 1000; ++i) {
#pragma omp task shared(tasks_ran)
          {
            for (volatile int k = 0; k < 1000; ++k) {
            }
            __atomic_add_fetch(&tasks_ran, 1, __ATOMIC_RELAXED);
          }
        }
#pragma omp cancel parallel
      }
#pragma omp barrier
#pragma omp cancellation point parallel
      __atomic_add_fetch(&reached_end, 1, __ATOMIC_RELAXED);
    }
    CHECK_EQ_LONG(reached_end, 0);
    CHECK(tasks_ran <= 1000);
    int n = 0;
#pragma omp parallel reduction(+ : n)
    {
#pragma omp barrier
      n = 1;
    }
    CHECK_EQ_LONG(n, omp_get_max_threads());
  }
  KITE_TEST_END();
}
