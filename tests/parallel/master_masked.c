// kite-test-threads: 1 2 4
/* master and masked run their block on the selected thread only; the filter
 * expression may name any thread, or none. No implied barrier. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  for (int n = 1; n <= 4; ++n) {
    int master_by[8], masked0_by[8], masked1_by[8], masked3_by[8], maskedbig_by[8];
    for (int i = 0; i < 8; ++i) master_by[i] = masked0_by[i] = masked1_by[i] = masked3_by[i] = maskedbig_by[i] = 0;
    int f = 3;
#pragma omp parallel num_threads(n)
    {
      int me = omp_get_thread_num();
#pragma omp master
      __atomic_add_fetch(&master_by[me], 1, __ATOMIC_RELAXED);
#pragma omp masked
      __atomic_add_fetch(&masked0_by[me], 1, __ATOMIC_RELAXED);
#pragma omp masked filter(1)
      __atomic_add_fetch(&masked1_by[me], 1, __ATOMIC_RELAXED);
#pragma omp masked filter(f)
      __atomic_add_fetch(&masked3_by[me], 1, __ATOMIC_RELAXED);
#pragma omp masked filter(100)
      __atomic_add_fetch(&maskedbig_by[me], 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < 8; ++i) {
      CHECK_EQ_LONG(master_by[i], i == 0);
      CHECK_EQ_LONG(masked0_by[i], i == 0);
      CHECK_EQ_LONG(masked1_by[i], i == 1 && n > 1);
      CHECK_EQ_LONG(masked3_by[i], i == 3 && n > 3);
      CHECK_EQ_LONG(maskedbig_by[i], 0);
    }
  }
  KITE_TEST_END();
}
