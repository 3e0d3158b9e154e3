/* A taskgroup's sync_region begin comes when the group begins, before any
 * task created in it, with the return address of the call that opens the
 * construct; its end (and any wait) at the group's end. The same for the
 * taskgroup a taskloop without nogroup opens, and the taskloop's work begin
 * precedes the tasks it creates. Tools that place tasks in groups (Archer)
 * depend on this order.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#define NGROUP 3

static int body_enter_cleared = 1;

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

static void work(int i) {
  volatile int x = i;
  (void)x;
}

__attribute__((noinline)) void group_tasks(void) {
#pragma omp taskgroup
  {
    /* Back in the body: the runtime left no enter frame behind. */
    ompt_frame_t* fr = NULL;
    if (rec_get_task_info(0, NULL, NULL, &fr, NULL, NULL) == 2 && fr && fr->enter_frame.ptr)
      body_enter_cleared = 0;
    for (int i = 0; i < NGROUP; ++i) {
#pragma omp task firstprivate(i)
      work(i);
    }
  }
  __asm__ volatile("" ::: "memory"); /* no tail call (clang 19+) */
}

__attribute__((noinline)) void loop_tasks(void) {
#pragma omp taskloop num_tasks(4)
  for (int i = 0; i < 64; ++i) work(i);
  __asm__ volatile("" ::: "memory");
}

/* The first event `ev` of sync kind `kind` at or after `from`, or -1. */
static int next_sync(rec_thread* t, int from, int ev, int kind) {
  int i = rec_next(t, from, ev);
  while (i >= 0 && t->ev[i].kind != kind) i = rec_next(t, i + 1, ev);
  return i;
}

static int first_create(rec_thread* t, int from) { return rec_next(t, from, EV_TASK_CREATE); }

static int last_create(rec_thread* t, int from, int to) {
  int last = -1;
  for (int i = from; i < to && i < t->count; ++i)
    if (t->ev[i].ev == EV_TASK_CREATE) last = i;
  return last;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();

  /* An explicit taskgroup. */
  int before = primary->count;
#pragma omp parallel
  {
#pragma omp masked
    group_tasks();
  }
  int g = next_sync(primary, before, EV_SYNC_BEGIN, ompt_sync_region_taskgroup);
  int c = first_create(primary, before);
  CHECK(g >= 0);
  CHECK(c >= 0);
  CHECK_EQ_LONG(trec_count(primary, EV_TASK_CREATE), NGROUP);
  if (g >= 0 && c >= 0) {
    const rec_event* b = &primary->ev[g];
    CHECK(g < c);
    CHECK(returns_into(b->ra, (void*)group_tasks));
    /* The construct opens before its first task is created. */
    CHECK((const char*)b->ra < (const char*)primary->ev[c].ra);
    CHECK(b->enter_frame != NULL);
    int e = next_sync(primary, g, EV_SYNC_END, ompt_sync_region_taskgroup);
    CHECK(e > last_create(primary, before, primary->count));
    if (e >= 0) {
      CHECK(returns_into(primary->ev[e].ra, (void*)group_tasks));
      CHECK((const char*)primary->ev[e].ra > (const char*)primary->ev[c].ra);
      CHECK_EQ_LONG(primary->ev[e].task_id, b->task_id);
      /* A wait, if any, lies inside the region. */
      int w = next_sync(primary, g, EV_WAIT_BEGIN, ompt_sync_region_taskgroup);
      if (w >= 0 && w < e) CHECK(w > last_create(primary, before, e));
    }
    /* Only one taskgroup begin. */
    CHECK(next_sync(primary, g + 1, EV_SYNC_BEGIN, ompt_sync_region_taskgroup) < 0 ||
          next_sync(primary, g + 1, EV_SYNC_BEGIN, ompt_sync_region_taskgroup) > e);
  }
  CHECK(body_enter_cleared);

  /* A taskloop: its work begin and its taskgroup's begin precede its tasks. */
  before = primary->count;
#pragma omp parallel
  {
#pragma omp masked
    loop_tasks();
  }
  int w = rec_next(primary, before, EV_WORK_BEGIN);
  g = next_sync(primary, before, EV_SYNC_BEGIN, ompt_sync_region_taskgroup);
  c = first_create(primary, before);
  CHECK(w >= 0 && primary->ev[w].kind == ompt_work_taskloop);
  CHECK(g >= 0);
  CHECK(c >= 0);
  CHECK_EQ_LONG(trec_count(primary, EV_TASK_CREATE), NGROUP + 4);
  if (w >= 0 && g >= 0 && c >= 0) {
    CHECK(w < c);
    CHECK(g < c);
    CHECK(returns_into(primary->ev[g].ra, (void*)loop_tasks));
    CHECK(returns_into(primary->ev[w].ra, (void*)loop_tasks));
    CHECK(primary->ev[c].enter_frame != NULL);
#ifdef __clang__
    /* clang opens the group with __kmpc_taskgroup before __kmpc_taskloop. */
    CHECK(g < w);
    CHECK((const char*)primary->ev[g].ra < (const char*)primary->ev[w].ra);
#else
    /* One GOMP_taskloop call implements both. */
    CHECK(w < g);
    CHECK_EQ_LONG((long)primary->ev[g].ra, (long)primary->ev[w].ra);
#endif
    int e = next_sync(primary, g, EV_SYNC_END, ompt_sync_region_taskgroup);
    int we = rec_next(primary, w, EV_WORK_END);
    CHECK(e > last_create(primary, before, primary->count));
    CHECK(we > last_create(primary, before, primary->count));
  }
  KITE_TEST_END();
}
