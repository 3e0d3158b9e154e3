// kite-test-threads: 1 2 4
/* An undeferred detachable task (detach + if(0)) whose event is fulfilled
 * by its generating task after the construct. The generating task waits
 * only for the task's structured block: "an undeferred task ... suspends
 * the generating task region until execution of the structured block
 * associated with the undeferred task is completed" (5.2 glossary); the
 * task completes later, when its event is fulfilled (§12.5.2). So the
 * creator goes on past the construct, and what waits for task completion
 * (dependences, taskwait, taskgroup, the region's barrier) waits for the
 * fulfillment. In a parallel region, in a team of one (if(0) region) and
 * outside any region (where a dependent task waits for an event another
 * thread fulfils). A runtime that suspends the creator until the event is
 * fulfilled hangs here: the alarm turns that into a failure. Task bodies
 * are never empty: gcc drops an empty if(0) task, event and all. */
#define _GNU_SOURCE
#include <pthread.h>
#include "kite_test.h"

/* A plain thread fulfils `pending` once told to, after marking it. */
static omp_event_handle_t pending;
static volatile int go, fulfilled;
static int bodies;

static void* late_fulfiller(void* arg) {
  (void)arg;
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) usleep(100);
  usleep(20000);
  __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
  omp_fulfill_event(pending);
  return NULL;
}

static void start_late_fulfiller(pthread_t* th) {
  go = 0;
  fulfilled = 0;
  pthread_create(th, NULL, late_fulfiller, NULL);
}

/* A detachable if(0) task whose event the late fulfiller gets once the
 * creator is past the construct. Not empty: gcc drops an empty if(0) task,
 * event and all. */
static void detach_and_release(void) {
  omp_event_handle_t ev;
#pragma omp task detach(ev) if (0)
  __atomic_add_fetch(&bodies, 1, __ATOMIC_RELAXED);
  pending = ev;
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
}

/* The shape: fulfilled by the creator right after the construct;
 * a task depending on the detached one starts only after that. */
static void fulfil_after_construct(int* body, int* seen) {
  omp_event_handle_t ev;
  int x = 0, done = 0;
#pragma omp task detach(ev) if (0) depend(out: x) shared(x, body)
  {
    x = 1;
    *body = 1;
  }
  /* Here the body ran; the task is not complete. */
  CHECK_EQ_LONG(x, 1);
#pragma omp task depend(in: x) shared(done, seen)
  *seen = __atomic_load_n(&done, __ATOMIC_ACQUIRE);
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
  omp_fulfill_event(ev);
#pragma omp taskwait
}

/* taskwait waits for an event fulfilled by another thread later. */
static void taskwait_waits(void) {
  pthread_t th;
  start_late_fulfiller(&th);
  int body = 0;
  omp_event_handle_t ev;
#pragma omp task detach(ev) if (0) shared(body)
  body = 1;
  CHECK_EQ_LONG(body, 1);
  pending = ev;
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
  CHECK_EQ_LONG(__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE), 1);
  pthread_join(th, NULL);
}

/* Outside any region, where tasks run at once: a task depending on the
 * detached one waits for its event (fulfilled by another thread: no task
 * of this one can run meanwhile). */
static void dependent_waits(void) {
  pthread_t th;
  start_late_fulfiller(&th);
  int x = 0, seen = -1;
  omp_event_handle_t ev;
#pragma omp task detach(ev) if (0) depend(out: x) shared(x)
  x = 1;
  pending = ev;
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
#pragma omp task depend(in: x) shared(seen)
  seen = __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE);
#pragma omp taskwait
  CHECK_EQ_LONG(x, 1);
  CHECK_EQ_LONG(seen, 1);
  pthread_join(th, NULL);
}

/* So does the end of a taskgroup. */
static void taskgroup_waits(void) {
  pthread_t th;
  start_late_fulfiller(&th);
#pragma omp taskgroup
  {
    detach_and_release();
  }
  CHECK_EQ_LONG(__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE), 1);
  pthread_join(th, NULL);
}

int main(void) {
  KITE_TEST_BEGIN();
  kite_test_watchdog(30, "the creator of a detach if(0) task waited for its event");

  /* In a parallel region, by one thread while the others wait at the
   * single's barrier (running tasks), many times. */
  for (int rep = 0; rep < 50; ++rep) {
    int body = 0, seen = -1;
#pragma omp parallel shared(body, seen)
#pragma omp single
    fulfil_after_construct(&body, &seen);
    CHECK_EQ_LONG(body, 1);
    CHECK_EQ_LONG(seen, 1);
  }
#pragma omp parallel
#pragma omp single
  {
    taskwait_waits();
    taskgroup_waits();
  }

  /* Every thread makes one; the events are fulfilled after the region's
   * last statement: the region's end waits for all of them. */
  {
    static omp_event_handle_t evs[64];
    int made = 0, stored = 0, team = 0;
#pragma omp parallel shared(made, stored, team)
    {
      int me = omp_get_thread_num(), n = omp_get_num_threads();
      if (me < 64) {
        omp_event_handle_t ev;
#pragma omp task detach(ev) if (0) shared(made)
        __atomic_add_fetch(&made, 1, __ATOMIC_RELAXED);
        evs[me] = ev;
        __atomic_add_fetch(&stored, 1, __ATOMIC_RELEASE);
      }
      /* Not a barrier: it would wait for these very tasks. */
      if (me == 0) {
        team = n < 64 ? n : 64;
        while (__atomic_load_n(&stored, __ATOMIC_ACQUIRE) < team) {
        }
        for (int i = 0; i < team; ++i) omp_fulfill_event(evs[i]);
      }
    }
    CHECK_EQ_LONG(made, team);
  }

  /* The region's barrier waits for an event a plain thread fulfils later. */
  {
    pthread_t th;
    start_late_fulfiller(&th);
#pragma omp parallel
#pragma omp single nowait
    {
      detach_and_release();
    }
    CHECK_EQ_LONG(__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE), 1);
    pthread_join(th, NULL);
  }

  /* A team of one thread, and no region at all. */
  {
    int body = 0, seen = -1;
#pragma omp parallel if (0) shared(body, seen)
    fulfil_after_construct(&body, &seen);
    CHECK_EQ_LONG(body, 1);
    CHECK_EQ_LONG(seen, 1);
  }
  {
    /* The creator fulfils it itself, with no dependent task before. */
    omp_event_handle_t ev;
    int body = 0;
#pragma omp task detach(ev) if (0) shared(body)
    body = 1;
    CHECK_EQ_LONG(body, 1);
    omp_fulfill_event(ev);
#pragma omp taskwait
  }
  dependent_waits();
  taskwait_waits();
  taskgroup_waits();
  alarm(0);
  KITE_TEST_END();
}
