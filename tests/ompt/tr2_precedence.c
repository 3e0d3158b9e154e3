// Precedence: a program that defines both an OpenMP 5.x ompt_start_tool
// (returning a tool whose initializer accepts) and a draft ompt_initialize
// gets the 5.x tool only: ompt_initialize is never called, ompt_control
// reaches no draft callback, and the 2013 global functions answer nothing.
// kite-test-threads: 2
#include "kite_test.h"

#include <stdint.h>

#include "../../include/ompt-tr2.h"

// The 5.x result, declared here with the layout omp-tools.h gives it
// (omp-tools.h and ompt-tr2.h do not share a unit).
struct start_result {
  int (*initialize)(void* lookup, int initial_device, void* tool_data);
  void (*finalize)(void* tool_data);
  uint64_t tool_data;
};

static int g_5x_inits, g_tr2_inits, g_controls;

static int init_5x(void* lookup, int device, void* data) {
  ++g_5x_inits;
  return 1;
}
static void fini_5x(void* data) {}
static struct start_result g_result = {init_5x, fini_5x, 0};

struct start_result* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  return &g_result;
}

static void on_control(uint64_t cmd, uint64_t mod) { ++g_controls; }

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ++g_tr2_inits;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (set) set(ompt_event_control, (ompt_callback_t)on_control);
  return 1;
}

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  CHECK_EQ_LONG(g_5x_inits, 1);
  CHECK_EQ_LONG(g_tr2_inits, 0);
  ompt_control(1, 2);
  CHECK_EQ_LONG(g_controls, 0);
  // The 2013 proposal's globals, looked up by name: no draft interface is
  // active, so they register nothing and know no thread data.
  int (*set2013)(int, void (*)(void)) = (int (*)(int, void (*)(void)))dlsym(RTLD_DEFAULT, "ompt_set_callback");
  void* (*thread_data)(void) = (void* (*)(void))dlsym(RTLD_DEFAULT, "ompt_get_thread_data");
  CHECK(set2013 != NULL && thread_data != NULL);
  if (set2013) CHECK_EQ_LONG(set2013(ompt_event_control, (void (*)(void))on_control), 0);
  if (thread_data) CHECK(thread_data() == NULL);
  KITE_TEST_END();
}
