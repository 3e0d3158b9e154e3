// kite-test-threads: 2 4
/* A parallel region started from inside an explicit task: the task is the
 * new team's parent, the level goes up by one inside and comes back after,
 * and the task's thread continues its own team's work afterwards. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  int total = 0, bad = 0, tasks_done = 0;
  for (int r = 0; r < 100; ++r) {
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      for (int k = 0; k < 4; ++k) {
#pragma omp task
        {
          int lvl = omp_get_level(), outer_tid = omp_get_thread_num();
          int size = 0;
#pragma omp parallel num_threads(2)
          {
            if (omp_get_thread_num() == 0) size = omp_get_num_threads();
            __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
            if (omp_get_level() != lvl + 1 || omp_get_ancestor_thread_num(lvl) != outer_tid)
              __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp barrier
          }
          if (size != 2 || omp_get_level() != lvl || omp_get_thread_num() != outer_tid)
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
          __atomic_add_fetch(&tasks_done, 1, __ATOMIC_RELAXED);
        }
      }
      /* The single's implicit barrier completes the tasks. */
      if (__atomic_load_n(&tasks_done, __ATOMIC_RELAXED) != 4 * (r + 1))
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(total, 100 * 4 * 2);
  CHECK_EQ_LONG(tasks_done, 100 * 4);
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
