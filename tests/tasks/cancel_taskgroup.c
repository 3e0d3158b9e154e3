// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_CANCELLATION=true
/* Cancelling a taskgroup discards its tasks that have not started; the
 * taskgroup still ends normally; other taskgroups are unaffected;
 * cancellation points inside tasks observe it. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_cancellation(), 1);
  int ran = 0, saw_cancel = 0, other = 0;
#pragma omp parallel shared(ran, saw_cancel, other)
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 2000; ++i) {
#pragma omp task shared(ran, saw_cancel) firstprivate(i)
        {
          if (i == 10) {
#pragma omp cancel taskgroup
          }
#pragma omp cancellation point taskgroup
          __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
          for (volatile int k = 0; k < 2000; ++k) {
          }
        }
      }
    }
#pragma omp taskgroup
    {
      for (int i = 0; i < 100; ++i) {
#pragma omp task shared(other)
        __atomic_add_fetch(&other, 1, __ATOMIC_RELAXED);
      }
    }
  }
  /* The cancel happens early: most of the 2000 tasks never run. */
  CHECK(ran < 1990);
  CHECK_EQ_LONG(other, 100);

  /* A task that cancels its taskgroup creates no more tasks in it. */
  int after = 0, gen_done = 0;
#pragma omp parallel shared(after, gen_done)
#pragma omp single
#pragma omp taskgroup
  {
#pragma omp task shared(after, gen_done)
    {
#pragma omp cancel taskgroup
      for (int i = 0; i < 100; ++i) {
#pragma omp task shared(after)
        __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
      }
      gen_done = 1;
    }
  }
  CHECK_EQ_LONG(after, 0);

  /* cancel taskgroup inside a taskloop cancels the taskloop's tasks. */
  int iters = 0;
#pragma omp parallel shared(iters)
#pragma omp single
  {
#pragma omp taskloop grainsize(1) shared(iters)
    for (int i = 0; i < 4000; ++i) {
      if (i == 0) {
#pragma omp cancel taskgroup
      }
      __atomic_add_fetch(&iters, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK(iters < 4000);
  (void)saw_cancel;
  KITE_TEST_END();
}
