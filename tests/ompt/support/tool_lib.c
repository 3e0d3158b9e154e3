/* A tool in a shared library, loaded through OMP_TOOL_LIBRARIES by
 * tool_libraries.c. It counts a few events; the test reads the counts
 * through kite_test_tool_counts. */
#include <omp-tools.h>

static int counts[4]; /* start_tool, initialize, thread_begin, parallel_begin */

static void on_thread_begin(ompt_thread_t type, ompt_data_t* data) {
  __atomic_add_fetch(&counts[2], 1, __ATOMIC_RELAXED);
}

static void on_parallel_begin(ompt_data_t* enc, const ompt_frame_t* frame, ompt_data_t* pd,
                              unsigned requested, int flags, const void* ra) {
  __atomic_add_fetch(&counts[3], 1, __ATOMIC_RELAXED);
}

static int initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  counts[1]++;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  return 1;
}

static void finalize(ompt_data_t* tool_data) {}

static ompt_start_tool_result_t result = {initialize, finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  counts[0]++;
  return &result;
}

void kite_test_tool_counts(int* out) {
  for (int i = 0; i < 4; ++i) out[i] = __atomic_load_n(&counts[i], __ATOMIC_RELAXED);
}
