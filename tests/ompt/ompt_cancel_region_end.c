/* The implicit barrier that ends a parallel region is a cancellation point:
 * a thread that reaches it in a cancelled region without having met the
 * cancellation before detects it there, and reports ompt_callback_cancel
 * (ompt_cancel_parallel | ompt_cancel_detected, its implicit task, the
 * region's codeptr_ra) after that barrier's sync_region end, before its
 * implicit task ends. A thread that already reported the cancellation (the
 * one that activated it, or one that detected it at an explicit barrier)
 * does not report it again there.
 * kite-test-env: OMP_CANCELLATION=true
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"

#include <omp-tools.h>

static int activated, detected, detected_at_end, misplaced, wrong_codeptr;
static const void* region_ra;
static __thread int after_end_barrier;

static void on_parallel_begin(ompt_data_t* enc, const ompt_frame_t* f, ompt_data_t* pd,
                              unsigned req, int flags, const void* ra) {
  (void)enc, (void)f, (void)pd, (void)req, (void)flags;
  region_ra = ra;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                           ompt_data_t* td, const void* ra) {
  (void)pd, (void)td, (void)ra;
  if (kind == ompt_sync_region_barrier_implicit_parallel && ep == ompt_scope_end)
    after_end_barrier = 1;
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                             unsigned n, unsigned index, int flags) {
  (void)pd, (void)td, (void)n, (void)index, (void)flags;
  after_end_barrier = 0;
  (void)ep;
}

static void on_cancel(ompt_data_t* td, int flags, const void* ra) {
  (void)td;
  if (flags & ompt_cancel_activated) __atomic_add_fetch(&activated, 1, __ATOMIC_RELAXED);
  if (!(flags & ompt_cancel_detected)) return;
  if (flags != (ompt_cancel_parallel | ompt_cancel_detected))
    __atomic_add_fetch(&misplaced, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&detected, 1, __ATOMIC_RELAXED);
  if (after_end_barrier) {
    __atomic_add_fetch(&detected_at_end, 1, __ATOMIC_RELAXED);
    if (ra != region_ra) __atomic_add_fetch(&wrong_codeptr, 1, __ATOMIC_RELAXED);
  }
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_cancel, (ompt_callback_t)on_cancel);
}
#include "support/small_tool.h"

static void reset(void) {
  activated = detected = detected_at_end = misplaced = wrong_codeptr = 0;
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
  int n = 0;
#pragma omp parallel
  n = omp_get_num_threads();

  /* Only the primary meets a cancellation point (its own cancel): every
   * other thread detects the cancellation at the region's end. */
  reset();
#pragma omp parallel num_threads(n)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
  }
  CHECK_EQ_LONG(activated, 1);
  CHECK_EQ_LONG(detected, n - 1);
  CHECK_EQ_LONG(detected_at_end, n - 1);
  CHECK_EQ_LONG(misplaced, 0);
  CHECK_EQ_LONG(wrong_codeptr, 0);

  /* The others detect it at an explicit barrier: once, not again at the
   * region's end. */
  reset();
  int passed = 0;
#pragma omp parallel num_threads(n)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
#pragma omp barrier
    __atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(passed, 0);
  CHECK_EQ_LONG(activated, 1);
  CHECK_EQ_LONG(detected, n - 1);
  CHECK_EQ_LONG(detected_at_end, 0);
  CHECK_EQ_LONG(misplaced, 0);

  /* A region that is not cancelled reports no cancellation. */
  reset();
#pragma omp parallel num_threads(n)
  {
#pragma omp barrier
  }
  CHECK_EQ_LONG(activated + detected, 0);
  KITE_TEST_END();
}
