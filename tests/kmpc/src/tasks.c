// Explicit tasks through the LLVM ABI: shareds and firstprivate data,
// dependences (in, out, inout, mutexinoutset), if(0) with and without
// dependences, final, untied (task parts), priority, taskwait, taskgroup,
// taskyield, nested tasks, detach.
#include <omp.h>

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
  long f = 0;
#pragma omp parallel
#pragma omp single
  f = fib(18);
  CHECK_EQ_LONG(f, 2584);

  // A dependence chain: each step reads the previous one's result.
  int bad = 0;
  for (int round = 0; round < 20; round++) {
    long x = 0, y = 0, z = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 30; i++) {
#pragma omp task depend(inout : x) firstprivate(i)
        x = x * 2 + (i & 1);
#pragma omp task depend(in : x) depend(out : y) firstprivate(i)
        y = x + i;
#pragma omp task depend(in : y) depend(inout : z)
        z += y;
      }
    }
    long ex = 0, ey = 0, ez = 0;
    for (int i = 0; i < 30; i++) {
      ex = ex * 2 + (i & 1);
      ey = ex + i;
      ez += ey;
    }
    if (x != ex || y != ey || z != ez) bad++;
  }
  CHECK_EQ_LONG(bad, 0);

  // mutexinoutset: mutually exclusive, all run, readers after them.
  long m = 0, seen = -1;
  int inside = 0, overlap = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < 50; i++) {
#pragma omp task depend(mutexinoutset : m)
      {
        if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1) overlap = 1;
        m += 1;
        __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
      }
    }
#pragma omp task depend(in : m)
    seen = m;
  }
  CHECK_EQ_LONG(overlap, 0);
  CHECK_EQ_LONG(seen, 50);

  // if(0) tasks run at once, after their dependences; their children are
  // theirs (the taskwait inside waits for them).
  long v = 0, w = 0;
  int order_bad = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : v)
    {
      for (volatile int k = 0; k < 100000; k++) {}
      v = 5;
    }
#pragma omp task if (0) depend(in : v) shared(w)
    {
      if (v != 5) order_bad = 1;
#pragma omp task shared(w)
      w = 1;
#pragma omp taskwait
      if (w != 1) order_bad = 1;
      w = 2;
    }
    if (w != 2) order_bad = 1;
  }
  CHECK_EQ_LONG(order_bad, 0);

  // taskgroup waits for descendants too; final and untied tasks.
  long g = 0;
  int final_ok = 1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 20; i++) {
#pragma omp task untied
        {
#pragma omp task
          __atomic_add_fetch(&g, 1, __ATOMIC_RELAXED);
#pragma omp taskyield
          __atomic_add_fetch(&g, 1, __ATOMIC_RELAXED);
        }
      }
#pragma omp task final(1)
      {
        if (!omp_in_final()) final_ok = 0;
#pragma omp task
        {
          if (!omp_in_final()) final_ok = 0;
          __atomic_add_fetch(&g, 1, __ATOMIC_RELAXED);
        }
      }
    }
    if (__atomic_load_n(&g, __ATOMIC_RELAXED) != 41) final_ok = 0;
  }
  CHECK_EQ_LONG(g, 41);
  CHECK_EQ_LONG(final_ok, 1);

  // Priorities are accepted (order is only a hint).
  long p = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 20; i++) {
#pragma omp task priority(i % 4)
    __atomic_add_fetch(&p, i, __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(p, 190);

  // Large firstprivate data travels in the task's block.
  int arr[200];
  for (int i = 0; i < 200; i++) arr[i] = i;
  long asum = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task firstprivate(arr) shared(asum)
    {
      long s = 0;
      for (int i = 0; i < 200; i++) s += arr[i];
      asum = s;
    }
    for (int i = 0; i < 200; i++) arr[i] = 0;
  }
  CHECK_EQ_LONG(asum, 199 * 200 / 2);

  // detach: the task completes when its event is fulfilled.
  omp_event_handle_t ev = (omp_event_handle_t)0;
  long d = 0, after = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task detach(ev) depend(out : d)
    d = 1;
#pragma omp task depend(in : d)
    after = d + 1;
#pragma omp task
    omp_fulfill_event(ev);
  }
  CHECK_EQ_LONG(after, 2);

  // Tasks outside any parallel region run at once.
  long outside = 0;
#pragma omp task shared(outside)
  outside = 3;
#pragma omp taskwait
  CHECK_EQ_LONG(outside, 3);
  KITE_TEST_END();
}
