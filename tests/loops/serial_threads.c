/* kite-test-threads: 1 2
 * kite-test-libs: pthread
 * Worksharing constructs outside any parallel region, on several user
 * threads at once and on threads that come and go: each thread is a team
 * of one with its own construct state. */
#include "kite_test.h"

#include <pthread.h>

static int bad;

static void* user(void* arg) {
  long id = (long)arg;
  long sum = 0, order = -1;
  int ok = 1;
#pragma omp for schedule(dynamic, 3)
  for (long i = 0; i < 1000; ++i) sum += i + id;
#pragma omp for ordered schedule(guided)
  for (long i = 0; i < 100; ++i) {
#pragma omp ordered
    {
      if (i != order + 1) ok = 0;
      order = i;
    }
  }
  int s1 = 0, s2 = 0, single = 0;
#pragma omp sections
  {
#pragma omp section
    s1++;
#pragma omp section
    s2++;
  }
#pragma omp single
  single++;
  long a[50][50];
  for (int j = 0; j < 50; ++j) a[0][j] = 1;
#pragma omp for ordered(2)
  for (int i = 1; i < 50; ++i)
    for (int j = 0; j < 50; ++j) {
#pragma omp ordered depend(sink: i - 1, j)
      a[i][j] = a[i - 1][j] + 1;
#pragma omp ordered depend(source)
    }
  if (sum != 999L * 1000 / 2 + 1000 * id || !ok || order != 99 || s1 != 1 || s2 != 1 ||
      single != 1 || a[49][49] != 50)
    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  for (int round = 0; round < 50; ++round) {
    pthread_t t[4];
    for (long k = 0; k < 4; ++k) pthread_create(&t[k], NULL, user, (void*)(round * 4 + k));
    for (int k = 0; k < 4; ++k) pthread_join(t[k], NULL);
  }
  user((void*)0);
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
