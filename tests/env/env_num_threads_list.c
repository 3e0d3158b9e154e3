/* OMP_NUM_THREADS=3,2: one element per nesting level; the last element
 * holds for deeper levels, and a list switches nesting on.
 * kite-test-threads: 1
 * kite-test-env: OMP_NUM_THREADS=3,2 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  /* The harness puts its own OMP_NUM_THREADS first; ours comes last. */
  const char* v = getenv("OMP_NUM_THREADS");
  CHECK(v && strcmp(v, "3,2") == 0);
  CHECK_EQ_LONG(omp_get_max_threads(), 3);
  CHECK_EQ_LONG(omp_get_max_active_levels(), omp_get_supported_active_levels());
  int outer = 0, inner = 0, deepest = 0, bad = 0;
#pragma omp parallel reduction(+ : outer, inner, deepest, bad)
  {
    outer = omp_get_thread_num() == 0 ? omp_get_num_threads() : 0;
    if (omp_get_max_threads() != 2) bad++;
#pragma omp parallel reduction(+ : inner, deepest, bad)
    {
      if (omp_get_level() != 2) bad++;
      inner++;
      if (omp_get_max_threads() != 2) bad++;
#pragma omp parallel reduction(+ : deepest)
      deepest++;
    }
  }
  CHECK_EQ_LONG(outer, 3);
  CHECK_EQ_LONG(inner, 3 * 2);
  CHECK_EQ_LONG(deepest, 3 * 2 * 2);
  CHECK_EQ_LONG(bad, 0);
  /* Back at level 0 the first element is in effect again. */
  CHECK_EQ_LONG(omp_get_max_threads(), 3);
  KITE_TEST_END();
}
