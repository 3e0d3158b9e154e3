// kite-test-threads: 1 2 4 8
/* Explicit barriers as memory fences. In phase p every thread writes plain
 * (non-atomic) values into its own slots; after the barrier every thread
 * reads every other thread's slots and must see phase p's values; after a
 * second barrier the slots are overwritten. A barrier that lets a thread
 * through early, or that does not order memory, shows up as a stale value. */
#include "kite_test.h"

#define MAXT 64
#define WORDS 16
#define PHASES 3000

static long slots[MAXT][WORDS];

int main(void) {
  KITE_TEST_BEGIN();
  int errors = 0, team = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    if (me == 0) team = n;
    if (n <= MAXT) {
      for (int p = 1; p <= PHASES; ++p) {
        for (int w = 0; w < WORDS; ++w) slots[me][w] = (long)p * 1000 + me * WORDS + w;
#pragma omp barrier
        for (int t = 0; t < n; ++t) {
          int other = (me + t) % n;
          for (int w = 0; w < WORDS; ++w)
            if (slots[other][w] != (long)p * 1000 + other * WORDS + w) {
              if (__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED) < 5)
                fprintf(stderr, "phase %d: thread %d saw thread %d word %d = %ld\n", p, me,
                        other, w, slots[other][w]);
            }
        }
#pragma omp barrier
      }
    }
  }
  CHECK(team >= 1 && team <= MAXT);
  CHECK_EQ_LONG(errors, 0);

  /* Many barriers in a row with a shared counter: after barrier k the counter
   * must read exactly (k+1) * n on every thread. */
  int counter = 0, wrong = 0;
#pragma omp parallel
  {
    int n = omp_get_num_threads();
    for (int k = 0; k < 2000; ++k) {
      __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
#pragma omp barrier
      int v = __atomic_load_n(&counter, __ATOMIC_RELAXED);
      if (v != (k + 1) * n && __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED) < 5)
        fprintf(stderr, "after barrier %d: counter %d, expected %d\n", k, v, (k + 1) * n);
#pragma omp barrier
    }
  }
  CHECK_EQ_LONG(wrong, 0);
  KITE_TEST_END();
}
