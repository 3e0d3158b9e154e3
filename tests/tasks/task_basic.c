// kite-test-threads: 1 2 4 8
/* Explicit tasks: shared/firstprivate data, taskwait, nested tasks, tasks
 * created by one thread (single) and run by all, omp_in_final. */
#include "kite_test.h"

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a) firstprivate(n)
  a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  KITE_TEST_BEGIN();
  /* Many tasks from a single producer, drained by the barrier. */
  int hits[1000] = {0};
  int ran_by[64] = {0};
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < 1000; ++i) {
#pragma omp task firstprivate(i)
      {
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        int t = omp_get_thread_num();
        if (t < 64) __atomic_add_fetch(&ran_by[t], 1, __ATOMIC_RELAXED);
      }
    }
  }
  for (int i = 0; i < 1000; ++i) CHECK_EQ_LONG(hits[i], 1);

  /* Every thread creates tasks; the implicit barrier completes them. */
  int total = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 200; ++i) {
#pragma omp task
      __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(total, 200 * omp_get_max_threads());

  /* Recursive tasks with taskwait. */
  long r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(20);
  CHECK_EQ_LONG(r, 6765);

  /* Tasks outside any parallel region run immediately. */
  int x = 0;
#pragma omp task shared(x)
  x = 42;
#pragma omp taskwait
  CHECK_EQ_LONG(x, 42);

  /* omp_in_final inside a final task and its (included) children. */
  int in_final = -1, child_final = -1, outside = -1;
#pragma omp parallel
#pragma omp single
  {
    outside = omp_in_final();
#pragma omp task final(1) shared(in_final, child_final)
    {
      in_final = omp_in_final();
#pragma omp task shared(child_final)
      child_final = omp_in_final();
      /* included task: already done, no taskwait needed */
      CHECK_EQ_LONG(child_final, 1);
    }
  }
  CHECK_EQ_LONG(outside, 0);
  CHECK_EQ_LONG(in_final, 1);
  CHECK_EQ_LONG(child_final, 1);

  /* Explicit barrier inside the region drains tasks. */
  int before = 0, seen = -1;
#pragma omp parallel shared(before, seen)
  {
#pragma omp master
    for (int i = 0; i < 100; ++i) {
#pragma omp task
      __atomic_add_fetch(&before, 1, __ATOMIC_RELAXED);
    }
#pragma omp barrier
#pragma omp single
    seen = before;
  }
  CHECK_EQ_LONG(seen, 100);
  KITE_TEST_END();
}
