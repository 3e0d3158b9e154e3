/* Serialized parallel regions report their implicit barrier like any other
 * region: an if(false) region (gcc: GOMP_parallel with one thread; clang:
 * __kmpc_serialized_parallel / __kmpc_end_serialized_parallel, the body
 * called by the program) and a region nested beyond max-active-levels
 * (OMP_MAX_ACTIVE_LEVELS=1, a team of one). On the encountering thread:
 * parallel_begin, implicit_task begin (parallelism 1, index 0),
 * sync_region and sync_region_wait begin/end of kind
 * barrier_implicit_parallel for that region, implicit_task end,
 * parallel_end.
 * kite-test-env: OMP_MAX_ACTIVE_LEVELS=1
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/recorder.h"

#define KEEP() __asm__ volatile("" ::: "memory")
static volatile int off;

/* The events of one serialized region on thread t, from `from`. */
static int check_serialized(rec_thread* t, int from) {
  int b = rec_next(t, from, EV_PARALLEL_BEGIN);
  CHECK(b >= 0);
  if (b < 0) return -1;
  uint64_t pid = t->ev[b].parallel_id;
  int ib = rec_next(t, b, EV_IMPLICIT_BEGIN);
  CHECK(ib > b);
  if (ib < 0) return -1;
  CHECK_EQ_LONG(t->ev[ib].parallel_id, pid);
  CHECK_EQ_LONG(t->ev[ib].n, 1);
  CHECK_EQ_LONG(t->ev[ib].index, 0);
  int sb = rec_next(t, ib, EV_SYNC_BEGIN);
  CHECK(sb > ib);
  if (sb < 0) return -1;
  CHECK_EQ_LONG(t->ev[sb].kind, ompt_sync_region_barrier_implicit_parallel);
  CHECK_EQ_LONG(t->ev[sb].parallel_id, pid);
  CHECK_EQ_LONG(t->ev[sb].task_id, t->ev[ib].task_id);
  int wb = rec_next(t, sb, EV_WAIT_BEGIN);
  int we = rec_next(t, sb, EV_WAIT_END);
  int se = rec_next(t, sb, EV_SYNC_END);
  CHECK(wb > sb && we > wb && se > we);
  if (se < 0) return -1;
  CHECK_EQ_LONG(t->ev[se].kind, ompt_sync_region_barrier_implicit_parallel);
  int ie = rec_next(t, se, EV_IMPLICIT_END);
  int pe = rec_next(t, se, EV_PARALLEL_END);
  CHECK(ie > se && pe > ie);
  if (pe < 0) return -1;
  CHECK_EQ_LONG(t->ev[pe].parallel_id, pid);
  return pe + 1;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();

  int from = me->count;
#pragma omp parallel if (off)
  KEEP();
  check_serialized(me, from);

  /* Nested beyond max-active-levels: every thread of the outer region
   * runs its inner region alone. */
  int marks[REC_MAX_THREADS];
  for (int k = 0; k < REC_MAX_THREADS; ++k) marks[k] = rec_threads[k].count;
  int outer = 0, inner_size[64] = {0};
#pragma omp parallel
  {
    int id = omp_get_thread_num();
#pragma omp masked
    outer = omp_get_num_threads();
#pragma omp parallel
    if (id < 64) inner_size[id] = omp_get_num_threads();
  }
  for (int i = 0; i < outer && i < 64; ++i) CHECK_EQ_LONG(inner_size[i], 1);
  int regions = 0;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    rec_thread* t = &rec_threads[k];
    /* The outer region's begin is on the primary only: skip it there. */
    int from_k = marks[k];
    if (t == me) {
      int ob = rec_next(t, from_k, EV_PARALLEL_BEGIN);
      if (ob < 0) continue;
      from_k = ob + 1;
    }
    if (rec_next(t, from_k, EV_PARALLEL_BEGIN) < 0) continue;
    ++regions;
    check_serialized(t, from_k);
  }
  CHECK_EQ_LONG(regions, outer);
  KITE_TEST_END();
}
