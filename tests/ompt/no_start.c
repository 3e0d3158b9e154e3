/* ompt_start_tool returning NULL: the program's tool does not want to be
 * used; its initializer is never called and no event happens.
 * kite-test-threads: 2 */
#define RECORDER_NO_START 1
#include "kite_test.h"
#include "support/recorder.h"

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  CHECK_EQ_LONG(rec_start_calls, 1);
  CHECK_EQ_LONG(rec_init_calls, 0);
  CHECK_EQ_LONG(rec_nthreads, 0);
  KITE_TEST_END();
}
