// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* OMPT events of worksharing and the other constructs clang lowers to
 * runtime calls (this differs from gcc, which runs static loops and plain
 * singles inline and calls nothing for masked, flush and reductions):
 * static loops (__kmpc_for_static_init / _fini) report work
 * loop_static with every chunk dispatched, dynamic loops (__kmpc_dispatch_*)
 * work loop_dynamic with their chunks, sections (a static_init with the
 * sections flag) each section once, single its executor and the others,
 * and the separate __kmpc_barrier after each of them is an implicit
 * worksharing barrier, not an explicit one. masked, flush and reduction
 * have their own callbacks; taskloop (__kmpc_taskloop) reports work and
 * one chunk per task. Kite's omp-tools.h comes first: the recorder
 * uses 5.1 names that clang 14's header lacks (same layout, same guard). */
#include "../../../include/omp-tools.h"
#include "kite_test.h"

#include "../../ompt/support/task_recorder.h"

enum { EV_MASKED_BEGIN = 200, EV_MASKED_END, EV_FLUSH, EV_RED_BEGIN, EV_RED_END };

static void wsc_masked(ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                       const void* ra) {
  rec_event* e = rec_push(ep == ompt_scope_begin ? EV_MASKED_BEGIN : EV_MASKED_END);
  if (!e) return;
  e->parallel_id = pd ? pd->value : 0;
  e->task_id = td ? td->value : 0;
  e->ra = ra;
}

static void wsc_flush(ompt_data_t* thread_data, const void* ra) {
  rec_event* e = rec_push(EV_FLUSH);
  if (!e) return;
  e->have_pd = thread_data != NULL;
  e->ra = ra;
}

static void wsc_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                          ompt_data_t* td, const void* ra) {
  rec_event* e = rec_push(ep == ompt_scope_begin ? EV_RED_BEGIN : EV_RED_END);
  if (!e) return;
  e->kind = kind;
  e->task_id = td ? td->value : 0;
  e->ra = ra;
  e->state = rec_get_state(NULL);
}

static int wsc_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int r = trec_initialize(lookup, device, tool_data);
  REC_REGISTER(ompt_callback_masked, wsc_masked);
  REC_REGISTER(ompt_callback_flush, wsc_flush);
  REC_REGISTER(ompt_callback_reduction, wsc_reduction);
  return r;
}

/* The recorder's ompt_start_tool hands out trec_result; its initializer
 * becomes this one before the runtime looks for a tool (at the first
 * OpenMP call, after constructors). */
__attribute__((constructor)) static void wsc_hook(void) { trec_result.initialize = wsc_initialize; }

#define N 100

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

/* Each thread's buffer length before the region under test. */
static int mark[REC_MAX_THREADS];
static void set_marks(void) {
  for (int k = 0; k < REC_MAX_THREADS; ++k) mark[k] = rec_threads[k].count;
}

/* Events `ev` (of kind `kind`, or any when kind < 0) since the marks. */
static int count_since(int ev, int kind) {
  int n = 0;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k)
    for (int i = mark[k]; i < rec_threads[k].count; ++i)
      n += rec_threads[k].ev[i].ev == ev && (kind < 0 || rec_threads[k].ev[i].kind == kind);
  return n;
}

static int hits[N];
static int nthreads;

/* Every thread that took part: work begin (type, count, return address
 * into fn), its dispatches covering each iteration once, work end, then the
 * implicit worksharing barrier at a call in fn. */
static void check_loop(int work, void* fn) {
  int cover[N];
  memset(cover, 0, sizeof cover);
  int begins = 0;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    rec_thread* t = &rec_threads[k];
    int b = rec_next(t, mark[k], EV_WORK_BEGIN);
    if (b < 0) continue;
    ++begins;
    CHECK_EQ_LONG(t->ev[b].kind, work);
    CHECK_EQ_LONG(t->ev[b].n, N);
    CHECK(returns_into(t->ev[b].ra, fn));
    int e = rec_next(t, b, EV_WORK_END);
    CHECK(e > b);
    if (e < 0) continue;
    CHECK_EQ_LONG(t->ev[e].kind, work);
    for (int i = b + 1; i < e; ++i) {
      if (t->ev[i].ev != EV_DISPATCH) continue;
      CHECK_EQ_LONG(t->ev[i].kind, ompt_dispatch_ws_loop_chunk);
      CHECK_EQ_LONG(t->ev[i].task_id, t->ev[b].task_id);
      uint64_t first = t->ev[i].enc_task_id;
      CHECK(first < N && first + t->ev[i].n <= N);
      for (uint64_t j = first; j < first + t->ev[i].n && j < N; ++j) cover[j]++;
    }
    int s = rec_next(t, e, EV_SYNC_BEGIN);
    CHECK(s > e);
    if (s > e) {
      CHECK_EQ_LONG(t->ev[s].kind, ompt_sync_region_barrier_implicit_workshare);
      CHECK(returns_into(t->ev[s].ra, fn));
    }
  }
  CHECK_EQ_LONG(begins, nthreads);
  for (int j = 0; j < N; ++j) CHECK_EQ_LONG(cover[j], 1);
}

