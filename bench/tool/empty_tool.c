/* An OMPT tool that registers every callback with a function doing nothing:
 * what a runtime costs when a tool listens to everything and does no work
 * itself. Loaded with OMP_TOOL_LIBRARIES=<path>/libbench_empty_tool.so.
 *
 * It says on stderr that it is active (bench/run checks that line, so a
 * variant never claims a tool that the runtime did not load). With
 * BENCH_EMPTY_TOOL_REGISTER=none it registers no callback at all: what a
 * runtime costs when a tool is attached but listens to nothing (a sampler
 * that only calls the inquiry functions, say). */
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Registered for every event whatever its signature: on x86-64 a callee
 * that reads no arguments can be called with any, and events whose callback
 * returns a value get 0. */
static int do_nothing(void) { return 0; }

static int on_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                         ompt_data_t* tool_data) {
  (void)initial_device_num;
  (void)tool_data;
  ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback) {
    fprintf(stderr, "bench-empty-tool: no ompt_set_callback entry point; tool off\n");
    return 0;
  }
  int registered = 0, always = 0;
  const char* which = getenv("BENCH_EMPTY_TOOL_REGISTER");
  int none = which && !strcmp(which, "none");
  for (int event = ompt_callback_thread_begin; !none && event <= ompt_callback_error; ++event) {
    ompt_set_result_t r = set_callback((ompt_callbacks_t)event, (ompt_callback_t)do_nothing);
    if (r != ompt_set_error && r != ompt_set_never) ++registered;
    if (r == ompt_set_always) ++always;
  }
  fprintf(stderr, "bench-empty-tool: active, %d callbacks registered (%d always)\n", registered,
          always);
  return 1;
}

static void on_finalize(ompt_data_t* tool_data) { (void)tool_data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  static ompt_start_tool_result_t result = {on_initialize, on_finalize, {0}};
  return &result;
}
