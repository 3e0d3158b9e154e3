/* target nowait (OpenMP 5.2 §13.8): a deferred target task. The
 * encountering thread reports task_create (codeptr_ra of GOMP_target_ext);
 * the thread that runs the task reports, in its task_schedule switch ...
 * complete bracket: target_emi begin (kind ompt_target_nowait, the
 * generating task, the target task), target_submit_emi begin/end, the
 * region's initial task, target_emi end; ompt_get_target_info answers the
 * construct inside the region, on whichever thread runs it.
 * clang 14 makes no runtime call for target constructs: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#include "kite_test.h"
#include "support/target_recorder.h"

#define NT 4
static int done[NT];
static int ret[NT];
static ompt_id_t tid[NT];
static uint64_t gen_task;

void spawn(void) __attribute__((noinline));
void spawn(void) {
  for (int i = 0; i < NT; ++i) {
#pragma omp target nowait map(tofrom : done[i : 1], ret[i : 1], tid[i : 1]) firstprivate(i)
    {
      uint64_t dev;
      ompt_id_t op;
      done[i] = 1;
      ret[i] = tgt_get_target_info(&dev, &tid[i], &op);
    }
  }
#pragma omp taskwait
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  const int host = omp_get_initial_device();
#pragma omp parallel
  {
#pragma omp single
    {
      ompt_data_t* td = NULL;
      rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
      gen_task = td ? td->value : 0;
      spawn();
    }
  }
  for (int i = 0; i < NT; ++i) {
    CHECK_EQ_LONG(done[i], 1);
    CHECK_EQ_LONG(ret[i], 1);
  }
  /* The creations, on the thread that ran the single. */
  int creates = 0, runs = 0;
  for (int th = 0; th < rec_nthreads && th < REC_MAX_THREADS; ++th) {
    rec_thread* t = &rec_threads[th];
    for (int i = 0; i < t->count; ++i) {
      rec_event* c = &t->ev[i];
      if (c->ev != EV_TGT_TASK_CREATE) continue;
      ++creates;
      CHECK_EQ_LONG(c->enc_task_id, gen_task);
      /* A target task, not an explicit one (exclusive task types). */
      CHECK(c->flags & ompt_task_target);
      CHECK(!(c->flags & ompt_task_explicit));
      CHECK(tgt_returns_into(c->ra, (void*)spawn));
      /* Find the thread that ran it: the switch to it, then the construct. */
      uint64_t task = c->task_id;
      for (int th2 = 0; th2 < rec_nthreads && th2 < REC_MAX_THREADS; ++th2) {
        rec_thread* u = &rec_threads[th2];
        for (int j = 0; j < u->count; ++j) {
          rec_event* s = &u->ev[j];
          if (s->ev != EV_TGT_TASK_SCHEDULE || s->enc_task_id != task ||
              s->kind != ompt_task_switch)
            continue;
          ++runs;
          static const int want[] = {EV_TGT_TASK_SCHEDULE, EV_TARGET_BEGIN,  EV_SUBMIT_BEGIN,
                                     EV_SUBMIT_END,        EV_INITIAL_BEGIN, EV_INITIAL_END,
                                     EV_TARGET_END,        EV_TGT_TASK_SCHEDULE};
          const int n = (int)(sizeof want / sizeof want[0]);
          CHECK(j + n <= u->count);
          if (j + n > u->count) break;
          for (int k = 0; k < n; ++k) CHECK_EQ_LONG(s[k].ev, want[k]);
          const tgt_detail* tb = tgt_of(&s[1]);
          const tgt_detail* sb = tgt_of(&s[2]);
          const tgt_detail* se = tgt_of(&s[3]);
          const tgt_detail* te = tgt_of(&s[6]);
          if (!tb || !sb || !se || !te || s[1].ev != EV_TARGET_BEGIN || s[6].ev != EV_TARGET_END)
            break;
          CHECK_EQ_LONG(tb->kind, ompt_target_nowait);
          CHECK_EQ_LONG(tb->device, host);
          CHECK_EQ_LONG(tb->task_id, gen_task);
          CHECK(tb->have_target_task);
          CHECK_EQ_LONG(tb->target_task_id, task);
          CHECK(tb->ra == c->ra);
          CHECK_EQ_LONG(tb->info_ret, 1);
          CHECK_EQ_LONG(tb->info_dev, host);
          CHECK(sb->target_data == tb->target_data && sb->target_value == tb->target_value);
          CHECK(sb->host_op_id != 0 && se->host_op_id == sb->host_op_id);
          CHECK_EQ_LONG(te->kind, ompt_target_nowait);
          CHECK(te->target_data == tb->target_data && te->target_value == tb->target_value);
          CHECK_EQ_LONG(te->target_task_id, task);
          CHECK(te->ra == tb->ra);
          /* The body saw this construct: one of the recorded ids is its. */
          int seen = 0;
          for (int k = 0; k < NT; ++k) seen += tid[k] == tb->info_target;
          CHECK_EQ_LONG(seen, 1);
          CHECK_EQ_LONG(s[7].task_id, task);
          CHECK_EQ_LONG(s[7].kind, ompt_task_complete);
        }
      }
    }
  }
  CHECK_EQ_LONG(creates, NT);
  CHECK_EQ_LONG(runs, NT);
  KITE_TEST_END();
}