__attribute__((noinline)) void static_loop(void) {
#pragma omp for schedule(static)
  for (int i = 0; i < N; ++i) __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void static_chunked_loop(void) {
#pragma omp for schedule(static, 7)
  for (int i = 0; i < N; ++i) __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void dynamic_loop(void) {
#pragma omp for schedule(dynamic, 5)
  for (int i = 0; i < N; ++i) __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

static int section_runs[3];
__attribute__((noinline)) void three_sections(void) {
#pragma omp sections
  {
#pragma omp section
    section_runs[0]++;
#pragma omp section
    section_runs[1]++;
#pragma omp section
    section_runs[2]++;
  }
}

static int single_runs;
__attribute__((noinline)) void one_single(void) {
#pragma omp single
  single_runs++;
}

__attribute__((noinline)) int single_copy(void) {
  int x = 0;
#pragma omp single copyprivate(x)
  x = 42;
  return x;
}

__attribute__((noinline)) void taskloop_4(void) {
#pragma omp taskloop num_tasks(4)
  for (int i = 0; i < N; ++i) __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

static int masked_runs;
__attribute__((noinline)) void masked_and_flush(void) {
#pragma omp masked
  masked_runs++;
#pragma omp flush
  __asm__ volatile("" ::: "memory"); /* no tail call (clang 19+) */
}

__attribute__((noinline)) long reduce_loop(void) {
  long s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i) s += i;
  return s;
}

int main(void) {
  KITE_TEST_BEGIN();
  nthreads = omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_work], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_masked], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_flush], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_reduction], ompt_set_sometimes);

  void (*loops[3])(void) = {static_loop, static_chunked_loop, dynamic_loop};
  int works[3] = {ompt_work_loop_static, ompt_work_loop_static, ompt_work_loop_dynamic};
  for (int l = 0; l < 3; ++l) {
    memset(hits, 0, sizeof hits);
    set_marks();
#pragma omp parallel num_threads(nthreads)
    loops[l]();
    for (int j = 0; j < N; ++j) CHECK_EQ_LONG(hits[j], 1);
    check_loop(works[l], (void*)loops[l]);
    /* A static loop with chunk 7 hands each thread its chunks of 7 at most. */
    if (l == 1)
      for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k)
        for (int i = mark[k]; i < rec_threads[k].count; ++i)
          if (rec_threads[k].ev[i].ev == EV_DISPATCH) CHECK(rec_threads[k].ev[i].n <= 7);
    CHECK_EQ_LONG(count_since(EV_SYNC_BEGIN, ompt_sync_region_barrier_explicit), 0);
  }

  /* Sections: each one dispatched once (instance: its number from 1). */
  set_marks();
#pragma omp parallel num_threads(nthreads)
  three_sections();
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_sections), nthreads);
  CHECK_EQ_LONG(count_since(EV_WORK_END, ompt_work_sections), nthreads);
  CHECK_EQ_LONG(count_since(EV_DISPATCH, ompt_dispatch_section), 3);
  int seen[4] = {0, 0, 0, 0};
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k)
    for (int i = mark[k]; i < rec_threads[k].count; ++i)
      if (rec_threads[k].ev[i].ev == EV_DISPATCH && rec_threads[k].ev[i].enc_task_id >= 1 &&
          rec_threads[k].ev[i].enc_task_id <= 3)
        seen[rec_threads[k].ev[i].enc_task_id]++;
  CHECK(seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
  CHECK(section_runs[0] == 1 && section_runs[1] == 1 && section_runs[2] == 1);
  CHECK_EQ_LONG(count_since(EV_SYNC_BEGIN, ompt_sync_region_barrier_implicit_workshare),
                nthreads);

  /* Single: one executor, begin and end; the others skip it. */
  set_marks();
#pragma omp parallel num_threads(nthreads)
  one_single();
  CHECK_EQ_LONG(single_runs, 1);
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_single_executor), 1);
  CHECK_EQ_LONG(count_since(EV_WORK_END, ompt_work_single_executor), 1);
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_single_other), nthreads - 1);
  CHECK_EQ_LONG(count_since(EV_WORK_END, ompt_work_single_other), nthreads - 1);
  CHECK_EQ_LONG(count_since(EV_SYNC_BEGIN, ompt_sync_region_barrier_implicit_workshare),
                nthreads);
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    int b = rec_next(&rec_threads[k], mark[k], EV_WORK_BEGIN);
    if (b >= 0) CHECK(returns_into(rec_threads[k].ev[b].ra, (void*)one_single));
  }

  /* Single with copyprivate: __kmpc_copyprivate's barrier, where the
   * others receive the values, is the construct's implicit barrier. */
  set_marks();
  int copied = 0;
