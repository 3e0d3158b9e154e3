// kite-test-threads: 2 4 8
// The implicit barrier at the end of a region is where the team runs the
// tasks created late in it: a master that creates tasks after every other
// thread reached that barrier still gets help from them. Two tasks wait
// (at most 10 s) for each other to start, which only two threads running
// tasks at the same time can satisfy. A join where a worker that found no
// task at its arrival went back to waiting for the next region left every
// late task to the master (found in the oversubscription work, issue 16).
#include "kite_test.h"

#include <time.h>

static int started_a, started_b;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Marks `mine` started and waits (bounded) for `other`; returns whether the
// other task started meanwhile.
static int meet(int* mine, int* other) {
  __atomic_store_n(mine, 1, __ATOMIC_RELEASE);
  const double deadline = now_s() + 10.0;
  while (!__atomic_load_n(other, __ATOMIC_ACQUIRE)) {
    if (now_s() > deadline) return 0;
  }
  return 1;
}

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 3; ++rep) {
    started_a = started_b = 0;
    int met_a = -1, met_b = -1, arrived = 0, team = 0;
#pragma omp parallel num_threads(omp_get_max_threads() < 2 ? 2 : omp_get_max_threads())
    {
#pragma omp master
      {
        team = omp_get_num_threads();
        // Let the other threads reach the region's end barrier first (only
        // makes the late creation likely; the checks do not depend on it).
        const double until = now_s() + 0.05;
        while (now_s() < until &&
               __atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < team - 1) {
        }
#pragma omp task shared(met_a)
        met_a = meet(&started_a, &started_b);
#pragma omp task shared(met_b)
        met_b = meet(&started_b, &started_a);
      }
      if (omp_get_thread_num() != 0) __atomic_add_fetch(&arrived, 1, __ATOMIC_RELEASE);
    }
    CHECK(team >= 2);
    CHECK_EQ_LONG(met_a, 1);
    CHECK_EQ_LONG(met_b, 1);
  }
  KITE_TEST_END();
}
