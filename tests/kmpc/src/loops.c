// Worksharing loops through __kmpc_for_static_init_* and
// __kmpc_dispatch_*: every schedule, int / unsigned / long / unsigned long
// iteration variables, upward and downward, unit and non-unit steps,
// lastprivate, nowait. Each iteration must run exactly once.
#include <omp.h>
#include <string.h>

#include "kite_test.h"

#define N 1000
static int hits[N + 64];

static void reset(void) { memset(hits, 0, sizeof hits); }

static void expect_once(long first, long last, long step, const char* what) {
  long expected = 0;
  for (long i = first; step > 0 ? i <= last : i >= last; i += step) {
    if (hits[i] != 1) {
      fprintf(stderr, "%s: iteration %ld ran %d times\n", what, i, hits[i]);
      kite_test_failures++;
      return;
    }
    hits[i] = 0;
    expected++;
  }
  for (int i = 0; i < N + 64; i++)
    if (hits[i]) {
      fprintf(stderr, "%s: stray iteration %d\n", what, i);
      kite_test_failures++;
      return;
    }
}

#define HIT(i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED)

// One loop shape under every schedule, as a parallel-for and inside a
// region with nowait.
#define ALL_SCHEDULES(TYPE, INIT, COND, INCR, FIRST, LAST, STEP)                          \
  do {                                                                                    \
    TYPE lp;                                                                              \
    _Pragma("omp parallel for schedule(static) lastprivate(lp)")                          \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " static");                                      \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(static, 7) lastprivate(lp)")                       \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " static,7");                                    \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(dynamic) lastprivate(lp)")                         \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " dynamic");                                     \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(dynamic, 5) lastprivate(lp)")                      \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " dynamic,5");                                   \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(guided) lastprivate(lp)")                          \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " guided");                                      \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(guided, 3) lastprivate(lp)")                       \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " guided,3");                                    \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(runtime) lastprivate(lp)")                         \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " runtime");                                     \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(auto) lastprivate(lp)")                            \
    for (TYPE i = INIT; COND; INCR) { HIT(i); lp = i; }                                   \
    expect_once(FIRST, LAST, STEP, #TYPE " auto");                                        \
    CHECK_EQ_LONG(lp, LAST);                                                              \
    _Pragma("omp parallel for schedule(nonmonotonic: dynamic, 2)")                        \
    for (TYPE i = INIT; COND; INCR) { HIT(i); }                                           \
    expect_once(FIRST, LAST, STEP, #TYPE " nonmonotonic dynamic");                        \
    _Pragma("omp parallel")                                                               \
    {                                                                                     \
      _Pragma("omp for schedule(dynamic, 4) nowait")                                      \
      for (TYPE i = INIT; COND; INCR) HIT(i);                                             \
      _Pragma("omp for schedule(static, 3) nowait")                                       \
      for (TYPE i = INIT; COND; INCR) HIT(i);                                             \
      _Pragma("omp for schedule(guided) nowait")                                          \
      for (TYPE i = INIT; COND; INCR) HIT(i);                                             \
    }                                                                                     \
    for (int k = 0; k < N + 64; k++) hits[k] = hits[k] == 3 ? 1 : hits[k] ? hits[k] + 100 : 0;         \
    expect_once(FIRST, LAST, STEP, #TYPE " nowait x3");                                   \
  } while (0)

static void empty_loops(void) {
  int ran = 0;
  int lo = 10, hi = 5;
#pragma omp parallel for schedule(static) reduction(+ : ran)
  for (int i = lo; i < hi; i++) ran++;
#pragma omp parallel for schedule(dynamic) reduction(+ : ran)
  for (int i = lo; i < hi; i++) ran++;
  unsigned ulo = 3, uhi = 3;
#pragma omp parallel for schedule(guided) reduction(+ : ran)
  for (unsigned i = ulo; i < uhi; i++) ran++;
  CHECK_EQ_LONG(ran, 0);
}

