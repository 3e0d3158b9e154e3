/* kite-test-threads: 1 2 4
 * libgomp entry points that gcc 12 rarely or never emits, called the way
 * their ABI defines: combined parallel loops (GOMP_4.0 forms and the
 * GOMP_1.0 *_start forms ended by GOMP_parallel_end), combined parallel
 * sections, GOMP_loop_start without chunk pointers and with a scratch
 * request, the cancellable loop end, and doacross with unsigned counts. */
#include "kite_test.h"

#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;
typedef void (*outlined)(void*);

extern void GOMP_parallel_loop_static(outlined, void*, unsigned, long, long, long, long, unsigned);
extern void GOMP_parallel_loop_dynamic(outlined, void*, unsigned, long, long, long, long, unsigned);
extern void GOMP_parallel_loop_guided(outlined, void*, unsigned, long, long, long, long, unsigned);
extern void GOMP_parallel_loop_runtime(outlined, void*, unsigned, long, long, long, unsigned);
extern void GOMP_parallel_loop_nonmonotonic_dynamic(outlined, void*, unsigned, long, long, long,
                                                    long, unsigned);
extern void GOMP_parallel_loop_nonmonotonic_guided(outlined, void*, unsigned, long, long, long,
                                                   long, unsigned);
extern void GOMP_parallel_loop_nonmonotonic_runtime(outlined, void*, unsigned, long, long, long,
                                                    unsigned);
extern void GOMP_parallel_loop_maybe_nonmonotonic_runtime(outlined, void*, unsigned, long, long,
                                                          long, unsigned);
extern void GOMP_parallel_loop_static_start(outlined, void*, unsigned, long, long, long, long);
extern void GOMP_parallel_loop_dynamic_start(outlined, void*, unsigned, long, long, long, long);
extern void GOMP_parallel_loop_guided_start(outlined, void*, unsigned, long, long, long, long);
extern void GOMP_parallel_loop_runtime_start(outlined, void*, unsigned, long, long, long);
extern void GOMP_parallel_end(void);
extern void GOMP_parallel(outlined, void*, unsigned, unsigned);
extern void GOMP_parallel_sections(outlined, void*, unsigned, unsigned, unsigned);
extern void GOMP_parallel_sections_start(outlined, void*, unsigned, unsigned);
extern bool GOMP_loop_runtime_next(long*, long*);
extern void GOMP_loop_end_nowait(void);
extern bool GOMP_loop_end_cancel(void);
extern void GOMP_loop_end(void);
extern bool GOMP_loop_start(long, long, long, long, long, long*, long*, uintptr_t*, void**);
extern bool GOMP_loop_ull_start(bool, ull, ull, ull, long, ull, ull*, ull*, uintptr_t*, void**);
extern bool GOMP_loop_ull_runtime_next(ull*, ull*);
extern unsigned GOMP_sections_next(void);
extern void GOMP_sections_end_nowait(void);
extern bool GOMP_sections_end_cancel(void);
extern unsigned GOMP_sections2_start(unsigned, uintptr_t*, void**);
extern bool GOMP_loop_ull_doacross_static_start(unsigned, ull*, ull, ull*, ull*);
extern bool GOMP_loop_ull_doacross_dynamic_start(unsigned, ull*, ull, ull*, ull*);
extern void GOMP_doacross_ull_post(ull*);
extern void GOMP_doacross_ull_wait(ull, ...);
extern void GOMP_ordered_start(void);
extern void GOMP_ordered_end(void);

#define N 1000
static int hits[N];

/* The body of a combined loop: the team starts inside the loop. */
static void body(void* arg) {
  long s, e;
  (void)arg;
  while (GOMP_loop_runtime_next(&s, &e))
    for (long i = s; i < e; i += 2) __atomic_fetch_add(&hits[i / 2], 1, __ATOMIC_RELAXED);
  GOMP_loop_end_nowait();
}

static void check_hits(int n, const char* what) {
  for (int i = 0; i < N; ++i)
    if (hits[i] != (i < n)) {
      fprintf(stderr, "%s: iteration %d ran %d times\n", what, i, hits[i]);
      __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);
      break;
    }
  memset(hits, 0, sizeof hits);
}

