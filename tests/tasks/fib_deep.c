// kite-test-threads: 1 2 4 8
/* Deep recursion: fib with a task per call (no cutoff) and with an
 * if/final cutoff, plus a recursion 2000 levels deep of nested tasks. */
#include "kite_test.h"

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_cut(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a) final(n < 12)
  a = fib_cut(n - 1);
#pragma omp task shared(b) if (n >= 12)
  b = fib_cut(n - 2);
#pragma omp taskwait
  return a + b;
}

static int chain(int depth) {
  if (depth == 0) return 0;
  int r = 0;
#pragma omp task shared(r)
  r = chain(depth - 1) + 1;
#pragma omp taskwait
  return r;
}

int main(void) {
  KITE_TEST_BEGIN();
  long r1 = 0, r2 = 0;
  int r3 = 0;
#pragma omp parallel
#pragma omp single
  {
    r1 = fib(22);
    r2 = fib_cut(27);
    r3 = chain(2000);
  }
  CHECK_EQ_LONG(r1, 17711);
  CHECK_EQ_LONG(r2, 196418);
  CHECK_EQ_LONG(r3, 2000);
  KITE_TEST_END();
}
