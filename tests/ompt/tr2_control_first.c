// ompt_control is TR2's one global function of the runtime: called before
// anything else made the runtime initialize itself, it initializes the
// runtime (which finds and calls the tool's ompt_initialize, registering
// the control callback) and then reaches the callback with its arguments.
// kite-test-threads: 1
#include "kite_test.h"

#include <stdint.h>

#include "../../include/ompt-tr2.h"

static int g_inits, g_thread_begins, g_controls;
static uint64_t g_cmd, g_mod;

static void on_thread_begin(ompt_thread_type_t type, ompt_thread_id_t id) { ++g_thread_begins; }
static void on_control(uint64_t cmd, uint64_t mod) {
  ++g_controls;
  g_cmd = cmd;
  g_mod = mod;
}

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ++g_inits;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) return 0;
  set(ompt_event_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_event_control, (ompt_callback_t)on_control);
  return 1;
}

int main(void) {
  KITE_TEST_BEGIN();  // looks Kite up without initializing it
  CHECK_EQ_LONG(g_inits, 0);
  ompt_control(5, 6);
  CHECK_EQ_LONG(g_inits, 1);
  CHECK_EQ_LONG(g_thread_begins, 1);  // the initial thread, before the control event
  CHECK_EQ_LONG(g_controls, 1);
  CHECK_EQ_LONG(g_cmd, 5);
  CHECK_EQ_LONG(g_mod, 6);
  ompt_control(7, 8);
  CHECK_EQ_LONG(g_inits, 1);
  CHECK_EQ_LONG(g_controls, 2);
  CHECK_EQ_LONG(g_cmd, 7);
  KITE_TEST_END();
}
