/* The tree barrier and tree fork (core/barrier.h), forced on every team with
 * KITE_BARRIER=tree (by default only teams of 16+ threads that fit the
 * processors get them, which this 2-core machine never has):
 *   - teams of 2 to 64 threads (one, two and three levels of radix-4
 *     counters, full and partial groups) pass many explicit barriers as
 *     memory fences: after the barrier every thread sees every other
 *     thread's writes of the phase;
 *   - a barrier is a task scheduling point: tasks created before it are all
 *     complete after it;
 *   - the hot team changes size between regions (the tree is laid out
 *     again) and back;
 *   - a cancelled region leaves its barrier unfinished; the next regions
 *     of the same size still synchronize;
 *   - every thread of every team ran (the fork reached the whole tree).
 * OMP_DISPLAY_ENV=verbose shows the mode in effect.
 * kite-test-threads: 1
 * kite-test-env: KITE_BARRIER=tree OMP_CANCELLATION=true OMP_DISPLAY_ENV=verbose
 * kite-test-expect-stderr: KITE_BARRIER = 'TREE'
 * kite-test-timeout: 120
 */
#include "kite_test.h"

#define MAXT 64
#define WORDS 4

static long slots[MAXT][WORDS];
static int ran[MAXT];

/* `phases` barriers in a team of n; returns the number of stale reads. */
static int phases_in_team(int n, int phases) {
  int errors = 0, team = 0;
  memset(ran, 0, sizeof ran);
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num(), size = omp_get_num_threads();
    if (me == 0) team = size;
    ran[me] = 1;
    for (int p = 1; p <= phases; ++p) {
      for (int w = 0; w < WORDS; ++w) slots[me][w] = (long)p * 100000 + me * WORDS + w;
#pragma omp barrier
      for (int t = 0; t < size; ++t)
        for (int w = 0; w < WORDS; ++w)
          if (slots[t][w] != (long)p * 100000 + t * WORDS + w) {
            if (__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED) < 5)
              fprintf(stderr, "team %d phase %d: thread %d saw thread %d word %d = %ld\n", size, p,
                      me, t, w, slots[t][w]);
          }
#pragma omp barrier
    }
  }
  CHECK_EQ_LONG(team, n);
  for (int i = 0; i < n; ++i) CHECK_EQ_LONG(ran[i], 1);
  return errors;
}

/* Tasks created by every thread before a barrier are complete after it. */
static void tasks_at_barrier(int n) {
  int done = 0, bad = 0;
#pragma omp parallel num_threads(n)
  {
    for (int r = 0; r < 20; ++r) {
      for (int k = 0; k < 3; ++k) {
#pragma omp task
        __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
      }
#pragma omp barrier
      if (__atomic_load_n(&done, __ATOMIC_RELAXED) != (r + 1) * 3 * omp_get_num_threads())
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    }
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(done, 20 * 3 * n);
}

/* A region cancelled while some threads wait at a barrier. */
static void cancelled_region(int n) {
  int after = 0;
#pragma omp parallel num_threads(n)
  {
    if (omp_get_thread_num() == n - 1) {
#pragma omp cancel parallel
    }
#pragma omp barrier
#pragma omp atomic
    after++;
  }
  /* Nobody passes the barrier: the canceller never arrives there, and the
   * others leave it for the region's end. */
  CHECK_EQ_LONG(after, 0);
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
  static const int sizes[] = {2, 3, 4, 5, 8, 15, 16, 17, 21, 33, 64, 5, 16};
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    int n = sizes[i];
    int phases = n <= 8 ? 400 : n <= 21 ? 100 : 30;
    CHECK_EQ_LONG(phases_in_team(n, phases), 0);
  }
  tasks_at_barrier(6);
  tasks_at_barrier(17);
  for (int i = 0; i < 3; ++i) {
    cancelled_region(9);
    CHECK_EQ_LONG(phases_in_team(9, 50), 0);
  }
  KITE_TEST_END();
}
