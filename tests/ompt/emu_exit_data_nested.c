// kite-test-compilers: gcc  -- gcc's offloading ABI on Kite's emulated devices
/* What a tool hears when target exit data ends a mapping that an enclosing
 * target data region made (one reference count per item, OpenMP 5.2
 * §5.8.3): the exit data construct reports the work it does (delete: the
 * device memory freed, nothing copied; from: the copy back, then the free),
 * and the enclosing region's end reports no data operation for the item,
 * which is no longer mapped. A target data region whose item stays mapped
 * is the control: its end copies back and frees.
 * kite-test-threads: 1
 * kite-test-env: KITE_DEVICES=1
 */
#include "kite_test.h"

#include <omp-tools.h>
#include <stdint.h>

typedef struct op {
  int optype;
  void *src, *dst;
  int src_dev, dst_dev;
  size_t bytes;
} op;

#define MAXOPS 256
static op ops[MAXOPS];
static int nops;

static void on_data_op(ompt_scope_endpoint_t endpoint, ompt_data_t* target_task_data,
                       ompt_data_t* target_data, ompt_id_t* host_op_id,
                       ompt_target_data_op_t optype, void* src, int src_dev, void* dst,
                       int dst_dev, size_t bytes, const void* ra) {
  (void)target_task_data;
  (void)target_data;
  (void)host_op_id;
  (void)ra;
  if (endpoint != ompt_scope_end || nops == MAXOPS) return;
  ops[nops++] = (op){(int)optype, src, dst, src_dev, dst_dev, bytes};
}

static int registered;
static int tool_init(ompt_function_lookup_t lookup, int initial_device, ompt_data_t* tool_data) {
  (void)initial_device;
  (void)tool_data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  registered = set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op) ==
               ompt_set_always;
  return 1;
}
static void tool_fini(ompt_data_t* tool_data) { (void)tool_data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned int v, const char* rt) {
  (void)v;
  (void)rt;
  static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
  return &r;
}

/* The operations of kind `t` among ops[from, to) that touch host address
 * `host` (as source or destination). */
static int count(int from, int to, int t, void* host) {
  int n = 0;
  for (int i = from; i < to; ++i)
    if (ops[i].optype == t && (ops[i].src == host || ops[i].dst == host)) ++n;
  return n;
}
static int count_any(int from, int to, void* host) {
  int n = 0;
  for (int i = from; i < to; ++i)
    if (ops[i].src == host || ops[i].dst == host) ++n;
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 1);
  int a[8] = {0}, b[8] = {0}, c[8] = {0}, k[8] = {0};
  int s0, s1, s2, s3;

  /* delete: one free of a's device copy at the exit data, nothing at the
   * region's end. */
  s0 = nops;
#pragma omp target data map(tofrom : a)
  {
    s1 = nops;
#pragma omp target exit data map(delete : a)
    s2 = nops;
  }
  s3 = nops;
  CHECK(registered);
  CHECK_EQ_LONG(count(s0, s1, ompt_target_data_alloc, a), 1);
  CHECK_EQ_LONG(count(s0, s1, ompt_target_data_transfer_to_device, a), 1);
  CHECK_EQ_LONG(count(s1, s2, ompt_target_data_delete, a), 1);
  CHECK_EQ_LONG(count_any(s1, s2, a), 1);
  CHECK_EQ_LONG(count_any(s2, s3, a), 0);
  for (int i = s1; i < s2; ++i)
    if (ops[i].optype == ompt_target_data_delete) {
      CHECK_EQ_LONG(ops[i].bytes, sizeof a);
      CHECK_EQ_LONG(ops[i].src_dev, 0);
      CHECK_EQ_LONG(ops[i].dst_dev, 1);
      CHECK(ops[i].dst == a);
    }

  /* release: the region's reference was the only one: freed, not copied. */
  s0 = nops;
#pragma omp target data map(tofrom : b)
  {
    s1 = nops;
#pragma omp target exit data map(release : b)
    s2 = nops;
  }
  s3 = nops;
  CHECK_EQ_LONG(count(s1, s2, ompt_target_data_delete, b), 1);
  CHECK_EQ_LONG(count(s1, s2, ompt_target_data_transfer_from_device, b), 0);
  CHECK_EQ_LONG(count_any(s2, s3, b), 0);

  /* from: copied back and freed at the exit data; nothing at the end. */
#pragma omp target data map(tofrom : c)
  {
    s1 = nops;
#pragma omp target exit data map(from : c)
    s2 = nops;
  }
  s3 = nops;
  CHECK_EQ_LONG(count(s1, s2, ompt_target_data_transfer_from_device, c), 1);
  CHECK_EQ_LONG(count(s1, s2, ompt_target_data_delete, c), 1);
  CHECK_EQ_LONG(count_any(s2, s3, c), 0);

  /* Control: enter data adds a reference, release takes it: still mapped,
   * so the exit data does nothing and the region's end copies back and
   * frees. */
#pragma omp target data map(tofrom : k)
  {
#pragma omp target enter data map(to : k)
    s1 = nops;
#pragma omp target exit data map(release : k)
    s2 = nops;
  }
  s3 = nops;
  CHECK_EQ_LONG(count_any(s1, s2, k), 0);
  CHECK_EQ_LONG(count(s2, s3, ompt_target_data_transfer_from_device, k), 1);
  CHECK_EQ_LONG(count(s2, s3, ompt_target_data_delete, k), 1);
  KITE_TEST_END();
}
