// kite-test-threads: 1 2 4 8
/* The end of a parallel region is a barrier: when the primary continues,
 * every plain write made by any thread of the team is visible, including
 * writes made at the very last moment of the slowest thread. */
#include "kite_test.h"

#define CELLS 4096

static int cells[CELLS];
static volatile int sink;

int main(void) {
  KITE_TEST_BEGIN();
  for (int r = 1; r <= 1000; ++r) {
    int team = 0;
#pragma omp parallel
    {
      int me = omp_get_thread_num(), n = omp_get_num_threads();
      if (me == 0) team = n;
      /* The last thread dawdles a little so it finishes after the others. */
      if (me == n - 1)
        for (int i = 0; i < 200 * (r % 7); ++i) sink = i;
      for (int i = me; i < CELLS; i += n) cells[i] = r;
    }
    int stale = 0;
    for (int i = 0; i < CELLS; ++i) stale += cells[i] != r;
    if (stale || team < 1) {
      fprintf(stderr, "region %d (%d threads): %d cells not written when the region ended\n",
              r, team, stale);
      CHECK_EQ_LONG(stale, 0);
      break;
    }
  }
  KITE_TEST_END();
}
