/* A plain OpenMP program, compiled and linked against the system libgomp
 * (gcc -fopenmp, nothing Kite-specific at link time). Run with
 * LD_LIBRARY_PATH pointing at Kite's libgomp.so.1, it must load Kite with
 * every versioned symbol it needs resolved, and work. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  int team = 0, count = 0, after = 0;
  long sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
  {
    if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    if (__atomic_load_n(&count, __ATOMIC_RELAXED) == omp_get_num_threads())
      __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
    sum += omp_get_thread_num() + 1;
  }
  CHECK_EQ_LONG(team, 4);
  CHECK_EQ_LONG(count, 4);
  CHECK_EQ_LONG(after, 4);
  CHECK_EQ_LONG(sum, 10);
  CHECK(!omp_in_parallel());
  CHECK(omp_get_max_threads() >= 1);
  CHECK(omp_get_num_procs() >= 1);
  KITE_TEST_END();
}
