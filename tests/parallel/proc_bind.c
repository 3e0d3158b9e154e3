// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_PLACES=cores
/* Every proc_bind kind is accepted and changes nothing about what a region
 * computes: team size, thread numbers, results, with a place list so that
 * binding really happens (more threads than places included). Unbound
 * threads keeping the process mask is unbound_affinity.c's job. */
#define _GNU_SOURCE
#include <sched.h>

#include "kite_test.h"

#define N 4

static cpu_set_t initial_mask;

static int mask_is_initial(void) {
  cpu_set_t m;
  CPU_ZERO(&m);
  if (sched_getaffinity(0, sizeof m, &m) != 0) return 0;
  return CPU_EQUAL(&m, &initial_mask);
}

#define REGION(clause)                                                      \
  do {                                                                      \
    int seen[N] = {0, 0, 0, 0}, size = 0;                                   \
    long sum = 0;                                                           \
    _Pragma(clause) {                                                       \
      int me = omp_get_thread_num();                                        \
      if (me == 0) size = omp_get_num_threads();                            \
      if (me >= 0 && me < N) __atomic_add_fetch(&seen[me], 1, __ATOMIC_RELAXED); \
      __atomic_add_fetch(&sum, 10 + me, __ATOMIC_RELAXED);                  \
    }                                                                       \
    CHECK_EQ_LONG(size, N);                                                 \
    for (int i = 0; i < N; ++i) CHECK_EQ_LONG(seen[i], 1);                  \
    CHECK_EQ_LONG(sum, 10 * N + N * (N - 1) / 2);                           \
  } while (0)

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CPU_ZERO(&initial_mask);
  CHECK(sched_getaffinity(0, sizeof initial_mask, &initial_mask) == 0);

  /* Unbound regions first: nobody may have been pinned. */
  int pinned = 0;
  for (int r = 0; r < 20; ++r) {
#pragma omp parallel num_threads(N)
    if (!mask_is_initial()) __atomic_add_fetch(&pinned, 1, __ATOMIC_RELAXED);
  }
  if (omp_get_proc_bind() == omp_proc_bind_false) CHECK_EQ_LONG(pinned, 0);

  for (int r = 0; r < 50; ++r) {
    REGION("omp parallel num_threads(N) proc_bind(close)");
    REGION("omp parallel num_threads(N) proc_bind(spread)");
    REGION("omp parallel num_threads(N) proc_bind(master)");
    REGION("omp parallel num_threads(N)");
  }
  /* Nested, with a different policy at each level. */
  omp_set_max_active_levels(2);
  int inner_total = 0;
#pragma omp parallel num_threads(2) proc_bind(spread)
  {
#pragma omp parallel num_threads(2) proc_bind(close)
    __atomic_add_fetch(&inner_total, 1, __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(inner_total, 4);
  KITE_TEST_END();
}
