/* An undeferred (if(0)) task with depend clauses is reported as itself:
 * task_create with ompt_task_undeferred and has_dependences, its
 * dependences right after, the edge from the sibling it waits for ending
 * on it, then its body (task_schedule switch to it). clang waits for the
 * dependences through __kmpc_omp_wait_deps before the task begins, gcc in
 * GOMP_task: both must report the same.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#include <time.h>

static int x, after_first;
static rec_thread* primary;
static int before;

/* The first task holds until the encountering thread has reported the edge
 * to the if(0) task (so the if(0) task surely waits for it), at most ~2 s:
 * a missing edge then fails the checks below instead of hanging. */
static void hold_until_edge(void) {
  for (int k = 0; k < 2000; ++k) {
    int n = __atomic_load_n(&primary->count, __ATOMIC_ACQUIRE);
    for (int i = before; i < n; ++i)
      if (__atomic_load_n(&primary->ev[i].ev, __ATOMIC_ACQUIRE) == EV_TASK_DEPENDENCE) return;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

__attribute__((noinline)) void if0_after_sibling(void) {
  /* Detachable, so that no runtime runs it at once (Kite runs other tasks
   * at once in a team of one thread): the if(0) task always finds it. */
  omp_event_handle_t ev;
#pragma omp task depend(out : x) detach(ev)
  {
    hold_until_edge();
    x = 1;
    omp_fulfill_event(ev);
  }
#pragma omp task depend(in : x) if (0)
  after_first = x;
  __asm__ volatile("" ::: "memory");
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_dependences], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_dependence], ompt_set_always);
  primary = rec_me();
  before = primary->count;
#pragma omp parallel
  {
#pragma omp masked
    if0_after_sibling();
  }
  CHECK_EQ_LONG(after_first, 1); /* the if(0) task ran after its predecessor */
  uint64_t id[2] = {0, 0};
  int n = 0;
  for (int i = before; i < primary->count; ++i) {
    rec_event* e = &primary->ev[i];
    if (e->ev != EV_TASK_CREATE) continue;
    CHECK(n < 2);
    if (n >= 2) break;
    id[n] = e->task_id;
    CHECK_EQ_LONG(e->n, 1); /* has_dependences */
    CHECK(returns_into(e->ra, (void*)if0_after_sibling));
    CHECK_EQ_LONG(e->flags, n == 0 ? ompt_task_explicit : (ompt_task_explicit | ompt_task_undeferred));
    /* Its dependences follow at once. */
    CHECK(i + 1 < primary->count && primary->ev[i + 1].ev == EV_DEPENDENCES);
    if (i + 1 < primary->count) CHECK_EQ_LONG(primary->ev[i + 1].task_id, e->task_id);
    ++n;
  }
  CHECK_EQ_LONG(n, 2); /* no separate taskwait-style task */
  CHECK_EQ_LONG(trec_ndeps, 2);
  CHECK(trec_deps[0].variable.ptr == &x);
  CHECK(trec_deps[1].variable.ptr == &x);
  CHECK_EQ_LONG(trec_deps[1].dependence_type, ompt_dependence_type_in);
  /* The one edge: the sibling to the if(0) task. */
  int edges = 0;
  for (int i = before; i < primary->count; ++i) {
    rec_event* e = &primary->ev[i];
    if (e->ev != EV_TASK_DEPENDENCE) continue;
    ++edges;
    CHECK_EQ_LONG(e->task_id, id[0]);
    CHECK_EQ_LONG(e->enc_task_id, id[1]);
  }
  CHECK_EQ_LONG(edges, 1);
  /* The if(0) task's body: a switch to it on this thread after its
   * creation. */
  int switched = 0;
  for (int i = before; i < primary->count; ++i)
    if (primary->ev[i].ev == EV_TASK_SCHEDULE && primary->ev[i].enc_task_id == id[1]) ++switched;
  CHECK(switched >= 1);
  KITE_TEST_END();
}
