/* The control side of OMPT device tracing (OpenMP 5.2 §19.6.2) on one
 * emulated device: entry points refuse a handle that names no device and
 * calls out of sequence; ompt_set_trace_ompt selects record kinds (target
 * data operations only, then all), answers ompt_set_never for an event a
 * device never records and ompt_set_error for no event; start_trace twice
 * fails; flush delivers a partly filled buffer; nothing is recorded while
 * paused (pause and resume are idempotent) or stopped; a stopped trace
 * can start again; a flush from inside buffer_complete neither deadlocks
 * nor leaves records behind; native records (ompt_set_trace_native) describe the
 * kernels and transfers, tied to their host operations; the device clock
 * is not the host's and ompt_translate_time maps it onto omp_get_wtime.
 * Large buffers here: one buffer holds a whole phase, so each flush
 * completes exactly one, partly filled.
 * kite-test-threads: 1
 * kite-test-env: KITE_DEVICES=1
 * kite-test-compilers: gcc -- clang 14 makes no runtime call for target constructs */
#include "kite_test.h"
#define TT_NO_AUTOSTART
#include "support/trace_tool.h"

static void tt_fini(ompt_data_t* data) { (void)data; }

#define N 32
static int v[N];

/* One target region with a to/from map on device 0: kernel, transfers,
 * allocation and deletion, target begin/end, one map. */
static void one_region(int add) {
#pragma omp target device(0) map(tofrom : v)
  for (int i = 0; i < N; ++i) v[i] += add;
}

static long ops_of(int kind) {
  long n = 0;
  tt_lock();
  for (int i = 0; i < tt_nops; ++i)
    if (tt_ops[i].kind == kind && tt_ops[i].device == 0) ++n;
  tt_unlock();
  return n;
}

