/* Body shared by the wait-policy tests: regions full of barriers, with
 * uneven work so that threads really wait (spin or sleep) at each one. */
#include "kite_test.h"

#include <time.h>

static volatile int barrier_heavy_sink;

static int barrier_heavy_run(int regions, int barriers) {
  int wrong = 0;
  for (int r = 0; r < regions; ++r) {
    int counter = 0;
#pragma omp parallel
    {
      int me = omp_get_thread_num(), n = omp_get_num_threads();
      for (int b = 0; b < barriers; ++b) {
        if ((b + r) % n == me)
          for (int i = 0; i < 2000; ++i) barrier_heavy_sink = i;
        __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
#pragma omp barrier
        if (__atomic_load_n(&counter, __ATOMIC_RELAXED) != (b + 1) * n)
          __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
#pragma omp barrier
      }
    }
    /* A pause between regions lets passive waiters fall asleep. */
    if (r % 10 == 0) {
      struct timespec ts = {0, 2000000};
      nanosleep(&ts, NULL);
    }
  }
  return wrong;
}
