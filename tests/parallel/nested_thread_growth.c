// kite-test-threads: 2 4
/* Nested regions whose shapes keep changing (outer and inner team sizes
 * cycle, so different threads lead inner teams each time). The runtime may
 * keep idle threads for reuse, but the process's thread count must stay
 * bounded by what the program ever needs at once: at most 4 x 3 = 12 threads
 * run together here. Reserving workers for teams whose leader went idle, and
 * spawning new ones instead of reusing them, grows without bound. */
#include "kite_test.h"

static int process_threads(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  int n = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %d", &n) == 1) break;
  fclose(f);
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  int most = 0, total = 0, expected = 0;
  for (int r = 0; r < 1500; ++r) {
    int outer = 1 + r % 4, inner = 1 + (r / 4) % 3;
#pragma omp parallel num_threads(outer)
    {
#pragma omp parallel num_threads(inner)
      __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
    }
    expected += outer * inner;
    if (r % 50 == 49) {
      int now = process_threads();
      if (now > most) most = now;
    }
  }
  CHECK_EQ_LONG(total, expected);
  CHECK(most > 0);
  if (most > 3 * 12) fprintf(stderr, "the process grew to %d threads (12 ever run at once)\n", most);
  CHECK(most <= 3 * 12);
  printf("at most %d threads\n", most);
  KITE_TEST_END();
}