static void combined_loops(void) {
  /* 0, 2, ..., 1798: 900 iterations. */
  GOMP_parallel_loop_static(body, NULL, 0, 0, 1800, 2, 0, 0);
  check_hits(900, "parallel_loop_static");
  GOMP_parallel_loop_static(body, NULL, 3, 0, 1800, 2, 7, 0);
  check_hits(900, "parallel_loop_static chunk");
  GOMP_parallel_loop_dynamic(body, NULL, 0, 0, 1800, 2, 5, 0);
  check_hits(900, "parallel_loop_dynamic");
  GOMP_parallel_loop_guided(body, NULL, 0, 0, 1800, 2, 1, 0);
  check_hits(900, "parallel_loop_guided");
  GOMP_parallel_loop_nonmonotonic_dynamic(body, NULL, 0, 0, 1800, 2, 1, 0);
  check_hits(900, "parallel_loop_nonmonotonic_dynamic");
  GOMP_parallel_loop_nonmonotonic_guided(body, NULL, 0, 0, 1800, 2, 3, 0);
  check_hits(900, "parallel_loop_nonmonotonic_guided");
  omp_set_schedule(omp_sched_dynamic, 3);
  GOMP_parallel_loop_runtime(body, NULL, 0, 0, 1800, 2, 0);
  check_hits(900, "parallel_loop_runtime");
  GOMP_parallel_loop_nonmonotonic_runtime(body, NULL, 0, 0, 1800, 2, 0);
  check_hits(900, "parallel_loop_nonmonotonic_runtime");
  omp_set_schedule(omp_sched_static, 0);
  GOMP_parallel_loop_maybe_nonmonotonic_runtime(body, NULL, 0, 0, 1800, 2, 0);
  check_hits(900, "parallel_loop_maybe_nonmonotonic_runtime");
  GOMP_parallel_loop_static(body, NULL, 0, 0, 0, 2, 0, 0);
  check_hits(0, "parallel_loop_static empty");
  /* GOMP_1.0 split forms: the caller runs the body itself, then ends. */
  for (int r = 0; r < 20; ++r) {
    GOMP_parallel_loop_static_start(body, NULL, 0, 0, 1800, 2, 0);
    body(NULL);
    GOMP_parallel_end();
    check_hits(900, "parallel_loop_static_start");
    GOMP_parallel_loop_dynamic_start(body, NULL, 0, 0, 1800, 2, 4);
    body(NULL);
    GOMP_parallel_end();
    check_hits(900, "parallel_loop_dynamic_start");
    GOMP_parallel_loop_guided_start(body, NULL, 0, 0, 1800, 2, 2);
    body(NULL);
    GOMP_parallel_end();
    check_hits(900, "parallel_loop_guided_start");
    GOMP_parallel_loop_runtime_start(body, NULL, 0, 0, 1800, 2);
    body(NULL);
    GOMP_parallel_end();
    check_hits(900, "parallel_loop_runtime_start");
  }
}

static int sec_hits[6];
static void sections_body(void* arg) {
  (void)arg;
  for (unsigned s = GOMP_sections_next(); s; s = GOMP_sections_next())
    if (s <= 6) __atomic_fetch_add(&sec_hits[s - 1], 1, __ATOMIC_RELAXED);
  GOMP_sections_end_nowait();
}

static void combined_sections(void) {
  for (int r = 0; r < 20; ++r) {
    memset(sec_hits, 0, sizeof sec_hits);
    GOMP_parallel_sections(sections_body, NULL, 0, 6, 0);
    for (int s = 0; s < 6; ++s) CHECK_EQ_LONG(sec_hits[s], 1);
    memset(sec_hits, 0, sizeof sec_hits);
    GOMP_parallel_sections_start(sections_body, NULL, 0, 5);
    sections_body(NULL);
    GOMP_parallel_end();
    for (int s = 0; s < 5; ++s) CHECK_EQ_LONG(sec_hits[s], 1);
    CHECK_EQ_LONG(sec_hits[5], 0);
  }
}

/* GOMP_loop_start without istart (gcc schedules the iterations itself) and
 * with a scratch request: every thread gets the same zeroed area. */
