/* Clang's omp.h makes omp_lock_t and omp_nest_lock_t pointer-sized; the same
 * omp_*_lock symbols must work on 8-byte storage and stay inside it.
 * kite-test-threads: 1 2 4 8
 */
#include "kite_test.h"

#include <stdint.h>

enum { kIters = 20000 };

static struct {
  uint64_t before;
  uint64_t lock;      /* clang's omp_lock_t */
  uint64_t nest;      /* clang's omp_nest_lock_t */
  uint64_t after;
} g = {0x1111111111111111ull, 0, 0, 0x2222222222222222ull};

static long counter, nest_counter;

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
  omp_lock_t* lock = (omp_lock_t*)&g.lock;
  omp_nest_lock_t* nest = (omp_nest_lock_t*)&g.nest;
  omp_init_lock(lock);
  omp_init_nest_lock(nest);
  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < kIters; ++i) {
      omp_set_lock(lock);
      slow_increment(&counter);
      omp_unset_lock(lock);

      omp_set_nest_lock(nest);
      omp_set_nest_lock(nest);
      slow_increment(&nest_counter);
      omp_unset_nest_lock(nest);
      omp_unset_nest_lock(nest);
    }
  }
  omp_destroy_lock(lock);
  omp_destroy_nest_lock(nest);
  CHECK_EQ_LONG(counter, (long)nthreads * kIters);
  CHECK_EQ_LONG(nest_counter, (long)nthreads * kIters);
  CHECK(g.before == 0x1111111111111111ull);
  CHECK(g.after == 0x2222222222222222ull);
  KITE_TEST_END();
}