// Fewer iterations than threads, and a single iteration.
static void tiny_loops(void) {
  int ran = 0;
#pragma omp parallel for schedule(static) reduction(+ : ran)
  for (int i = 0; i < 1; i++) ran++;
#pragma omp parallel for schedule(static, 2) reduction(+ : ran)
  for (int i = 0; i < 3; i++) ran++;
#pragma omp parallel for schedule(dynamic, 8) reduction(+ : ran)
  for (int i = 0; i < 3; i++) ran++;
  CHECK_EQ_LONG(ran, 7);
}

// Loops near the limits of the iteration variable's type.
static void edge_loops(void) {
  long count = 0;
#pragma omp parallel for schedule(dynamic, 1000) reduction(+ : count)
  for (unsigned i = 4294967295u - 2999u; i < 4294967295u; i++) count++;
  CHECK_EQ_LONG(count, 2999);
  count = 0;
#pragma omp parallel for schedule(static) reduction(+ : count)
  for (long i = -9223372036854775807L; i < -9223372036854775807L + 500; i += 3) count++;
  CHECK_EQ_LONG(count, 167);
  count = 0;
#pragma omp parallel for schedule(guided) reduction(+ : count)
  for (unsigned long i = 18446744073709551615ul; i > 18446744073709551615ul - 700; i -= 7)
    count++;
  CHECK_EQ_LONG(count, 100);
}

int main(void) {
  KITE_TEST_BEGIN();
  reset();
  omp_set_schedule(omp_sched_dynamic, 3);
  ALL_SCHEDULES(int, 0, i < N, i++, 0, N - 1, 1);
  ALL_SCHEDULES(int, N - 1, i >= 0, i--, N - 1, 0, -1);
  ALL_SCHEDULES(int, 5, i <= N, i += 3, 5, 5 + 3 * ((N - 5) / 3), 3);
  ALL_SCHEDULES(int, N, i > 2, i -= 4, N, N - 4 * ((N - 3) / 4), -4);
  ALL_SCHEDULES(unsigned, 0u, i < (unsigned)N, i++, 0, N - 1, 1);
  ALL_SCHEDULES(unsigned, (unsigned)N, i > 0u, i -= 2, N, 2, -2);
  ALL_SCHEDULES(long, -0L + 7, i < (long)N, i += 5, 7, 7 + 5 * ((N - 8) / 5), 5);
  ALL_SCHEDULES(long, (long)N - 1, i >= 1L, i -= 3, N - 1, (N - 1) - 3 * ((N - 2) / 3), -3);
  ALL_SCHEDULES(unsigned long, 0ul, i < (unsigned long)N, i++, 0, N - 1, 1);
  ALL_SCHEDULES(unsigned long, (unsigned long)N - 1, i >= 10ul, i -= 6, N - 1,
                (N - 1) - 6 * ((N - 11) / 6), -6);
  omp_set_schedule(omp_sched_guided, 0);
  ALL_SCHEDULES(int, 0, i < N, i++, 0, N - 1, 1);
  omp_set_schedule(omp_sched_static, 0);
  ALL_SCHEDULES(long, 0L, i < (long)N, i++, 0, N - 1, 1);
  empty_loops();
  tiny_loops();
  edge_loops();

  // Orphaned loop outside any parallel region.
#pragma omp for schedule(dynamic)
  for (int i = 0; i < N; i++) HIT(i);
  expect_once(0, N - 1, 1, "orphaned dynamic");
#pragma omp for
  for (int i = 0; i < N; i++) HIT(i);
  expect_once(0, N - 1, 1, "orphaned static");

  // collapse(2): clang flattens it into one 64-bit loop.
#pragma omp parallel for collapse(2) schedule(guided)
  for (int i = 0; i < 25; i++)
    for (int j = 0; j < 40; j++) HIT(i * 40 + j);
  expect_once(0, N - 1, 1, "collapse(2)");
  KITE_TEST_END();
}
