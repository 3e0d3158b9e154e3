/* GOMP_scope_start called again before the barrier call that would end
 * the previous scope, and once outside any region with no barrier after it
 * (an old or hand-written caller; gcc always follows it with a barrier):
 * every work scope begin still gets its end, on its own thread, before the
 * next begin, and the last one by the end of the initial task. Checked at
 * the tool's finalizer, which runs after the initial task ended.
 * kite-test-compilers: gcc
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"

#include <omp-tools.h>
#include <unistd.h>

extern void GOMP_scope_start(void*);

static int begins, ends, nested;
static __thread int open_here;

static void on_work(ompt_work_t wt, ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                    uint64_t count, const void* ra) {
  (void)pd, (void)td, (void)count, (void)ra;
  if (wt != ompt_work_scope) return;
  if (ep == ompt_scope_begin) {
    if (open_here) __atomic_add_fetch(&nested, 1, __ATOMIC_RELAXED);
    open_here = 1;
    __atomic_add_fetch(&begins, 1, __ATOMIC_RELAXED);
  } else {
    open_here = 0;
    __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
  }
}

static int init(ompt_function_lookup_t lookup, int num, ompt_data_t* d) {
  (void)num, (void)d;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_work, (ompt_callback_t)on_work);
  return 1;
}

static void fini(ompt_data_t* d) {
  (void)d;
  if (begins == 0 || begins != ends || nested) {
    fprintf(stderr, "FAIL: %d scope begins, %d ends, %d begun while one was open\n", begins,
            ends, nested);
    _exit(1);
  }
  printf("finalizer: %d scope begins, all ended\n", begins);
}

ompt_start_tool_result_t* ompt_start_tool(unsigned v, const char* rt) {
  (void)v, (void)rt;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}

int main(void) {
  KITE_TEST_BEGIN();
  int n = 0;
#pragma omp parallel reduction(+: n)
  {
    for (int r = 0; r < 5; ++r) GOMP_scope_start(NULL);
    n = 1;
  }
  CHECK(begins >= 5 * n);
  CHECK_EQ_LONG(begins, ends);
  GOMP_scope_start(NULL);
  CHECK_EQ_LONG(begins, ends + 1); /* ends with the initial task */
  KITE_TEST_END();
}
