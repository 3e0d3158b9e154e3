// Task reductions through the LLVM ABI: taskgroup task_reduction with
// in_reduction tasks (__kmpc_taskred_init, __kmpc_task_reduction_get_th_data,
// combined at __kmpc_end_taskgroup), nested taskgroups, user-defined
// reductions with an initializer, and reduction(task, ...) on parallel and
// for (__kmpc_taskred_modifier_init / __kmpc_task_reduction_modifier_fini).
#include "kite_test.h"

#pragma omp declare reduction(maxl : long : omp_out = omp_out > omp_in ? omp_out : omp_in) \
    initializer(omp_priv = -1)

int main(void) {
  KITE_TEST_BEGIN();
  int nt = omp_get_max_threads();
  long x = 0, m = -5, y = 10;
  double d = 1.0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+ : x) task_reduction(maxl : m) task_reduction(* : d)
    {
      for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : x) in_reduction(maxl : m)
        {
          x += i;
          if (i * 3 % 101 > m) m = i * 3 % 101;
        }
        if (i % 25 == 0) {
#pragma omp task in_reduction(* : d)
          d *= 2.0;
        }
      }
      // Nested: an inner group's reduction ends with the inner group.
#pragma omp taskgroup task_reduction(+ : y)
      {
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : y) in_reduction(+ : x)
          {
            y += 1;
            x += 1000;
          }
        }
      }
      CHECK_EQ_LONG(y, 20);
    }
  }
  CHECK_EQ_LONG(x, 4950 + 10000);
  CHECK_EQ_LONG(m, 100);
  CHECK(d == 16.0);

  long s = 0;
#pragma omp parallel reduction(task, + : s)
  {
#pragma omp single
    for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : s)
      s += i;
    }
    s += 1;  // each thread's own contribution
  }
  CHECK_EQ_LONG(s, 1225 + nt);

  long t = 0;
#pragma omp parallel
  {
#pragma omp for reduction(task, + : t)
    for (int i = 0; i < 40; i++) {
#pragma omp task in_reduction(+ : t)
      t += i;
    }
  }
  CHECK_EQ_LONG(t, 780);
  KITE_TEST_END();
}
