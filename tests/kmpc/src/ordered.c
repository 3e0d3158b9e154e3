// ordered regions in loops under every schedule (__kmpc_ordered, and the
// __kmpc_dispatch_fini_* call after each iteration).
#include <omp.h>

#include "kite_test.h"

#define N 300

#define ORDERED_LOOP(SCHED, TYPE, INIT, COND, INCR, EXPECT_FIRST, STEP)                   \
  do {                                                                                    \
    long next = EXPECT_FIRST, bad = 0, done = 0;                                          \
    _Pragma(SCHED)                                                                        \
    for (TYPE i = INIT; COND; INCR) {                                                     \
      volatile int work = 0;                                                              \
      for (int k = 0; k < (int)(i % 7) * 20; k++) work += k;                              \
      (void)work;                                                                         \
      _Pragma("omp ordered")                                                              \
      {                                                                                   \
        if ((long)i != next) bad++;                                                       \
        next += STEP;                                                                     \
        done++;                                                                           \
      }                                                                                   \
    }                                                                                     \
    CHECK_EQ_LONG(bad, 0);                                                                \
    CHECK(done > 0);                                                                      \
  } while (0)

int main(void) {
  KITE_TEST_BEGIN();
  ORDERED_LOOP("omp parallel for ordered schedule(static)", int, 0, i < N, i++, 0, 1);
  ORDERED_LOOP("omp parallel for ordered schedule(static, 3)", int, 0, i < N, i++, 0, 1);
  ORDERED_LOOP("omp parallel for ordered schedule(dynamic)", int, 0, i < N, i++, 0, 1);
  ORDERED_LOOP("omp parallel for ordered schedule(dynamic, 4)", unsigned, 0u, i < N, i++, 0, 1);
  ORDERED_LOOP("omp parallel for ordered schedule(guided)", long, (long)N, i > 0, i -= 2, N, -2);
  ORDERED_LOOP("omp parallel for ordered schedule(runtime)", unsigned long, 0ul, i < N, i += 3,
               0, 3);
  ORDERED_LOOP("omp parallel for ordered schedule(auto)", int, N - 1, i >= 0, i--, N - 1, -1);

  // Iterations that skip their ordered region must not block the others.
  long last = -1, bad = 0;
#pragma omp parallel for ordered schedule(dynamic, 2)
  for (int i = 0; i < N; i++) {
    if (i % 3 == 0) {
#pragma omp ordered
      {
        if (i <= last) bad++;
        last = i;
      }
    }
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(last, N - 1 - (N - 1) % 3);
  KITE_TEST_END();
}
