/* omp_control_tool answers omp_control_tool_notool (-2) without a tool;
 * the program's mutexes and error directive work as without OMPT.
 * kite-test-threads: 1 2
 * kite-test-env: OMP_TOOL=disabled */
#include "kite_test.h"

#include "support/mutex_recorder.h"

extern int omp_control_tool(int command, int modifier, void* arg);

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_control_tool(3, 0, NULL) == -2);
  CHECK(rec_init_calls == 0);
  omp_lock_t l;
  omp_init_lock(&l);
  long count = 0;
#pragma omp parallel
  for (int i = 0; i < 100; ++i) {
    omp_set_lock(&l);
    count++;
    omp_unset_lock(&l);
#pragma omp critical
    count++;
  }
  omp_destroy_lock(&l);
  CHECK(count == 200L * omp_get_max_threads());
  CHECK(rec_nthreads == 0);
  KITE_TEST_END();
}
