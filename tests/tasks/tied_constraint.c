// kite-test-threads: 2 4 8
// kite-test-env: OMP_MAX_TASK_PRIORITY=10
/* The tied-task scheduling constraint: while a task waits in taskwait or
 * at the end of a taskgroup on some thread, that thread may only start
 * tasks descended from it. Every thread produces a forest of tasks whose
 * parents wait; each task checks, on entry, that every task suspended on
 * its thread is one of its ancestors. */
#include "kite_test.h"

#define MAXT 20000
static int parent_of[MAXT];
static int next_id = 1;
static __thread int susp[256];
static __thread int nsusp;
static int violations;

static int is_ancestor(int a, int t) {
  for (int p = parent_of[t]; p; p = parent_of[p])
    if (p == a) return 1;
  return 0;
}

static void node(int id, int depth) {
  for (int i = 0; i < nsusp; ++i)
    if (!is_ancestor(susp[i], id)) __atomic_store_n(&violations, 1, __ATOMIC_RELAXED);
  if (depth == 0) {
    for (volatile int k = 0; k < 2000; ++k) {
    }
    return;
  }
  for (int c = 0; c < 4; ++c) {
    int cid = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    if (cid >= MAXT) return;
    parent_of[cid] = id;
#pragma omp task firstprivate(cid, depth)
    node(cid, depth - 1);
  }
  susp[nsusp++] = id;
  if (depth % 2) {
#pragma omp taskwait
  } else {
#pragma omp taskgroup
    {
      int cid = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
      if (cid < MAXT) {
        parent_of[cid] = id;
#pragma omp task firstprivate(cid)
        node(cid, 0);
      }
    }
  }
  --nsusp;
}

/* A focused case: task A waits in taskwait on thread X while its only
 * child runs on another thread, and an unrelated high-priority task U is
 * ready: X must not run U. */
static int a_waiting, c_started, u_created, u_ran, c_gave_up;
static int a_thread = -1, u_thread = -2;

static void spin_until(int* flag, double limit_s) {
  double t0 = omp_get_wtime();
  while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && omp_get_wtime() - t0 < limit_s) {
  }
}

static int focused_round(void) {
  a_waiting = c_started = u_created = u_ran = c_gave_up = 0;
  a_thread = -1;
  u_thread = -2;
  int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
  {
#pragma omp task shared(bad)
    {
      a_thread = omp_get_thread_num();
#pragma omp task
      {
        __atomic_store_n(&c_started, 1, __ATOMIC_RELEASE);
        spin_until(&u_ran, 0.2);
        /* Under heavy load U may not have run yet: then A's wait ended
         * before U ran, and the round proves nothing. */
        if (!__atomic_load_n(&u_ran, __ATOMIC_ACQUIRE)) c_gave_up = 1;
      }
      spin_until(&c_started, 0.05);
      __atomic_store_n(&a_waiting, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
    }
    spin_until(&a_waiting, 0.05);
#pragma omp task priority(5)
    {
      u_thread = omp_get_thread_num();
      __atomic_store_n(&u_ran, 1, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&u_created, 1, __ATOMIC_RELEASE);
  }
  /* U may run on A's thread only if A's taskwait was over by then. */
  if (u_thread == a_thread && a_waiting && c_started && !c_gave_up) bad = 1;
  return bad;
}

int main(void) {
  KITE_TEST_BEGIN();
  if (omp_get_max_threads() >= 3) {
    int bad = 0;
    for (int r = 0; r < 30; ++r) bad += focused_round();
    CHECK_EQ_LONG(bad, 0);
  }
#pragma omp parallel
  {
    for (int r = 0; r < 4; ++r) {
      int id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
      parent_of[id] = 0;
#pragma omp task firstprivate(id)
      node(id, 4);
    }
  }
  CHECK(next_id > 100);
  CHECK_EQ_LONG(violations, 0);
  KITE_TEST_END();
}
