/* A target construct with depend clauses and no nowait first waits for its
 * dependences, which is reported as the task of a `taskwait depend`
 * (ompt_task_taskwait|ompt_task_undeferred): its task_create carries the
 * construct's codeptr_ra (the GOMP_target_* call's return address), for
 * target regions and for target update / enter / exit data alike.
 * kite-test-compilers: gcc -- clang 14 without offload targets makes no
 *   runtime call for data constructs
 * kite-test-threads: 1 2 */
#include "kite_test.h"

#include <omp-tools.h>

static int waits, null_codeptr;

static void on_task_create(ompt_data_t* enc, const ompt_frame_t* f, ompt_data_t* nt, int flags,
                           int deps, const void* ra) {
  (void)enc, (void)f, (void)nt, (void)deps;
  if (!(flags & ompt_task_taskwait)) return;
  __atomic_add_fetch(&waits, 1, __ATOMIC_RELAXED);
  if (!ra) __atomic_add_fetch(&null_codeptr, 1, __ATOMIC_RELAXED);
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
}
#include "support/small_tool.h"

int main(void) {
  KITE_TEST_BEGIN();
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    x = 1;
#pragma omp target update to(x) depend(in : x)
#pragma omp target enter data map(to : x) depend(inout : x)
#pragma omp target map(tofrom : x) depend(inout : x)
    x += 1;
#pragma omp target exit data map(from : x) depend(inout : x)
  }
  CHECK_EQ_LONG(x, 2);
  CHECK_EQ_LONG(waits, 4);
  CHECK_EQ_LONG(null_codeptr, 0);
  KITE_TEST_END();
}
