/* kite-test-threads: 1 2 4 8
 * Doacross loops (ordered(n) with depend(sink)/depend(source)): a 2-D
 * wavefront must equal the serial result under every schedule, for long
 * and unsigned long long loops, with non-unit steps, downward loops,
 * collapsed dimensions, and a 3-D nest; sinks outside the iteration space
 * must not block. */
#include "kite_test.h"

#define NI 60
#define NJ 70

static long a[NI + 1][NJ + 1];
static long ref[NI + 1][NJ + 1];
static long chunk = 3;

static void reference(void) {
  for (int i = 0; i <= NI; ++i)
    for (int j = 0; j <= NJ; ++j)
      ref[i][j] = (i == 0 || j == 0) ? 1 : (ref[i - 1][j] + ref[i][j - 1] + ref[i - 1][j - 1] % 7) % 1000003;
}

static void reset(void) {
  for (int i = 0; i <= NI; ++i)
    for (int j = 0; j <= NJ; ++j) a[i][j] = (i == 0 || j == 0) ? 1 : -1000000;
}

static void compare(const char* what) {
  for (int i = 0; i <= NI; ++i)
    for (int j = 0; j <= NJ; ++j)
      if (a[i][j] != ref[i][j]) {
        fprintf(stderr, "%s: a[%d][%d] = %ld, expected %ld\n", what, i, j, a[i][j], ref[i][j]);
        __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);
        return;
      }
}

#define WAVE(NAME, CLAUSE)                                                              \
  static void NAME(void) {                                                              \
    reset();                                                                            \
    _Pragma("omp parallel") {                                                           \
      _Pragma(CLAUSE) for (int i = 1; i <= NI; ++i) for (int j = 1; j <= NJ; ++j) {     \
        _Pragma("omp ordered depend(sink: i-1,j) depend(sink: i,j-1) depend(sink: i-1,j-1)") \
        a[i][j] = (a[i - 1][j] + a[i][j - 1] + a[i - 1][j - 1] % 7) % 1000003;          \
        _Pragma("omp ordered depend(source)")                                           \
      }                                                                                 \
    }                                                                                   \
    compare(#NAME);                                                                     \
    /* Same recurrence walked downward with a step of 2 in j. */                        \
    reset();                                                                            \
    _Pragma("omp parallel") {                                                           \
      _Pragma(CLAUSE) for (int i = 1; i <= NI; ++i) for (int j = 2 * NJ; j >= 2; j -= 2) { \
        int jj = NJ + 1 - j / 2; /* 1..NJ as j walks down */                            \
        _Pragma("omp ordered depend(sink: i-1,j) depend(sink: i,j+2) depend(sink: i-1,j+2)") \
        a[i][jj] = (a[i - 1][jj] + a[i][jj - 1] + a[i - 1][jj - 1] % 7) % 1000003;      \
        _Pragma("omp ordered depend(source)")                                           \
      }                                                                                 \
    }                                                                                   \
    compare(#NAME " down");                                                             \
    /* Unsigned long long iteration variables. */                                       \
    reset();                                                                            \
    _Pragma("omp parallel") {                                                           \
      _Pragma(CLAUSE) for (unsigned long long i = 1; i <= NI; ++i)                      \
      for (unsigned long long j = 1; j <= NJ; ++j) {                                    \
        _Pragma("omp ordered depend(sink: i-1,j) depend(sink: i,j-1) depend(sink: i-1,j-1)") \
        a[i][j] = (a[i - 1][j] + a[i][j - 1] + a[i - 1][j - 1] % 7) % 1000003;          \
        _Pragma("omp ordered depend(source)")                                           \
      }                                                                                 \
    }                                                                                   \
    compare(#NAME " ull");                                                              \
  }

WAVE(w_static, "omp for ordered(2) schedule(static)")
WAVE(w_static1, "omp for ordered(2) schedule(static, 1)")
WAVE(w_static_c, "omp for ordered(2) schedule(static, chunk)")
WAVE(w_dynamic, "omp for ordered(2) schedule(dynamic)")
WAVE(w_dynamic_c, "omp for ordered(2) schedule(dynamic, chunk)")
WAVE(w_guided, "omp for ordered(2) schedule(guided)")
WAVE(w_guided_c, "omp for ordered(2) schedule(guided, chunk)")
WAVE(w_runtime, "omp for ordered(2) schedule(runtime)")

/* collapse(2) ordered(3): the collapsed pair is one workshared dimension. */
static long b[8][9][10];
static void nest3(void) {
  memset(b, 0, sizeof b);
#pragma omp parallel
  {
#pragma omp for collapse(2) ordered(3) schedule(dynamic, 2)
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 9; ++j)
        for (int k = 0; k < 10; ++k) {
#pragma omp ordered depend(sink: i - 1, j, k) depend(sink: i, j - 1, k) depend(sink: i, j, k - 1)
          b[i][j][k] = 1 + (i ? b[i - 1][j][k] : 0) + (j ? b[i][j - 1][k] : 0) +
                       (k ? b[i][j][k - 1] : 0);
#pragma omp ordered depend(source)
        }
  }
  static long r[8][9][10];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 9; ++j)
      for (int k = 0; k < 10; ++k)
        r[i][j][k] = 1 + (i ? r[i - 1][j][k] : 0) + (j ? r[i][j - 1][k] : 0) +
                     (k ? r[i][j][k - 1] : 0);
  CHECK(memcmp(b, r, sizeof b) == 0);
}

/* Sinks outside the iteration space must not block. */
static void out_of_range(void) {
  int count = 0;
#pragma omp parallel
  {
#pragma omp for ordered(2) schedule(static, 1)
    for (int i = 0; i < 20; ++i)
      for (int j = 0; j < 20; ++j) {
#pragma omp ordered depend(sink: i - 1, j + 100) depend(sink: i - 50, j - 3)
        __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
      }
  }
  CHECK_EQ_LONG(count, 400);
}

/* A sink one past the end of the inner loop names no iteration: the last
 * column of each row waits only for its left neighbour. (clang passes each
 * loop's count as its upper bound; read as an inclusive bound it would name
 * a column that never comes.) */
static void sink_past_end(void) {
  static long c[12][9];
  memset(c, 0, sizeof c);
#pragma omp parallel
  {
#pragma omp for ordered(2) schedule(static, 1)
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 9; ++j) {
#pragma omp ordered depend(sink: i - 1, j + 1) depend(sink: i, j - 1)
        c[i][j] = 1 + (i && j + 1 < 9 ? c[i - 1][j + 1] : 0) + (j ? c[i][j - 1] : 0);
#pragma omp ordered depend(source)
      }
  }
  long r[12][9];
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 9; ++j)
      r[i][j] = 1 + (i && j + 1 < 9 ? r[i - 1][j + 1] : 0) + (j ? r[i][j - 1] : 0);
  CHECK(memcmp(c, r, sizeof c) == 0);
}

int main(void) {
  KITE_TEST_BEGIN();
  reference();
  for (int rep = 0; rep < 3; ++rep) {
    w_static();
    w_static1();
    w_static_c();
    w_dynamic();
    w_dynamic_c();
    w_guided();
    w_guided_c();
    omp_set_schedule(omp_sched_guided, 2);
    w_runtime();
    omp_set_schedule(omp_sched_static, 0);
    w_runtime();
    nest3();
    out_of_range();
    sink_past_end();
  }
  KITE_TEST_END();
}
