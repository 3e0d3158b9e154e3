// kite-test-threads: 2 4
// kite-test-env: OMP_PLACES=cores OMP_PROC_BIND=false
/* With a place list but binding off, no thread may be pinned: every thread
 * of every team keeps the affinity mask the process started with. (Workers
 * must not be bound from a stale or zeroed place assignment.) */
#define _GNU_SOURCE
#include <sched.h>

#include "kite_test.h"

static cpu_set_t initial_mask;

int main(void) {
  KITE_TEST_BEGIN();
  CPU_ZERO(&initial_mask);
  CHECK(sched_getaffinity(0, sizeof initial_mask, &initial_mask) == 0);
  CHECK(omp_get_proc_bind() == omp_proc_bind_false);
  int pinned = 0, runs = 0;
  for (int r = 0; r < 50; ++r) {
#pragma omp parallel num_threads(1 + r % 4)
    {
      cpu_set_t m;
      CPU_ZERO(&m);
      if (sched_getaffinity(0, sizeof m, &m) != 0 || !CPU_EQUAL(&m, &initial_mask)) {
        if (__atomic_add_fetch(&pinned, 1, __ATOMIC_RELAXED) == 1)
          fprintf(stderr, "thread %d of %d: affinity mask has %d cpus, process had %d\n",
                  omp_get_thread_num(), omp_get_num_threads(), CPU_COUNT(&m),
                  CPU_COUNT(&initial_mask));
      }
      __atomic_add_fetch(&runs, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(pinned, 0);
  CHECK(runs > 50);
  KITE_TEST_END();
}
