/* libomp's ompc_* forms of omp_* routines (clang's omp.h turns the
 * affinity-format routines into them) and the kmpc_* settings routines:
 * each does what its omp_* / kmp_* counterpart does; bad arguments warn.
 * kite-test-threads: 2
 * kite-test-expect-stderr: kmpc_set_library.7.: unknown library mode.*kmpc_set_defaults.*kmpc_set_disp_num_buffers.0.: not positive.*PASS
 */
#include "kite_test.h"

extern void ompc_set_num_threads(int);
extern void ompc_set_dynamic(int);
extern void ompc_set_nested(int);
extern void ompc_set_max_active_levels(int);
extern void ompc_set_schedule(omp_sched_t, int);
extern int ompc_get_ancestor_thread_num(int);
extern int ompc_get_team_size(int);
extern void ompc_set_affinity_format(const char*);
extern size_t ompc_get_affinity_format(char*, size_t);
extern size_t ompc_capture_affinity(char*, size_t, const char*);
extern void kmpc_set_library(int);
extern void kmpc_set_defaults(const char*);
extern void kmpc_set_disp_num_buffers(int);

int main(void) {
  KITE_TEST_BEGIN();
  ompc_set_num_threads(3);
  CHECK_EQ_LONG(omp_get_max_threads(), 3);
  ompc_set_dynamic(1);
  CHECK_EQ_LONG(omp_get_dynamic(), 1);
  ompc_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_dynamic(), 0);
  ompc_set_max_active_levels(2);
  CHECK_EQ_LONG(omp_get_max_active_levels(), 2);
  ompc_set_nested(1);
  CHECK_EQ_LONG(omp_get_nested(), 1);
  ompc_set_schedule(omp_sched_dynamic, 5);
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  CHECK_EQ_LONG(kind, omp_sched_dynamic);
  CHECK_EQ_LONG(chunk, 5);

  int sizes[2] = {0, 0}, ancestors[2] = {-1, -1};
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    sizes[me] = ompc_get_team_size(1) == omp_get_team_size(1) ? omp_get_team_size(1) : -1;
    ancestors[me] = ompc_get_ancestor_thread_num(1);
    CHECK_EQ_LONG(ompc_get_ancestor_thread_num(0), 0);
  }
  int n = sizes[0];
  CHECK(n >= 1 && n <= 2);
  for (int i = 0; i < n; ++i) {
    CHECK_EQ_LONG(sizes[i], n);
    CHECK_EQ_LONG(ancestors[i], i);
  }

  char buf[64];
  ompc_set_affinity_format("[%L]");
  CHECK_EQ_LONG(ompc_get_affinity_format(buf, sizeof buf), 4);
  CHECK(strcmp(buf, "[%L]") == 0);
  CHECK_EQ_LONG(ompc_capture_affinity(buf, sizeof buf, NULL), 3);
  CHECK(strcmp(buf, "[0]") == 0);
  CHECK_EQ_LONG(ompc_capture_affinity(buf, sizeof buf, "n=%n"), 3);
  CHECK(strcmp(buf, "n=0") == 0);

  /* serial mode: one thread from now on; the others only set the wait. */
  kmpc_set_library(2);
  kmpc_set_library(3);
  ompc_set_num_threads(2);
  kmpc_set_library(1);
  CHECK_EQ_LONG(omp_get_max_threads(), 1);
  int team = 0;
#pragma omp parallel
  team = omp_get_num_threads();
  CHECK_EQ_LONG(team, 1);
  kmpc_set_library(7);
  CHECK_EQ_LONG(omp_get_max_threads(), 1);
  kmpc_set_defaults("KMP_BLOCKTIME=0");
  kmpc_set_disp_num_buffers(4);
  kmpc_set_disp_num_buffers(0);
  KITE_TEST_END();
}
