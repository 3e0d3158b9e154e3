// kite-test-threads: 1 2 4 8
/* Task reductions: taskgroup task_reduction with in_reduction tasks
 * (several items and operators, nested groups), reduction(task, ...) on
 * parallel and on a worksharing loop, taskloop reduction and taskloop
 * in_reduction, and an orphaned taskgroup outside any parallel region. */
#include "kite_test.h"

static long nested(int n) {
  long s = 0;
#pragma omp taskgroup task_reduction(+ : s)
  {
    for (int i = 1; i <= n; ++i) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
      s += i;
    }
  }
  return s;
}

int main(void) {
  KITE_TEST_BEGIN();
  long sum = 0, prod = 1, outer = 0;
  int maxv = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(* : prod) task_reduction(max : maxv)
    {
      for (int i = 1; i <= 1000; ++i) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
        sum += i;
        if (i <= 20) {
#pragma omp task in_reduction(* : prod) firstprivate(i)
          prod *= (i % 3) + 1;
        }
#pragma omp task in_reduction(max : maxv) firstprivate(i)
        if (i * 7 % 1001 > maxv) maxv = i * 7 % 1001;
      }
      /* Nested group with its own item, inside tasks of the outer one. */
#pragma omp task in_reduction(+ : sum)
      sum += nested(100);
    }
#pragma omp taskgroup task_reduction(+ : outer)
    {
#pragma omp task in_reduction(+ : outer)
      {
        outer += 1;
#pragma omp task in_reduction(+ : outer)
        outer += 10;
      }
    }
  }
  long expect_prod = 1;
  for (int i = 1; i <= 20; ++i) expect_prod *= (i % 3) + 1;
  int expect_max = 0;
  for (int i = 1; i <= 1000; ++i)
    if (i * 7 % 1001 > expect_max) expect_max = i * 7 % 1001;
  CHECK_EQ_LONG(sum, 500500 + 5050);
  CHECK_EQ_LONG(prod, expect_prod);
  CHECK_EQ_LONG(maxv, expect_max);
  CHECK_EQ_LONG(outer, 11);

  /* reduction(task, +) on parallel: implicit and explicit tasks add. */
  long ptotal = 0;
#pragma omp parallel reduction(task, + : ptotal)
  {
    ptotal += 1;
    for (int i = 0; i < 50; ++i) {
#pragma omp task in_reduction(+ : ptotal)
      ptotal += 2;
    }
  }
  CHECK_EQ_LONG(ptotal, (long)omp_get_max_threads() * 101);

  /* reduction(task, +) on a worksharing loop. */
  long ltotal = 0;
#pragma omp parallel
  {
#pragma omp for reduction(task, + : ltotal)
    for (int i = 0; i < 200; ++i) {
      ltotal += 1;
#pragma omp task in_reduction(+ : ltotal) firstprivate(i)
      ltotal += i;
    }
  }
  CHECK_EQ_LONG(ltotal, 200 + 199 * 200 / 2);

  /* reduction(task, +) on sections. */
  long stotal = 0;
#pragma omp parallel
  {
#pragma omp sections reduction(task, + : stotal)
    {
#pragma omp section
      {
        stotal += 1;
#pragma omp task in_reduction(+ : stotal)
        stotal += 10;
      }
#pragma omp section
      stotal += 2;
    }
  }
  CHECK_EQ_LONG(stotal, 13);

  /* reduction(task, +) on scope (a directive clang before 16 lacks; clang
   * 19 and 22 reject the task modifier on it). */
#if !defined(__clang__) || (__clang_major__ >= 16 && __clang_major__ < 19)
  long sc = 0;
#pragma omp parallel
  {
#pragma omp scope reduction(task, + : sc)
    {
      sc += 1;
#pragma omp task in_reduction(+ : sc)
      sc += 1000;
    }
  }
  CHECK_EQ_LONG(sc, 1001L * omp_get_max_threads());
#endif

  /* taskloop reduction and taskloop in_reduction. */
  long tl = 0, tl_in = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop reduction(+ : tl) grainsize(7)
    for (int i = 0; i < 1000; ++i) tl += i;
#pragma omp taskgroup task_reduction(+ : tl_in)
    {
#pragma omp taskloop in_reduction(+ : tl_in) num_tasks(13)
      for (int i = 0; i < 100; ++i) tl_in += 2;
    }
  }
  CHECK_EQ_LONG(tl, 999 * 1000 / 2);
  CHECK_EQ_LONG(tl_in, 200);

  /* Outside any parallel region. */
  CHECK_EQ_LONG(nested(10), 55);
  long serial = 0;
#pragma omp taskloop reduction(+ : serial)
  for (int i = 0; i < 10; ++i) serial += i;
  CHECK_EQ_LONG(serial, 45);
  KITE_TEST_END();
}