/* Records owed and not delivered, over every operation so far. */
static long owed(void) {
  long n = 0;
  tt_lock();
  for (int i = 0; i < tt_nops; ++i) n += tt_ops[i].expect - tt_ops[i].records;
  tt_unlock();
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  tt_buffer_bytes = 1 << 16;
  one_region(1); /* initializes device 0: the tool has its handle now */
  CHECK_EQ_LONG(tt_dev_count, 1);
  CHECK(tt_lookup_ok);
  ompt_device_t* h = tt_dev_handle[0];
  if (!h || !tt_lookup_ok) KITE_TEST_END();

  /* A handle that names no device. */
  static char junk[64];
  ompt_device_t* bad = (ompt_device_t*)junk;
  CHECK_EQ_LONG(tt_start_trace(bad, tt_buffer_request, tt_buffer_complete), 0);
  CHECK_EQ_LONG(tt_set_trace_ompt(bad, 1, 0), ompt_set_error);
  CHECK_EQ_LONG(tt_set_trace_native(bad, 1, ompt_native_kernel_execution), ompt_set_error);
  CHECK_EQ_LONG(tt_flush_trace(bad), 0);
  CHECK_EQ_LONG(tt_pause_trace(bad, 1), 0);
  CHECK_EQ_LONG(tt_stop_trace(bad), 0);
  CHECK_EQ_LONG(tt_get_device_time(bad), 0);
  CHECK(tt_get_device_num_procs(h) >= 1);
  CHECK_EQ_LONG(tt_get_device_num_procs(NULL), 0);

  /* Not started: nothing to flush, pause or stop. */
  CHECK_EQ_LONG(tt_flush_trace(h), 0);
  CHECK_EQ_LONG(tt_pause_trace(h, 1), 0);
  CHECK_EQ_LONG(tt_stop_trace(h), 0);

  /* Record kinds. */
  CHECK_EQ_LONG(tt_set_trace_ompt(h, 1, ompt_callback_parallel_begin), ompt_set_never);
  CHECK_EQ_LONG(tt_set_trace_ompt(h, 0, ompt_callback_parallel_begin), ompt_set_always);
  CHECK_EQ_LONG(tt_set_trace_ompt(h, 1, 9999), ompt_set_error);
  CHECK_EQ_LONG(tt_set_trace_ompt(h, 1, ompt_callback_target_data_op_emi), ompt_set_always);
  CHECK_EQ_LONG(tt_start_trace(h, NULL, tt_buffer_complete), 0);
  CHECK_EQ_LONG(tt_start_trace(h, tt_buffer_request, tt_buffer_complete), 1);
  CHECK_EQ_LONG(tt_start_trace(h, tt_buffer_request, tt_buffer_complete), 0);
  tt_collecting[0] = 1;
  tt_expect_kinds = 1u << TT_DATA_OP;

  /* Phase 1: data operations only; one flush, one partly filled buffer. */
  long completes = tt_completes[0];
  for (int r = 0; r < 5; ++r) one_region(1);
  CHECK_EQ_LONG(tt_completes[0], completes); /* nothing full yet */
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK_EQ_LONG(tt_completes[0], completes + 1);
  CHECK_EQ_LONG(tt_partial_completes[0], 1);
  CHECK(tt_records[0] >= 5 * 2); /* at least a copy each way per region */
  CHECK_EQ_LONG(owed(), 0);
  CHECK_EQ_LONG(tt_flush_trace(h), 1); /* nothing more to deliver */
  CHECK_EQ_LONG(tt_completes[0], completes + 1);

  /* Phase 2: every kind. */
  CHECK_EQ_LONG(tt_set_trace_ompt(h, 1, 0), ompt_set_always);
  tt_expect_kinds = (1u << TT_TARGET) | (1u << TT_DATA_OP) | (1u << TT_KERNEL) | (1u << TT_MAP);
  long kernels = ops_of(TT_KERNEL);
  long before = tt_records[0];
  for (int r = 0; r < 3; ++r) one_region(1);
  CHECK_EQ_LONG(ops_of(TT_KERNEL), kernels + 3);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK_EQ_LONG(owed(), 0);
  CHECK(tt_records[0] - before >= 3 * (2 + 1 + 1 + 2));

  /* Paused: nothing recorded; pausing twice and resuming twice is fine. */
  CHECK_EQ_LONG(tt_pause_trace(h, 1), 1);
  CHECK_EQ_LONG(tt_pause_trace(h, 1), 1);
  tt_collecting[0] = 0;
  before = tt_records[0];
  for (int r = 0; r < 3; ++r) one_region(1);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK_EQ_LONG(tt_records[0], before);
  CHECK_EQ_LONG(tt_pause_trace(h, 0), 1);
  CHECK_EQ_LONG(tt_pause_trace(h, 0), 1);
  tt_collecting[0] = 1;
  one_region(1);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK(tt_records[0] > before);
  CHECK_EQ_LONG(owed(), 0);

  /* A flush from inside buffer_complete (of the same device) cannot wait
   * for the delivery it is part of: it answers 1 at once (no deadlock) and
   * the running delivery hands over everything queued. Small buffers and
   * enough regions for deliveries to happen during the loop. */
  tt_buffer_bytes = 512;
  tt_call_in_complete = tt_flush_trace;
  long completes_before = tt_completes[0];
  for (int r = 0; r < 6; ++r) one_region(1);
  CHECK(tt_completes[0] > completes_before);
  CHECK_EQ_LONG(tt_call_in_complete_result, 1);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK_EQ_LONG(owed(), 0);
  CHECK_EQ_LONG(tt_requests[0], tt_completes[0]);
  tt_buffer_bytes = 1 << 16;

  /* Native records: kernels and transfers of map clauses. */
  CHECK_EQ_LONG(tt_set_trace_native(h, 1, ompt_native_idleness), ompt_set_never);
  CHECK_EQ_LONG(tt_set_trace_native(h, 1, ompt_native_kernel_execution |
                                              ompt_native_data_motion_implicit),
                ompt_set_always);
  CHECK_EQ_LONG(tt_set_trace_native(h, 1, ompt_native_kernel_execution | ompt_native_driver),
                ompt_set_sometimes);
  long natives = tt_native_records[0];
  one_region(1);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  /* one kernel, a copy to and one from the device */
  CHECK_EQ_LONG(tt_native_records[0] - natives, 3);
  CHECK_EQ_LONG(tt_set_trace_native(h, 0, ompt_native_kernel_execution |
                                              ompt_native_data_motion_implicit),
                ompt_set_always);
  natives = tt_native_records[0];
  one_region(1);
  CHECK_EQ_LONG(tt_flush_trace(h), 1);
  CHECK_EQ_LONG(tt_native_records[0], natives);

  /* Stopped: flushes, then nothing more; a new start works. */
  CHECK_EQ_LONG(tt_stop_trace(h), 1);
  CHECK_EQ_LONG(tt_stop_trace(h), 0);
  tt_collecting[0] = 0;
  before = tt_records[0];
  one_region(1);
  CHECK_EQ_LONG(tt_records[0], before);
  CHECK_EQ_LONG(tt_flush_trace(h), 0);
  CHECK_EQ_LONG(tt_start_trace(h, tt_buffer_request, tt_buffer_complete), 1);
  tt_collecting[0] = 1;
  one_region(1);
  CHECK_EQ_LONG(tt_stop_trace(h), 1);
  CHECK(tt_records[0] > before);
  CHECK_EQ_LONG(owed(), 0);
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(v[i], 1 + 5 + 3 + 3 + 1 + 6 + 1 + 1 + 1 + 1);
  CHECK_EQ_LONG(tt_requests[0], tt_completes[0]);

  /* The device clock: not host time, translated onto omp_get_wtime. */
  double w0 = omp_get_wtime();
  ompt_device_time_t t = tt_get_device_time(h);
  double w1 = omp_get_wtime();
  double host = tt_translate_time(h, t);
  CHECK(host >= w0 - TT_SLACK && host <= w1 + TT_SLACK);
  double raw = (double)t * 1e-9;
  CHECK(raw - w1 > 1.0 || w0 - raw > 1.0);
  ompt_device_time_t t2 = tt_get_device_time(h);
  CHECK(t2 >= t);

  /* Record accessors on what is no record. */
  static char zero[256];
  ompt_buffer_cursor_t next = 0;
  CHECK_EQ_LONG(tt_get_record_type(NULL, 0), ompt_record_invalid);
  CHECK_EQ_LONG(tt_get_record_type(zero, 0), ompt_record_invalid);
  CHECK(tt_get_record_ompt(zero, 0) == NULL);
  CHECK(tt_get_record_native(zero, 0, NULL) == NULL);
  CHECK(tt_get_record_abstract(NULL) == NULL);
  CHECK_EQ_LONG(tt_advance(h, zero, 16, 0, &next), 0);
  CHECK_EQ_LONG(tt_advance(h, NULL, sizeof zero, 0, &next), 0);

  CHECK_EQ_LONG(tt_failures, 0);
  KITE_TEST_END();
}
