// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_CANCELLATION=true
/* cancel for / cancel sections: the construct is left early by every
 * thread, the flag is cleared when the construct ends (the next loop runs
 * completely), and cancel with a false if clause is a cancellation point. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 10; ++rep) {
    int done = 0, next_loop = 0, sec = 0;
#pragma omp parallel shared(done, next_loop, sec)
    {
#pragma omp for schedule(dynamic, 1)
      for (int i = 0; i < 100000; ++i) {
        if (i == 100) {
#pragma omp cancel for
        }
        if (i > 200) {
          /* Handed out after iteration 100: wait here until the cancel is
           * visible, so the outcome does not depend on timing. */
          for (;;) {
#pragma omp cancellation point for
          }
        }
#pragma omp cancellation point for
        __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
      }
#pragma omp for
      for (int i = 0; i < 1000; ++i) __atomic_add_fetch(&next_loop, 1, __ATOMIC_RELAXED);
#pragma omp sections
      {
#pragma omp section
        {
#pragma omp cancel sections
          __atomic_add_fetch(&sec, 100, __ATOMIC_RELAXED);
        }
#pragma omp section
        {
#pragma omp cancellation point sections
          __atomic_add_fetch(&sec, 1, __ATOMIC_RELAXED);
        }
      }
      int r = 0;
#pragma omp for
      for (int i = 0; i < 10; ++i) {
#pragma omp cancel for if (r)
        __atomic_add_fetch(&next_loop, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(done <= 200);
    CHECK_EQ_LONG(next_loop, 1010);
    CHECK(sec == 0 || sec == 1);
  }
  KITE_TEST_END();
}
