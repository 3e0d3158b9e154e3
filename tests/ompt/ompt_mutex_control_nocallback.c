/* omp_control_tool answers omp_control_tool_nocallback (-1) when the tool
 * did not register ompt_callback_control_tool.
 * kite-test-threads: 1 */
#include "kite_test.h"

#define MX_NO_CONTROL_CALLBACK 1
#include "support/mutex_recorder.h"

extern int omp_control_tool(int command, int modifier, void* arg);

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(rec_init_calls == 1);
  CHECK(omp_control_tool(3, 0, NULL) == -1);
  KITE_TEST_END();
}
