/* ompt_callback_cancel: cancel parallel (activated on the canceller,
 * detected at each other thread's cancellation point), cancel taskgroup
 * (activated) with the group's unstarted tasks discarded (switched to,
 * cancel taskgroup|discarded_task, ended with ompt_task_cancel; Kite
 * creates no task for a task construct met once the group is cancelled),
 * cancel for.
 * kite-test-env: OMP_CANCELLATION=true
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int marker;
/* The return address lies in the test program (not in the runtime). */
static int in_program(const void* ra) {
  Dl_info a, b;
  return ra && dladdr(ra, &a) && dladdr((void*)&marker, &b) && a.dli_fbase == b.dli_fbase;
}

static int count_cancel(int flags, int* threads_with) {
  int n = 0, th = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    int here = 0;
    for (int i = 0; i < rec_threads[k].count; ++i) {
      rec_event* e = &rec_threads[k].ev[i];
      if (e->ev == EV_CANCEL && e->flags == flags) {
        ++here;
        if (!(flags & ompt_cancel_discarded_task)) CHECK(in_program(e->ra));
      }
    }
    n += here;
    th += here > 0;
  }
  if (threads_with) *threads_with = th;
  return n;
}

static volatile int go;
static int bodies, x;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(omp_get_cancellation());
  CHECK_EQ_LONG(rec_set_result[ompt_callback_cancel], ompt_set_always);
  int nthreads = 0;

  /* cancel parallel: workers wait until the primary is about to cancel,
   * then spin on a cancellation point, which only cancellation leaves. */
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
      nthreads = omp_get_num_threads();
      __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
#pragma omp cancel parallel
    } else {
      while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
      }
      for (;;) {
#pragma omp cancellation point parallel
      }
    }
  }
  int th = 0;
  CHECK_EQ_LONG(count_cancel(ompt_cancel_parallel | ompt_cancel_activated, &th), 1);
  CHECK_EQ_LONG(count_cancel(ompt_cancel_parallel | ompt_cancel_detected, &th), nthreads - 1);
  CHECK_EQ_LONG(th, nthreads - 1);

  /* cancel taskgroup: the tasks that depend on the cancelling one become
   * ready only after it cancelled, so none of them starts. */
  uint64_t ids[8] = {0};
  int nids = 0;
#pragma omp parallel
#pragma omp masked
  {
    rec_thread* me = rec_me();
    int before = me->count;
#pragma omp taskgroup
    {
#pragma omp task depend(out: x)
      {
#pragma omp cancel taskgroup
      }
      for (int i = 0; i < 8; ++i) {
#pragma omp task depend(in: x)
        __atomic_add_fetch(&bodies, 1, __ATOMIC_RELAXED);
      }
    }
    for (int i = before; i < me->count; ++i)
      if (me->ev[i].ev == EV_TASK_CREATE && nids < 8 && i > before + 1)
        ids[nids++] = me->ev[i].task_id;
  }
  CHECK_EQ_LONG(bodies, 0);
  CHECK_EQ_LONG(count_cancel(ompt_cancel_taskgroup | ompt_cancel_activated, NULL), 1);
  /* A task construct met after the cancellation creates no task; every
   * task that was created is discarded where it would have started: the
   * thread switches to it, reports cancel with the construct's kind
   * (taskgroup) | discarded_task in its context, and leaves it with
   * ompt_task_cancel; its body never runs. */
  const int discarded = ompt_cancel_taskgroup | ompt_cancel_discarded_task;
  CHECK_EQ_LONG(count_cancel(discarded, NULL), nids);
  CHECK_EQ_LONG(count_cancel(ompt_cancel_discarded_task, NULL), 0);
  for (int j = 0; j < nids; ++j) {
    int found = 0, in_order = 0, other_ends = 0;
    for (int k = 0; k < rec_nthreads; ++k) {
      rec_thread* t = &rec_threads[k];
      for (int i = 0; i < t->count; ++i) {
        rec_event* e = &t->ev[i];
        if (e->ev == EV_CANCEL && e->flags == discarded && e->task_id == ids[j]) {
          ++found;
          if (i >= 1 && i + 1 < t->count) {
            rec_event *sw = &t->ev[i - 1], *end = &t->ev[i + 1];
            in_order += sw->ev == EV_TASK_SCHEDULE && sw->kind == ompt_task_switch &&
                        sw->enc_task_id == ids[j] && end->ev == EV_TASK_SCHEDULE &&
                        end->kind == ompt_task_cancel && end->task_id == ids[j] &&
                        end->enc_task_id == sw->task_id;
          }
        }
        if (e->ev == EV_TASK_SCHEDULE && e->task_id == ids[j] && e->kind != ompt_task_cancel)
          ++other_ends;
      }
    }
    CHECK_EQ_LONG(found, 1);
    CHECK_EQ_LONG(in_order, 1);
    CHECK_EQ_LONG(other_ends, 0);
  }

  /* cancel for: activated once, by the thread that ran iteration 0. */
#pragma omp parallel
  {
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 64; ++i) {
      if (i == 0) {
#pragma omp cancel for
      }
#pragma omp cancellation point for
    }
  }
  CHECK_EQ_LONG(count_cancel(ompt_cancel_loop | ompt_cancel_activated, NULL), 1);
  KITE_TEST_END();
}
