/* omp_set_lock / omp_unset_lock under contention, with gcc's 4-byte
 * omp_lock_t (clang: pointer-sized): a plain counter protected by the lock
 * ends exact, and the lock
 * never writes outside its bytes (guard words around it stay intact).
 * kite-test-threads: 1 2 4 8
 */
#include "kite_test.h"

#include <stdint.h>

enum { kIters = 50000 };

static struct {
  uint32_t before;
  omp_lock_t lock;
  uint32_t after;
} g = {0xdeadbeefu, {{0}}, 0xcafef00du};

static long counter;

/* Read-modify-write with a pause in the middle: without mutual exclusion,
 * updates from two threads overlap and get lost even on two cores. */
static void slow_increment(long* c) {
  long v = *(volatile long*)c;
  for (volatile int k = 0; k < 30; ++k) {
  }
  *(volatile long*)c = v + 1;
}

int main(void) {
  KITE_TEST_BEGIN();
#ifdef __clang__
  /* clang's omp.h makes omp_lock_t pointer-sized; the guards still bound it. */
  CHECK(sizeof(omp_lock_t) == sizeof(void*));
#else
  CHECK(sizeof(omp_lock_t) == 4);
#endif
  omp_init_lock(&g.lock);
  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < kIters; ++i) {
      omp_set_lock(&g.lock);
      slow_increment(&counter);
      omp_unset_lock(&g.lock);
    }
  }
  omp_destroy_lock(&g.lock);
  CHECK_EQ_LONG(counter, (long)nthreads * kIters);
  CHECK(g.before == 0xdeadbeefu);
  CHECK(g.after == 0xcafef00du);
  KITE_TEST_END();
}
