// ORA events, as a preloaded collector sees them (support/ora_collector.c
// starts a session from its constructor, before main, and registers every
// event): per thread, the order of events (FORK before JOIN of the same
// region, every begin before its end, idle intervals that contain no
// region event), the state and wait id answered inside each begin (the
// barrier's id shared by the team, the lock's address, one id for a
// critical), region ids through nested regions, and which constructs each
// compiler makes visible (gcc inlines master and marks no end of a plain
// single; clang calls the runtime for both).
// kite-test-threads: 2 4
// kite-test-env: LD_PRELOAD=ompt/libkite_ora_collector.so ASAN_OPTIONS=verify_asan_link_order=0
#include "kite_test.h"

#include <stdint.h>

#include "support/ora_collector.h"

static int (*started)(void);
static int (*thread_count)(void);
static struct ora_thread_log* (*log_of)(int);

enum { kOpen = 32 };

static int is_begin(int ev) { return ev >= OMP_EVENT_THR_BEGIN_IDLE && ev % 2 == 1; }

// What region A's threads saw, for the cross-thread checks.
struct seen {
  int barriers;  // IBAR + EBAR begins in region A
  int ebar;
  uint64_t ebar_id;
  int lkwt, ctwt, atwt, odwt, ordered, single, master;
  uint64_t ctwt_id;
};

static uint64_t region_a, region_b, inner_b[2];
static omp_lock_t lock;

