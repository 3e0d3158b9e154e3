/* Nested parallel regions: ancestor levels of ompt_get_parallel_info and
 * ompt_get_task_info from the inner region, the inner regions' events on
 * the threads that encounter them, and a serialized inner region.
 * kite-test-threads: 1 4 */
#include "kite_test.h"
#include "support/recorder.h"

struct inner_seen {
  uint64_t pid[4];
  int size[4];
  int rc[4];
  uint64_t task[4];
  int tflags[3], tnum[3], trc[4];
  uint64_t tpd[3];
  int tpd_set[3];
};
static struct inner_seen seen[2][2];

static void inquire(struct inner_seen* s) {
  for (int l = 0; l < 4; ++l) {
    ompt_data_t* pd = NULL;
    s->rc[l] = rec_get_parallel_info(l, &pd, &s->size[l]);
    s->pid[l] = pd ? pd->value : 0;
    static ompt_data_t unset;
    ompt_data_t *td = NULL, *tpd = &unset;
    int flags = 0, num = -1;
    s->trc[l] = rec_get_task_info(l, &flags, &td, NULL, &tpd, &num);
    if (l < 3) {
      s->tflags[l] = flags;
      s->tnum[l] = num;
      s->tpd[l] = tpd ? tpd->value : 0;
      s->tpd_set[l] = tpd != NULL;
      s->task[l] = td ? td->value : 0;
    }
  }
}

static void run(int active_levels) {
  omp_set_max_active_levels(active_levels);
  memset(seen, 0, sizeof seen);
#pragma omp parallel num_threads(2)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
    {
      int inner = omp_get_thread_num();
      if (outer < 2 && inner < 2) inquire(&seen[outer][inner]);
    }
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();
  uint64_t initial_task = primary->ev[1].task_id, initial_pd = primary->ev[1].parallel_id;

  for (int active = 2; active >= 1; --active) {
    int from = primary->count;
    run(active);
    int inner_n = active == 2 ? 2 : 1;
    rec_event* outer_begin = &primary->ev[from];
    CHECK_EQ_LONG(outer_begin->ev, EV_PARALLEL_BEGIN);
    uint64_t outer_pid = outer_begin->parallel_id;
    for (int o = 0; o < 2; ++o) {
      for (int i = 0; i < inner_n; ++i) {
        struct inner_seen* s = &seen[o][i];
        /* Regions: inner, outer, the initial task's implicit region. */
        CHECK_EQ_LONG(s->rc[0], 2);
        CHECK_EQ_LONG(s->size[0], inner_n);
        CHECK(s->pid[0] != 0 && s->pid[0] != outer_pid);
        CHECK_EQ_LONG(s->rc[1], 2);
        CHECK_EQ_LONG(s->pid[1], outer_pid);
        CHECK_EQ_LONG(s->size[1], 2);
        CHECK_EQ_LONG(s->rc[2], 2);
        CHECK_EQ_LONG(s->pid[2], initial_pd);
        CHECK_EQ_LONG(s->size[2], 1);
        CHECK_EQ_LONG(s->rc[3], 0);
        /* Tasks: inner implicit, outer implicit, initial. */
        CHECK_EQ_LONG(s->trc[0], 2);
        CHECK_EQ_LONG(s->tflags[0], ompt_task_implicit);
        CHECK_EQ_LONG(s->tnum[0], i);
        CHECK_EQ_LONG(s->tpd[0], s->pid[0]);
        CHECK_EQ_LONG(s->trc[1], 2);
        CHECK_EQ_LONG(s->tflags[1], ompt_task_implicit);
        CHECK_EQ_LONG(s->tnum[1], o);
        CHECK_EQ_LONG(s->tpd[1], outer_pid);
        CHECK_EQ_LONG(s->trc[2], 2);
        CHECK_EQ_LONG(s->tflags[2], ompt_task_initial);
        CHECK_EQ_LONG(s->task[2], initial_task);
        CHECK(!s->tpd_set[2]); /* an initial task: NULL (6.0 §36.15) */
        CHECK_EQ_LONG(s->trc[3], 0);
        if (i == 1) CHECK_EQ_LONG(s->pid[0], seen[o][0].pid[0]);
      }
      if (inner_n == 2) CHECK(seen[o][0].pid[0] != seen[1 - o][0].pid[0]);
    }
    /* Each outer thread: parallel_begin of its inner region, encountered by
     * its outer implicit task, then the inner implicit task as index 0. */
    int inner_regions = 0;
    for (int k = 0; k < rec_nthreads; ++k) {
      rec_thread* t = &rec_threads[k];
      for (int j = (t == primary ? from : 0); j < t->count; ++j) {
        rec_event* b = &t->ev[j];
        if (b->ev != EV_PARALLEL_BEGIN || b->parallel_id == outer_pid) continue;
        int mine = 0;
        for (int o = 0; o < 2; ++o) mine += b->parallel_id == seen[o][0].pid[0];
        if (!mine) continue; /* an earlier round's region */
        ++inner_regions;
        CHECK_EQ_LONG(b->n, 2);
        CHECK(b->enc_task_id == seen[0][0].task[1] || b->enc_task_id == seen[1][0].task[1]);
        CHECK(j + 1 < t->count && t->ev[j + 1].ev == EV_IMPLICIT_BEGIN &&
              t->ev[j + 1].parallel_id == b->parallel_id && t->ev[j + 1].index == 0 &&
              t->ev[j + 1].n == (unsigned)inner_n);
        int end = rec_next(t, j + 1, EV_PARALLEL_END);
        CHECK(end > j);
        if (end > j) CHECK_EQ_LONG(t->ev[end].parallel_id, b->parallel_id);
      }
    }
    CHECK_EQ_LONG(inner_regions, 2);
  }
  KITE_TEST_END();
}
