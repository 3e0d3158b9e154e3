/* kite check: locks, nest locks, test locks, critical, atomic, ordered. */
#include <omp.h>

int main(void) {
  omp_lock_t l;
  omp_nest_lock_t nl;
  /* One counter per construct: different mutexes do not exclude each other. */
  int c_lock = 0, c_nest = 0, c_crit = 0, c_named = 0, c_atomic = 0, tested = 0;
  long ord = 0;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
#pragma omp parallel
  {
    for (int i = 0; i < 20; ++i) {
      omp_set_lock(&l);
      ++c_lock;
      omp_unset_lock(&l);
      if (omp_test_lock(&l)) {
        ++tested;
        omp_unset_lock(&l);
      }
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      ++c_nest;
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
#pragma omp critical
      ++c_crit;
#pragma omp critical(named)
      ++c_named;
#pragma omp atomic
      ++c_atomic;
    }
#pragma omp for ordered schedule(dynamic)
    for (int i = 0; i < 16; ++i) {
#pragma omp ordered
      ord = ord * 2 + (i & 1);
    }
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  int n = 20 * omp_get_max_threads();
  int ok = c_lock == n && c_nest == n && c_crit == n && c_named == n && c_atomic == n &&
           tested <= n && ord == 0x5555;
  return ok ? 0 : 1;
}
