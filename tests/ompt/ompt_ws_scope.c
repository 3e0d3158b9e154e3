/* The scope construct in gcc programs: gcc 12 calls the runtime at the
 * start of a scope with task reductions only (GOMP_scope_start) and ends it
 * with a plain GOMP_barrier. Each thread reports work scope begin with
 * GOMP_scope_start's return address, work scope end, then that barrier as
 * the scope's implicit barrier (barrier_implicit_workshare, the barrier
 * call's return address); an explicit barrier after it stays explicit.
 * clang 14 does not know the scope directive.
 * kite-test-compilers: gcc
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

#define KEEP() __asm__ volatile("" ::: "memory")
static int mark[REC_MAX_THREADS];
static int sum;

__attribute__((noinline)) void scope_with_task_reduction(void) {
#pragma omp scope reduction(task, + : sum)
  {
#pragma omp task in_reduction(+ : sum)
    sum += 1;
  }
#pragma omp barrier
  KEEP();
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  int nthreads = 0;
#pragma omp parallel
  nthreads = omp_get_num_threads();
  for (int k = 0; k < rec_nthreads; ++k) mark[k] = rec_threads[k].count;
#pragma omp parallel num_threads(nthreads)
  scope_with_task_reduction();
  /* Every thread's task added 1 to the one reduction the team shares. */
  CHECK_EQ_LONG(sum, nthreads);

  int scopes = 0;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    rec_thread* t = &rec_threads[k];
    int b = rec_next(t, mark[k], EV_WORK_BEGIN);
    if (b < 0) continue;
    ++scopes;
    CHECK_EQ_LONG(t->ev[b].kind, ompt_work_scope);
    CHECK(returns_into(t->ev[b].ra, (void*)scope_with_task_reduction));
    int e = rec_next(t, b, EV_WORK_END);
    CHECK(e > b);
    if (e < 0) continue;
    CHECK_EQ_LONG(t->ev[e].kind, ompt_work_scope);
    CHECK_EQ_LONG(t->ev[b].n, 1);
    CHECK_EQ_LONG(t->ev[e].n, 1); /* a scope's count is 1 at both ends */
    CHECK_EQ_LONG(t->ev[e].task_id, t->ev[b].task_id);
    int s = rec_next(t, e, EV_SYNC_BEGIN);
    CHECK(s > e);
    if (s < 0) continue;
    CHECK_EQ_LONG(t->ev[s].kind, ompt_sync_region_barrier_implicit_workshare);
    CHECK(returns_into(t->ev[s].ra, (void*)scope_with_task_reduction));
    int w = rec_next(t, s, EV_WAIT_BEGIN);
    CHECK(w > s && t->ev[w].kind == ompt_sync_region_barrier_implicit_workshare);
    int se = rec_next(t, s, EV_SYNC_END);
    CHECK(se > s && t->ev[se].kind == ompt_sync_region_barrier_implicit_workshare);
    /* The explicit barrier that follows (after the end of the task
     * reduction's taskgroup, which gcc ends after the scope's barrier). */
    int x = rec_next(t, se, EV_SYNC_BEGIN);
    while (x > se && t->ev[x].kind == ompt_sync_region_taskgroup) x = rec_next(t, x + 1, EV_SYNC_BEGIN);
    CHECK(x > se && t->ev[x].kind == ompt_sync_region_barrier_explicit);
    CHECK(rec_next(t, e + 1, EV_WORK_BEGIN) < 0);
  }
  CHECK_EQ_LONG(scopes, nthreads);
  KITE_TEST_END();
}
