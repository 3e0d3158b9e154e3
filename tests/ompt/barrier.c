/* Explicit barriers: sync_region and sync_region_wait of kind
 * barrier_explicit with the GOMP_barrier call's return address, the waiting
 * state, the enter frame while in the barrier; inside a region and
 * orphaned in the initial task.
 * kite-test-threads: 1 3 */
#include "kite_test.h"
#include "support/recorder.h"

/* Exported for dladdr; its GOMP_barrier call is the only call it makes.
 * The empty asm after it keeps clang 19+ from making it a tail call. */
__attribute__((noinline)) void do_barrier(void) {
#pragma omp barrier
  __asm__ volatile("" ::: "memory");
}

static int returns_into_do_barrier(const void* ra) {
  Dl_info info;
  if (!dladdr(ra, &info) || info.dli_saddr != (void*)do_barrier) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

static void check_barrier(rec_thread* t, int at, uint64_t pid, uint64_t task) {
  static const int order[] = {EV_SYNC_BEGIN, EV_WAIT_BEGIN, EV_WAIT_END, EV_SYNC_END};
  CHECK(at >= 0 && at + 4 <= t->count);
  if (at < 0 || at + 4 > t->count) return;
  for (int j = 0; j < 4; ++j) {
    rec_event* x = &t->ev[at + j];
    CHECK_EQ_LONG(x->ev, order[j]);
    CHECK_EQ_LONG(x->kind, ompt_sync_region_barrier_explicit);
    CHECK_EQ_LONG(x->parallel_id, pid);
    CHECK_EQ_LONG(x->task_id, task);
    CHECK(returns_into_do_barrier(x->ra));
  }
  CHECK(t->ev[at].enter_frame != NULL);
  CHECK_EQ_LONG(t->ev[at + 1].state, ompt_state_wait_barrier_explicit);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();
  uint64_t initial_task = primary->ev[1].task_id, initial_pd = primary->ev[1].parallel_id;

  /* Orphaned, in the initial task. */
  int from = primary->count;
  do_barrier();
  CHECK_EQ_LONG(primary->count - from, 4);
  check_barrier(primary, from, initial_pd, initial_task);
  CHECK_EQ_LONG(primary->ev[from + 3].state, ompt_state_work_serial);

  const int n = 3;
  int frames_cleared = 1;
  from = primary->count;
#pragma omp parallel num_threads(n)
  {
    do_barrier();
    ompt_frame_t* f = NULL;
    rec_get_task_info(0, NULL, NULL, &f, NULL, NULL);
    if (!f || f->enter_frame.ptr != NULL) frames_cleared = 0;
    do_barrier();
  }
  CHECK(frames_cleared);
  uint64_t pid = primary->ev[from].parallel_id;
  int threads = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    int b = -1;
    for (int i = 0; i < t->count; ++i)
      if (t->ev[i].ev == EV_IMPLICIT_BEGIN && t->ev[i].parallel_id == pid) b = i;
    if (b < 0) continue;
    ++threads;
    uint64_t task = t->ev[b].task_id;
    /* implicit begin, two explicit barriers, then the region's barrier. */
    check_barrier(t, b + 1, pid, task);
    check_barrier(t, b + 5, pid, task);
    CHECK_EQ_LONG(t->ev[b + 4].state, ompt_state_work_parallel);
    CHECK(b + 9 < t->count && t->ev[b + 9].ev == EV_SYNC_BEGIN &&
          t->ev[b + 9].kind == ompt_sync_region_barrier_implicit_parallel);
  }
  CHECK_EQ_LONG(threads, n);
  KITE_TEST_END();
}
