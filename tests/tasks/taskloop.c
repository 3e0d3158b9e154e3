// kite-test-threads: 1 2 4 8
/* taskloop: every iteration runs once; the split obeys grainsize (each
 * task gets [g, 2g) iterations), grainsize strict (exactly g but the last),
 * num_tasks (exactly that many tasks); nogroup leaves the tasks to a later
 * taskwait; negative steps, unsigned long long bounds, if(0), final,
 * priority and untied are accepted. A task's iterations are found through a
 * firstprivate variable that carries over from one iteration to the next
 * within a task. */
#include "kite_test.h"

#define N 1000
static int prev_of[N], hits[N];

static void reset(void) {
  for (int i = 0; i < N; ++i) prev_of[i] = -2, hits[i] = 0;
}

/* Returns the number of tasks; checks chunk sizes against [lo, hi]. */
static int chunks(int n, int lo, int hi, int last_lo, int last_hi) {
  int tasks = 0, bad = 0, len = 0;
  for (int i = 0; i < n; ++i) {
    if (hits[i] != 1) ++bad;
    if (prev_of[i] == -1) {
      if (tasks && (len < lo || len > hi)) ++bad;
      ++tasks;
      len = 0;
    } else if (prev_of[i] != i - 1) {
      ++bad;
    }
    ++len;
  }
  if (len < last_lo || len > last_hi) ++bad;
  CHECK_EQ_LONG(bad, 0);
  return tasks;
}

#define BODY                          \
  {                                   \
    prev_of[i] = last;                \
    last = i;                         \
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED); \
  }

int main(void) {
  KITE_TEST_BEGIN();
#pragma omp parallel
#pragma omp single
  {
    int last = -1;
    reset();
#pragma omp taskloop grainsize(30) firstprivate(last)
    for (int i = 0; i < N; ++i) BODY
    int t = chunks(N, 30, 59, 30, 59);
    CHECK_EQ_LONG(t, N / 30);

    /* The strict modifier is OpenMP 5.1: clang before 15 lacks it, and
     * clang 19 accepts it but drops it (a plain __kmpc_taskloop call). */
#if !defined(__clang__) || (__clang_major__ >= 15 && __clang_major__ != 19)
    reset();
#pragma omp taskloop grainsize(strict : 30) firstprivate(last)
    for (int i = 0; i < N; ++i) BODY
    t = chunks(N, 30, 30, N % 30, N % 30);
    CHECK_EQ_LONG(t, N / 30 + 1);
#endif

    reset();
#pragma omp taskloop num_tasks(17) firstprivate(last)
    for (int i = 0; i < N; ++i) BODY
    t = chunks(N, N / 17, N / 17 + 1, N / 17, N / 17 + 1);
    CHECK_EQ_LONG(t, 17);

    reset();
#pragma omp taskloop num_tasks(5000) firstprivate(last)
    for (int i = 0; i < 10; ++i) BODY
    t = chunks(10, 1, 1, 1, 1);
    CHECK_EQ_LONG(t, 10);

    /* nogroup: the tasks are siblings of the encountering task's children. */
    reset();
#pragma omp taskloop nogroup grainsize(100) firstprivate(last)
    for (int i = 0; i < N; ++i) BODY
#pragma omp taskwait
    chunks(N, 100, 199, 100, 199);

    /* Downward loop with a stride. */
    reset();
#pragma omp taskloop num_tasks(7)
    for (int i = N - 1; i >= 0; i -= 3) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += hits[i] != ((N - 1 - i) % 3 == 0);
    CHECK_EQ_LONG(bad, 0);

    /* unsigned long long bounds above 2^63. */
    unsigned long long base = 0xF000000000000000ull;
    int uhits = 0;
#pragma omp taskloop grainsize(10) shared(uhits)
    for (unsigned long long u = base; u < base + 500; u += 5) __atomic_add_fetch(&uhits, 1, __ATOMIC_RELAXED);
    CHECK_EQ_LONG(uhits, 100);
    uhits = 0;
#pragma omp taskloop num_tasks(3) shared(uhits)
    for (unsigned long long u = base + 500; u > base; u -= 5) __atomic_add_fetch(&uhits, 1, __ATOMIC_RELAXED);
    CHECK_EQ_LONG(uhits, 100);

    /* if(0), final, priority, untied: all iterations still run. */
    int c = 0, in_final = 0;
#pragma omp taskloop if (0) grainsize(10) shared(c)
    for (int i = 0; i < 100; ++i) __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED);
#pragma omp taskloop final(1) num_tasks(4) shared(c, in_final)
    for (int i = 0; i < 100; ++i) {
      __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED);
      if (omp_in_final()) __atomic_add_fetch(&in_final, 1, __ATOMIC_RELAXED);
    }
#pragma omp taskloop priority(3) untied shared(c)
    for (int i = 0; i < 100; ++i) __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED);
    CHECK_EQ_LONG(c, 300);
    CHECK_EQ_LONG(in_final, 100);

    /* Empty loops create nothing. */
    int none = 0;
#pragma omp taskloop shared(none)
    for (int i = 5; i < 5; ++i) none++;
    CHECK_EQ_LONG(none, 0);
  }
  KITE_TEST_END();
}
