/* Task dependences: the dependences callback lists each task's depend items
 * with their types (in, inout, mutexinoutset, depobj; gcc 12 has no inoutset) right after
 * its task_create; task_dependence reports each ordering edge between
 * sibling tasks; taskwait with depend is an undeferred taskwait task,
 * whose completion is reported as ompt_taskwait_complete.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#include <time.h>

static int gate;  /* the first task holds until every task is created */
static int x, y, z;

static void wait_gate(void) {
  while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE)) {
  }
}

/* t3 must still be pending when the taskwait's dependences are registered,
 * or the edge t3 -> taskwait task never exists: it finishes only once the
 * taskwait task's dependence items were reported (the 7th), and a moment
 * more for the runtime to register them. Bounded, so a runtime that ran t3
 * earlier on the creating thread gets a failed check, not a hang. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void hold_t3(void) {
  double until = now_s() + 2.0;
  while (__atomic_load_n(&trec_ndeps, __ATOMIC_ACQUIRE) < 7 && now_s() < until) {
  }
  double settle = now_s() + 0.005;
  while (now_s() < settle) {
  }
  x++;
}

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

__attribute__((noinline)) void make_chain(void) {
  omp_depend_t obj;
#pragma omp depobj(obj) depend(in: z)
  /* t0 is detachable, so that no runtime can run it at once (Kite runs
   * other tasks at once in a team of one thread): its completion waits
   * for its event, which its own body fulfills once the gate opened. */
  omp_event_handle_t ev0;
#pragma omp task depend(out: x) detach(ev0)
  {                                     /* t0 */
    wait_gate();
    omp_fulfill_event(ev0);
  }
#pragma omp task depend(in: x)
  x += 0;                               /* t1: after t0 */
#pragma omp task depend(in: x)
  x += 0;                               /* t2: after t0 */
#pragma omp task depend(inout: x) depend(mutexinoutset: y)
  hold_t3();                            /* t3: after t1, t2 */
#pragma omp task depend(depobj: obj)
  z++;                                  /* t4: no predecessor */
  __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
#pragma omp taskwait depend(in: x)
#pragma omp taskwait
#pragma omp depobj(obj) destroy
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_dependences], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_dependence], ompt_set_always);
  rec_thread* primary = rec_me();
  int before = primary->count;
#pragma omp parallel
  {
#pragma omp masked
    make_chain();
  }
  CHECK_EQ_LONG(x, 1);
  uint64_t id[6] = {0};
  int n = 0, dep_at = 0;
  for (int i = before; i < primary->count; ++i) {
    rec_event* e = &primary->ev[i];
    if (e->ev != EV_TASK_CREATE) continue;
    CHECK(n < 6);
    if (n >= 6) break;
    id[n] = e->task_id;
    CHECK_EQ_LONG(e->n, 1);  /* has_dependences */
    CHECK(returns_into(e->ra, (void*)make_chain));
    /* The dependences follow the creation at once. */
    CHECK(i + 1 < primary->count && primary->ev[i + 1].ev == EV_DEPENDENCES);
    if (i + 1 < primary->count) CHECK_EQ_LONG(primary->ev[i + 1].task_id, e->task_id);
    CHECK_EQ_LONG(e->flags, n == 5 ? (ompt_task_taskwait | ompt_task_undeferred) : ompt_task_explicit);
    ++n;
  }
  CHECK_EQ_LONG(n, 6);
  /* Items, in creation order: out x | in x | in x | inout x, mutexinoutset y
   * | in z (through the depobj) | in x (taskwait). gcc does not tell
   * out from inout apart; Kite reports both as inout. */
  static const struct { void* addr; int type; } want[] = {
      {&x, ompt_dependence_type_inout}, {&x, ompt_dependence_type_in},
      {&x, ompt_dependence_type_in},    {&x, ompt_dependence_type_inout},
      {&y, ompt_dependence_type_mutexinoutset}, {&z, ompt_dependence_type_in},
      {&x, ompt_dependence_type_in}};
  CHECK_EQ_LONG(trec_ndeps, 7);
  for (int i = 0; i < 7 && i < trec_ndeps; ++i) {
    CHECK(trec_deps[i].variable.ptr == want[i].addr);
    CHECK_EQ_LONG(trec_deps[i].dependence_type, want[i].type);
    (void)dep_at;
  }
  /* The taskwait task is never switched to: its completion is one
   * task_schedule (taskwait task, ompt_taskwait_complete, NULL) on the
   * encountering thread, after its creation (6.0 §17.5). */
  int tw_complete = 0, tw_other = 0, tw_created_at = -1;
  for (int i = before; i < primary->count; ++i)
    if (primary->ev[i].ev == EV_TASK_CREATE && primary->ev[i].task_id == id[5]) tw_created_at = i;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    for (int i = 0; i < t->count; ++i) {
      rec_event* e = &t->ev[i];
      if (e->ev != EV_TASK_SCHEDULE || (e->task_id != id[5] && e->enc_task_id != id[5])) continue;
      if (t == primary && i > tw_created_at && e->task_id == id[5] &&
          e->kind == ompt_taskwait_complete && e->enc_task_id == 0)
        ++tw_complete;
      else
        ++tw_other;
    }
  }
  CHECK_EQ_LONG(tw_complete, 1);
  CHECK_EQ_LONG(tw_other, 0);
  /* Edges: t0->t1, t0->t2, t1->t3, t2->t3, t3->taskwait task. */
  static const int edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 5}};
  int nedges = trec_count(primary, EV_TASK_DEPENDENCE);
  CHECK_EQ_LONG(nedges, 5);
  for (int k = 0; k < 5; ++k) {
    int found = 0;
    for (int i = before; i < primary->count; ++i) {
      rec_event* e = &primary->ev[i];
      if (e->ev == EV_TASK_DEPENDENCE && e->task_id == id[edges[k][0]] &&
          e->enc_task_id == id[edges[k][1]])
        ++found;
    }
    CHECK_EQ_LONG(found, 1);
  }
  KITE_TEST_END();
}
