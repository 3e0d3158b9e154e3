/* OMPT device tracing with the non-EMI target callbacks (OpenMP 5.2
 * §19.5.2.25-28): the records carry the ids those callbacks pass, the
 * runtime's target id and host op ids (with EMI callbacks they carry the
 * values the tool wrote: device_trace.c). Every record matches one
 * operation and arrives once, in time order per device, inside its host
 * interval (a data operation's non-EMI callback comes at its end only).
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=2
 * kite-test-compilers: gcc -- clang 14 makes no runtime call for target constructs */
#include "kite_test.h"
#define TT_NOEMI
#include "support/trace_tool.h"

static void tt_fini(ompt_data_t* data) { (void)data; }

#define N 64
static double a[N], b[N];

int main(void) {
  KITE_TEST_BEGIN();
  for (int r = 0; r < 8; ++r) {
    int dev = r % 2;
    for (int i = 0; i < N; ++i) a[i] = i + r;
#pragma omp target device(dev) map(to : a) map(from : b)
    for (int i = 0; i < N; ++i) b[i] = a[i] + 1;
    CHECK(b[N - 1] == N + r);
#pragma omp target enter data device(dev) map(to : a)
#pragma omp target update device(dev) from(a)
#pragma omp target exit data device(dev) map(release : a)
    double* p = omp_target_alloc(sizeof a, dev);
    CHECK(p != NULL);
    if (p) {
      CHECK(omp_target_memcpy(p, a, sizeof a, 0, 0, dev, omp_get_initial_device()) == 0);
      omp_target_free(p, dev);
    }
  }
  static int out[64];
#pragma omp parallel
  {
    int s = omp_get_thread_num();
#pragma omp target nowait device(0) map(tofrom : out[s : 1])
    out[s] = s + 7;
#pragma omp taskwait
  }
  CHECK_EQ_LONG(out[0], 7);
  CHECK_EQ_LONG(tt_dev_count, 2);
  for (int d = 0; d < 2; ++d)
    if (tt_dev_handle[d]) CHECK_EQ_LONG(tt_flush_trace(tt_dev_handle[d]), 1);
  tt_check_deferred();
  CHECK_EQ_LONG(tt_missing(-1), 0);
  for (int d = 0; d < 2; ++d) CHECK(tt_records[d] > 40);
  CHECK_EQ_LONG(tt_failures, 0);
  KITE_TEST_END();
}
