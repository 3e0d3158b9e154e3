/* omp_init_lock_with_hint / omp_init_nest_lock_with_hint (declared by gcc's
 * omp.h; libgomp.so.1 does not export them, Kite does): the locks work like
 * plain ones for every valid hint.
 * kite-test-threads: 1 4
 */
#include "kite_test.h"

static long counter, nest_counter;

int main(void) {
  KITE_TEST_BEGIN();
  const omp_sync_hint_t hints[] = {
      omp_sync_hint_none, omp_sync_hint_uncontended, omp_sync_hint_contended,
      omp_sync_hint_speculative, omp_sync_hint_nonspeculative,
      omp_sync_hint_contended | omp_sync_hint_speculative};
  const int nhints = sizeof hints / sizeof hints[0];
  for (int h = 0; h < nhints; ++h) {
    omp_lock_t l;
    omp_nest_lock_t n;
    omp_init_lock_with_hint(&l, hints[h]);
    omp_init_nest_lock_with_hint(&n, hints[h]);
    counter = nest_counter = 0;
    int nthreads = 0;
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
      for (int i = 0; i < 2000; ++i) {
        omp_set_lock(&l);
        counter++;
        omp_unset_lock(&l);
        omp_set_nest_lock(&n);
        CHECK(omp_test_nest_lock(&n) == 2);
        nest_counter++;
        omp_unset_nest_lock(&n);
        omp_unset_nest_lock(&n);
      }
    }
    CHECK_EQ_LONG(counter, (long)nthreads * 2000);
    CHECK_EQ_LONG(nest_counter, (long)nthreads * 2000);
    omp_destroy_lock(&l);
    omp_destroy_nest_lock(&n);
  }
  KITE_TEST_END();
}
