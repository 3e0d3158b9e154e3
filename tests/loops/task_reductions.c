/* kite-test-threads: 1 2 4
 * reduction(task, ...) on worksharing constructs: the loop / sections /
 * scope registers the reduction once per team (GOMP_loop_start,
 * GOMP_sections2_start, GOMP_scope_start with a reductions array) and
 * tasks created in it contribute through in_reduction. */
#include "kite_test.h"

/* clang before 16 has no scope directive; clang 19 and 22 reject
 * scope reduction(task, ...). */
#if !defined(__clang__) || (__clang_major__ >= 16 && __clang_major__ < 19)
#define HAVE_SCOPE 1
#else
#define HAVE_SCOPE 0
#endif

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 10; ++rep) {
    long sum = 0, sum2 = 0, sum3 = 0;
#pragma omp parallel
    {
#pragma omp for reduction(task, +: sum) schedule(dynamic, 4)
      for (int i = 0; i < 200; ++i) {
#pragma omp task in_reduction(+: sum)
        sum += i;
      }
#pragma omp sections reduction(task, +: sum2)
      {
#pragma omp section
        {
#pragma omp task in_reduction(+: sum2)
          sum2 += 5;
        }
#pragma omp section
        {
#pragma omp task in_reduction(+: sum2)
          sum2 += 7;
        }
      }
#if HAVE_SCOPE
#pragma omp scope reduction(task, +: sum3)
      {
#pragma omp task in_reduction(+: sum3)
        sum3 += 1;
      }
#endif
    }
    CHECK_EQ_LONG(sum, 199L * 200 / 2);
    CHECK_EQ_LONG(sum2, 12);
    int n = 0;
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    if (HAVE_SCOPE) CHECK_EQ_LONG(sum3, n);
  }
  KITE_TEST_END();
}
