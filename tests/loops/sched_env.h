/* Shared body of the sched_env_* tests: OMP_SCHEDULE (set by each test's
 * kite-test-env line) must reach run-sched-var, and schedule(runtime)
 * loops must follow it, in long and unsigned long long loops, and in a
 * nested region (run-sched-var is inherited). */
#ifndef SCHED_ENV_H
#define SCHED_ENV_H

#include "kite_test.h"

#define N 997

static int owner[N];

static void run_loops(void) {
  for (int i = 0; i < N; ++i) owner[i] = -1;
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = 0; i < N; ++i) {
      if (owner[i] != -1) owner[i] = -2; /* ran twice */
      else owner[i] = omp_get_thread_num();
    }
  }
  for (int i = 0; i < N; ++i) CHECK(owner[i] >= 0);
  int count = 0;
#pragma omp parallel
  {
#pragma omp for schedule(runtime) reduction(+: count)
    for (unsigned long long i = 1ull << 63; i < (1ull << 63) + N; ++i) count++;
  }
  CHECK_EQ_LONG(count, N);
}

/* Chunks of a dynamic/guided/static,c schedule: the first `chunk`
 * iterations of every chunk start run on one thread. */
static void check_chunk_runs(int chunk, int aligned) {
  for (int i = 0; i < N; ++i) {
    int start = aligned ? i - i % chunk : (i < chunk ? 0 : i);
    if (start != i && owner[i] != owner[start]) {
      fprintf(stderr, "iteration %d ran on %d, its chunk start %d on %d\n", i, owner[i], start,
              owner[start]);
      __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);
      return;
    }
  }
}

static int team_size(void) {
  int n = 1;
#pragma omp parallel
#pragma omp single
  n = omp_get_num_threads();
  return n;
}

#endif