static void *scratch_seen[64];
static int scratch_bad;
static void generic_body(void* arg) {
  (void)arg;
  int tid = omp_get_thread_num();
  void* mem = (void*)(uintptr_t)256;
  CHECK(GOMP_loop_start(0, 10, 1, 1, 0, NULL, NULL, NULL, &mem));
  if (tid < 64) scratch_seen[tid] = mem;
  for (int k = 0; k < 256; ++k)
    if (((volatile char*)mem)[k] != 0) __atomic_fetch_add(&scratch_bad, 1, __ATOMIC_RELAXED);
  GOMP_loop_end();
  /* A second loop through the generic form, with chunks, unsigned. */
  ull s, e;
  mem = (void*)(uintptr_t)64;
  if (GOMP_loop_ull_start(true, 0, 2 * N, 2, 2 /* dynamic */, 3, &s, &e, NULL, &mem)) {
    do {
      for (ull i = s; i < e; i += 2) __atomic_fetch_add(&hits[i / 2], 1, __ATOMIC_RELAXED);
    } while (GOMP_loop_ull_runtime_next(&s, &e));
  }
  /* The cancellable end reports "not cancelled" for a region that wasn't. */
  if (GOMP_loop_end_cancel()) __atomic_fetch_add(&scratch_bad, 1, __ATOMIC_RELAXED);
  /* Sections through the gcc 9+ entry point, and their cancellable end. */
  mem = (void*)(uintptr_t)16;
  for (unsigned sct = GOMP_sections2_start(3, NULL, &mem); sct; sct = GOMP_sections_next())
    __atomic_fetch_add(&sec_hits[sct - 1], 1, __ATOMIC_RELAXED);
  if (GOMP_sections_end_cancel()) __atomic_fetch_add(&scratch_bad, 1, __ATOMIC_RELAXED);
  /* Ordered outside an ordered loop must not block. */
  GOMP_ordered_start();
  GOMP_ordered_end();
}

static void generic_forms(void) {
  memset(scratch_seen, 0, sizeof scratch_seen);
  memset(sec_hits, 0, sizeof sec_hits);
  int n = 0;
  GOMP_parallel(generic_body, NULL, 0, 0);
#pragma omp parallel
#pragma omp single
  n = omp_get_num_threads();
  CHECK_EQ_LONG(scratch_bad, 0);
  for (int t = 1; t < n && t < 64; ++t) CHECK(scratch_seen[t] == scratch_seen[0]);
  CHECK(scratch_seen[0] != NULL);
  check_hits(N, "GOMP_loop_ull_start");
  for (int s = 0; s < 3; ++s) CHECK_EQ_LONG(sec_hits[s], 1);
}

/* Doacross over unsigned counts with the ull post/wait entry points:
 * a 1-D chain, each iteration waiting for the one before. */
static ull chain[200];
static void doacross_body(void* arg) {
  int dynamic = *(int*)arg;
  ull counts[1] = {200}, s, e;
  bool more = dynamic ? GOMP_loop_ull_doacross_dynamic_start(1, counts, 3, &s, &e)
                      : GOMP_loop_ull_doacross_static_start(1, counts, 0, &s, &e);
  while (more) {
    for (ull i = s; i < e; ++i) {
      if (i > 0) GOMP_doacross_ull_wait(i - 1);
      GOMP_doacross_ull_wait(i + 1000); /* out of range: returns */
      chain[i] = i ? chain[i - 1] + 1 : 1;
      ull v[1] = {i};
      GOMP_doacross_ull_post(v);
    }
    more = GOMP_loop_ull_runtime_next(&s, &e);
  }
  GOMP_loop_end();
}

static void doacross_ull(void) {
  for (int dyn = 0; dyn < 2; ++dyn) {
    memset(chain, 0, sizeof chain);
    GOMP_parallel(doacross_body, &dyn, 0, 0);
    for (int i = 0; i < 200; ++i) CHECK_EQ_LONG(chain[i], i + 1);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  combined_loops();
  combined_sections();
  generic_forms();
  doacross_ull();
  KITE_TEST_END();
}
