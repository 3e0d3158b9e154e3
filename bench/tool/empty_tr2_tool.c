/* A TR2 (2014 draft OMPT) tool that registers every event, 1 to 61, with a
 * function doing nothing: the draft interface's counterpart of
 * empty_tool.c. Preloaded (LD_PRELOAD=<path>/libbench_empty_tr2_tool.so):
 * the runtime finds its ompt_initialize in the global scope when no
 * ompt_start_tool returned a tool.
 *
 * It says on stderr that it is active, as the OMPT empty tool does. */
#include <stdio.h>

#include "../../include/ompt-tr2.h"

/* Registered for every event whatever its signature: on x86-64 a callee
 * that reads no arguments can be called with any. */
static void do_nothing(void) {}

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) {
    fprintf(stderr, "bench-empty-tr2-tool: no ompt_set_callback through lookup; tool off\n");
    return 0;
  }
  int registered = 0, always = 0;
  for (int e = ompt_event_parallel_begin; e <= ompt_event_flush; ++e) {
    int r = set((ompt_event_t)e, do_nothing);
    if (r != ompt_set_result_registration_error && r != ompt_set_result_event_never_occurs)
      ++registered;
    if (r == ompt_set_result_event_may_occur_callback_always) ++always;
  }
  fprintf(stderr, "bench-empty-tr2-tool: active (%s, ompt_version %u), %d events registered (%d always)\n",
          runtime_version, ompt_version, registered, always);
  return 1;
}
