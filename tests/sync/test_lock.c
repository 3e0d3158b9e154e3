/* omp_test_lock: succeeds on a free lock, fails while another thread holds
 * it, and a lock taken by test is released by unset. Also checks that a
 * lock that is spun on by many threads with omp_test_lock still gives
 * mutual exclusion.
 * kite-test-threads: 1 2 4 8
 */
#include "kite_test.h"

#include <sched.h>

static omp_lock_t lock;
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
  omp_init_lock(&lock);
  CHECK_EQ_LONG(omp_test_lock(&lock), 1);
  omp_unset_lock(&lock);
  CHECK_EQ_LONG(omp_test_lock(&lock), 1);
  omp_unset_lock(&lock);

  int held_result = -1, free_result = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_num_threads() == 2) {
      if (omp_get_thread_num() == 0) omp_set_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 1) held_result = omp_test_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 0) omp_unset_lock(&lock);
#pragma omp barrier
      if (omp_get_thread_num() == 1) {
        free_result = omp_test_lock(&lock);
        if (free_result) omp_unset_lock(&lock);
      }
    }
  }
  if (held_result != -1) {
    CHECK_EQ_LONG(held_result, 0);
    CHECK_EQ_LONG(free_result, 1);
  }

  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < 2000; ++i) {
      while (!omp_test_lock(&lock)) sched_yield();
      slow_increment(&counter);
      omp_unset_lock(&lock);
    }
  }
  CHECK_EQ_LONG(counter, (long)nthreads * 2000);
  omp_destroy_lock(&lock);
  KITE_TEST_END();
}
