// kite-test-threads: 1 2 4 8
/* Every GOMP_task clause: if(0) runs undeferred on the encountering thread
 * before it continues, final/omp_in_final, mergeable, untied, priority,
 * affinity, an undeferred task with dependences waits for its
 * predecessors, taskwait depend waits only for the named siblings,
 * taskyield is a scheduling point, omp_get_max_task_priority. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int max_prio = omp_get_max_task_priority();
  CHECK(max_prio >= 0);

  int undeferred_ok = 1, final_ok = 1, count = 0;
#pragma omp parallel shared(undeferred_ok, final_ok, count)
#pragma omp single
  {
    for (int i = 0; i < 50; ++i) {
      int done = 0, self = omp_get_thread_num(), where = -1;
#pragma omp task if (0) shared(done, where)
      {
        where = omp_get_thread_num();
        done = 1;
      }
      if (!done || where != self) undeferred_ok = 0;
    }
#pragma omp task final(1) shared(final_ok)
    {
      if (!omp_in_final()) final_ok = 0;
      int inner = 0;
#pragma omp task shared(inner, final_ok)
      {
        inner = 1;
        if (!omp_in_final()) final_ok = 0;
      }
      if (!inner) final_ok = 0; /* included task ran already */
    }
    for (int i = 0; i < 100; ++i) {
#pragma omp task mergeable shared(count)
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp task untied shared(count)
      {
        __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp taskyield
        __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
      }
#pragma omp task priority(i % 5) shared(count)
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp task affinity(count) shared(count)
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK(undeferred_ok);
  CHECK(final_ok);
  CHECK_EQ_LONG(count, 500);

  /* Undeferred task with a dependence on a deferred sibling. */
  int a = 0, b = 0, waited_a = -1, waited_b = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: a) shared(a)
    {
      for (volatile int k = 0; k < 100000; ++k) {
      }
      a = 1;
    }
#pragma omp task depend(out: b) shared(b)
    b = 2;
#pragma omp task if (0) depend(in: a) shared(a, waited_a)
    waited_a = a;
    CHECK_EQ_LONG(waited_a, 1);
#pragma omp taskwait depend(in: b)
    waited_b = b;
    CHECK_EQ_LONG(waited_b, 2);
  }

  /* A firstprivate block larger than any descriptor size class. */
  struct big {
    int v[5000];
  } big;
  for (int i = 0; i < 5000; ++i) big.v[i] = i * 3;
  long big_sum = 0;
#pragma omp parallel shared(big_sum)
#pragma omp single
  {
    for (int k = 0; k < 20; ++k) {
#pragma omp task firstprivate(big) shared(big_sum)
      {
        long s = 0;
        for (int i = 0; i < 5000; ++i) s += big.v[i];
        __atomic_add_fetch(&big_sum, s, __ATOMIC_RELAXED);
      }
    }
  }
  CHECK_EQ_LONG(big_sum, 20L * 3 * 4999 * 5000 / 2);

  /* taskyield outside tasks and outside parallel is harmless. */
#pragma omp taskyield
  KITE_TEST_END();
}
