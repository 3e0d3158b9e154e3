// kite-test-threads: 1 2 4 8
/* mutexinoutset: tasks of one set never overlap in time, they run after
 * the preceding out task and before the following in task; tasks of
 * different variables may run concurrently. */
#include "kite_test.h"

static int inside[2], overlap, order_bad;
static long x[2];

static void exclusive(int v, long d) {
  if (__atomic_add_fetch(&inside[v], 1, __ATOMIC_ACQ_REL) != 1) __atomic_store_n(&overlap, 1, __ATOMIC_RELAXED);
  long t = x[v];
  for (volatile int k = 0; k < 200; ++k) {
  }
  x[v] = t + d;
  __atomic_sub_fetch(&inside[v], 1, __ATOMIC_ACQ_REL);
}

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 20; ++rep) {
    x[0] = x[1] = 0;
    long after0 = -1, after1 = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: x[0])
      x[0] = 1000;
#pragma omp task depend(out: x[1])
      x[1] = 2000;
      for (int i = 0; i < 64; ++i) {
        int v = i & 1;
#pragma omp task depend(mutexinoutset: x[v]) firstprivate(v, i)
        exclusive(v, i);
      }
#pragma omp task depend(in: x[0]) shared(after0)
      after0 = x[0];
#pragma omp task depend(in: x[1]) shared(after1)
      after1 = x[1];
    }
    /* sum of even i in [0,64) = 992, odd = 1024 */
    CHECK_EQ_LONG(after0, 1000 + 992);
    CHECK_EQ_LONG(after1, 2000 + 1024);
  }
  CHECK_EQ_LONG(overlap, 0);
  CHECK_EQ_LONG(order_bad, 0);
  KITE_TEST_END();
}
