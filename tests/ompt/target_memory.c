/* Device memory routines on the host (OpenMP 5.2 §18.8): omp_target_alloc,
 * omp_target_memcpy, omp_target_memcpy_rect and omp_target_free each report
 * one target_data_op_emi begin/end pair (alloc, transfer, transfer, delete)
 * with their addresses, device numbers, sizes and the routine's return
 * address; outside a device construct the op has no target data and
 * ompt_get_target_info answers 0; inside a target region (gcc only: clang
 * 14 makes no runtime call for it) the op belongs to the region and the
 * inquiry answers its id. Routines that do nothing report nothing.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/target_recorder.h"

#define MAXT 64
static char host_buf[MAXT][64];
static int grid_src[MAXT][4][5], grid_dst[MAXT][4][5];
static void* allocated[MAXT];

void mem_ops(int slot) __attribute__((noinline));
void mem_ops(int slot) {
  int dev = omp_get_initial_device();
  char* p = (char*)omp_target_alloc(64, dev);
  allocated[slot] = p;
  omp_target_memcpy(p, host_buf[slot], 48, 8, 4, dev, dev);
  size_t volume[2] = {2, 3}, dst_off[2] = {1, 1}, src_off[2] = {0, 2}, dims[2] = {4, 5};
  omp_target_memcpy_rect(grid_dst[slot], grid_src[slot], sizeof(int), 2, volume, dst_off, src_off,
                         dims, dims, -1 /* omp_initial_device */, dev);
  omp_target_free(p, -1 /* omp_initial_device */);
}

/* Nothing happens, so nothing is reported. */
void no_ops(void) __attribute__((noinline));
void no_ops(void) {
  omp_target_free(NULL, omp_get_initial_device());
  CHECK(omp_target_alloc(16, omp_get_initial_device() + 41) == NULL);
  CHECK(omp_target_memcpy_rect(NULL, NULL, 4, 1, NULL, NULL, NULL, NULL, NULL, 0, 0) > 0);
}

/* target_data: the pointer the ops must carry (NULL outside a construct)
 * and the value the tool gave it. */
static void check_ops(int slot, rec_thread* me, int from, ompt_data_t* target_data,
                      uint64_t target_value, ompt_id_t target_id) {
  const int host = omp_get_initial_device();
  CHECK_EQ_LONG(me->count - from, 8);
  if (me->count - from != 8) return;
  rec_event* e = &me->ev[from];
  const tgt_detail* d[8];
  for (int i = 0; i < 8; ++i) {
    CHECK_EQ_LONG(e[i].ev, i % 2 ? EV_DATA_OP_END : EV_DATA_OP_BEGIN);
    d[i] = tgt_of(&e[i]);
    if (!d[i]) return;
    CHECK(tgt_returns_into(d[i]->ra, (void*)mem_ops));
    CHECK_EQ_LONG(d[i]->src_dev, host);
    CHECK_EQ_LONG(d[i]->dst_dev, host);
    CHECK(!d[i]->have_target_task);
    CHECK(d[i]->target_data == target_data);
    CHECK(d[i]->host_op_id != 0);
    if (target_data) CHECK_EQ_LONG(d[i]->target_value, target_value);
    if (target_id) {
      CHECK_EQ_LONG(d[i]->info_ret, 1);
      CHECK_EQ_LONG(d[i]->info_target, target_id);
      CHECK_EQ_LONG(d[i]->info_op, d[i]->host_op_id);
    } else {
      CHECK_EQ_LONG(d[i]->info_ret, 0);
    }
  }
  for (int i = 0; i < 8; i += 2) {
    CHECK_EQ_LONG(d[i]->kind, d[i + 1]->kind);
    CHECK_EQ_LONG(d[i]->host_op_id, d[i + 1]->host_op_id);
    CHECK(d[i]->ra == d[i + 1]->ra);
    CHECK_EQ_LONG(d[i]->bytes, d[i + 1]->bytes);
    if (i) CHECK(d[i]->host_op_id != d[i - 2]->host_op_id);
  }
  char* p = (char*)allocated[slot];
  CHECK(p != NULL);
  /* alloc: the new block is known at the end only. */
  CHECK_EQ_LONG(d[0]->kind, ompt_target_data_alloc);
  CHECK(d[0]->src == NULL && d[0]->dst == NULL && d[1]->dst == p);
  CHECK_EQ_LONG(d[0]->bytes, 64);
  /* memcpy: the addresses with their offsets. */
  CHECK_EQ_LONG(d[2]->kind, ompt_target_data_transfer_to_device);
  CHECK(d[2]->src == host_buf[slot] + 4 && d[2]->dst == p + 8);
  CHECK_EQ_LONG(d[2]->bytes, 48);
  /* memcpy_rect: one operation for the sub-volume, between the arrays. */
  CHECK_EQ_LONG(d[4]->kind, ompt_target_data_transfer_to_device);
  CHECK(d[4]->src == (void*)grid_src[slot] && d[4]->dst == (void*)grid_dst[slot]);
  CHECK_EQ_LONG(d[4]->bytes, 2 * 3 * sizeof(int));
  /* free: the block goes. */
  CHECK_EQ_LONG(d[6]->kind, ompt_target_data_delete);
  CHECK(d[6]->src == p);
}

#ifndef __clang__
static int in_ret;
static ompt_id_t in_tid;
void ops_in_target(void) __attribute__((noinline));
void ops_in_target(void) {
#pragma omp target map(tofrom : in_ret, in_tid)
  {
    uint64_t dev;
    ompt_id_t op;
    in_ret = tgt_get_target_info(&dev, &in_tid, &op);
    mem_ops(0);
  }
}
#endif

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_data_op_emi], ompt_set_always);
  for (int i = 0; i < 20; ++i) (&grid_src[0][0][0])[i] = i;

  int from = me->count;
  mem_ops(0);
  check_ops(0, me, from, NULL, 0, 0);
  /* The rectangle landed: grid_dst[1..2][1..3] = grid_src[0..1][2..4]. */
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) CHECK_EQ_LONG(grid_dst[0][1 + r][1 + c], grid_src[0][r][2 + c]);

  from = me->count;
  no_ops();
  CHECK_EQ_LONG(me->count - from, 0);

  /* Every thread, on its own. */
  static int ok[MAXT];
#pragma omp parallel
  {
    int i = omp_get_thread_num();
    rec_thread* t = rec_me();
    if (i < MAXT && t) {
      int f = t->count;
      mem_ops(i);
      int before = kite_test_failures;
      check_ops(i, t, f, NULL, 0, 0);
      ok[i] = kite_test_failures == before;
    }
  }
  for (int i = 0; i < omp_get_max_threads() && i < MAXT; ++i) CHECK(ok[i]);

#ifndef __clang__
  /* Inside a target region: the operations belong to it. */
  from = me->count;
  ops_in_target();
  CHECK_EQ_LONG(in_ret, 1);
  int tb = rec_next(me, from, EV_TARGET_BEGIN);
  int ib = rec_next(me, from, EV_INITIAL_BEGIN);
  CHECK(tb >= 0 && ib > tb);
  if (tb >= 0 && ib > tb) {
    const tgt_detail* t = tgt_of(&me->ev[tb]);
    CHECK_EQ_LONG(t->info_target, in_tid);
    int save = me->count;
    me->count = ib + 1 + 8;
    check_ops(0, me, ib + 1, t->target_data, t->target_value, t->info_target);
    me->count = save;
    CHECK_EQ_LONG(me->ev[ib + 9].ev, EV_INITIAL_END);
  }
#endif
  KITE_TEST_END();
}
