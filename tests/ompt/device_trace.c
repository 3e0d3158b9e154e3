/* OMPT device tracing (OpenMP 5.2 §19.2.5) on two emulated devices, with
 * buffers of a few records each: target regions, target data, enter/exit
 * data, update and the device memory routines on both devices, then nowait
 * target tasks with dependences from every thread of a team on device 0
 * while the tool is slow (every 3rd buffer_complete sleeps). Every record
 * arrives once, in time order per device, and its translated device times
 * lie inside the host-side callback interval of its operation
 * (support/trace_tool.h checks each one); after a flush nothing ended is
 * missing; ompt_stop_trace inside device_finalize delivers the rest before
 * it returns (checked there), and the tool's finalizer checks the totals.
 * kite-test-threads: 1 4
 * kite-test-env: KITE_DEVICES=2
 * kite-test-compilers: gcc -- clang 14 makes no runtime call for target constructs */
#include "kite_test.h"
#define TT_SLOW_EVERY 3
#define TT_STOP_IN_FINALIZE
#include "support/trace_tool.h"

#define N 64
static double a[N], b[N];

static void tt_fini(ompt_data_t* data) {
  (void)data;
  /* device_finalize comes before the tool's finalizer, for both devices,
   * and by then every record of every operation has arrived. */
  tt_summary();
  int bad = tt_failures;
  for (int d = 0; d < 2; ++d)
    if (tt_dev_handle[d] && !tt_dev_finalized[d]) {
      fprintf(stderr, "trace tool: device %d was not finalized before the tool\n", d);
      ++bad;
    }
  if (tt_missing(-1)) ++bad;
  if (bad) {
    fprintf(stderr, "trace tool: %d failure(s) at finalization\n", bad);
    _exit(1);
  }
}

static void work_on(int dev, int round) {
  for (int i = 0; i < N; ++i) a[i] = i + round;
#pragma omp target device(dev) map(to : a) map(from : b)
  for (int i = 0; i < N; ++i) b[i] = 2 * a[i];
  for (int i = 0; i < N; ++i) CHECK(b[i] == 2 * (i + round));
#pragma omp target data device(dev) map(tofrom : a)
  {
#pragma omp target device(dev)
    for (int i = 0; i < N; ++i) a[i] += 1;
#pragma omp target update device(dev) from(a)
  }
  CHECK(a[N - 1] == N - 1 + round + 1);
#pragma omp target enter data device(dev) map(to : b)
#pragma omp target exit data device(dev) map(delete : b)
  double* p = omp_target_alloc(N * sizeof(double), dev);
  CHECK(p != NULL);
  if (p) {
    CHECK(omp_target_memcpy(p, a, N * sizeof(double), 0, 0, dev, omp_get_initial_device()) == 0);
    CHECK(omp_target_memcpy(b, p, N * sizeof(double), 0, 0, omp_get_initial_device(), dev) == 0);
    CHECK(b[3] == a[3]);
    omp_target_free(p, dev);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 2);
  for (int r = 0; r < 20; ++r) work_on(r % 2, r);
  CHECK_EQ_LONG(tt_dev_count, 2);
  CHECK(tt_lookup_ok);

  /* Nowait target tasks from every thread, ordered in pairs by depend. */
  static int out[256];
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp barrier
    for (int k = 0; k < 8; ++k) {
      int slot = t * 8 + k;
      if (slot >= 256) break;
#pragma omp target nowait device(0) map(tofrom : out[slot : 1]) depend(out : out[slot])
      {
        /* A kernel long enough for other threads' operations on the
         * device to start and end inside it. */
        double until = omp_get_wtime() + 100e-6;
        while (omp_get_wtime() < until) {
        }
        out[slot] = slot;
      }
#pragma omp target nowait device(0) map(tofrom : out[slot : 1]) depend(inout : out[slot])
      out[slot] += 1000;
    }
#pragma omp taskwait
  }
  int nthreads = 0;
#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads();
  for (int s = 0; s < nthreads * 8 && s < 256; ++s) CHECK_EQ_LONG(out[s], s + 1000);

  /* After a flush every operation that ended has its records. */
  for (int d = 0; d < 2; ++d)
    if (tt_dev_handle[d]) CHECK(tt_flush_trace(tt_dev_handle[d]) == 1);
  CHECK_EQ_LONG(tt_missing(-1), 0);
  for (int d = 0; d < 2; ++d) {
    /* Small buffers: many request/complete cycles, each buffer returned. */
    CHECK(tt_records[d] > 100);
    CHECK(tt_completes[d] > 20);
    CHECK(tt_completes[d] <= tt_requests[d]);
    CHECK_EQ_LONG(tt_requests[d], tt_completes[d]);
  }
  CHECK_EQ_LONG(tt_failures, 0);
  KITE_TEST_END();
}
