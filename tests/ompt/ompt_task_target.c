/* A target region run on the host: its initial task is reported
 * (implicit_task begin/end with ompt_task_initial) and answers
 * ompt_get_task_info with its exit frame set; a parallel region inside it
 * is encountered by that task.
 * clang 14 makes no runtime call for a target region without offload
 * devices (the body runs inline), so only gcc builds are checked.
 * kite-test-compilers: gcc
 * kite-test-threads: 1 2 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int flags_seen, exit_seen;
static uint64_t task_seen, enc_seen;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  uint64_t initial = me->ev[1].task_id;
  int from = me->count;
#pragma omp target map(tofrom : flags_seen, exit_seen, task_seen, enc_seen)
  {
    ompt_data_t* td = NULL;
    ompt_frame_t* fr = NULL;
    if (rec_get_task_info(0, &flags_seen, &td, &fr, NULL, NULL) == 2) {
      task_seen = td ? td->value : 0;
      exit_seen = fr && fr->exit_frame.ptr != NULL;
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp masked
      {
        rec_get_task_info(1, NULL, &td, NULL, NULL, NULL);
        enc_seen = td ? td->value : 0;
      }
    }
  }
  int b = rec_next(me, from, EV_INITIAL_BEGIN);
  CHECK(b >= 0);
  if (b >= 0) {
    rec_event* ib = &me->ev[b];
    CHECK(ib->task_id != 0 && ib->task_id != initial);
    CHECK_EQ_LONG(ib->n, 1);
    CHECK_EQ_LONG(ib->flags, ompt_task_initial);
    CHECK_EQ_LONG(task_seen, ib->task_id);
    CHECK_EQ_LONG(flags_seen, ompt_task_initial);
    CHECK(exit_seen);
    CHECK_EQ_LONG(enc_seen, ib->task_id);
    int pb = rec_next(me, b, EV_PARALLEL_BEGIN);
    CHECK(pb > b);
    if (pb > b) CHECK_EQ_LONG(me->ev[pb].enc_task_id, ib->task_id);
    int e = rec_next(me, b, EV_INITIAL_END);
    CHECK(e > pb);
    if (e > b) CHECK_EQ_LONG(me->ev[e].task_id, ib->task_id);
  }
  KITE_TEST_END();
}
