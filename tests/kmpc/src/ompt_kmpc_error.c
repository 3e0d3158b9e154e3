// kite-test-threads: 1
// kite-test-cflags: -rdynamic -Wno-unused-function
// __kmpc_error tells tools first: the error callback with the severity,
// the message and its length (0 without a message clause), and the call
// site of the entry point. Warnings only: the program goes on.
#include "../../../include/omp-tools.h"
#include "kite_test.h"
#include <stdint.h>
#include <string.h>
#include "../../ompt/support/mutex_recorder.h"

typedef struct ident ident_t;
void __kmpc_error(ident_t*, int, const char*);

__attribute__((noinline)) void warn_with_message(void) {
  __kmpc_error(NULL, 1, "careful");
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void warn_without_message(void) {
  __kmpc_error(NULL, 1, NULL);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* the first OpenMP call activates the tool */
  CHECK(rec_set_result[ompt_callback_error] == ompt_set_always);
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) return 1;
  int from = me->count;
  warn_with_message();
  rec_event ev[8];
  int n = mx_events(me, from, ev, 8);
  CHECK(n == 1);
  if (n == 1) MX_EXPECT(&ev[0], MX_ERROR, ompt_warning, 0, warn_with_message);
  CHECK(mx_error_length == 7);
  CHECK(strcmp(mx_error_message, "careful") == 0);
  from = me->count;
  warn_without_message();
  n = mx_events(me, from, ev, 8);
  CHECK(n == 1);
  if (n == 1) MX_EXPECT(&ev[0], MX_ERROR, ompt_warning, 0, warn_without_message);
  CHECK(mx_error_length == 0);
  KITE_TEST_END();
}