static void check_thread(struct ora_thread_log* log, struct seen* s) {
  CHECK(!log->overflow);
  int open[OMP_EVENT_THR_END_ATWT + 2] = {0};
  uint64_t open_wait[OMP_EVENT_THR_END_ATWT + 2] = {0};
  uint64_t forked[kOpen];
  int nforked = 0;
  int idle = 0;
  for (int i = 0; i < log->n; ++i) {
    struct ora_record* r = &log->rec[i];
    CHECK_EQ_LONG(r->state_error, OMP_ERRCODE_OK);
    CHECK_EQ_LONG(r->prid_error, OMP_ERRCODE_OK);
    CHECK(r->state >= THR_OVHD_STATE && r->state < THR_LAST_STATE);
    int ev = r->event;
    // Task events (OpenUH's): ora_tasks.c checks them.
    if (ev >= OMP_EVENT_THR_BEGIN_CREATE_TASK) continue;
    if (idle && ev != OMP_EVENT_THR_END_IDLE) {
      fprintf(stderr, "event %d inside an idle interval\n", ev);
      CHECK(0);
    }
    switch (ev) {
      case OMP_EVENT_FORK:
        // CURRENT_PRID is the new region's, PARENT_PRID answers.
        CHECK(r->prid != 0);
        CHECK_EQ_LONG(r->parent_error, OMP_ERRCODE_OK);
        CHECK(nforked < kOpen);
        if (nforked < kOpen) forked[nforked++] = r->prid;
        if (r->prid == inner_b[0] || r->prid == inner_b[1]) CHECK_EQ_LONG(r->parent, region_b);
        if (r->prid == region_a || r->prid == region_b) CHECK_EQ_LONG(r->parent, 0);
        continue;
      case OMP_EVENT_JOIN:
        // The innermost region this thread forked, and not joined yet.
        CHECK(nforked > 0);
        if (nforked > 0) CHECK_EQ_LONG(r->prid, forked[--nforked]);
        CHECK_EQ_LONG(r->parent_error, OMP_ERRCODE_OK);
        continue;
      case OMP_EVENT_THR_BEGIN_IDLE:
        CHECK_EQ_LONG(r->state, THR_IDLE_STATE);
        CHECK_EQ_LONG(r->prid, 0);
        idle = 1;
        continue;
      case OMP_EVENT_THR_END_IDLE:
        CHECK(idle);
        CHECK_EQ_LONG(r->state, THR_WORK_STATE);
        CHECK(r->prid != 0);
        idle = 0;
        continue;
    }
    if (is_begin(ev)) {
      CHECK(!open[ev]);  // none of these nests on one thread
      open[ev] = 1;
      open_wait[ev] = r->wait_id;
    } else {
      CHECK(open[ev - 1]);
      open[ev - 1] = 0;
    }
    const int in_a = r->prid == region_a;
    switch (ev) {
      case OMP_EVENT_THR_BEGIN_IBAR:
      case OMP_EVENT_THR_BEGIN_EBAR:
        CHECK_EQ_LONG(r->state, ev == OMP_EVENT_THR_BEGIN_IBAR ? THR_IBAR_STATE : THR_EBAR_STATE);
        CHECK(r->wait_id != 0);
        if (in_a) ++s->barriers;
        if (in_a && ev == OMP_EVENT_THR_BEGIN_EBAR) {
          ++s->ebar;
          // One barrier object per team: every thread waits on the same id.
          if (!s->ebar_id) s->ebar_id = r->wait_id;
          CHECK_EQ_LONG(r->wait_id, s->ebar_id);
        }
        break;
      case OMP_EVENT_THR_END_IBAR:
      case OMP_EVENT_THR_END_EBAR:
      case OMP_EVENT_THR_END_LKWT:
      case OMP_EVENT_THR_END_CTWT:
      case OMP_EVENT_THR_END_ATWT:
      case OMP_EVENT_THR_END_ODWT:
        // Out of the wait state by the end event.
        CHECK(!ora_state_has_wait_id(r->state));
        break;
      case OMP_EVENT_THR_BEGIN_LKWT:
        CHECK_EQ_LONG(r->state, THR_LKWT_STATE);
        CHECK_EQ_LONG(r->wait_id, (uint64_t)(uintptr_t)&lock);
        s->lkwt += in_a;
        break;
      case OMP_EVENT_THR_BEGIN_CTWT:
        CHECK_EQ_LONG(r->state, THR_CTWT_STATE);
        CHECK(r->wait_id != 0);
        // The first critical of region A (unnamed): one id for the team.
        if (in_a && s->ctwt == 0) {
          if (!s->ctwt_id) s->ctwt_id = r->wait_id;
          CHECK_EQ_LONG(r->wait_id, s->ctwt_id);
        }
        s->ctwt += in_a;
        break;
      case OMP_EVENT_THR_BEGIN_ATWT:
        CHECK_EQ_LONG(r->state, THR_ATWT_STATE);
        CHECK(r->wait_id != 0);
        s->atwt += in_a;
        break;
      case OMP_EVENT_THR_BEGIN_ODWT:
        CHECK_EQ_LONG(r->state, THR_ODWT_STATE);
        CHECK(r->wait_id != 0);
        s->odwt += in_a;
        break;
      case OMP_EVENT_THR_BEGIN_ORDERED:
        // Right after the wait ended.
        CHECK(i > 0 && log->rec[i - 1].event == OMP_EVENT_THR_END_ODWT);
        CHECK_EQ_LONG(r->state, THR_WORK_STATE);
        s->ordered += in_a;
        break;
      case OMP_EVENT_THR_BEGIN_SINGLE: s->single += in_a; break;
      case OMP_EVENT_THR_BEGIN_MASTER: s->master += in_a; break;
    }
  }
  for (int ev = 0; ev <= OMP_EVENT_THR_END_ATWT; ++ev) {
    if (open[ev]) fprintf(stderr, "event %d begun, never ended\n", ev);
    CHECK(!open[ev]);
  }
  CHECK_EQ_LONG(nforked, 0);
  (void)open_wait;
}

static uint64_t current_prid(void) {
  uint64_t id = 0;
  int e;
  int (*q)(int, int*, void*, int) =
      (int (*)(int, int*, void*, int))dlsym(RTLD_DEFAULT, "ora_query");
  q(OMP_REQ_CURRENT_PRID, &e, &id, 8);
  CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
  return id;
}

