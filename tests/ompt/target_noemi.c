/* A tool that registers the non-EMI target callbacks only: target begin/end
 * with the runtime's target id (the one ompt_get_target_info answers),
 * target_submit once, at the submission's begin, with a host operation id,
 * and target_data_op once per operation, at its end (the address of a new
 * block is known then), with the construct's target id inside one and
 * ompt_id_none outside.
 * clang 14 makes no runtime call for target constructs: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#define TGT_NOEMI
#include "kite_test.h"
#include "support/target_recorder.h"

static void* block;

void run_target(void) __attribute__((noinline));
void run_target(void) {
#pragma omp target map(tofrom : block)
  block = omp_target_alloc(32, omp_get_initial_device());
}

void free_block(void) __attribute__((noinline));
void free_block(void) { omp_target_free(block, omp_get_initial_device()); }

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  const int host = omp_get_initial_device();
  uint64_t initial = me->ev[1].task_id;
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_submit], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_data_op], ompt_set_always);
  ompt_callback_t got = NULL;
  CHECK_EQ_LONG(rec_get_callback(ompt_callback_target, &got), 1);
  CHECK(got == (ompt_callback_t)tgt_target);
  CHECK_EQ_LONG(rec_get_callback(ompt_callback_target_emi, &got), 0);

  int from = me->count;
  run_target();
  static const int want[] = {EV_TARGET_NOEMI, EV_SUBMIT_NOEMI, EV_INITIAL_BEGIN,
                             EV_DATA_OP_NOEMI, EV_INITIAL_END, EV_TARGET_NOEMI};
  const int n = (int)(sizeof want / sizeof want[0]);
  CHECK_EQ_LONG(me->count - from, n);
  if (me->count - from == n) {
    rec_event* e = &me->ev[from];
    for (int i = 0; i < n; ++i) CHECK_EQ_LONG(e[i].ev, want[i]);
    const tgt_detail* tb = tgt_of(&e[0]);
    const tgt_detail* sb = tgt_of(&e[1]);
    const tgt_detail* op = tgt_of(&e[3]);
    const tgt_detail* te = tgt_of(&e[5]);
    CHECK_EQ_LONG(tb->endpoint, ompt_scope_begin);
    CHECK_EQ_LONG(te->endpoint, ompt_scope_end);
    CHECK_EQ_LONG(tb->kind, ompt_target);
    CHECK_EQ_LONG(tb->device, host);
    CHECK_EQ_LONG(tb->task_id, initial);
    CHECK(tb->target_value != 0);
    CHECK_EQ_LONG(tb->info_target, tb->target_value);
    CHECK(tgt_returns_into(tb->ra, (void*)run_target));
    CHECK_EQ_LONG(te->target_value, tb->target_value);
    CHECK(te->ra == tb->ra);
    CHECK_EQ_LONG(sb->target_value, tb->target_value);
    CHECK(sb->host_op_id != 0);
    CHECK_EQ_LONG(sb->info_op, sb->host_op_id);
    CHECK_EQ_LONG(sb->teams, 1);
    CHECK_EQ_LONG(op->kind, ompt_target_data_alloc);
    CHECK_EQ_LONG(op->target_value, tb->target_value);
    CHECK(op->host_op_id != 0 && op->host_op_id != sb->host_op_id);
    CHECK_EQ_LONG(op->info_op, op->host_op_id);
    CHECK(op->dst == block && block != NULL);
    CHECK_EQ_LONG(op->bytes, 32);
    CHECK_EQ_LONG(op->dst_dev, host);
  }

  from = me->count;
  free_block();
  CHECK_EQ_LONG(me->count - from, 1);
  if (me->count - from == 1) {
    const tgt_detail* op = tgt_of(&me->ev[from]);
    CHECK_EQ_LONG(me->ev[from].ev, EV_DATA_OP_NOEMI);
    CHECK_EQ_LONG(op->kind, ompt_target_data_delete);
    CHECK_EQ_LONG(op->target_value, ompt_id_none);
    CHECK(op->host_op_id != 0);
    CHECK(op->src == block);
    CHECK(tgt_returns_into(op->ra, (void*)free_block));
    CHECK_EQ_LONG(op->info_ret, 0);
  }
  KITE_TEST_END();
}
