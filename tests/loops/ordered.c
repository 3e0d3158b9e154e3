/* kite-test-threads: 1 2 4 8
 * Ordered regions run in iteration order under every schedule, for long and
 * unsigned long long loops, upward and downward, when only some iterations
 * reach the ordered region, back to back without a barrier, and outside
 * any parallel region. */
#include "kite_test.h"

#define N 600

static long seq[N + 8];
static int pos;
static long chunk = 3;

static void record(long v) {
  /* Inside the ordered region: no other thread may be here. */
  int p = __atomic_fetch_add(&pos, 1, __ATOMIC_RELAXED);
  if (p < N + 8) seq[p] = v;
}

/* The recorded values must be exactly expect(0), expect(1), ... */
static void check(int count, long first, long step, const char* what) {
  int bad = 0;
  if (pos != count) {
    fprintf(stderr, "%s: %d ordered regions ran, expected %d\n", what, pos, count);
    bad = 1;
  }
  for (int k = 0; k < count && k < pos && !bad; ++k)
    if (seq[k] != first + k * step) {
      fprintf(stderr, "%s: position %d holds %ld, expected %ld\n", what, k, seq[k],
              first + k * step);
      bad = 1;
    }
  if (bad) __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);
  pos = 0;
}

static void spin(long i) {
  volatile long x = 0;
  for (long k = 0; k < (i * 7919) % 200; ++k) x += k;
}

#define ORDERED_LOOPS(NAME, CLAUSE, NW)                                                     \
  static void NAME(void) {                                                                 \
    _Pragma("omp parallel") {                                                              \
      _Pragma(CLAUSE) for (long i = 0; i < N; ++i) {                                       \
        spin(i);                                                                           \
        _Pragma("omp ordered") record(i);                                                  \
      }                                                                                    \
    }                                                                                      \
    check(N, 0, 1, #NAME " up");                                                           \
    _Pragma("omp parallel") {                                                              \
      _Pragma(CLAUSE) for (long i = 3 * N; i > 0; i -= 3) {                                \
        spin(i);                                                                           \
        _Pragma("omp ordered") record(i);                                                  \
      }                                                                                    \
    }                                                                                      \
    check(N, 3 * N, -3, #NAME " down");                                                    \
    _Pragma("omp parallel") {                                                              \
      _Pragma(CLAUSE) for (unsigned long long i = 1ull << 63; i < (1ull << 63) + N; ++i) { \
        spin((long)(i & 1023));                                                            \
        _Pragma("omp ordered") record((long)(i - (1ull << 63)));                           \
      }                                                                                    \
    }                                                                                      \
    check(N, 0, 1, #NAME " ull");                                                          \
    /* Only every fifth iteration reaches its ordered region. */                           \
    _Pragma("omp parallel") {                                                              \
      _Pragma(CLAUSE) for (long i = 0; i < N; ++i) {                                       \
        spin(i);                                                                           \
        if (i % 5 == 0) {                                                                  \
          _Pragma("omp ordered") record(i);                                                \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    check(N / 5, 0, 5, #NAME " sparse");                                                   \
    /* Back to back, nowait: the second loop's turns are its own. */                       \
    _Pragma("omp parallel") {                                                              \
      for (int rep = 0; rep < 12; ++rep) {                                                 \
        _Pragma(NW)             for (long i = 0; i < 40; ++i) {                          \
          _Pragma("omp ordered") record(rep * 40 + i);                                     \
        }                                                                                  \
      }                                                                                    \
    }                                                                                      \
    /* Across loops only each loop's own order is promised. */                             \
    {                                                                                      \
      int n = pos, seen[480] = {0}, bad = n != 480;                                        \
      for (int k = 0; k < n && k < 480; ++k) {                                             \
        long v = seq[k], rep = v / 40;                                                     \
        if (v < 0 || v >= 480 || seen[v]++) bad = 1;                                       \
        for (int j = k + 1; j < n && !bad; ++j)                                            \
          if (seq[j] / 40 == rep && seq[j] < v) bad = 1;                                   \
      }                                                                                    \
      if (bad) {                                                                           \
        fprintf(stderr, "%s: nowait ordered loops out of order\n", #NAME);                 \
        __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);                      \
      }                                                                                    \
      pos = 0;                                                                             \
    }                                                                                      \
    /* Outside a parallel region. */                                                       \
    _Pragma(CLAUSE) for (long i = 0; i < 50; ++i) {                                        \
      _Pragma("omp ordered") record(i);                                                    \
    }                                                                                      \
    check(50, 0, 1, #NAME " serial");                                                      \
  }

ORDERED_LOOPS(o_static, "omp for ordered schedule(static)",
              "omp for ordered schedule(static) nowait")
ORDERED_LOOPS(o_static_c, "omp for ordered schedule(static, chunk)",
              "omp for ordered schedule(static, chunk) nowait")
ORDERED_LOOPS(o_dynamic, "omp for ordered schedule(dynamic)",
              "omp for ordered schedule(dynamic) nowait")
ORDERED_LOOPS(o_dynamic_c, "omp for ordered schedule(dynamic, chunk)",
              "omp for ordered schedule(dynamic, chunk) nowait")
ORDERED_LOOPS(o_guided, "omp for ordered schedule(guided)",
              "omp for ordered schedule(guided) nowait")
ORDERED_LOOPS(o_guided_c, "omp for ordered schedule(guided, chunk)",
              "omp for ordered schedule(guided, chunk) nowait")
ORDERED_LOOPS(o_runtime, "omp for ordered schedule(runtime)",
              "omp for ordered schedule(runtime) nowait")

int main(void) {
  KITE_TEST_BEGIN();
  o_static();
  o_static_c();
  o_dynamic();
  o_dynamic_c();
  o_guided();
  o_guided_c();
  omp_set_schedule(omp_sched_dynamic, 2);
  o_runtime();
  omp_set_schedule(omp_sched_static, 0);
  o_runtime();
  omp_set_schedule(omp_sched_guided, 4);
  o_runtime();
  KITE_TEST_END();
}
