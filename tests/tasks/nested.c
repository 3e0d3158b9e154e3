// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_MAX_ACTIVE_LEVELS=3
/* Tasks and nested parallel regions: a task that starts a parallel region
 * whose threads create and wait for their own tasks; tasks of an inner team
 * never run on the outer team's threads (each team's barrier drains its
 * own tasks); a taskgroup spanning a nested region; repeated hot-team reuse
 * with tasks left to the end-of-region barrier. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int inner_total = 0, wrong_team = 0, outer_total = 0;
#pragma omp parallel num_threads(2) shared(inner_total, wrong_team, outer_total)
  {
#pragma omp single
    for (int k = 0; k < 4; ++k) {
#pragma omp task shared(inner_total, wrong_team, outer_total)
      {
        int level = omp_get_level();
#pragma omp parallel num_threads(3) shared(inner_total, wrong_team)
        {
          for (int i = 0; i < 20; ++i) {
#pragma omp task shared(inner_total, wrong_team) firstprivate(level)
            {
              if (omp_get_level() != level + 1) __atomic_store_n(&wrong_team, 1, __ATOMIC_RELAXED);
              __atomic_add_fetch(&inner_total, 1, __ATOMIC_RELAXED);
            }
          }
#pragma omp taskwait
        }
        __atomic_add_fetch(&outer_total, 1, __ATOMIC_RELAXED);
      }
    }
  }
  CHECK_EQ_LONG(wrong_team, 0);
  CHECK_EQ_LONG(outer_total, 4);
  /* inner teams may be smaller than asked when threads run out */
  CHECK(inner_total >= 4 * 20 && inner_total <= 4 * 3 * 20);
  CHECK_EQ_LONG(inner_total % 20, 0);

  /* A taskgroup around a nested region created inside a task. */
  int tg_total = 0;
#pragma omp parallel shared(tg_total)
#pragma omp single
#pragma omp taskgroup
  {
#pragma omp task shared(tg_total)
    {
#pragma omp parallel num_threads(2) shared(tg_total)
      {
#pragma omp task shared(tg_total)
        __atomic_add_fetch(&tg_total, 1, __ATOMIC_RELAXED);
      }
#pragma omp task shared(tg_total)
      __atomic_add_fetch(&tg_total, 100, __ATOMIC_RELAXED);
    }
  }
  CHECK(tg_total == 101 || tg_total == 102);

  /* Hot team reuse: many regions, tasks left for the end barrier. */
  long sum = 0;
  for (int r = 0; r < 300; ++r) {
#pragma omp parallel shared(sum)
    {
      for (int i = 0; i < 5; ++i) {
#pragma omp task shared(sum)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
      }
    }
  }
  CHECK_EQ_LONG(sum, 300L * 5 * omp_get_max_threads());
  KITE_TEST_END();
}
