/* A tool that registers both forms of the target callbacks gets only the
 * EMI ones (the non-EMI forms carry nothing more), while both stay
 * registered for ompt_get_callback.
 * clang 14 makes no runtime call for target constructs: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#define TGT_BOTH
#include "kite_test.h"
#include "support/target_recorder.h"

static void* block;

void run_target(void) __attribute__((noinline));
void run_target(void) {
#pragma omp target map(tofrom : block)
  block = omp_target_alloc(32, omp_get_initial_device());
#pragma omp target enter data map(to : block)
  omp_target_free(block, omp_get_initial_device());
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  ompt_callback_t got = NULL;
  CHECK_EQ_LONG(rec_get_callback(ompt_callback_target, &got), 1);
  CHECK_EQ_LONG(rec_get_callback(ompt_callback_target_emi, &got), 1);
  int from = me->count;
  run_target();
  static const int want[] = {EV_TARGET_BEGIN, EV_SUBMIT_BEGIN,  EV_SUBMIT_END,
                             EV_INITIAL_BEGIN, EV_DATA_OP_BEGIN, EV_DATA_OP_END,
                             EV_INITIAL_END,  EV_TARGET_END,    EV_TARGET_BEGIN,
                             EV_TARGET_END,   EV_DATA_OP_BEGIN, EV_DATA_OP_END};
  const int n = (int)(sizeof want / sizeof want[0]);
  CHECK_EQ_LONG(me->count - from, n);
  for (int i = 0; i < n && from + i < me->count; ++i) CHECK_EQ_LONG(me->ev[from + i].ev, want[i]);
  KITE_TEST_END();
}
