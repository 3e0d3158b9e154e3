// kite-test-compilers: gcc  -- the error directive, which LLVM 14 lacks (LLVM 15+ emits __kmpc_error, which tests/kmpc/src/error.c calls)
/* The error directive with severity(warning) at execution time prints its
 * message and the program continues.
 * kite-test-threads: 1 2
 * kite-test-expect-stderr: warning: error directive encountered: watch out, 42 is near.*warning: error directive encountered.*PASS
 */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int after = 0;
#pragma omp error at(execution) severity(warning) message("watch out, 42 is near")
  after = 1;
  fflush(stdout);
#pragma omp error at(execution) severity(warning)
  after++;
  /* Encountered by every thread of a team: each prints, all continue. */
  int count = 0;
#pragma omp parallel reduction(+ : count)
  {
#pragma omp error at(execution) severity(warning) message("from a team")
    count++;
  }
  CHECK_EQ_LONG(after, 2);
  CHECK_EQ_LONG(count, omp_get_max_threads());
  KITE_TEST_END();
}
