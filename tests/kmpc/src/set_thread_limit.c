// kite-test-threads: 4
// __kmpc_set_thread_limit, which clang 19+ calls for thread_limit on a
// target construct without teams, inside the target region's undeferred
// task: thread-limit-var of that task, bounding the regions it encloses,
// and not of the task that encountered the construct. Called directly here
// (clang 14 does not emit it).
#include <omp.h>

#include "kite_test.h"

typedef struct ident ident_t;
void __kmpc_set_thread_limit(ident_t*, int, int);
int __kmpc_global_thread_num(ident_t*);

int main(void) {
  KITE_TEST_BEGIN();
  const int before = omp_get_thread_limit();
  int limit_inside = 0, team = 0;
#pragma omp task if (0) shared(limit_inside, team)
  {
    __kmpc_set_thread_limit(NULL, __kmpc_global_thread_num(NULL), 2);
    limit_inside = omp_get_thread_limit();
#pragma omp parallel num_threads(4)
#pragma omp single
    team = omp_get_num_threads();
  }
  CHECK_EQ_LONG(limit_inside, 2);
  CHECK(team >= 1 && team <= 2);
  CHECK_EQ_LONG(omp_get_thread_limit(), before);
  // Not positive: ignored (with a warning).
  __kmpc_set_thread_limit(NULL, __kmpc_global_thread_num(NULL), 0);
  CHECK_EQ_LONG(omp_get_thread_limit(), before);
  KITE_TEST_END();
}
