/* In a team of one thread Kite runs each task it creates at once (5.2
 * §12.5: "The encountering thread may immediately execute the task, or
 * defer its execution"), dependences included when every earlier sibling
 * completed. A tool sees each such task exactly as it ran: task_create
 * with ompt_task_undeferred (and its dependences right after), then at
 * once the switch into it and its completion back to the creator; no
 * task_dependence edge (no predecessor was live); a taskwait with nothing
 * to wait for has its sync region but no wait. A detachable task is still
 * deferred (its completion needs its event), and a task depending on it
 * waits for it: that edge is reported.
 * kite-test-threads: 1 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int x, y, z, order_ok = 1;

__attribute__((noinline)) void make_tasks(void) {
#pragma omp task depend(out : x)
  x = 1;
#pragma omp task depend(in : x)
  {
    if (x != 1) order_ok = 0;
    y = x + 1;
  }
#pragma omp taskwait
#pragma omp taskgroup
  {
#pragma omp task
    z = 1;
  }
  omp_event_handle_t ev;
#pragma omp task depend(out : y) detach(ev)
  omp_fulfill_event(ev);
#pragma omp task depend(in : y)
  y += 1;
#pragma omp taskwait
  __asm__ volatile("" ::: "memory");
}

/* Event indices on `t` from `from` of kind `ev`, at most `max`. */
static int collect(rec_thread* t, int from, int ev, int* at, int max) {
  int n = 0;
  for (int i = from; i < t->count && n < max; ++i)
    if (t->ev[i].ev == ev) at[n++] = i;
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();
  int before = primary->count;
  uint64_t implicit0 = 0;
  int team = 0;
#pragma omp parallel num_threads(1)
  {
    team = omp_get_num_threads();
    ompt_data_t* td = NULL;
    rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
    implicit0 = td ? td->value : 0;
    make_tasks();
  }
  CHECK_EQ_LONG(team, 1);
  CHECK(order_ok);
  CHECK_EQ_LONG(y, 3);
  CHECK_EQ_LONG(z, 1);

  int cr[8];
  int nc = collect(primary, before, EV_TASK_CREATE, cr, 8);
  CHECK_EQ_LONG(nc, 5);
  if (nc != 5) KITE_TEST_END();
  /* Tasks 0-2 ran at once: undeferred, and create, [dependences],
   * switch in, complete back follow one another on this thread. */
  for (int k = 0; k < 3; ++k) {
    rec_event* c = &primary->ev[cr[k]];
    CHECK_EQ_LONG(c->flags, ompt_task_explicit | ompt_task_undeferred);
    CHECK_EQ_LONG(c->enc_task_id, implicit0);
    int i = cr[k] + 1;
    if (k < 2) {
      CHECK_EQ_LONG(c->n, 1);
      CHECK_EQ_LONG(primary->ev[i].ev, EV_DEPENDENCES);
      CHECK_EQ_LONG(primary->ev[i].task_id, c->task_id);
      ++i;
    } else {
      CHECK_EQ_LONG(c->n, 0);
    }
    CHECK_EQ_LONG(primary->ev[i].ev, EV_TASK_SCHEDULE);
    CHECK_EQ_LONG(primary->ev[i].kind, ompt_task_switch);
    CHECK_EQ_LONG(primary->ev[i].task_id, implicit0);
    CHECK_EQ_LONG(primary->ev[i].enc_task_id, c->task_id);
    CHECK_EQ_LONG(primary->ev[i + 1].ev, EV_TASK_SCHEDULE);
    CHECK_EQ_LONG(primary->ev[i + 1].kind, ompt_task_complete);
    CHECK_EQ_LONG(primary->ev[i + 1].task_id, c->task_id);
    CHECK_EQ_LONG(primary->ev[i + 1].enc_task_id, implicit0);
  }
  /* The detachable task (3) was deferred; the task depending on it (4)
   * waited for it: not undeferred, with the one edge 3 -> 4. */
  CHECK_EQ_LONG(primary->ev[cr[3]].flags, ompt_task_explicit);
  CHECK_EQ_LONG(primary->ev[cr[4]].flags, ompt_task_explicit);
  int dep[4];
  int nd = collect(primary, before, EV_TASK_DEPENDENCE, dep, 4);
  CHECK_EQ_LONG(nd, 1);
  if (nd == 1) {
    CHECK_EQ_LONG(primary->ev[dep[0]].task_id, primary->ev[cr[3]].task_id);
    CHECK_EQ_LONG(primary->ev[dep[0]].enc_task_id, primary->ev[cr[4]].task_id);
  }
  /* The first taskwait: its sync region right after task 1's completion,
   * with no wait inside. The taskgroup's region holds task 2's events. */
  int s = rec_next(primary, before, EV_SYNC_BEGIN);
  while (s >= 0 && primary->ev[s].kind != ompt_sync_region_taskwait)
    s = rec_next(primary, s + 1, EV_SYNC_BEGIN);
  CHECK(s > cr[1]);
  if (s > 0) {
    CHECK_EQ_LONG(primary->ev[s + 1].ev, EV_SYNC_END);
    CHECK_EQ_LONG(primary->ev[s + 1].kind, ompt_sync_region_taskwait);
  }
  int g = rec_next(primary, before, EV_SYNC_BEGIN);
  while (g >= 0 && primary->ev[g].kind != ompt_sync_region_taskgroup)
    g = rec_next(primary, g + 1, EV_SYNC_BEGIN);
  CHECK(g >= 0 && g < cr[2]);
  if (g >= 0) {
    int e = rec_next(primary, g, EV_SYNC_END);
    CHECK(e > cr[2] + 2);
    CHECK(e >= 0 && primary->ev[e].kind == ompt_sync_region_taskgroup);
  }
  KITE_TEST_END();
}
