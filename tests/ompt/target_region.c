/* A target region run on the host (OpenMP 5.2 §13.8): target_emi begin,
 * target_submit_emi begin/end around the creation of the region's initial
 * task, the initial task, target_emi end; ids tying begin to end, the
 * host's device number, codeptr_ra of the GOMP_target_ext call, and
 * ompt_get_target_info inside the callbacks, in the region, and on every
 * thread of a parallel region nested in it.
 * clang 14 compiles a program without offload targets so that its target
 * constructs make no runtime call: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#include "kite_test.h"
#include "support/target_recorder.h"

static int x;
static int body_ret;
static uint64_t body_dev;
static ompt_id_t body_tid, body_op;

void run_target(void) __attribute__((noinline));
void run_target(void) {
#pragma omp target map(tofrom : x, body_ret, body_dev, body_tid, body_op)
  {
    x++;
    body_ret = tgt_get_target_info(&body_dev, &body_tid, &body_op);
  }
}

#define MAXT 16
static int par_ret[MAXT], par_n;
static ompt_id_t par_tid[MAXT];

void run_target_parallel(void) __attribute__((noinline));
void run_target_parallel(void) {
#pragma omp target map(tofrom : par_ret, par_tid, par_n)
  {
#pragma omp parallel num_threads(3)
    {
      int i = omp_get_thread_num();
      uint64_t dev;
      ompt_id_t op;
      if (i < MAXT) par_ret[i] = tgt_get_target_info(&dev, &par_tid[i], &op);
#pragma omp single
      par_n = omp_get_num_threads();
    }
  }
}

static int teams_ret[3];
static ompt_id_t teams_tid[3];

void run_target_teams(void) __attribute__((noinline));
void run_target_teams(void) {
#pragma omp target teams num_teams(3) map(tofrom : x, teams_ret, teams_tid)
  {
    int t = omp_get_team_num();
    uint64_t dev;
    ompt_id_t op;
    if (t == 0) x++;
    if (t < 3) teams_ret[t] = tgt_get_target_info(&dev, &teams_tid[t], &op);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  uint64_t initial = me->ev[1].task_id;
  const int host = omp_get_initial_device();

  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_emi], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_submit_emi], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_target_data_op_emi], ompt_set_always);
  CHECK_EQ_LONG(tgt_get_num_devices(), omp_get_num_devices() + 1);
  CHECK(host < tgt_get_num_devices());

  uint64_t dev = 7;
  ompt_id_t tid = 7, op = 7;
  CHECK_EQ_LONG(tgt_get_target_info(&dev, &tid, &op), 0);

  /* The exact sequence of one plain target region. */
  int from = me->count;
  run_target();
  CHECK_EQ_LONG(x, 1);
  static const int want[] = {EV_TARGET_BEGIN, EV_SUBMIT_BEGIN,  EV_SUBMIT_END,
                             EV_INITIAL_BEGIN, EV_INITIAL_END, EV_TARGET_END};
  const int n = (int)(sizeof want / sizeof want[0]);
  CHECK_EQ_LONG(me->count - from, n);
  if (me->count - from == n) {
    rec_event* e = &me->ev[from];
    for (int i = 0; i < n; ++i) CHECK_EQ_LONG(e[i].ev, want[i]);
    const tgt_detail* tb = tgt_of(&e[0]);
    const tgt_detail* sb = tgt_of(&e[1]);
    const tgt_detail* se = tgt_of(&e[2]);
    const tgt_detail* te = tgt_of(&e[5]);
    CHECK(tb && sb && se && te);
    if (tb && sb && se && te) {
      CHECK_EQ_LONG(tb->kind, ompt_target);
      CHECK_EQ_LONG(tb->device, host);
      CHECK_EQ_LONG(tb->task_id, initial);
      CHECK(!tb->have_target_task);
      CHECK(tb->target_value != 0);
      CHECK(tgt_returns_into(tb->ra, (void*)run_target));
      CHECK_EQ_LONG(tb->info_ret, 1);
      CHECK_EQ_LONG(tb->info_dev, host);
      CHECK(tb->info_target != 0);
      CHECK_EQ_LONG(tb->info_op, 0);
      /* Submission: same target data, one requested team, an operation id. */
      CHECK(sb->target_data == tb->target_data && sb->target_value == tb->target_value);
      CHECK_EQ_LONG(sb->teams, 1);
      CHECK(sb->host_op_id != 0);
      CHECK_EQ_LONG(sb->info_op, sb->host_op_id);
      CHECK_EQ_LONG(sb->info_target, tb->info_target);
      CHECK(se->target_data == tb->target_data && se->target_value == tb->target_value);
      CHECK_EQ_LONG(se->host_op_id, sb->host_op_id);
      /* The region's initial task. */
      CHECK(e[3].task_id != 0 && e[3].task_id != initial);
      CHECK_EQ_LONG(e[3].n, 1);
      CHECK_EQ_LONG(e[4].task_id, e[3].task_id);
      /* The end matches the begin. */
      CHECK_EQ_LONG(te->kind, ompt_target);
      CHECK_EQ_LONG(te->device, host);
      CHECK_EQ_LONG(te->task_id, initial);
      CHECK(te->target_data == tb->target_data && te->target_value == tb->target_value);
      CHECK(te->ra == tb->ra);
      CHECK_EQ_LONG(te->info_ret, 1);
      CHECK_EQ_LONG(te->info_target, tb->info_target);
      CHECK_EQ_LONG(te->info_op, 0);
      /* Inside the region. */
      CHECK_EQ_LONG(body_ret, 1);
      CHECK_EQ_LONG(body_dev, host);
      CHECK_EQ_LONG(body_tid, tb->info_target);
      CHECK_EQ_LONG(body_op, 0);
    }
  }
  CHECK_EQ_LONG(tgt_get_target_info(&dev, &tid, &op), 0);

  /* A second region is a new construct. */
  ompt_id_t first = body_tid;
  from = me->count;
  run_target();
  int b2 = rec_next(me, from, EV_TARGET_BEGIN);
  CHECK(b2 >= 0);
  if (b2 >= 0) {
    CHECK(tgt_of(&me->ev[b2])->info_target != first);
    CHECK(tgt_of(&me->ev[b2])->target_value != tgt_of(&me->ev[from > 6 ? from - 6 : 0])->target_value);
    CHECK_EQ_LONG(body_tid, tgt_of(&me->ev[b2])->info_target);
  }

  /* Every thread of a parallel region in the target region is in it. */
  from = me->count;
  run_target_parallel();
  int pb = rec_next(me, from, EV_TARGET_BEGIN);
  CHECK(pb >= 0);
  CHECK(par_n >= 1 && par_n <= MAXT);
  if (pb >= 0)
    for (int i = 0; i < par_n && i < MAXT; ++i) {
      CHECK_EQ_LONG(par_ret[i], 1);
      CHECK_EQ_LONG(par_tid[i], tgt_of(&me->ev[pb])->info_target);
    }

  /* target teams: the submission requests the num_teams clause's value. */
  from = me->count;
  run_target_teams();
  int sb = rec_next(me, from, EV_SUBMIT_BEGIN);
  CHECK(sb >= 0);
  if (sb >= 0) CHECK_EQ_LONG(tgt_of(&me->ev[sb])->teams, 3);
  int tb = rec_next(me, from, EV_TARGET_BEGIN), te = rec_next(me, from, EV_TARGET_END);
  CHECK(tb >= 0 && te > sb && sb > tb);
  if (tb >= 0) CHECK(tgt_returns_into(tgt_of(&me->ev[tb])->ra, (void*)run_target_teams));
  /* Every team of the league is in the target region. */
  for (int t = 0; t < 3 && tb >= 0; ++t) {
    CHECK_EQ_LONG(teams_ret[t], 1);
    CHECK_EQ_LONG(teams_tid[t], tgt_of(&me->ev[tb])->info_target);
  }
  KITE_TEST_END();
}
