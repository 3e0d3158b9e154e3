/* Unnamed, named and nested named critical regions exclude each other
 * correctly: plain (non-atomic) counters updated inside them end exact.
 * kite-test-threads: 1 2 4 8
 */
#include "kite_test.h"

enum { kIters = 20000 };

static long unnamed_count, alpha_count, beta_count, nested_count;
static volatile int inside_alpha;

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
  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < kIters; ++i) {
#pragma omp critical
      slow_increment(&unnamed_count);
#pragma omp critical(alpha)
      {
        /* Nobody else may be inside alpha at the same time. */
        CHECK(inside_alpha == 0);
        inside_alpha = 1;
        slow_increment(&alpha_count);
        if ((i & 7) == 0) {
          /* A different name nests inside: no self-deadlock. */
#pragma omp critical(beta)
          nested_count++;
        }
        inside_alpha = 0;
      }
#pragma omp critical(beta)
      slow_increment(&beta_count);
    }
  }
  CHECK_EQ_LONG(unnamed_count, (long)nthreads * kIters);
  CHECK_EQ_LONG(alpha_count, (long)nthreads * kIters);
  CHECK_EQ_LONG(beta_count, (long)nthreads * kIters);
  CHECK_EQ_LONG(nested_count, (long)nthreads * ((kIters + 7) / 8));
  KITE_TEST_END();
}
