/* The tool of a test that needs only a few callbacks, compiled into the
 * program (linked with -rdynamic, so the runtime finds ompt_start_tool).
 * Before including this header the test defines
 *   static void small_tool_register(ompt_function_lookup_t lookup,
 *                                   ompt_set_callback_t set);
 * which registers its callbacks and looks up any entry point it needs.
 * The tool always accepts and its finalizer does nothing. */
#ifndef KITE_TEST_SMALL_TOOL_H
#define KITE_TEST_SMALL_TOOL_H

#include <omp-tools.h>

static int small_tool_init(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
  (void)device, (void)data;
  small_tool_register(lookup, (ompt_set_callback_t)lookup("ompt_set_callback"));
  return 1;
}

static void small_tool_fini(ompt_data_t* data) { (void)data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned omp_version, const char* runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {small_tool_init, small_tool_fini, {0}};
  return &result;
}

#endif
