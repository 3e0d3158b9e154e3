// kite-test-threads: 1
// kite-test-env: OMP_NUM_THREADS=4,3,2 OMP_MAX_ACTIVE_LEVELS=4
/* An OMP_NUM_THREADS list gives one team size per nesting level; the last
 * element applies to every deeper level. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_max_threads(), 4);
  int sizes[4] = {0, 0, 0, 0}, max_in[4] = {0, 0, 0, 0}, bad = 0;
#pragma omp parallel
  {
    int s1 = omp_get_num_threads();
    if (omp_get_thread_num() == 0) { sizes[0] = s1; max_in[0] = omp_get_max_threads(); }
#pragma omp parallel
    {
      int s2 = omp_get_num_threads();
      if (s2 != 3) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      if (omp_get_ancestor_thread_num(1) == 0 && omp_get_thread_num() == 0) {
        sizes[1] = s2;
        max_in[1] = omp_get_max_threads();
      }
#pragma omp parallel
      {
        int s3 = omp_get_num_threads();
        if (s3 != 2) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        if (omp_get_ancestor_thread_num(1) == 0 && omp_get_ancestor_thread_num(2) == 0 &&
            omp_get_thread_num() == 0) {
          sizes[2] = s3;
          max_in[2] = omp_get_max_threads();
#pragma omp parallel
          {
#pragma omp master
            sizes[3] = omp_get_num_threads();
          }
        }
      }
    }
  }
  CHECK_EQ_LONG(sizes[0], 4);
  CHECK_EQ_LONG(sizes[1], 3);
  CHECK_EQ_LONG(sizes[2], 2);
  CHECK_EQ_LONG(sizes[3], 2);  /* past the end of the list: last element */
  CHECK_EQ_LONG(max_in[0], 3); /* nthreads-var for the next level down */
  CHECK_EQ_LONG(max_in[1], 2);
  CHECK_EQ_LONG(max_in[2], 2);
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(omp_get_max_threads(), 4);  /* the initial task is unchanged */
  KITE_TEST_END();
}
