// kite-test-threads: 1 2
/* omp_in_explicit_task (OpenMP 5.2): true in explicit task regions
 * (deferred, undeferred, included, taskloop), false in the initial task, an
 * implicit task, a teams region's initial task and a target region's. gcc
 * 12's omp.h does not declare it yet; the routine is Kite's either way. */
#include "kite_test.h"

extern int omp_in_explicit_task(void);

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_in_explicit_task(), 0);
  int implicit = -1, deferred = -1, undeferred = -1, included = -1, loop = 1, league = -1,
      target = -1;
#pragma omp parallel shared(implicit, deferred, undeferred, included, loop)
  {
#pragma omp single
    {
      implicit = omp_in_explicit_task();
#pragma omp task shared(deferred)
      deferred = omp_in_explicit_task();
#pragma omp task if (0) shared(undeferred)
      undeferred = omp_in_explicit_task();
#pragma omp task final(1) shared(included)
      {
#pragma omp task shared(included)
        included = omp_in_explicit_task();
      }
#pragma omp taskloop shared(loop) num_tasks(4)
      for (int i = 0; i < 8; ++i)
        if (!omp_in_explicit_task()) __atomic_store_n(&loop, 0, __ATOMIC_RELAXED);
    }
  }
#pragma omp teams num_teams(2)
  if (omp_get_team_num() == 0) league = omp_in_explicit_task();
#pragma omp target map(from: target)
  target = omp_in_explicit_task();
  CHECK_EQ_LONG(implicit, 0);
  CHECK_EQ_LONG(deferred, 1);
  CHECK_EQ_LONG(undeferred, 1);
  CHECK_EQ_LONG(included, 1);
  CHECK_EQ_LONG(loop, 1);
  CHECK_EQ_LONG(league, 0);
  CHECK_EQ_LONG(target, 0);
  KITE_TEST_END();
}
