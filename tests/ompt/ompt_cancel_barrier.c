/* Barriers of a parallel region that holds `cancel parallel`: each thread
 * reports the implicit barrier of a loop (barrier_implicit_workshare) once,
 * whether the compiler ends the loop with GOMP_loop_end_cancel (gcc) or a
 * cancellable __kmpc_cancel_barrier with the loop's location flags (clang);
 * the primary then cancels the region and the barrier that only leaves it
 * (clang's, on the cancelling thread) is no construct's barrier; every
 * other thread detects the cancellation in the explicit barrier construct
 * (GOMP_barrier_cancel, __kmpc_cancel_barrier), or already when it leaves
 * the loop's barrier late: ompt_callback_cancel with ompt_cancel_parallel |
 * ompt_cancel_detected and the barrier call's return address, right after
 * that barrier's events.
 * kite-test-env: OMP_CANCELLATION=true
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int marker;
static int in_program(const void* ra) {
  Dl_info a, b;
  return ra && dladdr(ra, &a) && dladdr((void*)&marker, &b) && a.dli_fbase == b.dli_fbase;
}

#define N 64
static int hits[N];
static int mark[REC_MAX_THREADS];

static int count(rec_thread* t, int ev, int kind) {
  int n = 0;
  for (int i = mark[t - rec_threads]; i < t->count; ++i)
    n += t->ev[i].ev == ev && (kind < 0 || t->ev[i].kind == kind);
  return n;
}

static int count_flags(rec_thread* t, int ev, int flags) {
  int n = 0;
  for (int i = mark[t - rec_threads]; i < t->count; ++i)
    n += t->ev[i].ev == ev && t->ev[i].flags == flags;
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(omp_get_cancellation());
  int nthreads = 0;
#pragma omp parallel
  nthreads = omp_get_num_threads();
  for (int k = 0; k < rec_nthreads; ++k) mark[k] = rec_threads[k].count;

  int cancelled_seen = 0;
#pragma omp parallel num_threads(nthreads)
  {
#pragma omp for schedule(dynamic, 4)
    for (int i = 0; i < N; ++i) __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
    if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
    }
#pragma omp barrier
    /* Not reached by a thread that saw the cancellation. */
    __atomic_fetch_add(&cancelled_seen, 1, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(hits[i], 1);
  CHECK_EQ_LONG(cancelled_seen, 0);

  int detected = 0, activated = 0;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    rec_thread* t = &rec_threads[k];
    if (count(t, EV_WORK_BEGIN, -1) == 0) continue;  /* not in the region */
    CHECK_EQ_LONG(count(t, EV_SYNC_BEGIN, ompt_sync_region_barrier_implicit_workshare), 1);
    CHECK_EQ_LONG(count(t, EV_SYNC_END, ompt_sync_region_barrier_implicit_workshare), 1);
    int a = count_flags(t, EV_CANCEL, ompt_cancel_parallel | ompt_cancel_activated);
    int d = count_flags(t, EV_CANCEL, ompt_cancel_parallel | ompt_cancel_detected);
    activated += a;
    detected += d;
    if (d) {
      /* Right after the barrier that found the region cancelled: the
       * explicit one, or the loop's when the thread left that barrier only
       * after the primary had cancelled. */
      int c = rec_next(t, mark[k], EV_CANCEL);
      CHECK(c > mark[k]);
      if (c > mark[k]) {
        rec_event* prev = &t->ev[c - 1];
        CHECK_EQ_LONG(prev->ev, EV_SYNC_END);
        CHECK(prev->kind == ompt_sync_region_barrier_explicit ||
              prev->kind == ompt_sync_region_barrier_implicit_workshare);
        CHECK(in_program(t->ev[c].ra));
        CHECK(t->ev[c].ra == prev->ra);
      }
    }
    if (a) CHECK_EQ_LONG(count(t, EV_SYNC_BEGIN, ompt_sync_region_barrier_explicit), 0);
  }
  CHECK_EQ_LONG(activated, 1);
  CHECK_EQ_LONG(detected, nthreads - 1);
  KITE_TEST_END();
}
