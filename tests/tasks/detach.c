// kite-test-threads: 1 2 4 8
/* detach + omp_fulfill_event: a detached task completes only when its body
 * finished and its event was fulfilled, whichever comes last; dependent
 * tasks, taskwait, taskgroup and the barrier wait for that. Events are
 * fulfilled from other tasks, from the task itself, and from a thread
 * outside OpenMP. */
#define _GNU_SOURCE
#include <pthread.h>
#include "kite_test.h"

static omp_event_handle_t ev_store, shared_ev;
static int gate_token;
static volatile int ext_go;

static void* fulfiller(void* arg) {
  (void)arg;
  while (!__atomic_load_n(&ext_go, __ATOMIC_ACQUIRE)) {
  }
  for (volatile int k = 0; k < 100000; ++k) {
  }
  omp_fulfill_event(ev_store);
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  /* Fulfilled by a later task: the dependent task must wait for it. */
  for (int rep = 0; rep < 50; ++rep) {
    int x = 0, seen = -1, fulfilled = 0;
#pragma omp parallel shared(x, seen, fulfilled)
#pragma omp single
    {
      omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out: x) shared(x)
      x = 1;
#pragma omp task depend(in: x) shared(x, seen, fulfilled)
      seen = __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) ? x : -2;
#pragma omp task firstprivate(ev) shared(fulfilled)
      {
        for (volatile int k = 0; k < 1000; ++k) {
        }
        __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
        omp_fulfill_event(ev);
      }
    }
    CHECK_EQ_LONG(seen, 1);
  }

  /* taskwait waits for the event; fulfilled inside the task itself. */
  int done = 0;
#pragma omp parallel shared(done)
#pragma omp single
  {
    for (int i = 0; i < 100; ++i) {
      omp_event_handle_t ev;
#pragma omp task detach(ev) shared(done)
      {
        __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
        omp_fulfill_event(ev);
      }
    }
#pragma omp taskwait
    CHECK_EQ_LONG(done, 100);
  }

  /* Fulfilled from a plain pthread after the body returned; the region's
   * end barrier waits for it. */
  pthread_t th;
  pthread_create(&th, NULL, fulfiller, NULL);
  int body = 0, order_ok = 1;
#pragma omp parallel shared(body, order_ok)
#pragma omp single
  {
    omp_event_handle_t ev;
#pragma omp task detach(ev) shared(body)
    body = 1;
    ev_store = ev;
    __atomic_store_n(&ext_go, 1, __ATOMIC_RELEASE);
  }
  pthread_join(th, NULL);
  CHECK_EQ_LONG(body, 1);

  /* Undeferred detached task: its creator goes on once the if(0) body
   * ran; the event is fulfilled later by a task created before it, and the
   * single's barrier waits for that (tests/tasks/detach_if0.c has more).
   * That task must not start before the if(0) task's body ran: a runtime
   * may run any task at once (Kite does in a team of one thread), so it is
   * held back by a dependence on a detached gate task, whose event only
   * the if(0) task's body fulfills. */
  int undeferred_after = 0;
#pragma omp parallel shared(undeferred_after)
#pragma omp single
  {
    omp_event_handle_t ev2, gate_ev;
    int flag = 0;
#pragma omp task detach(gate_ev) depend(out: gate_token)
    __atomic_add_fetch(&gate_token, 1, __ATOMIC_RELAXED);
#pragma omp task depend(in: gate_token) shared(flag, shared_ev)
    {
      while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {
#pragma omp taskyield
      }
      omp_fulfill_event(shared_ev);
    }
#pragma omp task detach(ev2) if (0) shared(flag, shared_ev) firstprivate(gate_ev)
    {
      shared_ev = ev2;
      __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
      omp_fulfill_event(gate_ev);
    }
    undeferred_after = 1;
  }
  CHECK_EQ_LONG(undeferred_after, 1);
  (void)order_ok;
  KITE_TEST_END();
}
