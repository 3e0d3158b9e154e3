// kite-test-threads: 1 2 4 8
/* With cancel-var false (the default) cancel does nothing: every iteration
 * and every task runs. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_cancellation(), 0);
  int done = 0, tasks = 0, reached = 0;
#pragma omp parallel shared(done, tasks, reached)
  {
#pragma omp for
    for (int i = 0; i < 1000; ++i) {
      if (i == 3) {
#pragma omp cancel for
      }
      __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
    }
#pragma omp single
#pragma omp taskgroup
    {
      for (int i = 0; i < 100; ++i) {
#pragma omp task shared(tasks)
        {
#pragma omp cancel taskgroup
          __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
        }
      }
    }
#pragma omp cancel parallel
    __atomic_add_fetch(&reached, 1, __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(done, 1000);
  CHECK_EQ_LONG(tasks, 100);
  CHECK_EQ_LONG(reached, omp_get_max_threads());
  KITE_TEST_END();
}
