/* Worksharing loops, sections and taskloop: work begin/end on every thread
 * with the construct's iteration count and codeptr_ra, dispatch events whose
 * chunks cover the iteration space exactly once, one dispatch per section,
 * the implicit barrier (barrier_implicit_workshare, GOMP_loop_end's return
 * address, waiting state), doacross loops, combined parallel loops, taskloop
 * chunks.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#define N 103
static int hits[N];

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

/* The worksharing call of a combined construct: gcc makes one call
 * (GOMP_parallel_loop_*) from fn itself; clang outlines the region body
 * and calls __kmpc_dispatch_init from there, a local function dladdr names
 * no symbol for. */
static int ws_returns_into(const void* ra, void* fn) {
#ifdef __clang__
  Dl_info info, fn_info;
  if (!ra || !dladdr(ra, &info) || !dladdr(fn, &fn_info)) return 0;
  if (info.dli_saddr != NULL || info.dli_fbase != fn_info.dli_fbase) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
#else
  return returns_into(ra, fn);
#endif
}

#define KEEP() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) void loop_dynamic(void) {
#pragma omp for schedule(dynamic, 2)
  for (int i = 0; i < N; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}
__attribute__((noinline)) void loop_guided(void) {
#pragma omp for schedule(guided, 3)
  for (int i = 0; i < N; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}
__attribute__((noinline)) void loop_runtime(void) {
#pragma omp for schedule(runtime)
  for (int i = 0; i < N; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}
__attribute__((noinline)) void loop_ordered(void) {
#pragma omp for schedule(static, 5) ordered
  for (int i = 0; i < N; ++i) {
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered
    KEEP();
  }
  KEEP();
}
/* Doacross loops (ordered(1) with depend(sink/source)): gcc calls
 * GOMP_loop_doacross_*_start, clang __kmpc_doacross_init after its
 * static_init or dispatch_init. */
static int doacross_order[N], doacross_next;
__attribute__((noinline)) void loop_doacross_dynamic(void) {
#pragma omp for ordered(1) schedule(dynamic, 3)
  for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 1)
    doacross_order[i] = __atomic_fetch_add(&doacross_next, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
  }
  KEEP();
}
__attribute__((noinline)) void loop_doacross_static(void) {
#pragma omp for ordered(1) schedule(static)
  for (int i = 0; i < N; ++i) {
#pragma omp ordered depend(sink : i - 1)
    doacross_order[i] = __atomic_fetch_add(&doacross_next, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
  }
  KEEP();
}
static void check_doacross_order(void) {
  for (int i = 0; i < N; ++i) CHECK_EQ_LONG(doacross_order[i], i);
  doacross_next = 0;
}

__attribute__((noinline)) void three_sections(void) {
#pragma omp sections
  {
#pragma omp section
    __atomic_add_fetch(&hits[0], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_add_fetch(&hits[1], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_add_fetch(&hits[2], 1, __ATOMIC_RELAXED);
  }
  KEEP();
}
__attribute__((noinline)) void combined(void) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < N; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}
__attribute__((noinline)) void taskloop_4(void) {
#pragma omp taskloop num_tasks(4)
  for (int i = 0; i < 100; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}

__attribute__((noinline)) void taskloop_empty(int n) {
#pragma omp taskloop
  for (int i = 0; i < n; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}

static int mark[REC_MAX_THREADS];
/* The schedule's chunk size, when the next check_construct should hold
 * every dispatched chunk to it (0: no bound). A tool sees the schedule's
 * chunks even in a team of one thread, which without a tool runs a loop as
 * one chunk. */
static unsigned max_chunk;

/* From each thread's mark on: one construct of `work` with count `count`,
 * its dispatches, its end, and (barrier) the implicit barrier; chunks and
 * sections must cover [0, count) exactly once over all threads. */
static void check_construct(int work, unsigned count, void* fn, int barrier, int nthreads) {
  static int covered[N + 1];
  memset(covered, 0, sizeof covered);
  int threads_seen = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    int b = rec_next(t, mark[k], EV_WORK_BEGIN);
    if (b < 0) continue;
    ++threads_seen;
    rec_event* wb = &t->ev[b];
    CHECK_EQ_LONG(wb->kind, work);
    CHECK_EQ_LONG(wb->n, count);
    CHECK(fn == (void*)combined ? ws_returns_into(wb->ra, fn) : returns_into(wb->ra, fn));
    int e = rec_next(t, b, EV_WORK_END);
    CHECK(e > b);
    if (e < 0) continue;
    CHECK_EQ_LONG(t->ev[e].kind, work);
    CHECK_EQ_LONG(t->ev[e].n, count); /* the end reports the begin's count */
    CHECK(t->ev[e].ra == wb->ra);
    for (int i = b + 1; i < e; ++i) {
      rec_event* d = &t->ev[i];
      if (d->ev != EV_DISPATCH) continue;
      CHECK_EQ_LONG(d->task_id, wb->task_id);
      if (work == ompt_work_sections) {
        CHECK_EQ_LONG(d->kind, ompt_dispatch_section);
        CHECK(d->enc_task_id >= 1 && d->enc_task_id <= count);
        if (d->enc_task_id >= 1 && d->enc_task_id <= count) covered[d->enc_task_id - 1]++;
      } else {
        CHECK_EQ_LONG(d->kind, ompt_dispatch_ws_loop_chunk);
        CHECK(d->n > 0 && d->enc_task_id + d->n <= count);
        if (max_chunk) CHECK(d->n <= max_chunk);
        for (uint64_t j = d->enc_task_id; j < d->enc_task_id + d->n && j < count; ++j)
          covered[j]++;
      }
    }
    if (barrier) {
      int s = rec_next(t, e, EV_SYNC_BEGIN);
      CHECK(s > e);
      if (s > e) {
        rec_event* sb = &t->ev[s];
        CHECK_EQ_LONG(sb->kind, ompt_sync_region_barrier_implicit_workshare);
        CHECK(returns_into(sb->ra, fn));
        CHECK(sb->enter_frame != NULL);
        CHECK(s + 3 < t->count);
        if (s + 3 < t->count) {
          CHECK_EQ_LONG(t->ev[s + 1].ev, EV_WAIT_BEGIN);
          CHECK_EQ_LONG(t->ev[s + 1].state, ompt_state_wait_barrier_implicit_workshare);
          CHECK_EQ_LONG(t->ev[s + 2].ev, EV_WAIT_END);
          CHECK_EQ_LONG(t->ev[s + 3].ev, EV_SYNC_END);
          CHECK_EQ_LONG(t->ev[s + 3].kind, ompt_sync_region_barrier_implicit_workshare);
        }
      }
    }
  }
  CHECK_EQ_LONG(threads_seen, nthreads);
  for (unsigned j = 0; j < count; ++j) CHECK_EQ_LONG(covered[j], 1);
  max_chunk = 0;
}

static void set_marks(void) {
  for (int k = 0; k < rec_nthreads; ++k) mark[k] = rec_threads[k].count;
}

static int team_size;

static void run_in_team(void (*fn)(void)) {
  set_marks();
#pragma omp parallel
  {
#pragma omp masked
    team_size = omp_get_num_threads();
    fn();
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_work], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_dispatch], ompt_set_sometimes);
  /* Workers exist before the marks are taken. */
#pragma omp parallel
  KEEP();

  run_in_team(loop_dynamic);
  max_chunk = 2;
  check_construct(ompt_work_loop_dynamic, N, (void*)loop_dynamic, 1, team_size);
  run_in_team(loop_guided);
  check_construct(ompt_work_loop_guided, N, (void*)loop_guided, 1, team_size);
  omp_set_schedule(omp_sched_static, 7);
  run_in_team(loop_runtime);
  check_construct(ompt_work_loop_static, N, (void*)loop_runtime, 1, team_size);
  omp_set_schedule(omp_sched_dynamic, 1);
  run_in_team(loop_runtime);
  max_chunk = 1;
  check_construct(ompt_work_loop_dynamic, N, (void*)loop_runtime, 1, team_size);
  run_in_team(loop_ordered);
  max_chunk = 5;
  check_construct(ompt_work_loop_static, N, (void*)loop_ordered, 1, team_size);
  run_in_team(three_sections);
  check_construct(ompt_work_sections, 3, (void*)three_sections, 1, team_size);
  run_in_team(loop_doacross_dynamic);
  check_construct(ompt_work_loop_dynamic, N, (void*)loop_doacross_dynamic, 1, team_size);
  check_doacross_order();
  run_in_team(loop_doacross_static);
  check_construct(ompt_work_loop_static, N, (void*)loop_doacross_static, 1, team_size);
  check_doacross_order();

  /* Combined parallel loop: the construct's return address is the
   * GOMP_parallel_loop_* call's, and so is parallel_begin's. */
  rec_thread* primary = rec_me();
  set_marks();
  combined();
  max_chunk = 4;
  check_construct(ompt_work_loop_dynamic, N, (void*)combined, 0, team_size);
  int pb = rec_next(primary, mark[0], EV_PARALLEL_BEGIN);
  CHECK(pb >= 0);
  if (pb >= 0) CHECK(returns_into(primary->ev[pb].ra, (void*)combined));

  /* Taskloop: work begin/end on the encountering thread, one task and one
   * chunk per task, chunks covering the 100 iterations once. */
  memset(hits, 0, sizeof hits);
  set_marks();
  taskloop_4();
  int b = rec_next(primary, mark[0], EV_WORK_BEGIN);
  CHECK(b >= 0);
  if (b >= 0) {
    CHECK_EQ_LONG(primary->ev[b].kind, ompt_work_taskloop);
    CHECK_EQ_LONG(primary->ev[b].n, 100);
    CHECK(returns_into(primary->ev[b].ra, (void*)taskloop_4));
    int e = rec_next(primary, b, EV_WORK_END);
    CHECK(e > b);
    int covered[100] = {0}, ntasks = 0, nchunks = 0;
    for (int i = b; i < e; ++i) {
      rec_event* x = &primary->ev[i];
      if (x->ev == EV_TASK_CREATE && returns_into(x->ra, (void*)taskloop_4)) ++ntasks;
      if (x->ev == EV_DISPATCH) {
        CHECK_EQ_LONG(x->kind, ompt_dispatch_taskloop_chunk);
        CHECK_EQ_LONG(primary->ev[i - 1].ev, EV_TASK_CREATE);
        CHECK_EQ_LONG(x->task_id, primary->ev[i - 1].task_id);
        ++nchunks;
        for (uint64_t j = x->enc_task_id; j < x->enc_task_id + x->n && j < 100; ++j) covered[j]++;
      }
    }
    CHECK_EQ_LONG(ntasks, 4);
    CHECK_EQ_LONG(nchunks, 4);
    for (int j = 0; j < 100; ++j) CHECK_EQ_LONG(covered[j], 1);
  }
  for (int j = 0; j < 100; ++j) CHECK_EQ_LONG(hits[j], 1);

  /* An empty taskloop: begin and end, count 0, no task. */
  set_marks();
  taskloop_empty(0);
  b = rec_next(primary, mark[0], EV_WORK_BEGIN);
  CHECK(b >= 0);
  if (b >= 0) {
    CHECK_EQ_LONG(primary->ev[b].kind, ompt_work_taskloop);
    CHECK_EQ_LONG(primary->ev[b].n, 0);
    CHECK(returns_into(primary->ev[b].ra, (void*)taskloop_empty));
    CHECK(b + 1 < primary->count && primary->ev[b + 1].ev == EV_WORK_END);
  }
  KITE_TEST_END();
}
