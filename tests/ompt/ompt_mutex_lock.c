/* OMPT mutex events of simple locks: lock_init (with and without a hint),
 * omp_set_lock / omp_unset_lock (ompt_mutex_lock), omp_test_lock
 * (ompt_mutex_test_lock, on success and on failure), lock_destroy; the
 * wait_lock state and wait id a tool sees from mutex_acquire; codeptr_ra of
 * every event equal to the program's call site; exact per-thread sequences
 * under contention.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include <stdint.h>
#include "support/mutex_recorder.h"

/* Call sites: each exported function makes exactly one runtime call, not
 * as a tail call, so codeptr_ra must return into it. */
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")
__attribute__((noinline)) void site_init(omp_lock_t* l) { omp_init_lock(l); KEEP_FRAME(); }
__attribute__((noinline)) void site_init_hint(omp_lock_t* l, omp_sync_hint_t h) {
  omp_init_lock_with_hint(l, h);
  KEEP_FRAME();
}
__attribute__((noinline)) void site_destroy(omp_lock_t* l) { omp_destroy_lock(l); KEEP_FRAME(); }
__attribute__((noinline)) void site_set(omp_lock_t* l) { omp_set_lock(l); KEEP_FRAME(); }
__attribute__((noinline)) void site_unset(omp_lock_t* l) { omp_unset_lock(l); KEEP_FRAME(); }
__attribute__((noinline)) int site_test(omp_lock_t* l) {
  int r = omp_test_lock(l);
  KEEP_FRAME();
  return r;
}

#define ROUNDS 40

