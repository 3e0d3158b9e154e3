/* OMPT events of nest locks: the first level is mutex_acquire +
 * mutex_acquired (ompt_mutex_nest_lock, or ompt_mutex_test_nest_lock from
 * omp_test_nest_lock), a further level by the owner is mutex_acquire +
 * nest_lock begin, releasing a level that is not the last is nest_lock end,
 * the last is mutex_released; a test that fails (another owner) is
 * mutex_acquire only. Wait ids are the lock's address, codeptr_ra the call
 * site.
 * kite-test-threads: 2 */
#include "kite_test.h"
#include <stdint.h>

#include "support/mutex_recorder.h"

#define KEEP_FRAME() __asm__ volatile("" ::: "memory")
__attribute__((noinline)) void nsite_init(omp_nest_lock_t* l) {
  omp_init_nest_lock(l);
  KEEP_FRAME();
}
__attribute__((noinline)) void nsite_init_hint(omp_nest_lock_t* l, omp_sync_hint_t h) {
  omp_init_nest_lock_with_hint(l, h);
  KEEP_FRAME();
}
__attribute__((noinline)) void nsite_destroy(omp_nest_lock_t* l) {
  omp_destroy_nest_lock(l);
  KEEP_FRAME();
}
__attribute__((noinline)) void nsite_set(omp_nest_lock_t* l) {
  omp_set_nest_lock(l);
  KEEP_FRAME();
}
__attribute__((noinline)) void nsite_unset(omp_nest_lock_t* l) {
  omp_unset_nest_lock(l);
  KEEP_FRAME();
}
__attribute__((noinline)) int nsite_test(omp_nest_lock_t* l) {
  int r = omp_test_nest_lock(l);
  KEEP_FRAME();
  return r;
}

static omp_nest_lock_t lock, hinted;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(rec_set_result[ompt_callback_nest_lock] == ompt_set_always);
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) return 1;

  int from = me->count;
  nsite_init(&lock);
  nsite_set(&lock);                /* level 1 */
  nsite_set(&lock);                /* level 2 */
  CHECK(nsite_test(&lock) == 3);   /* level 3 */
  nsite_unset(&lock);
  nsite_unset(&lock);
  nsite_unset(&lock);              /* free */
  CHECK(nsite_test(&lock) == 1);
  nsite_unset(&lock);
  nsite_destroy(&lock);
  nsite_init_hint(&hinted, omp_sync_hint_uncontended);
  nsite_set(&hinted);
  CHECK(nsite_test(&hinted) == 2);
  nsite_unset(&hinted);
  nsite_unset(&hinted);
  nsite_destroy(&hinted);

  rec_event ev[32];
  int n = mx_events(me, from, ev, 32);
  CHECK(n == 22);
  if (n == 22) {
    MX_EXPECT(&ev[0], MX_LOCK_INIT, ompt_mutex_nest_lock, &lock, nsite_init);
    CHECK(ev[0].n == omp_sync_hint_none && ev[0].index == 1);
    MX_EXPECT(&ev[1], MX_ACQUIRE, ompt_mutex_nest_lock, &lock, nsite_set);
    CHECK(ev[1].n == omp_sync_hint_none && ev[1].index == 1);
    CHECK(ev[1].state == ompt_state_wait_lock);
    CHECK(ev[1].parallel_id == (uint64_t)(uintptr_t)&lock);
    MX_EXPECT(&ev[2], MX_ACQUIRED, ompt_mutex_nest_lock, &lock, nsite_set);
    CHECK(ev[2].state == ompt_state_work_serial);
    /* Re-acquisition by the owner: never waits. */
    MX_EXPECT(&ev[3], MX_ACQUIRE, ompt_mutex_nest_lock, &lock, nsite_set);
    CHECK(ev[3].state == ompt_state_work_serial);
    MX_EXPECT(&ev[4], MX_NEST_BEGIN, 0, &lock, nsite_set);
    MX_EXPECT(&ev[5], MX_ACQUIRE, ompt_mutex_test_nest_lock, &lock, nsite_test);
    MX_EXPECT(&ev[6], MX_NEST_BEGIN, 0, &lock, nsite_test);
    MX_EXPECT(&ev[7], MX_NEST_END, 0, &lock, nsite_unset);
    MX_EXPECT(&ev[8], MX_NEST_END, 0, &lock, nsite_unset);
    MX_EXPECT(&ev[9], MX_RELEASED, ompt_mutex_nest_lock, &lock, nsite_unset);
    MX_EXPECT(&ev[10], MX_ACQUIRE, ompt_mutex_test_nest_lock, &lock, nsite_test);
    CHECK(ev[10].state == ompt_state_work_serial);
    MX_EXPECT(&ev[11], MX_ACQUIRED, ompt_mutex_test_nest_lock, &lock, nsite_test);
    MX_EXPECT(&ev[12], MX_RELEASED, ompt_mutex_nest_lock, &lock, nsite_unset);
    MX_EXPECT(&ev[13], MX_LOCK_DESTROY, ompt_mutex_nest_lock, &lock, nsite_destroy);
    MX_EXPECT(&ev[14], MX_LOCK_INIT, ompt_mutex_nest_lock, &hinted, nsite_init_hint);
    CHECK(ev[14].n == omp_sync_hint_uncontended && ev[14].index == 1);
    /* The hint given at initialization comes with every acquisition. */
    MX_EXPECT(&ev[15], MX_ACQUIRE, ompt_mutex_nest_lock, &hinted, nsite_set);
    CHECK(ev[15].n == omp_sync_hint_uncontended);
    MX_EXPECT(&ev[16], MX_ACQUIRED, ompt_mutex_nest_lock, &hinted, nsite_set);
    MX_EXPECT(&ev[17], MX_ACQUIRE, ompt_mutex_test_nest_lock, &hinted, nsite_test);
    CHECK(ev[17].n == omp_sync_hint_uncontended);
    MX_EXPECT(&ev[18], MX_NEST_BEGIN, 0, &hinted, nsite_test);
    MX_EXPECT(&ev[19], MX_NEST_END, 0, &hinted, nsite_unset);
    MX_EXPECT(&ev[20], MX_RELEASED, ompt_mutex_nest_lock, &hinted, nsite_unset);
    MX_EXPECT(&ev[21], MX_LOCK_DESTROY, ompt_mutex_nest_lock, &hinted, nsite_destroy);
  }

  /* Another owner: the test fails and reports mutex_acquire only. */
  nsite_init(&lock);
  rec_thread* other = NULL;
  int other_from = 0, other_result = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) nsite_set(&lock);
#pragma omp barrier
    if (omp_get_thread_num() == 1) {
      other = rec_me();
      other_from = other ? other->count : 0;
      other_result = nsite_test(&lock);
    }
#pragma omp barrier
    if (omp_get_thread_num() == 0) nsite_unset(&lock);
  }
  nsite_destroy(&lock);
  if (omp_get_max_threads() >= 2) {
    CHECK(other != NULL);
    CHECK(other_result == 0);
    if (other) {
      int k = mx_events(other, other_from, ev, 32);
      CHECK(k == 1);
      MX_EXPECT(&ev[0], MX_ACQUIRE, ompt_mutex_test_nest_lock, &lock, nsite_test);
      CHECK(ev[0].state == ompt_state_work_parallel);
    }
  }
  KITE_TEST_END();
}
