// kite-test-threads: 1 2 4
/* if(false) regions are serialized but still regions: the level goes up,
 * the active level does not, and the encountering thread is thread 0 of a
 * team of one. Inside an active region, a nested if(false) region is still
 * "in parallel". */
#include "kite_test.h"

static int cond_false(void) { return getenv("KITE_TEST_NEVER_SET_THIS") != NULL; }

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_max_active_levels(8);
  int no = cond_false();
  int ran = 0;
#pragma omp parallel num_threads(4) if (no)
  {
    ran++; /* only one thread: no race */
    CHECK_EQ_LONG(omp_get_num_threads(), 1);
    CHECK_EQ_LONG(omp_get_thread_num(), 0);
    CHECK_EQ_LONG(omp_get_level(), 1);
    CHECK_EQ_LONG(omp_get_active_level(), 0);
    CHECK(!omp_in_parallel());
    CHECK_EQ_LONG(omp_get_team_size(1), 1);
    CHECK_EQ_LONG(omp_get_ancestor_thread_num(1), 0);
#pragma omp parallel if (no)
    {
      CHECK_EQ_LONG(omp_get_level(), 2);
      CHECK_EQ_LONG(omp_get_active_level(), 0);
      CHECK(!omp_in_parallel());
      ran++;
    }
    CHECK_EQ_LONG(omp_get_level(), 1);
    /* An active region nested in an inactive one. */
    int inner_n = 0;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) inner_n = omp_get_num_threads();
      CHECK_EQ_LONG(omp_get_level(), 2);
      CHECK_EQ_LONG(omp_get_active_level(), 1);
      CHECK(omp_in_parallel());
    }
    CHECK_EQ_LONG(inner_n, 2);
  }
  CHECK_EQ_LONG(ran, 2);
  CHECK_EQ_LONG(omp_get_level(), 0);

  int in_par = 0, levels_ok = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel if (no)
    {
      if (omp_in_parallel() && omp_get_level() == 2 && omp_get_active_level() == 1 &&
          omp_get_num_threads() == 1 && omp_get_thread_num() == 0)
        __atomic_add_fetch(&levels_ok, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&in_par, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(in_par, 2);
  CHECK_EQ_LONG(levels_ok, 2);

  /* Many serialized regions in a row, alternating with real ones. */
  long sum = 0;
  for (int r = 0; r < 2000; ++r) {
    int use = (r % 2) ? 1 : no;
#pragma omp parallel num_threads(2) if (use) reduction(+ : sum)
    sum += omp_get_num_threads();
  }
  CHECK_EQ_LONG(sum, 1000 * 1 + 1000 * 4);
  KITE_TEST_END();
}
