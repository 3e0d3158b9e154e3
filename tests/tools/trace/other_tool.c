/* A minimal OMPT tool that is not Kite's: it accepts the runtime's offer
 * and registers nothing. `kite trace` must name it when the runtime starts
 * it instead of kite's recorder. */
#include <omp-tools.h>
#include <stddef.h>

static int init(ompt_function_lookup_t lookup, int device, ompt_data_t *data) {
  (void)lookup, (void)device, (void)data;
  return 1;
}

static void fini(ompt_data_t *data) { (void)data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {init, fini, {0}};
  return &result;
}
