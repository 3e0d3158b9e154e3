/* Explicit tasks: task_create (flags, encountering task, codeptr_ra, enter
 * frame), task_schedule switch/complete pairs on the executing thread,
 * ompt_get_task_info inside task bodies, undeferred/final/untied/mergeable
 * flags, taskwait and taskgroup sync regions with their return addresses.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#define NTASKS 16

static uint64_t body_id[NTASKS], body_parent[NTASKS];
static int body_flags[NTASKS], body_has_exit[NTASKS];

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

static void note_body(int i) {
  int flags = 0;
  ompt_data_t* td = NULL;
  ompt_frame_t* fr = NULL;
  ompt_data_t* pd = NULL;
  int tn = -1;
  if (rec_get_task_info(0, &flags, &td, &fr, &pd, &tn) == 2 && td) {
    body_id[i] = td->value;
    body_flags[i] = flags;
    body_has_exit[i] = fr && fr->exit_frame.ptr != NULL;
  }
  if (rec_get_task_info(1, NULL, &td, NULL, NULL, NULL) == 2 && td) body_parent[i] = td->value;
}

__attribute__((noinline)) void make_tasks(void) {
  for (int i = 0; i < NTASKS; ++i) {
#pragma omp task firstprivate(i)
    note_body(i);
  }
#pragma omp taskwait
  __asm__ volatile("" ::: "memory"); /* no tail call (clang 19+) */
}

__attribute__((noinline)) void make_flagged(void) {
#pragma omp task if(0)
  note_body(0);
#pragma omp task untied
  note_body(1);
#pragma omp task mergeable
  note_body(2);
#pragma omp task final(1)
  {
    note_body(3);
#pragma omp task
    note_body(4);
  }
#pragma omp taskgroup
  {
#pragma omp task
    note_body(5);
  }
}

/* Every switch into task `id` is followed, on the same thread, by the
 * task's completion back to the same prior task. Returns the switches. */
static int schedule_pairs(uint64_t id) {
  int found = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    for (int i = 0; i < t->count; ++i) {
      rec_event* e = &t->ev[i];
      if (e->ev != EV_TASK_SCHEDULE || e->enc_task_id != id || e->kind != ompt_task_switch)
        continue;
      int j = i + 1;
      while (j < t->count && !(t->ev[j].ev == EV_TASK_SCHEDULE && t->ev[j].task_id == id &&
                                 t->ev[j].kind != ompt_task_switch))
        ++j;
      CHECK(j < t->count);
      if (j < t->count) {
        CHECK_EQ_LONG(t->ev[j].kind, ompt_task_complete);
        CHECK_EQ_LONG(t->ev[j].enc_task_id, e->task_id);
      }
      ++found;
    }
  }
  return found;
}

static rec_event* creation(rec_thread* t, int nth) {
  for (int i = 0, n = 0; i < t->count; ++i)
    if (t->ev[i].ev == EV_TASK_CREATE && n++ == nth) return &t->ev[i];
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_create], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_schedule], ompt_set_always);
  rec_thread* primary = rec_me();
  uint64_t implicit0 = 0;
  /* In a team of one thread Kite runs every task at once ("The
   * encountering thread may immediately execute the task, or defer its
   * execution", 5.2 §12.5): the task is undeferred, and says so. */
  const int at_once = omp_get_max_threads() == 1 ? ompt_task_undeferred : 0;
