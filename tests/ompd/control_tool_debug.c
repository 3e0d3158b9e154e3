// OMP_DEBUG=enabled turns on the runtime's OMPT bookkeeping without a tool:
// the program still has no tool, so omp_control_tool answers
// omp_control_tool_notool (-2), as it does without OMP_DEBUG.
// kite-test-threads: 1 2
// kite-test-env: OMP_DEBUG=enabled
#include <omp.h>

#include "kite_test.h"

int omp_control_tool(int command, int modifier, void* arg);  // gcc's omp.h lacks it

int main(void) {
  KITE_TEST_BEGIN();
  int in_region = 0;
#pragma omp parallel
  {
#pragma omp atomic
    in_region++;
  }
  CHECK(in_region == omp_get_max_threads());
  CHECK(omp_control_tool(3 /* omp_control_tool_flush */, 0, NULL) == -2);
  CHECK(omp_control_tool(1 /* omp_control_tool_start */, 0, NULL) == -2);
  KITE_TEST_END();
}
