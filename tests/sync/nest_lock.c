/* Nest locks: recursion by the owner, omp_test_nest_lock's returned depth,
 * exclusion between threads, and release only at depth zero.
 * kite-test-threads: 1 2 4 8
 */
#include "kite_test.h"

enum { kIters = 5000, kDepth = 5 };

static omp_nest_lock_t lock;
static long counter;

/* Read-modify-write with a pause in the middle: without mutual exclusion,
 * updates from two threads overlap and get lost even on two cores. */
static void slow_increment(long* c) {
  long v = *(volatile long*)c;
  for (volatile int k = 0; k < 30; ++k) {
  }
  *(volatile long*)c = v + 1;
}

static void recurse(int depth) {
  omp_set_nest_lock(&lock);
  slow_increment(&counter);
  if (depth > 1) recurse(depth - 1);
  omp_unset_nest_lock(&lock);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_init_nest_lock(&lock);

  /* Single thread: depth counting. */
  CHECK_EQ_LONG(omp_test_nest_lock(&lock), 1);
  CHECK_EQ_LONG(omp_test_nest_lock(&lock), 2);
  omp_set_nest_lock(&lock);
  CHECK_EQ_LONG(omp_test_nest_lock(&lock), 4);
  for (int i = 0; i < 4; ++i) omp_unset_nest_lock(&lock);

  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < kIters; ++i) recurse(kDepth);
  }
  CHECK_EQ_LONG(counter, (long)nthreads * kIters * kDepth);

  /* Held at depth 2 by thread 0: another thread's test fails; after one
   * unset it is still held; after the second it is free. */
  if (nthreads > 1) {
    int seen_held = -1, seen_after_one = -1, seen_after_two = -1;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) omp_set_nest_lock(&lock), omp_set_nest_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 1) seen_held = omp_test_nest_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 0) omp_unset_nest_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 1) seen_after_one = omp_test_nest_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 0) omp_unset_nest_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 1) {
        seen_after_two = omp_test_nest_lock(&lock);
        if (seen_after_two) omp_unset_nest_lock(&lock);
      }
    }
    CHECK_EQ_LONG(seen_held, 0);
    CHECK_EQ_LONG(seen_after_one, 0);
    CHECK_EQ_LONG(seen_after_two, 1);
  }
  omp_destroy_nest_lock(&lock);
  KITE_TEST_END();
}
