/* Combined constructs: GOMP_parallel_sections, GOMP_parallel_loop_runtime
 * and GOMP_parallel_reductions give parallel_begin/end the call's return
 * address and the encountering task's enter frame; the worksharing part of
 * the combined forms reports work and dispatch with that address too.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

/* The worksharing call of a combined construct: gcc makes one call
 * (GOMP_parallel_loop_*) from fn itself; clang outlines the region body
 * and calls __kmpc_for_static_init / __kmpc_dispatch_init from there, a
 * local function dladdr names no symbol for. */
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
static int hits[40], sum;

__attribute__((noinline)) void par_sections(void) {
#pragma omp parallel sections
  {
#pragma omp section
    __atomic_add_fetch(&hits[0], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_add_fetch(&hits[1], 1, __ATOMIC_RELAXED);
  }
  KEEP();
}

__attribute__((noinline)) void par_runtime(void) {
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < 40; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  KEEP();
}

__attribute__((noinline)) void par_task_reduction(void) {
#pragma omp parallel reduction(task, + : sum)
  {
#pragma omp masked
#pragma omp task in_reduction(+ : sum)
    sum += 1;
  }
  KEEP();
}

static void check_region(rec_thread* primary, int from, void* fn) {
  int b = rec_next(primary, from, EV_PARALLEL_BEGIN);
  CHECK(b >= 0);
  if (b < 0) return;
  CHECK(returns_into(primary->ev[b].ra, fn));
  CHECK(primary->ev[b].enter_frame != NULL);
  int e = rec_next(primary, b, EV_PARALLEL_END);
  CHECK(e > b);
  if (e > b) CHECK(returns_into(primary->ev[e].ra, fn));
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  rec_thread* primary = rec_me();

  int from = primary->count;
  par_sections();
  check_region(primary, from, (void*)par_sections);
  int b = rec_next(primary, from, EV_WORK_BEGIN);
  CHECK(b >= 0);
  if (b >= 0) {
    CHECK_EQ_LONG(primary->ev[b].kind, ompt_work_sections);
    CHECK_EQ_LONG(primary->ev[b].n, 2);
    CHECK(ws_returns_into(primary->ev[b].ra, (void*)par_sections));
  }
  int dispatched = 0;
  for (int k = 0; k < rec_nthreads; ++k)
    dispatched += trec_count(&rec_threads[k], EV_DISPATCH);
  CHECK_EQ_LONG(dispatched, 2);
  CHECK_EQ_LONG(hits[0], 1);
  CHECK_EQ_LONG(hits[1], 1);

  omp_set_schedule(omp_sched_guided, 2);
  from = primary->count;
  par_runtime();
  check_region(primary, from, (void*)par_runtime);
  b = rec_next(primary, from, EV_WORK_BEGIN);
  CHECK(b >= 0);
  if (b >= 0) {
    CHECK_EQ_LONG(primary->ev[b].kind, ompt_work_loop_guided);
    CHECK_EQ_LONG(primary->ev[b].n, 40);
    CHECK(ws_returns_into(primary->ev[b].ra, (void*)par_runtime));
  }

  from = primary->count;
  par_task_reduction();
  check_region(primary, from, (void*)par_task_reduction);
  CHECK_EQ_LONG(sum, 1);
  KITE_TEST_END();
}
