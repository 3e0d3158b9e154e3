/* target data with a target region nested in it (OpenMP 5.2 §13.5): the
 * construct reports an enter-data construct at its start (GOMP_target_data_ext)
 * and an exit-data construct at its end (GOMP_target_end_data), each a
 * target_emi begin/end pair of its own; the nested target region in
 * between. Mapping onto the host moves nothing: no target_data_op.
 * clang 14 makes no runtime call for target constructs: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#include "kite_test.h"
#include "support/target_recorder.h"

static int a[8];

void with_data(void) __attribute__((noinline));
void with_data(void) {
#pragma omp target data map(tofrom : a)
  {
#pragma omp target map(tofrom : a)
    a[0]++;
  }
}

/* Checks the construct sequence of one thread from event `from`. */
static void check_thread(rec_thread* me, int from, uint64_t task) {
  const int host = omp_get_initial_device();
  static const int want[] = {EV_TARGET_BEGIN,  EV_TARGET_END,  EV_TARGET_BEGIN, EV_SUBMIT_BEGIN,
                             EV_SUBMIT_END,    EV_INITIAL_BEGIN, EV_INITIAL_END, EV_TARGET_END,
                             EV_TARGET_BEGIN,  EV_TARGET_END};
  const int n = (int)(sizeof want / sizeof want[0]);
  CHECK_EQ_LONG(me->count - from, n);
  if (me->count - from != n) return;
  rec_event* e = &me->ev[from];
  for (int i = 0; i < n; ++i) CHECK_EQ_LONG(e[i].ev, want[i]);
  const tgt_detail* d[10];
  for (int i = 0; i < n; ++i) d[i] = tgt_of(&e[i]);
  static const int kinds[] = {ompt_target_enter_data, ompt_target_enter_data, ompt_target,
                              0, 0, 0, 0, ompt_target, ompt_target_exit_data,
                              ompt_target_exit_data};
  for (int i = 0; i < n; ++i) {
    if (e[i].ev != EV_TARGET_BEGIN && e[i].ev != EV_TARGET_END) continue;
    CHECK_EQ_LONG(d[i]->kind, kinds[i]);
    CHECK_EQ_LONG(d[i]->device, host);
    CHECK_EQ_LONG(d[i]->task_id, task);
    CHECK(!d[i]->have_target_task);
    CHECK(tgt_returns_into(d[i]->ra, (void*)with_data));
    CHECK_EQ_LONG(d[i]->info_ret, 1);
    CHECK_EQ_LONG(d[i]->info_dev, host);
  }
  /* Pairs: same target data and return address; three distinct constructs. */
  static const int pair[][2] = {{0, 1}, {2, 7}, {8, 9}};
  for (int p = 0; p < 3; ++p) {
    const tgt_detail* b = d[pair[p][0]];
    const tgt_detail* en = d[pair[p][1]];
    CHECK(b->target_data == en->target_data && b->target_value == en->target_value);
    CHECK(b->ra == en->ra);
    CHECK_EQ_LONG(b->info_target, en->info_target);
  }
  CHECK(d[0]->ra != d[2]->ra && d[2]->ra != d[8]->ra && d[0]->ra != d[8]->ra);
  CHECK(d[0]->info_target != d[2]->info_target && d[2]->info_target != d[8]->info_target);
  CHECK(d[0]->target_value != d[8]->target_value);
  CHECK(d[3]->target_data == d[2]->target_data);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  int from = me->count;
  with_data();
  CHECK_EQ_LONG(a[0], 1);
  check_thread(me, from, me->ev[1].task_id);

  /* Every thread of a team, each in its own implicit task. */
  static int from_of[64], len_of[64];
  static uint64_t task_of[64];
  static rec_thread* rec_of[64];
  int nthreads = 1;
#pragma omp parallel
  {
    int i = omp_get_thread_num();
    rec_thread* t = rec_me();
    ompt_data_t* td = NULL;
    rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
    if (i < 64 && t) {
      rec_of[i] = t;
      task_of[i] = td ? td->value : 0;
      from_of[i] = t->count;
    }
#pragma omp barrier
    with_data();
#pragma omp barrier
#pragma omp single
    nthreads = omp_get_num_threads();
    if (i < 64 && t) {
      /* This thread's construct events: after the first barrier's end
       * events, before the second barrier's begin. */
      int k = from_of[i];
      while (k < t->count && t->ev[k].ev != EV_TARGET_BEGIN) ++k;
      int end = k;
      while (end < t->count && t->ev[end].ev != EV_SYNC_BEGIN) ++end;
      from_of[i] = k;
      len_of[i] = end - k;
    }
  }
  for (int i = 0; i < nthreads && i < 64; ++i) {
    rec_thread* t = rec_of[i];
    CHECK(t != NULL);
    if (!t) continue;
    int k = from_of[i], len = len_of[i];
    CHECK_EQ_LONG(len, 10);
    /* check_thread wants the events to end the buffer: count a window. */
    int saved = t->count;
    t->count = k + len;
    check_thread(t, k, task_of[i]);
    t->count = saved;
  }
  KITE_TEST_END();
}
