// kite-test-threads: 1 2 4
/* Nested regions under omp_set_max_active_levels(2): three nested
 * num_threads(2) regions. Levels 1 and 2 are active; level 3 must be
 * serialized (a team of one) although it still counts as a level. At every
 * level, omp_get_ancestor_thread_num / omp_get_team_size must describe the
 * chain of enclosing teams. */
#include "kite_test.h"

static int records;

static void check_chain(int level, const int* tids, const int* sizes) {
  CHECK_EQ_LONG(omp_get_level(), level);
  CHECK_EQ_LONG(omp_get_ancestor_thread_num(0), 0);
  CHECK_EQ_LONG(omp_get_team_size(0), 1);
  for (int l = 1; l <= level; ++l) {
    CHECK_EQ_LONG(omp_get_ancestor_thread_num(l), tids[l]);
    CHECK_EQ_LONG(omp_get_team_size(l), sizes[l]);
  }
  CHECK_EQ_LONG(omp_get_ancestor_thread_num(level + 1), -1);
  CHECK_EQ_LONG(omp_get_team_size(level + 1), -1);
  CHECK_EQ_LONG(omp_get_ancestor_thread_num(-1), -1);
  CHECK_EQ_LONG(omp_get_team_size(-1), -1);
  CHECK_EQ_LONG(omp_get_ancestor_thread_num(level), omp_get_thread_num());
  CHECK_EQ_LONG(omp_get_team_size(level), omp_get_num_threads());
  __atomic_add_fetch(&records, 1, __ATOMIC_RELAXED);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  CHECK_EQ_LONG(omp_get_max_active_levels(), 2);
  CHECK_EQ_LONG(omp_get_level(), 0);
  CHECK_EQ_LONG(omp_get_active_level(), 0);

  int inner_sizes[2][2] = {{0, 0}, {0, 0}};
  int l3_count = 0;
#pragma omp parallel num_threads(2)
  {
    int t1 = omp_get_thread_num();
    int tids[4] = {0, t1, 0, 0}, sizes[4] = {1, 2, 0, 0};
    CHECK_EQ_LONG(omp_get_num_threads(), 2);
    CHECK_EQ_LONG(omp_get_active_level(), 1);
    CHECK(omp_in_parallel());
    check_chain(1, tids, sizes);
#pragma omp parallel num_threads(2)
    {
      int t2 = omp_get_thread_num();
      int tids2[4] = {0, t1, t2, 0}, sizes2[4] = {1, 2, 2, 0};
      if (t2 == 0) inner_sizes[t1][0] = omp_get_num_threads();
      CHECK_EQ_LONG(omp_get_active_level(), 2);
      check_chain(2, tids2, sizes2);
#pragma omp parallel num_threads(2)
      {
        int tids3[4] = {0, t1, t2, 0}, sizes3[4] = {1, 2, 2, 1};
        /* beyond max-active-levels: serialized */
        CHECK_EQ_LONG(omp_get_num_threads(), 1);
        CHECK_EQ_LONG(omp_get_thread_num(), 0);
        CHECK_EQ_LONG(omp_get_level(), 3);
        CHECK_EQ_LONG(omp_get_active_level(), 2);
        CHECK(omp_in_parallel());
        check_chain(3, tids3, sizes3);
        __atomic_add_fetch(&l3_count, 1, __ATOMIC_RELAXED);
      }
      CHECK_EQ_LONG(omp_get_level(), 2);
      CHECK_EQ_LONG(omp_get_thread_num(), t2);
    }
    inner_sizes[t1][1] = 1;
    CHECK_EQ_LONG(omp_get_level(), 1);
    CHECK_EQ_LONG(omp_get_thread_num(), t1);
    CHECK_EQ_LONG(omp_get_num_threads(), 2);
  }
  CHECK_EQ_LONG(inner_sizes[0][0], 2);
  CHECK_EQ_LONG(inner_sizes[1][0], 2);
  CHECK_EQ_LONG(l3_count, 4); /* 2 outer x 2 inner threads, each a team of one */
  CHECK_EQ_LONG(records, 2 + 4 + 4);
  CHECK_EQ_LONG(omp_get_level(), 0);

  /* max-active-levels 1: the inner region is inactive but still a level. */
  omp_set_max_active_levels(1);
  int inner_n = -1, inner_level = -1, inner_active = -1;
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp master
      {
        if (omp_get_ancestor_thread_num(1) == 0) {
          inner_n = omp_get_num_threads();
          inner_level = omp_get_level();
          inner_active = omp_get_active_level();
        }
      }
    }
  }
  CHECK_EQ_LONG(inner_n, 1);
  CHECK_EQ_LONG(inner_level, 2);
  CHECK_EQ_LONG(inner_active, 1);

  /* Repeat nested regions many times: inner hot/cold teams must not leak
   * threads or state between repetitions. */
  omp_set_max_active_levels(2);
  int total = 0;
  for (int r = 0; r < 300; ++r) {
    int k = 1 + r % 3;
#pragma omp parallel num_threads(k)
    {
#pragma omp parallel num_threads(4 - k)
      {
        if (omp_get_team_size(1) != k || omp_get_num_threads() != 4 - k)
          CHECK(!"nested team sizes");
        __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
      }
    }
  }
  int expect = 0;
  for (int r = 0; r < 300; ++r) expect += (1 + r % 3) * (4 - (1 + r % 3));
  CHECK_EQ_LONG(total, expect);
  KITE_TEST_END();
}
