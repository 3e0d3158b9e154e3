/* kite-test-threads: 1 2 4 8
 * Sections (each once, with and without nowait, combined parallel
 * sections), single (one thread, barrier after unless nowait), single
 * with copyprivate, scope, and all of them outside a parallel region. */
#include "kite_test.h"

static int sec[8];

static void sections_once(void) {
  memset(sec, 0, sizeof sec);
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      __atomic_fetch_add(&sec[0], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&sec[1], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&sec[2], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&sec[3], 1, __ATOMIC_RELAXED);
#pragma omp section
      __atomic_fetch_add(&sec[4], 1, __ATOMIC_RELAXED);
    }
    /* The implicit barrier: every section is done here. */
    for (int s = 0; s < 5; ++s) CHECK_EQ_LONG(__atomic_load_n(&sec[s], __ATOMIC_RELAXED), 1);
  }
#pragma omp parallel sections
  {
#pragma omp section
    __atomic_fetch_add(&sec[5], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_fetch_add(&sec[6], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_fetch_add(&sec[7], 1, __ATOMIC_RELAXED);
  }
  for (int s = 0; s < 8; ++s) CHECK_EQ_LONG(sec[s], 1);
  /* Outside a parallel region. */
  memset(sec, 0, sizeof sec);
#pragma omp sections
  {
#pragma omp section
    sec[0]++;
#pragma omp section
    sec[1]++;
  }
  CHECK_EQ_LONG(sec[0], 1);
  CHECK_EQ_LONG(sec[1], 1);
}

static void single_once(void) {
  int count = 0, after = 0, nowait_count = 0;
  int nthreads = 1;
#pragma omp parallel
  {
#pragma omp single
    {
      nthreads = omp_get_num_threads();
      __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    }
    /* Barrier after single: everybody sees the count. */
    if (__atomic_load_n(&count, __ATOMIC_RELAXED) != 1) __atomic_fetch_add(&after, 1, __ATOMIC_RELAXED);
    for (int r = 0; r < 30; ++r) {
#pragma omp single nowait
      __atomic_fetch_add(&nowait_count, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(count, 1);
  CHECK_EQ_LONG(nowait_count, 30);
  CHECK_EQ_LONG(after, 0);
  CHECK(nthreads >= 1);
  count = 0;
#pragma omp single
  count++;
  CHECK_EQ_LONG(count, 1);
}

static void copyprivate(void) {
  for (int r = 0; r < 50; ++r) {
    int bad = 0;
#pragma omp parallel
    {
      int x = -1;
      double d = 0;
      long arr[4] = {0, 0, 0, 0};
#pragma omp single copyprivate(x, d, arr)
      {
        x = 1000 + r;
        d = 0.5 * r;
        for (int k = 0; k < 4; ++k) arr[k] = r * 10 + k;
      }
      int ok = x == 1000 + r && d == 0.5 * r;
      for (int k = 0; k < 4; ++k) ok = ok && arr[k] == r * 10 + k;
      if (!ok) __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK_EQ_LONG(bad, 0);
  }
  int y = 0;
#pragma omp single copyprivate(y)
  y = 42;
  CHECK_EQ_LONG(y, 42);
}

/* clang before 16 has no scope directive; clang 19 rejects a scope with a
 * reduction ("cannot compile this scope with FE outlining yet"). */
#if !defined(__clang__) || (__clang_major__ >= 16 && __clang_major__ != 19)
#define HAVE_SCOPE 1
#else
#define HAVE_SCOPE 0
#endif

#if HAVE_SCOPE
static void scope(void) {
  int sum = 0;
#pragma omp parallel
  {
    int mine = omp_get_thread_num() + 1;
#pragma omp scope reduction(+: sum)
    sum += mine;
  }
  int n = 0;
#pragma omp parallel
#pragma omp single
  n = omp_get_num_threads();
  CHECK_EQ_LONG(sum, n * (n + 1) / 2);
}
#endif

/* GOMP_scope_start is only emitted for reduction(task, ...); with no
 * reductions it must simply let every thread through, however often.
 * (gcc's entry point: not in clang's builds.) */
#ifndef __clang__
extern void GOMP_scope_start(void*);
static void scope_entry(void) {
  int passed = 0;
#pragma omp parallel
  {
    for (int r = 0; r < 20; ++r) GOMP_scope_start(NULL);
    __atomic_fetch_add(&passed, 1, __ATOMIC_RELAXED);
  }
  CHECK(passed >= 1);
  GOMP_scope_start(NULL);
}
#endif

int main(void) {
  KITE_TEST_BEGIN();
  for (int r = 0; r < 20; ++r) {
    sections_once();
    single_once();
  }
  copyprivate();
#if HAVE_SCOPE
  scope();
#endif
#ifndef __clang__
  scope_entry();
#endif
  KITE_TEST_END();
}
