/* A device memory routine as the program's first OpenMP call starts the
 * tool (OpenMP initializes, and looks for a tool, before the first routine
 * runs), and is itself reported: target_data_op_emi begin/end of its
 * allocation.
 * kite-test-threads: 1 */
#include "kite_test.h"

#include <omp-tools.h>

static int initialized, allocs;

static void on_data_op_emi(ompt_scope_endpoint_t ep, ompt_data_t* target_task_data,
                           ompt_data_t* target_data, ompt_id_t* host_op_id,
                           ompt_target_data_op_t optype, void* src, int src_dev, void* dst,
                           int dst_dev, size_t bytes, const void* ra) {
  (void)target_task_data, (void)target_data, (void)host_op_id, (void)src, (void)src_dev;
  (void)dst, (void)dst_dev, (void)bytes, (void)ra;
  if (optype == ompt_target_data_alloc && ep == ompt_scope_end) ++allocs;
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op_emi);
  initialized = 1;
}
#include "support/small_tool.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(initialized, 0);
  void* p = omp_target_alloc(64, omp_get_initial_device());
  CHECK(p != NULL);
  CHECK_EQ_LONG(initialized, 1);
  CHECK_EQ_LONG(allocs, 1);
  omp_target_free(p, omp_get_initial_device());
  KITE_TEST_END();
}
