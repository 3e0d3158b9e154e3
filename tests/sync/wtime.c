/* omp_get_wtime never goes backwards and advances; omp_get_wtick is a
 * positive, plausible resolution. No timing assertion beyond "advances". */
#include "kite_test.h"

#include <time.h>

int main(void) {
  KITE_TEST_BEGIN();
  double tick = omp_get_wtick();
  CHECK(tick > 0.0);
  CHECK(tick < 0.01);

  double prev = omp_get_wtime();
  CHECK(prev >= 0.0);
  for (int i = 0; i < 100000; ++i) {
    double now = omp_get_wtime();
    CHECK(now >= prev);
    prev = now;
  }
  double t0 = omp_get_wtime();
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  CHECK(omp_get_wtime() > t0);

  /* Every thread sees the same monotonic clock. */
  double base = omp_get_wtime();
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    if (omp_get_wtime() < base) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