#pragma omp parallel num_threads(nthreads) reduction(+ : copied)
  copied += single_copy() == 42;
  CHECK_EQ_LONG(copied, nthreads);
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_single_executor), 1);
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_single_other), nthreads - 1);
  if (nthreads > 1) {
    CHECK_EQ_LONG(count_since(EV_SYNC_BEGIN, ompt_sync_region_barrier_implicit_workshare),
                  nthreads);
    for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
      rec_thread* t = &rec_threads[k];
      int e = rec_next(t, mark[k], EV_WORK_END);
      if (e < 0) continue;
      int s = rec_next(t, e, EV_SYNC_BEGIN);
      CHECK(s > e);
      if (s > e) {
        CHECK_EQ_LONG(t->ev[s].kind, ompt_sync_region_barrier_implicit_workshare);
        CHECK(returns_into(t->ev[s].ra, (void*)single_copy));
      }
    }
  }

  /* Taskloop (__kmpc_taskloop): work taskloop on the encountering thread,
   * each task created with its chunk dispatched at once; the chunks cover
   * the loop once. */
  memset(hits, 0, sizeof hits);
  set_marks();
#pragma omp parallel num_threads(nthreads)
#pragma omp single
  taskloop_4();
  for (int j = 0; j < N; ++j) CHECK_EQ_LONG(hits[j], 1);
  CHECK_EQ_LONG(count_since(EV_WORK_BEGIN, ompt_work_taskloop), 1);
  CHECK_EQ_LONG(count_since(EV_WORK_END, ompt_work_taskloop), 1);
  CHECK_EQ_LONG(count_since(EV_DISPATCH, ompt_dispatch_taskloop_chunk), 4);
  {
    int cover[N];
    memset(cover, 0, sizeof cover);
    for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
      rec_thread* t = &rec_threads[k];
      int b = rec_next(t, mark[k], EV_WORK_BEGIN);
      while (b >= 0 && t->ev[b].kind != ompt_work_taskloop) b = rec_next(t, b + 1, EV_WORK_BEGIN);
      if (b < 0) continue;
      CHECK_EQ_LONG(t->ev[b].n, N);
      CHECK(returns_into(t->ev[b].ra, (void*)taskloop_4));
      for (int i = b + 1; i < t->count && t->ev[i].ev != EV_WORK_END; ++i) {
        if (t->ev[i].ev != EV_DISPATCH) continue;
        /* task_create of the same task right before its chunk */
        CHECK(i > 0 && t->ev[i - 1].ev == EV_TASK_CREATE &&
              t->ev[i - 1].task_id == t->ev[i].task_id);
        CHECK(returns_into(t->ev[i - 1].ra, (void*)taskloop_4));
        uint64_t first = t->ev[i].enc_task_id;
        CHECK(first < N && first + t->ev[i].n <= N);
        for (uint64_t j = first; j < first + t->ev[i].n && j < N; ++j) cover[j]++;
      }
    }
    for (int j = 0; j < N; ++j) CHECK_EQ_LONG(cover[j], 1);
  }

  /* masked on the primary only; a flush on every thread. */
  set_marks();
#pragma omp parallel num_threads(nthreads)
  masked_and_flush();
  CHECK_EQ_LONG(masked_runs, 1);
  CHECK_EQ_LONG(count_since(EV_MASKED_BEGIN, -1), 1);
  CHECK_EQ_LONG(count_since(EV_MASKED_END, -1), 1);
  CHECK_EQ_LONG(count_since(EV_FLUSH, -1), nthreads);
  rec_thread* primary = rec_me();
  int mb = rec_next(primary, mark[primary - rec_threads], EV_MASKED_BEGIN);
  CHECK(mb >= 0);
  if (mb >= 0) {
    CHECK(returns_into(primary->ev[mb].ra, (void*)masked_and_flush));
    int me = rec_next(primary, mb, EV_MASKED_END);
    CHECK(me > mb && returns_into(primary->ev[me].ra, (void*)masked_and_flush));
  }
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    int f = rec_next(&rec_threads[k], mark[k], EV_FLUSH);
    if (f >= 0) {
      CHECK(rec_threads[k].ev[f].have_pd);
      CHECK(returns_into(rec_threads[k].ev[f].ra, (void*)masked_and_flush));
    }
  }

  /* Reduction: each thread brackets its combination. */
  set_marks();
  CHECK_EQ_LONG(reduce_loop(), (long)N * (N - 1) / 2);
  CHECK_EQ_LONG(count_since(EV_RED_BEGIN, ompt_sync_region_reduction), nthreads);
  CHECK_EQ_LONG(count_since(EV_RED_END, ompt_sync_region_reduction), nthreads);
  /* ... in the work_reduction state, and working again afterwards. */
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k)
    for (int i = mark[k]; i < rec_threads[k].count; ++i)
      if (rec_threads[k].ev[i].ev == EV_RED_BEGIN || rec_threads[k].ev[i].ev == EV_RED_END)
        CHECK_EQ_LONG(rec_threads[k].ev[i].state, ompt_state_work_reduction);
  CHECK_EQ_LONG(rec_get_state(NULL), ompt_state_work_serial);
  KITE_TEST_END();
}
