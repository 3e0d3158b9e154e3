// kite-test-threads: 1 2 4 8
/* A primary keeps its last team hot. Thousands of regions whose num_threads
 * grows and shrinks (and default-sized ones in between) must each get exactly
 * the requested team, every thread number exactly once, and no thread from a
 * previous, larger team. */
#include "kite_test.h"
#include "par_util.h"

#define MAXT 16

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  static const int pattern[] = {1, 2, 8, 3, 1, 5, 8, 2, 4, 7, 1, 6, 0, 16, 2, 0};
  const int np = (int)(sizeof pattern / sizeof pattern[0]);
  const int dflt = omp_get_max_threads();
  CHECK(dflt >= 1);
  long sum = 0, expected = 0;
  for (int r = 0; r < 2000; ++r) {
    int want = pattern[r % np];
    int seen[MAXT] = {0};
    int size = -1, out_of_range = 0;
    if (want > 0) {
#pragma omp parallel num_threads(want)
      {
        int me = omp_get_thread_num();
        if (me == 0) size = omp_get_num_threads();
        if (me < 0 || me >= MAXT)
          __atomic_add_fetch(&out_of_range, 1, __ATOMIC_RELAXED);
        else
          __atomic_add_fetch(&seen[me], 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&sum, me + 1, __ATOMIC_RELAXED);
      }
    } else {
      want = dflt < MAXT ? dflt : MAXT;
#pragma omp parallel
      {
        int me = omp_get_thread_num();
        if (me == 0) size = omp_get_num_threads();
        if (me < 0 || me >= MAXT)
          __atomic_add_fetch(&out_of_range, 1, __ATOMIC_RELAXED);
        else
          __atomic_add_fetch(&seen[me], 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&sum, me + 1, __ATOMIC_RELAXED);
      }
    }
    expected += (long)want * (want + 1) / 2;
    int ok = size == want && out_of_range == 0;
    for (int i = 0; i < MAXT; ++i) ok = ok && seen[i] == (i < want ? 1 : 0);
    if (!ok) {
      fprintf(stderr, "region %d: asked for %d threads, got %d\n", r, want, size);
      for (int i = 0; i < MAXT; ++i)
        if (seen[i] != (i < want ? 1 : 0)) fprintf(stderr, "  thread %d ran %d times\n", i, seen[i]);
      CHECK(ok);
      break;
    }
    CHECK(!omp_in_parallel());
    CHECK_EQ_LONG(omp_get_num_threads(), 1);
  }
  CHECK_EQ_LONG(sum, expected);
  KITE_TEST_END();
}
