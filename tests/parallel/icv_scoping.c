// kite-test-threads: 1 2 4
/* nthreads-var and dyn-var are data-environment ICVs: omp_set_num_threads /
 * omp_set_dynamic inside a region change only the calling implicit task (and
 * the regions it starts), never its siblings nor the enclosing task. */
#include "kite_test.h"
#include "par_util.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  omp_set_max_active_levels(4);
  omp_set_num_threads(2);
  CHECK_EQ_LONG(omp_get_max_threads(), 2);

  int nested_size[2] = {0, 0}, sibling_max = 0, setter_max = 0, arrived = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (me == 0) {
      omp_set_num_threads(3);
      setter_max = omp_get_max_threads();
    }
    /* Make sure thread 0 has set its ICV before thread 1 looks. */
    __atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
    par_wait_at_least(&arrived, 2, 5.0);
    if (me == 1) sibling_max = omp_get_max_threads();
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) nested_size[me] = omp_get_num_threads();
    }
  }
  CHECK_EQ_LONG(setter_max, 3);
  CHECK_EQ_LONG(sibling_max, 2);
  CHECK_EQ_LONG(nested_size[0], 3);
  CHECK_EQ_LONG(nested_size[1], 2);
  CHECK_EQ_LONG(omp_get_max_threads(), 2); /* the initial task is unchanged */

  /* The next region starts from the initial task's ICVs again. */
  int again = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) again = omp_get_max_threads();
  }
  CHECK_EQ_LONG(again, 2);

  /* dyn-var is per task too. */
  int dyn_seen[2] = {-1, -1};
  arrived = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (me == 1) omp_set_dynamic(1);
    __atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
    par_wait_at_least(&arrived, 2, 5.0);
    dyn_seen[me] = omp_get_dynamic();
  }
  CHECK_EQ_LONG(dyn_seen[0], 0);
  CHECK_EQ_LONG(dyn_seen[1], 1);
  CHECK_EQ_LONG(omp_get_dynamic(), 0);

  /* num_threads clause does not change nthreads-var. */
#pragma omp parallel num_threads(3)
  {
    if (omp_get_thread_num() == 0) again = omp_get_max_threads();
  }
  CHECK_EQ_LONG(again, 2);
  CHECK_EQ_LONG(omp_get_max_threads(), 2);
  KITE_TEST_END();
}
