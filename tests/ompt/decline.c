/* A tool whose initializer returns 0: the OMPT interface stays inactive,
 * so none of the callbacks it registered is ever called.
 * kite-test-threads: 1 4 */
#define RECORDER_DECLINE 1
#include "kite_test.h"
#include "support/recorder.h"

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(3) reduction(+ : sum)
  {
    sum += 1;
#pragma omp barrier
  }
  CHECK_EQ_LONG(sum, 3);
  CHECK_EQ_LONG(rec_start_calls, 1);
  CHECK_EQ_LONG(rec_init_calls, 1);
  CHECK_EQ_LONG(rec_nthreads, 0); /* no thread_begin, no buffer, no event */
  KITE_TEST_END();
}
