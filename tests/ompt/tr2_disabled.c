// OMP_TOOL=disabled turns off every tools interface: the runtime looks for
// neither an ompt_start_tool nor a draft ompt_initialize, and ompt_control
// reaches nothing.
// kite-test-threads: 2
// kite-test-env: OMP_TOOL=disabled
#include "kite_test.h"

#include <stdint.h>

#include "../../include/ompt-tr2.h"

static int g_inits, g_controls;
static void on_control(uint64_t cmd, uint64_t mod) { ++g_controls; }

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ++g_inits;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (set) set(ompt_event_control, (ompt_callback_t)on_control);
  return 1;
}

int main(void) {
  KITE_TEST_BEGIN();
  const char* tool = getenv("OMP_TOOL");
  CHECK(tool && strcmp(tool, "disabled") == 0);
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  ompt_control(1, 2);
  CHECK_EQ_LONG(g_inits, 0);
  CHECK_EQ_LONG(g_controls, 0);
  KITE_TEST_END();
}
