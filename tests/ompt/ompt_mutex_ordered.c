/* OMPT mutex events of ordered regions (GOMP_ordered_start/end): per
 * thread, one acquire / acquired / released triple (ompt_mutex_ordered) per
 * iteration it runs, the wait_ordered state and wait id seen from
 * mutex_acquire, one wait id for the whole loop, return addresses in the
 * function that holds the loop; iterations still run in order.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include <stdint.h>

#include "support/mutex_recorder.h"

#define PER_THREAD 6

static int order[64 * PER_THREAD];
static int next_slot;
static rec_thread* buffers[64];
static int starts[64];
static int mine[64];

__attribute__((noinline)) void ordered_loop(int n) {
  int tid = omp_get_thread_num();
#pragma omp for ordered schedule(static, 1)
  for (int i = 0; i < n; ++i) {
    mine[tid]++;
#pragma omp ordered
    order[next_slot++] = i;
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  int nthreads = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    buffers[tid] = rec_me();
    starts[tid] = buffers[tid] ? buffers[tid]->count : 0;
    ordered_loop(omp_get_num_threads() * PER_THREAD);
  }
  const int n = nthreads * PER_THREAD;
  CHECK(next_slot == n);
  for (int i = 0; i < n; ++i) CHECK(order[i] == i);

  uint64_t loop_id = 0;
  for (int t = 0; t < nthreads; ++t) {
    CHECK(buffers[t] != NULL);
    if (!buffers[t]) continue;
    rec_event ev[3 * PER_THREAD + 8];
    int k = mx_events(buffers[t], starts[t], ev, 3 * PER_THREAD + 8);
    CHECK(mine[t] == PER_THREAD);
    CHECK(k == 3 * mine[t]);
    if (k != 3 * mine[t]) continue;
    if (!loop_id) loop_id = ev[0].task_id;
    for (int i = 0; i < k; i += 3) {
      MX_EXPECT(&ev[i], MX_ACQUIRE, ompt_mutex_ordered, loop_id, ordered_loop);
      CHECK(ev[i].state == ompt_state_wait_ordered);
      CHECK(ev[i].parallel_id == loop_id);
      MX_EXPECT(&ev[i + 1], MX_ACQUIRED, ompt_mutex_ordered, loop_id, ordered_loop);
      CHECK(ev[i + 1].state == ompt_state_work_parallel);
      CHECK(ev[i + 1].ra == ev[i].ra);
      MX_EXPECT(&ev[i + 2], MX_RELEASED, ompt_mutex_ordered, loop_id, ordered_loop);
      CHECK(ev[i + 2].ra != ev[i].ra);
    }
  }
  CHECK(loop_id != 0);
  KITE_TEST_END();
}
