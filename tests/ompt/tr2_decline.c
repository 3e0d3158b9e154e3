// A draft tool that declines: ompt_start_tool exists but returns NULL, so
// the runtime goes on to ompt_initialize, which registers callbacks and
// returns 0. Nothing is dispatched afterwards (the callbacks it registered
// are dropped), a later registration through the same ompt_set_callback
// is refused (0), and the thread states are not kept.
// kite-test-threads: 2
#include "kite_test.h"

#include <stdint.h>

#include "../../include/ompt-tr2.h"

void* ompt_start_tool(unsigned int omp_version, const char* runtime_version) { return NULL; }

static int g_inits, g_events, g_first_answer;
static ompt_set_callback_t g_set;
static ompt_get_state_t g_get_state;

static void on_parallel_begin(ompt_task_id_t parent, ompt_frame_t* frame, ompt_parallel_id_t id,
                              uint32_t requested, void* fn) {
  ++g_events;
}
static void on_thread_begin(ompt_thread_type_t type, ompt_thread_id_t id) { ++g_events; }

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ++g_inits;
  g_set = (ompt_set_callback_t)lookup("ompt_set_callback");
  g_get_state = (ompt_get_state_t)lookup("ompt_get_state");
  if (!g_set || !g_get_state) return 0;
  g_first_answer = g_set(ompt_event_parallel_begin, (ompt_callback_t)on_parallel_begin);
  g_set(ompt_event_thread_begin, (ompt_callback_t)on_thread_begin);
  return 0;
}

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  CHECK_EQ_LONG(g_inits, 1);
  CHECK_EQ_LONG(g_first_answer, 4);  // accepted while ompt_initialize ran
  CHECK_EQ_LONG(g_events, 0);
  CHECK(g_set != NULL);
  if (g_set) CHECK_EQ_LONG(g_set(ompt_event_parallel_end, (ompt_callback_t)on_thread_begin), 0);
  KITE_TEST_END();
}
