/* Helpers shared by the parallel-region tests. */
#ifndef PAR_UTIL_H
#define PAR_UTIL_H

#include <sched.h>
#include <time.h>

/* Spins (yielding: the machine may have fewer cores than threads) until
 * *word >= target or `seconds` pass. Returns 1 when the target was reached.
 * Tests use it to hold threads inside a region until others have arrived
 * without relying on the runtime's own barrier. */
static inline int par_wait_at_least(const int* word, int target, double seconds) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < target) {
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 > seconds)
      return 0;
  }
  return 1;
}

/* Raises *max_word to value if it is larger. */
static inline void par_atomic_max(int* max_word, int value) {
  int cur = __atomic_load_n(max_word, __ATOMIC_RELAXED);
  while (value > cur &&
         !__atomic_compare_exchange_n(max_word, &cur, value, 0, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

/* OMP_NUM_THREADS as the test harness set it (first list element), or 0. */
static inline int par_env_threads(void) {
  const char* s = getenv("OMP_NUM_THREADS");
  return s ? atoi(s) : 0;
}

#endif