static omp_lock_t lock, hinted, shared_lock;
static rec_thread* buffers[64];
static int starts[64];
static long counter;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* the first OpenMP call activates the tool */
  CHECK(rec_init_calls == 1);
  const int callbacks[] = {ompt_callback_mutex_acquire, ompt_callback_mutex_acquired,
                           ompt_callback_mutex_released, ompt_callback_nest_lock,
                           ompt_callback_lock_init, ompt_callback_lock_destroy};
  for (unsigned i = 0; i < sizeof callbacks / sizeof *callbacks; ++i)
    CHECK(rec_set_result[callbacks[i]] == ompt_set_always);

  rec_thread* me = rec_me();
  CHECK(me != NULL);
  int from = me->count;
  site_init(&lock);
  site_set(&lock);
  site_unset(&lock);
  CHECK(site_test(&lock) == 1);
  CHECK(site_test(&lock) == 0); /* a simple lock: held, even by the caller */
  site_unset(&lock);
  site_destroy(&lock);
  site_init_hint(&hinted, omp_sync_hint_contended);
  site_set(&hinted);
  site_unset(&hinted);
  site_destroy(&hinted);
  site_init(&hinted); /* the same storage again, without a hint */
  site_set(&hinted);
  site_unset(&hinted);
  site_destroy(&hinted);

  rec_event ev[32];
  int n = mx_events(me, from, ev, 32);
  CHECK(n == 19);
  if (n == 19) {
    MX_EXPECT(&ev[0], MX_LOCK_INIT, ompt_mutex_lock, &lock, site_init);
    CHECK(ev[0].n == omp_sync_hint_none && ev[0].index == 1);
    MX_EXPECT(&ev[1], MX_ACQUIRE, ompt_mutex_lock, &lock, site_set);
    CHECK(ev[1].n == omp_sync_hint_none && ev[1].index == 1);
    /* While it may wait, the thread says so, and for which lock. */
    CHECK(ev[1].state == ompt_state_wait_lock);
    CHECK(ev[1].parallel_id == (uint64_t)(uintptr_t)&lock);
    MX_EXPECT(&ev[2], MX_ACQUIRED, ompt_mutex_lock, &lock, site_set);
    CHECK(ev[2].state == ompt_state_work_serial && ev[2].parallel_id == 0);
    MX_EXPECT(&ev[3], MX_RELEASED, ompt_mutex_lock, &lock, site_unset);
    /* omp_test_lock is ompt_mutex_test_lock, and never waits. */
    MX_EXPECT(&ev[4], MX_ACQUIRE, ompt_mutex_test_lock, &lock, site_test);
    CHECK(ev[4].state == ompt_state_work_serial);
    MX_EXPECT(&ev[5], MX_ACQUIRED, ompt_mutex_test_lock, &lock, site_test);
    /* A failed test: mutex_acquire only. */
    MX_EXPECT(&ev[6], MX_ACQUIRE, ompt_mutex_test_lock, &lock, site_test);
    MX_EXPECT(&ev[7], MX_RELEASED, ompt_mutex_lock, &lock, site_unset);
    MX_EXPECT(&ev[8], MX_LOCK_DESTROY, ompt_mutex_lock, &lock, site_destroy);
    MX_EXPECT(&ev[9], MX_LOCK_INIT, ompt_mutex_lock, &hinted, site_init_hint);
    CHECK(ev[9].n == omp_sync_hint_contended && ev[9].index == 1);
    /* The hint given at initialization comes with every acquisition. */
    MX_EXPECT(&ev[10], MX_ACQUIRE, ompt_mutex_lock, &hinted, site_set);
    CHECK(ev[10].n == omp_sync_hint_contended && ev[10].index == 1);
    MX_EXPECT(&ev[11], MX_ACQUIRED, ompt_mutex_lock, &hinted, site_set);
    MX_EXPECT(&ev[12], MX_RELEASED, ompt_mutex_lock, &hinted, site_unset);
    MX_EXPECT(&ev[13], MX_LOCK_DESTROY, ompt_mutex_lock, &hinted, site_destroy);
    MX_EXPECT(&ev[14], MX_LOCK_INIT, ompt_mutex_lock, &hinted, site_init);
    CHECK(ev[14].n == omp_sync_hint_none);
    MX_EXPECT(&ev[15], MX_ACQUIRE, ompt_mutex_lock, &hinted, site_set);
    CHECK(ev[15].n == omp_sync_hint_none);
    MX_EXPECT(&ev[16], MX_ACQUIRED, ompt_mutex_lock, &hinted, site_set);
    MX_EXPECT(&ev[17], MX_RELEASED, ompt_mutex_lock, &hinted, site_unset);
    MX_EXPECT(&ev[18], MX_LOCK_DESTROY, ompt_mutex_lock, &hinted, site_destroy);
  }

  /* Contention: every thread's own sequence is ROUNDS times acquire,
   * acquired, released, in parallel state, whatever the interleaving. */
  site_init(&shared_lock);
  int nthreads = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    buffers[tid] = rec_me();
    starts[tid] = buffers[tid] ? buffers[tid]->count : 0;
    for (int r = 0; r < ROUNDS; ++r) {
      site_set(&shared_lock);
      counter++;
      site_unset(&shared_lock);
    }
  }
  CHECK(counter == (long)nthreads * ROUNDS);
  for (int t = 0; t < nthreads; ++t) {
    CHECK(buffers[t] != NULL);
    if (!buffers[t]) continue;
    rec_event seq[3 * ROUNDS + 8];
    int k = mx_events(buffers[t], starts[t], seq, 3 * ROUNDS + 8);
    CHECK(k == 3 * ROUNDS);
    for (int i = 0; i + 2 < k; i += 3) {
      MX_EXPECT(&seq[i], MX_ACQUIRE, ompt_mutex_lock, &shared_lock, site_set);
      CHECK(seq[i].state == ompt_state_wait_lock);
      CHECK(seq[i].parallel_id == (uint64_t)(uintptr_t)&shared_lock);
      MX_EXPECT(&seq[i + 1], MX_ACQUIRED, ompt_mutex_lock, &shared_lock, site_set);
      CHECK(seq[i + 1].state == ompt_state_work_parallel);
      MX_EXPECT(&seq[i + 2], MX_RELEASED, ompt_mutex_lock, &shared_lock, site_unset);
    }
  }
  site_destroy(&shared_lock);
  KITE_TEST_END();
}
