/* ompt_finalize_tool: idle workers end (thread_end on each), then the
 * initial task and the initial thread, then the tool's finalizer runs; no
 * event is dispatched afterwards, and the runtime keeps working.
 * kite-test-threads: 1 4 */
#include "kite_test.h"
#include "support/recorder.h"

int main(void) {
  KITE_TEST_BEGIN();
  int sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 4);
  rec_thread* primary = rec_me();
  int before = rec_nthreads;
  CHECK_EQ_LONG(before, 4);
  rec_finalize_tool();
  CHECK_EQ_LONG(rec_fini_calls, 1);
  for (int k = 0; k < before; ++k) {
    rec_thread* t = &rec_threads[k];
    CHECK(t->count >= 2);
    CHECK_EQ_LONG(t->ev[t->count - 1].ev, EV_THREAD_END);
    CHECK_EQ_LONG(t->ev[t->count - 1].kind, t->type);
    if (t == primary) CHECK_EQ_LONG(t->ev[t->count - 2].ev, EV_INITIAL_END);
    /* initial-task-end has no parallel data (5.1+, ompt_callback_implicit_task_t) */
    if (t == primary) CHECK(!t->ev[t->count - 2].have_pd);
    CHECK(rec_next(t, 0, EV_THREAD_END) == t->count - 1);
  }
  int counts[REC_MAX_THREADS];
  for (int k = 0; k < before; ++k) counts[k] = rec_threads[k].count;
  /* The runtime goes on, silently. */
  sum = 0;
#pragma omp parallel num_threads(3) reduction(+ : sum)
  {
#pragma omp barrier
    sum += omp_get_thread_num();
  }
  CHECK_EQ_LONG(sum, 3);
  CHECK_EQ_LONG(rec_nthreads, before);
  for (int k = 0; k < before; ++k) CHECK_EQ_LONG(rec_threads[k].count, counts[k]);
  rec_finalize_tool();
  CHECK_EQ_LONG(rec_fini_calls, 1);
  KITE_TEST_END();
}
