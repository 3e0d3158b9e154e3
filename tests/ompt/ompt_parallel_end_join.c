/* With a tool attached, the end of a parallel region costs the primary no
 * wait a tool cannot see: whatever the primary waits for at the region's
 * end (here, a worker that is slow to leave: its implicit-task-end callback
 * takes a while) happens inside the implicit barrier's wait, which the
 * tool is told of (sync_region_wait), never between the primary's
 * implicit-task end and parallel_end. The order of the region's end is
 * kept: every implicit task's end comes before the region's parallel_end
 * (the region ends after its threads left it).
 * Checked with a sequence number per event: the primary's barrier-wait end
 * must follow the slow worker's implicit-task end (its return), and the
 * primary's implicit-task end and parallel_end follow that.
 * kite-test-threads: 2 4 */
#include "kite_test.h"
#include <omp-tools.h>
#include <time.h>

static long seq;
static long worker_end_done[64];   /* per region: workers whose implicit-task end returned */
static long primary_wait_end[64];  /* per region: that count when the primary's wait ended */
static long primary_task_end[64];
static long parallel_end_count[64];
static int region;                 /* the region running (set by the primary) */

static int is_primary(void) { return omp_get_thread_num() == 0; }

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                             unsigned int n, unsigned int index, int flags) {
  (void)pd, (void)td, (void)n;
  if (!(flags & ompt_task_implicit) || ep != ompt_scope_end) return;
  int r = __atomic_load_n(&region, __ATOMIC_ACQUIRE);
  if (r < 0 || r >= 64) return;
  if (index != 0) {
    /* A worker slow to leave the region: 20 ms in its end callback. */
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    __atomic_fetch_add(&worker_end_done[r], 1, __ATOMIC_SEQ_CST);
  } else {
    primary_task_end[r] = __atomic_load_n(&worker_end_done[r], __ATOMIC_SEQ_CST);
  }
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                                ompt_data_t* pd, ompt_data_t* td, const void* ra) {
  (void)pd, (void)td, (void)ra;
  if (kind != ompt_sync_region_barrier_implicit_parallel || ep != ompt_scope_end) return;
  if (!is_primary()) return;
  int r = __atomic_load_n(&region, __ATOMIC_ACQUIRE);
  if (r >= 0 && r < 64) primary_wait_end[r] = __atomic_load_n(&worker_end_done[r], __ATOMIC_SEQ_CST);
}

static void on_parallel_end(ompt_data_t* pd, ompt_data_t* td, int flags, const void* ra) {
  (void)pd, (void)td, (void)flags, (void)ra;
  int r = __atomic_load_n(&region, __ATOMIC_ACQUIRE);
  if (r >= 0 && r < 64) parallel_end_count[r] = __atomic_load_n(&worker_end_done[r], __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED);
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait);
  set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
}
#include "support/small_tool.h"

#define REGIONS 6

int main(void) {
  KITE_TEST_BEGIN();
  int n = omp_get_max_threads(), ran = 0;
  CHECK(n >= 2 && n <= 64);
  for (int r = 0; r < REGIONS; ++r) {
    __atomic_store_n(&region, r, __ATOMIC_RELEASE);
#pragma omp parallel num_threads(n)
    {
#pragma omp atomic
      ran++;
    }
  }
  __atomic_store_n(&region, -1, __ATOMIC_RELEASE);
  CHECK_EQ_LONG(seq, REGIONS);
  CHECK_EQ_LONG(ran, REGIONS * n);
  for (int r = 0; r < REGIONS; ++r) {
    /* Every worker's implicit task ended before the primary's barrier wait
     * did: the primary waited for them inside the wait. */
    CHECK_EQ_LONG(primary_wait_end[r], n - 1);
    CHECK_EQ_LONG(primary_task_end[r], n - 1);
    CHECK_EQ_LONG(parallel_end_count[r], n - 1);
  }
  KITE_TEST_END();
}
