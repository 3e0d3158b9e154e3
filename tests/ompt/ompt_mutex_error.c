// kite-test-compilers: gcc  -- the error directive, which LLVM 14 lacks (LLVM 15+ emits __kmpc_error; tests/kmpc/src/error.c)
/* The error callback of the error directive at execution time
 * (GOMP_warning): severity warning, the message and its length (empty for
 * a directive without a message clause), the call site; and
 * omp_control_tool, which Kite exports under KITE_1.0 (libgomp 12 has
 * none): the tool's callback gets command, modifier, argument and call
 * site, and its answer is the routine's.
 * kite-test-threads: 1
 * kite-test-expect-stderr: warning: error directive encountered: careful
 */
#include "kite_test.h"
#include <stdint.h>

#include "support/mutex_recorder.h"

/* gcc 12's omp.h does not declare it. */
extern int omp_control_tool(int command, int modifier, void* arg);
#define CONTROL_FLUSH 3 /* omp_control_tool_flush */

__attribute__((noinline)) void warn_with_message(void) {
#pragma omp error at(execution) severity(warning) message("careful")
}
__attribute__((noinline)) void warn_without_message(void) {
#pragma omp error at(execution) severity(warning)
}
__attribute__((noinline)) int control_site(void* arg) {
  int r = omp_control_tool(CONTROL_FLUSH, 7, arg);
  __asm__ volatile("" ::: "memory");
  return r;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(rec_set_result[ompt_callback_error] == ompt_set_always);
  CHECK(rec_set_result[ompt_callback_control_tool] == ompt_set_always);
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) return 1;

  int from = me->count;
  warn_with_message();
  rec_event ev[8];
  int n = mx_events(me, from, ev, 8);
  CHECK(n == 1);
  MX_EXPECT(&ev[0], MX_ERROR, ompt_warning, 0, warn_with_message);
  CHECK(mx_error_length == 7);
  CHECK(strcmp(mx_error_message, "careful") == 0);

  from = me->count;
  warn_without_message();
  n = mx_events(me, from, ev, 8);
  CHECK(n == 1);
  MX_EXPECT(&ev[0], MX_ERROR, ompt_warning, 0, warn_without_message);
  CHECK(mx_error_length == 0);

  int token;
  from = me->count;
  CHECK(control_site(&token) == 42);
  n = mx_events(me, from, ev, 8);
  CHECK(n == 1);
  MX_EXPECT(&ev[0], MX_CONTROL, 0, 0, control_site);
  CHECK(mx_control_command == CONTROL_FLUSH);
  CHECK(mx_control_modifier == 7);
  CHECK(mx_control_arg == &token);
  KITE_TEST_END();
}
