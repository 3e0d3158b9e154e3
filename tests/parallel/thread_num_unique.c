// kite-test-threads: 1 2 4 8
/* Within a team every omp_get_thread_num is unique and covers 0..n-1, and a
 * default-sized team has OMP_NUM_THREADS threads. Checked for the outer team
 * and for each of several concurrent nested teams. */
#include "kite_test.h"
#include "par_util.h"

#define MAXT 64

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  int env_n = par_env_threads();
  if (env_n > 0) CHECK_EQ_LONG(omp_get_max_threads(), env_n);

  for (int r = 0; r < 200; ++r) {
    int seen[MAXT] = {0}, size = 0;
#pragma omp parallel
    {
      int me = omp_get_thread_num();
      if (me == 0) size = omp_get_num_threads();
      if (me >= 0 && me < MAXT) __atomic_add_fetch(&seen[me], 1, __ATOMIC_RELAXED);
    }
    if (env_n > 0) CHECK_EQ_LONG(size, env_n);
    int ok = size >= 1 && size <= MAXT;
    for (int i = 0; i < MAXT && ok; ++i) ok = seen[i] == (i < size);
    if (!ok) {
      CHECK(!"thread numbers are not exactly 0..n-1");
      break;
    }
  }

  omp_set_max_active_levels(2);
  int inner_seen[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) inner_seen[i][j] = 0;
#pragma omp parallel num_threads(4)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(4)
    {
      int me = omp_get_thread_num();
      if (me >= 0 && me < 4) __atomic_add_fetch(&inner_seen[outer][me], 1, __ATOMIC_RELAXED);
      CHECK_EQ_LONG(omp_get_ancestor_thread_num(1), outer);
    }
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK_EQ_LONG(inner_seen[i][j], 1);
  KITE_TEST_END();
}