#pragma omp parallel
  {
#pragma omp masked
    {
      ompt_data_t* td = NULL;
      rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
      implicit0 = td->value;
      make_tasks();
    }
  }
  /* Creation on the primary: flags, encountering task, return address. */
  int base = primary->count;
  (void)base;
  CHECK_EQ_LONG(trec_count(primary, EV_TASK_CREATE), NTASKS);
  for (int i = 0; i < NTASKS; ++i) {
    rec_event* c = creation(primary, i);
    CHECK(c != NULL);
    if (!c) continue;
    CHECK_EQ_LONG(c->flags, ompt_task_explicit | at_once);
    CHECK_EQ_LONG(c->enc_task_id, implicit0);
    CHECK_EQ_LONG(c->n, 0);
    CHECK(returns_into(c->ra, (void*)make_tasks));
    CHECK(c->enter_frame != NULL);
    CHECK_EQ_LONG(schedule_pairs(c->task_id), 1);
  }
  /* Bodies saw themselves and their parent through ompt_get_task_info. */
  for (int i = 0; i < NTASKS; ++i) {
    int found = 0;
    for (int k = 0; k < NTASKS; ++k) {
      rec_event* c = creation(primary, k);
      if (c && c->task_id == body_id[i]) found = 1;
    }
    CHECK(found);
    CHECK_EQ_LONG(body_flags[i], ompt_task_explicit | at_once);
    CHECK_EQ_LONG(body_parent[i], implicit0);
    CHECK(body_has_exit[i]);
  }
  /* taskwait: a sync region of kind taskwait at the call site; the wait
   * part, when there was one, in state wait_taskwait. */
  int s = rec_next(primary, 0, EV_SYNC_BEGIN);
  while (s >= 0 && primary->ev[s].kind != ompt_sync_region_taskwait)
    s = rec_next(primary, s + 1, EV_SYNC_BEGIN);
  CHECK(s >= 0);
  if (s >= 0) {
    CHECK(returns_into(primary->ev[s].ra, (void*)make_tasks));
    CHECK_EQ_LONG(primary->ev[s].task_id, implicit0);
    CHECK(primary->ev[s].enter_frame != NULL);
    int w = rec_next(primary, s, EV_WAIT_BEGIN);
    int e = rec_next(primary, s, EV_SYNC_END);
    CHECK(e > s);
    if (w >= 0 && w < e) {
      CHECK_EQ_LONG(primary->ev[w].kind, ompt_sync_region_taskwait);
      CHECK_EQ_LONG(primary->ev[w].state, ompt_state_wait_taskwait);
      int we = rec_next(primary, w, EV_WAIT_END);
      CHECK(we > w && we < e);
    }
  }

  /* Flags of undeferred, untied, mergeable, final and included tasks. */
  memset(body_id, 0, sizeof body_id);
  int before = primary->count;
#pragma omp parallel
  {
#pragma omp masked
    {
      ompt_data_t* td = NULL;
      rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
      implicit0 = td->value;
      make_flagged();
    }
  }
  rec_event* c[6];
  int nc = 0;
  for (int i = before; i < primary->count && nc < 6; ++i)
    if (primary->ev[i].ev == EV_TASK_CREATE) c[nc++] = &primary->ev[i];
  /* The included task (4) is created by whichever thread ran task 3. */
  int total = 0;
  for (int k = 0; k < rec_nthreads; ++k) total += trec_count(&rec_threads[k], EV_TASK_CREATE);
  CHECK_EQ_LONG(total, 2 * NTASKS + 6 - NTASKS);
  CHECK(nc >= 5);
  if (nc >= 5) {
    CHECK_EQ_LONG(c[0]->flags, ompt_task_explicit | ompt_task_undeferred);
    /* The undeferred task ran at once, right after its creation. */
    rec_event* sw = c[0] + 1;
    CHECK_EQ_LONG(sw->ev, EV_TASK_SCHEDULE);
    CHECK_EQ_LONG(sw->kind, ompt_task_switch);
    CHECK_EQ_LONG(sw->task_id, implicit0);
    CHECK_EQ_LONG(sw->enc_task_id, c[0]->task_id);
    CHECK_EQ_LONG(c[1]->flags, ompt_task_explicit | ompt_task_untied | at_once);
#ifdef __clang__
    /* clang's task flags have no mergeable bit: the runtime never learns. */
    CHECK_EQ_LONG(c[2]->flags, ompt_task_explicit | at_once);
#else
    CHECK_EQ_LONG(c[2]->flags, ompt_task_explicit | ompt_task_mergeable | at_once);
#endif
    CHECK_EQ_LONG(c[3]->flags & ~ompt_task_undeferred, ompt_task_explicit | ompt_task_final);
    for (int i = 0; i < nc; ++i) {
      if (i < 4) CHECK(returns_into(c[i]->ra, (void*)make_flagged));
      CHECK_EQ_LONG(schedule_pairs(c[i]->task_id), 1);
    }
    CHECK_EQ_LONG(body_id[0], c[0]->task_id);
    CHECK_EQ_LONG(body_flags[0], ompt_task_explicit | ompt_task_undeferred);
    CHECK_EQ_LONG(body_flags[3] & ~ompt_task_undeferred, ompt_task_explicit | ompt_task_final);
    /* Task 4, created inside final task 3, is included. */
    CHECK_EQ_LONG(body_flags[4],
                  ompt_task_explicit | ompt_task_undeferred | ompt_task_final);
    CHECK_EQ_LONG(body_parent[4], body_id[3]);
  }
  /* The taskgroup's sync region on the primary. */
  int g = rec_next(primary, before, EV_SYNC_BEGIN);
  while (g >= 0 && primary->ev[g].kind != ompt_sync_region_taskgroup)
    g = rec_next(primary, g + 1, EV_SYNC_BEGIN);
  CHECK(g >= 0);
  if (g >= 0) {
    CHECK(returns_into(primary->ev[g].ra, (void*)make_flagged));
    int e = rec_next(primary, g, EV_SYNC_END);
    CHECK(e > g && primary->ev[e].kind == ompt_sync_region_taskgroup);
  }
  KITE_TEST_END();
}
