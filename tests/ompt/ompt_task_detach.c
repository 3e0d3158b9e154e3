/* Detached tasks: a body that ends before its event is fulfilled reports
 * ompt_task_detach, then ompt_task_late_fulfill from omp_fulfill_event; an
 * event fulfilled inside the body reports ompt_task_early_fulfill, then the
 * body's end ompt_task_complete. An undeferred one (if(0)) whose event its
 * creator fulfils after the construct: created undeferred, ompt_task_detach
 * at the body's end (the creator goes on), ompt_task_late_fulfill.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int body_done;

/* The schedule events of task `id` over all threads, in each thread's order
 * (a task's events all come from one thread, except the fulfill). */
static int statuses(uint64_t id, int* out, int max) {
  int n = 0;
  for (int k = 0; k < rec_nthreads; ++k)
    for (int i = 0; i < rec_threads[k].count; ++i) {
      rec_event* e = &rec_threads[k].ev[i];
      if (e->ev == EV_TASK_SCHEDULE && e->task_id == id && n < max) out[n++] = e->kind;
    }
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();
  int from = primary->count;
  omp_event_handle_t ev1, ev2;
#pragma omp parallel
#pragma omp masked
  {
#pragma omp task detach(ev1)
    __atomic_store_n(&body_done, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&body_done, __ATOMIC_ACQUIRE)) {
#pragma omp taskyield
    }
    omp_fulfill_event(ev1);
#pragma omp task detach(ev2)
    omp_fulfill_event(ev2);
#pragma omp taskwait
  }
  uint64_t id[2] = {0, 0};
  int n = 0;
  for (int i = from; i < primary->count && n < 2; ++i)
    if (primary->ev[i].ev == EV_TASK_CREATE) id[n++] = primary->ev[i].task_id;
  CHECK_EQ_LONG(n, 2);
  int st[8];
  /* Late: the fulfill comes from the primary after the body ended. */
  int m = statuses(id[0], st, 8);
  CHECK_EQ_LONG(m, 2);
  if (m == 2) {
    CHECK_EQ_LONG(st[0] == ompt_task_detach || st[1] == ompt_task_detach, 1);
    CHECK_EQ_LONG(st[0] == ompt_task_late_fulfill || st[1] == ompt_task_late_fulfill, 1);
  }
  int late = -1;
  for (int i = from; i < primary->count; ++i)
    if (primary->ev[i].ev == EV_TASK_SCHEDULE && primary->ev[i].task_id == id[0] &&
        primary->ev[i].kind == ompt_task_late_fulfill)
      late = i;
  CHECK(late >= 0);
  if (late >= 0) CHECK_EQ_LONG(primary->ev[late].enc_task_id, 0);
  /* Early: fulfilled inside the body, on the thread running it. */
  m = statuses(id[1], st, 8);
  CHECK_EQ_LONG(m, 2);
  if (m == 2) {
    CHECK_EQ_LONG(st[0], ompt_task_early_fulfill);
    CHECK_EQ_LONG(st[1], ompt_task_complete);
  }

  /* Undeferred, fulfilled by its creator after the construct. */
  kite_test_watchdog(30, "the creator of a detach if(0) task waited for its event");
  omp_event_handle_t ev3;
  int body3 = 0;
  from = primary->count;
#pragma omp parallel shared(body3)
#pragma omp masked
  {
#pragma omp task detach(ev3) if (0) shared(body3)
    body3 = 1;
    omp_fulfill_event(ev3);
  }
  alarm(0);
  CHECK_EQ_LONG(body3, 1);
  uint64_t id3 = 0;
  int flags3 = 0;
  for (int i = from; i < primary->count; ++i)
    if (primary->ev[i].ev == EV_TASK_CREATE) {
      id3 = primary->ev[i].task_id;
      flags3 = primary->ev[i].flags;
      break;
    }
  CHECK(id3 != 0);
  CHECK(flags3 & ompt_task_undeferred);
  CHECK(flags3 & ompt_task_explicit);
  m = statuses(id3, st, 8);
  /* As prior task: detach (back to the creator), then the late fulfill. */
  CHECK_EQ_LONG(m, 2);
  if (m == 2) {
    CHECK_EQ_LONG(st[0], ompt_task_detach);
    CHECK_EQ_LONG(st[1], ompt_task_late_fulfill);
  }
  KITE_TEST_END();
}
