// kite-test-threads: 1 2 4 8
/* 100k tasks: from one producer, from every thread, and in waves with
 * taskwait; each must run exactly once. */
#include "kite_test.h"

#define N 100000

static unsigned char ran[N];

int main(void) {
  KITE_TEST_BEGIN();
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i)
    ran[i]++;
  }
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += ran[i] != 1;
  CHECK_EQ_LONG(bad, 0);

  long count = 0;
#pragma omp parallel reduction(+ : count)
  {
    int nt = omp_get_num_threads();
    for (int i = omp_get_thread_num(); i < N; i += nt) {
#pragma omp task firstprivate(i)
      ran[i]++;
    }
    count += 1;
  }
  bad = 0;
  for (int i = 0; i < N; ++i) bad += ran[i] != 2;
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(count, omp_get_max_threads());

  long sum = 0;
#pragma omp parallel
#pragma omp single
  for (int w = 0; w < 100; ++w) {
    long part[1000];
    for (int i = 0; i < 1000; ++i) {
#pragma omp task shared(part) firstprivate(i, w)
      part[i] = (long)w * 1000 + i;
    }
#pragma omp taskwait
    for (int i = 0; i < 1000; ++i) sum += part[i];
  }
  CHECK_EQ_LONG(sum, (long)N * (N - 1) / 2);
  KITE_TEST_END();
}
