/* A cancelled loop still ends: clang's code leaves a cancelled dynamic loop
 * for its barrier without the last __kmpc_dispatch_next that ends the
 * construct, so every thread's work end comes before the implicit barrier
 * (barrier_implicit_workshare) all the same; gcc's GOMP_loop_end_cancel
 * ends it as usual.
 * kite-test-env: OMP_CANCELLATION=true
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"

#include <omp-tools.h>

static int begins, ends, open_at_barrier;
static __thread int loop_open;

static int is_loop(ompt_work_t wt) {
  return wt == ompt_work_loop || wt == ompt_work_loop_static || wt == ompt_work_loop_dynamic ||
         wt == ompt_work_loop_guided || wt == ompt_work_loop_other;
}

static void on_work(ompt_work_t wt, ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                    uint64_t count, const void* ra) {
  (void)pd, (void)td, (void)count, (void)ra;
  if (!is_loop(wt)) return;
  loop_open = ep == ompt_scope_begin;
  __atomic_add_fetch(ep == ompt_scope_begin ? &begins : &ends, 1, __ATOMIC_RELAXED);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                           ompt_data_t* td, const void* ra) {
  (void)pd, (void)td, (void)ra;
  if (ep == ompt_scope_begin && kind == ompt_sync_region_barrier_implicit_workshare &&
      loop_open)
    __atomic_add_fetch(&open_at_barrier, 1, __ATOMIC_RELAXED);
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_work, (ompt_callback_t)on_work);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
}
#include "support/small_tool.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
  long ran = 0;
  for (int rep = 0; rep < 10; ++rep) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 1)
      for (int i = 0; i < 1000; i++) {
        if (i == 5) {
#pragma omp cancel for
        }
#pragma omp cancellation point for
#pragma omp atomic
        ran++;
      }
    }
  }
  CHECK(ran < 10 * 1000);
  CHECK(begins > 0);
  CHECK_EQ_LONG(begins, ends);
  CHECK_EQ_LONG(open_at_barrier, 0);
  KITE_TEST_END();
}
