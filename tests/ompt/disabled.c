/* OMP_TOOL=disabled: the runtime does not look for a tool, so the
 * program's ompt_start_tool is never called and no event is recorded.
 * kite-test-env: OMP_TOOL=disabled */
#include "kite_test.h"
#include "support/recorder.h"

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  CHECK_EQ_LONG(rec_start_calls, 0);
  CHECK_EQ_LONG(rec_init_calls, 0);
  CHECK_EQ_LONG(rec_nthreads, 0);
  KITE_TEST_END();
}
