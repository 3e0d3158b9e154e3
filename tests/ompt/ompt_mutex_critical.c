/* OMPT mutex events of critical (unnamed and named) and atomic
 * (GOMP_atomic_start/end) regions: per thread, exact acquire / acquired /
 * released sequences with ompt_mutex_critical / ompt_mutex_atomic; the
 * wait_critical / wait_atomic state and wait id seen from mutex_acquire;
 * the named region's wait id is the compiler's per-name lock storage; the
 * return addresses are the GOMP_* call sites.
 * clang: the lock storage is its kmp_critical_name (named
 * .gomp_critical_user_<name>.var), and a long double atomic is a libatomic
 * call that the runtime never sees, so it has no mutex events.
 * kite-test-threads: 1 2 4
 * kite-test-libs: atomic */
#include "kite_test.h"
#include <stdint.h>

#include "support/mutex_recorder.h"

#ifdef __clang__
extern void* alpha_storage __asm__(".gomp_critical_user_alpha.var");
#define ATOMIC_EVENTS 0
#else
/* gcc's storage for `critical(alpha)`: a pointer-sized common symbol. */
extern void* alpha_storage __asm__(".gomp_critical_user_alpha");
#define ATOMIC_EVENTS 1
#endif

static long unnamed_count, named_count;
static long double atomic_sum; /* no lock-free atomic: GOMP_atomic_start */

/* The empty asm keeps clang 19+ from making the end call a tail call. */
__attribute__((noinline)) void crit_unnamed(void) {
#pragma omp critical
  unnamed_count++;
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void crit_named(void) {
#pragma omp critical(alpha)
  named_count++;
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void atomic_add(void) {
#pragma omp atomic
  atomic_sum += 1.0L;
}

#define ROUNDS 20
#define PER_ROUND (ATOMIC_EVENTS ? 9 : 6)

static rec_thread* buffers[64];
static int starts[64];

/* acquire, acquired, released of one region, from `site`. */
static void expect_region(const rec_event* e, int kind, int wait_state, uint64_t wait_id,
                          void* site) {
  MX_EXPECT(&e[0], MX_ACQUIRE, kind, wait_id, site);
  CHECK(e[0].n == omp_sync_hint_none && e[0].index == 1);
  CHECK(e[0].state == wait_state);
  CHECK(e[0].parallel_id == wait_id);
  MX_EXPECT(&e[1], MX_ACQUIRED, kind, wait_id, site);
  CHECK(e[1].state == ompt_state_work_parallel && e[1].parallel_id == 0);
  CHECK(e[1].ra == e[0].ra);
  MX_EXPECT(&e[2], MX_RELEASED, kind, wait_id, site);
  CHECK(e[2].ra != e[0].ra); /* GOMP_*_end, not GOMP_*_start */
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(rec_set_result[ompt_callback_mutex_acquire] == ompt_set_always);
  int nthreads = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    buffers[tid] = rec_me();
    starts[tid] = buffers[tid] ? buffers[tid]->count : 0;
    for (int r = 0; r < ROUNDS; ++r) {
      crit_unnamed();
      crit_named();
      atomic_add();
    }
  }
  CHECK(unnamed_count == (long)nthreads * ROUNDS);
  CHECK(named_count == (long)nthreads * ROUNDS);
  CHECK(atomic_sum == (long double)nthreads * ROUNDS);

  uint64_t unnamed_id = 0, atomic_id = 0;
  const uint64_t named_id = (uint64_t)(uintptr_t)&alpha_storage;
  for (int t = 0; t < nthreads; ++t) {
    CHECK(buffers[t] != NULL);
    if (!buffers[t]) continue;
    rec_event ev[PER_ROUND * ROUNDS + 8];
    int k = mx_events(buffers[t], starts[t], ev, PER_ROUND * ROUNDS + 8);
    CHECK(k == PER_ROUND * ROUNDS);
    if (k != PER_ROUND * ROUNDS) continue;
    /* One lock for every unnamed critical region, one for atomics. */
    if (!unnamed_id) unnamed_id = ev[0].task_id;
    if (!atomic_id && ATOMIC_EVENTS) atomic_id = ev[6].task_id;
    for (int i = 0; i < k; i += PER_ROUND) {
      expect_region(&ev[i], ompt_mutex_critical, ompt_state_wait_critical, unnamed_id,
                    crit_unnamed);
      expect_region(&ev[i + 3], ompt_mutex_critical, ompt_state_wait_critical, named_id,
                    crit_named);
      if (ATOMIC_EVENTS)
        expect_region(&ev[i + 6], ompt_mutex_atomic, ompt_state_wait_atomic, atomic_id,
                      atomic_add);
    }
  }
  CHECK(unnamed_id != 0 && unnamed_id != named_id);
  if (ATOMIC_EVENTS) CHECK(atomic_id != 0 && unnamed_id != atomic_id && atomic_id != named_id);
  KITE_TEST_END();
}
