// kite-test-threads: 1 2 4 8
/* With dyn-var true the runtime may give fewer threads than asked, never
 * more, never zero; the region still runs correctly with whatever it got. */
#include "kite_test.h"
#include "par_util.h"

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(1);
  CHECK_EQ_LONG(omp_get_dynamic(), 1);
  for (int r = 0; r < 300; ++r) {
    int want = 1 + r % 12;
    int size = 0, count = 0, max_tid = -1;
#pragma omp parallel num_threads(want)
    {
      int me = omp_get_thread_num();
      if (me == 0) size = omp_get_num_threads();
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
      par_atomic_max(&max_tid, me);
    }
    if (!(size >= 1 && size <= want && count == size && max_tid == size - 1)) {
      fprintf(stderr, "region %d: asked %d, team %d, %d threads ran, max tid %d\n", r, want,
              size, count, max_tid);
      CHECK(size >= 1 && size <= want);
      CHECK_EQ_LONG(count, size);
      CHECK_EQ_LONG(max_tid, size - 1);
      break;
    }
  }
  /* Default-sized region too. */
  int size = 0;
#pragma omp parallel
  if (omp_get_thread_num() == 0) size = omp_get_num_threads();
  CHECK(size >= 1 && size <= omp_get_max_threads());
  omp_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_dynamic(), 0);
  KITE_TEST_END();
}
