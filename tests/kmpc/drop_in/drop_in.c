// Linked against LLVM's libomp the ordinary way (its rpath and version
// node VERSION recorded), run with LD_LIBRARY_PATH=<build>/llvm and
// LD_BIND_NOW=1: every symbol must resolve to Kite.
#include <omp.h>

#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0, n = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel reduction(+ : sum)
  {
    sum += omp_get_thread_num();
    omp_set_lock(&lock);
    n++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  int t = omp_get_max_threads();
  CHECK_EQ_LONG(n, t);
  CHECK_EQ_LONG(sum, t * (t - 1) / 2);
  long s2 = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : s2)
  for (int i = 0; i < 1000; i++) s2 += i;
  CHECK_EQ_LONG(s2, 499500);
  KITE_TEST_END();
}