int main(void) {
  KITE_TEST_BEGIN();
  started = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_started");
  thread_count = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_thread_count");
  log_of = (struct ora_thread_log * (*)(int)) dlsym(RTLD_DEFAULT, "ora_collector_log");
  if (!started || !thread_count || !log_of) {
    fprintf(stderr, "FAIL: the ORA collector is not preloaded\n");
    return 1;
  }
  // START (before main: the runtime had made no thread record) and all 35
  // REGISTERs (22 + OpenUH's task events) answered OK in one message.
  CHECK(started());

  omp_init_lock(&lock);
  int n = 0, counter = 0;
  long double ld = 0;
  volatile int sink = 0;
#pragma omp parallel shared(n, counter, ld)
  {
#pragma omp single
    {
      n = omp_get_num_threads();
      region_a = current_prid();
    }
#pragma omp barrier
#pragma omp critical
    counter++;
    omp_set_lock(&lock);
    sink = sink + 1;
    omp_unset_lock(&lock);
    int x = 0;
#pragma omp single copyprivate(x)
    x = 1;
    CHECK_EQ_LONG(x, 1);
#pragma omp master
    sink = sink + 1;
#pragma omp barrier
#pragma omp for ordered schedule(dynamic, 1)
    for (int i = 0; i < 8; ++i) {
#pragma omp ordered
      sink = sink + i;
    }
#ifdef __clang__
    // clang updates a long double atomically through libatomic, never the
    // runtime: nothing for Kite to see (ATWT is gcc's, GOMP_atomic_start).
#pragma omp critical(ld)
#else
#pragma omp atomic
#endif
    ld += 1.0L;
#pragma omp for
    for (int i = 0; i < 64; ++i) sink = sink + i;
  }
  CHECK_EQ_LONG(counter, n);
  CHECK(ld == (long double)n);

  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) region_b = current_prid();
#pragma omp barrier
#pragma omp parallel num_threads(2)
    {
      uint64_t in = current_prid();
      CHECK(in != region_b);
#pragma omp barrier
      if (omp_get_thread_num() == 0) inner_b[omp_get_ancestor_thread_num(1)] = in;
    }
  }
  CHECK(region_a != 0 && region_b != 0 && inner_b[0] && inner_b[1]);
  CHECK(inner_b[0] != inner_b[1]);

  struct seen s;
  memset(&s, 0, sizeof s);
  int threads = thread_count();
  int forks = 0, joins = 0, in_a = 0, barriers_a = -1;
  for (int t = 0; t < threads; ++t) {
    struct ora_thread_log* log = log_of(t);
    struct seen mine;
    memset(&mine, 0, sizeof mine);
    mine.ebar_id = s.ebar_id;
    mine.ctwt_id = s.ctwt_id;
    check_thread(log, &mine);
    int here = 0;
    for (int i = 0; i < log->n; ++i) {
      forks += log->rec[i].event == OMP_EVENT_FORK;
      joins += log->rec[i].event == OMP_EVENT_JOIN;
      here |= log->rec[i].prid == region_a;
    }
    if (!here) continue;
    ++in_a;
    // Each thread of region A passed the same barriers: two explicit ones,
    // at least, and the region's own.
    if (barriers_a < 0) barriers_a = mine.barriers;
    CHECK_EQ_LONG(mine.barriers, barriers_a);
    CHECK(mine.ebar >= 2);
    CHECK_EQ_LONG(mine.lkwt, 1);
#ifdef __clang__
    CHECK_EQ_LONG(mine.ctwt, 2);
    CHECK_EQ_LONG(mine.atwt, 0);
#else
    CHECK_EQ_LONG(mine.ctwt, 1);
    CHECK_EQ_LONG(mine.atwt, 1);
#endif
    s.ebar_id = mine.ebar_id;
    s.ctwt_id = mine.ctwt_id;
    s.odwt += mine.odwt;
    s.ordered += mine.ordered;
    s.single += mine.single;
    s.master += mine.master;
  }
  CHECK_EQ_LONG(in_a, n);
  CHECK(barriers_a >= 3);
  CHECK_EQ_LONG(s.ordered, 8);
  CHECK_EQ_LONG(s.odwt, 8);
  CHECK_EQ_LONG(forks, 4);
  CHECK_EQ_LONG(joins, 4);
#ifdef __clang__
  // clang calls __kmpc_master/__kmpc_end_master and __kmpc_single/
  // __kmpc_end_single for every single.
  CHECK_EQ_LONG(s.master, 1);
  CHECK_EQ_LONG(s.single, 2);
#else
  // gcc: master is an inline thread-number test; a plain single's end is
  // not a call. Only the copyprivate single is seen whole.
  CHECK_EQ_LONG(s.master, 0);
  CHECK_EQ_LONG(s.single, 1);
#endif
  omp_destroy_lock(&lock);
  KITE_TEST_END();
}
