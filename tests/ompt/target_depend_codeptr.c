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

static int init(ompt_function_lookup_t lookup, int num, ompt_data_t* d) {
  (void)num, (void)d;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
  return 1;
}
static void fini(ompt_data_t* d) { (void)d; }

ompt_start_tool_result_t* ompt_start_tool(unsigned v, const char* rt) {
  (void)v, (void)rt;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}

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
