/* The implicit taskgroup of a worksharing loop with a task reduction
 * (gcc: ended by GOMP_workshare_task_reduction_unregister) reports its
 * sync_region with the codeptr_ra of the call that ends it, like every
 * other taskgroup: never NULL.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"

#include <omp-tools.h>

static int taskgroups, null_codeptr;

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                           ompt_data_t* td, const void* ra) {
  (void)ep, (void)pd, (void)td;
  if (kind == ompt_sync_region_taskgroup) __atomic_add_fetch(&taskgroups, 1, __ATOMIC_RELAXED);
  if (!ra) __atomic_add_fetch(&null_codeptr, 1, __ATOMIC_RELAXED);
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
}
#include "support/small_tool.h"

int main(void) {
  KITE_TEST_BEGIN();
  long sum = 0;
#pragma omp parallel
  {
#pragma omp for reduction(task, + : sum)
    for (int i = 0; i < 100; ++i) {
#pragma omp task in_reduction(+ : sum)
      sum += i;
    }
  }
  CHECK_EQ_LONG(sum, 4950);
  CHECK(taskgroups > 0);
  CHECK_EQ_LONG(null_codeptr, 0);
  KITE_TEST_END();
}
