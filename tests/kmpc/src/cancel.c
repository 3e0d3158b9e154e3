// kite-test-env: OMP_CANCELLATION=true
// cancel and cancellation points through the LLVM ABI (__kmpc_cancel,
// __kmpc_cancellationpoint, __kmpc_cancel_barrier): parallel, for,
// taskgroup.
#include <omp.h>

#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
  int nt = omp_get_max_threads();

  // cancel parallel: threads leave at the next cancellation point.
  int after = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
#pragma omp barrier
#pragma omp atomic
    after++;
  }
  // Thread 0 cancels before the barrier, so nobody passes it.
  CHECK_EQ_LONG(after, 0);

  // cancel for: iterations after the cancel are skipped by the thread that
  // cancelled; the construct ends for all.
  long ran = 0;
  int region_done = 0;
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 10000; i++) {
      if (i == 10) {
#pragma omp cancel for
      }
#pragma omp cancellation point for
#pragma omp atomic
      ran++;
    }
    // The region goes on after a cancelled loop.
#pragma omp atomic
    region_done++;
  }
  CHECK(ran < 10000);
  CHECK_EQ_LONG(region_done, nt);

  // A new loop in the same region after a cancelled one runs fully.
  long full = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 100; i++) {
      if (i == 0) {
#pragma omp cancel for
      }
    }
#pragma omp for reduction(+ : full)
    for (int i = 0; i < 100; i++) full++;
  }
  CHECK_EQ_LONG(full, 100);

  // cancel taskgroup: tasks that have not started are discarded; a task
  // that started waits at a cancellation point and sees the request.
  int started = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp cancel taskgroup
      }
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(started)
        {
          __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
        }
      }
    }
  }
  CHECK(started <= 100);
  KITE_TEST_END();
}
