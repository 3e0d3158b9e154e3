// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_THREAD_LIMIT=3 OMP_MAX_ACTIVE_LEVELS=4
/* OMP_THREAD_LIMIT=3 bounds the whole contention group: no team, and no set
 * of concurrently running nested teams, may hold more than 3 threads. Each
 * outer thread starts an inner region at the same time as the others (they
 * rendezvous inside the inner regions, so all inner teams are alive at once);
 * the sum of the inner team sizes is the group's thread count. */
#include "kite_test.h"
#include "par_util.h"

#define LIMIT 3

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_thread_limit(), LIMIT);

  int outer = -1;
#pragma omp parallel num_threads(8)
  {
    if (omp_get_thread_num() == 0) outer = omp_get_num_threads();
    CHECK_EQ_LONG(omp_get_thread_limit(), LIMIT);
  }
  CHECK(outer >= 1 && outer <= LIMIT);
  CHECK_EQ_LONG(outer, LIMIT);  /* nothing else is running: all 3 granted */

  for (int round = 0; round < 50; ++round) {
    int live = 0, max_live = 0, entered = 0, inner_sum = 0, outer_n = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp master
      outer_n = omp_get_num_threads();
      /* Both outer threads fork at about the same time. */
#pragma omp barrier
#pragma omp parallel num_threads(3)
      {
        int now = __atomic_add_fetch(&live, 1, __ATOMIC_ACQ_REL);
        par_atomic_max(&max_live, now);
        if (omp_get_thread_num() == 0) {
          __atomic_add_fetch(&inner_sum, omp_get_num_threads(), __ATOMIC_RELAXED);
          __atomic_add_fetch(&entered, 1, __ATOMIC_ACQ_REL);
          /* Keep this inner team alive until every outer thread forked. */
          par_wait_at_least(&entered, outer_n, 2.0);
        }
        __atomic_sub_fetch(&live, 1, __ATOMIC_ACQ_REL);
      }
    }
    if (inner_sum > LIMIT || max_live > LIMIT) {
      fprintf(stderr,
              "round %d: contention group ran %d threads in concurrent inner teams "
              "(max %d seen running), OMP_THREAD_LIMIT=%d\n",
              round, inner_sum, max_live, LIMIT);
      CHECK(inner_sum <= LIMIT);
      CHECK(max_live <= LIMIT);
      break;
    }
  }

  /* A region after the nested ones gets the full limit again: the group's
   * accounting was returned. */
  int after = -1;
#pragma omp parallel num_threads(LIMIT)
#pragma omp master
  after = omp_get_num_threads();
  CHECK_EQ_LONG(after, LIMIT);
  KITE_TEST_END();
}
