/* kite check: locks, nest locks, test locks, critical, atomic, ordered. */
#include <omp.h>

int main(void) {
  omp_lock_t l;
  omp_nest_lock_t nl;
  int count = 0, tested = 0;
  long ord = 0;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
#pragma omp parallel
  {
    for (int i = 0; i < 20; ++i) {
      omp_set_lock(&l);
      ++count;
      omp_unset_lock(&l);
      if (omp_test_lock(&l)) {
        ++tested;
        omp_unset_lock(&l);
      }
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      ++count;
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
#pragma omp critical
      ++count;
#pragma omp critical(named)
      ++count;
#pragma omp atomic
      ++count;
    }
#pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < 16; ++i) {
#pragma omp ordered
      ord = ord * 2 + (i & 1);
    }
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  return count == 5 * 20 * omp_get_max_threads() && tested > 0 && ord == 0x5555 ? 0 : 1;
}
