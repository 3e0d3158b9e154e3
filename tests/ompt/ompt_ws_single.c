/* single: with copyprivate, every thread sees the construct (one
 * single_executor, the others single_other), with GOMP_single_copy_*'s
 * return address, then the construct's implicit barrier; without it, the
 * threads that skip the block see single_other begin and end at once (gcc
 * tells the runtime nothing where the executor's block ends). Every work
 * event of a single has count 1, its end's too.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

#define KEEP() __asm__ volatile("" ::: "memory")
static int got[64];

__attribute__((noinline)) void single_copy(void) {
  int v = 0;
#pragma omp single copyprivate(v)
  v = 42;
  got[omp_get_thread_num()] = v;
  KEEP();
}

__attribute__((noinline)) void single_plain(void) {
#pragma omp single nowait
  KEEP();
  KEEP();
}

static int mark[REC_MAX_THREADS];

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  int n = 0;
#pragma omp parallel
  KEEP();
  for (int k = 0; k < rec_nthreads; ++k) mark[k] = rec_threads[k].count;
#pragma omp parallel
  {
#pragma omp masked
    n = omp_get_num_threads();
    single_copy();
  }
  int executors = 0, others = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    int b = rec_next(t, mark[k], EV_WORK_BEGIN);
    if (b < 0) continue;
    rec_event* wb = &t->ev[b];
    CHECK(returns_into(wb->ra, (void*)single_copy));
    CHECK_EQ_LONG(wb->n, 1);
    executors += wb->kind == ompt_work_single_executor;
    others += wb->kind == ompt_work_single_other;
    int e = rec_next(t, b, EV_WORK_END);
    CHECK(e > b);
    if (e < 0) continue;
    CHECK_EQ_LONG(t->ev[e].kind, wb->kind);
    CHECK_EQ_LONG(t->ev[e].n, 1); /* a single's count is always 1, at its end too */
    if (n > 1) {
      int s = rec_next(t, e, EV_SYNC_BEGIN);
      CHECK(s > e);
      if (s > e) {
        CHECK_EQ_LONG(t->ev[s].kind, ompt_sync_region_barrier_implicit_workshare);
        CHECK(returns_into(t->ev[s].ra, (void*)single_copy));
        CHECK_EQ_LONG(t->ev[s + 1].ev, EV_WAIT_BEGIN);
        CHECK_EQ_LONG(t->ev[s + 1].state, ompt_state_wait_barrier_implicit_workshare);
      }
    }
  }
  CHECK_EQ_LONG(executors, 1);
  CHECK_EQ_LONG(others, n - 1);
  for (int i = 0; i < n; ++i) CHECK_EQ_LONG(got[i], 42);

  for (int k = 0; k < rec_nthreads; ++k) mark[k] = rec_threads[k].count;
#pragma omp parallel
  single_plain();
  others = executors = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    for (int i = mark[k]; i < t->count; ++i) {
      rec_event* e = &t->ev[i];
      if (e->ev != EV_WORK_BEGIN) continue;
      CHECK(returns_into(e->ra, (void*)single_plain));
#ifdef __clang__
      /* clang calls __kmpc_end_single where the executor's block ends, so
       * the executor's construct is reported too. */
      if (e->kind == ompt_work_single_executor) {
        ++executors;
        int end = rec_next(t, i, EV_WORK_END);
        CHECK(end > i);
        if (end > i) CHECK_EQ_LONG(t->ev[end].kind, ompt_work_single_executor);
        if (end > i) CHECK_EQ_LONG(t->ev[end].n, 1);
        continue;
      }
#endif
      CHECK_EQ_LONG(e->kind, ompt_work_single_other);
      CHECK_EQ_LONG(e->n, 1);
      CHECK(i + 1 < t->count && t->ev[i + 1].ev == EV_WORK_END);
      if (i + 1 < t->count) CHECK_EQ_LONG(t->ev[i + 1].n, 1);
      ++others;
    }
  }
  CHECK_EQ_LONG(others, n - 1);
#ifdef __clang__
  CHECK_EQ_LONG(executors, 1);
#endif
  KITE_TEST_END();
}
