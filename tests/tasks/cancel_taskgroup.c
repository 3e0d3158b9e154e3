// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_CANCELLATION=true
/* Cancelling a taskgroup discards its tasks that have not started; the
 * taskgroup still ends normally; other taskgroups are unaffected;
 * cancellation points inside tasks observe it. */
#include "kite_test.h"

static int gate_token;

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_cancellation(), 1);
  /* A generator task queues 200 tasks in the taskgroup and cancels it.
   * Tasks that started before the cancel spin until they see it, so at
   * most one per other thread can have started: the rest are discarded.
   * A runtime may run a task at once (Kite does in a team of one thread),
   * so the 200 wait for a detached gate task whose event the generator
   * fulfills just before it cancels: none can start earlier. */
  int started = 0, other = 0, nthreads = 0;
#pragma omp parallel shared(started, other, nthreads)
#pragma omp single
  {
    nthreads = omp_get_num_threads();
#pragma omp taskgroup
    {
#pragma omp task shared(started)
      {
        omp_event_handle_t gate_ev;
#pragma omp task detach(gate_ev) depend(out: gate_token)
        __atomic_add_fetch(&gate_token, 1, __ATOMIC_RELAXED);
        for (int i = 0; i < 200; ++i) {
#pragma omp task depend(in: gate_token) shared(started)
          {
            __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
            /* Leaves only through the cancellation point. */
            for (;;) {
#pragma omp cancellation point taskgroup
            }
          }
        }
        omp_fulfill_event(gate_ev);
#pragma omp cancel taskgroup
      }
    }
#pragma omp taskgroup
    {
      for (int i = 0; i < 100; ++i) {
#pragma omp task shared(other)
        __atomic_add_fetch(&other, 1, __ATOMIC_RELAXED);
      }
    }
  }
  CHECK(started <= nthreads - 1);
  CHECK_EQ_LONG(other, 100);

  /* A task that cancels its taskgroup creates no more tasks in it. */
  int after = 0, gen_done = 0;
#pragma omp parallel shared(after, gen_done)
#pragma omp single
#pragma omp taskgroup
  {
#pragma omp task shared(after, gen_done)
    {
#pragma omp cancel taskgroup
      for (int i = 0; i < 100; ++i) {
#pragma omp task shared(after)
        __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
      }
      gen_done = 1;
    }
  }
  CHECK_EQ_LONG(after, 0);

  /* cancel taskgroup inside a taskloop cancels the taskloop's tasks. */
  int iters = 0;
#pragma omp parallel shared(iters)
#pragma omp single
  {
#pragma omp taskloop grainsize(1) shared(iters)
    for (int i = 0; i < 4000; ++i) {
      if (i == 0) {
#pragma omp cancel taskgroup
      }
      __atomic_add_fetch(&iters, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK(iters < 4000);
  KITE_TEST_END();
}
