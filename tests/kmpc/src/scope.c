// kite-test-cflags: -rdynamic
// __kmpc_scope / __kmpc_end_scope (the scope construct's marks, which
// libomp exports): tools see a work scope region begin and end on every
// thread, with the call's return address. Called directly: clang 14 has no
// scope construct, and clang 22 emits only the closing barrier.
#include <omp-tools.h>
#include <omp.h>

#include "kite_test.h"

typedef struct ident ident_t;
void __kmpc_scope(ident_t*, int, void*);
void __kmpc_end_scope(ident_t*, int, void*);
int __kmpc_global_thread_num(ident_t*);

#define ompt_work_scope_value 8

static int begins, ends, bad;
static const void* begin_ra[64];

static void on_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                    ompt_data_t* task, uint64_t count, const void* codeptr_ra) {
  (void)parallel;
  (void)task;
  if ((int)wstype != ompt_work_scope_value) return;
  if (endpoint == ompt_scope_begin) {
    if (count != 1) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    int k = __atomic_fetch_add(&begins, 1, __ATOMIC_RELAXED);
    if (k < 64) begin_ra[k] = codeptr_ra;
  } else {
    __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
  }
}

static int tool_init(ompt_function_lookup_t lookup, int num, ompt_data_t* data) {
  (void)num;
  (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_work, (ompt_callback_t)on_work);
  return 1;
}
static void tool_fini(ompt_data_t* data) { (void)data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned v, const char* runtime) {
  (void)v;
  (void)runtime;
  static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
  return &r;
}

__attribute__((noinline)) void scope_site(int gtid) {
  __kmpc_scope(NULL, gtid, NULL);
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  KITE_TEST_BEGIN();
  int nthreads = 0;
#pragma omp parallel
  {
    int gtid = __kmpc_global_thread_num(NULL);
#pragma omp single
    nthreads = omp_get_num_threads();
    scope_site(gtid);
    __kmpc_end_scope(NULL, gtid, NULL);
  }
  CHECK_EQ_LONG(begins, nthreads);
  CHECK_EQ_LONG(ends, nthreads);
  CHECK_EQ_LONG(bad, 0);
  // The return address is inside scope_site.
  for (int i = 0; i < begins && i < 64; ++i)
    CHECK((const char*)begin_ra[i] > (const char*)scope_site &&
          (const char*)begin_ra[i] < (const char*)scope_site + 64);
  KITE_TEST_END();
}
